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
//! A modern client's `subscriptions/listen` (basic/patterns/subscriptions) is kept by agx
//! for a legacy backend: agx acknowledges what the backend's capabilities can honour,
//! subscribes the backend to the resources asked for (`resources/subscribe`, once per URI
//! however many streams ask), and hands each of the backend's change notifications to the
//! streams that asked for it, tagged with the stream's id. A cancellation ends a stream and
//! unsubscribes the URIs no other stream holds.
//!
//! What a modern client cannot take is dropped: change notifications no stream asked for,
//! log messages (the modern revision sends those only for a request that set a log level),
//! and the backend's requests agx cannot tie to one call of the client's (none or several
//! in flight that declared them) or that the client did not declare, which are refused to
//! the backend as a client without those capabilities would.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::era::SUBSCRIPTION_ID;
use super::era::{self, CacheHint, Era};
use super::filtered::Sends;
use super::modern_backend::ModernBackend;
use super::stdio::{INVALID_PARAMS, METHOD_NOT_FOUND};

/// The JSON-RPC error of a request the backend's `initialize` failed under.
const BACKEND_FAILED: i64 = -32603;

use super::era::INPUT_KEY;

/// A modern client's `subscriptions/listen` stream, kept by agx for a legacy backend: what
/// was acknowledged.
struct Subscription {
    /// The `subscriptions/listen` request's id.
    id: Value,
    tools: bool,
    prompts: bool,
    resources: bool,
    uris: Vec<String>,
}

impl Subscription {
    /// Whether the backend's notification `method` (about `uri`, for an update) is one
    /// this stream asked for.
    fn wants(&self, method: &str, uri: Option<&str>) -> bool {
        match method {
            "notifications/tools/list_changed" => self.tools,
            "notifications/prompts/list_changed" => self.prompts,
            "notifications/resources/list_changed" => self.resources,
            "notifications/resources/updated" => {
                uri.is_some_and(|uri| self.uris.iter().any(|u| u == uri))
            }
            _ => false,
        }
    }
}

/// A modern request sent on to the backend under agx's own id.
struct Forwarded {
    /// The id the client awaits the answer under; `None` while suspended for its input.
    client_id: Option<Value>,
    method: String,
    /// What it names (a tool's or prompt's `name`, a resource's `uri`): a retry must name
    /// the same.
    target: Value,
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

/// agx asking the backend `server/discover` after it refused a legacy client's
/// `initialize`: a backend that speaks only the modern era refuses the handshake.
struct ReverseProbe {
    /// The id's text of agx's probe.
    id: String,
    /// The client's `initialize` and the backend's refusal of it.
    initialize: Value,
    refused: Value,
    /// The client's messages waiting for the outcome.
    waiting: Vec<Value>,
    deadline: tokio::time::Instant,
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
    /// A legacy client's `initialize` (its id's text, and the request), whose answer agx
    /// records too.
    legacy_initialize: Option<(String, Value)>,
    reverse_probe: Option<ReverseProbe>,
    /// A legacy client's session with a backend that speaks only the modern era.
    modern_backend: Option<ModernBackend>,
    /// The era keys of the modern client's first request, for the requests agx itself sends
    /// a modern backend (a filter's own listing).
    backend_envelope: Option<serde_json::Map<String, Value>>,
    /// Whether a legacy client opened a session: the backend's notifications and requests
    /// are then for it.
    legacy_client: bool,
    /// Modern requests sent on, by agx's id's text.
    modern: HashMap<String, Forwarded>,
    /// agx's id's text of a modern request, by the client's id's text (for cancellation).
    by_client: HashMap<String, String>,
    suspended: HashMap<String, Suspended>,
    /// A modern client's streams on a legacy backend, by the listen request's id's text.
    subscriptions: HashMap<String, Subscription>,
    /// agx's own requests whose answers go nowhere (`resources/subscribe`, `…/unsubscribe`).
    quiet: HashSet<String>,
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
            reverse_probe: None,
            modern_backend: None,
            backend_envelope: None,
            legacy_client: false,
            modern: HashMap::new(),
            by_client: HashMap::new(),
            suspended: HashMap::new(),
            subscriptions: HashMap::new(),
            quiet: HashSet::new(),
            next_id: 0,
        }
    }

    /// Whether the backend's messages need reading: an answer is awaited, or a modern
    /// client alone is served (whose backend messages are sorted).
    pub(crate) fn reads_server_messages(&self) -> bool {
        self.handshake.is_some()
            || self.reverse_probe.is_some()
            || self.modern_backend.is_some()
            || self.abandoned_probe.is_some()
            || self.legacy_initialize.is_some()
            || !self.modern.is_empty()
            || !self.quiet.is_empty()
            || (!self.legacy_client && (self.initialized.is_some() || self.discovered.is_some()))
    }

    /// When the probe's time runs out, if one is awaited: then call [`EraAdapter::time_out`].
    pub(crate) fn deadline(&self) -> Option<tokio::time::Instant> {
        (self.handshake.as_ref().and_then(|h| h.deadline))
            .or(self.reverse_probe.as_ref().map(|p| p.deadline))
    }

    /// The probe's time ran out: the backend is taken for a legacy one.
    pub(crate) fn time_out(&mut self) -> Sends {
        if let Some(probe) = self.reverse_probe.take() {
            self.abandoned_probe = Some(probe.id.clone());
            return self.not_modern(probe);
        }
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

    /// Give a request agx sends a modern backend the era keys it lacks (a filter's own
    /// listing carries none).
    pub(crate) fn stamp(&self, message: &mut Value) {
        if let Some(backend) = &self.modern_backend {
            backend.stamp(message);
        } else if let (Some(_), Some(envelope)) = (&self.discovered, &self.backend_envelope) {
            era::stamp_request(message, envelope);
        }
    }

    /// A message from the client.
    pub(crate) fn client_message(&mut self, mut message: Value) -> Sends {
        if let Some(backend) = &mut self.modern_backend {
            return backend.client_message(message);
        }
        if let Some(probe) = &mut self.reverse_probe {
            probe.waiting.push(message);
            return Sends::default();
        }
        if message.get("method") == Some(&json!("notifications/cancelled"))
            && let Some(request) = message.pointer("/params/requestId")
            && self.subscriptions.contains_key(&request.to_string())
        {
            let stream = request.to_string();
            return self.end_subscription(&stream);
        }
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
            return Sends::server(message);
        };
        match era::of_request(&message) {
            Err(requested) => Sends::client(era::unsupported_version(&id, &requested)),
            Ok(Era::Legacy) => {
                if method == "initialize" {
                    self.legacy_initialize = Some((id.to_string(), message.clone()));
                    self.legacy_client = true;
                }
                Sends::server(message)
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
                    return Sends::client(json!({"jsonrpc": "2.0", "id": id, "result": result}));
                }
                if method == "subscriptions/listen" && self.discovered.is_none() {
                    return self.listen(id, &message);
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
                let target = call_target(&message);
                let forwarded = Forwarded {
                    client_id: Some(id),
                    method,
                    target,
                    capabilities,
                    early_answer: None,
                };
                self.modern.insert(own.to_string(), forwarded);
                Sends::server(message)
            }
        }
    }

    /// The retry of a suspended call: its input goes to the backend as the answer to its
    /// request, and the call's answer will be the retry's.
    fn resume(&mut self, state: &str, id: Value, retry: &Value) -> Sends {
        // The state is one's own call's only: the same method, naming the same item.
        let same_call = self
            .suspended
            .get(state)
            .and_then(|s| self.modern.get(&s.call))
            .is_some_and(|f| {
                retry.get("method") == Some(&json!(f.method)) && call_target(retry) == f.target
            });
        let Some(suspended) = same_call.then(|| self.suspended.remove(state)).flatten() else {
            return Sends::client(json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": INVALID_PARAMS,
                "message": "`requestState` names no request of this method and item waiting for input on this connection",
            }}));
        };
        let Some(input) = retry
            .pointer(&format!("/params/inputResponses/{INPUT_KEY}"))
            .cloned()
        else {
            // Asked again rather than failed (basic/patterns/mrtr, error handling).
            let again = era::input_required(&id, INPUT_KEY, &suspended.request, state);
            self.suspended.insert(state.to_owned(), suspended);
            return Sends::client(again);
        };
        let Some(forwarded) = self.modern.get_mut(&suspended.call) else {
            return Sends::default();
        };
        forwarded.client_id = Some(id.clone());
        let early = forwarded.early_answer.take();
        self.by_client
            .insert(id.to_string(), suspended.call.clone());
        let mut sends =
            Sends::server(json!({"jsonrpc": "2.0", "id": suspended.request_id, "result": input}));
        if let Some(answer) = early {
            sends.extend(self.server_message(answer));
        }
        sends
    }

    /// Open a stream for a modern client on a legacy backend: acknowledge what the backend's
    /// capabilities honour (a list's `listChanged`, resources' `subscribe`), and subscribe the
    /// backend to the resources no other stream holds. The request stays unanswered while
    /// the stream is open.
    fn listen(&mut self, id: Value, message: &Value) -> Sends {
        let stream = id.to_string();
        let mut sends = match self.subscriptions.contains_key(&stream) {
            // The same id again: the old stream is replaced.
            true => self.end_subscription(&stream),
            false => Sends::default(),
        };
        let capabilities = self
            .initialized
            .as_ref()
            .and_then(|i| i.get("capabilities"))
            .cloned()
            .unwrap_or(json!({}));
        let declared = |list: &str, key: &str| {
            capabilities.pointer(&format!("/{list}/{key}")) == Some(&json!(true))
        };
        let wants = message
            .pointer("/params/notifications")
            .cloned()
            .unwrap_or(json!({}));
        let asks = |key: &str| wants.get(key) == Some(&json!(true));
        let mut uris: Vec<String> = Vec::new();
        if declared("resources", "subscribe") {
            let asked = wants
                .get("resourceSubscriptions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str);
            for uri in asked {
                // Each once, in the order asked (one `resources/subscribe` per URI).
                if !uris.iter().any(|u| u == uri) {
                    uris.push(uri.to_owned());
                }
            }
        }
        let subscription = Subscription {
            id: id.clone(),
            tools: asks("toolsListChanged") && declared("tools", "listChanged"),
            prompts: asks("promptsListChanged") && declared("prompts", "listChanged"),
            resources: asks("resourcesListChanged") && declared("resources", "listChanged"),
            uris,
        };
        for uri in &subscription.uris {
            if !self.holds(uri) {
                sends
                    .to_server
                    .push(self.quiet_request("resources/subscribe", uri));
            }
        }
        let mut acknowledged = serde_json::Map::new();
        for (key, on) in [
            ("toolsListChanged", subscription.tools),
            ("promptsListChanged", subscription.prompts),
            ("resourcesListChanged", subscription.resources),
        ] {
            if on {
                acknowledged.insert(key.into(), json!(true));
            }
        }
        if !subscription.uris.is_empty() {
            acknowledged.insert("resourceSubscriptions".into(), json!(subscription.uris));
        }
        sends.to_client.push(json!({"jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {SUBSCRIPTION_ID: id}, "notifications": acknowledged}}));
        self.subscriptions.insert(stream, subscription);
        sends
    }

    /// End the stream `stream` (its listen request's id's text): the backend is unsubscribed
    /// from the resources no other stream holds. A cancelled request is not answered.
    fn end_subscription(&mut self, stream: &str) -> Sends {
        let mut sends = Sends::default();
        let Some(ended) = self.subscriptions.remove(stream) else {
            return sends;
        };
        for uri in &ended.uris {
            if !self.holds(uri) {
                sends
                    .to_server
                    .push(self.quiet_request("resources/unsubscribe", uri));
            }
        }
        sends
    }

    /// Whether an open stream holds the backend's subscription to `uri`.
    fn holds(&self, uri: &str) -> bool {
        self.subscriptions
            .values()
            .any(|s| s.uris.iter().any(|u| u == uri))
    }

    /// A request of agx's own about `uri` whose answer goes nowhere.
    fn quiet_request(&mut self, method: &str, uri: &str) -> Value {
        let id = json!(self.own_id("subscription"));
        self.quiet.insert(id.to_string());
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"uri": uri}})
    }

    /// The backend's change notification `message`, once for each stream that asked for it,
    /// tagged with the stream's id.
    fn to_streams(&self, method: &str, message: &Value) -> Sends {
        let uri = message.pointer("/params/uri").and_then(Value::as_str);
        let mut sends = Sends::default();
        for subscription in self.subscriptions.values() {
            if subscription.wants(method, uri) {
                let mut tagged = message.clone();
                if !tagged.get("params").is_some_and(Value::is_object) {
                    tagged["params"] = json!({});
                }
                tagged["params"]["_meta"][SUBSCRIPTION_ID] = subscription.id.clone();
                sends.to_client.push(tagged);
            }
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
        Sends::server(probe)
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
        Sends::server(initialize)
    }

    /// The backend refused a legacy client's `initialize`: ask it `server/discover`, as a
    /// backend that speaks only the modern era answers it (the stdio transport's probe).
    fn probe_after_refusal(&mut self, initialize: Value, refused: Value) -> Sends {
        let id = json!(self.own_id("era"));
        let envelope = era::envelope_of_initialize(&initialize);
        let probe = json!({"jsonrpc": "2.0", "id": id, "method": "server/discover",
                           "params": {"_meta": envelope}});
        self.reverse_probe = Some(ReverseProbe {
            id: id.to_string(),
            initialize,
            refused,
            waiting: Vec::new(),
            deadline: tokio::time::Instant::now() + PROBE_TIMEOUT,
        });
        Sends::server(probe)
    }

    /// The probe after a refused `initialize` answered: a modern backend gets agx standing
    /// in for the legacy session; otherwise the client has the refusal.
    fn reverse_probe_answered(&mut self, answer: &Value) -> Sends {
        let Some(probe) = self.reverse_probe.take() else {
            return Sends::default();
        };
        let Some(discovered) = answer.get("result").filter(|r| speaks_modern(r)).cloned() else {
            return self.not_modern(probe);
        };
        let (backend, mut sends) = ModernBackend::open(&probe.initialize, &discovered);
        self.modern_backend = Some(backend);
        for message in probe.waiting {
            sends.extend(self.client_message(message));
        }
        sends
    }

    /// The backend is no modern one: the client has its refusal of `initialize`, and what it
    /// sent meanwhile goes on.
    fn not_modern(&mut self, probe: ReverseProbe) -> Sends {
        let mut sends = Sends::client(probe.refused);
        for message in probe.waiting {
            sends.extend(self.client_message(message));
        }
        sends
    }

    /// The probe answered: a `server/discover` result naming the modern version makes the
    /// backend modern (the waiting requests go on as they are); anything else, legacy.
    fn probe_answered(&mut self, answer: &Value) -> Sends {
        let Some(handshake) = self.handshake.take() else {
            return Sends::default();
        };
        if !answer.get("result").is_some_and(speaks_modern) {
            return self.initialize_backend(handshake.waiting);
        }
        self.discovered = answer.get("result").cloned();
        self.backend_envelope = handshake
            .waiting
            .first()
            .and_then(|m| m.pointer("/params/_meta"))
            .and_then(Value::as_object)
            .cloned();
        let mut sends = Sends::default();
        for message in handshake.waiting {
            sends.extend(self.client_message(message));
        }
        sends
    }

    /// A message from the backend (or an answer agx made for it, such as a filter's refusal).
    pub(crate) fn server_message(&mut self, mut message: Value) -> Sends {
        if let Some(backend) = &mut self.modern_backend {
            return backend.server_message(message);
        }
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(id) = message.get("id").cloned() else {
            return match method {
                Some(method)
                    if self.translates_for_modern_client() && !reaches_modern_client(&method) =>
                {
                    self.to_streams(&method, &message)
                }
                _ => {
                    self.to_client_subscription(&mut message);
                    Sends::client(message)
                }
            };
        };
        if let Some(method) = method {
            return self.server_request(&method, &id, message);
        }
        let text = id.to_string();
        if self.quiet.remove(&text) {
            return Sends::default();
        }
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
        if self.reverse_probe.as_ref().is_some_and(|p| p.id == text) {
            return self.reverse_probe_answered(&message);
        }
        if self
            .legacy_initialize
            .as_ref()
            .is_some_and(|(id, _)| *id == text)
        {
            let (_, initialize) = self.legacy_initialize.take().expect("checked just above");
            match message.get("result") {
                Some(result) => self.initialized = Some(result.clone()),
                None => return self.probe_after_refusal(initialize, message),
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
            if method == "subscriptions/listen"
                && let Some(meta) = message.pointer_mut("/result/_meta")
                && meta.get(SUBSCRIPTION_ID).is_some()
            {
                meta[SUBSCRIPTION_ID] = client_id.clone();
            }
            message["id"] = client_id;
            era::to_modern_answer(&method, &mut message, self.hint);
        }
        Sends::client(message)
    }

    /// A modern backend's stream message names its stream by agx's id for the listen
    /// request: the client knows its own.
    fn to_client_subscription(&self, message: &mut Value) {
        let Some(stream) = message.pointer_mut(&format!(
            "/params/_meta/{}",
            SUBSCRIPTION_ID.replace('/', "~1")
        )) else {
            return;
        };
        if let Some(client_id) = self
            .modern
            .get(&stream.to_string())
            .and_then(|f| f.client_id.clone())
        {
            *stream = client_id;
        }
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
            return Sends::client(message);
        }
        if method == "ping" {
            return Sends::server(json!({"jsonrpc": "2.0", "id": id, "result": {}}));
        }
        if let Some(sends) = self.suspend(method, id, &message) {
            return sends;
        }
        Sends::server(json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": METHOD_NOT_FOUND,
            "message": format!(
                "`{method}` is not passed on: the client speaks MCP {}, which takes requests from the server only as input for one call it declared them for",
                era::MODERN
            ),
        }}))
    }

    /// Suspend the one call in flight that may take input and declared the backend's
    /// request, answering it `input_required` with that request; `None` when no single call
    /// fits (a legacy request names no call).
    fn suspend(&mut self, method: &str, request_id: &Value, message: &Value) -> Option<Sends> {
        // Among the calls in flight that may take input, those whose client declared this
        // request: a legacy request names no call, so it is tied only when one call fits.
        let open: Vec<&String> = self
            .modern
            .iter()
            .filter(|(_, f)| {
                f.client_id.is_some()
                    && era::takes_input(&f.method)
                    && era::declares(&f.capabilities, method)
            })
            .map(|(own, _)| own)
            .collect();
        let [call] = open[..] else {
            return None;
        };
        let call = call.clone();
        let Ok(state) = era::unguessable_state() else {
            return None;
        };
        let forwarded = self.modern.get_mut(&call)?;
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
        Some(Sends::client(answer))
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

/// What a call names: a tool's or prompt's `name`, a resource's `uri`.
fn call_target(request: &Value) -> Value {
    (request.pointer("/params/name"))
        .or_else(|| request.pointer("/params/uri"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// Whether a `server/discover` result names the modern version agx speaks.
fn speaks_modern(result: &Value) -> bool {
    result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .is_some_and(|versions| versions.contains(&json!(era::MODERN)))
}

/// Whether a backend notification reaches a modern client: those about one of its requests
/// (progress, cancellation) do; change notifications and log messages do not.
fn reaches_modern_client(method: &str) -> bool {
    matches!(method, "notifications/progress" | "notifications/cancelled")
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
        opened_with(initialize_result())
    }

    /// An adapter whose legacy backend answered `initialize` with `result`.
    fn opened_with(result: Value) -> EraAdapter {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let initialize = &probed_legacy(&mut adapter, modern(1, "server/discover"));
        let answered = adapter
            .server_message(json!({"jsonrpc": "2.0", "id": initialize["id"], "result": result}));
        assert_eq!(answered.to_client.len(), 1, "{answered:?}");
        adapter
    }

    fn listen(id: u64, notifications: Value) -> Value {
        let mut request = modern(id, "subscriptions/listen");
        request["params"]["notifications"] = notifications;
        request
    }

    fn stream_of(message: &Value) -> &Value {
        &message["params"]["_meta"][SUBSCRIPTION_ID]
    }

    #[test]
    fn a_legacy_backends_notifications_reach_the_streams_that_asked_for_them() {
        let mut adapter = opened_with(json!({"protocolVersion": era::LEGACY,
            "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}},
            "serverInfo": {"name": "backend", "version": "1"}}));
        // Prompts are asked for but the backend has no prompt changes: not acknowledged.
        let opened = adapter.client_message(listen(
            10,
            json!({"toolsListChanged": true, "promptsListChanged": true,
                   "resourceSubscriptions": ["file:///a", "file:///a"]}),
        ));
        let [ack] = <[Value; 1]>::try_from(opened.to_client).unwrap();
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        assert_eq!(stream_of(&ack), 10);
        assert_eq!(
            ack["params"]["notifications"],
            json!({"toolsListChanged": true, "resourceSubscriptions": ["file:///a"]})
        );
        let [subscribe] = <[Value; 1]>::try_from(opened.to_server).unwrap();
        assert_eq!(subscribe["method"], "resources/subscribe");
        assert_eq!(subscribe["params"]["uri"], "file:///a");
        // Its answer is agx's.
        let answered = json!({"jsonrpc": "2.0", "id": subscribe["id"], "result": {}});
        assert_eq!(adapter.server_message(answered), Sends::default());

        // A second stream on the same resource: the backend is subscribed once.
        let second =
            adapter.client_message(listen(11, json!({"resourceSubscriptions": ["file:///a"]})));
        assert!(second.to_server.is_empty(), "{second:?}");

        let updated = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                             "params": {"uri": "file:///a"}});
        let mut streams: Vec<Value> = adapter
            .server_message(updated)
            .to_client
            .iter()
            .map(|m| stream_of(m).clone())
            .collect();
        streams.sort_by_key(|s| s.as_u64());
        assert_eq!(streams, [json!(10), json!(11)]);
        let tools = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        let [tagged] = <[Value; 1]>::try_from(adapter.server_message(tools).to_client).unwrap();
        assert_eq!(stream_of(&tagged), 10);
        let prompts = json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"});
        assert_eq!(adapter.server_message(prompts), Sends::default());
        let other = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                           "params": {"uri": "file:///b"}});
        assert_eq!(adapter.server_message(other), Sends::default());

        // Cancelling one stream keeps the subscription the other holds; the last unsubscribes.
        let cancel = |id: u64| {
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                   "params": {"requestId": id}})
        };
        assert_eq!(adapter.client_message(cancel(10)), Sends::default());
        let [unsubscribe] =
            <[Value; 1]>::try_from(adapter.client_message(cancel(11)).to_server).unwrap();
        assert_eq!(unsubscribe["method"], "resources/unsubscribe");
        assert_eq!(unsubscribe["params"]["uri"], "file:///a");
        let tools = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        assert_eq!(adapter.server_message(tools), Sends::default());
    }

    #[test]
    fn a_modern_backends_stream_is_named_by_the_clients_id() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let [probe] = <[Value; 1]>::try_from(
            adapter
                .client_message(modern(1, "server/discover"))
                .to_server,
        )
        .unwrap();
        let discovered = json!({"resultType": "complete", "supportedVersions": [era::MODERN],
                                "capabilities": {"tools": {"listChanged": true}}});
        adapter.server_message(json!({"jsonrpc": "2.0", "id": probe["id"], "result": discovered}));
        let [sent] = <[Value; 1]>::try_from(
            adapter
                .client_message(listen(7, json!({"toolsListChanged": true})))
                .to_server,
        )
        .unwrap();
        assert_eq!(sent["method"], "subscriptions/listen");
        let own = sent["id"].clone();
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                         "params": {"_meta": {SUBSCRIPTION_ID: own}, "notifications": {"toolsListChanged": true}}});
        let [passed] = <[Value; 1]>::try_from(adapter.server_message(ack).to_client).unwrap();
        assert_eq!(stream_of(&passed), 7);
        let closed = json!({"jsonrpc": "2.0", "id": own, "result": {"resultType": "complete",
                            "_meta": {SUBSCRIPTION_ID: own}}});
        let [closed] = <[Value; 1]>::try_from(adapter.server_message(closed).to_client).unwrap();
        assert_eq!(closed["id"], 7);
        assert_eq!(closed["result"]["_meta"][SUBSCRIPTION_ID], 7);
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
        assert_eq!(
            discovered["result"]["capabilities"],
            json!({"tools": {"listChanged": true}})
        );
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
        assert!(state.as_str().unwrap().len() > 32, "unguessable: {state}");
        // A retry of another call does not take this one's state.
        let mut other = modern(8, "tools/call");
        other["params"]["name"] = json!("other");
        other["params"]["requestState"] = state.clone();
        let refused = adapter.client_message(other);
        assert_eq!(refused.to_client[0]["error"]["code"], INVALID_PARAMS);
        // A retry without the input is asked again.
        let mut retry = modern(6, "tools/call");
        retry["params"]["name"] = json!("ask");
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
        // Two calls that declared sampling: the request names neither.
        call_sent(&mut adapter, 2);
        let sampling = json!({"jsonrpc": "2.0", "id": "s2", "method": "sampling/createMessage"});
        let refused = adapter.server_message(sampling);
        assert_eq!(refused.to_server[0]["error"]["code"], METHOD_NOT_FOUND);
    }

    #[test]
    fn of_several_calls_the_one_that_declared_the_request_takes_it() {
        let mut adapter = opened();
        call_sent(&mut adapter, 1);
        let mut asks_names = modern(2, "tools/call");
        asks_names["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
            json!({"elicitation": {}});
        adapter.client_message(asks_names);
        let elicit = json!({"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create",
                            "params": {"message": "name?"}});
        let [asked] = <[Value; 1]>::try_from(adapter.server_message(elicit).to_client).unwrap();
        assert_eq!(asked["id"], 2);
        assert_eq!(asked["result"]["resultType"], "input_required");
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

    fn legacy_initialize() -> Value {
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"sampling": {}},
            "clientInfo": {"name": "legacy", "version": "1"}}})
    }

    /// An adapter whose legacy client's `initialize` a modern-only backend refused, and
    /// whose probe found it modern; with what agx sent each side then.
    fn legacy_before_modern(capabilities: Value) -> (EraAdapter, Sends) {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let sent = adapter.client_message(legacy_initialize());
        assert_eq!(sent.to_server, [legacy_initialize()]);
        let refused = json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": [era::MODERN], "requested": "2025-06-18"}}});
        let [probe] = <[Value; 1]>::try_from(adapter.server_message(refused).to_server).unwrap();
        assert_eq!(probe["method"], "server/discover");
        assert_eq!(probe["params"]["_meta"][era::VERSION_KEY], era::MODERN);
        assert_eq!(
            probe["params"]["_meta"]["io.modelcontextprotocol/clientInfo"]["name"],
            "legacy"
        );
        let discovered = json!({"resultType": "complete", "supportedVersions": [era::MODERN],
            "capabilities": capabilities, "instructions": "use it",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-only", "version": "2"}}});
        let opened = adapter
            .server_message(json!({"jsonrpc": "2.0", "id": probe["id"], "result": discovered}));
        (adapter, opened)
    }

    #[test]
    fn a_legacy_client_is_served_by_a_backend_that_speaks_only_the_modern_era() {
        let (mut adapter, opened) = legacy_before_modern(json!({"tools": {"listChanged": true}}));
        let [answer] = <[Value; 1]>::try_from(opened.to_client).unwrap();
        assert_eq!(answer["id"], 0);
        assert_eq!(answer["result"]["protocolVersion"], "2025-06-18");
        assert_eq!(answer["result"]["serverInfo"]["name"], "modern-only");
        assert_eq!(answer["result"]["instructions"], "use it");
        assert_eq!(
            answer["result"]["capabilities"],
            json!({"tools": {"listChanged": true}})
        );
        // The change stream agx keeps for the client.
        let [listen] = <[Value; 1]>::try_from(opened.to_server).unwrap();
        assert_eq!(listen["method"], "subscriptions/listen");
        assert_eq!(
            listen["params"]["notifications"],
            json!({"toolsListChanged": true})
        );

        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(adapter.client_message(initialized), Sends::default());
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        assert_eq!(
            adapter.client_message(ping).to_client[0]["result"],
            json!({})
        );
        let level = json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": {"level": "debug"}});
        assert_eq!(adapter.client_message(level).to_client[0]["id"], 2);

        let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": {"progressToken": 9}}});
        let [sent] = <[Value; 1]>::try_from(adapter.client_message(list).to_server).unwrap();
        let meta = &sent["params"]["_meta"];
        assert_eq!(meta[era::VERSION_KEY], era::MODERN);
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"],
            json!({"sampling": {}})
        );
        assert_eq!(meta["io.modelcontextprotocol/logLevel"], "debug");
        assert_eq!(meta["progressToken"], 9);
        let listed = json!({"jsonrpc": "2.0", "id": 3, "result": {"resultType": "complete",
            "tools": [], "ttlMs": 0, "cacheScope": "private"}});
        let [listed] = <[Value; 1]>::try_from(adapter.server_message(listed).to_client).unwrap();
        assert_eq!(
            listed,
            json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": []}})
        );

        // The stream's messages reach the client untagged; its acknowledgment is agx's.
        let stream = listen["id"].clone();
        let ack = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"_meta": {SUBSCRIPTION_ID: stream}, "notifications": {"toolsListChanged": true}}});
        assert_eq!(adapter.server_message(ack), Sends::default());
        let changed = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
            "params": {"_meta": {SUBSCRIPTION_ID: stream}}});
        assert_eq!(
            adapter.server_message(changed).to_client,
            [json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {}})]
        );
    }

    #[test]
    fn a_modern_backends_input_request_reaches_a_legacy_client_mid_call_and_the_call_is_retried() {
        let (mut adapter, _) = legacy_before_modern(json!({"tools": {}}));
        let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                          "params": {"name": "ask", "arguments": {"q": "?"}}});
        let [sent] = <[Value; 1]>::try_from(adapter.client_message(call).to_server).unwrap();
        assert_eq!(sent["id"], 5);
        let asked = json!({"jsonrpc": "2.0", "id": 5, "result": {"resultType": "input_required",
            "inputRequests": {"llm": {"method": "sampling/createMessage", "params": {"maxTokens": 5}}},
            "requestState": "s1"}});
        let [request] = <[Value; 1]>::try_from(adapter.server_message(asked).to_client).unwrap();
        assert_eq!(request["method"], "sampling/createMessage");
        assert_eq!(request["params"]["maxTokens"], 5);
        let sampled = json!({"jsonrpc": "2.0", "id": request["id"], "result": {"role": "assistant",
            "content": {"type": "text", "text": "42"}, "model": "m"}});
        let [retry] = <[Value; 1]>::try_from(adapter.client_message(sampled).to_server).unwrap();
        assert_ne!(retry["id"], 5);
        assert_eq!(retry["params"]["name"], "ask");
        assert_eq!(retry["params"]["requestState"], "s1");
        assert_eq!(
            retry["params"]["inputResponses"]["llm"]["content"]["text"],
            "42"
        );
        assert_eq!(retry["params"]["_meta"][era::VERSION_KEY], era::MODERN);
        let done = json!({"jsonrpc": "2.0", "id": retry["id"], "result": {"resultType": "complete",
            "content": [{"type": "text", "text": "the answer is 42"}]}});
        let [done] = <[Value; 1]>::try_from(adapter.server_message(done).to_client).unwrap();
        assert_eq!(done["id"], 5);
        assert_eq!(
            done["result"],
            json!({"content": [{"type": "text", "text": "the answer is 42"}]})
        );

        // Declined: the call fails with the client's reason, and nothing is retried.
        let call =
            json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "ask"}});
        adapter.client_message(call);
        let asked = json!({"jsonrpc": "2.0", "id": 6, "result": {"resultType": "input_required",
            "inputRequests": {"llm": {"method": "sampling/createMessage", "params": {}}}}});
        let [request] = <[Value; 1]>::try_from(adapter.server_message(asked).to_client).unwrap();
        let declined = json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -1, "message": "user said no"}});
        let failed = adapter.client_message(declined);
        assert!(failed.to_server.is_empty(), "{failed:?}");
        assert_eq!(failed.to_client[0]["id"], 6);
        let text = failed.to_client[0]["error"]["message"].as_str().unwrap();
        assert!(text.contains("user said no"), "{text}");
    }

    #[test]
    fn a_cancelled_call_waiting_for_input_withdraws_what_it_asked_the_client() {
        let (mut adapter, _) = legacy_before_modern(json!({"tools": {}}));
        let call =
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "ask"}});
        adapter.client_message(call);
        let asked = json!({"jsonrpc": "2.0", "id": 5, "result": {"resultType": "input_required",
            "inputRequests": {"llm": {"method": "sampling/createMessage", "params": {}}}}});
        let [request] = <[Value; 1]>::try_from(adapter.server_message(asked).to_client).unwrap();
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}});
        let sends = adapter.client_message(cancel);
        assert!(
            sends.to_server.is_empty(),
            "the backend holds nothing of it: {sends:?}"
        );
        let [withdrawn] = <[Value; 1]>::try_from(sends.to_client).unwrap();
        assert_eq!(withdrawn["method"], "notifications/cancelled");
        assert_eq!(withdrawn["params"]["requestId"], request["id"]);
        // A late answer goes nowhere.
        let late = json!({"jsonrpc": "2.0", "id": request["id"], "result": {}});
        assert_eq!(adapter.client_message(late), Sends::default());
    }

    #[test]
    fn a_refused_initialize_of_a_backend_that_is_not_modern_reaches_the_client() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        adapter.client_message(legacy_initialize());
        let refused =
            json!({"jsonrpc": "2.0", "id": 0, "error": {"code": -32603, "message": "broken"}});
        let [probe] =
            <[Value; 1]>::try_from(adapter.server_message(refused.clone()).to_server).unwrap();
        // Sent meanwhile: held until the outcome.
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        assert_eq!(adapter.client_message(list.clone()), Sends::default());
        let unknown = json!({"jsonrpc": "2.0", "id": probe["id"], "error": {"code": -32601, "message": "no"}});
        let outcome = adapter.server_message(unknown);
        assert_eq!(outcome.to_client, [refused]);
        assert_eq!(outcome.to_server, [list]);
    }

    #[test]
    fn a_legacy_clients_subscription_is_a_stream_of_its_own_on_the_modern_backend() {
        let (mut adapter, opened) = legacy_before_modern(json!({"resources": {"subscribe": true}}));
        let lists = opened.to_server[0]["id"].clone();
        let subscribe = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe", "params": {"uri": "file:///a"}});
        let sends = adapter.client_message(subscribe);
        assert_eq!(sends.to_client[0]["result"], json!({}));
        let [listen] = <[Value; 1]>::try_from(sends.to_server).unwrap();
        assert_ne!(listen["id"], lists, "the lists' stream stays as it is");
        assert_eq!(
            listen["params"]["notifications"],
            json!({"resourceSubscriptions": ["file:///a"]})
        );
        let updated = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
            "params": {"uri": "file:///a", "_meta": {SUBSCRIPTION_ID: listen["id"]}}});
        assert_eq!(
            adapter.server_message(updated).to_client[0]["params"],
            json!({"uri": "file:///a"})
        );
        // Unsubscribed: that stream alone is cancelled, and its end is agx's.
        let unsubscribe = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/unsubscribe", "params": {"uri": "file:///a"}});
        let sends = adapter.client_message(unsubscribe);
        let [cancel] = <[Value; 1]>::try_from(sends.to_server).unwrap();
        assert_eq!(cancel["method"], "notifications/cancelled");
        assert_eq!(cancel["params"]["requestId"], listen["id"]);
        let ended =
            json!({"jsonrpc": "2.0", "id": listen["id"], "result": {"resultType": "complete"}});
        assert_eq!(adapter.server_message(ended), Sends::default());
    }

    #[test]
    fn a_filters_own_listing_reaches_a_modern_backend_with_the_era_keys() {
        let mut adapter = EraAdapter::new(CacheHint::NONE);
        let [probe] =
            <[Value; 1]>::try_from(adapter.client_message(modern(1, "tools/list")).to_server)
                .unwrap();
        let discovered = json!({"resultType": "complete", "supportedVersions": [era::MODERN], "capabilities": {}});
        adapter.server_message(json!({"jsonrpc": "2.0", "id": probe["id"], "result": discovered}));
        let mut own = json!({"jsonrpc": "2.0", "id": "agx-filter-1", "method": "tools/list"});
        adapter.stamp(&mut own);
        assert_eq!(own["params"]["_meta"][era::VERSION_KEY], era::MODERN);
        assert_eq!(
            own["params"]["_meta"]["io.modelcontextprotocol/clientInfo"]["name"],
            "modern"
        );
    }
}
