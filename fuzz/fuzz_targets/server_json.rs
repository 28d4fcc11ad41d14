//! MCP registry answers: a page of `GET /v0.1/servers` (`index::mcp_registry::api::parse_page`)
//! or one server's `GET /v0.1/servers/{name}/versions/{version}`
//! (`api::parse_server_answer` then `api::check_answer_matches`), and for every server that
//! parses, the choice of what to install (`ecosystem::registry_entry::choose`) and, for a
//! remote, the package agx would generate (`registry_entry::provision`, which needs no
//! network for remotes).
//!
//! Input: the first byte picks the mode. Even: the rest is a list page. Odd: the rest's first
//! line is the name asked for (`name` or `name@version`), what follows is the answer.
//! Properties: no panic; an answer accepted for a name carries exactly that name (and the
//! version, when one was asked for); a generated package is named after its server.
#![no_main]

use agx_sources::ecosystem::registry_entry::{self, Choice};
use agx_sources::index::mcp_registry::RegistryServer;
use agx_sources::index::mcp_registry::api::{check_answer_matches, parse_page, parse_server_answer};
use libfuzzer_sys::fuzz_target;

const URL: &str = "http://127.0.0.1:9/v0.1/servers";

fn plan(server: RegistryServer) {
    let name = server.server.name.clone();
    let Ok(planned) = registry_entry::choose(server, "http://127.0.0.1:9", None, &|_| true) else {
        return;
    };
    assert_eq!(planned.entry.server.name, name);
    if let Choice::Remote(_) = planned.choice {
        let stage = tempfile::tempdir().expect("a temp folder");
        let options = Default::default();
        if let Ok(provisioned) = registry_entry::provision(&planned, stage.path(), options) {
            let _ = provisioned;
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, body)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        if let Ok(page) = parse_page(body, URL) {
            page.servers.into_iter().flatten().for_each(plan);
        }
        return;
    }
    let split = body.iter().position(|b| *b == b'\n').unwrap_or(body.len());
    let (asked, answer) = body.split_at(split);
    let asked = String::from_utf8_lossy(asked);
    let (name, version) = match asked.split_once('@') {
        Some((name, version)) => (name, Some(version)),
        None => (asked.as_ref(), None),
    };
    let Ok(server) = parse_server_answer(answer, URL) else {
        return;
    };
    if check_answer_matches(&server.server, name, version, URL).is_ok() {
        assert_eq!(server.server.name, name);
        if let Some(version) = version.filter(|v| *v != "latest") {
            assert_eq!(server.server.version, version);
        }
        plan(server);
    }
});
