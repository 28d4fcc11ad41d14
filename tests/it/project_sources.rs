//! Projects with servers from an MCP registry entry: `agx add` locks the entry by its
//! registry's API URL at the exact version, and after `agx gc` removed the version, `sync`
//! provisions it again from there (the bundle fetched and checked against the locked
//! sha256).

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
