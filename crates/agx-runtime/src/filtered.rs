//! Serving a server through its filter (docs/profiles.md, "Filters").
//!
//! An agx server's tools, prompts and resources are filtered once, before it serves
//! ([`apply_to_assembly`]). A wrapped server has its own process: `agx serve` then sits
//! between the client and it ([`serve_wrapped`], and the remote bridge), forwarding every
//! message unchanged (progress, cancellation, logging, `list_changed`, the server's own
//! requests such as sampling, elicitation and roots, and their answers) except the
//! answers to `tools/list`, `prompts/list`, `resources/list` and
//! `resources/templates/list`, which lose the hidden items (page by page, cursors
//! untouched), and the calls that name an item: a hidden one is refused with a JSON-RPC
//! error naming the filter; a renamed one reaches the server by its own name.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

use super::ServeError;
use super::assemble::{Assembly, WrappedServer};
use super::stdio::{BoundedLines, MAX_LINE};
use agx_model::filter::{Filter, Hidden, Kind};
use agx_model::manifest::ResourceAddress;

/// JSON-RPC "invalid params": what a refused call answers, as for an unknown tool.
pub const REFUSED: i64 = -32602;

/// Drop the hidden tools, prompts and resources of an agx server; rename and re-describe
/// the rest. A rename to the name of another shown item is refused.
pub fn apply_to_assembly(
    filter: &Filter,
    assembly: &mut Assembly,
) -> Result<(), agx_model::filter::FilterError> {
    let tools = assembly.tools.iter().map(|t| t.exposed.as_str());
    let prompts = assembly.prompts.iter().map(|p| p.exposed.as_str());
    if let Some(clash) = filter
        .rename_clash(Kind::Tool, tools)
        .or_else(|| filter.rename_clash(Kind::Prompt, prompts))
    {
        return Err(clash);
    }
    assembly
        .tools
        .retain_mut(|t| match filter.show(Kind::Tool, &t.exposed) {
            Ok(shown) => {
                if let Some(d) = shown.description {
                    t.def.description = Some(d.to_string());
                }
                if let Some(name) = shown.rename {
                    t.exposed = name.to_string();
                }
                true
            }
            Err(_) => false,
        });
    assembly
        .prompts
        .retain_mut(|p| match filter.show(Kind::Prompt, &p.exposed) {
            Ok(shown) => {
                if let Some(d) = shown.description {
                    p.def.description = Some(d.to_string());
                }
                if let Some(name) = shown.rename {
                    p.exposed = name.to_string();
                }
                true
            }
            Err(_) => false,
        });
    assembly.resources.retain_mut(|r| {
        let uri = match &r.def.address {
            ResourceAddress::Uri(u) | ResourceAddress::UriTemplate(u) => u.clone(),
        };
        match filter.show(Kind::Resource, &uri) {
            Ok(shown) => {
                if let Some(d) = shown.description {
                    r.def.description = Some(d.to_string());
                }
                if let Some(name) = shown.rename {
                    r.exposed = name.to_string();
                }
                true
            }
            Err(_) => false,
        }
    });
    Ok(())
}

/// Which list a pending request asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum List {
    Tools,
    Prompts,
    Resources,
    Templates,
}

impl List {
    fn of(method: &str) -> Option<List> {
        Some(match method {
            "tools/list" => List::Tools,
            "prompts/list" => List::Prompts,
            "resources/list" => List::Resources,
            "resources/templates/list" => List::Templates,
            _ => return None,
        })
    }

    /// The kind, the result's array and each item's key field.
    fn fields(self) -> (Kind, &'static str, &'static str) {
        match self {
            List::Tools => (Kind::Tool, "tools", "name"),
            List::Prompts => (Kind::Prompt, "prompts", "name"),
            List::Resources => (Kind::Resource, "resources", "uri"),
            List::Templates => (Kind::Resource, "resourceTemplates", "uriTemplate"),
        }
    }
}

/// What to do with a client's message.
#[derive(Debug, PartialEq)]
pub enum FromClient {
    /// Send it to the server (possibly rewritten).
    Forward(Value),
    /// Answer the client with this, and send the server nothing.
    Reply(Value),
    /// Send nothing to either side: a notification (no id) of a method that names an item,
    /// which the filter can neither let through unchecked nor answer.
    Drop,
}

/// The filter's rewriting of one session's messages.
pub struct Rewriter {
    filter: Arc<Filter>,
    server: String,
    /// List requests not answered yet, by their id's JSON text.
    pending: HashMap<String, List>,
}

impl Rewriter {
    pub fn new(filter: Arc<Filter>, server: String) -> Rewriter {
        Rewriter {
            filter,
            server,
            pending: HashMap::new(),
        }
    }

    /// Whether an answer of the server may need rewriting (else it can pass as read).
    pub fn awaits_lists(&self) -> bool {
        !self.pending.is_empty()
    }

    /// A message from the client: list requests are remembered, calls naming a hidden item
    /// are refused, calls naming a renamed one get its own name back.
    pub fn from_client(&mut self, mut message: Value) -> FromClient {
        // A batch would carry calls past the checks below, each message unseen: refused
        // whole (MCP 2025-06-18 removed batches; clients send one message at a time).
        if message.is_array() {
            return FromClient::Reply(json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": super::stdio::INVALID_REQUEST,
                          "message": "Invalid request: agx's filter takes one message at a time, not a batch"},
            }));
        }
        let Some(method) = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return FromClient::Forward(message);
        };
        let target = match method.as_str() {
            "tools/call" => Some((Kind::Tool, "/params/name")),
            "prompts/get" => Some((Kind::Prompt, "/params/name")),
            "resources/read" | "resources/subscribe" => Some((Kind::Resource, "/params/uri")),
            "completion/complete" => match message.pointer("/params/ref/type") {
                Some(t) if t == "ref/prompt" => Some((Kind::Prompt, "/params/ref/name")),
                Some(t) if t == "ref/resource" => Some((Kind::Resource, "/params/ref/uri")),
                _ => None,
            },
            _ => None,
        };
        let Some(id) = message.get("id").cloned() else {
            // A call sent as a notification gets no answer to refuse it with, and a server
            // may still run it: it goes nowhere.
            return match target {
                Some(_) => FromClient::Drop,
                None => FromClient::Forward(message),
            };
        };
        let Some((kind, pointer)) = target else {
            if let Some(list) = List::of(&method) {
                self.pending.insert(id.to_string(), list);
            }
            return FromClient::Forward(message);
        };
        let Some(Value::String(called)) = message.pointer_mut(pointer) else {
            // No name, or one that is not text (an array a server might read as its first
            // element): nothing the filter allowed.
            return FromClient::Reply(json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {"code": REFUSED,
                          "message": format!("`{method}` needs `{}` as text", pointer.trim_start_matches('/').replace('/', "."))},
            }));
        };
        match self.filter.resolve(kind, called) {
            Ok(original) => {
                if original != called.as_str() {
                    *called = original.to_string();
                }
                FromClient::Forward(message)
            }
            Err(_) => {
                let text = self
                    .filter
                    .refusal(kind, called, &self.server)
                    .unwrap_or_default();
                FromClient::Reply(json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {"code": REFUSED, "message": text},
                }))
            }
        }
    }

    /// A message from the server: the answer to a list request loses its hidden items.
    pub fn from_server(&mut self, mut message: Value) -> Value {
        if self.pending.is_empty() || message.get("method").is_some() {
            return message;
        }
        let Some(list) = message
            .get("id")
            .and_then(|id| self.pending.remove(&id.to_string()))
        else {
            return message;
        };
        let (kind, array, key) = list.fields();
        let Some(Value::Array(items)) = message.pointer_mut(&format!("/result/{array}")) else {
            return message;
        };
        if kind != Kind::Resource {
            let listed = items
                .iter()
                .filter_map(|i| i.get(key).and_then(Value::as_str));
            if let Some(clash) = self.filter.rename_clash(kind, listed) {
                // Two items under one name: the client could call only one of them.
                let id = message.get("id").cloned().unwrap_or(Value::Null);
                return json!({"jsonrpc": "2.0", "id": id, "error": {"code": REFUSED,
                    "message": format!("{clash}; give it a name of its own")}});
            }
        }
        items.retain_mut(|item| rewrite_item(&self.filter, kind, key, item).is_ok());
        message
    }
}

/// Rewrite one listed item (a tool, prompt, resource or template, whose original name or
/// URI is under `key`) as the filter shows it, or say why it is hidden.
pub fn rewrite_item(
    filter: &Filter,
    kind: Kind,
    key: &str,
    item: &mut Value,
) -> Result<(), Hidden> {
    let Some(original) = item.get(key).and_then(Value::as_str) else {
        return Ok(());
    };
    let shown = filter.show(kind, original)?;
    let (rename, description) = (
        shown.rename.map(str::to_string),
        shown.description.map(str::to_string),
    );
    if let Some(d) = description {
        item["description"] = d.into();
    }
    if let Some(name) = rename {
        item["name"] = name.into();
    }
    Ok(())
}

/// Serve a local wrapped server through its filter on stdio: start its program with piped
/// standard streams and pass messages both ways until either side ends.
pub async fn serve_wrapped(w: &WrappedServer, filter: Arc<Filter>) -> Result<(), ServeError> {
    let (program, command) = super::wrapped::command(w)?;
    let mut command = tokio::process::Command::from(command);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|source| ServeError::Wrapped {
        server: w.server.clone(),
        program,
        source,
    })?;
    let (Some(to_server), Some(from_server)) = (child.stdin.take(), child.stdout.take()) else {
        unreachable!("both streams were piped");
    };
    let rewriter = Rewriter::new(filter, w.server.to_string());
    let proxying = proxy(
        rewriter,
        tokio::io::stdin(),
        tokio::io::stdout(),
        from_server,
        to_server,
    );
    // SIGTERM on Unix; on Windows the console closing. A client that ends `agx serve` this
    // way ends the server too (as it would the server itself on the direct path).
    #[cfg(unix)]
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(ServeError::Runtime)?;
    #[cfg(windows)]
    let mut terminate = tokio::signal::windows::ctrl_close().map_err(ServeError::Runtime)?;
    tokio::select! {
        () = proxying => {}
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
    }
    let _ = child.start_kill();
    let _ = child.wait().await;
    Ok(())
}

/// How long a server may go on answering after the client closed its input: many servers
/// never exit on a closed stdin, and the proxy must not outlive its client.
const GRACE_AFTER_CLIENT: std::time::Duration = std::time::Duration::from_secs(2);

/// Pass line-delimited JSON-RPC between a client and a server, rewriting through
/// `rewriter`. Lines that are not JSON pass unchanged (the other side answers them); a line
/// longer than the stdio transport's cap is dropped (the client's is answered with an
/// error), as `agx serve` does on stdio.
pub async fn proxy<CR, CW, SR, SW>(
    mut rewriter: Rewriter,
    client_in: CR,
    mut client_out: CW,
    server_out: SR,
    server_in: SW,
) where
    CR: AsyncRead + Unpin,
    CW: AsyncWrite + Unpin,
    SR: AsyncRead + Unpin,
    SW: AsyncWrite + Unpin,
{
    let mut client_lines = BoundedLines::new(client_in);
    let mut server_lines = BoundedLines::new(server_out);
    let mut server_in = Some(server_in);
    let mut client_open = true;
    let grace = tokio::time::sleep(std::time::Duration::MAX);
    tokio::pin!(grace);
    loop {
        tokio::select! {
            complete = client_lines.read_line(), if client_open => {
                let Some(complete) = complete else {
                    // Closing the server's stdin tells it to finish; its last answers
                    // still pass, for a while.
                    client_open = false;
                    server_in = None;
                    grace.as_mut().reset(tokio::time::Instant::now() + GRACE_AFTER_CLIENT);
                    continue;
                };
                if !complete {
                    let reply = json!({"jsonrpc": "2.0", "id": null, "error": {
                        "code": super::stdio::INVALID_REQUEST,
                        "message": format!("Invalid request: message longer than {MAX_LINE} bytes")}});
                    write_line(&mut client_out, reply.to_string().as_bytes()).await;
                    continue;
                }
                let line = client_lines.line().trim_ascii();
                if line.is_empty() {
                    continue;
                }
                let rewritten;
                let out = match serde_json::from_slice::<Value>(line) {
                    Ok(message) => match rewriter.from_client(message) {
                        FromClient::Forward(m) => {
                            rewritten = m.to_string();
                            rewritten.as_bytes()
                        }
                        FromClient::Reply(reply) => {
                            write_line(&mut client_out, reply.to_string().as_bytes()).await;
                            continue;
                        }
                        FromClient::Drop => continue,
                    },
                    Err(_) => line,
                };
                if let Some(w) = server_in.as_mut()
                    && !write_line(w, out).await
                {
                    server_in = None;
                }
            }
            complete = server_lines.read_line() => {
                let Some(complete) = complete else { break };
                if !complete {
                    tracing::warn!("dropped a message of the server longer than {MAX_LINE} bytes");
                    continue;
                }
                let line = server_lines.line().trim_ascii();
                if line.is_empty() {
                    continue;
                }
                // Most messages need no rewriting: only parse while a list is awaited.
                let rewritten;
                let out = if rewriter.awaits_lists() {
                    match serde_json::from_slice::<Value>(line) {
                        Ok(message) => {
                            rewritten = rewriter.from_server(message).to_string();
                            rewritten.as_bytes()
                        }
                        Err(_) => line,
                    }
                } else {
                    line
                };
                write_line(&mut client_out, out).await;
            }
            () = &mut grace => break,
        }
    }
}

/// Write one message line; whether the other side still reads.
async fn write_line<W: AsyncWrite + Unpin>(writer: &mut W, line: &[u8]) -> bool {
    let mut bytes = Vec::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line);
    bytes.push(b'\n');
    writer.write_all(&bytes).await.is_ok() && writer.flush().await.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use agx_model::filter::{FilterSpec, Rules};

    fn rewriter() -> Rewriter {
        let spec = FilterSpec {
            tools: Rules {
                deny: vec!["get_*".into()],
                rename: [("echo".to_string(), "say".to_string())].into(),
                descriptions: [("add".to_string(), "Adds two numbers".to_string())].into(),
                ..Rules::default()
            },
            resources: Rules {
                deny: vec!["test://static/resource/2*".into()],
                ..Rules::default()
            },
            ..FilterSpec::default()
        };
        Rewriter::new(
            Arc::new(Filter::new(spec, "agx.toml").unwrap()),
            "npm/x/y".into(),
        )
    }

    #[test]
    fn list_answers_lose_hidden_items_and_keep_their_cursor() {
        let mut r = rewriter();
        let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}});
        assert_eq!(r.from_client(request.clone()), FromClient::Forward(request));
        let answer = json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": [
            {"name": "echo", "inputSchema": {}},
            {"name": "get_env", "inputSchema": {}},
            {"name": "add", "description": "Adds", "inputSchema": {}},
        ], "nextCursor": "page2"}});
        let out = r.from_server(answer);
        assert_eq!(
            out["result"],
            json!({"tools": [
                {"name": "say", "inputSchema": {}},
                {"name": "add", "description": "Adds two numbers", "inputSchema": {}},
            ], "nextCursor": "page2"})
        );
        // Answered: the next message with that id (a server's own request) passes as is.
        let later = json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": [{"name": "get_x"}]}});
        assert_eq!(r.from_server(later.clone()), later);
    }

    #[test]
    fn calls_to_hidden_items_are_refused_and_renamed_ones_reach_their_own_name() {
        let mut r = rewriter();
        let call = |name: &str| {
            json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call",
                   "params": {"name": name, "arguments": {}, "_meta": {"progressToken": 1}}})
        };
        match r.from_client(call("get_env")) {
            FromClient::Reply(reply) => {
                assert_eq!(reply["id"], "a");
                assert_eq!(reply["error"]["code"], REFUSED);
                let text = reply["error"]["message"].as_str().unwrap();
                assert!(text.contains("denied by `get_*`"), "{text}");
                assert!(text.contains("agx.toml"), "{text}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            r.from_client(call("say")),
            FromClient::Forward(call("echo"))
        );
        assert!(matches!(r.from_client(call("echo")), FromClient::Reply(_)));
        let read = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
                          "params": {"uri": "test://static/resource/20"}});
        assert!(matches!(r.from_client(read), FromClient::Reply(_)));
    }

    #[test]
    fn batches_are_refused_whole() {
        let mut r = rewriter();
        let batch = json!([
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_env"}},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ]);
        match r.from_client(batch) {
            FromClient::Reply(reply) => {
                assert_eq!(reply["id"], Value::Null);
                assert_eq!(reply["error"]["code"], super::super::stdio::INVALID_REQUEST);
                assert!(
                    reply["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains("batch")
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(
            !r.awaits_lists(),
            "nothing of a refused batch is remembered"
        );
    }

    #[test]
    fn calls_sent_as_notifications_go_nowhere() {
        let mut r = rewriter();
        for name in ["get_env", "say"] {
            let notification = json!({"jsonrpc": "2.0", "method": "tools/call",
                                      "params": {"name": name, "arguments": {}}});
            assert_eq!(r.from_client(notification), FromClient::Drop, "{name}");
        }
        let read = json!({"jsonrpc": "2.0", "method": "resources/read",
                          "params": {"uri": "test://static/resource/20"}});
        assert_eq!(r.from_client(read), FromClient::Drop);
        // Other notifications pass.
        let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                               "params": {"requestId": 1}});
        assert_eq!(
            r.from_client(cancelled.clone()),
            FromClient::Forward(cancelled)
        );
    }

    #[test]
    fn a_name_that_is_not_text_is_refused() {
        let mut r = rewriter();
        for name in [json!(["get_env"]), json!({"0": "get_env"}), json!(null)] {
            let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                              "params": {"name": name, "arguments": {}}});
            match r.from_client(call) {
                FromClient::Reply(reply) => {
                    assert_eq!(reply["id"], 9);
                    assert_eq!(reply["error"]["code"], REFUSED);
                }
                other => panic!("{name}: {other:?}"),
            }
        }
        let nameless = json!({"jsonrpc": "2.0", "id": 10, "method": "prompts/get", "params": {}});
        assert!(matches!(r.from_client(nameless), FromClient::Reply(_)));
    }

    #[test]
    fn a_list_whose_renamed_item_takes_a_listed_name_is_refused() {
        let mut r = rewriter();
        let request = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list"});
        r.from_client(request);
        let answer = json!({"jsonrpc": "2.0", "id": 8, "result": {"tools": [
            {"name": "echo", "inputSchema": {}}, {"name": "say", "inputSchema": {}},
        ]}});
        let out = r.from_server(answer);
        let text = out["error"]["message"].as_str().unwrap_or_default();
        assert!(
            text.contains("`echo` is renamed to `say`, a name the server's own `say` keeps"),
            "{out}"
        );
    }

    #[test]
    fn other_messages_pass_unchanged() {
        let mut r = rewriter();
        for message in [
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4}}),
            json!({"jsonrpc": "2.0", "id": 9, "result": {"role": "assistant"}}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
        ] {
            assert_eq!(
                r.from_client(message.clone()),
                FromClient::Forward(message.clone())
            );
            assert_eq!(r.from_server(message.clone()), message);
        }
    }

    #[tokio::test]
    async fn the_proxy_passes_lines_both_ways_and_answers_refusals_itself() {
        use tokio::io::{AsyncReadExt, duplex};
        let client_in = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_env\"}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\nnot json\n";
        let (mut server_out_w, server_out_r) = duplex(4096);
        let (server_in_w, mut server_in_r) = duplex(4096);
        let (client_out_w, mut client_out_r) = duplex(4096);
        let running = proxy(
            rewriter(),
            &client_in[..],
            client_out_w,
            server_out_r,
            server_in_w,
        );
        let server = async move {
            // The server reads until the client's end closes its stdin, then answers.
            let mut got = String::new();
            server_in_r.read_to_string(&mut got).await.unwrap();
            server_out_w
                .write_all(
                    b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\
                      {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"get_x\"},{\"name\":\"echo\"}]}}\n",
                )
                .await
                .unwrap();
            got
        };
        let ((), server_in) = tokio::join!(running, server);
        assert!(!server_in.contains("get_env"), "{server_in}");
        assert!(server_in.contains("\"tools/list\""), "{server_in}");
        assert!(server_in.ends_with("not json\n"), "{server_in}");
        let mut client_out = String::new();
        client_out_r.read_to_string(&mut client_out).await.unwrap();
        let lines: Vec<&str> = client_out.lines().collect();
        assert_eq!(lines.len(), 3, "{client_out}");
        assert!(lines[0].contains("denied by `get_*`"), "{client_out}");
        assert!(lines[1].contains("list_changed"), "{client_out}");
        assert!(
            lines[2].contains("\"say\"") && !lines[2].contains("get_x"),
            "{client_out}"
        );
    }

    #[tokio::test]
    async fn the_proxy_does_not_outlive_its_client_when_the_server_never_exits() {
        use tokio::io::duplex;
        // The server's output stays open: it never exits on a closed stdin.
        let (_server_out_w, server_out_r) = duplex(64);
        let (server_in_w, _server_in_r) = duplex(64);
        let running = proxy(
            rewriter(),
            &b""[..],
            tokio::io::sink(),
            server_out_r,
            server_in_w,
        );
        // A guard against a hang, far beyond the grace period.
        tokio::time::timeout(std::time::Duration::from_secs(60), running)
            .await
            .expect("the proxy ends after the grace period");
    }

    #[tokio::test]
    async fn an_over_long_client_line_is_answered_and_not_forwarded() {
        use tokio::io::{AsyncReadExt, duplex};
        let mut client_in = vec![b'x'; MAX_LINE + 1];
        client_in.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n");
        let (server_out_w, server_out_r) = duplex(64);
        let (server_in_w, mut server_in_r) = duplex(1 << 16);
        let (client_out_w, mut client_out_r) = duplex(1 << 16);
        let running = proxy(
            rewriter(),
            &client_in[..],
            client_out_w,
            server_out_r,
            server_in_w,
        );
        let read_server = async move {
            let mut got = Vec::new();
            server_in_r.read_to_end(&mut got).await.unwrap();
            // The server ends once the client has.
            drop(server_out_w);
            got
        };
        let ((), server_got) = tokio::join!(running, read_server);
        let mut client_got = String::new();
        client_out_r.read_to_string(&mut client_got).await.unwrap();
        assert!(client_got.contains("message longer than"), "{client_got}");
        assert!(
            server_got.len() < 1024,
            "{} bytes reached the server",
            server_got.len()
        );
    }
}
