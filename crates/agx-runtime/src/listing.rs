//! What a server lists, unfiltered, for `agx tools` and `agx trust`: an agx server's from its
//! assembly; a wrapped server's by starting it as `agx serve` would and asking it
//! (`initialize`, then each list page by page); a remote server's over Streamable HTTP.

use std::collections::BTreeMap;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::assemble::{Assembled, WrappedServer};
use super::{Runtime, ServeError, block_on_current_thread, bridge};
use agx_store::pins::PinnedList;

/// How long a wrapped or remote server may take to start and list its tools (an `npx` or
/// `uvx` server may first fetch its packages).
const LISTING_DEADLINE: Duration = Duration::from_secs(120);

/// Every tool `assembled` lists, as `tools/list` entries.
pub fn list_tools(assembled: Assembled) -> Result<Vec<Value>, ServeError> {
    let mut lists = list_definitions(assembled, &[PinnedList::Tools])?;
    Ok(lists.remove(&PinnedList::Tools).unwrap_or_default())
}

/// The items of each of `lists` that `assembled` offers, as its list methods answer them
/// (a list the server does not offer is absent).
pub fn list_definitions(
    assembled: Assembled,
    lists: &[PinnedList],
) -> Result<Definitions, ServeError> {
    match assembled {
        Assembled::Native(mut assembly) => {
            // What a client sees: serve withholds poisoned items (docs/security.md).
            crate::poison::hide_poisoned(&mut assembly);
            let server = assembly.server.to_string();
            let runtime = Runtime::new(assembly);
            let mut out = Definitions::new();
            for list in lists {
                let items: Vec<Value> = match list {
                    PinnedList::Tools => values(runtime.tool_list()),
                    PinnedList::Prompts => values(runtime.prompt_list()),
                    PinnedList::ResourceTemplates => {
                        let mut items = Vec::new();
                        let mut cursor: Option<String> = None;
                        loop {
                            let (page, next) = runtime
                                .resources
                                .templates(cursor.as_deref())
                                .map_err(|e| ServeError::Listing {
                                    server: server.clone(),
                                    detail: e.message.to_string(),
                                })?;
                            items.extend(values(&page));
                            match next {
                                Some(next) => cursor = Some(next),
                                None => break,
                            }
                        }
                        items
                    }
                };
                out.insert(*list, items);
            }
            Ok(out)
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
                        Some(url) => list_remote(&w, url, lists).await,
                        None => list_local(&w, lists).await,
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

/// Each list's items, by list.
pub type Definitions = BTreeMap<PinnedList, Vec<Value>>;

/// `items` as JSON values.
fn values<T: serde::Serialize>(items: &[T]) -> Vec<Value> {
    items
        .iter()
        .map(|i| serde_json::to_value(i).unwrap_or(Value::Null))
        .collect()
}

async fn list_remote(
    w: &WrappedServer,
    url: &str,
    lists: &[PinnedList],
) -> Result<Definitions, ServeError> {
    use rmcp::ServiceExt;
    let remote = bridge::Remote::of(w, url, &w.headers)?;
    let failed = |detail: String| ServeError::Listing {
        server: w.server.to_string(),
        detail: remote.redact(&detail),
    };
    let transport = remote.transport().await.map_err(&failed)?;
    let client = ().serve(transport).await.map_err(|e| failed(e.to_string()))?;
    let capabilities = client
        .peer_info()
        .map(|info| info.capabilities.clone())
        .unwrap_or_default();
    let mut out = Definitions::new();
    for list in lists {
        let items = match list {
            PinnedList::Tools if capabilities.tools.is_some() => values(
                &client
                    .list_all_tools()
                    .await
                    .map_err(|e| failed(e.to_string()))?,
            ),
            PinnedList::Prompts if capabilities.prompts.is_some() => values(
                &client
                    .list_all_prompts()
                    .await
                    .map_err(|e| failed(e.to_string()))?,
            ),
            PinnedList::ResourceTemplates if capabilities.resources.is_some() => values(
                &client
                    .list_all_resource_templates()
                    .await
                    .map_err(|e| failed(e.to_string()))?,
            ),
            _ => continue,
        };
        out.insert(*list, items);
    }
    let _ = client.cancel().await;
    Ok(out)
}

/// Start the wrapped server's program and ask it, as a client would.
async fn list_local(w: &WrappedServer, lists: &[PinnedList]) -> Result<Definitions, ServeError> {
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
    let initialized = session
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
    let mut out = Definitions::new();
    let mut id = 0;
    for list in lists {
        // Tools are asked for even when undeclared (some servers answer without declaring
        // them); prompts and templates only of a server that offers them.
        let declared = initialized.pointer(&format!("/capabilities/{}", list.capability()));
        if declared.is_none() && *list != PinnedList::Tools {
            continue;
        }
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            id += 1;
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let mut result = session.request(id, list.method(), params).await?;
            if let Some(Value::Array(page)) = result.get_mut(list.array()).map(Value::take) {
                items.extend(page);
            }
            cursor = result
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_string);
            if cursor.is_none() {
                break;
            }
        }
        out.insert(*list, items);
    }
    drop(session);
    let _ = child.kill().await;
    Ok(out)
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
