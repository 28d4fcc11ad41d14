#![allow(deprecated)] // MCP sampling (SEP-2577) is deprecated in rmcp but still part of MCP

//! Profiles (docs/profiles.md): `agx serve @NAME` serves many servers as one. A fixture agx
//! package, a small wrapped server written here (it changes its tool list, asks the client
//! to sample, and can end itself) and the real npm server-everything (pinned) are members.

use serde_json::{Value, json};

use crate::ecosystem::{EVERYTHING, EVERYTHING_VERSION, agx, stderr};

/// The pinned real `@modelcontextprotocol/server-memory` (as tests/it/data_folder.rs).
const MEMORY: &str = "@modelcontextprotocol/server-memory";
const MEMORY_VERSION: &str = "2025.11.25";
use crate::support::serve_lines::ServeLines;
use crate::support::{Fixture, TestHome, write_file};

/// A wrapped MCP server in Python: `touch` says its tool list changed, `ask` asks the
/// client for a sampling and returns the answer, `exit` ends the process mid-session.
const FLAKY_SERVER: &str = r#"
import json, os, sys

def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

def text(id, value):
    send({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": value}]}})

tools = [{"name": n, "inputSchema": {"type": "object"}} for n in ("touch", "ask", "exit")]
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "flaky", "version": "1.0.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}})
    elif method == "tools/call":
        name = message["params"]["name"]
        if name == "touch":
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
            text(id, "touched")
        elif name == "ask":
            send({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
                  "params": {"messages": [], "maxTokens": 5}})
            answer = json.loads(sys.stdin.readline())
            text(id, "client said: " + answer["result"]["content"]["text"])
        elif name == "exit":
            os._exit(3)
    elif id is not None:
        send({"jsonrpc": "2.0", "id": id, "result": {}})
"#;

/// Install the wrapped `acme/flaky` package (server `flaky`) into `home`.
fn install_flaky(home: &TestHome) {
    install_wrapped(home, "flaky", FLAKY_SERVER);
}

/// Install a wrapped package `acme/NAME` whose server `NAME` runs `script`.
pub(crate) fn install_wrapped(home: &TestHome, name: &str, script: &str) {
    let dir = home.home().join("src").join(name);
    write_file(
        &dir.join("agx.toml"),
        format!(
            "[package]\nname = \"acme/{name}\"\nversion = \"1.0.0\"\ndescription = \"f\"\n\n[extension]\nservers = [\"{name}\"]\n"
        ),
    );
    write_file(
        &dir.join(format!("agx/servers/{name}.toml")),
        format!("name = \"{name}\"\ncommand = [\"python3\", \"server.py\"]\n"),
    );
    write_file(&dir.join("server.py"), script);
    home.agx().arg("install").arg(&dir).assert().success();
}

fn text_of(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a text result: {answer}"))
}

/// A project whose profile `dev` holds the fixture weather server (filtered) and the
/// wrapped flaky server.
fn dev_project() -> tempfile::TempDir {
    let project = tempfile::tempdir().unwrap();
    write_file(
        &project.path().join("agx.toml"),
        "[servers.weather]\nserver = \"acme/weather/forecast\"\ntools = { deny = [\"alert*\"] }\n\n\
         [servers.flaky]\nserver = \"acme/flaky/flaky\"\n\n\
         [profiles.dev]\nservers = [\"weather\", \"flaky\"]\n",
    );
    project
}

#[test]
fn a_profile_serves_its_servers_as_one_with_prefixed_names_and_filters() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    install_flaky(&home);
    let project = dev_project();
    let mut s = ServeLines::start(&home, "@dev", project.path());
    let init = s.initialize(json!({"sampling": {}}));
    assert_eq!(init["result"]["serverInfo"]["name"], "@dev", "{init}");
    assert_eq!(
        init["result"]["capabilities"]["tools"]["listChanged"], true,
        "{init}"
    );
    assert!(
        init["result"]["capabilities"]["prompts"].is_object(),
        "the union holds the weather server's prompts: {init}"
    );

    let tools = s.names(2, "tools/list", "tools");
    for expected in ["weather__get_forecast", "weather__sunrise", "flaky__touch"] {
        assert!(tools.iter().any(|t| t == expected), "{expected}: {tools:?}");
    }
    // The project's filter of the weather server applies inside the profile.
    assert!(!tools.iter().any(|t| t.contains("alert")), "{tools:?}");
    let refused = s.call(3, "weather__alerts", json!({}));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("denied by `alert*`"), "{message}");
    assert!(message.contains("agx.toml"), "{message}");

    let prompts = s.names(4, "prompts/list", "prompts");
    assert!(
        prompts.iter().all(|p| p.starts_with("weather__")),
        "{prompts:?}"
    );

    // A member's list_changed reaches the client.
    let (touched, before) = s.request(
        5,
        "tools/call",
        json!({"name": "flaky__touch", "arguments": {}}),
    );
    assert_eq!(text_of(&touched), "touched");
    assert!(
        before
            .iter()
            .any(|m| m["method"] == "notifications/tools/list_changed"),
        "{before:?}"
    );

    // A member's own request reaches the client, and the answer reaches the member.
    s.send(json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
                  "params": {"name": "flaky__ask", "arguments": {}}}));
    let asked = loop {
        let m = s.next();
        if m["method"] == "sampling/createMessage" {
            break m;
        }
    };
    s.send(json!({"jsonrpc": "2.0", "id": asked["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "sunny"}, "model": "test"}}));
    let (answer, _) = s.until_response(&json!(6));
    assert_eq!(text_of(&answer), "client said: sunny");

    // A member that ends mid-session: its call is answered with an error naming it, the
    // client is told the tool list changed, and the other member still answers.
    let (ended, _) = s.request(
        7,
        "tools/call",
        json!({"name": "flaky__exit", "arguments": {}}),
    );
    let message = ended["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("server `flaky`"), "{ended}");
    assert!(message.contains("not running"), "{ended}");
    let again = s.call(8, "flaky__touch", json!({}));
    assert!(
        again["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("server `flaky` (acme/flaky/flaky) of profile @dev is not running"),
        "{again}"
    );
    let forecast = s.call(9, "weather__sunrise", json!({"city": "Lisbon"}));
    assert!(forecast.get("result").is_some(), "{forecast}");
    let tools = s.names(10, "tools/list", "tools");
    assert!(!tools.iter().any(|t| t.starts_with("flaky__")), "{tools:?}");
    assert!(tools.iter().any(|t| t == "weather__sunrise"), "{tools:?}");
}

#[test]
fn sync_writes_one_entry_per_profile_and_serve_uses_the_locked_versions() {
    let s = crate::project::Setup::new(
        "[project]\nclients = [\"cursor\"]\n\n[servers]\nweather = { server = \"acme/weather/forecast\", version = \"~1.1\" }\n\n\
         [profiles.team]\nservers = [\"weather\"]\n",
    );
    s.ok(&["sync"]);
    let mcp: Value = serde_json::from_str(&s.read(".cursor/mcp.json")).unwrap();
    let servers = mcp["mcpServers"].as_object().unwrap();
    assert_eq!(servers.len(), 1, "{mcp}");
    assert_eq!(
        servers["team"],
        json!({"command": "agx", "args": ["serve", "@team"]}),
        "{mcp}"
    );
    s.ok(&["sync", "--check"]);
    let text = s.ok(&["sync"]);
    assert!(text.contains("nothing to change"), "{text}");

    // The profile's server is the version agx.lock pins.
    let mut lines = ServeLines::start(&s.home, "@team", &s.project);
    lines.initialize(json!({}));
    let tools = lines.names(2, "tools/list", "tools");
    assert!(
        tools.iter().any(|t| t == "weather__get_forecast"),
        "{tools:?}"
    );
    let text = s.ok(&["tools", "@team", "--tokens"]);
    assert!(text.contains("@team: "), "{text}");
    assert!(
        text.contains("server `weather`: acme/weather/forecast"),
        "{text}"
    );
    assert!(text.contains("weather__get_forecast"), "{text}");
    assert!(text.contains("before the filter"), "{text}");
}

#[test]
fn sync_refuses_a_profile_whose_servers_show_one_name_without_namespacing() {
    // Two keys of one server show the same tools: under `namespace = "none"` one would be
    // unreachable, so sync refuses before writing the lock or any client file.
    let s = crate::project::Setup::new(
        "[project]\nclients = [\"cursor\"]\n\n[servers]\n\
         a = { server = \"acme/weather/forecast\", version = \"~1.1\" }\n\
         b = { server = \"acme/weather/forecast\", version = \"~1.1\" }\n\n\
         [profiles.flat]\nservers = [\"a\", \"b\"]\nnamespace = \"none\"\n",
    );
    let err = s.fails(&["sync"]);
    assert!(
        err.contains("servers `a` and `b` all show a tool `alerts`"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    assert!(
        !s.project.join(".cursor").exists(),
        "no client file written"
    );
    assert!(!s.project.join("agx.lock").exists(), "no lock written");
    // With the keys as prefixes (the default), the same servers sync.
    write_file(
        &s.project.join("agx.toml"),
        s.read("agx.toml").replace("namespace = \"none\"\n", ""),
    );
    s.ok(&["sync"]);
}

#[test]
fn a_bad_profile_is_refused_at_its_place_with_a_hint() {
    let s = crate::project::Setup::new(
        "[servers]\nweather = { server = \"acme/weather/forecast\" }\n\n\
         [profiles.team]\nservers = [\"weather\", \"wether\"]\n",
    );
    for args in [&["sync", "--check"][..], &["validate"], &["serve", "@team"]] {
        let text = s.fails(args);
        assert!(text.contains("agx.toml:5:"), "{args:?}: {text}");
        assert!(
            text.contains("`wether` is not a key of [servers]"),
            "{args:?}: {text}"
        );
        assert!(text.contains("hint:"), "{args:?}: {text}");
    }

    // The user's profiles file: two servers under one key.
    let home = TestHome::new();
    write_file(
        &home.agx_home().join("profiles-v1.toml"),
        "[profiles.dev]\nservers = [\n  \"acme/weather/forecast\",\n  \"acme/other/forecast\",\n]\n",
    );
    let out = home.agx().args(["serve", "@dev"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("profiles-v1.toml:4:3"), "{err}");
    assert!(
        err.contains("two servers under the key `forecast`"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    write_file(
        &home.agx_home().join("profiles-v1.toml"),
        "[profiles.dev]\nservers = [\"acme/weather/forecast\"]\n",
    );
    let out = home.agx().args(["serve", "@nothing"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no profile `nothing`"), "{err}");
}

#[test]
fn install_server_writes_one_entry_for_a_user_profile_and_refuses_clashing_names() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    install_flaky(&home);
    let profiles = home.agx_home().join("profiles-v1.toml");
    write_file(
        &profiles,
        "[profiles.dev]\nservers = [\"acme/weather/forecast\", \"acme/flaky/flaky\"]\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("mcp.json");
    let config_arg = config.display().to_string();
    let out = agx(
        &home,
        &["install-server", "cursor", "@dev", "--config", &config_arg],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mcp: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    let servers = mcp["mcpServers"].as_object().unwrap();
    assert_eq!(servers.len(), 1, "{mcp}");
    assert_eq!(servers["dev"]["args"], json!(["serve", "@dev"]), "{mcp}");

    // A filter belongs to each server, not to the profile.
    let out = agx(
        &home,
        &[
            "install-server",
            "cursor",
            "@dev",
            "--config",
            &config_arg,
            "--deny",
            "x",
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("served as a whole"),
        "{}",
        stderr(&out)
    );

    // Without namespacing, a name two servers show is refused before anything is written.
    write_file(
        &profiles,
        "[profiles.flat]\nservers = [\"acme/weather/forecast\", \"acme/flaky/flaky\"]\nnamespace = \"none\"\n\n\
         [profiles.clash]\nservers = [\"acme/clashy/clashy\", \"acme/weather/forecast\"]\nnamespace = \"none\"\n",
    );
    let out = agx(
        &home,
        &["install-server", "cursor", "@flat", "--config", &config_arg],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut s = ServeLines::start(&home, "@flat", dir.path());
    s.initialize(json!({}));
    let tools = s.names(2, "tools/list", "tools");
    assert!(tools.iter().any(|t| t == "touch"), "{tools:?}");
    assert!(tools.iter().any(|t| t == "get_forecast"), "{tools:?}");
    assert_eq!(text_of(&s.call(3, "touch", json!({}))), "touched");
    drop(s);
    let before = std::fs::read(&config).unwrap();
    let clashing = FLAKY_SERVER.replace("(\"touch\", \"ask\", \"exit\")", "(\"get_forecast\",)");
    install_wrapped(&home, "clashy", &clashing);
    let out = agx(
        &home,
        &[
            "install-server",
            "cursor",
            "@clash",
            "--config",
            &config_arg,
        ],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("servers `clashy` and `forecast` all show a tool `get_forecast`"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    assert_eq!(std::fs::read(&config).unwrap(), before);
}

/// The real npm server-everything (pinned) beside the fixture agx server in one profile:
/// prefixed names, its project filter, progress, cancellation and sampling pass through.
#[test]
fn a_profile_of_the_real_npm_server_everything_and_an_agx_server() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    for spec in [
        format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}"),
        format!("npm:{MEMORY}@{MEMORY_VERSION}"),
    ] {
        let out = agx(&home, &["install", &spec]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let project = tempfile::tempdir().unwrap();
    write_file(
        &project.path().join("agx.toml"),
        format!(
            "[servers.everything]\nserver = \"npm/{EVERYTHING}/mcp-server-everything\"\ntools = {{ deny = [\"add\"] }}\n\n\
             [servers.memory]\nserver = \"npm/{MEMORY}/mcp-server-memory\"\n\n\
             [servers.weather]\nserver = \"acme/weather/forecast\"\n\n\
             [profiles.mix]\nservers = [\"everything\", \"memory\", \"weather\"]\n"
        ),
    );
    let mut s = ServeLines::start(&home, "@mix", project.path());
    let init = s.initialize(json!({"sampling": {}}));
    assert_eq!(
        init["result"]["capabilities"]["resources"]["subscribe"], true,
        "{init}"
    );
    let tools = s.names(2, "tools/list", "tools");
    for expected in [
        "everything__echo",
        "everything__longRunningOperation",
        "weather__get_forecast",
    ] {
        assert!(tools.iter().any(|t| t == expected), "{expected}: {tools:?}");
    }
    assert!(!tools.iter().any(|t| t == "everything__add"), "{tools:?}");
    let refused = s.call(3, "everything__add", json!({"a": 1, "b": 2}));
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("denied by `add`"),
        "{refused}"
    );
    let echo = s.call(4, "everything__echo", json!({"message": "one endpoint"}));
    assert_eq!(text_of(&echo), "Echo: one endpoint");
    // A second real wrapped server behind the same endpoint keeps what it is given.
    let created = s.call(
        40,
        "memory__create_entities",
        json!({"entities": [{"name": "agx", "entityType": "tool", "observations": ["one endpoint"]}]}),
    );
    assert!(created["result"].is_object(), "{created}");
    let graph = s.call(41, "memory__read_graph", json!({}));
    assert!(graph.to_string().contains("one endpoint"), "{graph}");

    s.check_progress_cancellation_and_sampling("everything__", 5);

    // Resources keep their URIs and are read from the server that lists them.
    let (resources, _) = s.request(9, "resources/list", json!({}));
    let uri = resources["result"]["resources"][0]["uri"]
        .as_str()
        .unwrap()
        .to_string();
    let (read, _) = s.request(10, "resources/read", json!({"uri": uri}));
    assert_eq!(read["result"]["contents"][0]["uri"], uri.as_str(), "{read}");
    let templates = s.names(11, "resources/templates/list", "resourceTemplates");
    assert!(
        templates.iter().all(|t| t.starts_with("everything__")),
        "{templates:?}"
    );
}

/// A client that answers sampling requests with a fixed text.
#[derive(Clone)]
struct Sampler;

impl rmcp::ClientHandler for Sampler {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        rmcp::model::ClientConfig::new(
            rmcp::model::ClientCapabilities::builder()
                .enable_sampling()
                .build(),
            rmcp::model::Implementation::new("profile-test", "1"),
        )
    }

    async fn create_message(
        &self,
        _params: rmcp::model::CreateMessageRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::CreateMessageResult, rmcp::model::ErrorData> {
        Ok(rmcp::model::CreateMessageResult::new(
            rmcp::model::SamplingMessage::assistant_text("over http"),
            "profile-test".into(),
        ))
    }
}

/// `agx serve --http @NAME`: the profile over Streamable HTTP, a member's sampling request
/// reaching the HTTP client and its answer the member.
#[tokio::test(flavor = "multi_thread")]
async fn a_profile_is_served_over_http() {
    use rmcp::ServiceExt;
    let home = TestHome::new();
    home.agx()
        .arg("install")
        .arg(crate::support::fixtures().join("packages/agx-conformance"))
        .assert()
        .success();
    install_flaky(&home);
    write_file(
        &home.agx_home().join("profiles-v1.toml"),
        "[profiles.web]\nservers = [\"agx/conformance/everything\", \"acme/flaky/flaky\"]\n",
    );
    let (_serving, host) = crate::bridge::over_http(&home, "@web").await;
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport =
        rmcp::transport::StreamableHttpClientTransport::from_uri(format!("http://{host}/mcp"));
    let client = Sampler.serve(transport).await.expect("initialize");
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("@web")
    );
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(names.contains(&"everything__test_simple_text"), "{names:?}");
    assert!(names.contains(&"flaky__ask"), "{names:?}");
    let asked = client
        .call_tool(rmcp::model::CallToolRequestParams::new("flaky__ask"))
        .await
        .unwrap();
    let text = serde_json::to_value(&asked).unwrap();
    assert_eq!(
        text["content"][0]["text"], "client said: over http",
        "{text}"
    );
    client.cancel().await.unwrap();
}

/// A wrapped server that answers `initialize` and then nothing, or (`mute_at = "initialize"`)
/// nothing at all.
fn mute_server(mute_at: &str) -> String {
    format!(
        r#"
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "{mute_at}" or "{mute_at}" == "initialize":
        continue
    if message.get("method") == "initialize":
        sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": message["id"], "result": {{
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {{"tools": {{}}}},
            "serverInfo": {{"name": "mute", "version": "1.0.0"}}}}}}) + "\n")
        sys.stdout.flush()
"#
    )
}

#[test]
fn a_member_that_never_answers_is_timed_out_and_the_others_are_served() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    install_wrapped(&home, "silent", &mute_server("initialize"));
    install_wrapped(&home, "listless", &mute_server("tools/list"));
    for namespace in ["key", "none"] {
        let project = tempfile::tempdir().unwrap();
        write_file(
            &project.path().join("agx.toml"),
            format!(
                "[servers.weather]\nserver = \"acme/weather/forecast\"\n\n\
                 [servers.silent]\nserver = \"acme/silent/silent\"\n\n\
                 [servers.listless]\nserver = \"acme/listless/listless\"\n\n\
                 [profiles.dev]\nservers = [\"silent\", \"weather\", \"listless\"]\n\
                 namespace = \"{namespace}\"\ntimeout = 1\n"
            ),
        );
        let mut s = ServeLines::start(&home, "@dev", project.path());
        // Before: the profile waited for `silent`'s `initialize` forever.
        let init = s.initialize(json!({}));
        assert_eq!(init["result"]["serverInfo"]["name"], "@dev", "{init}");

        // Before: `tools/list` waited for `listless` forever.
        let tools = s.names(2, "tools/list", "tools");
        let forecast = if namespace == "key" {
            "weather__get_forecast"
        } else {
            "get_forecast"
        };
        assert!(tools.iter().any(|t| t == forecast), "{tools:?}");
        let answer = s.call(3, forecast, json!({"city": "Lisbon"}));
        assert!(answer.get("result").is_some(), "{namespace}: {answer}");

        let silent = s.call(4, "silent__anything", json!({}));
        let message = silent["error"]["message"].as_str().unwrap_or_default();
        if namespace == "key" {
            assert!(
                message.contains("did not answer `initialize` within 1 s"),
                "{silent}"
            );
        }
        let listless = s.call(5, "listless__anything", json!({}));
        let message = listless["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("`listless`") && message.contains("`tools/list` within 1 s")
                || message.contains("server `listless` did not answer `tools/list` in time"),
            "{namespace}: {listless}"
        );
    }
}

#[test]
fn a_call_sent_as_a_notification_reaches_no_member_of_a_profile() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    install_flaky(&home);
    // `agx info` of a wrapped server says what it runs.
    let info = home
        .agx()
        .args(["info", "acme/flaky/flaky"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("runs: python3 server.py"), "{text}");
    let project = tempfile::tempdir().unwrap();
    write_file(
        &project.path().join("agx.toml"),
        "[servers.weather]\nserver = \"acme/weather/forecast\"\n\n\
         [servers.flaky]\nserver = \"acme/flaky/flaky\"\n\n\
         [profiles.dev]\nservers = [\"weather\", \"flaky\"]\nnamespace = \"none\"\n",
    );
    let mut s = ServeLines::start(&home, "@dev", project.path());
    s.initialize(json!({}));
    let tools = s.names(2, "tools/list", "tools");
    assert!(tools.iter().any(|t| t == "touch"), "{tools:?}");
    // Before: forwarded to every member as it was, so `flaky` ran `exit`.
    s.send(json!({"jsonrpc": "2.0", "method": "tools/call",
                  "params": {"name": "exit", "arguments": {}}}));
    let touched = s.call(3, "touch", json!({}));
    assert_eq!(text_of(&touched), "touched", "{touched}");
}

/// The names of a list answer's items.
fn listed_names(answer: &Value, array: &str) -> Vec<String> {
    answer["result"][array]
        .as_array()
        .unwrap_or_else(|| panic!("a list: {answer}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_profile_answers_a_2026_07_28_client_without_initialize() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    install_flaky(&home);
    let project = dev_project();

    // The first request is a stateless list: before, it was answered with no tools.
    let mut s = ServeLines::start(&home, "@dev", project.path());
    let (list, _) = s.modern_request(1, "tools/list", json!({}));
    let tools = listed_names(&list, "tools");
    for expected in ["weather__sunrise", "flaky__touch"] {
        assert!(tools.iter().any(|t| t == expected), "{expected}: {list}");
    }
    assert!(!tools.iter().any(|t| t.contains("alert")), "{tools:?}");
    assert_eq!(list["result"]["resultType"], "complete", "{list}");
    assert_eq!(list["result"]["ttlMs"], 0, "{list}");
    assert_eq!(list["result"]["cacheScope"], "private", "{list}");

    let (discovered, _) = s.modern_request(2, "server/discover", json!({}));
    let result = &discovered["result"];
    assert_eq!(result["resultType"], "complete", "{discovered}");
    let versions = result["supportedVersions"].as_array().unwrap();
    for version in ["2025-11-25", "2026-07-28"] {
        assert!(versions.contains(&json!(version)), "{discovered}");
    }
    assert!(result["capabilities"]["tools"].is_object(), "{discovered}");
    assert!(
        result["capabilities"]["prompts"].is_object(),
        "{discovered}"
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "@dev",
        "{discovered}"
    );

    let (forecast, _) = s.modern_request(
        3,
        "tools/call",
        json!({"name": "weather__sunrise", "arguments": {"city": "Lisbon"}}),
    );
    assert_eq!(forecast["result"]["resultType"], "complete", "{forecast}");
    let (refused, _) = s.modern_request(4, "tools/call", json!({"name": "weather__alerts"}));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    // A modern client hears of a member's change only on a `subscriptions/listen` stream,
    // which agx acknowledges and tags with the stream's id.
    s.send(
        json!({"jsonrpc": "2.0", "id": 50, "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
        "notifications": {"toolsListChanged": true, "promptsListChanged": true}}}),
    );
    let ack = s.next();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 50,
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"]["toolsListChanged"], true,
        "{ack}"
    );
    let (touched, mut heard) = s.modern_request(
        5,
        "tools/call",
        json!({"name": "flaky__touch", "arguments": {}}),
    );
    assert_eq!(text_of(&touched), "touched");
    if heard.is_empty() {
        heard.push(s.next());
    }
    let [changed] = <[Value; 1]>::try_from(heard).unwrap();
    assert_eq!(
        changed["method"], "notifications/tools/list_changed",
        "{changed}"
    );
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 50,
        "{changed}"
    );
    // Cancelled, the stream hears no more.
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": 50}}),
    );
    let (touched, heard) = s.modern_request(
        51,
        "tools/call",
        json!({"name": "flaky__touch", "arguments": {}}),
    );
    assert_eq!(text_of(&touched), "touched");
    assert!(heard.is_empty(), "{heard:?}");
    let (prompts, _) = s.modern_request(6, "prompts/list", json!({}));
    assert!(!listed_names(&prompts, "prompts").is_empty(), "{prompts}");
    assert_eq!(prompts["result"]["resultType"], "complete", "{prompts}");

    // A member's sampling request reaches the modern client as `input_required`; the
    // retry brings the answer to the member, and the call's result is the retry's.
    let ask = json!({"name": "flaky__ask", "arguments": {}});
    let (asked, _) = s.modern_request(7, "tools/call", ask.clone());
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    assert_eq!(
        result["inputRequests"]["input"]["method"], "sampling/createMessage",
        "{asked}"
    );
    let mut retry = ask;
    retry["requestState"] = result["requestState"].clone();
    retry["inputResponses"] = json!({"input": {
        "role": "assistant", "content": {"type": "text", "text": "sunny"}, "model": "test"}});
    let (answer, _) = s.modern_request(8, "tools/call", retry);
    assert_eq!(text_of(&answer), "client said: sunny");
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");

    // A legacy client of the same profile sees the results as before.
    let mut legacy = ServeLines::start(&home, "@dev", project.path());
    let init = legacy.initialize(json!({}));
    assert!(init["result"].get("resultType").is_none(), "{init}");
    let (list, _) = legacy.request(2, "tools/list", json!({}));
    assert!(listed_names(&list, "tools").contains(&"flaky__touch".to_string()));
    for field in ["resultType", "ttlMs", "cacheScope"] {
        assert!(list["result"].get(field).is_none(), "{field}: {list}");
    }
    let touched = legacy.call(3, "flaky__touch", json!({}));
    assert!(touched["result"].get("resultType").is_none(), "{touched}");
}

/// A request of an MCP 2026-07-28 client over Streamable HTTP: no session, the version,
/// capabilities (sampling) and name in `_meta`, the method (and tool) in headers; the answer
/// from the response's SSE event or JSON body.
fn post_modern(url: &str, id: u64, method: &str, mut params: Value) -> Value {
    let _ = rustls::crypto::ring::default_provider().install_default();
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "agx-test-modern", "version": "1"},
    });
    let mut request = reqwest::blocking::Client::new()
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method);
    if let Some(name) = params["name"].as_str() {
        request = request.header("Mcp-Name", name);
    }
    let body = request
        .body(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())
        .send()
        .unwrap()
        .text()
        .unwrap();
    let json = body
        .lines()
        .find_map(|line| line.strip_prefix("data: ").filter(|d| !d.trim().is_empty()))
        .unwrap_or(&body);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[test]
fn a_profile_over_http_answers_2026_07_28_clients_without_a_session() {
    use std::io::BufRead;
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    install_flaky(&home);
    let project = dev_project();
    /// Killed however the test ends.
    struct Serving(std::process::Child);
    impl Drop for Serving {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut serve = Serving(
        home.command(crate::support::AGX)
            .args(["serve", "@dev", "--http", "127.0.0.1:0"])
            .current_dir(project.path())
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = std::io::BufReader::new(serve.0.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("a listening line").unwrap();
        if let Some(url) = line.strip_prefix("agx serve: listening on ") {
            break url.to_string();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));

    // Discovery is the profile's, not the HTTP layer's.
    let discovered = post_modern(&url, 1, "server/discover", json!({}));
    let result = &discovered["result"];
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "@dev",
        "{discovered}"
    );
    assert!(result["capabilities"]["tools"].is_object(), "{discovered}");
    let list = post_modern(&url, 2, "tools/list", json!({}));
    let tools = listed_names(&list, "tools");
    assert!(tools.contains(&"weather__sunrise".to_string()), "{list}");
    assert!(!tools.iter().any(|t| t.contains("alert")), "{tools:?}");

    // Each request is served alone, yet the retry of a call suspended for input reaches
    // the process that holds it.
    let ask = json!({"name": "flaky__ask", "arguments": {}});
    let asked = post_modern(&url, 3, "tools/call", ask.clone());
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    let mut retry = ask;
    retry["requestState"] = asked["result"]["requestState"].clone();
    retry["inputResponses"] = json!({"input": {
        "role": "assistant", "content": {"type": "text", "text": "sunny"}, "model": "test"}});
    let answer = post_modern(&url, 4, "tools/call", retry);
    assert_eq!(text_of(&answer), "client said: sunny", "{answer}");

    // A stream over HTTP: the acknowledgment, then a member's change, tagged with the
    // listen request's id, on the response's event stream.
    let events = listen_over_http(&url, 60, json!({"toolsListChanged": true}));
    let ack = events
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("an acknowledgment");
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true}),
        "{ack}"
    );
    let touched = post_modern(
        &url,
        5,
        "tools/call",
        json!({"name": "flaky__touch", "arguments": {}}),
    );
    assert_eq!(text_of(&touched), "touched", "{touched}");
    let changed = events
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a change");
    assert_eq!(
        changed["method"], "notifications/tools/list_changed",
        "{changed}"
    );
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 60,
        "{changed}"
    );
}

/// A `subscriptions/listen` POSTed by a 2026-07-28 client: the messages of its event stream,
/// as they come.
fn listen_over_http(url: &str, id: u64, notifications: Value) -> std::sync::mpsc::Receiver<Value> {
    use std::io::BufRead;
    let _ = rustls::crypto::ring::default_provider().install_default();
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {},
                  "io.modelcontextprotocol/clientInfo": {"name": "agx-test-modern", "version": "1"}},
        "notifications": notifications}});
    let response = reqwest::blocking::Client::builder()
        .timeout(None)
        .build()
        .unwrap()
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "subscriptions/listen")
        .body(body.to_string())
        .send()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(response)
            .lines()
            .map_while(Result::ok)
        {
            if let Some(data) = line.strip_prefix("data: ").filter(|d| !d.trim().is_empty())
                && let Ok(message) = serde_json::from_str::<Value>(data)
                && tx.send(message).is_err()
            {
                return;
            }
        }
    });
    rx
}

/// `agx doctor` checks the entries that serve a profile (they have no record): one whose
/// member's package is gone, and one whose profile is gone, are problems naming the entry.
#[test]
fn doctor_checks_the_entries_that_serve_a_profile() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    install_flaky(&home);
    let profiles = home.agx_home().join("profiles-v1.toml");
    write_file(
        &profiles,
        "[profiles.dev]\nservers = [\"acme/weather/forecast\", \"acme/flaky/flaky\"]\n",
    );
    let out = agx(&home, &["install-server", "cursor", "@dev"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = agx(&home, &["doctor"]);
    assert!(out.status.success(), "{}", stderr(&out));

    let out = agx(&home, &["uninstall", "acme/flaky"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = agx(&home, &["doctor", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let finding = &report["findings"][0];
    assert_eq!(finding["problem"], "profile-member-broken", "{report:#}");
    assert_eq!(finding["client"], "cursor", "{report:#}");
    assert_eq!(finding["server"], "@dev", "{report:#}");
    assert!(
        finding["detail"]
            .as_str()
            .unwrap()
            .contains("acme/flaky/flaky"),
        "{report:#}"
    );

    std::fs::remove_file(&profiles).unwrap();
    let out = agx(&home, &["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("no profile `dev`") && text.contains("agx uninstall-server cursor dev"),
        "{text}"
    );
}
