//! macOS: a Seatbelt profile (the language `sandbox-exec -p` takes) generated from the same
//! resolved permissions as Linux's Landlock rules (docs/sandbox.md, "What each OS enforces").
//! The text is built on every OS so that it is tested everywhere; only macOS runs it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{Network, Resolved};

/// Apple's launcher: the program it is given runs under the profile, and so do its children.
pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// What every program needs to start on macOS: the system, its libraries and settings,
/// and the usual package managers' prefixes (Homebrew under `/opt`, MacPorts under
/// `/opt/local`).
const SYSTEM_READ: [&str; 9] = [
    "/usr",
    "/bin",
    "/sbin",
    "/System",
    "/Library",
    "/private/etc",
    "/private/var/db/timezone",
    "/opt",
    "/dev",
];

/// Devices programs write without asking.
const DEVICES: [&str; 6] = [
    "/dev/null",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
];

/// Services reached over Mach by name resolution and TLS: without them a program with
/// network access cannot resolve a host or check a certificate.
const NETWORK_SERVICES: [&str; 8] = [
    "com.apple.SystemConfiguration.DNSConfiguration",
    "com.apple.SystemConfiguration.configd",
    "com.apple.dnssd.service",
    "com.apple.networkd",
    "com.apple.trustd.agent",
    "com.apple.SecurityServer",
    "com.apple.ocspd",
    "com.apple.bsd.dirhelper",
];

/// The profile for one run: `extra_read` holds the installations the program runs from
/// (see `installations`); `proxy_port` is agx's network proxy on this machine, the only
/// destination of a program with a host list. Paths are given as they are; [`real_paths`]
/// makes them what the kernel compares (`/tmp` is `/private/tmp` on macOS).
pub fn profile(resolved: &Resolved, extra_read: &[PathBuf], proxy_port: Option<u16>) -> String {
    let mut p = String::from(
        "(version 1)\n(deny default)\n\
         ; children inherit the profile\n\
         (allow process-exec process-fork)\n\
         (allow signal (target same-sandbox))\n\
         (allow process-info* (target same-sandbox))\n\
         ; stat of any path (module resolvers walk every parent); contents stay denied\n\
         (allow file-read-metadata)\n\
         (allow sysctl-read)\n\
         (allow mach-host*)\n\
         (allow ipc-posix-sem ipc-posix-shm)\n\
         (allow user-preference-read)\n\
         (allow pseudo-tty)\n\
         (allow mach-lookup (global-name \"com.apple.system.opendirectoryd.libinfo\"))\n",
    );
    let read: Vec<PathBuf> = SYSTEM_READ
        .iter()
        .map(PathBuf::from)
        .chain(resolved.read.iter().cloned())
        .chain(extra_read.iter().cloned())
        .collect();
    rule(&mut p, "file-read*", "subpath", &read);
    let devices: Vec<PathBuf> = DEVICES.iter().map(PathBuf::from).collect();
    rule(
        &mut p,
        "file-read* file-write* file-ioctl",
        "literal",
        &devices,
    );
    p.push_str("(allow file-read* file-write* file-ioctl (regex #\"^/dev/ttys[0-9]+$\"))\n");
    rule(&mut p, "file-read* file-write*", "subpath", &resolved.write);
    match &resolved.network {
        Network::None => p.push_str("; network: none\n"),
        Network::Any => {
            p.push_str("; network: any\n(allow network* system-socket)\n");
            services(&mut p);
        }
        Network::Loopback => p.push_str(
            "; network: this machine only\n\
             (allow system-socket)\n\
             (allow network-outbound (remote ip \"localhost:*\"))\n\
             (allow network-inbound network-bind (local ip \"localhost:*\"))\n",
        ),
        // Through the proxy's tunnel the program still checks certificates itself (trustd).
        Network::Hosts(_) => match proxy_port {
            Some(port) => {
                let _ = write!(
                    p,
                    "; network: agx's proxy only\n\
                     (allow system-socket)\n\
                     (allow network-outbound (remote ip \"localhost:{port}\"))\n"
                );
                services(&mut p);
            }
            None => p.push_str("; network: none (agx's proxy is not running)\n"),
        },
    }
    if resolved.network != Network::Any {
        // Denied by default already; said last, so that no rule above can grant them
        // (ssh-agent, docker.sock, the session bus).
        p.push_str("; no Unix socket but under network \"any\"\n(deny network-outbound (remote unix-socket))\n");
    }
    p
}

fn services(p: &mut String) {
    p.push_str("(allow mach-lookup");
    for name in NETWORK_SERVICES {
        let _ = write!(p, "\n  (global-name {})", quoted(name));
    }
    p.push_str(")\n");
}

/// `(allow ACTIONS (FILTER "path") …)`, nothing when there is no path.
fn rule(p: &mut String, actions: &str, filter: &str, paths: &[PathBuf]) {
    if paths.is_empty() {
        return;
    }
    let _ = write!(p, "(allow {actions}");
    for path in paths {
        let _ = write!(p, "\n  ({filter} {})", quoted(&path.to_string_lossy()));
    }
    p.push_str(")\n");
}

/// A profile string literal: backslashes and quotes escaped.
fn quoted(text: &str) -> String {
    let mut q = String::with_capacity(text.len() + 2);
    q.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// `resolved` with every path as the kernel sees it: links followed, except below a folder
/// the program may write or the project folder, where a link leaves the path out (see
/// `beneath.rs`); a path that does not exist is left out, as Linux's rules leave it out.
pub fn real_paths(resolved: &Resolved) -> Resolved {
    #[cfg(unix)]
    let real = {
        let anchors = super::beneath::Anchors::of(resolved);
        move |paths: &[PathBuf]| super::beneath::real_paths(paths, &anchors)
    };
    #[cfg(not(unix))]
    let real = |paths: &[PathBuf]| -> Vec<PathBuf> {
        paths
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect()
    };
    Resolved {
        read: real(&resolved.read),
        write: real(&resolved.write),
        ..resolved.clone()
    }
}

/// The command line that runs `program` under `profile`: `sandbox-exec -p PROFILE PROGRAM`
/// (the program's own arguments follow).
pub fn launcher(program: &Path, profile: String) -> (PathBuf, Vec<std::ffi::OsString>) {
    (
        PathBuf::from(SANDBOX_EXEC),
        vec!["-p".into(), profile.into(), program.as_os_str().to_owned()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(network: Network) -> Resolved {
        Resolved {
            read: vec![PathBuf::from("/store/acme/weather/1.0.0")],
            write: vec![
                PathBuf::from("/agx/data/acme/weather"),
                PathBuf::from("/private/tmp"),
            ],
            network,
            env: Vec::new(),
            declared: true,
        }
    }

    #[test]
    fn the_profile_denies_by_default_and_grants_the_resolved_paths() {
        let text = profile(
            &resolved(Network::None),
            &[PathBuf::from("/Users/u/.nvm/versions/node/v22.11.0")],
            None,
        );
        insta::assert_snapshot!(text);
    }

    #[test]
    fn each_network_kind_has_its_rules() {
        let none = profile(&resolved(Network::None), &[], None);
        assert!(!none.contains("(allow network"), "{none}");
        assert!(
            none.ends_with("(deny network-outbound (remote unix-socket))\n"),
            "{none}"
        );
        assert!(!none.contains("system-socket"), "{none}");
        let any = profile(&resolved(Network::Any), &[], None);
        assert!(any.contains("(allow network* system-socket)"), "{any}");
        assert!(any.contains("DNSConfiguration"), "{any}");
        assert!(!any.contains("unix-socket"), "{any}");
        let loopback = profile(&resolved(Network::Loopback), &[], None);
        assert!(
            loopback.contains("(remote ip \"localhost:*\")"),
            "{loopback}"
        );
        assert!(!loopback.contains("(allow network*"), "{loopback}");
        assert!(
            loopback.ends_with("(deny network-outbound (remote unix-socket))\n"),
            "{loopback}"
        );
        let hosts = Network::Hosts(vec!["api.github.com".into()]);
        let proxied = profile(&resolved(hosts.clone()), &[], Some(41234));
        assert!(
            proxied.contains("(allow network-outbound (remote ip \"localhost:41234\"))"),
            "{proxied}"
        );
        assert!(!proxied.contains("localhost:*"), "{proxied}");
        assert!(
            proxied.ends_with("(deny network-outbound (remote unix-socket))\n"),
            "{proxied}"
        );
        let without_proxy = profile(&resolved(hosts), &[], None);
        assert!(!without_proxy.contains("(allow network"), "{without_proxy}");
    }

    #[test]
    fn quotes_and_backslashes_in_paths_cannot_end_the_string() {
        let mut r = resolved(Network::Any);
        r.read = vec![PathBuf::from("/a\"b\\c")];
        let text = profile(&r, &[], None);
        assert!(text.contains(r#"(subpath "/a\"b\\c")"#), "{text}");
        // Every line's quotes pair up once the escaped ones are removed.
        for line in text.lines() {
            let bare = line.replace("\\\\", "").replace("\\\"", "");
            assert_eq!(bare.matches('"').count() % 2, 0, "{line}");
        }
    }

    #[test]
    fn the_launcher_runs_the_program_under_sandbox_exec() {
        let (program, args) = launcher(Path::new("/usr/bin/node"), "(version 1)".into());
        assert_eq!(program, Path::new(SANDBOX_EXEC));
        assert_eq!(args, ["-p", "(version 1)", "/usr/bin/node"]);
    }

    #[test]
    fn real_paths_follow_links_and_leave_out_missing_ones() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let mut r = resolved(Network::Any);
        r.read = vec![real.clone(), dir.path().join("missing")];
        r.write = vec![];
        let out = real_paths(&r);
        assert_eq!(out.read, [std::fs::canonicalize(&real).unwrap()]);
    }
}
