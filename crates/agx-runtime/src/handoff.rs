//! The hand-off from `agx serve` to `agx-serve`, a second binary of this crate that links
//! only what serving needs (a third less code than `agx`, so an idle server keeps fewer of
//! its pages resident).
//!
//! `agx` checks the arguments, then replaces itself with `agx-serve` from its own folder,
//! passing a fixed internal argument list. When there is no helper there (only `agx` was
//! copied) or it cannot be started, `agx` serves by itself. A helper from another build
//! (another release, or a stale one after `cargo run`) goes back to the `agx` that started
//! it with `AGX_NO_SERVE_HANDOFF=1`, so what runs is always the code of the `agx` the client
//! launched. That variable is also how a person asks `agx` to serve by itself. Windows has
//! no exec to hand off with, so there `agx` always serves by itself.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{Listen, ServeError};
use agx_core::paths::AgxPaths;

/// The helper's file name, beside `agx`.
pub const HELPER_NAME: &str = "agx-serve";

/// Set (to anything) to make `agx serve` serve by itself.
pub const NO_HANDOFF_ENV: &str = "AGX_NO_SERVE_HANDOFF";

/// The build both binaries pass to the hand-off: the version and a hash of the sources
/// (the root package's `build.rs` sets `AGX_BUILD_ID`), so a helper built from any other code
/// goes back to `agx`. A macro, so that it reads the binaries' build environment.
#[macro_export]
macro_rules! handoff_build {
    () => {
        concat!(env!("CARGO_PKG_VERSION"), "+", env!("AGX_BUILD_ID"))
    };
}

#[derive(Debug, thiserror::Error)]
pub enum HandoffError {
    #[error("{HELPER_NAME} is started by `agx serve`, not directly")]
    NotForPeople,
    #[error(
        "{HELPER_NAME} {build} cannot serve for agx {agx_build}, and starting {} failed: {source}",
        agx.display()
    )]
    GoBack {
        build: String,
        agx: PathBuf,
        agx_build: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Serve(#[from] ServeError),
}

impl agx_core::error::Hint for HandoffError {
    fn hint(&self) -> Option<String> {
        match self {
            HandoffError::NotForPeople => {
                Some("run `agx serve <publisher/package/server>` instead".into())
            }
            HandoffError::GoBack { .. } => Some(format!(
                "install agx and {HELPER_NAME} from the same release, side by side"
            )),
            HandoffError::Serve(e) => e.hint(),
        }
    }
}

/// What `agx` tells the helper: an interface between two binaries of the same build, not a
/// command line for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handoff {
    /// The `agx` that handed off, to go back to when the builds differ.
    pub agx: PathBuf,
    /// That `agx`'s build: version and source hash.
    pub build: String,
    /// Whether messages are coloured (`--color` and the terminal check, already resolved).
    pub color: bool,
    pub server: String,
    pub http: Option<String>,
    /// Arguments for a wrapped server's command (`agx serve REF -- ARG…`).
    pub args: Vec<String>,
}

impl Handoff {
    pub fn to_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec![
            "--agx".into(),
            self.agx.clone().into(),
            "--build".into(),
            self.build.clone().into(),
        ];
        args.extend(self.options());
        args.extend(["--".into(), self.server.clone().into()]);
        args.extend(self.args.iter().map(OsString::from));
        args
    }

    /// The options `agx serve` and the helper share: `--color`, `--http`.
    fn options(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec![
            "--color".into(),
            if self.color { "always" } else { "never" }.into(),
        ];
        if let Some(http) = &self.http {
            args.extend(["--http".into(), http.into()]);
        }
        args
    }

    /// The arguments after `agx serve` that serve what this hand-off serves: the options,
    /// the server (checked by `agx`, so never flag-like), then `-- ARG…` when there are
    /// arguments (everything after `--` is the wrapped server's).
    pub fn agx_serve_args(&self) -> Vec<OsString> {
        let mut args = self.options();
        args.push(self.server.clone().into());
        if !self.args.is_empty() {
            args.push("--".into());
            args.extend(self.args.iter().map(OsString::from));
        }
        args
    }

    /// Parse what [`Handoff::to_args`] wrote. Anything else means a person ran the helper.
    pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Handoff, HandoffError> {
        let mut args = args.into_iter();
        let (mut agx, mut build, mut color, mut http, mut server) = (None, None, None, None, None);
        let mut server_args = Vec::new();
        while let Some(flag) = args.next() {
            if flag == "--" {
                server = args.next().and_then(|s| s.into_string().ok());
                for arg in args.by_ref() {
                    server_args.push(arg.into_string().map_err(|_| HandoffError::NotForPeople)?);
                }
                break;
            }
            let value = args.next().ok_or(HandoffError::NotForPeople)?;
            match flag.to_str() {
                Some("--agx") => agx = Some(PathBuf::from(value)),
                Some("--build") => build = value.into_string().ok(),
                Some("--color") => color = Some(value == "always"),
                Some("--http") => {
                    http = Some(
                        value
                            .into_string()
                            .map_err(|_| HandoffError::NotForPeople)?,
                    )
                }
                _ => return Err(HandoffError::NotForPeople),
            }
        }
        match (agx, build, color, server) {
            (Some(agx), Some(build), Some(color), Some(server)) => Ok(Handoff {
                agx,
                build,
                color,
                server,
                http,
                args: server_args,
            }),
            _ => Err(HandoffError::NotForPeople),
        }
    }

    /// The helper's job: serve for an `agx` of its own `build` ([`handoff_build`]), or go
    /// back to one of another.
    pub fn take_over(&self, paths: &AgxPaths, build: &str) -> Result<(), HandoffError> {
        if self.build != build {
            return Err(self.go_back(build));
        }
        let served = super::Served::parse(&self.server)?;
        let listen = Listen::parse(self.http.as_deref())?;
        Ok(super::serve(paths, &served, listen, &self.args, &self.agx)?)
    }

    /// Run `agx serve` of the `agx` that handed off, telling it to serve by itself. Returns
    /// only when that fails.
    fn go_back(&self, build: &str) -> HandoffError {
        let mut command = std::process::Command::new(&self.agx);
        command
            .env(NO_HANDOFF_ENV, "1")
            .arg("serve")
            .args(self.agx_serve_args());
        let source = super::wrapped::run_in_place(&mut command);
        HandoffError::GoBack {
            build: build.to_string(),
            agx: self.agx.clone(),
            agx_build: self.build.clone(),
            source,
        }
    }
}

/// The server, `--http` address and wrapped server's arguments of `agx serve SERVER
/// [--http ADDR] [-- ARG…]`, when the command line is exactly that: the form client entries
/// use, which `agx` hands off before parsing the full command line (that would cost a few
/// hundred page faults of clap code).
pub fn plain_serve_command(args: &[OsString]) -> Option<(&str, Option<&str>, Vec<&str>)> {
    let [_, command, rest @ ..] = args else {
        return None;
    };
    if command != "serve" {
        return None;
    }
    let (rest, server_args) = match rest.iter().position(|a| a == "--") {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let server_args = server_args
        .iter()
        .map(|a| a.to_str())
        .collect::<Option<Vec<&str>>>()?;
    let (server, http) = match rest {
        [server] => (server, None),
        [flag, addr, server] | [server, flag, addr] if flag == "--http" => (server, Some(addr)),
        _ => return None,
    };
    let http = match http {
        None => None,
        Some(addr) => Some(plain(addr)?),
    };
    Some((plain(server)?, http, server_args))
}

/// An argument that is text and does not look like a flag.
fn plain(arg: &OsString) -> Option<&str> {
    arg.to_str().filter(|a| !a.starts_with('-'))
}

/// Replace this process with the helper beside the running `agx`, which must be of `build`
/// ([`handoff_build`]). Returns only when there is no helper or it could not be started; the
/// caller then serves by itself.
pub fn hand_off(server: &str, http: Option<&str>, args: &[String], color: bool, build: &str) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;

        if std::env::var_os(NO_HANDOFF_ENV).is_some() {
            return;
        }
        let Ok(agx) = std::env::current_exe() else {
            return;
        };
        let helper = agx.with_file_name(format!("{HELPER_NAME}{}", std::env::consts::EXE_SUFFIX));
        if !helper.is_file() {
            return;
        }
        let handoff = Handoff {
            agx,
            build: build.to_string(),
            color,
            server: server.to_string(),
            http: http.map(str::to_string),
            args: args.to_vec(),
        };
        // `exec` returns only on failure, which falls through to serving in this process.
        let _ = std::process::Command::new(&helper)
            .args(handoff.to_args())
            .exec();
    }
    #[cfg(not(unix))]
    let _ = (server, http, args, color, build);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handoff(http: Option<&str>) -> Handoff {
        Handoff {
            agx: PathBuf::from("/opt/agx/bin/agx"),
            build: "1.2.3+0123456789abcdef".into(),
            color: true,
            server: "-odd/pkg/srv".into(),
            http: http.map(str::to_string),
            args: Vec::new(),
        }
    }

    #[test]
    fn handoff_arguments_round_trip() {
        let with_args = Handoff {
            args: vec!["--db-path".into(), "--".into(), "a b".into()],
            ..handoff(None)
        };
        for h in [handoff(None), handoff(Some("127.0.0.1:8080")), with_args] {
            assert_eq!(Handoff::parse(h.to_args()).unwrap(), h);
        }
    }

    #[test]
    fn only_the_plain_serve_command_is_handed_off_before_clap() {
        let parse = |line: &str| {
            let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
            plain_serve_command(&args).map(|(s, h, a)| {
                let a: Vec<String> = a.into_iter().map(str::to_string).collect();
                (s.to_string(), h.map(str::to_string), a)
            })
        };
        let server =
            |s: &str, h: Option<&str>| Some((s.to_string(), h.map(str::to_string), vec![]));
        assert_eq!(parse("agx serve a/b/c"), server("a/b/c", None));
        assert_eq!(
            parse("agx serve a/b/c -- --db-path -- x"),
            Some((
                "a/b/c".to_string(),
                None,
                vec!["--db-path".to_string(), "--".to_string(), "x".to_string()]
            ))
        );
        assert_eq!(
            parse("agx serve --http 127.0.0.1:8080 a/b/c --"),
            server("a/b/c", Some("127.0.0.1:8080"))
        );
        assert_eq!(
            parse("agx serve a/b/c --http 127.0.0.1:8080"),
            server("a/b/c", Some("127.0.0.1:8080"))
        );
        assert_eq!(
            parse("agx serve --http 127.0.0.1:8080 a/b/c"),
            server("a/b/c", Some("127.0.0.1:8080"))
        );
        for other in [
            "agx",
            "agx serve",
            "agx list",
            "agx serve --help",
            "agx serve -h a/b/c",
            "agx -v serve a/b/c",
            "agx serve a/b/c -v",
            "agx serve a/b/c --color never",
            "agx serve --http=127.0.0.1:1 a/b/c",
            "agx serve a/b/c --http --help",
            "agx serve --http 127.0.0.1:1 --http",
            "agx serve a/b/c d/e/f",
            "agx serve -- a/b/c",
            "agx serve a/b/c -v -- x",
        ] {
            assert_eq!(parse(other), None, "{other}");
        }
    }

    #[test]
    fn a_person_running_the_helper_is_sent_to_agx_serve() {
        for args in [
            vec![],
            vec!["acme/weather/forecast"],
            vec!["--help"],
            vec!["--agx", "/x", "--build", "1", "--color", "never"],
            vec!["--agx", "/x", "--build", "1", "--color", "never", "--"],
        ] {
            let err = Handoff::parse(args.into_iter().map(OsString::from)).unwrap_err();
            assert!(matches!(err, HandoffError::NotForPeople), "{err}");
        }
    }
}
