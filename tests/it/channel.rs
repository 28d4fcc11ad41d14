//! Integration tests: the two-way channel between a tool and the MCP client. `agx serve` runs
//! over stdio, driven by JSON-RPC lines from the test, which plays a client that answers (or
//! cannot answer) the server's sampling and elicitation requests. The tools are shell
//! scripts speaking on descriptor 3.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde_json::{Value, json};

use crate::support::{AGX, TestHome, write_files};

/// A tool that sends `request` on the channel, then prints the line it gets back.
fn asking_tool(request: &str) -> String {
    format!(
        "printf '%s\\n' '{{\"method\":\"notifications/message\",\"params\":{{\"message\":\"asking\"}}}}' >&3\n\
         printf '%s\\n' '{request}' >&3\n\
         IFS= read -r reply <&3\n\
         printf '%s' \"$reply\"\n"
    )
}

const SAMPLE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":5}}"#;
const ELICIT: &str = r#"{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}"#;
const ELICIT_URL: &str = r#"{"jsonrpc":"2.0","id":"u","method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://login.example/42","elicitationId":"login-42"}}"#;
const ELICITATION_COMPLETE: &str = r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"login-42"}}"#;
/// A request agx answers at once (an unknown method): its answer shows that agx has handled
/// every line before it.
const BARRIER: &str = r#"{"jsonrpc":"2.0","id":"b","method":"roots/list"}"#;

/// A home with `local/chat` installed: tools `sample`, `elicit`, `hold` (asks, writes its
/// pid, then waits for an answer), `leave` (asks, then exits at once) and `flood` (sends 20
/// requests and a log message, then waits; it times out after 1 s), and `login` (a URL-mode
/// elicitation, then its completion notice).
fn chat_home() -> TestHome {
    let home = TestHome::new();
    let dir = home.home().join("chat");
    let tool = |name: &str| {
        format!(
            "[{name}]\ncommand = [\"sh\", \"bin/{name}.sh\"]\ntimeout = 20\n\
             [[{name}.parameters]]\nname = \"pid_file\"\ntype = \"string\"\n"
        )
    };
    let mut tools: String = ["sample", "elicit", "hold", "leave", "login"]
        .map(tool)
        .concat();
    tools.push_str("[flood]\ncommand = [\"sh\", \"bin/flood.sh\"]\ntimeout = 5\n");
    let flood = format!(
        "i=0\nwhile [ $i -lt 20 ]; do i=$((i+1)); printf '%s\\n' '{}' | sed \"s/\\\"id\\\":1/\\\"id\\\":$i/\" >&3; done\n\
         printf '%s\\n' '{{\"method\":\"notifications/message\",\"params\":{{\"message\":\"all sent\"}}}}' >&3\n\
         read -r never <&3\n",
        SAMPLE
    );
    let hold = format!(
        "echo $$ > \"$(sed -n 's/.*\"pid_file\": *\"\\([^\"]*\\)\".*/\\1/p')\"\n{}",
        asking_tool(SAMPLE)
    );
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"local/chat\"\nversion = \"0.1.0\"\n\n[extension]\n\
                 servers = [\"chat\"]\ntools = [\"sample\", \"elicit\", \"hold\", \"leave\", \"flood\", \"login\"]\n",
            ),
            (
                "agx/servers.toml",
                "[chat]\ntools = [\"sample\", \"elicit\", \"hold\", \"leave\", \"flood\", \"login\"]\n",
            ),
            ("agx/tools.toml", &tools),
            ("bin/sample.sh", &asking_tool(SAMPLE)),
            ("bin/elicit.sh", &asking_tool(ELICIT)),
            ("bin/hold.sh", &hold),
            ("bin/flood.sh", &flood),
            (
                "bin/login.sh",
                &format!(
                    "printf '%s\\n' '{ELICIT_URL}' >&3\nIFS= read -r answer <&3\n\
                     printf '%s\\n' '{ELICITATION_COMPLETE}' '{BARRIER}' >&3\n\
                     IFS= read -r barrier <&3\nprintf '%s' \"$answer\"\n"
                ),
            ),
            (
                "bin/leave.sh",
                &format!("printf '%s\\n' '{SAMPLE}' >&3\necho left\n"),
            ),
        ],
    );
    home.agx().arg("install").arg(&dir).assert().success();
    home
}

/// `agx serve local/chat/chat` driven line by line.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Every message from the server that was not the response waited for.
    seen: Vec<Value>,
}

impl Session {
    fn start(home: &TestHome, capabilities: Value) -> Session {
        let mut child = home
            .command(AGX)
            .args(["serve", "local/chat/chat"])
            .env("AGX_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut session = Session {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
            seen: Vec::new(),
        };
        session.send(
            json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": capabilities,
                "clientInfo": { "name": "channel-test", "version": "1" }
            }}),
        );
        session.until_response(0, |_, _| {});
        session.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        session
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&mut self) -> Value {
        let mut line = String::new();
        assert!(
            self.stdout.read_line(&mut line).unwrap() > 0,
            "server closed stdout"
        );
        serde_json::from_str(&line).unwrap()
    }

    /// Read until the response to `id`; `on_request` sees each request from the server.
    fn until_response(
        &mut self,
        id: u64,
        mut on_request: impl FnMut(&mut Session, &Value),
    ) -> Value {
        loop {
            let message = self.next();
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
            if message.get("method").is_some() && message.get("id").is_some() {
                on_request(self, &message);
            }
            self.seen.push(message);
        }
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) {
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": tool, "arguments": args } }));
    }

    fn close(mut self) {
        drop(self.stdin);
        assert!(self.child.wait().unwrap().success());
    }
}

/// The tool's printed reply line, from the call's result.
fn reply_of(response: &Value) -> Value {
    let result = &response["result"];
    if result["isError"] == true {
        // A printed object with an `error` key: the result's text is that value.
        json!({ "error": serde_json::from_str::<Value>(result["content"][0]["text"].as_str().unwrap()).unwrap() })
    } else {
        result["structuredContent"].clone()
    }
}

#[test]
fn a_tool_samples_through_a_client_that_answers() {
    let home = chat_home();
    let mut s = Session::start(&home, json!({ "sampling": {} }));
    s.call(1, "sample", json!({}));
    let mut asked = Vec::new();
    let response = s.until_response(1, |s, request| {
        asked.push(request.clone());
        s.send(json!({ "jsonrpc": "2.0", "id": request["id"], "result": {
            "role": "assistant", "content": { "type": "text", "text": "hi there" },
            "model": "test-model", "stopReason": "endTurn"
        }}));
    });
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["method"], "sampling/createMessage");
    assert_eq!(
        asked[0]["params"]["messages"][0]["content"]["text"],
        "Say hi"
    );
    assert_eq!(asked[0]["params"]["maxTokens"], 5);
    let reply = reply_of(&response);
    assert_eq!(reply["id"], 1, "the tool's own id comes back: {reply}");
    assert_eq!(reply["result"]["content"]["text"], "hi there");
    assert_eq!(reply["result"]["model"], "test-model");
    // The log message the tool sent on the channel reached the client before the result.
    assert!(
        s.seen
            .iter()
            .any(|m| m["method"] == "notifications/message" && m["params"]["data"] == "asking"),
        "{:?}",
        s.seen
    );
    s.close();
}

#[test]
fn an_elicitation_the_user_declines_reaches_the_tool_as_declined() {
    let home = chat_home();
    let mut s = Session::start(&home, json!({ "elicitation": {} }));
    for (id, action) in [(1, "accept"), (2, "decline"), (3, "cancel")] {
        s.call(id, "elicit", json!({}));
        let response = s.until_response(id, |s, request| {
            assert_eq!(request["method"], "elicitation/create");
            assert_eq!(request["params"]["message"], "Your name?");
            let mut answer = json!({ "action": action });
            if action == "accept" {
                answer["content"] = json!({ "name": "Ada" });
            }
            s.send(json!({ "jsonrpc": "2.0", "id": request["id"], "result": answer }));
        });
        let reply = reply_of(&response);
        assert_eq!(reply["id"], "e");
        assert_eq!(reply["result"]["action"], action, "{reply}");
        if action == "accept" {
            assert_eq!(reply["result"]["content"]["name"], "Ada");
        }
    }
    s.close();
}

#[test]
fn a_client_without_the_capability_gets_no_request_and_the_tool_an_error() {
    let home = chat_home();
    // Elicitation only: sampling is refused, and the client is never asked.
    let mut s = Session::start(&home, json!({ "elicitation": {} }));
    s.call(1, "sample", json!({}));
    let response = s.until_response(1, |_, request| panic!("the client was asked: {request}"));
    // The tool printed the answer it got, whose `error` key makes the call an error result.
    let reply = reply_of(&response);
    assert_eq!(reply["error"]["code"], -32601);
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("`sampling` capability"), "{message}");
    s.close();
}

#[test]
fn a_url_elicitation_completed_by_the_tool_is_announced_to_the_client() {
    let home = chat_home();
    let mut s = Session::start(&home, json!({ "elicitation": { "url": {} } }));
    s.call(1, "login", json!({}));
    let response = s.until_response(1, |s, request| {
        assert_eq!(request["params"]["elicitationId"], "login-42");
        s.send(json!({ "jsonrpc": "2.0", "id": request["id"], "result": { "action": "accept" } }));
    });
    assert_eq!(reply_of(&response)["result"]["action"], "accept");
    let completions: Vec<&Value> = s
        .seen
        .iter()
        .filter(|m| m["method"] == "notifications/elicitation/complete")
        .collect();
    assert_eq!(
        completions,
        [
            &json!({ "jsonrpc": "2.0", "method": "notifications/elicitation/complete",
            "params": { "elicitationId": "login-42" } })
        ]
    );
    s.close();
}

/// Wait (up to 10 s) until `path` holds a pid.
fn pid_in(path: &Path) -> u32 {
    for _ in 0..1000 {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("{} never appeared", path.display());
}

fn gone(pid: u32) -> bool {
    (0..1000).any(|_| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let ended = stat.is_empty()
            || stat
                .rsplit_once(") ")
                .is_some_and(|(_, s)| s.starts_with('Z'));
        if !ended {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        ended
    })
}

#[test]
fn cancelling_the_call_cancels_its_pending_request_and_ends_the_tool() {
    let home = chat_home();
    let mut s = Session::start(&home, json!({ "sampling": {} }));
    let pid_file = home.home().join("hold.pid");
    s.call(1, "hold", json!({ "pid_file": pid_file }));
    // The server's request arrives; the client does not answer it, and cancels the call.
    let request = loop {
        let message = s.next();
        if message["method"] == "sampling/createMessage" {
            break message;
        }
    };
    let pid = pid_in(&pid_file);
    s.send(
        json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 1, "reason": "changed my mind" } }),
    );
    let cancelled = loop {
        let message = s.next();
        if message["method"] == "notifications/cancelled" {
            break message;
        }
    };
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    assert!(gone(pid), "the tool process {pid} still runs");
    // The server keeps serving.
    s.call(2, "leave", json!({}));
    s.until_response(2, |_, _| {});
    s.close();
}

#[test]
fn a_tool_that_exits_with_a_request_pending_has_it_cancelled() {
    let home = chat_home();
    let mut s = Session::start(&home, json!({ "sampling": {} }));
    s.call(1, "leave", json!({}));
    let mut asked = None;
    let response = s.until_response(1, |_, request| asked = Some(request["id"].clone()));
    assert_eq!(response["result"]["content"][0]["text"], "left\n");
    let asked = asked.expect("the tool's request reached the client");
    // The cancellation is sent when the call ends; it may follow the result.
    let cancelled = s
        .seen
        .iter()
        .find(|m| m["method"] == "notifications/cancelled")
        .cloned()
        .unwrap_or_else(|| s.next());
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], asked);
    s.close();
}

#[test]
fn a_flood_of_requests_is_held_at_sixteen_waiting() {
    let home = chat_home();
    let mut s = Session::start(&home, json!({ "sampling": {} }));
    // The client answers nothing: agx relays 16 requests and reads no further (the log
    // message after the 20th is never read), until the call times out and cancels them. The
    // timeout leaves a loaded machine time to start the 20 `sed`s that write the requests.
    s.call(1, "flood", json!({}));
    let mut asked = Vec::new();
    let response = s.until_response(1, |_, request| asked.push(request["id"].clone()));
    assert_eq!(asked.len(), 16, "{asked:?} {response}");
    assert!(response["result"]["isError"] == true, "{response}");
    let cancelled = |s: &Session| {
        s.seen
            .iter()
            .filter(|m| m["method"] == "notifications/cancelled")
            .count()
    };
    while cancelled(&s) < 16 {
        let message = s.next();
        s.seen.push(message);
    }
    assert!(
        !s.seen.iter().any(|m| m["params"]["data"] == "all sent"),
        "agx read past the limit"
    );
    s.close();
}
