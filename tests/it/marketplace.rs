//! Claude-format marketplaces as a source (docs/plugins.md, "Importing"): `registry
//! add-source` detects a marketplace folder or URL; `search`, `info PLUGIN@SOURCE` and
//! `list --include-remote` show its plugins with their servers, skills and what agx does not
//! carry. The fixture marketplace is `registry-fixtures/marketplace/`.

use crate::support::http::HttpServer;
use crate::support::{TestHome, copy_tree, fixtures, write_file};

fn fixture_marketplace() -> std::path::PathBuf {
    fixtures().join("marketplace")
}

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn failure(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(!out.status.success(), "expected a failure");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_marketplace_folder_is_detected_and_its_plugins_discovered() {
    let home = TestHome::new();
    let folder = fixture_marketplace();
    let added = stdout(
        home.agx()
            .args(["registry", "add-source", "acme"])
            .arg(&folder),
    );
    assert!(
        added.contains("claude-marketplace") || added.is_empty(),
        "{added}"
    );
    let sources = stdout(home.agx().args(["registry", "sources", "--json"]));
    let sources: serde_json::Value = serde_json::from_str(&sources).unwrap();
    assert_eq!(sources["sources"][0]["kind"], "claude-marketplace");
    // A marketplace installs `PLUGIN@SOURCE`: it is never the default registry.
    assert_eq!(sources["sources"][0]["default"], false);

    let found = stdout(home.agx().args(["search", "umbrella"]));
    assert!(found.contains("weather-tools@acme 1.0.0"), "{found}");
    assert!(
        found.contains("servers: forecast; skills: umbrella-advice; not carried: hooks"),
        "{found}"
    );

    let info = stdout(home.agx().args(["info", "weather-tools@acme"]));
    assert!(
        info.contains("weather-tools@acme 1.0.0 (claude-marketplace acme"),
        "{info}"
    );
    assert!(info.contains("servers: forecast"), "{info}");
    assert!(info.contains("skills: umbrella-advice"), "{info}");
    assert!(info.contains("not carried: hooks"), "{info}");
    let json: serde_json::Value = serde_json::from_str(&stdout(home.agx().args([
        "info",
        "weather-tools@acme",
        "--json",
    ])))
    .unwrap();
    assert_eq!(json["kind"], "claude-marketplace");
    assert_eq!(json["not_carried"], serde_json::json!(["hooks"]));

    let listed = stdout(home.agx().args(["list", "--include-remote"]));
    assert!(
        listed.contains("weather-tools@acme  1.0.0  claude-marketplace  Forecasts over MCP"),
        "{listed}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(home.agx().args([
        "list",
        "--include-remote",
        "--json",
    ])))
    .unwrap();
    let plugin = &json["packages"][0];
    assert_eq!(plugin["kind"], "claude-marketplace");
    assert_eq!(plugin["install"], "weather-tools@acme");
    assert_eq!(plugin["skills"], serde_json::json!(["umbrella-advice"]));
}

#[test]
fn a_marketplace_url_is_detected_and_read() {
    let home = TestHome::new();
    let served = tempfile::tempdir().unwrap();
    copy_tree(&fixture_marketplace(), served.path());
    let server = HttpServer::serve(served.path());
    // The base URL, and the catalog's own URL, are both recognised.
    stdout(
        home.agx()
            .args(["registry", "add-source", "web", &server.url()]),
    );
    let catalog = format!("{}/.claude-plugin/marketplace.json", server.url());
    stdout(
        home.agx()
            .args(["registry", "add-source", "file", &catalog]),
    );
    let sources = stdout(home.agx().args(["registry", "sources", "--json"]));
    assert_eq!(
        sources.matches("claude-marketplace").count(),
        2,
        "{sources}"
    );

    // A web marketplace lists its plugins by the catalog alone (a plugin's folder is not
    // browsable over HTTP).
    let info = stdout(home.agx().args(["info", "weather-tools@web"]));
    assert!(info.contains("weather-tools@web 1.0.0"), "{info}");
    assert!(
        info.contains("plugin source: ./plugins/weather-tools"),
        "{info}"
    );
    let listed = stdout(home.agx().args(["list", "--include-remote"]));
    assert!(listed.contains("weather-tools@file"), "{listed}");
}

#[test]
fn bad_marketplaces_are_refused_with_where_and_why() {
    let home = TestHome::new();
    let market = tempfile::tempdir().unwrap();
    write_file(
        &market.path().join(".claude-plugin/marketplace.json"),
        "{\"name\": \"m\",\n \"plugins\": 3}\n",
    );
    let err = failure(
        home.agx()
            .args(["registry", "add-source", "m"])
            .arg(market.path()),
    );
    assert!(err.contains("marketplace.json: invalid type"), "{err}");
    assert!(err.contains("line 2"), "{err}");
    assert!(!home.agx_home().join("config.toml").exists());

    let empty = tempfile::tempdir().unwrap();
    let err = failure(
        home.agx()
            .args(["registry", "add-source", "e"])
            .arg(empty.path()),
    );
    assert!(err.contains("is not an agx registry"), "{err}");

    stdout(
        home.agx()
            .args(["registry", "add-source", "acme"])
            .arg(fixture_marketplace()),
    );
    let err = failure(home.agx().args(["info", "nope@acme"]));
    assert!(
        err.contains("plugin `nope` is not in the marketplace"),
        "{err}"
    );
    assert!(err.contains("its plugins: weather-tools"), "{err}");

    // A source named like a version makes `name@2` ambiguous.
    stdout(
        home.agx()
            .args(["registry", "add-source", "2"])
            .arg(fixture_marketplace()),
    );
    let err = failure(home.agx().args(["info", "weather-tools@2"]));
    assert!(err.contains("is ambiguous"), "{err}");
    assert!(err.contains("agx registry remove-source 2"), "{err}");
}
