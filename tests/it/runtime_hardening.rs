//! Integration tests: `agx serve` against hostile tools and templates. Each runs the real
//! server on a package generated here, speaking raw JSON-RPC over pipes, with real tool
//! processes. A stuck server fails a test through `Server::reply`'s deadline instead of
//! hanging it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::TestHome;

/// How long a reply may take before the server counts as stuck. Generous: the machine may be
/// busy compiling; only a server that never answers gets near it.
const STUCK: Duration = Duration::from_secs(90);

const SERVER: &str = "test/hardening/hard";

const AGX_TOML: &str = r#"[package]
name = "test/hardening"
version = "0.1.0"
description = "Fixture: tools and prompts that misbehave on purpose"
license = "MIT"

[extension]
servers = ["hard"]
tools = [
    "noisy", "stderr_flood", "escape_setsid", "escape_double_fork", "escape_then_hang",
    "escape_then_wait",
]
prompts = ["endless", "huge", "hello"]
"#;

const SERVERS_TOML: &str = r#"[hard]
name = "hard"
description = "Everything in this package"
tools = [
    "noisy", "stderr_flood", "escape_setsid", "escape_double_fork", "escape_then_hang",
    "escape_then_wait",
]
prompts = ["endless", "huge", "hello"]
"#;

const TOOLS_TOML: &str = r#"[noisy]
name = "noisy"
description = "Writes 20,000 plain lines (2 MB) to stderr, then answers"
command = ["sh", "-c", "cat >/dev/null; yes 'a plain diagnostic line from a tool that logs far too much' | head -n 20000 >&2; echo done"]

[stderr_flood]
name = "stderr_flood"
description = "Writes 100 MB of stderr lines, then answers"
command = ["sh", "-c", "cat >/dev/null; yes 'a plain diagnostic line from a tool that floods its stderr, eighty' | head -c 100000000 >&2; echo done"]
timeout = 300

[escape_setsid]
name = "escape_setsid"
description = "Starts a child in a new session, then answers"
command = ["sh", "bin/escape.sh", "setsid", "exit"]

[escape_double_fork]
name = "escape_double_fork"
description = "Daemonises a child (double fork and setsid), then answers"
command = ["sh", "bin/escape.sh", "double_fork", "exit"]

[escape_then_hang]
name = "escape_then_hang"
description = "Starts a child in a new session, then outlives its timeout"
command = ["sh", "bin/escape.sh", "setsid", "hang"]
timeout = 1

[escape_then_wait]
name = "escape_then_wait"
description = "Daemonises a child, then waits to be cancelled"
command = ["sh", "bin/escape.sh", "double_fork", "hang"]
timeout = 300
"#;

const ESCAPE_SH: &str = r#"#!/bin/sh
# escape.sh setsid|double_fork exit|hang: leave a `sleep` running outside the tool's process
# group, write its pid to $HOME/escaped.pid, then answer or hang.
cat >/dev/null
daemon='echo $$ > "$HOME/escaped.pid.tmp" && mv "$HOME/escaped.pid.tmp" "$HOME/escaped.pid"; exec sleep 300'
case $1 in
    setsid) setsid sh -c "$daemon" </dev/null >/dev/null 2>&1 & ;;
    double_fork) ( setsid sh -c "$daemon" </dev/null >/dev/null 2>&1 & ) ;;
esac
while [ ! -f "$HOME/escaped.pid" ]; do sleep 0.01; done
case $2 in
    exit) echo '{"ok": true}' ;;
    hang) sleep 300 ;;
esac
"#;

const PROMPTS_TOML: &str = r#"[endless]
name = "endless"
description = "Ten billion loop iterations that print nothing"
content = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"

[huge]
name = "huge"
description = "Renders 100 MB"
content = "{% for i in range(10000) %}{{ 'x' * 10000 }}{% endfor %}"

[hello]
name = "hello"
description = "A well-behaved prompt"
content = "Hello!"
"#;

/// A home with the fixture package installed from a folder written here.
fn installed_home() -> TestHome {
    let home = TestHome::new();
    let package = home.home().join("src/hardening");
    for (path, text) in [
        ("agx.toml", AGX_TOML),
        ("agx/servers.toml", SERVERS_TOML),
        ("agx/tools.toml", TOOLS_TOML),
        ("agx/prompts.toml", PROMPTS_TOML),
        ("bin/escape.sh", ESCAPE_SH),
    ] {
        let path = package.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    home.agx().arg("install").arg(&package).assert().success();
    home
}

/// A running `agx serve`, spoken to line by line. Replies are read on a thread so that a
/// stuck server fails the test instead of hanging it.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: mpsc::Receiver<Value>,
}

impl Server {
    /// `agx serve` of the fixture server with this stderr, logging at `info`.
    fn start(home: &TestHome, stderr: Stdio) -> Server {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agx"))
            .args(["serve", SERVER])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home.home())
            .env("AGX_HOME", home.agx_home())
            .env("AGX_OFFICIAL_REGISTRY", "off")
            .env("AGX_LOG", "info")
            .current_dir(home.home())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                let message: Value = serde_json::from_str(&line).expect("stdout carries JSON-RPC");
                if message.get("method").is_none() && tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            stdin: child.stdin.take(),
            child,
            replies,
        };
        server.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hardening", "version": "1"}}}),
        );
        assert_eq!(server.reply()["id"], 0);
        server.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next response (notifications are skipped).
    fn reply(&self) -> Value {
        self.replies
            .recv_timeout(STUCK)
            .unwrap_or_else(|_| panic!("agx serve sent no reply within {STUCK:?}: it is stuck"))
    }

    fn call(&mut self, id: u64, tool: &str) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": {}}}));
    }

    fn get_prompt(&mut self, id: u64, prompt: &str) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get",
            "params": {"name": prompt}}));
    }

    fn ping(&mut self, id: u64) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
    }

    /// Close stdin and wait for the server to exit; panics if it does not.
    fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        for _ in 0..STUCK.as_millis() / 10 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("agx serve did not exit within {STUCK:?} of stdin closing");
    }
}

/// A failing test must not leave a server running (one rendering forever burns a core).
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A field of /proc/PID/status in kB (e.g. `VmHWM`, the peak resident memory).
fn status_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

/// Whether `pid` still runs (a zombie has ended: only its exit status is left).
#[cfg(unix)]
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Wait (up to `STUCK`) for `pid` to end; panics naming it if it does not.
#[cfg(unix)]
fn assert_ends(pid: u32, what: &str) {
    for _ in 0..STUCK.as_millis() / 10 {
        if !running(pid) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // Do not leave it behind for the next test run.
    // SAFETY: kill only sends a signal.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    panic!("{what} (pid {pid}) still runs");
}

/// The pid the escaping child wrote.
#[cfg(unix)]
fn escaped_pid(home: &TestHome) -> u32 {
    let path = home.home().join("escaped.pid");
    for _ in 0..STUCK.as_millis() / 10 {
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{} never appeared", path.display());
}

fn log_file(home: &TestHome) -> PathBuf {
    home.agx_home().join("logs/test-hardening-hard.log")
}

// ---------------------------------------------------------------------------------------
// Logging never blocks the protocol

#[test]
fn a_client_that_never_reads_stderr_still_gets_answers() {
    let home = installed_home();
    let (stderr_read, stderr_write) = std::io::pipe().unwrap();
    let mut server = Server::start(&home, Stdio::from(stderr_write));
    // 2 MB of tool stderr, logged line by line to a pipe nobody reads (64 KiB fill it).
    server.call(1, "noisy");
    let reply = server.reply();
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["result"]["content"][0]["text"], "done\n");
    server.ping(2);
    assert_eq!(server.reply()["id"], 2);
    // The log file is written on its own and did not wait for stderr either.
    let logged = std::fs::read_to_string(log_file(&home)).unwrap();
    assert!(
        logged.contains("tool noisy: a plain diagnostic line"),
        "{logged}"
    );

    // Once stderr is read again, the server says how many lines it dropped.
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        BufReader::new(stderr_read)
            .read_to_string(&mut text)
            .unwrap();
        text
    });
    server.call(3, "noisy");
    assert_eq!(server.reply()["id"], 3);
    assert!(server.close().success());
    let stderr = reader.join().unwrap();
    let dropped = stderr
        .lines()
        .find(|l| l.contains("log lines dropped"))
        .unwrap_or_else(|| panic!("no report of dropped lines in {} bytes", stderr.len()));
    assert!(
        dropped.starts_with("agx serve: warn: ") && dropped.contains("stderr"),
        "{dropped}"
    );
}

#[test]
fn a_tool_flooding_stderr_does_not_take_the_server_s_memory() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.call(1, "stderr_flood");
    let reply = server.reply();
    assert_eq!(reply["result"]["content"][0]["text"], "done\n");
    let peak_kb = status_kb(server.pid(), "VmHWM");
    assert!(
        peak_kb < 100 * 1024,
        "agx serve peaked at {} MiB while a tool wrote 100 MB to stderr",
        peak_kb / 1024
    );
    assert!(server.close().success());
}

// ---------------------------------------------------------------------------------------
// Every process a call starts ends with it

#[cfg(unix)]
#[test]
fn a_child_in_a_new_session_ends_with_the_call() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.call(1, "escape_setsid");
    assert_eq!(server.reply()["result"]["structuredContent"]["ok"], true);
    assert_ends(escaped_pid(&home), "the setsid child of a finished call");
    assert!(server.close().success());
}

#[cfg(unix)]
#[test]
fn a_daemonised_child_ends_with_the_call() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.call(1, "escape_double_fork");
    assert_eq!(server.reply()["result"]["structuredContent"]["ok"], true);
    assert_ends(
        escaped_pid(&home),
        "the daemonised child of a finished call",
    );
    // The server reaped what it ended: no zombies are left behind.
    server.ping(2);
    assert_eq!(server.reply()["id"], 2);
    assert!(server.close().success());
}

#[cfg(unix)]
#[test]
fn an_escaped_child_ends_when_its_call_times_out() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.call(1, "escape_then_hang");
    let reply = server.reply();
    assert_eq!(reply["result"]["isError"], true);
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("timeout of 1 s"), "{text}");
    assert_ends(escaped_pid(&home), "the setsid child of a timed-out call");
    assert!(server.close().success());
}

#[cfg(unix)]
#[test]
fn an_escaped_child_ends_when_its_call_is_cancelled() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.call(1, "escape_then_wait");
    let escaped = escaped_pid(&home);
    server.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "test"}}),
    );
    assert_ends(escaped, "the daemonised child of a cancelled call");
    server.ping(2);
    assert_eq!(server.reply()["id"], 2);
    assert!(server.close().success());
}

// ---------------------------------------------------------------------------------------
// Templates run on a budget, beside the protocol

#[test]
fn ping_answers_while_an_endless_template_renders() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.get_prompt(1, "endless");
    server.ping(2);
    assert_eq!(server.reply()["id"], 2, "ping waited for the render");
    // The render stops at its budget with an error that says so.
    let reply = server.reply();
    assert_eq!(reply["id"], 1);
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("prompt `endless`") && message.contains("budget"),
        "{message}"
    );
    assert!(server.close().success());
}

#[test]
fn a_render_can_be_cancelled() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.get_prompt(1, "endless");
    server.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "test"}}),
    );
    server.get_prompt(2, "hello");
    // The cancelled request gets no reply; the next one is answered.
    let reply = server.reply();
    assert_eq!(reply["id"], 2);
    assert_eq!(reply["result"]["messages"][0]["content"]["text"], "Hello!");
    assert!(server.close().success());
}

#[test]
fn closing_stdin_ends_the_server_during_a_render() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.get_prompt(1, "endless");
    server.ping(2);
    assert_eq!(server.reply()["id"], 2);
    // `close` fails the test if the server outlives its stdin.
    server.close();
}

#[test]
fn a_template_s_output_is_capped() {
    let home = installed_home();
    let mut server = Server::start(&home, Stdio::null());
    server.get_prompt(1, "huge");
    let reply = server.reply();
    let message = reply["error"]["message"].as_str().unwrap_or_else(|| {
        panic!(
            "a 100 MB render was answered: {} bytes",
            reply.to_string().len()
        )
    });
    assert!(
        message.contains("prompt `huge`") && message.contains("1 MiB"),
        "{message}"
    );
    let peak_kb = status_kb(server.pid(), "VmHWM");
    assert!(
        peak_kb < 100 * 1024,
        "agx serve peaked at {} MiB rendering a 100 MB template",
        peak_kb / 1024
    );
    assert!(server.close().success());
}
