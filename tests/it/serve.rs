//! Integration tests: `agx serve`, driven by the rmcp client (child process and Streamable
//! HTTP) and by raw JSON-RPC lines, on fixture packages installed into a temporary AGX_HOME.
#![allow(deprecated)] // MCP logging (SEP-2577) is deprecated in rmcp but still part of agx serve

use std::io::{BufRead, BufReader, Read, Write};
#[cfg(unix)]
use std::os::fd::OwnedFd;
#[cfg(unix)]
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, GetPromptRequestParams,
    LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam,
    SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

use insta::assert_snapshot;

use crate::support::{AGX, AGX_SERVE, TestHome, fixtures, outcome, outcome_of};

// ---------------------------------------------------------------------------------------
// Fixtures

/// A home with the given fixture packages (no dependencies) installed from their folders.
fn home_with(packages: &[&str]) -> TestHome {
    let home = TestHome::new();
    for p in packages {
        home.agx()
            .arg("install")
            .arg(fixtures().join("packages").join(p))
            .assert()
            .success();
    }
    home
}

/// A home with acme/research installed (two tools named `search`) from the fixture registry.
fn research_home() -> TestHome {
    let home = TestHome::new();
    home.agx()
        .args(["install", "--registry"])
        .arg(fixtures().join("registry"))
        .arg("acme/research")
        .assert()
        .success();
    home
}

/// `agx serve …` as a tokio command with the test home's environment.
fn serve_command(home: &TestHome, args: &[&str]) -> tokio::process::Command {
    let mut cmd = home.command(AGX);
    cmd.arg("serve").args(args).env("AGX_LOG", "warn");
    cmd.into()
}

/// Records the notifications the server sends.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
    logs: Arc<Mutex<Vec<LoggingMessageNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.logs.lock().unwrap().push(params);
    }
}

type Client = RunningService<RoleClient, Recorder>;

async fn connect(home: &TestHome, server: &str) -> (Client, Recorder) {
    let recorder = Recorder::default();
    let (transport, _) = TokioChildProcess::builder(serve_command(home, &[server]))
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn agx serve");
    let client = recorder.clone().serve(transport).await.expect("initialize");
    (client, recorder)
}

async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let mut params = CallToolRequestParams::new(tool.to_string());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    client.call_tool(params).await.expect("tools/call")
}

fn as_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap()
}

fn text_of(result: &CallToolResult) -> String {
    as_json(result)["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn is_error(result: &CallToolResult) -> bool {
    as_json(result)["isError"] == true
}

// ---------------------------------------------------------------------------------------
// Initialize, list, call

#[tokio::test(flavor = "multi_thread")]
async fn initialize_reports_server_and_lists_tools_and_prompts() {
    let home = home_with(&["agx-edge"]);
    let (client, _) = connect(&home, "agx/edge/edge").await;
    let info = as_json(&*client.peer_info().expect("server info"));
    assert_eq!(info["serverInfo"]["name"], "agx/edge/edge");
    assert_eq!(info["serverInfo"]["version"], "0.1.0");
    assert_eq!(info["instructions"], "Fixture server for agx serve tests.");

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names[..3], ["echo", "echo_argv", "text"]);
    assert_eq!(names.len(), 15);
    let echo = as_json(&tools[0]);
    assert_eq!(echo["title"], "Echo");
    assert_eq!(
        echo["inputSchema"]["properties"]["count"]["type"],
        "integer"
    );
    assert_eq!(echo["inputSchema"]["required"], json!(["message"]));
    assert_eq!(echo["annotations"]["readOnlyHint"], true);

    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["greet", "cmd_text", "cmd_messages"]);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn calls_follow_the_tool_contract() {
    let home = home_with(&["agx-edge"]);
    let (client, _) = connect(&home, "agx/edge/edge").await;

    // stdin input, JSON output -> structuredContent plus its text
    let r = as_json(&call(&client, "echo", json!({ "message": "hi", "count": 2 })).await);
    assert_eq!(
        r["structuredContent"],
        json!({ "message": "hi", "count": 2 })
    );
    assert_ne!(r["isError"], true);
    // argv input
    let r = as_json(&call(&client, "echo_argv", json!({ "message": "hi" })).await);
    assert_eq!(
        r["structuredContent"],
        json!({ "argv": { "message": "hi" } })
    );
    // text output
    let r = call(&client, "text", json!({})).await;
    assert_eq!(text_of(&r), "plain text from text\n");
    // cwd, AGX_* and the tool's env
    let r = as_json(&call(&client, "env_info", json!({})).await)["structuredContent"].clone();
    let dir = home.agx_home().join("store-v1/agx/edge/0.1.0");
    assert_eq!(r["cwd"], dir.display().to_string());
    assert_eq!(r["package_dir"], dir.display().to_string());
    assert_eq!(r["package"], "agx/edge");
    assert_eq!(r["tool"], "env_info");
    assert_eq!(r["setting"], "from-definition");
    // {"error": …} -> isError
    let r = call(&client, "fail_json", json!({})).await;
    assert!(is_error(&r));
    assert_eq!(text_of(&r), "no such city: Atlantis");
    // content blocks pass through
    let r = as_json(&call(&client, "content", json!({})).await);
    assert_eq!(r["content"][1]["type"], "image");
    assert_eq!(r["content"][1]["mimeType"], "image/png");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_arguments_and_unknown_tools_are_rejected_before_running() {
    let home = home_with(&["agx-edge"]);
    let (client, _) = connect(&home, "agx/edge/edge").await;
    let r = call(&client, "echo", json!({ "message": "hi", "count": "two" })).await;
    assert!(is_error(&r));
    assert!(text_of(&r).contains("argument `count`"), "{}", text_of(&r));
    assert!(text_of(&r).contains("integer"), "{}", text_of(&r));
    let r = call(&client, "echo", json!({})).await;
    assert!(is_error(&r));
    assert!(text_of(&r).contains("\"message\" is a required property"));

    let err = client
        .call_tool(CallToolRequestParams::new("nope"))
        .await
        .unwrap_err();
    let text = format!("{err:?}");
    assert!(
        text.contains("-32602")
            || text.contains("InvalidParams")
            || text.contains("INVALID_PARAMS"),
        "{text}"
    );
    assert!(text.contains("unknown tool `nope`"), "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn prompts_render_and_run() {
    let home = home_with(&["agx-edge"]);
    let (client, _) = connect(&home, "agx/edge/edge").await;
    let get = |name: &str, args: Value| {
        let mut p = GetPromptRequestParams::new(name);
        if let Value::Object(m) = args {
            p = p.with_arguments(m);
        }
        client.get_prompt(p)
    };
    let r = as_json(&get("greet", json!({ "name": "Ann" })).await.unwrap());
    assert_eq!(r["messages"][0]["content"]["text"], "Hello Ann!");
    let r = as_json(
        &get("greet", json!({ "name": "Ann", "mood": "happy" }))
            .await
            .unwrap(),
    );
    assert_eq!(
        r["messages"][0]["content"]["text"],
        "Hello Ann! You seem happy."
    );
    let err = format!("{:?}", get("greet", json!({})).await.unwrap_err());
    assert!(err.contains("needs the argument `name`"), "{err}");

    let r = as_json(&get("cmd_text", json!({ "topic": "rust" })).await.unwrap());
    assert_eq!(
        r["messages"][0]["content"]["text"],
        "args: {\"topic\":\"rust\"}\n"
    );
    let r = as_json(&get("cmd_messages", json!({})).await.unwrap());
    assert_eq!(r["description"], "from a command");
    assert_eq!(r["messages"][1]["role"], "assistant");
    assert_eq!(r["messages"][1]["content"]["text"], "second");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn colliding_tool_names_are_numbered() {
    let home = research_home();
    let (client, _) = connect(&home, "acme/research/research").await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["search1", "search2", "cite"]);
    client.cancel().await.unwrap();
}

/// Every package snapshot under the store (install writes one per package version).
fn snapshots_in(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(snapshots_in(&path));
        } else if path.file_name().is_some_and(|n| n == ".agx-package.json") {
            found.push(path);
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread")]
async fn packages_without_snapshots_are_served_from_their_definitions() {
    let home = research_home();
    let store = home.agx_home().join("store-v1");
    let snapshots = snapshots_in(&store);
    assert_eq!(snapshots.len(), 3, "{snapshots:?}");
    for snapshot in snapshots {
        std::fs::remove_file(snapshot).unwrap();
    }
    let (client, _) = connect(&home, "acme/research/research").await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["search1", "search2", "cite"]);
    client.cancel().await.unwrap();

    // Both dependencies are parsed side by side; a broken one is still reported in
    // reference order.
    for version_dir in ["acme/docs/1.0.0", "contoso/web/2.1.0"] {
        std::fs::write(store.join(version_dir).join("agx.toml"), "[package\n").unwrap();
    }
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "broken_dependency",
        outcome(home.agx().args(["serve", "acme/research/research"]))
    );
}

// ---------------------------------------------------------------------------------------
// Notifications, cancellation, concurrency

#[tokio::test(flavor = "multi_thread")]
async fn progress_and_log_lines_become_notifications() {
    let home = home_with(&["agx-edge"]);
    let (client, recorder) = connect(&home, "agx/edge/edge").await;
    let r = call(&client, "progress", json!({})).await;
    assert_eq!(text_of(&r), "finished 3 steps\n");
    // The client handles notifications on their own tasks: wait for them, then compare them
    // in progress order.
    eventually(|| recorder.progress.lock().unwrap().len() >= 3).await;
    let mut progress = recorder.progress.lock().unwrap().clone();
    progress.sort_by(|a, b| a.progress.total_cmp(&b.progress));
    let steps: Vec<(f64, Option<f64>, Option<&str>)> = progress
        .iter()
        .map(|p| (p.progress, p.total, p.message.as_deref()))
        .collect();
    assert_eq!(
        steps,
        [
            (1.0, Some(3.0), Some("step 1")),
            (2.0, Some(3.0), Some("step 2")),
            (3.0, Some(3.0), Some("step 3"))
        ]
    );

    client
        .peer()
        .set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
        .await
        .unwrap();
    call(&client, "logs", json!({})).await;
    eventually(|| recorder.logs.lock().unwrap().len() >= 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await; // let stragglers arrive
    let mut logs = recorder.logs.lock().unwrap().clone();
    logs.sort_by_key(|l| l.logger.clone());
    let got: Vec<(LoggingLevel, Option<&str>, &Value)> = logs
        .iter()
        .map(|l| (l.level, l.logger.as_deref(), &l.data))
        .collect();
    // debug and info are below the level the client set; the tool's name is the default logger.
    assert_eq!(
        got,
        [
            (
                LoggingLevel::Error,
                Some("edge-logger"),
                &json!("error report")
            ),
            (
                LoggingLevel::Warning,
                Some("logs"),
                &json!({ "message": "warning sign", "data": { "code": 7 } })
            ),
        ]
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn cancelling_a_call_kills_its_process() {
    let home = home_with(&["agx-edge"]);
    let (client, _) = connect(&home, "agx/edge/edge").await;
    let pid_file = home.home().join("slow.pid");
    let params = CallToolRequestParams::new("slow").with_arguments(
        json!({ "seconds": 60, "pid_file": pid_file })
            .as_object()
            .unwrap()
            .clone(),
    );
    let handle = client
        .peer()
        .send_cancellable_request(
            ClientRequest::CallToolRequest(CallToolRequest::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let pid = wait_for_file(&pid_file).await;
    assert!(Path::new(&format!("/proc/{pid}")).exists());
    handle.cancel(Some("test".into())).await.unwrap();
    let mut gone = false;
    for _ in 0..500 {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            gone = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(gone, "tool process {pid} still exists after cancellation");
    // The server keeps serving.
    assert_eq!(
        text_of(&call(&client, "text", json!({})).await),
        "plain text from text\n"
    );
    client.cancel().await.unwrap();
}

/// Wait (up to 5 s) until `done` holds.
async fn eventually(done: impl Fn() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

async fn wait_for_file(path: &Path) -> u32 {
    for _ in 0..1000 {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("{} never appeared", path.display());
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_calls_run_at_once() {
    let home = home_with(&["agx-edge"]);
    let (client, _) = connect(&home, "agx/edge/edge").await;
    let dir = home.home().join("rendezvous");
    std::fs::create_dir(&dir).unwrap();
    // Each call waits until all 20 are running: this only succeeds if they run concurrently.
    let mut calls = Vec::new();
    for _ in 0..20 {
        let peer = client.peer().clone();
        let args = json!({ "dir": dir, "count": 20 })
            .as_object()
            .unwrap()
            .clone();
        calls.push(tokio::spawn(async move {
            peer.call_tool(CallToolRequestParams::new("rendezvous").with_arguments(args))
                .await
                .unwrap()
        }));
    }
    for call in calls {
        let r = call.await.unwrap();
        assert_eq!(as_json(&r)["structuredContent"], json!({ "met": true }));
    }
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------
// Misbehaving tools

#[tokio::test(flavor = "multi_thread")]
async fn misbehaving_tools_give_error_results_and_the_server_keeps_serving() {
    let home = home_with(&["agx-edge"]);
    let (client, _) = connect(&home, "agx/edge/edge").await;

    let r = call(&client, "crash", json!({})).await;
    assert!(is_error(&r));
    assert!(text_of(&r).contains("exited with status 3"));
    assert!(text_of(&r).contains("Traceback: something broke"));

    let r = call(&client, "hang", json!({})).await;
    assert!(is_error(&r));
    assert!(text_of(&r).contains("timeout of 1 s"), "{}", text_of(&r));

    let r = call(&client, "flood", json!({})).await;
    let text = text_of(&r);
    assert!(!is_error(&r));
    assert!(text.len() < 1024 * 1024 + 200, "{} bytes", text.len());
    assert!(text.starts_with("xxxx"));
    assert!(text.contains("output truncated: the tool printed 10485760 bytes"));

    let r = call(&client, "bad_utf8", json!({})).await;
    assert_eq!(text_of(&r), "caf\u{fffd} \u{fffd}\u{fffd} ok");

    // An argument far larger than a pipe buffer: agx's write fails once the tool has gone.
    let r = call(&client, "no_stdin", json!({ "blob": "x".repeat(1 << 20) })).await;
    assert_eq!(text_of(&r), "done\n");

    assert_eq!(
        text_of(&call(&client, "text", json!({})).await),
        "plain text from text\n"
    );
    client.cancel().await.unwrap();
}

// ---------------------------------------------------------------------------------------
// Raw JSON-RPC over stdio

struct Raw {
    child: Child,
    stdin: Option<Box<dyn Write>>,
    stdout: BufReader<Box<dyn Read>>,
}

/// `program` (agx or agx-serve) with the test home's environment, logging warnings only.
fn command_in(home: &TestHome, program: &Path) -> std::process::Command {
    let mut command = home.command(program);
    command.env("AGX_LOG", "warn").stderr(Stdio::null());
    command
}

/// `agx serve` with the given stdin and stdout.
fn raw_serve(home: &TestHome, server: &str, stdin: Stdio, stdout: Stdio) -> Child {
    command_in(home, Path::new(AGX))
        .args(["serve", server])
        .stdin(stdin)
        .stdout(stdout)
        .spawn()
        .unwrap()
}

impl Raw {
    /// Connected through pipes, as Python and Rust clients do.
    fn start(home: &TestHome, server: &str) -> Raw {
        Raw::piped(raw_serve(home, server, Stdio::piped(), Stdio::piped()))
    }

    /// Start `command` with piped stdin and stdout.
    #[cfg(target_os = "linux")]
    fn spawn(command: &mut std::process::Command) -> Raw {
        let child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        Raw::piped(child)
    }

    /// A child started with piped stdin and stdout.
    fn piped(mut child: Child) -> Raw {
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        Raw {
            child,
            stdin: Some(Box::new(stdin)),
            stdout: BufReader::new(Box::new(stdout)),
        }
    }

    /// Connected through Unix sockets, as Node clients (libuv) do.
    #[cfg(unix)]
    fn start_on_sockets(home: &TestHome, server: &str) -> Raw {
        let (ours_in, theirs_in) = UnixStream::pair().unwrap();
        let (ours_out, theirs_out) = UnixStream::pair().unwrap();
        let child = raw_serve(
            home,
            server,
            Stdio::from(OwnedFd::from(theirs_in)),
            Stdio::from(OwnedFd::from(theirs_out)),
        );
        Raw {
            child,
            stdin: Some(Box::new(ours_in)),
            stdout: BufReader::new(Box::new(ours_out)),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next message that is not a notification.
    fn response(&mut self) -> Value {
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed stdout"
            );
            let v: Value = serde_json::from_str(&line).expect("stdout carries only JSON-RPC");
            if v.get("method").is_none() {
                return v;
            }
        }
    }

    /// Close stdin: the server must then exit cleanly.
    fn close(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status:?}");
    }

    fn initialize(&mut self) {
        self.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#);
        assert_eq!(
            self.response()["result"]["serverInfo"]["name"],
            "agx/edge/edge"
        );
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }
}

#[test]
fn bad_input_gets_json_rpc_errors_and_the_server_keeps_serving() {
    let home = home_with(&["agx-edge"]);
    let mut raw = Raw::start(&home, "agx/edge/edge");
    // Before initialize: unknown methods are answered at once, early notifications ignored.
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#);
    raw.send(r#"{"jsonrpc":"2.0","id":"early","method":"no/such/method"}"#);
    let r = raw.response();
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (json!("early"), json!(-32601))
    );
    raw.initialize();

    let cases: [(&str, Value, i64); 6] = [
        ("{\"jsonrpc\": \"2.0\", \"id\": 1, ", Value::Null, -32700),
        ("not json at all", Value::Null, -32700),
        (
            r#"[{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
            Value::Null,
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"no/such/method"}"#,
            json!(3),
            -32601,
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}}"#,
            json!(4),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"greet"}}"#,
            json!(5),
            -32602,
        ),
    ];
    for (line, id, code) in cases {
        raw.send(line);
        let r = raw.response();
        assert_eq!(r["id"], id, "{line} -> {r}");
        assert_eq!(r["error"]["code"], code, "{line} -> {r}");
    }
    raw.send(
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"text","arguments":{}}}"#,
    );
    let r = raw.response();
    assert_eq!(r["id"], 6);
    assert_eq!(r["result"]["content"][0]["text"], "plain text from text\n");

    // Closing stdin ends the server cleanly.
    raw.close();
}

#[cfg(unix)]
#[test]
fn stdio_over_unix_sockets_serves_like_pipes() {
    let home = home_with(&["agx-edge"]);
    let mut raw = Raw::start_on_sockets(&home, "agx/edge/edge");
    raw.initialize();
    raw.send(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"text","arguments":{}}}"#,
    );
    let r = raw.response();
    assert_eq!(r["result"]["content"][0]["text"], "plain text from text\n");
    raw.send("not json");
    assert_eq!(raw.response()["error"]["code"], -32700);
    raw.close();
}

#[test]
fn stdio_from_a_file_is_served_to_its_end() {
    let home = home_with(&["agx-edge"]);
    let input = home.home().join("requests.jsonl");
    let output = home.home().join("responses.jsonl");
    std::fs::write(
        &input,
        [
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"file","version":"1"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"text","arguments":{}}}"#,
            "",
        ]
        .join("\n"),
    )
    .unwrap();
    let status = raw_serve(
        &home,
        "agx/edge/edge",
        Stdio::from(std::fs::File::open(&input).unwrap()),
        Stdio::from(std::fs::File::create(&output).unwrap()),
    )
    .wait()
    .unwrap();
    assert!(status.success(), "{status:?}");
    let responses: Vec<Value> = std::fs::read_to_string(&output)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("stdout carries only JSON-RPC"))
        .collect();
    assert_eq!(
        responses[0]["result"]["serverInfo"]["name"],
        "agx/edge/edge"
    );
    let call = responses
        .iter()
        .find(|r| r["id"] == 1)
        .expect("the call's response");
    assert_eq!(
        call["result"]["content"][0]["text"],
        "plain text from text\n"
    );
}

/// Open file descriptors of a process.
fn fd_count(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

/// Zombie children of a process.
fn zombie_children(pid: u32) -> Vec<u32> {
    let mut zombies = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid …; comm may hold spaces, so split after the last ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 1 && fields[0] == "Z" && fields[1] == pid.to_string() {
            zombies.push(entry.file_name().to_string_lossy().parse().unwrap_or(0));
        }
    }
    zombies
}

#[test]
fn a_thousand_sequential_calls_leak_no_processes_or_descriptors() {
    let home = home_with(&["agx-edge"]);
    let mut raw = Raw::start(&home, "agx/edge/edge");
    let pid = raw.child.id();
    raw.initialize();
    let call = |i: usize, raw: &mut Raw| {
        raw.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"echo","arguments":{{"message":"m{i}"}}}}}}"#
        ));
        let r = raw.response();
        assert_eq!(r["id"], i);
        assert_eq!(r["result"]["structuredContent"]["message"], format!("m{i}"));
    };
    for i in 1..=20 {
        call(i, &mut raw);
    }
    let fds_before = fd_count(pid);
    for i in 21..=1020 {
        call(i, &mut raw);
    }
    let fds_after = fd_count(pid);
    assert!(
        fds_after <= fds_before,
        "fds grew from {fds_before} to {fds_after}"
    );
    assert_eq!(zombie_children(pid), Vec::<u32>::new());
    raw.close();
}

// ---------------------------------------------------------------------------------------
// Startup failures, wrapped servers, HTTP

#[test]
fn a_missing_package_stops_the_server_with_the_fix() {
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().args(["serve", "acme/weather/forecast"])));
}

#[test]
fn a_dependency_missing_from_the_store_stops_the_server_with_the_fix() {
    let home = research_home();
    // Dependencies are loaded side by side; a failure among them is still reported first
    // in reference order, and names the package and the fix.
    std::fs::remove_file(home.agx_home().join("receipts-v1/contoso/web.toml")).unwrap();
    std::fs::remove_file(home.agx_home().join("receipts-v1/acme/docs.toml")).unwrap();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(
        home.agx().args(["serve", "acme/research/research"])
    ));
}

#[test]
fn an_unknown_server_names_the_ones_there_are() {
    let home = home_with(&["agx-edge"]);
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().args(["serve", "agx/edge/nope"])));
}

#[test]
fn failing_initialization_stops_the_server_with_its_output() {
    let home = home_with(&["agx-edge"]);
    let _filters = home.snapshot_filters();
    // Warnings only: the info line on how agx/edge is confined names this kernel's Landlock.
    assert_snapshot!(outcome(
        home.agx()
            .args(["serve", "agx/edge/init_fails"])
            .env("AGX_LOG", "warn")
            .write_stdin("")
    ));
}

#[test]
fn a_wrapped_server_runs_in_place_with_its_env_and_cwd() {
    let home = home_with(&["agx-edge"]);
    let dir: PathBuf = home.agx_home().join("store-v1/agx/edge/0.1.0/bin");
    home.agx()
        .args(["serve", "agx/edge/wrapped"])
        .write_stdin("hello\n")
        .assert()
        .success()
        .stdout(format!("wrapped[agx/edge yes {}]: hello\n", dir.display()));
}

#[test]
fn http_serves_loopback_only() {
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().args([
        "serve",
        "agx/edge/edge",
        "--http",
        "0.0.0.0:0"
    ])));
}

#[tokio::test(flavor = "multi_thread")]
async fn streamable_http_serves_clients_and_rejects_foreign_hosts() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let home = home_with(&["agx-edge"]);
    let mut child = serve_command(&home, &["agx/edge/edge", "--http", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(stderr));
    let url = loop {
        let line = lines.next_line().await.unwrap().expect("a listening line");
        if let Some(url) = line.strip_prefix("agx serve: listening on ") {
            break url.to_string();
        }
    };

    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.clone());
    let client = Recorder::default().serve(transport).await.unwrap();
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 15);
    let r = call(&client, "echo", json!({ "message": "over http" })).await;
    assert_eq!(as_json(&r)["structuredContent"]["message"], "over http");
    client.cancel().await.unwrap();

    let status = tokio::task::spawn_blocking(move || {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#;
        let http = reqwest::blocking::Client::new();
        let foreign_host = http
            .post(&url)
            .header("Host", "evil.example")
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(body)
            .send()
            .unwrap()
            .status();
        let foreign_origin = http
            .post(&url)
            .header("Origin", "http://evil.example")
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(body)
            .send()
            .unwrap()
            .status();
        (foreign_host, foreign_origin)
    })
    .await
    .unwrap();
    assert!(status.0.is_client_error(), "foreign Host got {}", status.0);
    assert!(
        status.1.is_client_error(),
        "foreign Origin got {}",
        status.1
    );
    child.kill().await.unwrap();
}

#[test]
fn tool_stderr_goes_to_stderr_and_the_server_log_file() {
    let home = home_with(&["agx-edge"]);
    let input = [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crash","arguments":{}}}"#,
    ]
    .join("\n");
    let out = home
        .agx()
        .args(["serve", "agx/edge/edge"])
        .env("AGX_LOG", "info")
        .write_stdin(input + "\n")
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "tool crash: Traceback: something broke",
        ))
        .get_output()
        .stdout
        .clone();
    // stdout carries protocol messages only.
    for line in String::from_utf8(out).unwrap().lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON-RPC message");
        assert_eq!(v["jsonrpc"], "2.0");
    }
    let log = std::fs::read_to_string(home.agx_home().join("logs/agx-edge-edge.log")).unwrap();
    assert!(
        log.contains("tool crash: Traceback: something broke"),
        "{log}"
    );
}

#[test]
fn protocol_2026_07_28_clients_discover_and_call_without_initialize() {
    let home = home_with(&["agx-edge"]);
    let mut raw = Raw::start(&home, "agx/edge/edge");
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "modern", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    raw.send(
        &json!({ "jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": { "_meta": meta } })
            .to_string(),
    );
    let r = raw.response();
    assert!(
        r["result"]["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2025-06-18"))
    );
    raw.send(
        &json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                 "params": { "name": "text", "arguments": {}, "_meta": meta } })
        .to_string(),
    );
    let r = raw.response();
    assert_eq!(r["result"]["content"][0]["text"], "plain text from text\n");
    // 2026-07-28 clients reject results without `resultType`.
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
    raw.send(
        &json!({ "jsonrpc": "2.0", "id": 3, "method": "prompts/get",
                 "params": { "name": "greet", "arguments": { "name": "Ada" }, "_meta": meta } })
        .to_string(),
    );
    let r = raw.response();
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
    // An agx package's definitions are static: its lists may be kept for long.
    raw.send(
        &json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": { "_meta": meta } })
            .to_string(),
    );
    let r = raw.response();
    assert_eq!(r["result"]["ttlMs"], 3_600_000, "{r}");
    assert_eq!(r["result"]["cacheScope"], "private", "{r}");
    raw.close();
}

#[test]
fn a_two_segment_name_that_forgot_the_server_says_so() {
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().args(["serve", "acme/weather"])));
}

// ---------------------------------------------------------------------------------------
// The hand-off to agx-serve

/// The program a running process was started from (Linux: /proc/PID/exe).
#[cfg(target_os = "linux")]
fn program_of(child: &Child) -> PathBuf {
    std::fs::read_link(format!("/proc/{}/exe", child.id())).unwrap()
}

/// Initialize, make one call, close stdin: the server must have served and exited cleanly.
/// Returns the program that did the serving.
#[cfg(target_os = "linux")]
fn serve_one_call(mut raw: Raw) -> PathBuf {
    raw.initialize();
    let program = program_of(&raw.child);
    raw.send(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"text","arguments":{}}}"#,
    );
    assert_eq!(
        raw.response()["result"]["content"][0]["text"],
        "plain text from text\n"
    );
    raw.close();
    program
}

#[cfg(target_os = "linux")]
#[test]
fn agx_serve_hands_off_to_the_agx_serve_beside_it() {
    let home = home_with(&["agx-edge"]);
    let program = serve_one_call(Raw::start(&home, "agx/edge/edge"));
    assert_eq!(program, Path::new(AGX_SERVE).canonicalize().unwrap());
}

#[cfg(target_os = "linux")]
#[test]
fn agx_without_agx_serve_beside_it_serves_by_itself() {
    let home = home_with(&["agx-edge"]);
    let lone = home.home().join("lone-bin");
    std::fs::create_dir(&lone).unwrap();
    let agx = lone.join("agx");
    // A hard link is a copy as far as current_exe is concerned, without copying the binary.
    std::fs::hard_link(AGX, &agx)
        .or_else(|_| std::fs::copy(AGX, &agx).map(drop))
        .unwrap();
    let raw = Raw::spawn(command_in(&home, &agx).args(["serve", "agx/edge/edge"]));
    assert_eq!(serve_one_call(raw), agx);
}

#[cfg(target_os = "linux")]
#[test]
fn agx_no_serve_handoff_makes_agx_serve_by_itself() {
    let home = home_with(&["agx-edge"]);
    let agx = Path::new(AGX).canonicalize().unwrap();
    let raw = Raw::spawn(
        command_in(&home, &agx)
            .env("AGX_NO_SERVE_HANDOFF", "1")
            .args(["serve", "agx/edge/edge"]),
    );
    assert_eq!(serve_one_call(raw), agx);
}

#[cfg(target_os = "linux")]
#[test]
fn agx_serve_of_another_build_goes_back_to_the_agx_that_started_it() {
    let home = home_with(&["agx-edge"]);
    let agx = Path::new(AGX).canonicalize().unwrap();
    let raw = Raw::spawn(
        command_in(&home, Path::new(AGX_SERVE))
            .arg("--agx")
            .arg(&agx)
            .args([
                "--build",
                "0.0.0+other",
                "--color",
                "never",
                "--",
                "agx/edge/edge",
            ]),
    );
    assert_eq!(serve_one_call(raw), agx);
}

/// The threads of a running process (Linux: /proc/PID/task).
#[cfg(target_os = "linux")]
fn thread_count(child: &Child) -> usize {
    std::fs::read_dir(format!("/proc/{}/task", child.id()))
        .unwrap()
        .count()
}

#[cfg(target_os = "linux")]
#[test]
fn a_server_that_has_logged_nothing_runs_on_one_thread() {
    // The log's writing threads start with its first line; at `warn`, serving logs none.
    let home = home_with(&["agx-edge"]);
    let mut raw = Raw::start(&home, "agx/edge/edge");
    raw.initialize();
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    assert!(raw.response()["result"]["tools"].is_array());
    assert_eq!(thread_count(&raw.child), 1);
    raw.close();
}

#[test]
fn agx_serve_run_by_a_person_points_to_agx_serve() {
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    let out = home.command(AGX_SERVE).arg("agx/edge/edge").output();
    assert_snapshot!(outcome_of(&out.unwrap()));
}
