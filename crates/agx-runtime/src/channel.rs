//! The two-way channel between a running tool and the MCP client (docs/tool-protocol.md,
//! "The channel").
//!
//! Every tool process gets one end of a Unix socket pair as file descriptor 3, named by
//! [`CHANNEL_FD_ENV`]. The tool writes JSON-RPC lines on it: requests
//! (`sampling/createMessage`, `elicitation/create`) that agx relays to the client, answering
//! the tool with the client's result or error, and notifications (progress, log messages)
//! that join the call's stderr protocol lines. A request the client cannot answer (it lacks
//! the capability, or there is no client) is answered with an error at once. When the call
//! ends, the channel closes and the client requests still pending are cancelled.
//!
//! A descriptor rather than a socket path: a shell tool can use it with plain redirections
//! (`>&3`, `<&3`), and nothing is left in the file system. Windows has no descriptor to
//! hand down: there the tool connects to a loopback TCP port agx listens on for that call
//! alone ([`CHANNEL_ADDR_ENV`]) and sends the call's secret token ([`CHANNEL_TOKEN_ENV`]) as
//! its first line; the lines after it are the same.

use std::collections::HashMap;
use std::io;
#[cfg(unix)]
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use rmcp::model::{
    CancelledNotificationParam, ClientCapabilities, CustomNotification, CustomRequest, RequestId,
    ServerNotification, ServerRequest,
};
use rmcp::service::{PeerRequestOptions, ServiceError};
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};
use tokio::io::{AsyncWrite, AsyncWriteExt, BufReader};
#[cfg(unix)]
use tokio::net::UnixStream;
use tokio::sync::mpsc::{self, Sender};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::process::read_bounded_line;
use super::stderr_protocol::{LOG_PREFIX, PROGRESS_PREFIX, StderrLine, parse_line};

/// The descriptor a tool finds its end of the channel on.
#[cfg(unix)]
pub(crate) const CHANNEL_FD: RawFd = 3;
/// The environment variable naming that descriptor.
#[cfg(unix)]
pub(crate) const CHANNEL_FD_ENV: &str = "AGX_CHANNEL_FD";
/// Windows: the environment variable holding `127.0.0.1:<port>` to connect to.
#[cfg(windows)]
pub(crate) const CHANNEL_ADDR_ENV: &str = "AGX_CHANNEL_ADDR";
/// Windows: the environment variable holding the token the tool's first line must be.
#[cfg(windows)]
pub(crate) const CHANNEL_TOKEN_ENV: &str = "AGX_CHANNEL_TOKEN";
/// Windows: connections that did not send the token before agx gives up on the call's
/// channel (nothing else on this machine may hold a call's channel hostage).
#[cfg(windows)]
const MAX_BAD_CONNECTIONS: usize = 16;
/// A line longer than this is refused (and skipped up to its end).
const MAX_LINE: usize = 1024 * 1024;
/// Client requests of one call waiting for an answer. Past it agx reads no further lines
/// until one is answered: the tool waits on its full socket, and its timeout still runs.
pub(crate) const MAX_PENDING: usize = 16;

/// JSON-RPC error codes sent to the tool.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;

/// The tool's end of a channel, handed to its process as [`CHANNEL_FD`].
#[cfg(unix)]
pub(crate) struct ToolEnd(OwnedFd);

/// agx's end of a channel.
#[cfg(unix)]
pub(crate) struct AgxEnd(UnixStream);

/// Windows: where the tool connects, and the token it must send.
#[cfg(windows)]
pub(crate) struct ToolEnd {
    addr: std::net::SocketAddr,
    token: String,
}

/// Windows: the listener of one call, and its token.
#[cfg(windows)]
pub(crate) struct AgxEnd {
    listener: tokio::net::TcpListener,
    token: String,
}

/// A new channel. Call inside the async runtime.
#[cfg(unix)]
pub(crate) fn open() -> io::Result<(ToolEnd, AgxEnd)> {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
    ours.set_nonblocking(true)?;
    Ok((ToolEnd(theirs.into()), AgxEnd(UnixStream::from_std(ours)?)))
}

/// A new channel: a loopback listener on a port of its own and a 256-bit token.
#[cfg(windows)]
pub(crate) fn open() -> io::Result<(ToolEnd, AgxEnd)> {
    let listener = std::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| io::Error::other(e.to_string()))?;
    let token = hex::encode(secret);
    Ok((
        ToolEnd {
            addr,
            token: token.clone(),
        },
        AgxEnd {
            listener: tokio::net::TcpListener::from_std(listener)?,
            token,
        },
    ))
}

#[cfg(windows)]
impl ToolEnd {
    /// Tell the process `command` starts where the channel is and how to prove it is the
    /// call's tool.
    pub(super) fn pass_to(&self, command: &mut tokio::process::Command) {
        command
            .env(CHANNEL_ADDR_ENV, self.addr.to_string())
            .env(CHANNEL_TOKEN_ENV, &self.token);
    }
}

/// Windows: wait for the tool to connect with the token, until the call ends. A
/// connection whose first line is not the token (or that sends none within
/// [`TOKEN_WAIT`]) is closed; after [`MAX_BAD_CONNECTIONS`] of them the call has no channel.
#[cfg(windows)]
async fn accept(end: AgxEnd, done: &CancellationToken) -> Option<tokio::net::TcpStream> {
    for _ in 0..MAX_BAD_CONNECTIONS {
        let (mut stream, _) = tokio::select! {
            _ = done.cancelled() => return None,
            accepted = end.listener.accept() => accepted.ok()?,
        };
        let mut first = Vec::new();
        let proved = tokio::select! {
            _ = done.cancelled() => return None,
            read = tokio::time::timeout(
                TOKEN_WAIT,
                read_token_line(&mut stream, &mut first, end.token.len() + 1),
            ) => read.unwrap_or(false),
        };
        if proved && first.trim_ascii() == end.token.as_bytes() {
            return Some(stream);
        }
        tracing::warn!("a connection to a tool's channel did not send its token; closed");
    }
    None
}

/// Windows: how long a connection to the channel may take to send the token.
#[cfg(windows)]
const TOKEN_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Read up to `\n` one byte at a time, so nothing after the token line is taken from the
/// stream; false at the end of the stream or past `max` bytes.
#[cfg(windows)]
async fn read_token_line(
    stream: &mut tokio::net::TcpStream,
    line: &mut Vec<u8>,
    max: usize,
) -> bool {
    use tokio::io::AsyncReadExt;
    while line.len() <= max {
        match stream.read_u8().await {
            Ok(b'\n') => return true,
            Ok(byte) => line.push(byte),
            Err(_) => return false,
        }
    }
    false
}

#[cfg(unix)]
impl ToolEnd {
    /// Make this end descriptor 3 of the process `command` starts. The end must stay open
    /// until the process has started, and should be closed right after.
    pub(super) fn pass_to(&self, command: &mut tokio::process::Command) {
        reserve_channel_fd_number();
        let fd = self.0.as_raw_fd();
        command.env(CHANNEL_FD_ENV, CHANNEL_FD.to_string());
        // SAFETY: between fork and exec the closure only calls dup2 and fcntl, which are
        // async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                // dup2 onto itself would keep close-on-exec: clear it instead.
                let ok = if fd == CHANNEL_FD {
                    libc::fcntl(fd, libc::F_SETFD, 0) != -1
                } else {
                    libc::dup2(fd, CHANNEL_FD) != -1
                };
                if ok {
                    Ok(())
                } else {
                    Err(io::Error::last_os_error())
                }
            });
        }
    }
}

/// Keep descriptor 3 open in agx, so that the pipe the standard library opens to report a
/// failed exec never takes that number (the child's dup2 onto 3 would replace it, and a
/// missing program would look like a tool that exits).
#[cfg(unix)]
fn reserve_channel_fd_number() {
    static RESERVED: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
    let mut reserved = RESERVED.lock().unwrap_or_else(|p| p.into_inner());
    if *reserved {
        return;
    }
    // SAFETY: fcntl(F_GETFD) only inspects a descriptor; open returns a new one we own.
    unsafe {
        if libc::fcntl(CHANNEL_FD, libc::F_GETFD) != -1 {
            // Held by something else now; check again next time.
            return;
        }
        loop {
            let fd = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
            if fd < 0 {
                return;
            }
            // Lower numbers (a closed standard stream) stay /dev/null: harmless.
            if fd >= CHANNEL_FD {
                if fd == CHANNEL_FD {
                    *reserved = true;
                } else {
                    libc::close(fd);
                }
                return;
            }
        }
    }
}

/// A request of the tool's put to a client that takes requests only as input for one call
/// (MCP 2026-07-28, basic/patterns/mrtr): the call is answered `input_required` with it,
/// and `answer` takes the result the client's retry brings.
pub struct InputAsk {
    pub(crate) method: String,
    pub(crate) params: Value,
    pub(crate) answer: tokio::sync::oneshot::Sender<InputAnswer>,
}

/// The client's result for an [`InputAsk`], or why it cannot be asked.
pub(crate) type InputAnswer = Result<Value, String>;

/// Who answers the tool's requests.
pub enum Client {
    /// The connected MCP client.
    Peer(Peer<RoleServer>),
    /// A 2026-07-28 client, asked through the call's answers; the capabilities its
    /// request declared.
    Rounds {
        asks: mpsc::Sender<InputAsk>,
        capabilities: ClientCapabilities,
    },
    /// None (`agx call`): every request is refused.
    Absent,
}

impl Client {
    /// Why the client cannot answer `method` with these params, if it cannot.
    fn refusal(&self, method: &str, params: &Value) -> Option<String> {
        let peer = match self {
            Client::Absent => {
                return Some(format!(
                    "no MCP client is connected (the tool runs under `agx call`), so nothing \
                     can answer {method}"
                ));
            }
            Client::Peer(peer) => &peer
                .peer_info()
                .map(|info| info.capabilities.clone())
                .unwrap_or_default(),
            Client::Rounds { capabilities, .. } => capabilities,
        };
        let missing = missing_capability(peer, method, params)?;
        Some(format!(
            "the client did not declare the `{missing}` capability, so it cannot answer {method}"
        ))
    }
}

/// The capability a client needs for `method` (with these params) and lacks, if any.
fn missing_capability(
    capabilities: &ClientCapabilities,
    method: &str,
    params: &Value,
) -> Option<&'static str> {
    match method {
        SAMPLING if capabilities.sampling.is_none() => Some("sampling"),
        ELICITATION => {
            let Some(elicitation) = &capabilities.elicitation else {
                return Some("elicitation");
            };
            let url_mode = params.get("mode").and_then(Value::as_str) == Some("url");
            // An empty `elicitation: {}` means form mode (the 2025-06-18 form).
            let form = elicitation.form.is_some() || elicitation.url.is_none();
            if url_mode && elicitation.url.is_none() {
                Some("elicitation.url")
            } else if !url_mode && !form {
                Some("elicitation.form")
            } else {
                None
            }
        }
        _ => None,
    }
}

const SAMPLING: &str = "sampling/createMessage";
const ELICITATION: &str = "elicitation/create";
const PROGRESS: &str = "notifications/progress";
const LOG: &str = "notifications/message";
const CANCELLED: &str = "notifications/cancelled";
const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

/// One line from the tool.
#[derive(Debug, PartialEq)]
enum Incoming {
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    Notification {
        method: String,
        params: Value,
    },
}

/// Parse one line; the error is the JSON-RPC error to answer (with the id, when known).
fn parse(line: &[u8]) -> Result<Incoming, (Value, i64, String)> {
    let message: Value = serde_json::from_slice(line)
        .map_err(|e| (Value::Null, PARSE_ERROR, format!("not a JSON line: {e}")))?;
    let Value::Object(mut message) = message else {
        return Err((
            Value::Null,
            INVALID_REQUEST,
            "a line must be a JSON object".into(),
        ));
    };
    let id = message.remove("id");
    let bad = |id: Option<&Value>, text: String| {
        (id.cloned().unwrap_or(Value::Null), INVALID_REQUEST, text)
    };
    if let Some(id) = &id
        && !(id.is_string() || id.is_i64() || id.is_u64())
    {
        return Err(bad(
            None,
            format!("`id` must be a string or an integer, not {id}"),
        ));
    }
    let method = match message.remove("method") {
        Some(Value::String(m)) => m,
        _ => return Err(bad(id.as_ref(), "`method` (a string) is missing".into())),
    };
    let params = message.remove("params").unwrap_or(json!({}));
    if !params.is_object() {
        return Err((
            id.unwrap_or(Value::Null),
            INVALID_PARAMS,
            format!("`params` of {method} must be an object"),
        ));
    }
    Ok(match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    })
}

fn error_line(id: &Value, code: i64, message: &str, data: Option<&Value>) -> Vec<u8> {
    let mut error = json!({ "code": code, "message": message });
    if let Some(data) = data {
        error["data"] = data.clone();
    }
    line(&json!({ "jsonrpc": "2.0", "id": id, "error": error }))
}

fn result_line(id: &Value, result: &Value) -> Vec<u8> {
    line(&json!({ "jsonrpc": "2.0", "id": id, "result": result }))
}

fn line(message: &Value) -> Vec<u8> {
    let mut bytes = message.to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

/// The answer to the tool for the client's reply.
fn answer(id: &Value, reply: Result<rmcp::model::ClientResult, ServiceError>) -> Vec<u8> {
    match reply {
        Ok(result) => match serde_json::to_value(result) {
            Ok(result) => result_line(id, &result),
            Err(e) => error_line(id, INTERNAL_ERROR, &e.to_string(), None),
        },
        Err(ServiceError::McpError(e)) => {
            error_line(id, i64::from(e.code.0), &e.message, e.data.as_ref())
        }
        Err(ServiceError::TransportClosed) => {
            error_line(id, INTERNAL_ERROR, "the client disconnected", None)
        }
        Err(e) => error_line(id, INTERNAL_ERROR, &format!("the client failed: {e}"), None),
    }
}

/// A client request on behalf of the tool, waiting for its answer.
struct Pending {
    /// The request's id as the client knows it; `None` when asked as a call's input.
    client_id: Option<RequestId>,
    task: tokio::task::AbortHandle,
}

/// Serve the channel of one tool call until `done` (the call ended) or the tool closes its
/// end. Progress and log notifications go to `events` as if read from stderr. Must run in
/// the task that handles the call (not a spawned one), so that over HTTP the client
/// requests travel on that call's stream. On return, pending client requests are cancelled.
pub(crate) async fn serve(
    end: AgxEnd,
    client: Client,
    events: Option<Sender<StderrLine>>,
    tool: &str,
    done: CancellationToken,
) {
    #[cfg(unix)]
    let (read, mut write) = end.0.into_split();
    #[cfg(windows)]
    let Some(stream) = accept(end, &done).await else {
        return;
    };
    #[cfg(windows)]
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let never = CancellationToken::new();
    let (answers_tx, mut answers) = mpsc::channel::<(Value, Vec<u8>)>(MAX_PENDING);
    let mut pending: HashMap<String, Pending> = HashMap::new();
    let mut tasks = JoinSet::new();
    let mut line = Vec::new();
    // Inside a line longer than MAX_LINE: its pieces are skipped up to its end.
    let mut skipping = false;
    loop {
        let outgoing = tokio::select! {
            biased;
            _ = done.cancelled() => break,
            Some((id, answer)) = answers.recv() => {
                pending.remove(&id.to_string());
                Some(answer)
            }
            more = read_bounded_line(&mut reader, &mut line, MAX_LINE, &never),
                if pending.len() < MAX_PENDING =>
            {
                let complete = line.ends_with(b"\n");
                let piece = std::mem::take(&mut line);
                if piece.is_empty() && !more {
                    break; // the tool closed its end
                }
                let was_skipping = std::mem::replace(&mut skipping, !complete && more);
                if was_skipping {
                    continue;
                }
                if !complete && more {
                    tracing::warn!("tool {tool}: channel line over {MAX_LINE} bytes refused");
                    Some(error_line(
                        &Value::Null,
                        INVALID_REQUEST,
                        &format!("line over {MAX_LINE} bytes refused"),
                        None,
                    ))
                } else {
                    let text = piece.trim_ascii();
                    if text.is_empty() {
                        None
                    } else {
                        match parse(text) {
                            Err((id, code, message)) => {
                                tracing::warn!("tool {tool}: bad channel line: {message}");
                                Some(error_line(&id, code, &message, None))
                            }
                            Ok(Incoming::Notification { method, params }) => {
                                notify(&client, &events, &mut pending, tool, &method, params)
                                    .await;
                                None
                            }
                            Ok(Incoming::Request { id, method, params }) => {
                                start(&client, &mut pending, &mut tasks, &answers_tx, id, method, params)
                                    .await
                            }
                        }
                    }
                }
            }
        };
        if let Some(bytes) = outgoing
            && !send(&mut write, &bytes, &done).await
        {
            break;
        }
    }
    tasks.abort_all();
    if let Client::Peer(peer) = &client {
        for (_, request) in pending.drain() {
            if let Some(client_id) = request.client_id {
                cancel(peer, client_id, "the tool call ended").await;
            }
        }
    }
}

/// Write one line, unless the call ends first (a tool that does not read its answers must
/// not hold the call open).
async fn send(
    write: &mut (impl AsyncWrite + Unpin),
    bytes: &[u8],
    done: &CancellationToken,
) -> bool {
    tokio::select! {
        written = write.write_all(bytes) => written.is_ok(),
        _ = done.cancelled() => false,
    }
}

async fn cancel(peer: &Peer<RoleServer>, client_id: RequestId, reason: &str) {
    let _ = peer
        .notify_cancelled(CancelledNotificationParam::new(
            Some(client_id),
            Some(reason.into()),
        ))
        .await;
}

/// Relay a request to the client; the answer arrives on `answers`. Returns the line to
/// answer at once when the request is refused.
async fn start(
    client: &Client,
    pending: &mut HashMap<String, Pending>,
    tasks: &mut JoinSet<()>,
    answers: &Sender<(Value, Vec<u8>)>,
    id: Value,
    method: String,
    params: Value,
) -> Option<Vec<u8>> {
    if method != SAMPLING && method != ELICITATION {
        return Some(error_line(
            &id,
            METHOD_NOT_FOUND,
            &format!("unknown method `{method}`; the channel relays {SAMPLING} and {ELICITATION}"),
            None,
        ));
    }
    let key = id.to_string();
    if pending.contains_key(&key) {
        return Some(error_line(
            &id,
            INVALID_REQUEST,
            &format!("id {id} is already used by a request waiting for its answer"),
            None,
        ));
    }
    if let Some(refusal) = client.refusal(&method, &params) {
        return Some(error_line(&id, METHOD_NOT_FOUND, &refusal, None));
    }
    let peer = match client {
        Client::Peer(peer) => peer,
        Client::Rounds { asks, .. } => {
            let (answer, input) = tokio::sync::oneshot::channel();
            let ask = InputAsk {
                method,
                params,
                answer,
            };
            let asks = asks.clone();
            let answers = answers.clone();
            let tool_id = id.clone();
            // Asked in a task of its own: while the call waits for an earlier answer, this
            // one waits its round without holding up the channel.
            let task = tasks.spawn(async move {
                if asks.send(ask).await.is_err() {
                    return;
                }
                // Dropped unanswered when the call ends or the client never retries.
                let line = match input.await {
                    Ok(Ok(result)) => result_line(&tool_id, &result),
                    Ok(Err(why)) => error_line(&tool_id, INVALID_PARAMS, &why, None),
                    Err(_) => return,
                };
                let _ = answers.send((tool_id.clone(), line)).await;
            });
            pending.insert(
                key,
                Pending {
                    client_id: None,
                    task,
                },
            );
            return None;
        }
        Client::Absent => unreachable!("an absent client refuses every request"),
    };
    // Relayed as it came: the client checks the params, and its error reaches the tool.
    let request = ServerRequest::CustomRequest(CustomRequest::new(method, Some(params)));
    let handle = match peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await
    {
        Ok(handle) => handle,
        Err(e) => return Some(answer(&id, Err(e))),
    };
    let client_id = handle.id.clone();
    let answers = answers.clone();
    let tool_id = id.clone();
    let task = tasks.spawn(async move {
        let reply = handle.await_response().await;
        let _ = answers
            .send((tool_id.clone(), answer(&tool_id, reply)))
            .await;
    });
    pending.insert(
        key,
        Pending {
            client_id: Some(client_id),
            task,
        },
    );
    None
}

/// Handle a notification from the tool: progress and log messages join the stderr protocol
/// lines (and obey the same rules); `notifications/cancelled` withdraws a pending request;
/// `notifications/elicitation/complete` goes to the client as it is.
async fn notify(
    client: &Client,
    events: &Option<Sender<StderrLine>>,
    pending: &mut HashMap<String, Pending>,
    tool: &str,
    method: &str,
    params: Value,
) {
    let prefix = match method {
        PROGRESS => PROGRESS_PREFIX,
        LOG => LOG_PREFIX,
        CANCELLED => {
            let key = params.get("requestId").map(Value::to_string);
            match key.and_then(|key| pending.remove(&key)) {
                Some(request) => {
                    request.task.abort();
                    if let (Client::Peer(peer), Some(client_id)) = (client, request.client_id) {
                        cancel(peer, client_id, "the tool withdrew the request").await;
                    }
                }
                None => {
                    tracing::warn!("tool {tool}: {CANCELLED} names no pending request: {params}")
                }
            }
            return;
        }
        ELICITATION_COMPLETE => {
            relay_elicitation_complete(client, tool, params).await;
            return;
        }
        other => {
            tracing::warn!(
                "tool {tool}: unknown channel notification `{other}` ignored; expected \
                 {PROGRESS}, {LOG}, {CANCELLED} or {ELICITATION_COMPLETE}"
            );
            return;
        }
    };
    let line = parse_line(&format!("{prefix}{params}"));
    if let StderrLine::Plain {
        malformed: Some(reason),
        ..
    } = &line
    {
        tracing::warn!("tool {tool}: bad {method} on the channel: {reason}");
        return;
    }
    if let Some(events) = events {
        let _ = events.send(line).await;
    }
}

/// Tell the client that a URL-mode elicitation the tool started has completed out of band
/// (the user finished at the URL), so it can close its prompt or retry.
async fn relay_elicitation_complete(client: &Client, tool: &str, params: Value) {
    if !params.get("elicitationId").is_some_and(Value::is_string) {
        tracing::warn!(
            "tool {tool}: {ELICITATION_COMPLETE} ignored: its params need `elicitationId` \
             (the string sent in the URL-mode elicitation/create), got {params}"
        );
        return;
    }
    // Without a client (`agx call`) no elicitation was ever sent: nothing to tell.
    let Client::Peer(peer) = client else { return };
    let notification = ServerNotification::CustomNotification(CustomNotification::new(
        ELICITATION_COMPLETE,
        Some(params),
    ));
    if let Err(e) = peer.send_notification(notification).await {
        tracing::warn!("tool {tool}: could not relay {ELICITATION_COMPLETE} to the client: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_notifications_are_told_apart() {
        assert_eq!(
            parse(br#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"maxTokens":5}}"#),
            Ok(Incoming::Request {
                id: json!(7),
                method: SAMPLING.into(),
                params: json!({ "maxTokens": 5 })
            })
        );
        assert_eq!(
            parse(br#"{"method":"notifications/progress","params":{"progress":1}}"#),
            Ok(Incoming::Notification {
                method: PROGRESS.into(),
                params: json!({ "progress": 1 })
            })
        );
    }

    #[test]
    fn bad_lines_get_json_rpc_errors() {
        assert_eq!(parse(b"hello").unwrap_err().1, PARSE_ERROR);
        assert_eq!(parse(b"[1]").unwrap_err().1, INVALID_REQUEST);
        let (id, code, _) = parse(br#"{"id":3}"#).unwrap_err();
        assert_eq!((id, code), (json!(3), INVALID_REQUEST));
        let (id, code, _) = parse(br#"{"id":4,"method":"x","params":[1]}"#).unwrap_err();
        assert_eq!((id, code), (json!(4), INVALID_PARAMS));
        assert_eq!(
            parse(br#"{"id":1.5,"method":"x"}"#).unwrap_err().1,
            INVALID_REQUEST
        );
    }

    #[test]
    fn each_request_needs_its_capability() {
        let declared =
            |caps: Value| -> ClientCapabilities { serde_json::from_value(caps).unwrap() };
        let form = json!({ "message": "?", "requestedSchema": { "type": "object" } });
        let url = json!({ "mode": "url", "message": "?", "url": "https://example.com" });
        let none = declared(json!({}));
        assert_eq!(
            missing_capability(&none, SAMPLING, &json!({})),
            Some("sampling")
        );
        assert_eq!(
            missing_capability(&none, ELICITATION, &form),
            Some("elicitation")
        );
        let sampling = declared(json!({ "sampling": {} }));
        assert_eq!(missing_capability(&sampling, SAMPLING, &json!({})), None);
        // `elicitation: {}` is form mode only.
        let plain = declared(json!({ "elicitation": {} }));
        assert_eq!(missing_capability(&plain, ELICITATION, &form), None);
        assert_eq!(
            missing_capability(&plain, ELICITATION, &url),
            Some("elicitation.url")
        );
        let url_only = declared(json!({ "elicitation": { "url": {} } }));
        assert_eq!(missing_capability(&url_only, ELICITATION, &url), None);
        assert_eq!(
            missing_capability(&url_only, ELICITATION, &form),
            Some("elicitation.form")
        );
    }

    #[test]
    fn an_absent_client_refuses_every_request() {
        let refusal = Client::Absent.refusal(SAMPLING, &json!({})).unwrap();
        assert!(refusal.contains("agx call"), "{refusal}");
    }

    /// The tool's end as a stream, as a tool would use descriptor 3.
    #[cfg(unix)]
    async fn tool_stream(end: ToolEnd) -> UnixStream {
        let std = std::os::unix::net::UnixStream::from(end.0);
        std.set_nonblocking(true).unwrap();
        UnixStream::from_std(std).unwrap()
    }

    /// Windows: connect as a tool does, sending the token first.
    #[cfg(windows)]
    async fn tool_stream(end: ToolEnd) -> tokio::net::TcpStream {
        let mut stream = tokio::net::TcpStream::connect(end.addr).await.unwrap();
        stream
            .write_all(format!("{}\n", end.token).as_bytes())
            .await
            .unwrap();
        stream
    }

    async fn read_line(r: &mut BufReader<impl tokio::io::AsyncRead + Unpin>) -> Value {
        use tokio::io::AsyncBufReadExt;
        let mut text = String::new();
        r.read_line(&mut text).await.unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[tokio::test]
    async fn without_a_client_requests_fail_at_once_and_notifications_flow() {
        let (tool_end, agx_end) = open().unwrap();
        let (tx, mut rx) = mpsc::channel(8);
        let done = CancellationToken::new();
        let serving = tokio::spawn(serve(
            agx_end,
            Client::Absent,
            Some(tx),
            "demo",
            done.clone(),
        ));
        let (read, mut write) = tool_stream(tool_end).await.into_split();
        let mut read = BufReader::new(read);
        write
            .write_all(
                b"{\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\
                  not json\n\
                  {\"id\":\"a\",\"method\":\"elicitation/create\",\"params\":{}}\n\
                  {\"id\":2,\"method\":\"roots/list\"}\n",
            )
            .await
            .unwrap();
        assert_eq!(read_line(&mut read).await["error"]["code"], PARSE_ERROR);
        let refused = read_line(&mut read).await;
        assert_eq!(refused["id"], "a");
        assert_eq!(refused["error"]["code"], METHOD_NOT_FOUND);
        let unknown = read_line(&mut read).await;
        assert_eq!(unknown["id"], 2);
        assert!(
            unknown["error"]["message"]
                .as_str()
                .unwrap()
                .contains("roots/list")
        );
        assert!(matches!(rx.recv().await, Some(StderrLine::Progress(_))));
        // The tool closing its end ends the channel.
        drop(write);
        drop(read);
        serving.await.unwrap();
    }

    #[tokio::test]
    async fn an_over_long_line_is_refused_and_the_next_one_read() {
        let (tool_end, agx_end) = open().unwrap();
        let done = CancellationToken::new();
        let serving = tokio::spawn(serve(agx_end, Client::Absent, None, "demo", done.clone()));
        let (read, mut write) = tool_stream(tool_end).await.into_split();
        let mut read = BufReader::new(read);
        let writer = tokio::spawn(async move {
            let mut long = vec![b'x'; MAX_LINE + 10];
            long.extend_from_slice(b"\n{\"id\":1,\"method\":\"sampling/createMessage\"}\n");
            write.write_all(&long).await.unwrap();
            write
        });
        let refused = read_line(&mut read).await;
        assert_eq!(refused["error"]["code"], INVALID_REQUEST);
        assert_eq!(refused["id"], Value::Null);
        assert_eq!(read_line(&mut read).await["id"], 1);
        let _write = writer.await.unwrap();
        done.cancel();
        serving.await.unwrap();
    }
}
