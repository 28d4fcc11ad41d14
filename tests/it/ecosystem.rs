//! npm and PyPI packages installed as agx packages, with the real registries (npmjs.org and
//! pypi.org) and the real `node`, `npm` and `python3`: install → `agx serve` answers over
//! stdio → uninstall leaves nothing; and the bad inputs, each leaving the store unchanged.
//! npm's and pip's download caches are shared between tests (in the target folder), so
//! only the first run downloads.

use std::io::{BufRead, BufReader, Write};
#[cfg(unix)]
use std::path::Path;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{TestHome, tree};

pub(crate) const EVERYTHING: &str = "@modelcontextprotocol/server-everything";
pub(crate) const EVERYTHING_VERSION: &str = "2025.9.25";
pub(crate) const TIME_VERSION: &str = "2026.10.19";

/// `agx` (or any program) with the test home, shared download caches, and a PATH on which
/// `python3` is the real interpreter (a pyenv shim would look for its versions in HOME).
pub(crate) fn command(home: &TestHome, program: impl AsRef<std::ffi::OsStr>) -> Command {
    let caches = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ecosystem-caches");
    let mut cmd = home.command(program);
    // The machine's certificate authorities and proxies, which npm and pip need to reach
    // the registries (the test home has no ~/.npmrc).
    for var in [
        "NODE_EXTRA_CA_CERTS",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "PIP_CERT",
        "REQUESTS_CA_BUNDLE",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "NO_PROXY",
        "https_proxy",
        "http_proxy",
        "no_proxy",
    ] {
        if let Some(value) = std::env::var_os(var) {
            cmd.env(var, value);
        }
    }
    cmd.env("PATH", path_with_real_python())
        .env("npm_config_cache", caches.join("npm"))
        .env("npm_config_update_notifier", "false")
        .env("PIP_CACHE_DIR", caches.join("pip"));
    cmd
}

fn path_with_real_python() -> String {
    let out = Command::new("python3")
        .args([
            "-c",
            "import os, sys; print(os.path.dirname(os.path.realpath(sys.executable)))",
        ])
        .output()
        .expect("python3 runs");
    let dir = String::from_utf8(out.stdout).unwrap();
    format!(
        "{}:{}",
        dir.trim(),
        std::env::var("PATH").unwrap_or_default()
    )
}

pub(crate) fn agx(home: &TestHome, args: &[&str]) -> std::process::Output {
    command(home, crate::support::AGX)
        .args(args)
        .output()
        .expect("agx runs")
}

pub(crate) fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The files in the agx home (folders left out), without the lock files writers leave.
pub(crate) fn store_files(home: &TestHome) -> Vec<String> {
    let root = home.agx_home();
    if !root.exists() {
        return Vec::new();
    }
    tree(&root)
        .into_keys()
        .filter(|p| !p.ends_with(".lock") && !p.ends_with('/'))
        .collect()
}

/// A line-delimited JSON-RPC client on `agx serve`'s stdio.
pub(crate) struct Session {
    child: Child,
    /// `None` once [`Session::close`] closed it.
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Session {
    pub(crate) fn start(home: &TestHome, server: &str) -> Session {
        let mut agx = command(home, crate::support::AGX);
        agx.args(["serve", server]);
        Session::spawn(agx)
    }

    /// A session on `command` (an `agx serve` with its arguments).
    pub(crate) fn spawn(mut command: Command) -> Session {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("agx serve starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    /// Send a request and return its response (notifications in between are skipped).
    pub(crate) fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let stdin = self.stdin.as_mut().expect("the session is open");
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
        loop {
            // A guard against a hung server, not a timing assertion.
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .expect("the server answers");
            let v: Value = serde_json::from_str(&line).expect("stdout carries JSON-RPC");
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    pub(crate) fn initialize(&mut self) -> Value {
        let init = self.request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "agx-test", "version": "1"}}),
        );
        writeln!(
            self.stdin.as_mut().expect("the session is open"),
            "{}",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .unwrap();
        init
    }

    /// Close stdin, as a client that is done does, and wait for the server to exit (having
    /// written out its log), rather than killing it.
    pub(crate) fn close(&mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        self.child.wait().unwrap()
    }

    pub(crate) fn tool_names(&mut self) -> Vec<String> {
        let list = self.request(2, "tools/list", json!({}));
        list["result"]["tools"]
            .as_array()
            .expect("a tool list")
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Install, serve (initialize, tools/list, one call), uninstall: the store ends empty.
fn round_trip(spec: &str, package: &str, server: &str, tool: &str, args: Value) -> Value {
    let home = TestHome::new();
    let out = agx(&home, &["install", spec]);
    assert!(out.status.success(), "{}", stderr(&out));

    let list = agx(&home, &["list"]);
    let listed = String::from_utf8_lossy(&list.stdout).into_owned();
    assert!(listed.contains(package), "{listed}");

    let result = {
        let mut session = Session::start(&home, &format!("{package}/{server}"));
        let init = session.initialize();
        assert!(init["result"]["serverInfo"]["name"].is_string(), "{init}");
        let tools = session.tool_names();
        assert!(tools.iter().any(|t| t == tool), "{tools:?}");
        session.request(3, "tools/call", json!({"name": tool, "arguments": args}))
    };

    let out = agx(&home, &["uninstall", package]);
    assert!(out.status.success(), "{}", stderr(&out));
    let left = store_files(&home);
    assert!(left.is_empty(), "uninstall left {left:?}");
    let (publisher, name) = package.split_once('/').unwrap();
    let folder = home
        .agx_home()
        .join("store-v1")
        .join(publisher)
        .join(name.replace('/', "+"));
    assert!(!folder.exists(), "uninstall left {}", folder.display());
    result
}

#[test]
fn npm_server_everything_installs_serves_and_uninstalls() {
    let result = round_trip(
        &format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}"),
        &format!("npm/{EVERYTHING}"),
        "mcp-server-everything",
        "echo",
        json!({"message": "hello from agx"}),
    );
    assert_eq!(
        result["result"]["content"][0]["text"], "Echo: hello from agx",
        "{result}"
    );
}

#[test]
fn pypi_mcp_server_time_installs_serves_and_uninstalls() {
    let result = round_trip(
        &format!("pypi:mcp-server-time=={TIME_VERSION}"),
        "pypi/mcp-server-time",
        "mcp-server-time",
        "get_current_time",
        json!({"timezone": "UTC"}),
    );
    let text = result["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("\"timezone\": \"UTC\""), "{result}");
}

#[test]
fn the_receipt_records_the_exact_version_and_integrity() {
    let home = TestHome::new();
    let out = agx(
        &home,
        &["install", &format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let receipt = std::fs::read_to_string(
        home.agx_home()
            .join("receipts-v1/npm/@modelcontextprotocol+server-everything.toml"),
    )
    .unwrap();
    assert!(
        receipt.contains(&format!("spec = \"npm:{EVERYTHING}@{EVERYTHING_VERSION}\"")),
        "{receipt}"
    );
    assert!(receipt.contains("integrity = [\"sha512-"), "{receipt}");
    // The registry npm fetched it from, as a URL without credentials.
    assert!(receipt.contains("served_by = \"http"), "{receipt}");
    // The same spec again needs no network and changes nothing.
    let again = agx(
        &home,
        &["install", &format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}")],
    );
    assert!(again.status.success());
    assert!(
        stderr(&again).contains("already installed"),
        "{}",
        stderr(&again)
    );
}

fn assert_refused(home: &TestHome, args: &[&str], message: &str) {
    let out = agx(home, args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = stderr(&out);
    assert!(err.contains(message), "{err}");
    assert!(err.contains("hint:"), "{err}");
    let left = store_files(home);
    assert!(left.is_empty(), "a refused install left {left:?}");
}

#[test]
fn unknown_names_and_versions_are_refused_and_leave_nothing() {
    let home = TestHome::new();
    assert_refused(
        &home,
        &[
            "install",
            "npm:@modelcontextprotocol/no-such-server-for-agx-tests",
        ],
        "the npm registry has no package `@modelcontextprotocol/no-such-server-for-agx-tests`",
    );
    assert_refused(
        &home,
        &["install", &format!("npm:{EVERYTHING}@0.0.1-does-not-exist")],
        "has no version matching `0.0.1-does-not-exist`",
    );
    assert_refused(
        &home,
        &["install", "pypi:no-such-server-for-agx-tests-xyz"],
        "PyPI has no package `no-such-server-for-agx-tests-xyz`",
    );
    assert_refused(
        &home,
        &["install", "pypi:mcp-server-time==1999.1.1"],
        "`mcp-server-time` has no version `1999.1.1`",
    );
    // A pinned version of a name pip lists nothing for: the version is named, not only
    // wheels.
    assert_refused(
        &home,
        &["install", "pypi:no-such-server-for-agx-tests-xyz==1.0.0"],
        "PyPI has no `no-such-server-for-agx-tests-xyz` version `1.0.0`",
    );
}

#[test]
fn a_missing_runtime_names_what_to_install() {
    let home = TestHome::new();
    let empty = home.home().join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    for (spec, runtime) in [
        ("npm:left-pad@1.3.0", "node"),
        ("pypi:mcp-server-time", "python3"),
    ] {
        let out = command(&home, crate::support::AGX)
            .env("PATH", &empty)
            .args(["install", spec])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "{runtime} is needed to install {spec} but was not found on PATH"
            )),
            "{err}"
        );
        assert!(err.contains("hint: install"), "{err}");
    }
    let left = store_files(&home);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn bad_specs_are_refused_before_any_download() {
    let home = TestHome::new();
    let out = agx(&home, &["install", "npm:Has-Upper"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("contains `H`"), "{}", stderr(&out));
    let out = agx(&home, &["install", "pypi:-bad"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("must start and end with a letter or digit"),
        "{}",
        stderr(&out)
    );
}

/// Killed (with its npm) during provisioning: nothing is installed, and the next install
/// cleans the leftovers and succeeds.
#[cfg(unix)]
#[test]
fn an_interrupted_provisioning_leaves_nothing_and_the_next_run_succeeds() {
    use std::os::unix::process::CommandExt;
    let home = TestHome::new();
    let spec = format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}");
    let mut child = command(&home, crate::support::AGX)
        .args(["install", &spec])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let staging = home.agx_home().join("store-v1/.staging");
    // Wait until provisioning has begun (npm writes package.json into the folder).
    while !has_provision_folder(&staging) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "install ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The whole group: agx and the npm it started.
    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
    child.wait().unwrap();
    assert!(!home.agx_home().join("receipts-v1/npm").exists());

    let out = agx(&home, &["install", &spec]);
    assert!(out.status.success(), "{}", stderr(&out));
    let left: Vec<String> = store_files(&home)
        .into_iter()
        .filter(|p| p.starts_with("store-v1/.staging"))
        .collect();
    assert!(left.is_empty(), "leftovers: {left:?}");
    let out = agx(&home, &["list"]);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("npm/@modelcontextprotocol/server-everything")
    );
}

#[cfg(unix)]
fn has_provision_folder(staging: &Path) -> bool {
    let Ok(stages) = std::fs::read_dir(staging) else {
        return false;
    };
    stages.flatten().any(|stage| {
        std::fs::read_dir(stage.path()).is_ok_and(|mut dirs| {
            dirs.any(|d| {
                d.is_ok_and(|d| {
                    d.file_name().to_string_lossy().starts_with("provision")
                        && d.path().join("package").exists()
                })
            })
        })
    })
}

/// An older pinned release of mcp-server-time, for `outdated` and `update`.
const TIME_OLDER: &str = "2026.10.10";

/// `agx` with `AGX_PYPI_URL` pointing at a loopback copy of PyPI's JSON API that names
/// `TIME_VERSION` as the newest release, so the test does not depend on PyPI's "latest".
fn agx_with_pypi_api(home: &TestHome, api: &str, args: &[&str]) -> std::process::Output {
    command(home, crate::support::AGX)
        .env("AGX_PYPI_URL", api)
        .args(args)
        .output()
        .expect("agx runs")
}

#[test]
fn outdated_and_update_move_a_pypi_package_to_its_newest_version() {
    let api_root = tempfile::tempdir().unwrap();
    crate::support::write_file(
        &api_root.path().join("mcp-server-time/json"),
        json!({"info": {"name": "mcp-server-time", "version": TIME_VERSION}, "releases": {}})
            .to_string(),
    );
    let api = crate::support::http::HttpServer::serve(api_root.path());
    let home = TestHome::new();
    let out = agx(
        &home,
        &["install", &format!("pypi:mcp-server-time=={TIME_OLDER}")],
    );
    assert!(out.status.success(), "{}", stderr(&out));

    let out = agx_with_pypi_api(&home, &api.url(), &["outdated", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let outdated: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        outdated["packages"][0]["name"], "pypi/mcp-server-time",
        "{outdated}"
    );
    assert_eq!(outdated["packages"][0]["current"], TIME_OLDER, "{outdated}");
    assert_eq!(
        outdated["packages"][0]["latest"], TIME_VERSION,
        "{outdated}"
    );

    let out = agx_with_pypi_api(&home, &api.url(), &["update"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let receipt = std::fs::read_to_string(
        home.agx_home()
            .join("receipts-v1/pypi/mcp-server-time.toml"),
    )
    .unwrap();
    assert!(
        receipt.contains(&format!("spec = \"pypi:mcp-server-time=={TIME_VERSION}\"")),
        "{receipt}"
    );
    let mut session = Session::start(&home, "pypi/mcp-server-time/mcp-server-time");
    session.initialize();
    assert!(session.tool_names().iter().any(|t| t == "get_current_time"));
    drop(session);

    // Now current: nothing to report, and `update` changes nothing.
    let out = agx_with_pypi_api(&home, &api.url(), &["outdated", "--json"]);
    let outdated: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(outdated["packages"], json!([]), "{outdated}");
    let out = agx_with_pypi_api(&home, &api.url(), &["update"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("Provisioning"), "{}", stderr(&out));
    // The old version's provisioning folder went with the update (the venv holds binary
    // files, so the store is listed by folder here).
    let staging = home.agx_home().join("store-v1/.staging");
    let staging_left: Vec<_> = std::fs::read_dir(&staging)
        .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(staging_left.is_empty(), "{staging_left:?}");
}

#[test]
fn outdated_reports_a_newer_npm_version_from_the_registry() {
    // A loopback npm registry answering `/<name>/latest` (the scope's `/` escaped, as npm
    // registries are asked) with a newer pinned release.
    let registry_root = tempfile::tempdir().unwrap();
    crate::support::write_file(
        &registry_root
            .path()
            .join("@modelcontextprotocol%2fserver-everything/latest"),
        json!({"name": EVERYTHING, "version": "2026.1.26"}).to_string(),
    );
    let registry = crate::support::http::HttpServer::serve(registry_root.path());
    let home = TestHome::new();
    let out = agx(
        &home,
        &["install", &format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = command(&home, crate::support::AGX)
        .env("AGX_NPM_REGISTRY", registry.url())
        .args(["outdated", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let outdated: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        outdated["packages"],
        json!([{"name": format!("npm/{EVERYTHING}"), "current": EVERYTHING_VERSION,
                "wanted": "2026.1.26", "latest": "2026.1.26", "explicit": true}]),
        "{outdated}"
    );
    // Offline, the cached answer is used.
    let out = command(&home, crate::support::AGX)
        .env("AGX_NPM_REGISTRY", registry.url())
        .args(["--offline", "outdated", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let offline: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(offline, outdated);
}

/// A folder with a fake `node` and `npm` (POSIX sh): `npm view` answers version 1.0.0,
/// `npm install` writes the package (one bin) and its lock entry, and every call appends
/// its arguments, one per line after a `--call` line, to `npm-calls.log` beside them.
/// With `FAKE_NPM_SLEEP` set, npm first sleeps that many seconds (as npm does retrying
/// a registry it cannot reach).
#[cfg(unix)]
pub(crate) fn fake_npm(home: &TestHome) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = home.home().join("fake-npm-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = bin.join("npm-calls.log");
    let npm = format!(
        r#"#!/bin/sh
{{ echo --call; for arg; do printf '%s\n' "$arg"; done; }} >> '{log}'
if [ -n "$FAKE_NPM_SLEEP" ]; then sleep "$FAKE_NPM_SLEEP"; fi
case "$1" in
view) echo '"1.0.0"' ;;
install)
  for last; do :; done
  name="${{last%@*}}"
  mkdir -p "node_modules/$name"
  printf '{{"name":"%s","version":"1.0.0","bin":{{"srv":"index.js"}}}}' "$name" > "node_modules/$name/package.json"
  echo 'process.exit(0)' > "node_modules/$name/index.js"
  printf '{{"packages":{{"node_modules/%s":{{"integrity":"sha512-fake"}}}}}}' "$name" > package-lock.json ;;
esac
"#,
        log = log.display()
    );
    for (name, script) in [("npm", npm.as_str()), ("node", "#!/bin/sh\necho v22.0.0\n")] {
        let path = bin.join(name);
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// `agx` with the fake npm of [`fake_npm`] first on PATH (and the system's tools after).
#[cfg(unix)]
pub(crate) fn agx_with_fake_npm(home: &TestHome, bin: &Path) -> Command {
    let mut cmd = home.command(crate::support::AGX);
    cmd.env("PATH", format!("{}:/usr/bin:/bin", bin.display()));
    cmd
}

/// The calls the fake npm received, each as its arguments.
#[cfg(unix)]
pub(crate) fn fake_npm_calls(bin: &Path) -> Vec<Vec<String>> {
    let log = std::fs::read_to_string(bin.join("npm-calls.log")).unwrap_or_default();
    let mut calls: Vec<Vec<String>> = Vec::new();
    for line in log.lines() {
        if line == "--call" {
            calls.push(Vec::new());
        } else if let Some(call) = calls.last_mut() {
            call.push(line.to_string());
        }
    }
    calls
}

#[cfg(unix)]
#[test]
fn info_reads_a_scoped_npm_name_as_serve_and_list_do() {
    let home = TestHome::new();
    let bin = fake_npm(&home);
    let out = agx_with_fake_npm(&home, &bin)
        .args(["install", "npm:@modelcontextprotocol/server-memory"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = agx_with_fake_npm(&home, &bin)
        .args(["info", "npm/@modelcontextprotocol/server-memory"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("npm/@modelcontextprotocol/server-memory 1.0.0 (installed"),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn npm_specs_reach_npm_after_its_options_end() {
    let home = TestHome::new();
    let bin = fake_npm(&home);
    let out = agx_with_fake_npm(&home, &bin)
        .args(["install", "npm:@scope/x@^1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let calls = fake_npm_calls(&bin);
    assert_eq!(calls[0], ["view", "--json", "--", "@scope/x@^1", "version"]);
    let install = &calls[1];
    assert_eq!(install[0], "install");
    assert_eq!(install[install.len() - 2..], ["--", "@scope/x@1.0.0"]);
}

#[cfg(unix)]
#[test]
fn versions_that_are_not_versions_never_reach_npm_or_pip() {
    let home = TestHome::new();
    let bin = fake_npm(&home);
    for (spec, message) in [
        (
            "npm:x@git+https://evil.example/x.git",
            "is not a semver version, range or dist-tag",
        ),
        (
            "npm:x@file:../x",
            "is not a semver version, range or dist-tag",
        ),
        (
            "npm:x@https://evil.example/x.tgz",
            "is not a semver version",
        ),
        (
            "npm:x@--registry=http://evil.example",
            "is not a semver version",
        ),
        ("pypi:x==1; touch pwned", "is not a PEP 440 version"),
        (
            "pypi:x==1 @ https://evil.example/x.whl",
            "is not a PEP 440 version",
        ),
    ] {
        let out = agx_with_fake_npm(&home, &bin)
            .args(["install", spec])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{spec} was accepted");
        let err = stderr(&out);
        assert!(err.contains(message), "{spec}: {err}");
        assert!(!err.contains("Traceback"), "{spec}: {err}");
    }
    assert!(
        fake_npm_calls(&bin).is_empty(),
        "{:?}",
        fake_npm_calls(&bin)
    );
    assert!(!home.home().join("pwned").exists());
    assert!(store_files(&home).is_empty(), "{:?}", store_files(&home));
}

/// Whether the process `pid` is gone (or a zombie waiting to be reaped: killed all the same).
#[cfg(target_os = "linux")]
pub(crate) fn process_ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn npm_is_stopped_at_the_download_deadline_with_what_it_started() {
    let home = TestHome::new();
    let bin = fake_npm(&home);
    // npm waits on a child of its own, as it does on a registry it retries.
    let pids = home.home().join("npm-pids");
    let npm = bin.join("npm");
    let script = std::fs::read_to_string(&npm).unwrap().replace(
        "if [ -n \"$FAKE_NPM_SLEEP\" ]; then sleep \"$FAKE_NPM_SLEEP\"; fi",
        &format!(
            "if [ -n \"$FAKE_NPM_SLEEP\" ]; then sleep \"$FAKE_NPM_SLEEP\" & echo $$ $! > '{}'; wait; fi",
            pids.display()
        ),
    );
    std::fs::write(&npm, script).unwrap();
    let out = agx_with_fake_npm(&home, &bin)
        .env("FAKE_NPM_SLEEP", "600")
        .env("AGX_HTTP_DEADLINE", "1")
        .args(["install", "npm:x@1.0.0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("error: npm:x@1.0.0: `npm view --json -- x@1.0.0 version` did not finish within 1 s and was stopped"),
        "{err}"
    );
    assert!(err.contains("AGX_HTTP_DEADLINE"), "{err}");
    let pids = std::fs::read_to_string(&pids).unwrap();
    for pid in pids.split_whitespace() {
        // SIGKILL is delivered asynchronously: a killed process may still be on its way out
        // when agx has exited, so give it a moment before calling it a survivor.
        let ended = (0..50).any(|_| {
            process_ended(pid) || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                false
            }
        });
        assert!(ended, "process {pid} outlived the deadline");
    }
    assert!(store_files(&home).is_empty(), "{:?}", store_files(&home));
}

#[cfg(unix)]
#[test]
fn a_bad_deadline_setting_is_named() {
    let home = TestHome::new();
    let bin = fake_npm(&home);
    let out = agx_with_fake_npm(&home, &bin)
        .env("AGX_HTTP_DEADLINE", "soon")
        .args(["install", "npm:x@1.0.0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("AGX_HTTP_DEADLINE"),
        "{}",
        stderr(&out)
    );
}
