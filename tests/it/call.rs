//! Integration tests: `agx new`, then `agx validate --probe`, `agx call`, `agx prompt` and
//! `agx serve` on what it made; `agx call` without a client.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::{AGX, TestHome, tree, write_files};

fn stdout(output: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&output.get_output().stdout).into_owned()
}

fn stderr(output: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&output.get_output().stderr).into_owned()
}

/// A home with a package made by `agx new <home>/greeter --name acme/greeter --lang <lang>`,
/// probed and installed.
fn new_package_home(lang: &str) -> TestHome {
    let home = TestHome::new();
    let dir = home.home().join("greeter");
    home.agx()
        .args(["new", "--name", "acme/greeter", "--lang", lang])
        .arg(&dir)
        .assert()
        .success();
    home.agx()
        .args(["validate", "--probe"])
        .arg(&dir)
        // An interpreter's start on a loaded test machine can pass the 200 ms default.
        .env("AGX_PROBE_TIMEOUT_MS", "5000")
        .assert()
        .success();
    home.agx().arg("install").arg(&dir).assert().success();
    home
}

/// `agx serve acme/greeter/greeter` answers `tools/list` with the greet tool.
fn assert_serves_greet(home: &TestHome) {
    let mut serve = home
        .command(AGX)
        .args(["serve", "acme/greeter/greeter"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = serve.stdin.take().unwrap();
    let mut lines = BufReader::new(serve.stdout.take().unwrap()).lines();
    for message in [
        json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": { "name": "test", "version": "1" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    let answer = lines
        .by_ref()
        .map(|l| serde_json::from_str::<Value>(&l.unwrap()).unwrap())
        .find(|m| m["id"] == 1)
        .unwrap();
    let tools = answer["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "{answer}");
    assert_eq!(tools[0]["name"], "greet");
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["name"]));
    drop(stdin);
    assert!(serve.wait().unwrap().success());
}

fn assert_new_package_in(lang: &str) {
    let home = new_package_home(lang);
    let called = home
        .agx()
        .args(["call", "acme/greeter/greet", "--arg", "name=Ada Lovelace"])
        .assert()
        .success();
    assert_eq!(stdout(&called), "Hello, Ada Lovelace!\n");
    assert_serves_greet(&home);
}

#[test]
fn a_new_python_package_validates_calls_and_serves() {
    assert_new_package_in("python");
}

#[test]
fn a_new_node_package_validates_calls_and_serves() {
    assert_new_package_in("node");
}

#[test]
fn a_new_sh_package_validates_calls_and_serves() {
    assert_new_package_in("sh");
}

#[test]
fn a_new_package_validates_calls_renders_and_serves() {
    let home = new_package_home("sh");
    let called = home
        .agx()
        .args(["call", "acme/greeter/greet", "--arg", "name=Ada Lovelace"])
        .assert()
        .success();
    assert_eq!(stdout(&called), "Hello, Ada Lovelace!\n");

    let json = home
        .agx()
        .args([
            "call",
            "acme/greeter/greet",
            "--json",
            r#"{"name": "Grace"}"#,
            "--format",
            "json",
        ])
        .assert()
        .success();
    let result: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(
        result["content"][0],
        json!({ "type": "text", "text": "Hello, Grace!\n" })
    );
    assert_eq!(result["isError"], false);

    let rendered = home
        .agx()
        .args(["prompt", "acme/greeter/introduce", "--arg", "name=Ada"])
        .assert()
        .success();
    assert_eq!(
        stdout(&rendered),
        "Write a short, friendly introduction to Ada.\n"
    );

    // The same tool under `agx serve`, called by a client.
    let mut serve = home
        .command(AGX)
        .args(["serve", "acme/greeter/greeter"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = serve.stdin.take().unwrap();
    let mut lines = BufReader::new(serve.stdout.take().unwrap()).lines();
    for message in [
        json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": { "name": "test", "version": "1" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "greet", "arguments": { "name": "Ada" } } }),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    let answer = lines
        .by_ref()
        .map(|l| serde_json::from_str::<Value>(&l.unwrap()).unwrap())
        .find(|m| m["id"] == 1)
        .unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "Hello, Ada!\n");
    drop(stdin);
    assert!(serve.wait().unwrap().success());
}

#[test]
fn new_refuses_a_folder_with_files_and_changes_nothing() {
    let home = TestHome::new();
    let dir = home.home().join("mine");
    write_files(&dir, &[("notes.txt", "keep me")]);
    let before = tree(&dir);
    let refused = home.agx().arg("new").arg(&dir).assert().failure();
    assert!(
        stderr(&refused).contains("is not empty"),
        "{}",
        stderr(&refused)
    );
    assert!(stderr(&refused).contains("hint: choose a new folder"));
    assert_eq!(tree(&dir), before);

    let bad = home
        .agx()
        .arg("new")
        .arg(home.home().join("Not A Name"))
        .assert()
        .failure();
    assert!(
        stderr(&bad).contains("--name publisher/name"),
        "{}",
        stderr(&bad)
    );
}

/// A home with `local/asks`: `sample` asks the client to sample through the channel and
/// prints the answer it got; `fail` prints an error object; `count` takes an integer.
fn asking_home() -> TestHome {
    let home = TestHome::new();
    let dir = home.home().join("asks");
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"local/asks\"\nversion = \"0.1.0\"\n\n[extension]\n\
                 tools = [\"sample\", \"fail\", \"count\"]\n",
            ),
            (
                "agx/tools.toml",
                "[sample]\ncommand = [\"sh\", \"-c\", \"echo 'agx:progress {\\\"progress\\\": 1}' >&2; \
                 echo '{\\\"id\\\":7,\\\"method\\\":\\\"sampling/createMessage\\\",\\\"params\\\":{}}' >&3; \
                 IFS= read -r reply <&3; echo \\\"$reply\\\"\"]\n\
                 [fail]\ncommand = [\"sh\", \"-c\", \"echo '{\\\"error\\\": \\\"no such city\\\"}'\"]\n\
                 [count]\ncommand = [\"sh\", \"-c\", \"cat\"]\n\
                 [[count.parameters]]\nname = \"n\"\ntype = \"integer\"\nrequired = true\n",
            ),
        ],
    );
    home.agx().arg("install").arg(&dir).assert().success();
    home
}

#[test]
fn call_without_a_client_refuses_the_tools_requests_at_once() {
    let home = asking_home();
    let out = home
        .agx()
        .args(["call", "local/asks/sample", "--format", "json"])
        .assert()
        .code(1);
    // The tool printed the answer it got; its `error` key makes the result an error.
    let result: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(result["isError"], true);
    let reply: Value =
        serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(reply["code"], -32601);
    assert!(
        reply["message"].as_str().unwrap().contains("agx call"),
        "{reply}"
    );
    // Progress lines are shown on stderr while the tool runs.
    assert!(stderr(&out).contains("Progress 1"), "{}", stderr(&out));
}

#[test]
fn call_reports_error_results_and_bad_arguments_with_a_failure() {
    let home = asking_home();
    let failed = home
        .agx()
        .args(["call", "local/asks/fail"])
        .assert()
        .code(1);
    assert!(
        stderr(&failed).contains("returned an error"),
        "{}",
        stderr(&failed)
    );
    assert!(stderr(&failed).contains("no such city"));

    let typed = home
        .agx()
        .args(["call", "local/asks/count", "--arg", "n=3"])
        .assert()
        .success();
    assert_eq!(
        serde_json::from_str::<Value>(&stdout(&typed)).unwrap(),
        json!({ "n": 3 })
    );

    let not_json = home
        .agx()
        .args(["call", "local/asks/count", "--arg", "n=three"])
        .assert()
        .code(1);
    assert!(
        stderr(&not_json).contains("`n` takes an integer"),
        "{}",
        stderr(&not_json)
    );
    assert!(stderr(&not_json).contains("hint:"));

    let invalid = home
        .agx()
        .args(["call", "local/asks/count", "--arg", "n=1.5"])
        .assert()
        .code(1);
    assert!(
        stderr(&invalid).contains("argument `n`"),
        "{}",
        stderr(&invalid)
    );

    let unknown = home
        .agx()
        .args(["call", "local/asks/nope"])
        .assert()
        .code(1);
    assert!(
        stderr(&unknown).contains("its tools: local/asks/sample"),
        "{}",
        stderr(&unknown)
    );

    let missing = home.agx().args(["prompt", "acme/none/p"]).assert().code(1);
    assert!(
        stderr(&missing).contains("agx install acme/none"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn call_refuses_an_argument_the_tool_does_not_take() {
    let home = asking_home();
    let out = home
        .agx()
        .args([
            "call",
            "local/asks/count",
            "--arg",
            "n=3",
            "--arg",
            "colour=red",
        ])
        .assert()
        .code(1);
    let err = stderr(&out);
    assert!(
        err.contains("`--arg colour=…`: tool local/asks/count has no argument `colour`"),
        "{err}"
    );
    assert!(err.contains("its arguments: n"), "{err}");
    assert!(
        stdout(&out).is_empty(),
        "the tool did not run: {}",
        stdout(&out)
    );

    let none = home
        .agx()
        .args(["call", "local/asks/fail", "--arg", "city=Oslo"])
        .assert()
        .code(1);
    assert!(
        stderr(&none).contains("it takes no arguments"),
        "{}",
        stderr(&none)
    );
}
