//! One HTTP session of `agx serve --http @NAME`: rmcp's Streamable HTTP service hands each
//! request of the session to this handler, which passes it as a JSON-RPC line to an
//! `agx serve @NAME` on stdio (the profile's one implementation, profile.rs) and answers
//! with what comes back. What that process sends on its own (notifications such as
//! progress and `list_changed`, and its members' requests such as sampling, elicitation and
//! roots) goes to the session's client through rmcp's peer, and the client's answers back.
//! A cancelled request is cancelled there too.
//!
//! A legacy (2025-11-25) session, opened with `initialize`, has a process of its own. An
//! MCP 2026-07-28 client has no session: rmcp serves each of its requests alone, so they
//! all go to one process shared by modern requests, which answers them statelessly
//! (era_adapter.rs): a call suspended with `input_required` is resumed by the retry there,
//! and no request starts the profile's servers again.

#![allow(deprecated)] // logging/setLevel and subscriptions are deprecated by SEP-2577

use std::collections::HashMap;
use std::ffi::OsString;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, DiscoverResult,
    GetPromptRequestParams, GetPromptResponse, InitializeRequestParams, InitializeResult,
    InputRequiredResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, ServerNotification, ServerRequest, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::sync::oneshot;

use super::era::SUBSCRIPTION_ID;
use super::stdio::BoundedLines;

/// A profile process and what is waiting on it.
struct Session {
    to_child: tokio::sync::Mutex<tokio::process::ChildStdin>,
    /// Requests sent, by id, waiting for their answer.
    waiting: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    /// The client its messages go to: a legacy session's, known from its first request; for
    /// the shared modern process, the latest request's.
    peer: Mutex<Option<Peer<RoleServer>>>,
    next_id: AtomicU64,
    /// Set when its output ended (the process exited).
    ended: AtomicBool,
    /// Open `subscriptions/listen` streams of modern clients, by the id's text agx gave the
    /// process: their notifications go to the client's stream.
    streams: Mutex<HashMap<String, SubscriptionSink>>,
    /// Ended with the last holder (kill on drop).
    _child: Mutex<tokio::process::Child>,
}

impl Session {
    /// Start `command` (program and arguments).
    fn start(command: &[OsString]) -> Result<Arc<Session>, std::io::Error> {
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
            ended: AtomicBool::new(false),
            streams: Mutex::new(HashMap::new()),
            _child: Mutex::new(child),
        });
        tokio::spawn(read_child(Arc::downgrade(&session), stdout));
        Ok(session)
    }
}

/// The process modern requests share, started by the first of them (again if it ended).
type SharedSession = Arc<tokio::sync::Mutex<Option<Arc<Session>>>>;

#[derive(Clone)]
pub(crate) struct LineServer {
    command: Arc<[OsString]>,
    modern: SharedSession,
    /// The profile's capabilities, once an answer to `server/discover` or `initialize`
    /// told them: rmcp acknowledges a stream only for what they declare.
    capabilities: Arc<Mutex<Option<ServerCapabilities>>>,
    /// The process this session's requests go to, chosen by its first request.
    session: Arc<tokio::sync::OnceCell<Arc<Session>>>,
}

impl LineServer {
    /// What makes the handler of each new HTTP session for `command` (program and
    /// arguments): nothing starts until a request comes.
    pub(crate) fn sessions(
        command: Vec<OsString>,
    ) -> impl Fn() -> Result<LineServer, std::io::Error> + Send + Sync + 'static {
        let command: Arc<[OsString]> = command.into();
        let modern = SharedSession::default();
        let capabilities = Arc::default();
        move || {
            Ok(LineServer {
                command: command.clone(),
                modern: modern.clone(),
                capabilities: Arc::clone(&capabilities),
                session: Arc::default(),
            })
        }
    }

    /// The process for this session: the shared one when its first request is a modern
    /// client's (its `_meta` names the protocol version), else one of its own.
    async fn session(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<Arc<Session>, ErrorData> {
        let failed = |e: std::io::Error| {
            ErrorData::internal_error(format!("cannot start the profile: {e}"), None)
        };
        let modern = context.meta.contains_key(super::era::VERSION_KEY);
        let session = self
            .session
            .get_or_try_init(|| async {
                if !modern {
                    return Session::start(&self.command).map_err(failed);
                }
                self.modern_session().await
            })
            .await?
            .clone();
        let mut slot = session.peer.lock().expect("not poisoned");
        if slot.is_none() || modern {
            *slot = Some(context.peer.clone());
        }
        drop(slot);
        Ok(session)
    }

    /// The process modern requests share, started now if none runs.
    async fn modern_session(&self) -> Result<Arc<Session>, ErrorData> {
        let mut shared = self.modern.lock().await;
        match shared.as_ref() {
            Some(running) if !running.ended.load(Ordering::Relaxed) => Ok(running.clone()),
            _ => {
                let started = Session::start(&self.command).map_err(|e| {
                    ErrorData::internal_error(format!("cannot start the profile: {e}"), None)
                })?;
                *shared = Some(started.clone());
                Ok(started)
            }
        }
    }

    /// Send `method` with `params` and wait for its answer (or the client's cancelling).
    async fn ask<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: P,
        context: &RequestContext<RoleServer>,
    ) -> Result<R, ErrorData> {
        let session = self.session(context).await?;
        let n = session.next_id.fetch_add(1, Ordering::Relaxed);
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
        session
            .waiting
            .lock()
            .expect("not poisoned")
            .insert(id.to_string(), tx);
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        if !send_line(&session, &request).await {
            return Err(ErrorData::internal_error(
                "the profile's process ended",
                None,
            ));
        }
        let answer = tokio::select! {
            answer = rx => answer.map_err(|_| ErrorData::internal_error("the profile's process ended", None))?,
            () = context.ct.cancelled() => {
                session.waiting.lock().expect("not poisoned").remove(&id.to_string());
                let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                    "params": {"requestId": id}});
                send_line(&session, &cancel).await;
                return Err(ErrorData::internal_error("cancelled", None));
            }
        };
        if let Some(error) = answer.get("error") {
            return Err(serde_json::from_value(error.clone())
                .unwrap_or_else(|_| ErrorData::internal_error(error.to_string(), None)));
        }
        let result = answer.get("result").cloned().unwrap_or(json!({}));
        if matches!(method, "server/discover" | "initialize")
            && let Some(Ok(capabilities)) = result
                .get("capabilities")
                .map(|c| serde_json::from_value::<ServerCapabilities>(c.clone()))
        {
            *self.capabilities.lock().expect("not poisoned") = Some(capabilities);
        }
        serde_json::from_value(result).map_err(|e| {
            ErrorData::internal_error(format!("the profile answered {method} oddly: {e}"), None)
        })
    }

    /// A notification to this session's process, once a request chose it.
    async fn notify(&self, method: &str) {
        if let Some(session) = self.session.get() {
            send_line(session, &json!({"jsonrpc": "2.0", "method": method})).await;
        }
    }

    /// A request that a modern client's retry may answer `input_required` (basic/patterns/
    /// mrtr): that answer, or the complete result.
    async fn ask_resumable<P: Serialize, T: DeserializeOwned, R>(
        &self,
        method: &str,
        params: P,
        context: &RequestContext<RoleServer>,
    ) -> Result<R, ErrorData>
    where
        R: From<T> + From<InputRequiredResult>,
    {
        let answer: Value = self.ask(method, params, context).await?;
        let odd = |e: serde_json::Error| {
            ErrorData::internal_error(format!("the profile answered {method} oddly: {e}"), None)
        };
        match answer.get("resultType").and_then(Value::as_str) {
            Some("input_required") => serde_json::from_value::<InputRequiredResult>(answer)
                .map(R::from)
                .map_err(odd),
            _ => serde_json::from_value::<T>(answer)
                .map(R::from)
                .map_err(odd),
        }
    }
}

async fn send_line(session: &Session, message: &Value) -> bool {
    let mut line = message.to_string().into_bytes();
    line.push(b'\n');
    let mut stdin = session.to_child.lock().await;
    stdin.write_all(&line).await.is_ok() && stdin.flush().await.is_ok()
}

/// The stream a notification of the process is tagged for, its tag taken off.
fn stream_of(session: &Session, message: &mut Value) -> Option<SubscriptionSink> {
    let meta = message.pointer_mut("/params/_meta")?.as_object_mut()?;
    let stream = meta.get(SUBSCRIPTION_ID)?.to_string();
    let sink = session
        .streams
        .lock()
        .expect("not poisoned")
        .get(&stream)
        .cloned()?;
    meta.remove(SUBSCRIPTION_ID);
    Some(sink)
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
                if let Some(sink) = stream_of(&session, &mut message) {
                    // The acknowledgment was rmcp's to give; the rest go on the stream,
                    // which tags them with the client's id.
                    if message.get("method")
                        != Some(&json!("notifications/subscriptions/acknowledged"))
                        && let Ok(notification) =
                            serde_json::from_value::<ServerNotification>(message)
                    {
                        let _ = sink.send(notification).await;
                    }
                } else if let (Some(peer), Ok(notification)) =
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
        session.ended.store(true, Ordering::Relaxed);
        session.waiting.lock().expect("not poisoned").clear();
    }
}

impl ServerHandler for LineServer {
    fn get_info(&self) -> ServerConfig {
        let known = self.capabilities.lock().expect("not poisoned").clone();
        ServerConfig::new(known.unwrap_or_default())
    }

    /// What the client asked for: rmcp keeps of it what the profile's capabilities declare.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.clone())
    }

    /// A modern client's stream: opened on the shared process under an id of agx's, whose
    /// tagged notifications go to the client's stream until the client closes it.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let session = self.modern_session().await?;
        let n = session.next_id.fetch_add(1, Ordering::Relaxed);
        let id = Value::String(format!("http-listen-{n}"));
        session
            .streams
            .lock()
            .expect("not poisoned")
            .insert(id.to_string(), context.sink().clone());
        // Its answer is the stream's end (the profile closed it, or its process ended).
        let (ended, end) = oneshot::channel();
        session
            .waiting
            .lock()
            .expect("not poisoned")
            .insert(id.to_string(), ended);
        let mut request = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
            "params": {"notifications": context.accepted()}});
        super::era::stamp_request(&mut request, &super::era::envelope_of_agx());
        if send_line(&session, &request).await {
            tokio::select! {
                _ = end => {}
                () = context.cancelled() => {}
            }
        }
        session
            .streams
            .lock()
            .expect("not poisoned")
            .remove(&id.to_string());
        session
            .waiting
            .lock()
            .expect("not poisoned")
            .remove(&id.to_string());
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": id}});
        send_line(&session, &cancel).await;
        Ok(())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.ask("initialize", request, &context).await
    }

    /// The profile's own discovery (its name, its members' capabilities merged), not
    /// rmcp's from this handler's empty info.
    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        self.ask("server/discover", json!({}), &context).await
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
        self.ask_resumable::<_, rmcp::model::CallToolResult, _>("tools/call", request, &context)
            .await
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
        self.ask_resumable::<_, rmcp::model::GetPromptResult, _>("prompts/get", request, &context)
            .await
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
        self.ask_resumable::<_, rmcp::model::ReadResourceResult, _>(
            "resources/read",
            request,
            &context,
        )
        .await
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
