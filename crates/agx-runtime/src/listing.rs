//! The tools a server lists, unfiltered, for `agx tools`: an agx server's from its assembly;
//! a wrapped server's by starting it as `agx serve` would and asking it (`initialize`, then
//! `tools/list` page by page); a remote server's over Streamable HTTP.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::assemble::{Assembled, WrappedServer};
use super::{Runtime, ServeError, block_on_current_thread, bridge};

/// How long a wrapped or remote server may take to start and list its tools (an `npx` or
/// `uvx` server may first fetch its packages).
const LISTING_DEADLINE: Duration = Duration::from_secs(120);

/// Every tool `assembled` lists, as `tools/list` entries.
pub fn list_tools(assembled: Assembled) -> Result<Vec<Value>, ServeError> {
    match assembled {
        Assembled::Native(mut assembly) => {
            // What a client sees: serve withholds poisoned items (docs/security.md).
            crate::poison::hide_poisoned(&mut assembly);
            let runtime = Runtime::new(assembly);
            Ok(runtime
                .tool_list()
                .iter()
                .map(|t| serde_json::to_value(t).unwrap_or(Value::Null))
                .collect())
        }
        Assembled::Wrapped(w) => {
            let server = w.server.to_string();
            let failed = |detail: String| ServeError::Listing {
                server: server.clone(),
                detail,
            };
            block_on_current_thread(async {
                let listing = async {
                    match &w.url {
                        Some(url) => list_remote(&w, url).await,
                        None => list_local(&w).await,
                    }
                };
                match tokio::time::timeout(LISTING_DEADLINE, listing).await {
                    Ok(result) => result,
                    Err(_) => Err(failed(format!(
                        "it did not answer within {} s",
                        LISTING_DEADLINE.as_secs()
                    ))),
                }
            })
        }
    }
}

async fn list_remote(w: &WrappedServer, url: &str) -> Result<Vec<Value>, ServeError> {
    use rmcp::ServiceExt;
    let remote = bridge::Remote::of(w, url, &w.headers)?;
    let failed = |detail: String| ServeError::Listing {
        server: w.server.to_string(),
        detail: remote.redact(&detail),
    };
    let transport = remote.transport().map_err(&failed)?;
    let client = ().serve(transport).await.map_err(|e| failed(e.to_string()))?;
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| failed(e.to_string()))?;
    let _ = client.cancel().await;
    Ok(tools
        .iter()
        .map(|t| serde_json::to_value(t).unwrap_or(Value::Null))
        .collect())
}

/// Start the wrapped server's program and ask it, as a client would.
async fn list_local(w: &WrappedServer) -> Result<Vec<Value>, ServeError> {
    let (program, command) = super::wrapped::command(w)?;
    let mut command = tokio::process::Command::from(command);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|source| ServeError::Wrapped {
        server: w.server.clone(),
        program,
        source,
    })?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        unreachable!("both streams were piped");
    };
    let mut session = Session {
        server: w.server.to_string(),
        stdin,
        lines: BufReader::new(stdout).lines(),
    };
    session
        .request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "agx tools", "version": env!("CARGO_PKG_VERSION")}}),
        )
        .await?;
    session
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await?;
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for id in 1.. {
        let params = match &cursor {
            Some(c) => json!({ "cursor": c }),
            None => json!({}),
        };
        let mut result = session.request(id, "tools/list", params).await?;
        if let Some(Value::Array(page)) = result.get_mut("tools").map(Value::take) {
            tools.extend(page);
        }
        cursor = result
            .get("nextCursor")
            .and_then(Value::as_str)
            .map(str::to_string);
        if cursor.is_none() {
            break;
        }
    }
    drop(session);
    let _ = child.kill().await;
    Ok(tools)
}

/// A minimal JSON-RPC client on a server's standard streams.
struct Session {
    server: String,
    stdin: tokio::process::ChildStdin,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Session {
    fn failed(&self, detail: impl Into<String>) -> ServeError {
        ServeError::Listing {
            server: self.server.clone(),
            detail: detail.into(),
        }
    }

    async fn send(&mut self, message: &Value) -> Result<(), ServeError> {
        let line = format!("{message}\n");
        self.stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|e| self.failed(format!("it stopped reading: {e}")))
    }

    /// Send a request and wait for its result. The server's own requests are answered
    /// "method not found" (there is no user to ask); notifications are skipped.
    async fn request(&mut self, id: u64, method: &str, params: Value) -> Result<Value, ServeError> {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        loop {
            let line = match self.lines.next_line().await {
                Ok(Some(line)) => line,
                Ok(None) => {
                    return Err(self.failed(format!("it exited before answering `{method}`")));
                }
                Err(e) => return Err(self.failed(e.to_string())),
            };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("method").is_some() {
                if let Some(their_id) = message.get("id") {
                    let refusal = json!({"jsonrpc": "2.0", "id": their_id,
                        "error": {"code": -32601, "message": "agx tools answers no requests"}});
                    self.send(&refusal).await?;
                }
                continue;
            }
            if message.get("id") != Some(&json!(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(self.failed(format!("`{method}` failed: {error}")));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}
