//! The stdio transport: newline-delimited JSON-RPC. It answers malformed input itself with
//! the proper JSON-RPC error (parse error, invalid request, unknown method, bad params) and
//! hands only well-formed messages for offered methods to rmcp, so a bad line never stops
//! the server.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// Requests agx answers; anything else is -32601 at once, before or after `initialize`.
pub const OFFERED_METHODS: [&str; 15] = [
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "subscriptions/listen",
    "completion/complete",
];

/// Incoming lines longer than this are discarded (with an error reply).
pub const MAX_LINE: usize = 64 * 1024 * 1024;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;

pub struct LineTransport<R, W> {
    lines: BoundedLines<R>,
    out: Arc<Mutex<W>>,
    /// Whether rmcp has left its pre-initialization state (it treats a notification or
    /// response received before then as fatal, so those are dropped here).
    started: bool,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> LineTransport<R, W> {
    pub fn new(read: R, write: W) -> Self {
        LineTransport {
            lines: BoundedLines::new(read),
            out: Arc::new(Mutex::new(write)),
            started: false,
        }
    }
}

/// What to do with one incoming line.
#[derive(Debug)]
enum Verdict {
    Pass(Box<ClientJsonRpcMessage>),
    Reply(Value),
    Drop(String),
}

fn error_reply(id: Option<&Value>, code: i64, message: impl Into<String>) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.cloned().unwrap_or(Value::Null),
        "error": { "code": code, "message": message.into() }
    })
}

fn classify(line: &[u8], started: bool) -> Verdict {
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            return Verdict::Reply(error_reply(None, PARSE_ERROR, format!("Parse error: {e}")));
        }
    };
    let obj = match value {
        Value::Object(o) => o,
        Value::Array(_) => {
            return Verdict::Reply(error_reply(
                None,
                INVALID_REQUEST,
                "Invalid request: batches (JSON arrays) are not supported; send one message per line",
            ));
        }
        _ => {
            return Verdict::Reply(error_reply(
                None,
                INVALID_REQUEST,
                "Invalid request: a JSON-RPC message must be a JSON object",
            ));
        }
    };
    let id = obj.get("id").filter(|v| !v.is_null());
    if let Some(id) = id
        && !(id.is_string() || id.is_i64() || id.is_u64())
    {
        return Verdict::Reply(error_reply(
            None,
            INVALID_REQUEST,
            "Invalid request: `id` must be a string or an integer",
        ));
    }
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Verdict::Reply(error_reply(
            id,
            INVALID_REQUEST,
            "Invalid request: `jsonrpc` must be \"2.0\"",
        ));
    }
    let method = match obj.get("method") {
        Some(Value::String(m)) => Some(m.clone()),
        Some(_) => {
            return Verdict::Reply(error_reply(
                id,
                INVALID_REQUEST,
                "Invalid request: `method` must be a string",
            ));
        }
        None => None,
    };
    let id = id.cloned();
    let is_request = id.is_some() && method.is_some();
    if is_request {
        let method = method.expect("checked");
        if !OFFERED_METHODS.contains(&method.as_str()) {
            return Verdict::Reply(error_reply(
                id.as_ref(),
                METHOD_NOT_FOUND,
                format!("Method not found: agx serve does not offer `{method}`"),
            ));
        }
        let params = obj.get("params").cloned();
        let invalid = |why: String| {
            Verdict::Reply(error_reply(
                id.as_ref(),
                INVALID_PARAMS,
                format!("Invalid params for `{method}`: {why}"),
            ))
        };
        return match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
            // rmcp falls back to a custom request when a known method's params do not fit.
            Ok(ClientJsonRpcMessage::Request(r))
                if matches!(r.request, ClientRequest::CustomRequest(_)) =>
            {
                invalid(params_error(&method, params))
            }
            Ok(msg) => Verdict::Pass(Box::new(msg)),
            Err(e) => invalid(e.to_string()),
        };
    }
    if !started {
        return Verdict::Drop("a notification or response before initialization".into());
    }
    if method.is_none() && id.is_none() {
        return Verdict::Drop("a message with neither `method` nor `id`".into());
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(obj)) {
        Ok(msg) => Verdict::Pass(Box::new(msg)),
        Err(e) => Verdict::Drop(format!("a malformed notification or response: {e}")),
    }
}

/// Why `params` do not fit `method`, in serde's words.
#[allow(deprecated)] // SetLevelRequestParams: logging is deprecated by SEP-2577
fn params_error(method: &str, params: Option<Value>) -> String {
    use rmcp::model::{
        CallToolRequestParams, GetPromptRequestParams, InitializeRequestParams,
        PaginatedRequestParams, SetLevelRequestParams,
    };
    fn check<T: serde::de::DeserializeOwned>(params: Option<Value>) -> Option<String> {
        let Some(params) = params else {
            return Some("`params` is missing".into());
        };
        serde_json::from_value::<T>(params)
            .err()
            .map(|e| e.to_string())
    }
    let why = match method {
        "initialize" => check::<InitializeRequestParams>(params),
        "tools/call" => check::<CallToolRequestParams>(params),
        "prompts/get" => check::<GetPromptRequestParams>(params),
        "logging/setLevel" => check::<SetLevelRequestParams>(params),
        "tools/list" | "prompts/list" => check::<PaginatedRequestParams>(params),
        _ => None,
    };
    why.unwrap_or_else(|| "they do not match the method's parameters".into())
}

/// Whether passing this message takes rmcp out of its pre-initialization loop.
fn starts_lifecycle(msg: &ClientJsonRpcMessage) -> bool {
    let Ok(v) = serde_json::to_value(msg) else {
        return false;
    };
    match v.get("method").and_then(Value::as_str) {
        Some("initialize") => true,
        Some("ping" | "server/discover") | None => false,
        Some(_) => v
            .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .is_some(),
    }
}

/// A message as one line of JSON. sonic-rs writes the same JSON as serde_json, but escapes
/// strings with SIMD: a 1 MiB resource's text is escaped several times faster, and that
/// escaping was most of the cost of answering `resources/read` for it.
fn encode_line(item: &ServerJsonRpcMessage) -> std::io::Result<Vec<u8>> {
    let mut bytes = sonic_rs::to_vec(item).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

async fn write_line<W: AsyncWrite + Unpin>(out: &Mutex<W>, bytes: &[u8]) -> std::io::Result<()> {
    let mut w = out.lock().await;
    w.write_all(bytes).await?;
    w.flush().await
}

/// Lines of at most [`MAX_LINE`] bytes from a reader: a longer line is discarded as it
/// arrives, never held whole. Cancel-safe: a partial line is kept for the next read. The
/// stdio transport and the filtering proxy read through it.
pub struct BoundedLines<R> {
    reader: BufReader<R>,
    line: Vec<u8>,
    discarding: bool,
    /// Whether `line` holds a line already returned (cleared by the next read, so its
    /// buffer is reused).
    returned: bool,
}

impl<R: AsyncRead + Unpin> BoundedLines<R> {
    pub fn new(read: R) -> Self {
        BoundedLines {
            reader: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            returned: false,
        }
    }

    /// Read one line (its newline included) into [`Self::line`]. Returns `Some(true)` for a
    /// line, `Some(false)` for a discarded over-long line, `None` at end.
    pub async fn read_line(&mut self) -> Option<bool> {
        if std::mem::take(&mut self.returned) {
            self.line.clear();
        }
        loop {
            let available = match self.reader.fill_buf().await {
                Ok(a) if !a.is_empty() => a,
                _ => return None,
            };
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let mut oversized = false;
            if !self.discarding {
                if self.line.len() + take > MAX_LINE {
                    self.line.clear();
                    self.discarding = true;
                    oversized = true;
                } else {
                    self.line.extend_from_slice(&available[..take]);
                }
            }
            self.reader.consume(take);
            if newline.is_some() {
                let was_discarding = std::mem::replace(&mut self.discarding, false);
                self.returned = true;
                return Some(!(was_discarding || oversized));
            }
        }
    }

    /// The line read last.
    pub fn line(&self) -> &[u8] {
        &self.line
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        async move {
            let bytes = encode_line(&item)?;
            write_line(&out, &bytes).await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            let complete = self.lines.read_line().await?;
            let verdict = if complete {
                let line = self.lines.line().trim_ascii();
                let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
                if line.is_empty() {
                    continue;
                }
                classify(line, self.started)
            } else {
                Verdict::Reply(error_reply(
                    None,
                    INVALID_REQUEST,
                    format!("Invalid request: message longer than {MAX_LINE} bytes"),
                ))
            };
            match verdict {
                Verdict::Pass(msg) => {
                    if !self.started && starts_lifecycle(&msg) {
                        self.started = true;
                    }
                    return Some(*msg);
                }
                Verdict::Reply(reply) => {
                    tracing::debug!("answered bad input with {reply}");
                    let out = self.out.clone();
                    let mut bytes = reply.to_string().into_bytes();
                    bytes.push(b'\n');
                    // Spawned so the reply is written even if this receive is dropped.
                    tokio::spawn(async move {
                        let _ = write_line(&out, &bytes).await;
                    });
                }
                Verdict::Drop(why) => tracing::debug!("ignored {why}"),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ReadResourceResult, ResourceContents, ServerResult};

    fn reply(line: &str, started: bool) -> Value {
        match classify(line.as_bytes(), started) {
            Verdict::Reply(v) => v,
            other => panic!("expected a reply, got {other:?}"),
        }
    }

    #[test]
    fn lines_are_the_json_serde_json_writes() {
        let text: String = (0u32..0x80)
            .filter_map(char::from_u32)
            .chain("é→😀\u{2028}\u{7f}\\\"".chars())
            .collect::<String>()
            .repeat(40);
        let result = ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
            uri: "x://a".into(),
            mime_type: Some("text/plain".into()),
            text,
            meta: None,
        }]);
        let message = ServerJsonRpcMessage::response(
            ServerResult::ReadResourceResult(result),
            rmcp::model::NumberOrString::Number(7),
        );
        let structured = json!({"z": 1, "a": [1.5, -0.0, 1e300, null, true], "m": {"k": "v"}});
        let call = ServerJsonRpcMessage::response(
            ServerResult::CallToolResult(rmcp::model::CallToolResult::structured(structured)),
            rmcp::model::NumberOrString::String("id".into()),
        );
        for m in [message, call] {
            let mut want = serde_json::to_vec(&m).unwrap();
            want.push(b'\n');
            assert_eq!(
                String::from_utf8(encode_line(&m).unwrap()).unwrap(),
                String::from_utf8(want).unwrap()
            );
        }
    }

    #[test]
    fn malformed_json_is_a_parse_error() {
        let r = reply("{\"jsonrpc\": \"2.0\", ", true);
        assert_eq!(r["error"]["code"], PARSE_ERROR);
        assert_eq!(r["id"], Value::Null);
    }

    #[test]
    fn batches_are_invalid_requests() {
        let r = reply(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, true);
        assert_eq!(r["error"]["code"], INVALID_REQUEST);
    }

    #[test]
    fn unknown_methods_are_not_found_even_before_initialize() {
        let r = reply(
            r#"{"jsonrpc":"2.0","id":7,"method":"no/such/method"}"#,
            false,
        );
        assert_eq!(r["error"]["code"], METHOD_NOT_FOUND);
        assert_eq!(r["id"], 7);
    }

    #[test]
    fn bad_params_are_invalid_params() {
        let r = reply(
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"arguments":{}}}"#,
            true,
        );
        assert_eq!(r["error"]["code"], INVALID_PARAMS);
        assert_eq!(r["id"], "a");
    }

    #[test]
    fn good_messages_pass() {
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        let Verdict::Pass(msg) = classify(line.as_bytes(), false) else {
            panic!("initialize should pass")
        };
        assert!(starts_lifecycle(&msg));
    }

    #[test]
    fn early_notifications_are_dropped() {
        let line = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert!(matches!(classify(line.as_bytes(), false), Verdict::Drop(_)));
        assert!(matches!(classify(line.as_bytes(), true), Verdict::Pass(_)));
    }
}
