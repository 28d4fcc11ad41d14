//! Servers that speak only MCP 2026-07-28 behind `agx serve`: a legacy client (one that
//! opens a session with `initialize`) is served by agx standing in for the session, alone
//! and through a profile; a modern client of the profile reaches them too.

use serde_json::{Value, json};

use crate::support::serve_lines::ServeLines;
use crate::support::{TestHome, write_file};

/// A server of the modern era only, as the revision has it: `initialize` is refused with
/// `UnsupportedProtocolVersionError` naming 2026-07-28 alone, and so is any request without
/// the version in its `_meta`; `ping` is gone. Tools: `echo`; `ask`, which needs a sampling
/// answer (`input_required`, then the retry); `grow`, which adds a tool and tells the
/// streams that asked for tool changes.
const MODERN_ONLY_SERVER: &str = r#"
import json, sys

VERSION = "2026-07-28"
tools = ["echo", "ask", "grow"]
streams = {}

def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

def answer(id, result):
    result["resultType"] = result.get("resultType", "complete")
    send({"jsonrpc": "2.0", "id": id, "result": result})

def refuse(id, code, message, data=None):
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    send({"jsonrpc": "2.0", "id": id, "error": error})

def text(id, words):
    answer(id, {"content": [{"type": "text", "text": words}]})

for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    params = message.get("params") or {}
    meta = params.get("_meta") or {}
    if id is None:
        if method == "notifications/cancelled":
            streams.pop(json.dumps(params.get("requestId")), None)
        continue
    if method == "initialize" or meta.get("io.modelcontextprotocol/protocolVersion") != VERSION:
        refuse(id, -32022, "Unsupported protocol version",
               {"supported": [VERSION], "requested": params.get("protocolVersion")})
    elif method == "server/discover":
        answer(id, {"supportedVersions": [VERSION],
                    "capabilities": {"tools": {"listChanged": True}},
                    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-only", "version": "1.0.0"}},
                    "ttlMs": 0, "cacheScope": "private"})
    elif method == "subscriptions/listen":
        wanted = params.get("notifications", {})
        streams[json.dumps(id)] = (id, wanted)
        send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
              "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": id},
                         "notifications": {"toolsListChanged": True} if wanted.get("toolsListChanged") else {}}})
    elif method == "tools/list":
        answer(id, {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in tools], "ttlMs": 0})
    elif method == "tools/call":
        name = params.get("name")
        if name == "echo":
            text(id, "echo " + json.dumps(params.get("arguments", {}), sort_keys=True))
        elif name == "ask":
            sampled = (params.get("inputResponses") or {}).get("llm")
            if sampled is None:
                caps = meta.get("io.modelcontextprotocol/clientCapabilities", {})
                if "sampling" not in caps:
                    refuse(id, -32602, "the client declared no sampling")
                    continue
                answer(id, {"resultType": "input_required", "requestState": "asked-once",
                            "inputRequests": {"llm": {"method": "sampling/createMessage",
                                "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "6*7?"}}],
                                           "maxTokens": 5}}}})
            elif params.get("requestState") != "asked-once":
                refuse(id, -32602, "the retry lost its requestState")
            else:
                text(id, "sampled: " + sampled["content"]["text"])
        elif name == "grow":
            tools.append("grown")
            text(id, "grew")
            for stream, wanted in streams.values():
                if wanted.get("toolsListChanged"):
                    send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                          "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": stream}}})
        else:
            refuse(id, -32602, "no tool " + str(name))
    else:
        refuse(id, -32601, "Method not found")
"#;

fn modern_only_home() -> TestHome {
    let home = TestHome::new();
    crate::profile::install_wrapped(&home, "modern", MODERN_ONLY_SERVER);
    home
}

fn names(list: &Value) -> Vec<String> {
    list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("a tool list: {list}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Answer the sampling request agx sends mid-call (as a legacy server would), returning it.
fn answer_sampling(s: &mut ServeLines) -> Value {
    let request = s.next();
    assert_eq!(request["method"], "sampling/createMessage", "{request}");
    s.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "42"}, "model": "test"}}));
    request
}

#[test]
fn a_legacy_client_is_served_by_a_wrapped_server_that_speaks_only_2026_07_28() {
    let home = modern_only_home();
    let cwd = tempfile::tempdir().unwrap();
    let mut s = ServeLines::start(&home, "acme/modern/modern", cwd.path());
    let init = s.initialize(json!({"sampling": {}}));
    assert_eq!(
        init["result"]["serverInfo"]["name"], "modern-only",
        "{init}"
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    assert_eq!(
        init["result"]["capabilities"]["tools"]["listChanged"], true,
        "{init}"
    );

    let (ping, _) = s.request(2, "ping", json!({}));
    assert_eq!(ping["result"], json!({}), "{ping}");
    let (list, _) = s.request(3, "tools/list", json!({}));
    assert_eq!(names(&list), ["echo", "ask", "grow"], "{list}");
    assert!(list["result"].get("resultType").is_none(), "{list}");
    assert!(list["result"].get("ttlMs").is_none(), "{list}");

    let (echoed, _) = s.request(
        4,
        "tools/call",
        json!({"name": "echo", "arguments": {"a": 1}}),
    );
    assert_eq!(
        echoed["result"],
        json!({"content": [{"type": "text", "text": "echo {\"a\": 1}"}]}),
        "{echoed}"
    );

    // The server's input request reaches the client mid-call, and the retry answers the call.
    s.send(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                  "params": {"name": "ask", "arguments": {}}}));
    let asked = answer_sampling(&mut s);
    assert_eq!(asked["params"]["maxTokens"], 5, "{asked}");
    let (sampled, _) = s.until_response(&json!(5));
    assert_eq!(
        sampled["result"]["content"][0]["text"], "sampled: 42",
        "{sampled}"
    );

    // A change on the server reaches the client as the legacy notification.
    let (grew, before) = s.request(6, "tools/call", json!({"name": "grow"}));
    assert_eq!(grew["result"]["content"][0]["text"], "grew", "{grew}");
    let changed = match before
        .into_iter()
        .find(|m| m["method"] == "notifications/tools/list_changed")
    {
        Some(changed) => changed,
        None => s.next(),
    };
    assert_eq!(
        changed["method"], "notifications/tools/list_changed",
        "{changed}"
    );
    assert!(changed["params"].get("_meta").is_none(), "{changed}");
}

#[test]
fn a_profile_serves_a_member_that_speaks_only_2026_07_28_to_clients_of_both_eras() {
    let home = modern_only_home();
    let project = tempfile::tempdir().unwrap();
    write_file(
        &project.path().join("agx.toml"),
        "[servers.modern]\nserver = \"acme/modern/modern\"\n\n[profiles.dev]\nservers = [\"modern\"]\n",
    );

    let mut legacy = ServeLines::start(&home, "@dev", project.path());
    legacy.initialize(json!({"sampling": {}}));
    let (list, _) = legacy.request(2, "tools/list", json!({}));
    assert_eq!(
        names(&list),
        ["modern__echo", "modern__ask", "modern__grow"],
        "{list}"
    );
    legacy.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                       "params": {"name": "modern__ask", "arguments": {}}}));
    answer_sampling(&mut legacy);
    let (sampled, _) = legacy.until_response(&json!(3));
    assert_eq!(
        sampled["result"]["content"][0]["text"], "sampled: 42",
        "{sampled}"
    );

    // A modern client of the profile: two translations, one each way.
    let mut modern = ServeLines::start(&home, "@dev", project.path());
    let (list, _) = modern.modern_request(1, "tools/list", json!({}));
    assert_eq!(
        names(&list),
        ["modern__echo", "modern__ask", "modern__grow"],
        "{list}"
    );
    assert_eq!(list["result"]["resultType"], "complete", "{list}");
    let (asked, _) = modern.modern_request(
        2,
        "tools/call",
        json!({"name": "modern__ask", "arguments": {}}),
    );
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    let (key, request) = result["inputRequests"]
        .as_object()
        .and_then(|r| r.iter().next())
        .unwrap_or_else(|| panic!("an input request: {asked}"));
    assert_eq!(request["method"], "sampling/createMessage", "{asked}");
    let (retried, _) = modern.modern_request(
        3,
        "tools/call",
        json!({"name": "modern__ask", "arguments": {},
               "requestState": result["requestState"],
               "inputResponses": {key.as_str(): {"role": "assistant",
                   "content": {"type": "text", "text": "42"}, "model": "test"}}}),
    );
    assert_eq!(
        retried["result"]["content"][0]["text"], "sampled: 42",
        "{retried}"
    );
    assert_eq!(retried["result"]["resultType"], "complete", "{retried}");
}

/// A remote at `host` (an `agx serve --http` of the conformance package), installed as
/// `acme/conformance-remote`.
fn install_remote(home: &TestHome, host: &str) {
    let dir = home.home().join("src/remote");
    write_file(
        &dir.join("agx.toml"),
        "[package]\nname = \"acme/conformance-remote\"\nversion = \"1.0.0\"\ndescription = \"r\"\n\n[extension]\nservers = [\"remote\"]\n",
    );
    write_file(
        &dir.join("agx/servers/remote.toml"),
        format!("name = \"remote\"\nurl = \"http://{host}/mcp\"\n"),
    );
    home.agx().arg("install").arg(&dir).assert().success();
}

/// A 2026-07-28 client's sampling call of the conformance package's `test_sampling`
/// (which asks through the tool channel): answered `input_required`, then completed by the
/// retry carrying the model's answer.
fn sample_through_rounds(s: &mut ServeLines, first_id: u64) {
    let (asked, _) = s.modern_request(
        first_id,
        "tools/call",
        json!({"name": "test_sampling", "arguments": {"prompt": "What is the capital?"}}),
    );
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    let request = &result["inputRequests"]["input"];
    assert_eq!(request["method"], "sampling/createMessage", "{asked}");
    let state = result["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("a state: {asked}"));
    assert!(state.len() > 32, "an unguessable state: {state}");
    let retry = |input: Value| {
        json!({"name": "test_sampling", "arguments": {"prompt": "What is the capital?"},
               "requestState": state, "inputResponses": input})
    };
    // Without the input the same request is asked again.
    let (again, _) = s.modern_request(first_id + 1, "tools/call", retry(json!({})));
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert_eq!(
        again["result"]["inputRequests"]["input"], *request,
        "{again}"
    );
    let (done, _) = s.modern_request(
        first_id + 2,
        "tools/call",
        retry(json!({"input": {"role": "assistant",
            "content": {"type": "text", "text": "Paris"}, "model": "test"}})),
    );
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(
        done["result"]["content"][0]["text"], "LLM response: Paris",
        "{done}"
    );
    // The state was used up.
    let (spent, _) = s.modern_request(first_id + 3, "tools/call", retry(json!({"input": {}})));
    assert_eq!(spent["error"]["code"], -32602, "{spent}");
}

fn conformance_home() -> TestHome {
    let home = TestHome::new();
    home.agx()
        .arg("install")
        .arg(crate::support::fixtures().join("packages/agx-conformance"))
        .assert()
        .success();
    home
}

#[test]
fn a_tool_asking_through_its_channel_completes_for_a_2026_07_28_client_through_a_retry() {
    let home = conformance_home();
    let cwd = tempfile::tempdir().unwrap();
    let mut s = ServeLines::start(&home, "agx/conformance/everything", cwd.path());
    sample_through_rounds(&mut s, 1);
    // Two waiting calls at once, each resumed by its own state.
    let ask = |id| {
        (
            id,
            json!({"name": "test_elicitation", "arguments": {"message": "Who?"}}),
        )
    };
    let (first_id, params) = ask(10);
    let (first, _) = s.modern_request(first_id, "tools/call", params.clone());
    let (second, _) = s.modern_request(11, "tools/call", params.clone());
    let states: Vec<&str> = [&first, &second]
        .iter()
        .map(|a| {
            a["result"]["requestState"]
                .as_str()
                .unwrap_or_else(|| panic!("{a}"))
        })
        .collect();
    assert_ne!(states[0], states[1]);
    for (id, state) in [(12, states[1]), (13, states[0])] {
        let mut retry = params.clone();
        retry["requestState"] = json!(state);
        retry["inputResponses"] = json!({"input": {"action": "accept",
            "content": {"name": format!("n{id}"), "email": "a@b.c"}}});
        let (done, _) = s.modern_request(id, "tools/call", retry);
        let text = done["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{done}"));
        assert!(text.contains(&format!("n{id}")), "{done}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_2026_07_28_client_of_a_remote_samples_through_a_retry() {
    let home = conformance_home();
    let (_remote, host) = crate::bridge::over_http(&home, "agx/conformance/everything").await;
    install_remote(&home, &host);
    let cwd = tempfile::tempdir().unwrap();
    let mut s = ServeLines::start(&home, "acme/conformance-remote", cwd.path());
    let (discovered, _) = s.modern_request(1, "server/discover", json!({}));
    assert_eq!(
        discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "agx/conformance/everything",
        "{discovered}"
    );
    sample_through_rounds(&mut s, 2);
}

/// A remote of the legacy era only, as the TypeScript SDK's servers answer: `initialize`
/// opens a session (`Mcp-Session-Id`); any other request without one is a 400 whose body
/// is a JSON-RPC error. It prints its port, then serves until killed.
const LEGACY_HTTP_SERVER: &str = r#"
import json, sys, uuid
from http.server import BaseHTTPRequestHandler, HTTPServer

sessions = set()

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=None, headers=()):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        self.send_header("content-type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.reply(405)

    def do_DELETE(self):
        self.reply(200)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        method, id = body.get("method"), body.get("id")
        if method == "initialize":
            session = str(uuid.uuid4())
            sessions.add(session)
            return self.reply(200, {"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": body["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "legacy-http", "version": "1.0.0"}}},
                [("mcp-session-id", session)])
        if self.headers.get("mcp-session-id") not in sessions:
            return self.reply(400, {"jsonrpc": "2.0", "id": None, "error": {
                "code": -32000, "message": "Bad Request: No valid session ID provided"}})
        if id is None:
            return self.reply(202)
        if method == "tools/list":
            return self.reply(200, {"jsonrpc": "2.0", "id": id, "result": {
                "tools": [{"name": "hello", "inputSchema": {"type": "object"}}]}})
        if method == "tools/call":
            return self.reply(200, {"jsonrpc": "2.0", "id": id, "result": {
                "content": [{"type": "text", "text": "hello from " + body["params"]["name"]}]}})
        self.reply(200, {"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}})

server = HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;

/// Kills the server it holds when dropped.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_2026_07_28_client_of_a_legacy_remote_is_translated_by_the_bridge() {
    use std::io::BufRead;
    let home = TestHome::new();
    let script = home.home().join("legacy_http.py");
    write_file(&script, LEGACY_HTTP_SERVER);
    let mut child = std::process::Command::new("python3")
        .arg(&script)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut port = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut port)
        .unwrap();
    let _server = Killed(child);
    install_remote(&home, &format!("127.0.0.1:{}", port.trim()));

    let cwd = tempfile::tempdir().unwrap();
    let mut s = ServeLines::start(&home, "acme/conformance-remote", cwd.path());
    let (list, _) = s.modern_request(1, "tools/list", json!({}));
    assert_eq!(names(&list), ["hello"], "{list}");
    assert_eq!(list["result"]["resultType"], "complete", "{list}");
    let (discovered, _) = s.modern_request(2, "server/discover", json!({}));
    assert_eq!(
        discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "legacy-http",
        "{discovered}"
    );
    let (called, _) = s.modern_request(3, "tools/call", json!({"name": "hello"}));
    assert_eq!(
        called["result"]["content"][0]["text"], "hello from hello",
        "{called}"
    );
    assert_eq!(called["result"]["resultType"], "complete", "{called}");

    // A legacy client of the same remote passes as it always did.
    let mut legacy = ServeLines::start(&home, "acme/conformance-remote", cwd.path());
    legacy.initialize(json!({}));
    let (list, _) = legacy.request(2, "tools/list", json!({}));
    assert_eq!(
        list["result"],
        json!({"tools": [{"name": "hello", "inputSchema": {"type": "object"}}]})
    );
}
