//! Permissions (docs/sandbox.md): declared in `[extension.permissions]` or by a server,
//! shown by `agx info`.

use crate::support::{TestHome, write_files};

/// A local package `local/<name>` with one tool `t` and one server `main`; `extra` is
/// appended to agx.toml, `server_extra` to the server's definition.
pub(crate) fn package(
    home: &TestHome,
    name: &str,
    extra: &str,
    server_extra: &str,
    script: &str,
) -> std::path::PathBuf {
    let dir = home.home().join(name);
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"{name}\"\nversion = \"1.0.0\"\ndescription = \"Test\"\n\n[extension]\nservers = [\"main\"]\ntools = [\"t\"]\n{extra}"
                ),
            ),
            (
                "agx/tools/t.toml",
                "name = \"t\"\ndescription = \"Runs bin/t.sh\"\ncommand = [\"sh\", \"bin/t.sh\"]\n",
            ),
            (
                "agx/servers/main.toml",
                &format!("name = \"main\"\ntools = [\"t\"]\n{server_extra}"),
            ),
            ("bin/t.sh", script),
        ],
    );
    dir
}

/// A local package `name` whose one server `main` runs `sh bin/t.sh` (`script`) as a wrapped
/// server; `extra` is appended to agx.toml, `server_extra` to the server's definition.
fn wrapped_package(
    home: &TestHome,
    name: &str,
    extra: &str,
    server_extra: &str,
    script: &str,
) -> std::path::PathBuf {
    let dir = home.home().join(name.rsplit('/').next().unwrap());
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"{name}\"\nversion = \"1.0.0\"\ndescription = \"Test\"\n\n[extension]\nservers = [\"main\"]\n{extra}"
                ),
            ),
            (
                "agx/servers/main.toml",
                &format!("name = \"main\"\ncommand = [\"sh\", \"bin/t.sh\"]\n{server_extra}"),
            ),
            ("bin/t.sh", script),
        ],
    );
    dir
}

fn info(home: &TestHome, name: &str) -> String {
    let out = home.agx().args(["info", name]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn info_shows_declared_permissions_and_says_when_a_package_declares_none() {
    let home = TestHome::new();
    let plain = package(&home, "plain", "", "", "cat >/dev/null; echo ok\n");
    home.agx().arg("install").arg(&plain).assert().success();
    let text = info(&home, "plain");
    assert!(
        text.contains("permissions:\n  not confined: declares no permissions"),
        "{text}"
    );

    let declared = package(
        &home,
        "declared",
        "\n[extension.permissions]\nread = [\"{home}/.config/tool\"]\nwrite = [\"{project}/out\"]\nnetwork = [\"api.github.com\"]\nenv = [\"LANG\"]\n",
        "\n[permissions]\nnetwork = \"none\"\n",
        "cat >/dev/null; echo ok\n",
    );
    home.agx().arg("install").arg(&declared).assert().success();
    let text = info(&home, "declared");
    for line in [
        "permissions:\n  read: {package}, {home}/.config/tool\n  write: {data}, {tmp}, {project}/out\n  network: api.github.com\n  env: LANG\n  enforced: ",
        "    permissions:\n      read: {package}\n      write: {data}, {tmp}\n      network: none\n",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
}

#[test]
fn install_prints_the_permissions_of_what_it_installed() {
    let home = TestHome::new();
    let plain = package(&home, "plain", "", "", "cat >/dev/null; echo ok\n");
    let out = home.agx().arg("install").arg(&plain).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("plain v1.0.0 permissions:\n  not confined: declares no permissions"),
        "{text}"
    );

    let declared = package(
        &home,
        "declared",
        "\n[extension.permissions]\nread = [\"{home}/.config/tool\"]\nnetwork = \"none\"\nenv = [\"LANG\"]\n",
        "\n[permissions]\nnetwork = \"loopback\"\n",
        "cat >/dev/null; echo ok\n",
    );
    let out = home.agx().arg("install").arg(&declared).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "declared v1.0.0 permissions:\n  read: {package}, {home}/.config/tool\n  write: {data}, {tmp}\n  network: none\n  env: LANG\n  enforced: ",
        "  server main:\n    read: {package}\n    write: {data}, {tmp}\n    network: loopback\n",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
    // The same lines as `agx info`.
    assert!(info(&home, "declared").contains("  read: {package}, {home}/.config/tool\n"));

    // Nothing installed, nothing shown.
    let out = home.agx().arg("install").arg(&plain).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}

/// The fixture tool: tries what the sandbox must refuse (a key under the home, a file
/// outside its data folder, a loopback connection, the same from a child) and what it must
/// allow (its package, its data folder), printing one line per attempt.
const PROBE: &str = r#"cat >/dev/null
try() { label=$1; shift; if "$@" 2>>"$AGX_DATA_DIR/errors.txt"; then echo "$label: allowed"; else echo "$label: denied"; fi; }
try read-ssh sh -c 'cat "$HOME/.ssh/id_rsa" >/dev/null'
try write-outside sh -c 'echo x > "$HOME/outside.txt"'
try write-data sh -c 'echo x > "$AGX_DATA_DIR/inside.txt"'
try read-package sh -c 'cat "$AGX_PACKAGE_DIR/agx.toml" >/dev/null'
try connect python3 -c 'import os, socket; socket.create_connection(("127.0.0.1", int(os.environ["PROBE_PORT"])), timeout=10)'
try child-read-ssh sh -c 'sh -c "cat \"\$HOME/.ssh/id_rsa\"" >/dev/null'
cat "$HOME/.ssh/id_rsa" >/dev/null
exit 0
"#;

/// Whether this kernel has Landlock with network rules (ABI 4); the reason when not.
pub(crate) fn landlock_missing() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return Some("Landlock is Linux only".into());
    }
    let home = TestHome::new();
    let out = home.agx().arg("doctor").output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    match text.split("Landlock ABI ").nth(1).and_then(|r| {
        r.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse::<u32>()
            .ok()
    }) {
        Some(abi) if abi >= 4 => None,
        _ => Some(format!("this kernel lacks Landlock ABI 4: {text}")),
    }
}

fn call_probe(home: &TestHome, extra_env: &[(&str, &str)]) -> (String, std::net::TcpListener) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    // The test home is itself in the system's temporary folder, which `{tmp}` grants: the
    // tool gets a temporary folder of its own, outside the home.
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut cmd = home.agx();
    cmd.args(["call", "probe/t"])
        .env("PROBE_PORT", &port)
        .env("TMPDIR", tmp.path());
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8_lossy(&out.stdout).into_owned(), listener)
}

#[test]
fn a_confined_tool_and_its_children_are_denied_what_it_did_not_declare() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    write_files(home.home(), &[(".ssh/id_rsa", "secret key\n")]);
    let dir = package(
        &home,
        "probe",
        "\n[extension.permissions]\nnetwork = \"none\"\nenv = [\"PROBE_PORT\"]\n",
        "",
        PROBE,
    );
    home.agx().arg("install").arg(&dir).assert().success();

    let (text, _listener) = call_probe(&home, &[]);
    for line in [
        "read-ssh: denied",
        "write-outside: denied",
        "write-data: allowed",
        "read-package: allowed",
        "connect: denied",
        "child-read-ssh: denied",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
    assert!(!home.home().join("outside.txt").exists());
    // The program's own error names the path it was refused.
    let errors =
        std::fs::read_to_string(home.agx_home().join("data/_local/probe/errors.txt")).unwrap();
    assert!(
        errors.contains(".ssh/id_rsa: Permission denied"),
        "{errors}"
    );

    // Unconfined (AGX_SANDBOX=off, what `agx serve --no-sandbox` sets), the same tool can.
    let (text, _listener) = call_probe(&home, &[("AGX_SANDBOX", "off")]);
    for line in [
        "read-ssh: allowed",
        "write-outside: allowed",
        "connect: allowed",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
}

#[test]
fn a_package_that_declares_nothing_runs_unconfined() {
    let home = TestHome::new();
    write_files(home.home(), &[(".ssh/id_rsa", "secret key\n")]);
    let dir = package(&home, "probe", "", "", PROBE);
    home.agx().arg("install").arg(&dir).assert().success();
    let (text, _listener) = call_probe(&home, &[]);
    assert!(text.contains("read-ssh: allowed"), "{text}");
}

/// `agx serve` of a confined package: the tool's denial, with the path, is in the server's
/// log, after the line saying how the package is confined.
#[test]
fn a_denial_is_logged_by_agx_serve_with_its_path() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    write_files(home.home(), &[(".ssh/id_rsa", "secret key\n")]);
    let dir = package(
        &home,
        "probe",
        "\n[extension.permissions]\nread = [\"{home}/.config\"]\n",
        "",
        "cat >/dev/null\ncat \"$HOME/.ssh/id_rsa\"\necho done\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut serve = home.command(crate::support::AGX);
    serve
        .args(["serve", "probe/main"])
        .env("TMPDIR", tmp.path());
    {
        let mut session = crate::ecosystem::Session::spawn(serve);
        session.initialize();
        let result = session.request(
            2,
            "tools/call",
            serde_json::json!({"name": "t", "arguments": {}}),
        );
        assert!(result["result"].is_object(), "{result}");
        // A killed server may not have written its queued log lines yet.
        assert!(session.close().success());
    }
    let logs: String = std::fs::read_dir(home.agx_home().join("logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(logs.contains("sandbox for probe: Landlock ABI"), "{logs}");
    assert!(
        logs.contains(".ssh/id_rsa: Permission denied"),
        "no denial in the log:\n{logs}"
    );
}

/// A wrapped server (`command`) with its own permissions is confined too: it replaces
/// `agx serve` (exec) with the rules in place.
#[test]
fn a_wrapped_server_is_confined_by_its_own_permissions() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    write_files(home.home(), &[(".ssh/id_rsa", "secret key\n")]);
    let dir = wrapped_package(
        &home,
        "wrapper",
        "",
        "\n[permissions]\nnetwork = \"none\"\n",
        "if cat \"$HOME/.ssh/id_rsa\" >/dev/null 2>&1; then r=allowed; else r=denied; fi\necho \"read-ssh: $r\" > \"$AGX_DATA_DIR/result.txt\"\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = home
        .agx()
        .args(["serve", "wrapper/main"])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result =
        std::fs::read_to_string(home.agx_home().join("data/_local/wrapper/result.txt")).unwrap();
    assert_eq!(result, "read-ssh: denied\n");
}

const FILESYSTEM: &str = "@modelcontextprotocol/server-filesystem";
const FILESYSTEM_VERSION: &str = "2026.1.14";
const FILESYSTEM_SERVER: &str = "npm/@modelcontextprotocol/server-filesystem/mcp-server-filesystem";

/// The real npm server-filesystem, allowed `$T` by its own arguments, confined by the user
/// (`agx permissions set … --write $T/ok`): a write inside `$T/ok` succeeds, one elsewhere in
/// `$T` fails although the server itself would allow it.
#[test]
fn server_filesystem_writes_only_where_the_user_granted() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    let out = crate::ecosystem::agx(
        &home,
        &["install", &format!("npm:{FILESYSTEM}@{FILESYSTEM_VERSION}")],
    );
    assert!(out.status.success(), "{}", crate::ecosystem::stderr(&out));
    let t = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let t = std::fs::canonicalize(t.path()).unwrap();
    std::fs::create_dir(t.join("ok")).unwrap();
    let granted = t.join("ok");
    let out = crate::ecosystem::agx(
        &home,
        &[
            "permissions",
            "set",
            FILESYSTEM_SERVER,
            "--read",
            t.to_str().unwrap(),
            "--write",
            granted.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", crate::ecosystem::stderr(&out));
    let shown = crate::ecosystem::agx(&home, &["permissions", "show", FILESYSTEM_SERVER]);
    assert!(
        String::from_utf8_lossy(&shown.stdout)
            .contains(&format!("write: {{data}}, {{tmp}}, {}", granted.display())),
        "{}",
        String::from_utf8_lossy(&shown.stdout)
    );

    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut serve = crate::ecosystem::command(&home, crate::support::AGX);
    serve
        .args(["serve", FILESYSTEM_SERVER, "--"])
        .arg(&t)
        .env("TMPDIR", tmp.path());
    let mut session = crate::ecosystem::Session::spawn(serve);
    session.initialize();
    let write = |session: &mut crate::ecosystem::Session, id: u64, path: &std::path::Path| {
        session.request(
            id,
            "tools/call",
            serde_json::json!({"name": "write_file", "arguments": {
                "path": path.to_str().unwrap(), "content": "hello"}}),
        )
    };
    let inside = write(&mut session, 2, &granted.join("a.txt"));
    assert_ne!(inside["result"]["isError"], true, "{inside}");
    assert_eq!(
        std::fs::read_to_string(granted.join("a.txt")).unwrap(),
        "hello"
    );
    let outside = write(&mut session, 3, &t.join("b.txt"));
    assert_eq!(outside["result"]["isError"], true, "{outside}");
    assert!(!t.join("b.txt").exists());
    drop(session);

    // Reset: the server's own rules apply again, and it may write anywhere in `$T`.
    let out = crate::ecosystem::agx(&home, &["permissions", "reset", FILESYSTEM_SERVER]);
    assert!(out.status.success());
    let mut serve = crate::ecosystem::command(&home, crate::support::AGX);
    serve.args(["serve", FILESYSTEM_SERVER, "--"]).arg(&t);
    let mut session = crate::ecosystem::Session::spawn(serve);
    session.initialize();
    let outside = write(&mut session, 2, &t.join("b.txt"));
    assert_ne!(outside["result"]["isError"], true, "{outside}");
}

#[test]
fn bad_permissions_are_refused_before_anything_is_recorded() {
    let home = TestHome::new();
    let out = home
        .agx()
        .args([
            "permissions",
            "set",
            "acme/x/main",
            "--write",
            "relative/dir",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`relative/dir` is a relative path"), "{err}");
    assert!(!home.agx_home().join("permissions-v1.toml").exists());
}

const FETCH_VERSION: &str = "2026.10.19";
const FETCH_SERVER: &str = "pypi/mcp-server-fetch/mcp-server-fetch";

/// The real PyPI mcp-server-fetch under the user's `--network none` cannot reach a loopback
/// page; with `loopback` it can.
#[test]
fn network_none_stops_mcp_server_fetch_and_loopback_lets_it_through() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    let out = crate::ecosystem::agx(
        &home,
        &[
            "install",
            &format!("pypi:mcp-server-fetch=={FETCH_VERSION}"),
        ],
    );
    assert!(out.status.success(), "{}", crate::ecosystem::stderr(&out));
    let site = tempfile::tempdir().unwrap();
    std::fs::write(
        site.path().join("page.html"),
        "<html><body><p>hello from loopback</p></body></html>",
    )
    .unwrap();
    let server = crate::support::http::HttpServer::serve(site.path());
    let url = format!("{}/page.html", server.url());
    let fetch = |network: &str| -> serde_json::Value {
        let out = crate::ecosystem::agx(
            &home,
            &["permissions", "set", FETCH_SERVER, "--network", network],
        );
        assert!(out.status.success(), "{}", crate::ecosystem::stderr(&out));
        let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let mut serve = crate::ecosystem::command(&home, crate::support::AGX);
        serve
            .args([
                "serve",
                FETCH_SERVER,
                "--",
                "--ignore-robots-txt",
                "--allow-private-ips",
            ])
            .env("TMPDIR", tmp.path());
        let mut session = crate::ecosystem::Session::spawn(serve);
        session.initialize();
        session.request(
            2,
            "tools/call",
            serde_json::json!({"name": "fetch", "arguments": {"url": url, "raw": true}}),
        )
    };
    let denied = fetch("none");
    assert_eq!(denied["result"]["isError"], true, "{denied}");
    let allowed = fetch("loopback");
    assert!(
        allowed.to_string().contains("hello from loopback"),
        "{allowed}"
    );
}

/// The fixture tool for host lists: a request through agx's proxy (`http_proxy`, which
/// Python's urllib honours) to each URL, then a direct connection to the first one's port,
/// one line per attempt.
const NET_PROBE: &str = r#"cat >/dev/null
exec python3 - <<'PY'
import os, socket, urllib.request, urllib.error
for label, url in (("listed", os.environ["LISTED_URL"]), ("unlisted", os.environ["UNLISTED_URL"])):
    try:
        print(f"{label}: {urllib.request.urlopen(url, timeout=20).read().decode().strip()}")
    except urllib.error.HTTPError as e:
        print(f"{label}: HTTP {e.code}")
try:
    socket.create_connection(("127.0.0.1", int(os.environ["LISTED_PORT"])), timeout=10)
    print("direct: connected")
except OSError as e:
    print(f"direct: denied ({e.strerror})")
PY
"#;

/// A tool whose network is a host list reaches a listed loopback host:port through agx's
/// proxy; an unlisted one gets 403 and the refusal is in `agx serve`'s log; a direct
/// connection that bypasses the proxy is refused by Landlock.
#[test]
fn a_host_list_lets_through_the_proxy_only_what_it_names() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let site = tempfile::tempdir().unwrap();
    std::fs::write(site.path().join("page.txt"), "hello through the proxy").unwrap();
    let listed = crate::support::http::HttpServer::serve(site.path());
    let unlisted = crate::support::http::HttpServer::serve(site.path());
    let listed_port = listed.url().rsplit(':').next().unwrap().to_string();
    let unlisted_host = unlisted.url().trim_start_matches("http://").to_string();

    let home = TestHome::new();
    let dir = package(
        &home,
        "netprobe",
        &format!(
            "\n[extension.permissions]\nnetwork = [\"127.0.0.1:{listed_port}\"]\nenv = [\"LISTED_URL\", \"UNLISTED_URL\", \"LISTED_PORT\"]\n"
        ),
        "",
        NET_PROBE,
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut serve = home.command(crate::support::AGX);
    serve
        .args(["serve", "netprobe/main"])
        .env("TMPDIR", tmp.path())
        .env("LISTED_URL", format!("{}/page.txt", listed.url()))
        .env("UNLISTED_URL", format!("{}/page.txt", unlisted.url()))
        .env("LISTED_PORT", &listed_port);
    let text = {
        let mut session = crate::ecosystem::Session::spawn(serve);
        session.initialize();
        let result = session.request(
            2,
            "tools/call",
            serde_json::json!({"name": "t", "arguments": {}}),
        );
        let text = result["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{result}"))
            .to_string();
        session.close();
        text
    };
    for line in [
        "listed: hello through the proxy",
        "unlisted: HTTP 403",
        "direct: denied (Permission denied)",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
    assert_eq!(
        unlisted.count("/page.txt"),
        0,
        "the unlisted server was reached"
    );
    let logs: String = std::fs::read_dir(home.agx_home().join("logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        logs.contains(&format!("network: refused {unlisted_host}")),
        "no refusal in the log:\n{logs}"
    );
    assert!(logs.contains("HTTP(S) through agx's proxy only"), "{logs}");
}

/// A wrapped server whose network goes through agx's proxy runs as a child of `agx serve`
/// (which stays to run the proxy): it gets the proxy's variables, and `agx serve` exits
/// with its exit code.
#[test]
fn a_wrapped_server_behind_the_proxy_gets_it_and_its_exit_code_is_agx_serves() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    let dir = wrapped_package(
        &home,
        "wrapper",
        "",
        "\n[permissions]\nnetwork = \"loopback\"\n",
        "echo \"$HTTPS_PROXY $https_proxy no_proxy=[$NO_PROXY] $NODE_USE_ENV_PROXY\" > \"$AGX_DATA_DIR/result.txt\"\n\
                 python3 -c 'import urllib.request, urllib.error\ntry: urllib.request.urlopen(\"http://192.0.2.1/\", timeout=20)\nexcept urllib.error.HTTPError as e: print(\"off the machine:\", e.code)' >> \"$AGX_DATA_DIR/result.txt\"\n\
                 exit 3\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = home
        .agx()
        .args(["serve", "wrapper/main"])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result =
        std::fs::read_to_string(home.agx_home().join("data/_local/wrapper/result.txt")).unwrap();
    let proxy = result.split(' ').next().unwrap();
    assert!(proxy.starts_with("http://127.0.0.1:"), "{result}");
    assert_eq!(
        result,
        format!("{proxy} {proxy} no_proxy=[] 1\noff the machine: 403\n"),
        "the proxy's variables, and its answer for an address off this machine"
    );
    let logs: String = std::fs::read_dir(home.agx_home().join("logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        logs.contains(
            "network: refused 192.0.2.1:80: network \"loopback\" reaches this machine only"
        ),
        "no refusal in the log:\n{logs}"
    );
}

/// `agx serve` running a wrapped server beside its proxy passes SIGTERM on: the server's
/// own handler runs, and its exit code is agx's.
#[cfg(unix)]
#[test]
fn sigterm_to_agx_serve_reaches_a_wrapped_server_behind_the_proxy() {
    if let Some(reason) = landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    let dir = wrapped_package(
        &home,
        "wrapper",
        "",
        "\n[permissions]\nnetwork = [\"example.org\"]\n",
        "trap 'echo terminated > \"$AGX_DATA_DIR/term.txt\"; exit 7' TERM\n: > \"$AGX_DATA_DIR/ready\"\nwhile :; do sleep 0.05; done\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let data = home.agx_home().join("data/_local/wrapper");
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut serve = home.command(crate::support::AGX);
    let mut child = serve
        .args(["serve", "wrapper/main"])
        .env("TMPDIR", tmp.path())
        .stdin(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Waits for the server's trap to be in place (bounded by the loop, not a timing check).
    for _ in 0..6000 {
        if data.join("ready").exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        data.join("ready").exists(),
        "the wrapped server never started"
    );
    // SAFETY: kill takes a pid and a signal number only.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    // A guard against a server that never got the signal (the test would hang), not a
    // timing check.
    let mut status = None;
    for _ in 0..6000 {
        status = child.try_wait().unwrap();
        if status.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("agx serve did not pass SIGTERM on to the wrapped server");
    };
    assert_eq!(status.code(), Some(7));
    assert_eq!(
        std::fs::read_to_string(data.join("term.txt")).unwrap(),
        "terminated\n"
    );
}

/// What a program printing its environment sees of agx's: `LANG`, the declared name and
/// what agx set, but not `SOME_TOKEN`, when its package declares permissions.
fn environment_seen(home: &TestHome, command: &[&str], extra_env: &[(&str, &str)]) -> String {
    let mut cmd = home.agx();
    cmd.args(command)
        .env("LANG", "C.UTF-8")
        .env("SOME_TOKEN", "secret")
        .env("DECLARED_VAR", "declared");
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const PRINT_ENV: &str = "cat >/dev/null; env\n";

#[test]
fn a_confined_tool_receives_the_base_set_its_env_names_and_agx_variables_only() {
    let home = TestHome::new();
    let confined = package(
        &home,
        "confined",
        "\n[extension.permissions]\nenv = [\"DECLARED_VAR\"]\n",
        "",
        PRINT_ENV,
    );
    let open = package(&home, "open", "", "", PRINT_ENV);
    home.agx()
        .arg("install")
        .arg(&confined)
        .arg(&open)
        .assert()
        .success();

    let text = environment_seen(&home, &["call", "confined/t"], &[]);
    for present in [
        "LANG=C.UTF-8",
        "DECLARED_VAR=declared",
        "HOME=",
        "PATH=",
        "AGX_DATA_DIR=",
        "AGX_PACKAGE=confined",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(present)),
            "no {present} in:\n{text}"
        );
    }
    for absent in ["SOME_TOKEN=", "AGX_HOME=", "XDG_CONFIG_HOME="] {
        assert!(
            !text.lines().any(|l| l.starts_with(absent)),
            "{absent} in:\n{text}"
        );
    }

    // The sandbox off: everything, as before.
    let text = environment_seen(&home, &["call", "confined/t"], &[("AGX_SANDBOX", "off")]);
    assert!(text.contains("SOME_TOKEN=secret"), "{text}");
    // A package that declares nothing: everything, as before.
    let text = environment_seen(&home, &["call", "open/t"], &[]);
    assert!(text.contains("SOME_TOKEN=secret"), "{text}");
}

#[test]
fn a_confined_wrapped_server_receives_the_base_set_and_its_env_names_only() {
    let home = TestHome::new();
    let dir = wrapped_package(
        &home,
        "wrapper",
        "\n[extension.permissions]\nenv = [\"DECLARED_VAR\"]\n",
        "",
        "env\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let text = environment_seen(&home, &["serve", "wrapper/main"], &[]);
    for present in ["LANG=C.UTF-8", "DECLARED_VAR=declared", "AGX_DATA_DIR="] {
        assert!(
            text.lines().any(|l| l.starts_with(present)),
            "no {present} in:\n{text}"
        );
    }
    assert!(!text.contains("SOME_TOKEN="), "{text}");
    let text = environment_seen(&home, &["serve", "--no-sandbox", "wrapper/main"], &[]);
    assert!(text.contains("SOME_TOKEN=secret"), "{text}");
}

/// Publish `acme/<name>` `version` with `permissions` (an `[extension.permissions]` body, or
/// nothing) to the folder registry `registry`.
fn publish(
    home: &TestHome,
    registry: &std::path::Path,
    name: &str,
    version: &str,
    permissions: &str,
) {
    let dir = home.home().join("src").join(format!("{name}-{version}"));
    let permissions = if permissions.is_empty() {
        String::new()
    } else {
        format!("\n[extension.permissions]\n{permissions}")
    };
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"acme/{name}\"\nversion = \"{version}\"\ndescription = \"Test\"\n\n[extension]\nservers = [\"main\"]\ntools = [\"t\"]\n{permissions}"
                ),
            ),
            (
                "agx/tools/t.toml",
                "name = \"t\"\ndescription = \"Says ok\"\ncommand = [\"sh\", \"-c\", \"echo ok\"]\n",
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\ntools = [\"t\"]\n",
            ),
        ],
    );
    home.agx()
        .args(["registry", "add"])
        .arg(registry)
        .arg(&dir)
        .assert()
        .success();
}

fn installed_version(home: &TestHome, name: &str) -> String {
    let out = home.agx().args(["list", "--json"]).output().unwrap();
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    list.as_array()
        .or_else(|| list["packages"].as_array())
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .map(|p| p["version"].as_str().unwrap().to_string())
        .unwrap_or_default()
}

#[test]
fn an_update_that_asks_for_more_permissions_waits_until_accepted() {
    let home = TestHome::new();
    let registry = home.home().join("reg");
    home.agx()
        .args(["registry", "init"])
        .arg(&registry)
        .assert()
        .success();
    publish(
        &home,
        &registry,
        "grows",
        "1.0.0",
        "network = \"none\"\nread = [\"{home}/.config/grows\"]\n",
    );
    publish(
        &home,
        &registry,
        "same",
        "1.0.0",
        "network = \"loopback\"\n",
    );
    let agx = || {
        let mut cmd = home.agx();
        cmd.arg("--registry").arg(&registry);
        cmd
    };
    agx()
        .args(["install", "acme/grows", "acme/same"])
        .assert()
        .success();
    publish(
        &home,
        &registry,
        "grows",
        "1.1.0",
        "network = \"any\"\nread = [\"{home}/.config/grows/sub\", \"{home}/.aws\"]\nenv = [\"AWS_PROFILE\"]\n",
    );
    publish(&home, &registry, "same", "1.1.0", "network = \"none\"\n");

    // The other package moves; the one that asks for more stays, saying what grew.
    let out = agx().arg("update").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("kept acme/grows v1.0.0: v1.1.0 asks for more permissions: read {home}/.aws; network any (was none); env AWS_PROFILE"),
        "{stderr}"
    );
    assert_eq!(installed_version(&home, "acme/grows"), "1.0.0");
    assert_eq!(installed_version(&home, "acme/same"), "1.1.0");

    // Nothing else to move: the update asked for did not happen.
    let out = agx().args(["update", "acme/grows"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("nothing updated"), "{stderr}");
    assert!(
        stderr.contains("--accept-permissions acme/grows"),
        "{stderr}"
    );
    assert_eq!(installed_version(&home, "acme/grows"), "1.0.0");

    agx()
        .args(["update", "--accept-permissions", "acme/grows"])
        .assert()
        .success();
    assert_eq!(installed_version(&home, "acme/grows"), "1.1.0");
}

/// `agx serve` of the wrapped `acme/wrapper/main` (which prints its environment) in `cwd`.
fn served_environment(home: &TestHome, cwd: &std::path::Path) -> std::process::Output {
    home.agx()
        .args(["serve", "acme/wrapper/main"])
        .current_dir(cwd)
        .env("PKG_VAR", "package")
        .env("USER_VAR", "user")
        .env("PROJECT_VAR", "project")
        .output()
        .unwrap()
}

#[test]
fn a_projects_permissions_replace_the_users_and_the_packages() {
    let home = TestHome::new();
    let dir = wrapped_package(
        &home,
        "acme/wrapper",
        "\n[extension.permissions]\nenv = [\"PKG_VAR\"]\n",
        "",
        "env\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    home.agx()
        .args([
            "permissions",
            "set",
            "acme/wrapper/main",
            "--env",
            "USER_VAR",
        ])
        .assert()
        .success();
    let project = home.home().join("project");
    write_files(
        &project,
        &[(
            "agx.toml",
            "[project]\nclients = []\n\n[servers.w]\nserver = \"acme/wrapper/main\"\n\n[servers.w.permissions]\nenv = [\"PROJECT_VAR\"]\n",
        )],
    );
    let seen = |cwd: &std::path::Path| {
        let out = served_environment(&home, cwd);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        ["PKG_VAR", "USER_VAR", "PROJECT_VAR"]
            .into_iter()
            .filter(|name| text.lines().any(|l| l.starts_with(&format!("{name}="))))
            .collect::<Vec<_>>()
    };
    // The project grants what the user's do not: refused until the user accepts it.
    let out = served_environment(&home, &project);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("env PROJECT_VAR"), "{stderr}");
    assert!(
        stderr.contains("agx permissions accept acme/wrapper/main"),
        "{stderr}"
    );
    home.agx()
        .args(["permissions", "accept", "acme/wrapper/main"])
        .current_dir(&project)
        .assert()
        .success();
    // In the project: the project's; elsewhere the user's; without those, the package's.
    assert_eq!(seen(&project), ["PROJECT_VAR"]);
    assert_eq!(seen(home.home()), ["USER_VAR"]);
    // `permissions show` says so where the project replaces the user's.
    let show = |cwd: &std::path::Path| {
        let out = home
            .agx()
            .args(["permissions", "show", "acme/wrapper/main"])
            .current_dir(cwd)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
    };
    let in_project = show(&project);
    assert!(
        in_project.contains("env: USER_VAR")
            && in_project.contains("Replaced")
            && in_project.contains("env: PROJECT_VAR"),
        "{in_project}"
    );
    let outside = show(home.home());
    assert!(
        outside.contains("env: USER_VAR") && !outside.contains("PROJECT_VAR"),
        "{outside}"
    );
    home.agx()
        .args(["permissions", "reset", "acme/wrapper/main"])
        .assert()
        .success();
    assert_eq!(seen(home.home()), ["PKG_VAR"]);

    // A bad table is an error with its place, and the server does not start.
    write_files(
        &project,
        &[(
            "agx.toml",
            "[project]\nclients = []\n\n[servers.w]\nserver = \"acme/wrapper/main\"\n\n[servers.w.permissions]\nnetwork = \"sometimes\"\n",
        )],
    );
    let out = served_environment(&home, &project);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("agx.toml:8:11") && stderr.contains("`sometimes` is not a network"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("PROJECT_VAR="));
    let out = home.agx().arg("validate").arg(&project).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("E042"), "{text}");
}

/// A cloned repository's agx.toml could give a server more than its package declares: a
/// project may only narrow, unless the user accepts its permissions, and accepts again when
/// it asks for more.
#[test]
fn a_project_may_only_narrow_a_servers_permissions_until_the_user_accepts_them() {
    let home = TestHome::new();
    let dir = wrapped_package(
        &home,
        "acme/wrapper",
        "\n[extension.permissions]\nenv = [\"PKG_VAR\", \"OTHER_VAR\"]\nnetwork = \"loopback\"\n",
        "",
        "env\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let project = home.home().join("project");
    let with = |permissions: &str| {
        write_files(
            &project,
            &[(
                "agx.toml",
                &format!(
                    "[project]\nclients = []\n\n[servers.w]\nserver = \"acme/wrapper/main\"\n\n[servers.w.permissions]\n{permissions}"
                ),
            )],
        );
        served_environment(&home, &project)
    };
    // Narrower: applies as it is.
    let out = with("env = [\"PKG_VAR\"]\nnetwork = \"none\"\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("PKG_VAR=") && !stdout.contains("OTHER_VAR="),
        "{stdout}"
    );

    // Wider: refused, saying what grows, and the server does not start.
    let wider = "write = [\"{home}/work\"]\nenv = [\"PKG_VAR\"]\nnetwork = \"any\"\n";
    let out = with(wider);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("project/agx.toml gives acme/wrapper/main more"),
        "{stderr}"
    );
    assert!(stderr.contains("network any (was loopback)"), "{stderr}");
    assert!(stderr.contains("hint:"), "{stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("PKG_VAR="));

    let accept = home
        .agx()
        .args(["permissions", "accept", "acme/wrapper/main"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert!(accept.status.success(), "{accept:?}");
    assert!(String::from_utf8_lossy(&accept.stderr).contains("Accepted"));
    let out = with(wider);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Asking for more than was accepted: refused again.
    let out = with(
        "write = [\"{home}/work\"]\nenv = [\"PKG_VAR\", \"AWS_SECRET_ACCESS_KEY\"]\nnetwork = \"any\"\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("env AWS_SECRET_ACCESS_KEY"), "{stderr}");

    // Outside a project there is nothing to accept.
    let out = home
        .agx()
        .args(["permissions", "accept", "acme/wrapper/main"])
        .current_dir(home.home())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no project here"));
}
