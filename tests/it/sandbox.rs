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
fn landlock_missing() -> Option<String> {
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
        "\n[extension.permissions]\nnetwork = \"none\"\n",
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
    let dir = package(&home, "wrapper", "", "", "cat >/dev/null; echo ok\n");
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"wrapper\"\nversion = \"1.0.0\"\ndescription = \"Test\"\n\n[extension]\nservers = [\"main\"]\n",
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\ncommand = [\"sh\", \"bin/t.sh\"]\n\n[permissions]\nnetwork = \"none\"\n",
            ),
            (
                "bin/t.sh",
                "if cat \"$HOME/.ssh/id_rsa\" >/dev/null 2>&1; then r=allowed; else r=denied; fi\necho \"read-ssh: $r\" > \"$AGX_DATA_DIR/result.txt\"\n",
            ),
        ],
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
