//! Projects with servers from an MCP registry entry or a Claude-format marketplace's
//! plugin: `agx add` locks the entry by its registry's API URL at the exact version (the
//! plugin by its marketplace and revision), and after `agx gc` removed the version, `sync`
//! provisions it again from there (the bundle fetched, the plugin imported, and checked
//! against the locked sha256).

use serde_json::json;

use crate::ecosystem::{Session, command};
use crate::mcp_registry::{McpServer, Servers, document, documents, listed};
use crate::mcpb::{hello_bundle, sha256_of};
use crate::support::TestHome;
use crate::support::http::HttpServer;

const HELLO: &str = "io.github.acme/hello-bundle";

#[test]
fn a_locked_entry_is_provisioned_again_after_gc() {
    let served = tempfile::tempdir().unwrap();
    std::fs::copy(hello_bundle(), served.path().join("hello.mcpb")).unwrap();
    let bundles = HttpServer::serve(served.path());
    let url = format!("{}/hello.mcpb", bundles.url());
    let mut entry = document("hello-bundle");
    entry["packages"][0]["identifier"] = url.clone().into();
    entry["packages"][0]["fileSha256"] = sha256_of(hello_bundle()).into();
    let mut all = documents();
    all.push(listed(entry, true));
    let registry = McpServer::start(Servers::Documents(all), 100);

    let home = TestHome::new();
    let project = home.home().join("repo");
    std::fs::create_dir_all(&project).unwrap();
    let agx = |dir: &std::path::Path, args: &[&str]| {
        let out = command(&home, crate::support::AGX)
            .env("AGX_HTTP_RETRIES", "0")
            .current_dir(dir)
            .args(["--registry", &registry.url])
            .args(args)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "agx {args:?}:\n{text}");
        text
    };
    agx(&project, &["add", HELLO]);
    agx(&project, &["sync"]);
    let lock = std::fs::read_to_string(project.join("agx.lock")).unwrap();
    let source = format!(
        "source = \"{}/v0.1/servers/io.github.acme%2Fhello-bundle/versions/1.0.0#mcpb\"",
        registry.url
    );
    assert!(lock.contains(&source), "no `{source}` in\n{lock}");

    // Only the project holds the version; with the project gone, gc removes it.
    agx(&project, &["uninstall", HELLO]);
    let version = home
        .agx_home()
        .join("store-v1/io.github.acme/hello-bundle/1.0.0");
    assert!(version.is_dir());
    let kept = home.home().join("kept");
    std::fs::rename(&project, &kept).unwrap();
    agx(home.home(), &["gc"]);
    assert!(!version.exists(), "gc left {}", version.display());

    std::fs::rename(&kept, &project).unwrap();
    agx(&project, &["sync"]);
    assert!(version.is_dir(), "sync did not provision the entry again");
    let mut session = Session::start(&home, HELLO);
    session.initialize();
    let reply = session.request(
        3,
        "tools/call",
        json!({"name": "greet", "arguments": {"name": "agx"}}),
    );
    assert_eq!(
        reply["result"]["content"][0]["text"], "Hello, agx!",
        "{reply}"
    );
}

/// `agx` in `dir` with the test home; its output, and whether it succeeded.
fn agx_in(home: &TestHome, dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = home.agx().current_dir(dir).args(args).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn an_imported_plugin_is_locked_by_marketplace_and_revision_and_provisioned_again() {
    let home = TestHome::new();
    let market = home.home().join("market");
    crate::support::copy_tree(&crate::support::fixtures().join("marketplace"), &market);
    let run = |dir: &std::path::Path, args: &[&str]| {
        let (ok, text) = agx_in(&home, dir, args);
        assert!(ok, "agx {args:?}:\n{text}");
        text
    };
    run(
        home.home(),
        &["registry", "add-source", "acme", market.to_str().unwrap()],
    );
    let project = home.home().join("repo");
    std::fs::create_dir_all(&project).unwrap();
    run(&project, &["add", "weather-tools@acme"]);
    let manifest = std::fs::read_to_string(project.join("agx.toml")).unwrap();
    assert!(
        manifest.contains("server = \"acme/weather-tools\""),
        "{manifest}"
    );
    let receipt: toml::Table = toml::from_str(
        &std::fs::read_to_string(home.agx_home().join("receipts-v1/acme/weather-tools.toml"))
            .unwrap(),
    )
    .unwrap();
    let revision = receipt["source"]["revision"].as_str().unwrap().to_string();
    let lock = std::fs::read_to_string(project.join("agx.lock")).unwrap();
    for line in [
        format!("source = \"plugin:weather-tools@{}\"", market.display()),
        format!("integrity = [\"{revision}\"]"),
    ] {
        assert!(lock.contains(&line), "no `{line}` in\n{lock}");
    }

    // A key naming an installed plugin's server by its package locks it the same way.
    let other = home.home().join("other");
    crate::support::write_file(
        &other.join("agx.toml"),
        "[servers]\nforecast = { server = \"acme/weather-tools/forecast\", version = \"^1\" }\n",
    );
    run(&other, &["lock"]);
    let other_lock = std::fs::read_to_string(other.join("agx.lock")).unwrap();
    assert!(
        other_lock.contains(&format!(
            "source = \"plugin:weather-tools@{}\"",
            market.display()
        )),
        "{other_lock}"
    );
    std::fs::remove_dir_all(&other).unwrap();

    // Only the project holds the version: with the project away, gc removes it.
    let version = home.agx_home().join("store-v1/acme/weather-tools/1.0.0");
    let kept = home.home().join("kept");
    let collect = || {
        std::fs::rename(&project, &kept).unwrap();
        run(home.home(), &["gc"]);
        assert!(!version.exists(), "gc left {}", version.display());
        std::fs::rename(&kept, &project).unwrap();
    };
    // `add` installed it for the user too.
    run(&project, &["uninstall", "acme/weather-tools"]);
    collect();
    run(&project, &["sync"]);
    assert!(version.is_dir(), "sync did not import the plugin again");

    // A marketplace whose plugin changed under the lock is refused, and nothing is
    // installed.
    collect();
    let script = market.join("plugins/weather-tools/server/forecast.py");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("\n# changed after locking\n");
    std::fs::write(&script, text).unwrap();
    let (ok, text) = agx_in(&home, &project, &["sync"]);
    assert!(!ok, "a changed plugin was installed:\n{text}");
    assert!(
        text.contains("acme/weather-tools 1.0.0 from plugin:weather-tools@")
            && text.contains("but the lock records"),
        "{text}"
    );
    assert!(!version.exists());
    assert!(
        !home
            .agx_home()
            .join("receipts-v1/acme/weather-tools.toml")
            .exists()
    );
}

#[test]
fn a_locked_archive_plugin_whose_marketplace_changed_is_refused() {
    let home = TestHome::new();
    let project = home.home().join("repo");
    // Kept in the project, the marketplace is locked by its path there.
    let market = project.join("market");
    let first = crate::marketplace::write_archive_marketplace(&market, None, None);
    let run = |dir: &std::path::Path, args: &[&str]| {
        let (ok, text) = agx_in(&home, dir, args);
        assert!(ok, "agx {args:?}:\n{text}");
        text
    };
    run(
        home.home(),
        &["registry", "add-source", "acme", market.to_str().unwrap()],
    );
    run(&project, &["add", "weather-tools@acme"]);
    let lock = std::fs::read_to_string(project.join("agx.lock")).unwrap();
    for line in [
        "source = \"plugin:weather-tools@./market\"".to_string(),
        format!("integrity = [\"sha256:{first}\"]"),
    ] {
        assert!(lock.contains(&line), "no `{line}` in\n{lock}");
    }
    run(&project, &["uninstall", "acme/weather-tools"]);
    let version = home.agx_home().join("store-v1/acme/weather-tools/1.0.0");
    let kept = home.home().join("kept");
    std::fs::rename(&project, &kept).unwrap();
    run(home.home(), &["gc"]);
    std::fs::rename(&kept, &project).unwrap();
    run(&project, &["sync"]);
    assert!(version.is_dir(), "sync did not import the plugin again");
    let kept = home.home().join("kept");
    std::fs::rename(&project, &kept).unwrap();
    run(home.home(), &["gc"]);
    std::fs::rename(&kept, &project).unwrap();

    // Another archive, with the catalog's sha256 updated to match: the marketplace is
    // consistent, but it is not what the project locked.
    let second = crate::marketplace::write_archive_marketplace(&market, None, Some("changed"));
    assert_ne!(first, second);
    let (ok, text) = agx_in(&home, &project, &["sync"]);
    assert!(!ok, "a changed plugin was installed:\n{text}");
    assert!(text.contains("but the lock records"), "{text}");
    assert!(!version.exists());
}
