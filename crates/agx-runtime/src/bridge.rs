//! A remote MCP server (Streamable HTTP) served on stdio: `agx serve` reads the client's
//! JSON-RPC messages from stdin and hands each, unchanged, to rmcp's Streamable HTTP client
//! transport; whatever the remote sends (responses, its own requests such as sampling and
//! elicitation, notifications such as progress) goes back to stdout. The configured headers
//! (secrets included) are added to every HTTP request and never logged.
//!
//! A remote that cannot be reached or fails answers each request of the client with a
//! JSON-RPC error naming the URL, so the client shows why instead of waiting.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use futures_util::future::Either;
use rmcp::RoleClient;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, ErrorCode, ErrorData, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, Transport};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use super::ServeError;
use super::assemble::WrappedServer;
use super::filtered::{Between, Rewriter, Sends};
use super::stdio::PARSE_ERROR;
use agx_model::settings::{Redactor, placeholders};

/// The JSON-RPC error code of a failed remote (implementation-defined server error range).
pub(crate) const REMOTE_FAILED: i32 = -32000;

/// A remote's URL with settings substituted. It may carry secret values (`?key=${settings.token}`),
/// so it only displays with them redacted; the resolved text goes to the HTTP client alone.
#[derive(Clone)]
pub(crate) struct RemoteUrl {
    resolved: String,
    shown: String,
}

impl RemoteUrl {
    fn new(resolved: String, redactor: &Redactor) -> RemoteUrl {
        let shown = redactor.redact(&resolved).into_owned();
        RemoteUrl { resolved, shown }
    }
}

impl std::fmt::Display for RemoteUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl std::fmt::Debug for RemoteUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.shown, f)
    }
}

/// Where the bridge sends what it reads: the URL and headers with settings substituted, and
/// the server's secret values, which every message about the remote is redacted of (an HTTP
/// client's errors carry the URL whole).
#[derive(Clone)]
pub(crate) struct Remote {
    pub url: RemoteUrl,
    headers: Vec<(String, String)>,
    redactor: Redactor,
    /// The reference `agx auth login` takes to sign in to it.
    server: String,
    /// Where its sign-in is kept, and the key it is kept under (its URL).
    sign_in: Option<(agx_auth::SignIns, agx_auth::Resource)>,
}

// Headers may carry secrets: never print them.
impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("Remote")
            .field("url", &self.url)
            .field("headers", &names)
            .finish()
    }
}

impl Remote {
    /// The remote of a server declared with `url`, settings substituted. A header whose
    /// setting has no value is left out; a URL whose setting has none is an error.
    pub(crate) fn of(
        w: &WrappedServer,
        url: &str,
        headers: &BTreeMap<String, String>,
    ) -> Result<Remote, ServeError> {
        let Some(expanded) = placeholders::expand(url, &w.settings) else {
            let keys = placeholders::references(url).join(", ");
            return Err(ServeError::Remote {
                server: w.server.to_string(),
                detail: format!("its url needs settings that have no value ({keys})"),
            });
        };
        let redactor = Redactor::new(w.settings.secret_values().map(str::to_string));
        let sign_in = w
            .sign_ins
            .as_deref()
            .zip(agx_auth::Resource::parse(&expanded).ok())
            .map(|(sign_ins, resource)| (sign_ins.clone(), resource));
        Ok(Remote {
            url: RemoteUrl::new(expanded, &redactor),
            headers: placeholders::expand_pairs(headers, &w.settings),
            redactor,
            server: w.server.to_string(),
            sign_in,
        })
    }

    /// The URL with settings substituted, secrets included: for the HTTP client and the
    /// sign-in's key alone.
    pub(crate) fn resolved_url(&self) -> &str {
        &self.url.resolved
    }

    /// `text` (an error about this remote) without the server's secret values.
    pub(super) fn redact(&self, text: &str) -> String {
        self.redactor.redact(text).into_owned()
    }

    /// The transport to the remote: signed in when `agx auth login` signed in to its URL.
    pub(super) async fn transport(&self) -> Result<RemoteTransport, String> {
        let mut custom = HashMap::new();
        for (name, value) in &self.headers {
            let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| format!("header name `{name}` is not a valid HTTP header name"))?;
            let mut value = reqwest::header::HeaderValue::from_str(value).map_err(|_| {
                format!("the value of header `{name}` is not a valid HTTP header value")
            })?;
            value.set_sensitive(true);
            custom.insert(name, value);
        }
        // reqwest is built without a default TLS provider; installing one twice fails
        // harmlessly.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let config = StreamableHttpClientTransportConfig::with_uri(self.url.resolved.as_str())
            .custom_headers(custom);
        let http = reqwest::Client::new();
        let signed_in = match &self.sign_in {
            Some((sign_ins, resource)) => {
                agx_auth::signed_in_client(sign_ins, resource, http.clone())
                    .await
                    .map_err(|e| {
                        let hint = agx_core::error::Hint::hint(&e).unwrap_or_default();
                        format!("{e} ({hint})")
                    })?
            }
            None => None,
        };
        Ok(match signed_in {
            Some(client) => RemoteTransport::SignedIn(Box::new(
                StreamableHttpClientTransport::with_client(client, config),
            )),
            None => RemoteTransport::Plain(Box::new(StreamableHttpClientTransport::with_client(
                http, config,
            ))),
        })
    }

    /// What to tell the client when the remote wants a sign-in, or `None` for any other
    /// failure.
    fn sign_in_needed(&self, error: &(dyn std::error::Error + 'static)) -> Option<String> {
        Some(match agx_auth::challenge_in(error)? {
            agx_auth::Challenge::SignInNeeded => format!(
                "it needs a sign-in: run `agx auth login {}` in a terminal, then try again (or restart this server in your client if it gave up)",
                self.server
            ),
            agx_auth::Challenge::ScopeNeeded { scope } => format!(
                "the sign-in lacks a permission it needs{}: sign in again naming every scope it needs, those it has (`agx auth status`) and this one: `agx auth login {} --scope {} …`",
                scope
                    .as_deref()
                    .map(|s| format!(" (scope `{s}`)"))
                    .unwrap_or_default(),
                self.server,
                scope.as_deref().unwrap_or("SCOPE"),
            ),
        })
    }

    /// The reason to give for a failed send, and whether a new sign-in would mend it.
    fn failure_detail(&self, error: &(dyn std::error::Error + 'static)) -> (String, bool) {
        match self.sign_in_needed(error) {
            Some(detail) => (detail, true),
            None => (self.redact(&error.to_string()), false),
        }
    }

    /// A marker of the tokens kept for this remote, which changes with a new sign-in (or a
    /// refresh by another process); `None` when none are kept. Read off the async thread:
    /// the OS keyring's clients block (and the Secret Service's would start a runtime).
    async fn tokens_marker(&self) -> Option<u64> {
        let (sign_ins, resource) = self.sign_in.clone()?;
        tokio::task::spawn_blocking(move || sign_ins.tokens_marker(&resource).ok()?)
            .await
            .ok()?
    }
}

/// The HTTP transport, plain or signed in; both report the same errors.
pub(crate) enum RemoteTransport {
    Plain(Box<StreamableHttpClientTransport<reqwest::Client>>),
    SignedIn(Box<StreamableHttpClientTransport<agx_auth::SignedInClient>>),
}

type HttpError = rmcp::transport::streamable_http_client::StreamableHttpError<reqwest::Error>;

impl Transport<RoleClient> for RemoteTransport {
    type Error = HttpError;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        match self {
            RemoteTransport::Plain(t) => Either::Left(t.send(item)),
            RemoteTransport::SignedIn(t) => Either::Right(t.send(item)),
        }
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        match self {
            RemoteTransport::Plain(t) => t.receive().await,
            RemoteTransport::SignedIn(t) => t.receive().await,
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        match self {
            RemoteTransport::Plain(t) => t.close().await,
            RemoteTransport::SignedIn(t) => t.close().await,
        }
    }
}

/// Bridge stdin/stdout to `remote` until the client closes stdin, through a filter's
/// `rewriter` when the server has one.
pub(crate) async fn serve(remote: Remote, rewriter: Option<Rewriter>) -> Result<(), ServeError> {
    let (stdin, stdout) = super::std_streams::open();
    let stdin = BufReader::new(stdin);
    run(remote, rewriter, stdin, stdout).await;
    Ok(())
}

/// The bridge loop over any reader and writer (stdio in production, pipes in tests). A
/// client of either era is served in front of the filter (when there is one), as in the
/// filtering proxy (docs/serve.md, "Protocol eras").
pub(crate) async fn run<R, W>(remote: Remote, rewriter: Option<Rewriter>, reader: R, mut writer: W)
where
    R: tokio::io::AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = reader.lines();
    let mut state = match remote.transport().await {
        Ok(transport) => Link::Up(Box::new(transport)),
        Err(detail) => Link::Down(remote.redact(&detail)),
    };
    // Requests the remote has not answered yet: each gets an error if it goes away.
    let mut pending: HashSet<RequestId> = HashSet::new();
    let mut resume = Resume::default();
    let mut between = Between::new(rewriter);
    loop {
        let from_remote = async {
            match &mut state {
                Link::Up(t) => t.receive().await,
                Link::Down(_) | Link::NeedsSignIn { .. } => std::future::pending().await,
            }
        };
        let probe_deadline = between.deadline();
        let sends = tokio::select! {
            () = tokio::time::sleep_until(probe_deadline.unwrap_or_else(tokio::time::Instant::now)),
                if probe_deadline.is_some() => between.time_out(),
            line = lines.next_line() => {
                let Ok(Some(line)) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Value>(&line) {
                    Ok(message) => between.from_client(message),
                    Err(e) => {
                        write_line(&mut writer, &not_json_rpc(&e)).await;
                        continue;
                    }
                }
            }
            message = from_remote => {
                let answers = match message {
                    Some(message) => {
                        if let Some(id) = response_id(&message) {
                            // The answer to a handshake replayed after a new sign-in is not
                            // the client's.
                            if resume.replayed.remove(&id) {
                                continue;
                            }
                            pending.remove(&id);
                        }
                        // Most messages need no rewriting: only parse while something reads them.
                        if !between.reads_server_messages() {
                            write_line(&mut writer, &message).await;
                            continue;
                        }
                        vec![message]
                    }
                    None => {
                        let detail = "the connection to the remote server ended".to_string();
                        tracing::warn!("remote {}: {detail}", remote.url);
                        if !matches!(state, Link::NeedsSignIn { .. }) {
                            state = Link::Down(detail.clone());
                        }
                        pending.drain().map(|id| remote.failure(&detail, id)).collect()
                    }
                };
                from_remote_messages(&mut between, answers)
            }
        };
        // What goes to the remote may fail there: the failure is the remote's answer.
        let mut to_client = sends.to_client;
        let mut to_remote: VecDeque<Value> = sends.to_server.into();
        loop {
            for message in to_client.drain(..) {
                write_line(&mut writer, &message).await;
            }
            let Some(message) = to_remote.pop_front() else {
                break;
            };
            let message: ClientJsonRpcMessage = match serde_json::from_value(message) {
                Ok(m) => m,
                Err(e) => {
                    write_line(&mut writer, &not_json_rpc(&e)).await;
                    continue;
                }
            };
            let failures = send(&remote, &mut state, &mut pending, &mut resume, message).await;
            let more = from_remote_messages(&mut between, failures);
            to_client.extend(more.to_client);
            to_remote.extend(more.to_server);
        }
    }
    if let Link::Up(mut t) = state {
        let _ = t.close().await;
    }
}

/// The remote's messages (or agx's answers for it) through the filter and the era
/// translation.
fn from_remote_messages(between: &mut Between, messages: Vec<ServerJsonRpcMessage>) -> Sends {
    let mut sends = Sends::default();
    for message in messages {
        match serde_json::to_value(&message) {
            Ok(value) => {
                sends.extend(between.from_server(value));
            }
            Err(e) => tracing::warn!("remote: a message agx could not read was dropped: {e}"),
        }
    }
    sends
}

/// The client's error for a line that is not a JSON-RPC message.
fn not_json_rpc(e: &serde_json::Error) -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": PARSE_ERROR, "message": format!("not a JSON-RPC message: {e}")}})
}

/// Send one message to the remote; a request it cannot take is answered with the reason
/// (returned, for the client),
/// and the link is down from then on, unless a new sign-in mends it: a link down for want of
/// one comes back up at the next message once `agx auth login` signed in again.
async fn send(
    remote: &Remote,
    state: &mut Link,
    pending: &mut HashSet<RequestId>,
    resume: &mut Resume,
    message: ClientJsonRpcMessage,
) -> Vec<ServerJsonRpcMessage> {
    resume.record(&message);
    let marker = match state {
        Link::NeedsSignIn { .. } => remote.tokens_marker().await,
        _ => None,
    };
    if let Link::NeedsSignIn { since, .. } = state
        && let Some(at) = marker.filter(|at| Some(*at) != *since)
    {
        // One attempt per new sign-in: a refused one leaves the link waiting for the next.
        *since = Some(at);
        if let Ok(transport) = remote.transport().await {
            tracing::info!("remote {}: signed in again; reconnecting", remote.url);
            let mut transport = Box::new(transport);
            match resume.replay(&mut transport, &message).await {
                Ok(()) => *state = Link::Up(transport),
                Err(e) => {
                    let (detail, _) = remote.failure_detail(&e);
                    *state = Link::NeedsSignIn {
                        detail,
                        since: Some(at),
                    };
                }
            }
        }
    }
    let id = request_id(&message);
    let sent = match state {
        Link::Up(t) => t.send(message).await.map_err(|e| remote.failure_detail(&e)),
        Link::Down(detail) | Link::NeedsSignIn { detail, .. } => Err((detail.clone(), false)),
    };
    let mut failures = Vec::new();
    match (sent, id) {
        (Ok(()), Some(id)) => {
            pending.insert(id);
        }
        (Ok(()), None) => {}
        (Err((detail, needs_sign_in)), id) => {
            tracing::warn!("remote {} failed: {detail}", remote.url);
            if let Some(id) = id {
                failures.push(remote.failure(&detail, id));
            }
            // The transport is gone: what it had not answered never will be.
            for id in pending.drain() {
                failures.push(remote.failure(&detail, id));
            }
            if needs_sign_in {
                *state = Link::NeedsSignIn {
                    detail,
                    since: remote.tokens_marker().await,
                };
            } else if !matches!(state, Link::NeedsSignIn { .. }) {
                *state = Link::Down(detail);
            }
        }
    }
    failures
}

/// The HTTP side: working, failed with the reason every later request is told, or failed
/// for want of tokens other than those `since` marks (`SignIns::tokens_marker`).
enum Link {
    Up(Box<RemoteTransport>),
    Down(String),
    NeedsSignIn { detail: String, since: Option<u64> },
}

/// The client's handshake, kept to open a new connection after a new sign-in: the remote
/// then sees the client's own `initialize` (under an id of agx's, whose answer the client
/// never sees) and `notifications/initialized`, then the client's next message.
#[derive(Default)]
struct Resume {
    initialize: Option<serde_json::Value>,
    initialized: Option<ClientJsonRpcMessage>,
    /// Ids of replayed requests whose answers are dropped.
    replayed: HashSet<RequestId>,
    count: u64,
}

impl Resume {
    fn record(&mut self, message: &ClientJsonRpcMessage) {
        if is_initialize(message) && self.initialize.is_none() {
            self.initialize = serde_json::to_value(message).ok();
        } else if let ClientJsonRpcMessage::Notification(n) = message
            && matches!(
                n.notification,
                ClientNotification::InitializedNotification(_)
            )
        {
            self.initialized = Some(message.clone());
        }
    }

    /// Replay the handshake on `transport`, unless `next` is itself the client's
    /// `initialize`.
    async fn replay(
        &mut self,
        transport: &mut RemoteTransport,
        next: &ClientJsonRpcMessage,
    ) -> Result<(), HttpError> {
        let Some(initialize) = &self.initialize else {
            return Ok(());
        };
        if is_initialize(next) {
            return Ok(());
        }
        self.count += 1;
        // An id no client picks: the process's and a count.
        let id = format!("agx-bridge-resume-{}-{}", std::process::id(), self.count);
        let mut request = initialize.clone();
        request["id"] = serde_json::Value::String(id.clone());
        let Ok(request) = serde_json::from_value::<ClientJsonRpcMessage>(request) else {
            return Ok(());
        };
        transport.send(request).await?;
        self.replayed.insert(RequestId::String(id.into()));
        if let Some(initialized) = &self.initialized {
            // A notification: the remote's answer to `initialize` is what tells.
            let _ = transport.send(initialized.clone()).await;
        }
        Ok(())
    }
}

fn is_initialize(message: &ClientJsonRpcMessage) -> bool {
    matches!(message, ClientJsonRpcMessage::Request(r)
        if matches!(r.request, ClientRequest::InitializeRequest(_)))
}

fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        ClientJsonRpcMessage::Request(r) => Some(r.id.clone()),
        _ => None,
    }
}

fn response_id(message: &ServerJsonRpcMessage) -> Option<RequestId> {
    match message {
        ServerJsonRpcMessage::Response(r) => Some(r.id.clone()),
        ServerJsonRpcMessage::Error(e) => e.id.clone(),
        _ => None,
    }
}

impl Remote {
    /// The client's error for request `id`, redacted whole.
    fn failure(&self, detail: &str, id: RequestId) -> ServerJsonRpcMessage {
        let message = format!("the remote MCP server at {} failed: {detail}", self.url);
        ServerJsonRpcMessage::error(
            ErrorData::new(ErrorCode(REMOTE_FAILED), self.redact(&message), None),
            Some(id),
        )
    }
}

async fn write_line<W: AsyncWrite + Unpin>(writer: &mut W, message: &impl serde::Serialize) {
    let Ok(mut line) = serde_json::to_vec(message) else {
        return;
    };
    line.push(b'\n');
    // A client that closed stdout is gone; the next read of stdin ends the loop.
    let _ = writer.write_all(&line).await;
    let _ = writer.flush().await;
}
