//! A client of either MCP era in front of a backend (a filtered wrapped server, a profile's
//! members): legacy clients pass unchanged. For a modern (2026-07-28) client agx first asks
//! the backend `server/discover` (the stdio probe of basic/transports/stdio): a backend that
//! answers it speaks the modern era, and the client's requests pass as they are. Any other
//! answer, or none in time, means a legacy backend: agx opens its session itself with
//! `initialize` (the client's capabilities and name from the first request's `_meta`),
//! answers `server/discover` from the `initialize` result, strips the era keys from each
//! request and marks each answer with `resultType` and, on lists, caching hints
//! (docs/serve.md, "Protocol eras").
//!
//! A modern client's requests reach the backend under agx's own ids: a call the backend
//! asks the client about (sampling, elicitation, roots: legacy requests from server to
//! client) is answered `input_required` (basic/patterns/mrtr) while the backend waits; the
//! client's retry, naming the `requestState` agx gave, brings the input, which goes to the
//! backend as the answer to its request, and the call's answer comes as the retry's.
//!
//! What a modern client cannot take is dropped: the backend's change notifications and log
//! messages (the modern revision sends those only on `subscriptions/listen` or for a
//! request that set a log level), and the backend's requests agx cannot tie to one call of
//! the client's (none or several in flight) or that the client did not declare, which are
//! refused to the backend as a client without those capabilities would.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::era::{self, CacheHint, Era};
use super::filtered::Sends;
use super::stdio::{INVALID_PARAMS, METHOD_NOT_FOUND};

/// The JSON-RPC error of a request the backend's `initialize` failed under.
const BACKEND_FAILED: i64 = -32603;

/// The key of the one input request agx puts in an `input_required` answer.
const INPUT_KEY: &str = "input";

/// A modern request sent on to the backend under agx's own id.
struct Forwarded {
    /// The id the client awaits the answer under; `None` while suspended for its input.
    client_id: Option<Value>,
    method: String,
    /// The capabilities its request declared.
    capabilities: Value,
    /// The backend's answer, when it came while the call was suspended.
    early_answer: Option<Value>,
}

/// A call suspended for the client's input, by the `requestState` agx gave for it.
struct Suspended {
    /// agx's id of the call (as the backend knows it).
    call: String,
    /// The backend's request, waiting for its answer, and its id.
    request: Value,
    request_id: Value,
}

/// How long the backend may take to answer the `server/discover` probe: a legacy server
/// may not answer a method it does not know before `initialize`.
const PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// agx opening the backend for a modern client.
struct Handshake {
    /// The id's text of agx's request: the probe, then `initialize`.
    id: String,
    probing: bool,
    /// The client's requests waiting for the backend's era.
    waiting: Vec<Value>,
    /// When the probe's time runs out.
    deadline: Option<tokio::time::Instant>,
}

/// The translation state of one client's connection.
pub(crate) struct EraAdapter {
    hint: CacheHint,
    /// The backend's `initialize` result, once it answered (agx's or a legacy client's).
    initialized: Option<Value>,
    /// The backend's `server/discover` result, when it speaks the modern era.
    discovered: Option<Value>,
    handshake: Option<Handshake>,
    /// A probe whose time ran out: its late answer goes nowhere.
    abandoned_probe: Option<String>,
    /// A legacy client's `initialize` (its id's text), whose answer agx records too.
    legacy_initialize: Option<String>,
    /// Whether a legacy client opened a session: the backend's notifications and requests
    /// are then for it.
    legacy_client: bool,
    /// Modern requests sent on, by agx's id's text.
    modern: HashMap<String, Forwarded>,
    /// agx's id's text of a modern request, by the client's id's text (for cancellation).
    by_client: HashMap<String, String>,
    suspended: HashMap<String, Suspended>,
    next_id: u64,
}

impl EraAdapter {
    /// An adapter whose cacheable answers to modern clients carry `hint` unless the backend
    /// gave its own.
    pub(crate) fn new(hint: CacheHint) -> EraAdapter {
        EraAdapter {
            hint,
            initialized: None,
            discovered: None,
            handshake: None,
            abandoned_probe: None,
            legacy_initialize: None,
            legacy_client: false,
            modern: HashMap::new(),
            by_client: HashMap::new(),
            suspended: HashMap::new(),
            next_id: 0,
        }
    }

    /// Whether the backend's messages need reading: an answer is awaited, or a modern
    /// client alone is served (whose backend messages are sorted).
    pub(crate) fn reads_server_messages(&self) -> bool {
        self.handshake.is_some()
            || self.abandoned_probe.is_some()
            || self.legacy_initialize.is_some()
            || !self.modern.is_empty()
            || (!self.legacy_client && (self.initialized.is_some() || self.discovered.is_some()))
    }

    /// When the probe's time runs out, if one is awaited: then call [`EraAdapter::time_out`].
    pub(crate) fn deadline(&self) -> Option<tokio::time::Instant> {
        self.handshake.as_ref().and_then(|h| h.deadline)
    }

    /// The probe's time ran out: the backend is taken for a legacy one.
    pub(crate) fn time_out(&mut self) -> Sends {
        match self.handshake.take() {
            Some(handshake) if handshake.probing => {
                self.abandoned_probe = Some(handshake.id);
                self.initialize_backend(handshake.waiting)
            }
            other => {
                self.handshake = other;
                Sends::default()
            }
        }
    }

    fn own_id(&mut self, kind: &str) -> String {
        self.next_id += 1;
        format!("agx-{kind}-{}", self.next_id)
    }

    /// A message from the client.
    pub(crate) fn client_message(&mut self, mut message: Value) -> Sends {
        if message.get("method") == Some(&json!("notifications/cancelled"))
            && let Some(request) = message.pointer_mut("/params/requestId")
            && let Some(own) = self.by_client.get(&request.to_string())
        {
            *request = serde_json::from_str(own).unwrap_or(Value::Null);
        }
        let (Some(method), Some(id)) = (
            message
                .get("method")
                .and_then(Value::as_str)
                .map(str::to_owned),
            message.get("id").cloned(),
        ) else {
            return to_server(message);
        };
        match era::of_request(&message) {
            Err(requested) => to_client(era::unsupported_version(&id, &requested)),
            Ok(Era::Legacy) => {
                if method == "initialize" {
                    self.legacy_initialize = Some(id.to_string());
                    self.legacy_client = true;
                }
                to_server(message)
            }
            Ok(Era::Modern) => {
                // The backend's era is known once it answered the probe or `initialize`.
                let Some(opened) = self.discovered.as_ref().or(self.initialized.as_ref()) else {
                    return self.wait_for_handshake(message);
                };
                if method == "server/discover" {
                    let result = match &self.discovered {
                        Some(discovered) => discovered.clone(),
                        None => era::discover_result(opened, self.hint),
                    };
                    return to_client(json!({"jsonrpc": "2.0", "id": id, "result": result}));
                }
                // A modern backend's own state passes to it; agx's is for agx.
                if let Some(state) = message.pointer("/params/requestState")
                    && (self.discovered.is_none()
                        || state
                            .as_str()
                            .is_some_and(|s| self.suspended.contains_key(s)))
                {
                    let state = state.as_str().unwrap_or_default().to_owned();
                    return self.resume(&state, id, &message);
                }
                let capabilities = era::client_capabilities(&message);
                if self.discovered.is_none() {
                    era::to_legacy_request(&mut message);
                }
                // The client may reuse its id once answered, even while the backend still
                // runs the call for a suspended one: the backend knows agx's ids.
                let own = json!(self.own_id("era"));
                message["id"] = own.clone();
                self.by_client.insert(id.to_string(), own.to_string());
                let forwarded = Forwarded {
                    client_id: Some(id),
                    method,
                    capabilities,
                    early_answer: None,
                };
                self.modern.insert(own.to_string(), forwarded);
                to_server(message)
            }
        }
    }

    /// The retry of a suspended call: its input goes to the backend as the answer to its
    /// request, and the call's answer will be the retry's.
    fn resume(&mut self, state: &str, id: Value, retry: &Value) -> Sends {
        let Some(suspended) = self.suspended.remove(state) else {
            return to_client(json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": INVALID_PARAMS,
                "message": "`requestState` names no request waiting for input on this connection",
            }}));
        };
        let Some(input) = retry
            .pointer(&format!("/params/inputResponses/{INPUT_KEY}"))
            .cloned()
        else {
            // Asked again rather than failed (basic/patterns/mrtr, error handling).
            let again = era::input_required(&id, INPUT_KEY, &suspended.request, state);
            self.suspended.insert(state.to_owned(), suspended);
            return to_client(again);
        };
        let Some(forwarded) = self.modern.get_mut(&suspended.call) else {
            return Sends::default();
        };
        forwarded.client_id = Some(id.clone());
        let early = forwarded.early_answer.take();
        self.by_client
            .insert(id.to_string(), suspended.call.clone());
        let mut sends =
            to_server(json!({"jsonrpc": "2.0", "id": suspended.request_id, "result": input}));
        if let Some(answer) = early {
            sends.extend(self.server_message(answer));
        }
        sends
    }

    /// Hold a modern request until the backend's era is known, probing it if need be.
    fn wait_for_handshake(&mut self, message: Value) -> Sends {
        if let Some(handshake) = &mut self.handshake {
            handshake.waiting.push(message);
            return Sends::default();
        }
        let id = json!(self.own_id("era"));
        let meta = message
            .pointer("/params/_meta")
            .cloned()
            .unwrap_or(json!({}));
        let probe = json!({"jsonrpc": "2.0", "id": id, "method": "server/discover",
                           "params": {"_meta": meta}});
        self.handshake = Some(Handshake {
            id: id.to_string(),
            probing: true,
            waiting: vec![message],
            deadline: Some(tokio::time::Instant::now() + PROBE_TIMEOUT),
        });
        to_server(probe)
    }

    /// Open a legacy backend's session for the waiting modern requests.
    fn initialize_backend(&mut self, waiting: Vec<Value>) -> Sends {
        let id = json!(self.own_id("era"));
        let params = waiting.first().map_or(json!({}), era::initialize_params);
        let initialize =
            json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": params});
        self.handshake = Some(Handshake {
            id: id.to_string(),
            probing: false,
            waiting,
            deadline: None,
        });
        to_server(initialize)
    }

    /// The probe answered: a `server/discover` result naming the modern version makes the
    /// backend modern (the waiting requests go on as they are); anything else, legacy.
    fn probe_answered(&mut self, answer: &Value) -> Sends {
        let Some(handshake) = self.handshake.take() else {
            return Sends::default();
        };
        let modern = answer
            .pointer("/result/supportedVersions")
            .and_then(Value::as_array)
            .is_some_and(|versions| versions.contains(&json!(era::MODERN)));
        if !modern {
            return self.initialize_backend(handshake.waiting);
        }
        self.discovered = answer.get("result").cloned();
        let mut sends = Sends::default();
        for message in handshake.waiting {
            sends.extend(self.client_message(message));
        }
        sends
    }

    /// A message from the backend (or an answer agx made for it, such as a filter's refusal).
    pub(crate) fn server_message(&mut self, mut message: Value) -> Sends {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(id) = message.get("id").cloned() else {
            return match method {
                Some(method)
                    if self.translates_for_modern_client() && !reaches_modern_client(&method) =>
                {
                    Sends::default()
                }
                _ => to_client(message),
            };
        };
        if let Some(method) = method {
            return self.server_request(&method, &id, message);
        }
        let text = id.to_string();
        if self.abandoned_probe.as_deref() == Some(&text) {
            self.abandoned_probe = None;
            return Sends::default();
        }
        if let Some(handshake) = &self.handshake
            && handshake.id == text
        {
            return if handshake.probing {
                self.probe_answered(&message)
            } else {
                self.handshake_answered(&message)
            };
        }
        if self.legacy_initialize.as_deref() == Some(&text) {
            self.legacy_initialize = None;
            if let Some(result) = message.get("result") {
                self.initialized = Some(result.clone());
            }
        } else if let Some(forwarded) = self.modern.get_mut(&text) {
            let Some(client_id) = forwarded.client_id.clone() else {
                // Suspended: the retry takes it.
                forwarded.early_answer = Some(message);
                return Sends::default();
            };
            let method = std::mem::take(&mut forwarded.method);
            self.modern.remove(&text);
            self.by_client.remove(&client_id.to_string());
            message["id"] = client_id;
            era::to_modern_answer(&method, &mut message, self.hint);
        }
        to_client(message)
    }

    /// Whether agx opened a legacy backend for a modern client, and no legacy client shares
    /// it: the backend's notifications and requests are then sorted for the modern client.
    /// A client that sent neither `initialize` nor a modern request is taken as legacy.
    fn translates_for_modern_client(&self) -> bool {
        !self.legacy_client
            && self.discovered.is_none()
            && (self.initialized.is_some() || self.handshake.is_some())
    }

    /// A request of the backend's: a legacy client's to answer; for a modern client asked
    /// as input for its call, or refused.
    fn server_request(&mut self, method: &str, id: &Value, message: Value) -> Sends {
        if !self.translates_for_modern_client() {
            return to_client(message);
        }
        if method == "ping" {
            return to_server(json!({"jsonrpc": "2.0", "id": id, "result": {}}));
        }
        if let Some(sends) = self.suspend(method, id, &message) {
            return sends;
        }
        to_server(json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": METHOD_NOT_FOUND,
            "message": format!(
                "`{method}` is not passed on: the client speaks MCP {}, which takes requests from the server only as input for one call it declared them for",
                era::MODERN
            ),
        }}))
    }

    /// Suspend the one call in flight that may take input, answering it `input_required`
    /// with the backend's request; `None` when there is no such single call (a legacy
    /// request names no call) or its client did not declare the request.
    fn suspend(&mut self, method: &str, request_id: &Value, message: &Value) -> Option<Sends> {
        let open: Vec<&String> = self
            .modern
            .iter()
            .filter(|(_, f)| f.client_id.is_some() && era::takes_input(&f.method))
            .map(|(own, _)| own)
            .collect();
        let [call] = open[..] else {
            return None;
        };
        let call = call.clone();
        let state = self.own_id("input");
        let forwarded = self.modern.get_mut(&call)?;
        if !era::declares(&forwarded.capabilities, method) {
            return None;
        }
        let client_id = forwarded.client_id.take()?;
        self.by_client.remove(&client_id.to_string());
        let request = json!({"method": method, "params": message.get("params").cloned().unwrap_or(json!({}))});
        let answer = era::input_required(&client_id, INPUT_KEY, &request, &state);
        let suspended = Suspended {
            call,
            request,
            request_id: request_id.clone(),
        };
        self.suspended.insert(state, suspended);
        Some(to_client(answer))
    }

    /// agx's own `initialize` answered: the session is opened and the waiting requests go
    /// on, or each is answered with why it cannot.
    fn handshake_answered(&mut self, answer: &Value) -> Sends {
        let Some(Handshake { waiting, .. }) = self.handshake.take() else {
            return Sends::default();
        };
        let mut sends = Sends::default();
        match answer.get("result") {
            Some(result) => {
                self.initialized = Some(result.clone());
                sends
                    .to_server
                    .push(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
                for message in waiting {
                    sends.extend(self.client_message(message));
                }
            }
            None => {
                let why = answer
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("no result");
                for message in waiting {
                    sends
                        .to_client
                        .push(json!({"jsonrpc": "2.0", "id": message["id"],
                        "error": {"code": BACKEND_FAILED,
                                  "message": format!("the server's `initialize` failed: {why}")}}));
                }
            }
        }
        sends
    }
}

/// Whether a backend notification reaches a modern client: those about one of its requests
/// (progress, cancellation) do; change notifications and log messages do not.
fn reaches_modern_client(method: &str) -> bool {
    matches!(method, "notifications/progress" | "notifications/cancelled")
}

fn to_server(message: Value) -> Sends {
    Sends {
        to_server: vec![message],
        to_client: Vec::new(),
    }
}

fn to_client(message: Value) -> Sends {
    Sends {
        to_server: Vec::new(),
        to_client: vec![message],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modern(id: u64, method: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": era::MODERN,
            "io.modelcontextprotocol/clientInfo": {"name": "modern", "version": "1"},
        }}})
    }

    fn initialize_result() -> Value {
        json!({"protocolVersion": era::LEGACY, "capabilities": {"tools": {"listChanged": true}},
               "serverInfo": {"name": "backend", "version": "1"}})
    }

    /// An adapter whose backend session agx opened for a modern client.
    /// The `initialize` agx sends a legacy backend for `first`, after the backend refused
    /// the probe.
    fn probed_legacy(adapter: &mut EraAdapter, first: Value) -> Value {
        let [probe] = <[Value; 1]>::try_from(adapter.client_message(first).to_server).unwrap();
        assert_eq!(probe["method"], "server/discover");
        let refused = json!({"jsonrpc": "2.0", "id": probe["id"],
                             "error": {"code": -32601, "message": "Method not found"}});
        let [initialize] =
            <[Value; 1]>::try_from(adapter.server_message(refused).to_server).unwrap();
        initialize
    }

    fn opened() -> EraAdapter {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let initialize = &probed_legacy(&mut adapter, modern(1, "server/discover"));
        let answered = adapter.server_message(
            json!({"jsonrpc": "2.0", "id": initialize["id"], "result": initialize_result()}),
        );
        assert_eq!(answered.to_client.len(), 1, "{answered:?}");
        adapter
    }

    #[test]
    fn a_modern_client_gets_the_backend_opened_for_it_and_discovery_answered() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let initialize = probed_legacy(&mut adapter, modern(1, "server/discover"));
        assert_eq!(initialize["method"], "initialize");
        assert_eq!(initialize["params"]["clientInfo"]["name"], "modern");
        // A second request waits for the same handshake.
        assert_eq!(
            adapter.client_message(modern(2, "tools/list")),
            Sends::default()
        );
        let answered = adapter.server_message(
            json!({"jsonrpc": "2.0", "id": initialize["id"], "result": initialize_result()}),
        );
        assert_eq!(answered.to_server[0]["method"], "notifications/initialized");
        let list = &answered.to_server[1];
        assert_eq!(list["method"], "tools/list");
        assert_eq!(list["params"], json!({}));
        let [discovered] = <[Value; 1]>::try_from(answered.to_client).unwrap();
        assert_eq!(discovered["id"], 1);
        assert_eq!(discovered["result"]["resultType"], "complete");
        assert_eq!(discovered["result"]["capabilities"], json!({"tools": {}}));
        let listed = adapter
            .server_message(json!({"jsonrpc": "2.0", "id": list["id"], "result": {"tools": []}}));
        assert_eq!(listed.to_client[0]["id"], 2);
        assert_eq!(listed.to_client[0]["result"]["resultType"], "complete");
        assert_eq!(listed.to_client[0]["result"]["ttlMs"], 0);
    }

    #[test]
    fn a_legacy_client_passes_unchanged() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                "params": {"protocolVersion": era::LEGACY}});
        assert_eq!(
            adapter.client_message(initialize.clone()).to_server,
            vec![initialize]
        );
        let answer = json!({"jsonrpc": "2.0", "id": 0, "result": initialize_result()});
        assert_eq!(
            adapter.server_message(answer.clone()).to_client,
            vec![answer]
        );
        for message in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ] {
            assert_eq!(
                adapter.client_message(message.clone()).to_server,
                vec![message]
            );
        }
        for message in [
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}),
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "sampling/createMessage", "params": {}}),
        ] {
            assert_eq!(
                adapter.server_message(message.clone()).to_client,
                vec![message]
            );
        }
        assert!(!adapter.reads_server_messages());
    }

    #[test]
    fn what_a_modern_client_cannot_take_is_kept_from_it() {
        let mut adapter = opened();
        let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        assert_eq!(adapter.server_message(changed), Sends::default());
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
                              "params": {"progressToken": 1, "progress": 1}});
        assert_eq!(
            adapter.server_message(progress.clone()).to_client,
            vec![progress]
        );
        let sampling = json!({"jsonrpc": "2.0", "id": 9, "method": "sampling/createMessage"});
        let refused = adapter.server_message(sampling);
        assert_eq!(refused.to_server[0]["id"], 9);
        assert_eq!(refused.to_server[0]["error"]["code"], METHOD_NOT_FOUND);
    }

    /// A modern call that declares sampling, as the backend got it.
    fn call_sent(adapter: &mut EraAdapter, id: u64) -> Value {
        let mut call = modern(id, "tools/call");
        call["params"]["name"] = json!("ask");
        call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
            json!({"sampling": {}});
        let [sent] = <[Value; 1]>::try_from(adapter.client_message(call).to_server).unwrap();
        assert_ne!(sent["id"], id, "the backend knows agx's id");
        sent
    }

    #[test]
    fn a_backends_request_during_a_call_is_asked_of_the_client_and_its_retry_answers_it() {
        let mut adapter = opened();
        let sent = call_sent(&mut adapter, 5);
        let sampling = json!({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
                              "params": {"messages": [], "maxTokens": 5}});
        let [asked] = <[Value; 1]>::try_from(adapter.server_message(sampling).to_client).unwrap();
        assert_eq!(asked["id"], 5);
        let result = &asked["result"];
        assert_eq!(result["resultType"], "input_required");
        assert_eq!(
            result["inputRequests"][INPUT_KEY]["method"],
            "sampling/createMessage"
        );
        let state = result["requestState"].clone();
        // A retry without the input is asked again.
        let mut retry = modern(6, "tools/call");
        retry["params"]["requestState"] = state.clone();
        let again = adapter.client_message(retry.clone());
        assert_eq!(again.to_client[0]["id"], 6);
        assert_eq!(again.to_client[0]["result"]["resultType"], "input_required");
        // With it: the backend's request is answered, and the call's answer is the retry's.
        let said = json!({"role": "assistant", "content": {"type": "text", "text": "sunny"}});
        retry["id"] = json!(7);
        retry["params"]["inputResponses"] = json!({INPUT_KEY: said});
        let [answer] = <[Value; 1]>::try_from(adapter.client_message(retry).to_server).unwrap();
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "id": "s1", "result": said})
        );
        let done = adapter
            .server_message(json!({"jsonrpc": "2.0", "id": sent["id"], "result": {"content": []}}));
        assert_eq!(done.to_client[0]["id"], 7);
        assert_eq!(done.to_client[0]["result"]["resultType"], "complete");
        // The state is spent.
        let mut stale = modern(8, "tools/call");
        stale["params"]["requestState"] = state;
        let refused = adapter.client_message(stale);
        assert_eq!(refused.to_client[0]["error"]["code"], INVALID_PARAMS);
    }

    #[test]
    fn a_backends_request_is_refused_when_no_single_call_declared_it() {
        let mut adapter = opened();
        let elicit = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create"});
        // One call, which declared sampling only.
        call_sent(&mut adapter, 1);
        let refused = adapter.server_message(elicit.clone());
        assert_eq!(refused.to_server[0]["error"]["code"], METHOD_NOT_FOUND);
        // Two calls: the request names neither.
        call_sent(&mut adapter, 2);
        let sampling = json!({"jsonrpc": "2.0", "id": "s2", "method": "sampling/createMessage"});
        let refused = adapter.server_message(sampling);
        assert_eq!(refused.to_server[0]["error"]["code"], METHOD_NOT_FOUND);
    }

    #[test]
    fn a_cancellation_names_the_call_as_the_backend_knows_it() {
        let mut adapter = opened();
        let sent = call_sent(&mut adapter, 3);
        let cancelled = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                               "params": {"requestId": 3}});
        let [passed] = <[Value; 1]>::try_from(adapter.client_message(cancelled).to_server).unwrap();
        assert_eq!(passed["params"]["requestId"], sent["id"]);
    }

    #[test]
    fn a_backend_that_answers_the_probe_is_spoken_to_in_the_modern_era() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let [probe] =
            <[Value; 1]>::try_from(adapter.client_message(modern(1, "tools/list")).to_server)
                .unwrap();
        assert_eq!(
            probe["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            era::MODERN
        );
        let discovered = json!({"resultType": "complete", "supportedVersions": [era::MODERN],
                                "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "private"});
        let answered = adapter
            .server_message(json!({"jsonrpc": "2.0", "id": probe["id"], "result": discovered}));
        // No `initialize`: the waiting request goes on with its `_meta`.
        let [list] = <[Value; 1]>::try_from(answered.to_server).unwrap();
        assert_eq!(list["method"], "tools/list");
        assert_eq!(
            list["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            era::MODERN
        );
        let listed = adapter.server_message(json!({"jsonrpc": "2.0", "id": list["id"], "result": {
            "resultType": "complete", "tools": [], "ttlMs": 60000, "cacheScope": "public"}}));
        assert_eq!(listed.to_client[0]["id"], 1);
        assert_eq!(listed.to_client[0]["result"]["ttlMs"], 60000);
        let (again, _) = (adapter.client_message(modern(2, "server/discover")), ());
        assert_eq!(again.to_client[0]["result"], discovered);
        // The modern backend's notifications are the client's.
        let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        assert_eq!(
            adapter.server_message(changed.clone()).to_client,
            vec![changed]
        );
    }

    #[test]
    fn a_backend_silent_to_the_probe_is_taken_for_legacy() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let [probe] =
            <[Value; 1]>::try_from(adapter.client_message(modern(1, "tools/list")).to_server)
                .unwrap();
        assert!(adapter.deadline().is_some());
        let [initialize] = <[Value; 1]>::try_from(adapter.time_out().to_server).unwrap();
        assert_eq!(initialize["method"], "initialize");
        assert!(adapter.deadline().is_none());
        // Its late answer goes nowhere.
        let late = json!({"jsonrpc": "2.0", "id": probe["id"], "result": {}});
        assert_eq!(adapter.server_message(late), Sends::default());
    }

    #[test]
    fn a_failed_handshake_answers_the_waiting_requests() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let id = probed_legacy(&mut adapter, modern(4, "tools/call"))["id"].clone();
        let failed = adapter.server_message(
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -1, "message": "broken"}}),
        );
        assert_eq!(failed.to_client[0]["id"], 4);
        let text = failed.to_client[0]["error"]["message"].as_str().unwrap();
        assert!(text.contains("broken"), "{text}");
    }

    #[test]
    fn an_unknown_version_is_refused_with_the_supported_ones() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let mut request = modern(3, "tools/list");
        request["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
        let refused = adapter.client_message(request);
        assert_eq!(
            refused.to_client[0]["error"]["code"],
            era::UNSUPPORTED_PROTOCOL_VERSION
        );
    }
}
