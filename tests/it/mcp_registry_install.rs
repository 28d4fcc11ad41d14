//! `agx install <server name>` from the loopback MCP registry of `mcp_registry.rs`: the real
//! `@modelcontextprotocol/server-everything` (npm) and `mcp-server-time` (PyPI) entries at the
//! versions `ecosystem.rs` pins, served by `agx serve <package>` (one-server naming) and
//! called; the receipt; settings named as written; and the bad entries, each a clear error
//! that leaves the store as it was.

use serde_json::{Value, json};

use crate::ecosystem::{EVERYTHING_VERSION, Session, TIME_VERSION, command, store_files};
use crate::mcp_registry::{McpServer, Mode, Servers, document, documents, listed};
use crate::mcpb::{hello_bundle, sha256_of};
use crate::support::TestHome;
use crate::support::http::HttpServer;

const TIME: &str = "io.github.modelcontextprotocol/time";
const EVERYTHING: &str = "io.github.modelcontextprotocol/server-everything";
const HELLO: &str = "io.github.acme/hello-bundle";
const TIME_IMAGE: &str = "io.github.acme/time-image";

/// `agx --registry <url> ARGS` with the shared download caches, failing fast.
fn agx(home: &TestHome, registry: &str, args: &[&str]) -> std::process::Output {
    command(home, crate::support::AGX)
        .env("AGX_HTTP_RETRIES", "0")
        .args(["--registry", registry])
        .args(args)
        .output()
        .expect("agx runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn receipt(home: &TestHome, package: &str) -> String {
    let (publisher, name) = package.split_once('/').unwrap();
    let path = home
        .agx_home()
        .join("receipts-v1")
        .join(publisher)
        .join(format!("{name}.toml"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_pypi_entry_installs_keeps_its_name_and_serves_by_package_name() {
    let registry = McpServer::start(Servers::Documents(documents()), 100);
    let home = TestHome::new();
    let out = agx(
        &home,
        &registry.url,
        &["install", &format!("{TIME}@{TIME_VERSION}")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    let receipt = receipt(&home, TIME);
    for expected in [
        format!("registry = \"{}\"", registry.url),
        format!("server = \"{TIME}\""),
        format!("version = \"{TIME_VERSION}\""),
        format!("chosen = \"pypi:mcp-server-time=={TIME_VERSION}\""),
    ] {
        assert!(receipt.contains(&expected), "no `{expected}` in\n{receipt}");
    }

    // `--local-timezone` became a setting with its default, keyed `local_timezone`.
    let out = agx(&home, &registry.url, &["config", "list", TIME]);
    assert!(
        text(&out.stdout).contains("local_timezone"),
        "{}",
        text(&out.stdout)
    );

    let mut session = Session::start(&home, TIME);
    session.initialize();
    let tools = session.tool_names();
    assert!(tools.iter().any(|t| t == "get_current_time"), "{tools:?}");
    let result = session.request(
        3,
        "tools/call",
        json!({"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}),
    );
    let body = result["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(body.contains("Europe/Paris"), "{result}");
    drop(session);

    // The package alone names its one server for install-server too; the entry written
    // names it in full.
    let out = agx(
        &home,
        &registry.url,
        &["install-server", "claude-code", TIME, "--dry-run"],
    );
    let diff = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(diff.contains(&format!("\"{TIME}/time\"")), "{diff}");

    // Installed again: nothing to do, no registry needed.
    let out = agx(&home, "http://127.0.0.1:9", &["install", TIME]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn the_npm_entry_installs_and_echo_answers_through_agx_serve() {
    let registry = McpServer::start(Servers::Documents(documents()), 100);
    let home = TestHome::new();
    let out = agx(&home, &registry.url, &["install", EVERYTHING]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let receipt = receipt(&home, EVERYTHING);
    assert!(
        receipt.contains(&format!(
            "chosen = \"npm:@modelcontextprotocol/server-everything@{EVERYTHING_VERSION}\""
        )),
        "{receipt}"
    );

    let mut session = Session::start(&home, EVERYTHING);
    session.initialize();
    assert!(session.tool_names().iter().any(|t| t == "echo"));
    let result = session.request(
        3,
        "tools/call",
        json!({"name": "echo", "arguments": {"message": "through agx"}}),
    );
    assert_eq!(
        result["result"]["content"][0]["text"], "Echo: through agx",
        "{result}"
    );
}

/// The documents with one more entry: a remote only, whose header takes a variable named
/// like an environment variable.
fn with_remote_entry() -> Vec<Value> {
    let mut all = documents();
    all.push(json!({
        "server": {
            "name": "io.github.acme/remote-weather",
            "description": "Weather over Streamable HTTP",
            "version": "2.0.0",
            "remotes": [{
                "type": "streamable-http",
                "url": "https://{region}.weather.example/mcp",
                "variables": {"region": {"default": "eu", "choices": ["eu", "us"]}},
                "headers": [{"name": "X-Api-Key", "value": "{WEATHER_API_KEY}",
                             "variables": {"WEATHER_API_KEY": {"isSecret": true, "isRequired": true}}}]
            }]
        },
        "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": true}}
    }));
    all
}

#[test]
fn an_entry_installs_by_name_from_the_configured_sources_and_search_names_each() {
    let registry = McpServer::start(Servers::Documents(with_remote_entry()), 100);
    let home = TestHome::new();
    let index = crate::support::fixtures().join("registry");
    let run = |args: &[&str]| {
        let out = command(&home, crate::support::AGX)
            .env("AGX_HTTP_RETRIES", "0")
            .args(args)
            .output()
            .expect("agx runs");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    run(&["registry", "add-source", "official", &registry.url]);
    run(&[
        "registry",
        "add-source",
        "fixtures",
        index.to_str().unwrap(),
    ]);

    // No --registry: the MCP registry lists the entry, the agx index holds the package.
    run(&["install", "io.github.acme/remote-weather"]);
    run(&["install", "acme/geo"]);
    assert!(receipt(&home, "io.github.acme/remote-weather").contains(&registry.url));

    let found = run(&["search", "weather"]);
    assert!(
        found.contains("from official") && found.contains("from fixtures"),
        "{found}"
    );
    let found: Value = serde_json::from_str(&run(&["search", "--json", "weather"])).unwrap();
    let sources: Vec<&str> = found["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| hit["source"].as_str().unwrap())
        .collect();
    assert!(
        sources.contains(&"official") && sources.contains(&"fixtures"),
        "{found}"
    );
}

#[test]
fn remotes_install_without_provisioning_and_keep_setting_names_as_written() {
    let registry = McpServer::start(Servers::Documents(with_remote_entry()), 100);
    let home = TestHome::new();
    let remote = "io.github.acme/remote-weather";
    let out = agx(&home, &registry.url, &["install", remote]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let mut set = command(&home, crate::support::AGX);
    set.args(["config", "set", remote, "WEATHER_API_KEY", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = set.spawn().unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"k-123\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));

    let out = agx(&home, &registry.url, &["config", "list", remote]);
    let listed = text(&out.stdout);
    assert!(
        listed.contains("WEATHER_API_KEY") && listed.contains("region"),
        "{listed}"
    );
    assert!(
        !listed.contains("k-123"),
        "a secret is never shown:\n{listed}"
    );

    let definition = std::fs::read_to_string(
        home.agx_home()
            .join("store-v1/io.github.acme/remote-weather/2.0.0/agx/servers/remote-weather.toml"),
    )
    .unwrap();
    assert!(
        definition.contains("url = \"https://${settings.region}.weather.example/mcp\"")
            && definition.contains("X-Api-Key = \"${settings.WEATHER_API_KEY}\""),
        "{definition}"
    );

    // The weather entry's npm package does not exist; --prefer picks its remote instead.
    let out = agx(
        &home,
        &registry.url,
        &["install", "--prefer", "mcpb", "io.github.user/weather"],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("io.github.user/weather has no mcpb package or remote"),
        "{}",
        text(&out.stderr)
    );

    let out = agx(
        &home,
        &registry.url,
        &["install", "--prefer", "npm", "npm:left-pad"],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--prefer applies to servers from an MCP registry"),
        "{}",
        text(&out.stderr)
    );
}

/// A remote-only entry (installs without provisioning) named `name` at `version`.
fn remote_entry(name: &str, version: &str, latest: bool) -> Value {
    listed(
        json!({
            "name": name,
            "description": "A remote server",
            "version": version,
            "remotes": [{"type": "streamable-http", "url": "https://tool.example/mcp"}]
        }),
        latest,
    )
}

#[test]
fn an_answer_naming_another_server_installs_nothing() {
    let victim = "io.github.victim/tool";
    let registry = McpServer::start(
        Servers::Documents(vec![
            remote_entry(victim, "1.0.0", false),
            remote_entry(victim, "9.0.0", true),
        ]),
        100,
    );
    let home = TestHome::new();
    let out = agx(
        &home,
        &registry.url,
        &["install", &format!("{victim}@1.0.0")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let before = receipt(&home, victim);

    // From now on every lookup is answered with the victim at 9.0.0.
    registry.set_mode(Mode::Impostor);
    assert_refused(
        &home,
        &registry.url,
        "io.github.evil/innocent",
        &[
            "answered with io.github.victim/tool 9.0.0",
            "io.github.evil/innocent was asked for",
        ],
    );
    // An exact version that the answer does not carry is refused the same way.
    assert_refused(
        &home,
        &registry.url,
        &format!("{victim}@2.0.0"),
        &["io.github.victim/tool 2.0.0 was asked for"],
    );
    assert_eq!(receipt(&home, victim), before, "the victim was replaced");
}

#[test]
fn a_package_with_several_servers_names_them() {
    let home = TestHome::new();
    home.agx()
        .arg("install")
        .arg(crate::support::fixtures().join("packages/agx-edge"))
        .assert()
        .success();
    let several = "agx/edge has 3 servers; name one of them: agx/edge/edge, agx/edge/init_fails, agx/edge/wrapped";
    for args in [
        &["serve", "agx/edge"][..],
        &["install-server", "claude-code", "agx/edge", "--dry-run"],
    ] {
        let out = home.agx().args(args).output().unwrap();
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(several), "{args:?}: {err}");
    }
    // A qualified name still names one server of it.
    let out = home
        .agx()
        .args([
            "install-server",
            "claude-code",
            "agx/edge/edge",
            "--dry-run",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// A registry holding the real documents plus one that breaks the schema.
fn with_bad_entry() -> Vec<Value> {
    let mut all = documents();
    let mut bad = document("time");
    bad["name"] = "io.github.bad/latest".into();
    bad["version"] = "latest".into();
    all.push(json!({"server": bad}));
    all
}

/// The store and receipts (the registry's answers may be cached).
fn installed_files(home: &TestHome) -> Vec<String> {
    store_files(home)
        .into_iter()
        .filter(|f| !f.starts_with("cache/"))
        .collect()
}

fn assert_refused(home: &TestHome, registry: &str, spec: &str, expected: &[&str]) {
    let before = installed_files(home);
    let out = agx(home, registry, &["install", spec]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{spec} was installed");
    for e in expected {
        assert!(err.contains(e), "missing `{e}` in:\n{err}");
    }
    assert_eq!(installed_files(home), before, "{spec} changed the store");
}

#[test]
fn bad_entries_are_refused_and_leave_the_store_unchanged() {
    let registry = McpServer::start(Servers::Documents(with_bad_entry()), 100);
    let home = TestHome::new();
    assert_refused(
        &home,
        &registry.url,
        "io.github.bad/latest",
        &["version is `latest`", "give one exact version"],
    );
    assert_refused(
        &home,
        &registry.url,
        "io.github.user/gone-weather",
        &["io.github.user/gone-weather", "deleted"],
    );
    assert_refused(
        &home,
        &registry.url,
        &format!("{TIME}@1999.1.1"),
        &[
            &format!("{TIME}: no version `1999.1.1` in {}", registry.url),
            "agx info",
        ],
    );
    assert_refused(
        &home,
        &registry.url,
        "io.github.nobody/nothing",
        &["io.github.nobody/nothing"],
    );
}

/// The fixture bundle served on loopback; keep it alive while the registry points at it.
fn served_bundle() -> (HttpServer, tempfile::TempDir, String) {
    let served = tempfile::tempdir().unwrap();
    std::fs::copy(hello_bundle(), served.path().join("hello.mcpb")).unwrap();
    let server = HttpServer::serve(served.path());
    let url = format!("{}/hello.mcpb", server.url());
    (server, served, url)
}

/// The hello-bundle entry at `version`, pointing at the bundle at `url` with `sha256`.
fn bundle_entry(url: &str, sha256: &str, version: &str, latest: bool) -> Value {
    let mut doc = document("hello-bundle");
    doc["version"] = version.into();
    doc["packages"][0]["identifier"] = url.into();
    doc["packages"][0]["fileSha256"] = sha256.into();
    listed(doc, latest)
}

/// `greet` of the hello bundle, called through `agx serve <package>`.
fn greet(home: &TestHome, package: &str) -> String {
    let mut session = Session::start(home, package);
    session.initialize();
    let reply = session.request(
        3,
        "tools/call",
        json!({"name": "greet", "arguments": {"name": "agx"}}),
    );
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn an_mcpb_entry_installs_against_its_sha256_and_serves() {
    let (_server, _dir, url) = served_bundle();
    let sha256 = sha256_of(hello_bundle());
    let mut all = documents();
    all.push(bundle_entry(&url, &sha256, "1.0.0", true));
    let mut wrong = document("hello-bundle");
    wrong["name"] = "io.github.acme/wrong-bundle".into();
    wrong["packages"][0]["identifier"] = url.clone().into();
    wrong["packages"][0]["fileSha256"] = "0".repeat(64).into();
    all.push(listed(wrong, true));
    let registry = McpServer::start(Servers::Documents(all), 100);
    let home = TestHome::new();

    assert_refused(
        &home,
        &registry.url,
        "io.github.acme/wrong-bundle",
        &[&format!(
            "{url}: the sha256 is {sha256}, not the expected {}",
            "0".repeat(64)
        )],
    );

    let out = agx(&home, &registry.url, &["install", HELLO]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let receipt = receipt(&home, HELLO);
    for expected in [
        format!("chosen = \"mcpb:{url}\""),
        format!("integrity = [\"sha256:{sha256}\"]"),
        "version = \"1.0.0\"".to_string(),
    ] {
        assert!(receipt.contains(&expected), "no `{expected}` in\n{receipt}");
    }
    // The bundle's user_config and the entry's environment variable are both settings.
    let out = agx(&home, &registry.url, &["config", "list", HELLO]);
    let listed = text(&out.stdout);
    assert!(
        listed.contains("greeting") && listed.contains("HELLO_MOOD"),
        "{listed}"
    );
    assert_eq!(greet(&home, HELLO), "Hello, agx!");
    let set = agx(
        &home,
        &registry.url,
        &["config", "set", HELLO, "greeting", "Howdy"],
    );
    assert!(set.status.success(), "{}", text(&set.stderr));
    assert_eq!(greet(&home, HELLO), "Howdy, agx!");
}

#[test]
fn an_oci_entry_installs_without_a_daemon_with_settings_passed_by_name() {
    let Some(docker) = crate::oci::on_path("docker") else {
        eprintln!("skipped: docker is not on PATH");
        return;
    };
    if crate::oci::daemon_answers(&docker) {
        eprintln!("skipped: a docker daemon answers, and this test must not pull images");
        return;
    }
    let mut all = documents();
    all.push(listed(document("time-image"), true));
    let registry = McpServer::start(Servers::Documents(all), 100);
    let home = TestHome::new();
    let out = agx(&home, &registry.url, &["install", TIME_IMAGE]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(
            "oci:mcp/time:1.0: no docker daemon answered, so the image's digest is not resolved"
        ),
        "{}",
        text(&out.stderr)
    );
    // Its runtime arguments are docker's, and applied: no warning that they are left out.
    assert!(
        !text(&out.stderr).contains("are left out"),
        "{}",
        text(&out.stderr)
    );
    let definition = crate::oci::server_definition(&home, "time-image");
    assert!(
        definition.contains(
            r#"command = ["docker", "run", "--rm", "-i", "-e", "TIME_API_KEY", "-e", "TZ_TOKEN", "mcp/time:1.0", "--local-timezone", "${settings.local_timezone}"]"#
        ) && definition.contains(r#"TZ_TOKEN = "${settings.token}""#),
        "{definition}"
    );
    let receipt = receipt(&home, TIME_IMAGE);
    assert!(
        receipt.contains("chosen = \"oci:mcp/time:1.0\""),
        "{receipt}"
    );
    let out = agx(&home, &registry.url, &["config", "list", TIME_IMAGE]);
    let listed = text(&out.stdout);
    assert!(
        ["TIME_API_KEY", "token", "local_timezone"]
            .iter()
            .all(|k| listed.contains(k)),
        "{listed}"
    );
}

#[test]
fn outdated_and_update_follow_the_entrys_registry() {
    let (_server, _dir, url) = served_bundle();
    let sha256 = sha256_of(hello_bundle());
    let mut all = documents();
    all.push(bundle_entry(&url, &sha256, "1.0.0", false));
    all.push(bundle_entry(&url, &sha256, "1.1.0", true));
    let registry = McpServer::start(Servers::Documents(all), 100);
    let home = TestHome::new();
    let out = agx(
        &home,
        &registry.url,
        &["install", &format!("{HELLO}@1.0.0")],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    // No --registry: the receipt names the registry to ask.
    let out = command(&home, crate::support::AGX)
        .args(["outdated", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = rows["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == HELLO)
        .unwrap_or_else(|| panic!("{rows}"));
    assert_eq!(
        (&row["current"], &row["latest"]),
        (&json!("1.0.0"), &json!("1.1.0"))
    );

    let out = command(&home, crate::support::AGX)
        .args(["update", HELLO])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let receipt = receipt(&home, HELLO);
    assert!(receipt.contains("version = \"1.1.0\""), "{receipt}");
    assert_eq!(greet(&home, HELLO), "Hello, agx!");

    let out = command(&home, crate::support::AGX)
        .args(["outdated", "--json"])
        .output()
        .unwrap();
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        !rows["packages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == HELLO),
        "{rows}"
    );
}
