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
    let out = home
        .agx()
        .args(["registry", "add-source", "acme"])
        .arg(&folder)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && said.contains("Added registry `acme` (claude-marketplace)"),
        "{said}"
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

// ---- agx install PLUGIN@SOURCE ----

/// The package `weather-tools@acme` becomes: its publisher is the source's configured name.
const PACKAGE: &str = "acme/weather-tools";

/// The package the fixture's plugin becomes when imported from the source `source`.
fn package_of(source: &str) -> String {
    format!("{source}/weather-tools")
}

/// `agx serve` of the plugin's server imported from `source`, with the secret given through
/// its override variable: one `tools/call`, answered by the plugin's own Python server.
fn call_forecast(home: &TestHome, source: &str) -> serde_json::Value {
    let variable = format!(
        "AGX_SETTING__{}__WEATHER_TOOLS__API_KEY",
        source.to_uppercase().replace('-', "_")
    );
    call_forecast_of(home, &package_of(source), &[(&variable, "k-123")])
}

/// `agx serve PACKAGE/forecast` with `env`, driven by rmcp's client (the Rust SDK, not the
/// client a plugin was written for): one `tools/call` of a fixture plugin's forecast server
/// (registry-fixtures/marketplace, registry-fixtures/plugin-dialects), its answer.
pub(crate) fn call_forecast_of(
    home: &TestHome,
    package: &str,
    env: &[(&str, &str)],
) -> serde_json::Value {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    let mut cmd = home.command(crate::support::AGX);
    cmd.args(["serve", &format!("{package}/forecast")])
        .envs(env.iter().copied());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (transport, _) =
            rmcp::transport::TokioChildProcess::builder(tokio::process::Command::from(cmd))
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("spawn agx serve");
        let client = ().serve(transport).await.expect("initialize");
        let arguments = serde_json::json!({"place": "Paris"});
        let result = client
            .call_tool(
                CallToolRequestParams::new("forecast")
                    .with_arguments(arguments.as_object().unwrap().clone()),
            )
            .await
            .expect("tools/call");
        client.cancel().await.unwrap();
        let result = serde_json::to_value(&result).unwrap();
        serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap()
    })
}

fn receipt(home: &TestHome, source: &str) -> toml::Table {
    let path = home
        .agx_home()
        .join(format!("receipts-v1/{source}/weather-tools.toml"));
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_folder_plugin_installs_as_a_package_whose_server_runs_and_skill_installs() {
    let home = TestHome::new();
    stdout(
        home.agx()
            .args(["registry", "add-source", "acme"])
            .arg(fixture_marketplace()),
    );
    stdout(home.agx().args(["install", "weather-tools@acme"]));

    let source = &receipt(&home, "acme")["source"];
    assert_eq!(source["kind"].as_str(), Some("plugin"));
    assert_eq!(source["reference"].as_str(), Some("weather-tools@acme"));
    assert_eq!(source["location"].as_str(), Some("./plugins/weather-tools"));
    assert!(
        source["revision"].as_str().unwrap().starts_with("sha256:"),
        "{source:?}"
    );

    // userConfig became settings: the sensitive one a secret.
    let info: serde_json::Value =
        serde_json::from_str(&stdout(home.agx().args(["info", PACKAGE, "--json"]))).unwrap();
    let settings = info["settings"].as_array().unwrap();
    let api_key = settings.iter().find(|s| s["key"] == "api_key").unwrap();
    assert_eq!(api_key["secret"], true, "{api_key}");
    assert_eq!(api_key["required"], true, "{api_key}");
    // The hook is kept in the package folder but not carried, and `info` says so.
    assert_eq!(info["not_carried"], serde_json::json!(["hooks"]));
    let text = stdout(home.agx().args(["info", PACKAGE]));
    assert!(text.contains("not carried: hooks (agx installs"), "{text}");

    // ${CLAUDE_PLUGIN_ROOT} is the package folder (the script ran), ${user_config.*} the
    // settings, ${CLAUDE_PLUGIN_DATA} a folder outside the store that exists.
    let answer = call_forecast(&home, "acme");
    assert_eq!(answer["has_api_key"], true, "{answer}");
    assert_eq!(answer["units"], "metric", "{answer}");
    let data = std::path::PathBuf::from(answer["data_dir"].as_str().unwrap());
    assert_eq!(data, home.agx_home().join("data/acme/weather-tools"));
    assert!(data.is_dir());

    stdout(home.agx().args([
        "install-skill",
        "codex",
        &format!("{PACKAGE}/umbrella-advice"),
    ]));
    assert!(
        home.home()
            .join(".agents/skills/umbrella-advice/SKILL.md")
            .is_file()
    );
}

/// A copy of the fixture marketplace whose plugin is an archive, with `sha256` as given.
fn archive_marketplace(sha256: Option<&str>) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let actual = write_archive_marketplace(dir.path(), sha256, None);
    (dir, actual)
}

/// Write into `dir` a marketplace whose plugin is the fixture's as an archive (with the
/// file `extra.txt` holding `extra`, when given), and `sha256` in its catalog (else the
/// archive's). Returns the archive's sha256.
pub(crate) fn write_archive_marketplace(
    dir: &std::path::Path,
    sha256: Option<&str>,
    extra: Option<&str>,
) -> String {
    let archive = dir.join("archives/weather-tools.tar.gz");
    std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
    let file = std::fs::File::create(&archive).unwrap();
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        file,
        flate2::Compression::default(),
    ));
    // One top folder, stripped on unpacking (as `npm pack` and release archives have).
    tar.append_dir_all(
        "weather-tools",
        fixture_marketplace().join("plugins/weather-tools"),
    )
    .unwrap();
    if let Some(extra) = extra {
        let mut header = tar::Header::new_gnu();
        header.set_size(extra.len() as u64);
        header.set_mode(0o644);
        tar.append_data(&mut header, "weather-tools/extra.txt", extra.as_bytes())
            .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
    let actual = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(std::fs::read(&archive).unwrap()))
    };
    let catalog = serde_json::json!({
        "name": "acme-plugins",
        "plugins": [{
            "name": "weather-tools",
            "source": {"source": "archive", "url": "archives/weather-tools.tar.gz",
                       "sha256": sha256.unwrap_or(&actual)},
        }],
    });
    write_file(
        &dir.join(".claude-plugin/marketplace.json"),
        catalog.to_string(),
    );
    actual
}

#[test]
fn an_archive_plugin_is_checked_against_its_sha256() {
    let home = TestHome::new();
    let wrong = "0".repeat(64);
    let (market, actual) = archive_marketplace(Some(&wrong));
    stdout(
        home.agx()
            .args(["registry", "add-source", "bad"])
            .arg(market.path()),
    );
    let err = failure(home.agx().args(["install", "weather-tools@bad"]));
    // A file of the marketplace's folder is said not to match, without its own sha256.
    assert!(
        err.contains(&format!(
            "does not match the sha256 {wrong} in marketplace.json"
        )) && !err.contains(&actual),
        "{err}"
    );
    assert!(!home.agx_home().join("receipts-v1").exists(), "{err}");
    let store = home.agx_home().join("store-v1");
    let left: Vec<_> = std::fs::read_dir(&store)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        left.iter().all(|n| n.to_string_lossy().starts_with('.')),
        "{left:?}"
    );

    // The right hash installs, from a folder and from a loopback URL.
    let (market, actual) = archive_marketplace(None);
    stdout(
        home.agx()
            .args(["registry", "add-source", "good"])
            .arg(market.path()),
    );
    stdout(home.agx().args(["install", "weather-tools@good"]));
    assert_eq!(
        receipt(&home, "good")["source"]["revision"].as_str(),
        Some(format!("sha256:{actual}").as_str())
    );
    stdout(home.agx().args(["uninstall", &package_of("good")]));
    let server = HttpServer::serve(market.path());
    stdout(
        home.agx()
            .args(["registry", "add-source", "web", &server.url()]),
    );
    stdout(home.agx().args(["install", "weather-tools@web"]));
    assert_eq!(call_forecast(&home, "web")["has_api_key"], true);
}

// Unix: the test's git runs with `GIT_CONFIG_GLOBAL=/dev/null`, and "no git" is a PATH of
// one missing folder.
#[cfg(unix)]
#[test]
fn a_git_plugin_pinned_by_sha_installs_that_commit() {
    let home = TestHome::new();
    let repo = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(repo.path())
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    git(&["init", "--quiet"]);
    copy_tree(
        &fixture_marketplace().join("plugins/weather-tools"),
        &repo.path().join("weather"),
    );
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "1.0.0"]);
    let first = git(&["rev-parse", "HEAD"]);
    let manifest = repo.path().join("weather/.claude-plugin/plugin.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("\"1.0.0\"", "\"2.0.0\"")).unwrap();
    git(&["commit", "--quiet", "-am", "2.0.0"]);

    let market = tempfile::tempdir().unwrap();
    let catalog = serde_json::json!({
        "name": "acme-plugins",
        "plugins": [{
            "name": "weather-tools",
            "source": {"source": "git-subdir", "url": repo.path(), "path": "weather", "sha": first},
        }],
    });
    write_file(
        &market.path().join(".claude-plugin/marketplace.json"),
        catalog.to_string(),
    );
    stdout(
        home.agx()
            .args(["registry", "add-source", "git"])
            .arg(market.path()),
    );
    stdout(home.agx().args(["install", "weather-tools@git"]));
    let receipt = receipt(&home, "git");
    assert_eq!(receipt["version"].as_str(), Some("1.0.0"));
    assert_eq!(
        receipt["source"]["revision"].as_str(),
        Some(format!("git:{first}").as_str())
    );

    // Without git on PATH, the error says what to install.
    stdout(home.agx().args(["uninstall", &package_of("git")]));
    let err = failure(
        home.agx()
            .env("PATH", "/nonexistent")
            .args(["install", "weather-tools@git"]),
    );
    assert!(
        err.contains("git is needed to install weather-tools@git"),
        "{err}"
    );
    assert!(err.contains("install git"), "{err}");
}

/// A loopback npm registry holding the fixture plugin as the unscoped package
/// `weather-tools-plugin` 1.0.0 (a packument and its tarball, whose top folder is
/// `package/`); returns the tarball's integrity.
fn npm_registry(root: &std::path::Path, url: &str, integrity: Option<&str>) -> String {
    use base64::Engine as _;
    use sha2::Digest;
    let tarball = root.join("tarballs/weather-tools-plugin-1.0.0.tgz");
    if !tarball.exists() {
        std::fs::create_dir_all(tarball.parent().unwrap()).unwrap();
        let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
            std::fs::File::create(&tarball).unwrap(),
            flate2::Compression::default(),
        ));
        tar.append_dir_all(
            "package",
            fixture_marketplace().join("plugins/weather-tools"),
        )
        .unwrap();
        let manifest = br#"{"name": "weather-tools-plugin", "version": "1.0.0"}"#;
        let mut header = tar::Header::new_gnu();
        header.set_size(manifest.len() as u64);
        header.set_mode(0o644);
        tar.append_data(&mut header, "package/package.json", &manifest[..])
            .unwrap();
        tar.into_inner().unwrap().finish().unwrap();
    }
    let actual = format!(
        "sha512-{}",
        base64::engine::general_purpose::STANDARD
            .encode(sha2::Sha512::digest(std::fs::read(&tarball).unwrap()))
    );
    let packument = serde_json::json!({
        "name": "weather-tools-plugin",
        "dist-tags": {"latest": "1.0.0"},
        "versions": {"1.0.0": {
            "name": "weather-tools-plugin",
            "version": "1.0.0",
            "dist": {
                "tarball": format!("{url}/tarballs/weather-tools-plugin-1.0.0.tgz"),
                "integrity": integrity.unwrap_or(&actual),
            },
        }},
    });
    write_file(&root.join("weather-tools-plugin"), packument.to_string());
    actual
}

/// A marketplace folder whose one plugin has the npm source `source`.
fn npm_marketplace(source: serde_json::Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let catalog = serde_json::json!({
        "name": "acme-plugins",
        "plugins": [{"name": "weather-tools", "source": source}],
    });
    write_file(
        &dir.path().join(".claude-plugin/marketplace.json"),
        catalog.to_string(),
    );
    dir
}

#[test]
fn an_npm_plugin_installs_from_its_registry_checked_against_its_integrity() {
    let home = TestHome::new();
    let served = tempfile::tempdir().unwrap();
    let registry = HttpServer::serve(served.path());
    // npm reaches only the loopback registry, with a cache and config in the test home.
    let agx = || {
        let mut cmd = home.agx();
        cmd.env("npm_config_registry", registry.url())
            .env("npm_config_cache", home.home().join("npm-cache"))
            .env("npm_config_update_notifier", "false")
            // npm retries a tarball that fails its integrity after 10 s: once is enough here.
            .env("npm_config_fetch_retries", "0");
        cmd
    };
    let market = npm_marketplace(serde_json::json!({
        "source": "npm", "package": "weather-tools-plugin", "version": "^1",
        "registry": registry.url(),
    }));
    stdout(
        agx()
            .args(["registry", "add-source", "npm-market"])
            .arg(market.path()),
    );

    // A tarball that is not the one the registry's integrity names is refused by npm, and
    // nothing is installed.
    let wrong = format!("sha512-{}", "A".repeat(86) + "==");
    npm_registry(served.path(), &registry.url(), Some(&wrong));
    let err = failure(agx().args(["install", "weather-tools@npm-market"]));
    assert!(err.contains("EINTEGRITY"), "{err}");
    assert!(!home.agx_home().join("receipts-v1").exists(), "{err}");
    let store = home.agx_home().join("store-v1");
    let left: Vec<_> = std::fs::read_dir(&store)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        left.iter().all(|n| n.to_string_lossy().starts_with('.')),
        "{left:?}"
    );

    let integrity = npm_registry(served.path(), &registry.url(), None);
    stdout(agx().args(["install", "weather-tools@npm-market"]));
    let receipt = receipt(&home, "npm-market");
    assert_eq!(receipt["version"].as_str(), Some("1.0.0"));
    assert_eq!(
        receipt["source"]["revision"].as_str(),
        Some(format!("npm:weather-tools-plugin@1.0.0 {integrity}").as_str())
    );
    assert!(registry.count("/tarballs/weather-tools-plugin-1.0.0.tgz") > 0);
    assert_eq!(call_forecast(&home, "npm-market")["has_api_key"], true);
}

#[test]
fn npm_plugin_sources_that_npm_cannot_or_must_not_fetch_are_refused() {
    let home = TestHome::new();
    for (name, source) in [
        (
            "file",
            serde_json::json!({"source": "npm", "package": "x", "registry": "file:///tmp"}),
        ),
        (
            "plain",
            serde_json::json!({"source": "npm", "package": "x", "registry": "http://registry.example"}),
        ),
        (
            "git",
            serde_json::json!({"source": "npm", "package": "x", "version": "git+https://evil.example/x.git"}),
        ),
    ] {
        let market = npm_marketplace(source);
        stdout(
            home.agx()
                .args(["registry", "add-source", name])
                .arg(market.path()),
        );
        let err = failure(
            home.agx()
                .args(["install", &format!("weather-tools@{name}")]),
        );
        assert!(err.contains("fix the plugin's npm `source`"), "{err}");
    }
    // Without npm (and node) on PATH, the error says what to install.
    #[cfg(unix)]
    {
        let market = npm_marketplace(serde_json::json!({"source": "npm", "package": "x"}));
        stdout(
            home.agx()
                .args(["registry", "add-source", "nonode"])
                .arg(market.path()),
        );
        let err = failure(
            home.agx()
                .env("PATH", "/nonexistent")
                .args(["install", "weather-tools@nonode"]),
        );
        assert!(err.contains("node is needed to install npm:x"), "{err}");
        assert!(err.contains("install Node.js"), "{err}");
    }
}
