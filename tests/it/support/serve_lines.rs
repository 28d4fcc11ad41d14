//! `agx serve` on stdio driven by raw JSON-RPC lines, every message kept: for tests that
//! check what passes through untouched (progress, cancellation, sampling requests).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use super::{AGX, TestHome};

pub(crate) struct ServeLines {
    child: Child,
    /// `None` once [`ServeLines::finish`] closed it.
    stdin: Option<ChildStdin>,
    rx: mpsc::Receiver<Value>,
    /// The pipes to and from the process, as /proc names them (`pipe:[INODE]`; Linux).
    pipes: (std::path::PathBuf, std::path::PathBuf),
}

impl ServeLines {
    /// `agx serve SERVED` (a server or an `@profile`) in `cwd`.
    pub(crate) fn start(home: &TestHome, served: &str, cwd: &Path) -> ServeLines {
        let mut child = crate::ecosystem::command(home, AGX)
            .args(["serve", served])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("agx serve starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let pipes = (pipe_name(&stdin), pipe_name(&stdout));
        let stdout = BufReader::new(stdout);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let message = serde_json::from_str(&line).expect("stdout carries JSON-RPC");
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        ServeLines {
            child,
            stdin: Some(stdin),
            rx,
            pipes,
        }
    }

    /// The pid of the process of `agx serve`.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The client's pipes to and from the process, as /proc names them (Linux).
    pub(crate) fn client_pipes(&self) -> (std::path::PathBuf, std::path::PathBuf) {
        self.pipes.clone()
    }

    /// The program the process of `agx serve` now runs (Linux only: /proc).
    #[cfg(target_os = "linux")]
    pub(crate) fn program(&self) -> String {
        let exe = std::fs::read_link(format!("/proc/{}/exe", self.child.id())).unwrap();
        exe.file_name().unwrap().to_string_lossy().into_owned()
    }

    /// The pids of the processes the process of `agx serve` started (Linux only).
    #[cfg(target_os = "linux")]
    pub(crate) fn children(&self) -> Vec<String> {
        let pid = self.child.id();
        let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"));
        children
            .unwrap()
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    /// The programs of [`ServeLines::children`].
    #[cfg(target_os = "linux")]
    pub(crate) fn children_programs(&self) -> Vec<String> {
        self.children()
            .iter()
            .filter_map(|child| std::fs::read_link(format!("/proc/{child}/exe")).ok())
            .map(|exe| exe.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    /// Whether the process of `agx serve` has exited.
    pub(crate) fn exited(&mut self) -> bool {
        self.child.try_wait().unwrap().is_some()
    }

    pub(crate) fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().expect("not finished");
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    pub(crate) fn next(&mut self) -> Value {
        // A guard against a hung server, not a timing assertion.
        self.rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the server sends a message")
    }

    /// Read until the response to `id`; every message before it is returned with it.
    pub(crate) fn until_response(&mut self, id: &Value) -> (Value, Vec<Value>) {
        let mut before = Vec::new();
        loop {
            let m = self.next();
            if &m["id"] == id && m.get("method").is_none() {
                return (m, before);
            }
            before.push(m);
        }
    }

    pub(crate) fn request(&mut self, id: u64, method: &str, params: Value) -> (Value, Vec<Value>) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.until_response(&json!(id))
    }

    /// A request of an MCP 2026-07-28 client: no session; version, capabilities (sampling
    /// and elicitation) and name in its `_meta`.
    pub(crate) fn modern_request(
        &mut self,
        id: u64,
        method: &str,
        mut params: Value,
    ) -> (Value, Vec<Value>) {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"sampling": {}, "elicitation": {}},
            "io.modelcontextprotocol/clientInfo": {"name": "agx-test-modern", "version": "1"},
        });
        self.request(id, method, params)
    }

    /// `initialize` with `capabilities`, then `notifications/initialized`.
    pub(crate) fn initialize(&mut self, capabilities: Value) -> Value {
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

    /// The names in the `array` of the answer to a list `method`.
    pub(crate) fn names(&mut self, id: u64, method: &str, array: &str) -> Vec<String> {
        let (list, _) = self.request(id, method, json!({}));
        list["result"][array]
            .as_array()
            .unwrap_or_else(|| panic!("a list: {list}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }

    pub(crate) fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
        .0
    }

    /// What the real server-everything's tools (named `{prefix}longRunningOperation` and
    /// `{prefix}sampleLLM` here) show of the paths through agx, with ids from `first_id`:
    /// progress for a call's token reaches the client before its result; a cancelled call
    /// gets no answer; the server's sampling request reaches the client and the answer
    /// reaches the server back. The session must have been initialized with sampling.
    pub(crate) fn check_progress_cancellation_and_sampling(&mut self, prefix: &str, first_id: u64) {
        let long = format!("{prefix}longRunningOperation");
        let (done, before) = self.request(
            first_id,
            "tools/call",
            json!({"name": long, "arguments": {"duration": 1, "steps": 2},
                   "_meta": {"progressToken": "p-1"}}),
        );
        assert!(done["result"].is_object(), "{done}");
        assert!(
            before
                .iter()
                .any(|m| m["method"] == "notifications/progress"
                    && m["params"]["progressToken"] == "p-1"),
            "{before:?}"
        );

        // The later, longer call is answered first, which it could not be if the cancelled
        // one had run on.
        let cancelled = first_id + 1;
        self.send(
            json!({"jsonrpc": "2.0", "id": cancelled, "method": "tools/call",
                  "params": {"name": long, "arguments": {"duration": 1, "steps": 1}}}),
        );
        self.send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": cancelled, "reason": "test"}}),
        );
        let (longer, before) = self.request(
            first_id + 2,
            "tools/call",
            json!({"name": long, "arguments": {"duration": 3, "steps": 1}}),
        );
        assert!(longer["result"].is_object(), "{longer}");
        assert!(
            !before
                .iter()
                .any(|m| m["id"] == cancelled && m.get("method").is_none()),
            "the cancelled call was answered: {before:?}"
        );

        let sampled = first_id + 3;
        self.send(
            json!({"jsonrpc": "2.0", "id": sampled, "method": "tools/call",
                  "params": {"name": format!("{prefix}sampleLLM"),
                             "arguments": {"prompt": "hi", "maxTokens": 10}}}),
        );
        let request = loop {
            let m = self.next();
            if m["method"] == "sampling/createMessage" {
                break m;
            }
        };
        self.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": {
            "role": "assistant", "model": "agx-test",
            "content": {"type": "text", "text": "sampled through agx"}}}));
        let (result, _) = self.until_response(&json!(sampled));
        assert!(
            result.to_string().contains("sampled through agx"),
            "{result}"
        );
    }
}

impl ServeLines {
    /// Close stdin as a client that is done does, and wait (at most 10 s) for the server to
    /// exit, and on Linux for the processes it started too (agx's proxy forked beside a
    /// wrapped server writes the log): what it logged is then written out (a killed server
    /// may lose queued lines).
    pub(crate) fn finish(&mut self) {
        #[cfg(target_os = "linux")]
        let children = self.children();
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        #[cfg(target_os = "linux")]
        for child in children {
            while !crate::ecosystem::process_ended(&child) && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

/// What /proc calls the pipe behind `end` (`pipe:[INODE]`); empty where there is no /proc.
#[cfg(unix)]
fn pipe_name(end: &impl std::os::fd::AsRawFd) -> std::path::PathBuf {
    std::fs::read_link(format!("/proc/self/fd/{}", end.as_raw_fd())).unwrap_or_default()
}

#[cfg(windows)]
fn pipe_name<T>(_end: &T) -> std::path::PathBuf {
    std::path::PathBuf::new()
}

impl Drop for ServeLines {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
