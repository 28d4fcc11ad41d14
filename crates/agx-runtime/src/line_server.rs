//! One HTTP session of `agx serve --http @NAME`: rmcp's Streamable HTTP service hands each
//! request of the session to this handler, which passes it as a JSON-RPC line to its own
//! `agx serve @NAME` on stdio (the profile's one implementation, profile.rs) and answers
//! with what comes back. What that process sends on its own (notifications such as
//! progress and `list_changed`, and its members' requests such as sampling, elicitation and
//! roots) goes to the session's client through rmcp's peer, and the client's answers back.
//! A cancelled request is cancelled there too.

#![allow(deprecated)] // logging/setLevel and subscriptions are deprecated by SEP-2577

use std::collections::HashMap;
use std::ffi::OsString;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, InitializeRequestParams, InitializeResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
    ServerNotification, ServerRequest, SetLevelRequestParams, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::sync::oneshot;

use super::stdio::BoundedLines;

/// The session's process and what is waiting on it.
struct Session {
    to_child: tokio::sync::Mutex<tokio::process::ChildStdin>,
    /// Requests sent, by id, waiting for their answer.
    waiting: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    /// The session's client, known from its first request.
    peer: Mutex<Option<Peer<RoleServer>>>,
    next_id: AtomicU64,
    /// Ended with the session (kill on drop).
    _child: Mutex<tokio::process::Child>,
}

#[derive(Clone)]
pub(crate) struct LineServer {
    session: Arc<Session>,
}

impl LineServer {
    /// Start `command` (program and arguments) for a new session.
    pub(crate) fn start(command: &[OsString]) -> Result<LineServer, std::io::Error> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("no command"))?;
        let mut child = tokio::process::Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both streams were piped");
        };
        let session = Arc::new(Session {
            to_child: tokio::sync::Mutex::new(stdin),
            waiting: Mutex::new(HashMap::new()),
            peer: Mutex::new(None),
            next_id: AtomicU64::new(0),
            _child: Mutex::new(child),
        });
        tokio::spawn(read_child(Arc::downgrade(&session), stdout));
        Ok(LineServer { session })
    }

    fn remember_peer(&self, peer: &Peer<RoleServer>) {
        let mut slot = self.session.peer.lock().expect("not poisoned");
        if slot.is_none() {
            *slot = Some(peer.clone());
        }
    }

    /// Send `method` with `params` and wait for its answer (or the client's cancelling).
    async fn ask<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: P,
        context: &RequestContext<RoleServer>,
    ) -> Result<R, ErrorData> {
        self.remember_peer(&context.peer);
        let n = self.session.next_id.fetch_add(1, Ordering::Relaxed);
        let id = Value::String(format!("http-{n}"));
        let mut params = serde_json::to_value(params).unwrap_or(json!({}));
        if params.is_null() {
            params = json!({});
        }
        // The progress token and the rest of `_meta` go with the request.
        if let Ok(Value::Object(meta)) = serde_json::to_value(&context.meta)
            && !meta.is_empty()
            && let Value::Object(p) = &mut params
        {
            p.insert("_meta".into(), Value::Object(meta));
        }
        let (tx, rx) = oneshot::channel();
        self.session
            .waiting
            .lock()
            .expect("not poisoned")
            .insert(id.to_string(), tx);
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        if !self.send(&request).await {
            return Err(ErrorData::internal_error(
                "the profile's process ended",
                None,
            ));
        }
        let answer = tokio::select! {
            answer = rx => answer.map_err(|_| ErrorData::internal_error("the profile's process ended", None))?,
            () = context.ct.cancelled() => {
                self.session.waiting.lock().expect("not poisoned").remove(&id.to_string());
                let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                    "params": {"requestId": id}});
                self.send(&cancel).await;
                return Err(ErrorData::internal_error("cancelled", None));
            }
        };
        if let Some(error) = answer.get("error") {
            return Err(serde_json::from_value(error.clone())
                .unwrap_or_else(|_| ErrorData::internal_error(error.to_string(), None)));
        }
        let result = answer.get("result").cloned().unwrap_or(json!({}));
        serde_json::from_value(result).map_err(|e| {
            ErrorData::internal_error(format!("the profile answered {method} oddly: {e}"), None)
        })
    }

    async fn notify(&self, method: &str) {
        self.send(&json!({"jsonrpc": "2.0", "method": method}))
            .await;
    }

    async fn send(&self, message: &Value) -> bool {
        send_line(&self.session, message).await
    }
}

async fn send_line(session: &Session, message: &Value) -> bool {
    let mut line = message.to_string().into_bytes();
    line.push(b'\n');
    let mut stdin = session.to_child.lock().await;
    stdin.write_all(&line).await.is_ok() && stdin.flush().await.is_ok()
}

/// Pass what the session's process sends: answers to their waiters, the rest to the client.
async fn read_child(session: std::sync::Weak<Session>, stdout: tokio::process::ChildStdout) {
    let mut lines = BoundedLines::new(stdout);
    while let Some(complete) = lines.read_line().await {
        let Some(session) = session.upgrade() else {
            return;
        };
        if !complete {
            continue;
        }
        let Ok(mut message) = serde_json::from_slice::<Value>(lines.line().trim_ascii()) else {
            continue;
        };
        let has_method = message.get("method").is_some();
        let id = message.get("id").cloned();
        let peer = session.peer.lock().expect("not poisoned").clone();
        match (has_method, id) {
            (false, Some(id)) => {
                let waiter = session
                    .waiting
                    .lock()
                    .expect("not poisoned")
                    .remove(&id.to_string());
                if let Some(waiter) = waiter {
                    let _ = waiter.send(message);
                }
            }
            (true, None) => {
                if let (Some(peer), Ok(notification)) =
                    (peer, serde_json::from_value::<ServerNotification>(message))
                {
                    let _ = peer.send_notification(notification).await;
                }
            }
            (true, Some(id)) => {
                // A member's request to the client: asked through rmcp, answered back.
                let session = session.clone();
                tokio::spawn(async move {
                    if let Value::Object(m) = &mut message {
                        m.remove("id");
                        m.remove("jsonrpc");
                    }
                    let answer = match (peer, serde_json::from_value::<ServerRequest>(message)) {
                        (Some(peer), Ok(request)) => match peer.send_request(request).await {
                            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                            Err(e) => json!({"jsonrpc": "2.0", "id": id,
                                "error": {"code": -32603, "message": e.to_string()}}),
                        },
                        _ => json!({"jsonrpc": "2.0", "id": id,
                            "error": {"code": -32601, "message": "the client cannot be asked this"}}),
                    };
                    send_line(&session, &answer).await;
                });
            }
            (false, None) => {}
        }
    }
    // The process ended: every waiter learns it.
    if let Some(session) = session.upgrade() {
        session.waiting.lock().expect("not poisoned").clear();
    }
}

impl ServerHandler for LineServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(Default::default())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.ask("initialize", request, &context).await
    }

    async fn on_initialized(&self, _context: NotificationContext<RoleServer>) {
        self.notify("notifications/initialized").await;
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        self.notify("notifications/roots/list_changed").await;
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.ask("tools/list", request, &context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.ask::<_, rmcp::model::CallToolResult>("tools/call", request, &context)
            .await
            .map(Into::into)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.ask("prompts/list", request, &context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.ask::<_, rmcp::model::GetPromptResult>("prompts/get", request, &context)
            .await
            .map(Into::into)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.ask("resources/list", request, &context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.ask("resources/templates/list", request, &context)
            .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.ask::<_, rmcp::model::ReadResourceResult>("resources/read", request, &context)
            .await
            .map(Into::into)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.ask::<_, Value>("resources/subscribe", request, &context)
            .await
            .map(drop)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.ask::<_, Value>("resources/unsubscribe", request, &context)
            .await
            .map(drop)
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.ask::<_, Value>("logging/setLevel", request, &context)
            .await
            .map(drop)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.ask("completion/complete", request, &context).await
    }
}
