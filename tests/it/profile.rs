//! Profiles (docs/profiles.md): `agx serve @NAME` serves many servers as one. A fixture agx
//! package, a small wrapped server written here (it changes its tool list, asks the client
//! to sample, and can end itself) and the real npm server-everything (pinned) are members.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::ecosystem::{EVERYTHING, EVERYTHING_VERSION, agx, command, stderr};
use crate::support::{AGX, Fixture, TestHome, write_file};

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
    let dir = home.home().join("src/flaky");
    write_file(
        &dir.join("agx.toml"),
        "[package]\nname = \"acme/flaky\"\nversion = \"1.0.0\"\ndescription = \"f\"\n\n[extension]\nservers = [\"flaky\"]\n",
    );
    write_file(
        &dir.join("agx/servers/flaky.toml"),
        "name = \"flaky\"\ncommand = [\"python3\", \"server.py\"]\n",
    );
    write_file(&dir.join("server.py"), FLAKY_SERVER);
    home.agx().arg("install").arg(&dir).assert().success();
}

/// Raw JSON-RPC lines on `agx serve`'s stdio.
struct Lines {
    child: Child,
    stdin: ChildStdin,
    rx: mpsc::Receiver<Value>,
}

impl Lines {
    fn start(home: &TestHome, served: &str, cwd: &Path) -> Lines {
        let mut child = command(home, AGX)
            .args(["serve", served])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("agx serve starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let message = serde_json::from_str(&line).expect("stdout carries JSON-RPC");
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Lines { child, stdin, rx }
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&mut self) -> Value {
        // A guard against a hung server, not a timing assertion.
        self.rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the server sends a message")
    }

    /// Read until the response to `id`; every message before it is returned with it.
    fn until_response(&mut self, id: &Value) -> (Value, Vec<Value>) {
        let mut before = Vec::new();
        loop {
            let m = self.next();
            if &m["id"] == id && m.get("method").is_none() {
                return (m, before);
            }
            before.push(m);
        }
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> (Value, Vec<Value>) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.until_response(&json!(id))
    }

    fn initialize(&mut self, capabilities: Value) -> Value {
        let (init, _) = self.request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": capabilities,
                   "clientInfo": {"name": "agx-test", "version": "1"}}),
        );
        assert!(init["result"]["serverInfo"].is_object(), "{init}");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        init
    }

    fn names(&mut self, id: u64, method: &str, array: &str) -> Vec<String> {
        let (list, _) = self.request(id, method, json!({}));
        list["result"][array]
            .as_array()
            .unwrap_or_else(|| panic!("a list: {list}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
        .0
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
    let mut s = Lines::start(&home, "@dev", project.path());
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
