//! A legacy client (one that opens a session with `initialize`) in front of a backend that
//! speaks only the modern era (2026-07-28): the backend refused the client's `initialize`
//! and answered agx's `server/discover` probe with a modern version. agx then stands in for
//! the session the backend does not keep (docs/serve.md, "Protocol eras"):
//!
//! - the client's `initialize` is answered from the discovery result;
//! - each request carries the modern era keys (the version, and the capabilities and
//!   identity the client's `initialize` declared, plus a log level once it set one);
//! - answers lose `resultType` and the caching hints;
//! - a call the backend answers `input_required` (basic/patterns/mrtr) becomes the legacy
//!   requests it asks for (`sampling/createMessage`, `elicitation/create`, `roots/list`),
//!   sent to the client mid-call as a legacy server would; once every one is answered, agx
//!   retries the call with the answers and the backend's `requestState`, and the retry's
//!   answer is the call's;
//! - change notifications come from `subscriptions/listen` streams agx keeps open: one for
//!   the lists the backend declares, and one for each resource the client subscribed to
//!   (so a subscription opens or ends without touching the others);
//! - `ping` and `logging/setLevel`, which the modern revision removed, are answered by agx.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::era;
use super::era::SUBSCRIPTION_ID;
use super::filtered::Sends;

/// How many times one call may come back `input_required` before agx gives up on it: a
/// backend that keeps asking would otherwise hold the client forever.
const MAX_ROUNDS: u32 = 16;

/// Where agx's own ids start: an answer of the client's to one of them is agx's.
const OWN_PREFIX: &str = "agx-modern-";

/// A call of the client's that may be answered `input_required`.
struct Call {
    /// The id the client awaits the answer under.
    client_id: Value,
    /// The request as first sent to the backend (with its era keys).
    request: Value,
    rounds: u32,
}

/// A call waiting for the client's answers to the backend's input requests.
struct Gather {
    call: Call,
    state: Option<Value>,
    /// The input requests still unanswered: agx's request id's text → the backend's key.
    open: HashMap<String, String>,
    responses: Map<String, Value>,
}

/// The translation state of one legacy client's session with a modern-only backend.
pub(crate) struct ModernBackend {
    /// The era keys each request carries.
    envelope: Map<String, Value>,
    capabilities: Value,
    /// Calls sent on, by the id's text the backend answers under.
    calls: HashMap<String, Call>,
    /// Calls waiting for input, by a number of agx's.
    gathers: HashMap<u64, Gather>,
    /// agx's input request id's text → the gather it belongs to.
    inputs: HashMap<String, u64>,
    /// The open streams, by their id's text: the lists' (`None`), and each subscribed
    /// resource's (its URI).
    streams: HashMap<String, Option<String>>,
    next_id: u64,
}

impl ModernBackend {
    /// Stand in for the session: `initialize` (the client's request) is answered from the
    /// backend's `discovered` result, and the change stream is opened.
    pub(crate) fn open(initialize: &Value, discovered: &Value) -> (ModernBackend, Sends) {
        let mut backend = ModernBackend {
            envelope: era::envelope_of_initialize(initialize),
            capabilities: discovered.get("capabilities").cloned().unwrap_or(json!({})),
            calls: HashMap::new(),
            gathers: HashMap::new(),
            inputs: HashMap::new(),
            streams: HashMap::new(),
            next_id: 0,
        };
        let mut sends = Sends::default();
        sends
            .to_client
            .push(json!({"jsonrpc": "2.0", "id": initialize["id"],
            "result": era::initialize_result(initialize, discovered)}));
        sends.to_server.extend(backend.lists_stream());
        (backend, sends)
    }

    fn own_id(&mut self, kind: &str) -> String {
        self.next_id += 1;
        format!("{OWN_PREFIX}{kind}-{}", self.next_id)
    }

    /// Give a request sent to the backend (the client's, or a filter's own listing) the era
    /// keys it lacks.
    pub(crate) fn stamp(&self, message: &mut Value) {
        era::stamp_request(message, &self.envelope);
    }

    /// A message from the client.
    pub(crate) fn client_message(&mut self, message: Value) -> Sends {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let id = message.get("id").cloned();
        match (method.as_deref(), id) {
            (None, Some(id)) => self.input_answered(&id, message),
            (Some(method), None) => self.client_notification(method, message),
            (Some(method), Some(id)) => {
                let answer = |result: Value| {
                    Sends::client(json!({"jsonrpc": "2.0", "id": id, "result": result}))
                };
                match method {
                    // Removed from the modern revision: agx answers for the backend.
                    "ping" => answer(json!({})),
                    "logging/setLevel" => {
                        let level = message.pointer("/params/level").cloned();
                        era::set_log_level(&mut self.envelope, level.unwrap_or(json!("info")));
                        answer(json!({}))
                    }
                    "resources/subscribe" | "resources/unsubscribe" => {
                        let uri = message.pointer("/params/uri").and_then(Value::as_str);
                        let Some(uri) = uri.map(str::to_owned) else {
                            return Sends::server(self.stamped(message));
                        };
                        let held = self
                            .streams
                            .iter()
                            .find(|(_, u)| u.as_deref() == Some(uri.as_str()))
                            .map(|(stream, _)| stream.clone());
                        let mut sends = answer(json!({}));
                        match (method, held) {
                            ("resources/subscribe", None) => {
                                let notifications = json!({"resourceSubscriptions": [uri]});
                                sends
                                    .to_server
                                    .push(self.open_stream(Some(uri), notifications));
                            }
                            ("resources/unsubscribe", Some(stream)) => {
                                self.streams.remove(&stream);
                                if let Ok(stream) = serde_json::from_str::<Value>(&stream) {
                                    sends.to_server.push(cancelled(&stream));
                                }
                            }
                            _ => {}
                        }
                        sends
                    }
                    _ => {
                        let request = self.stamped(message);
                        if era::takes_input(method) {
                            let call = Call {
                                client_id: id.clone(),
                                request: request.clone(),
                                rounds: 0,
                            };
                            self.calls.insert(id.to_string(), call);
                        }
                        Sends::server(request)
                    }
                }
            }
            (None, None) => Sends::server(message),
        }
    }

    fn stamped(&self, mut message: Value) -> Value {
        self.stamp(&mut message);
        message
    }

    fn client_notification(&mut self, method: &str, mut message: Value) -> Sends {
        match method {
            // The modern revision has no session to open and no roots notification.
            "notifications/initialized" | "notifications/roots/list_changed" => Sends::default(),
            "notifications/cancelled" => {
                let Some(request) = message.pointer("/params/requestId").cloned() else {
                    return Sends::server(message);
                };
                // A call waiting for input is dropped here (the backend holds nothing of
                // it), and so are the requests it put to the client.
                let waiting: Vec<u64> = self
                    .gathers
                    .iter()
                    .filter(|(_, g)| g.call.client_id == request)
                    .map(|(n, _)| *n)
                    .collect();
                if !waiting.is_empty() {
                    let mut sends = Sends::default();
                    for number in waiting {
                        if let Some(gather) = self.gathers.remove(&number) {
                            for asked in gather.open.keys() {
                                if let Ok(asked) = serde_json::from_str::<Value>(asked) {
                                    sends.to_client.push(cancelled(&asked));
                                }
                            }
                        }
                    }
                    self.inputs.retain(|_, n| self.gathers.contains_key(n));
                    return sends;
                }
                // A call sent on is known to the backend by the id it was sent under.
                if let Some(own) = self
                    .calls
                    .iter()
                    .find(|(_, c)| c.client_id == request)
                    .map(|(own, _)| own.clone())
                {
                    self.calls.remove(&own);
                    if let Ok(own) = serde_json::from_str::<Value>(&own) {
                        message["params"]["requestId"] = own;
                    }
                }
                Sends::server(message)
            }
            _ => Sends::server(message),
        }
    }

    /// The client's answer to a request: one of agx's input requests, or the backend's own.
    fn input_answered(&mut self, id: &Value, answer: Value) -> Sends {
        let text = id.to_string();
        let Some(number) = self.inputs.remove(&text) else {
            // A late answer for a call given up on is agx's; anything else the backend's.
            return match id.as_str().is_some_and(|s| s.starts_with(OWN_PREFIX)) {
                true => Sends::default(),
                false => Sends::server(answer),
            };
        };
        let Some(gather) = self.gathers.get_mut(&number) else {
            return Sends::default();
        };
        let Some(key) = gather.open.remove(&text) else {
            return Sends::default();
        };
        if let Some(error) = answer.get("error") {
            let gather = self
                .gathers
                .remove(&number)
                .expect("the gather was just found");
            self.inputs.retain(|_, n| *n != number);
            let why = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no reason given");
            return Sends::client(
                json!({"jsonrpc": "2.0", "id": gather.call.client_id, "error": {
                    "code": error.get("code").cloned().unwrap_or(json!(-32603)),
                    "message": format!("the client did not give the input the server asked for (`{key}`): {why}"),
                }}),
            );
        }
        gather
            .responses
            .insert(key, answer.get("result").cloned().unwrap_or(json!({})));
        if !gather.open.is_empty() {
            return Sends::default();
        }
        let gather = self
            .gathers
            .remove(&number)
            .expect("the gather was just found");
        self.retry(gather.call, gather.responses, gather.state)
    }

    /// Send the call again with the client's input and the backend's state.
    fn retry(
        &mut self,
        mut call: Call,
        responses: Map<String, Value>,
        state: Option<Value>,
    ) -> Sends {
        let own = json!(self.own_id("retry"));
        let mut request = call.request.clone();
        request["id"] = own.clone();
        let params = &mut request["params"];
        params["inputResponses"] = Value::Object(responses);
        match state {
            Some(state) => params["requestState"] = state,
            None => {
                if let Some(params) = params.as_object_mut() {
                    params.remove("requestState");
                }
            }
        }
        call.rounds += 1;
        self.calls.insert(own.to_string(), call);
        Sends::server(request)
    }

    /// A message from the backend.
    pub(crate) fn server_message(&mut self, mut message: Value) -> Sends {
        let Some(id) = message.get("id").cloned() else {
            return self.server_notification(message);
        };
        if message.get("method").is_some() {
            // A request the modern revision does not let a server send: the client decides.
            return Sends::client(message);
        }
        let text = id.to_string();
        if id.as_str().is_some_and(|s| s.starts_with(OWN_PREFIX)) && !self.calls.contains_key(&text)
        {
            // A stream's end, or a late answer to one agx gave up on: agx's own.
            if let Some(what) = self.streams.remove(&text) {
                let why = message
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("the server ended it");
                let what =
                    what.map_or("list changes".to_owned(), |uri| format!("updates of {uri}"));
                tracing::warn!(
                    "the server's stream of {what} closed ({why}); the client hears no more of them"
                );
            }
            return Sends::default();
        }
        let Some(call) = self.calls.remove(&text) else {
            era::to_legacy_answer(&mut message);
            return Sends::client(message);
        };
        if message.pointer("/result/resultType") == Some(&json!("input_required")) {
            return self.ask_for_input(call, &message);
        }
        message["id"] = call.client_id;
        era::to_legacy_answer(&mut message);
        Sends::client(message)
    }

    /// The backend needs input for `call`: each of its input requests goes to the client as
    /// the legacy request it is; with none, the call is retried at once.
    fn ask_for_input(&mut self, call: Call, answer: &Value) -> Sends {
        if call.rounds >= MAX_ROUNDS {
            return Sends::client(json!({"jsonrpc": "2.0", "id": call.client_id, "error": {
                "code": -32603,
                "message": format!("the server asked for input {MAX_ROUNDS} times for one call; agx gave up on it"),
            }}));
        }
        let state = answer.pointer("/result/requestState").cloned();
        let requests = answer
            .pointer("/result/inputRequests")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if requests.is_empty() {
            return self.retry(call, Map::new(), state);
        }
        self.next_id += 1;
        let number = self.next_id;
        let mut sends = Sends::default();
        let mut open = HashMap::new();
        for (key, request) in requests {
            let own = json!(self.own_id("input"));
            let mut asked = json!({"jsonrpc": "2.0", "id": own, "method": request["method"]});
            if let Some(params) = request.get("params") {
                asked["params"] = params.clone();
            }
            open.insert(own.to_string(), key);
            self.inputs.insert(own.to_string(), number);
            sends.to_client.push(asked);
        }
        let gather = Gather {
            call,
            state,
            open,
            responses: Map::new(),
        };
        self.gathers.insert(number, gather);
        sends
    }

    fn server_notification(&mut self, mut message: Value) -> Sends {
        let Some(meta) = message
            .pointer_mut("/params/_meta")
            .and_then(Value::as_object_mut)
        else {
            return Sends::client(message);
        };
        if meta.remove(SUBSCRIPTION_ID).is_none() {
            return Sends::client(message);
        }
        if meta.is_empty()
            && let Some(params) = message.get_mut("params").and_then(Value::as_object_mut)
        {
            params.remove("_meta");
        }
        if message.get("method") == Some(&json!("notifications/subscriptions/acknowledged")) {
            return Sends::default();
        }
        Sends::client(message)
    }

    /// The stream of the list changes the backend declares, if it declares any.
    fn lists_stream(&mut self) -> Vec<Value> {
        let mut notifications = Map::new();
        for (list, key) in [
            ("tools", "toolsListChanged"),
            ("prompts", "promptsListChanged"),
            ("resources", "resourcesListChanged"),
        ] {
            if self.capabilities.get(list).is_some() {
                notifications.insert(key.into(), json!(true));
            }
        }
        if notifications.is_empty() {
            return Vec::new();
        }
        vec![self.open_stream(None, Value::Object(notifications))]
    }

    /// A `subscriptions/listen` of agx's for `notifications`, kept as the stream of `uri`
    /// (or of the lists).
    fn open_stream(&mut self, uri: Option<String>, notifications: Value) -> Value {
        let id = json!(self.own_id("listen"));
        self.streams.insert(id.to_string(), uri);
        self.stamped(json!({"jsonrpc": "2.0", "id": id,
            "method": "subscriptions/listen", "params": {"notifications": notifications}}))
    }
}

/// The notification that ends agx's request `id` (a stream, or an input request).
fn cancelled(id: &Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}})
}
