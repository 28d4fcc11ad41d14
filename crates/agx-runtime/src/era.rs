//! The two eras of MCP as JSON-RPC messages (docs/serve.md, "Protocol eras"): legacy
//! (2025-11-25 and before: an `initialize` handshake opens a session) and modern
//! (2026-07-28: no handshake; each request names its version, the client's capabilities
//! and identity in `params._meta`; every result says its `resultType`; list results carry
//! caching hints). These helpers read and rewrite single messages; `era_adapter` keeps
//! the state of a translation.

use serde_json::{Map, Value, json};

/// The modern revision agx speaks.
pub(crate) const MODERN: &str = "2026-07-28";
/// The newest legacy revision agx speaks.
pub(crate) const LEGACY: &str = "2025-11-25";

/// `UnsupportedProtocolVersionError` (modern revision, basic/versioning).
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// The legacy code of "resource not found"; modern clients expect "invalid params".
const LEGACY_RESOURCE_NOT_FOUND: i64 = -32002;

pub(crate) const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// The `_meta` keys of a modern request that a legacy one has no place for.
const ERA_KEYS: [&str; 4] = [
    VERSION_KEY,
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
];
/// Where a `subscriptions/listen` stream's messages carry its id (the listen request's).
pub(crate) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The era a client's request speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    Legacy,
    Modern,
}

/// The era of a request: modern when its `_meta` names a protocol version, legacy without
/// one. `Err` carries a version named there that agx does not speak.
pub(crate) fn of_request(message: &Value) -> Result<Era, String> {
    match meta(message).and_then(|m| m.get(VERSION_KEY)) {
        None => Ok(Era::Legacy),
        Some(Value::String(v)) if v == MODERN => Ok(Era::Modern),
        Some(Value::String(v)) => Err(v.clone()),
        Some(other) => Err(other.to_string()),
    }
}

fn meta(message: &Value) -> Option<&Map<String, Value>> {
    message.pointer("/params/_meta").and_then(Value::as_object)
}

/// The versions agx answers a modern client with: both eras, and the legacy version a
/// backend negotiated when it is older.
pub(crate) fn supported_versions(backend: Option<&str>) -> Vec<Value> {
    let mut versions = vec![json!(MODERN), json!(LEGACY)];
    if let Some(v) = backend
        && v != LEGACY
        && v != MODERN
    {
        versions.push(json!(v));
    }
    versions
}

/// The error for a request naming a version agx does not speak.
pub(crate) fn unsupported_version(id: &Value, requested: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {
        "code": UNSUPPORTED_PROTOCOL_VERSION,
        "message": "Unsupported protocol version",
        "data": {"supported": supported_versions(None), "requested": requested},
    }})
}

/// The params of the legacy `initialize` agx sends a backend on behalf of a modern client:
/// the client's capabilities and identity as its request's `_meta` gives them.
pub(crate) fn initialize_params(message: &Value) -> Value {
    let meta = meta(message);
    let field = |key| meta.and_then(|m| m.get(key)).cloned();
    json!({
        "protocolVersion": LEGACY,
        "capabilities": field(CLIENT_CAPABILITIES_KEY).unwrap_or(json!({})),
        "clientInfo": field(CLIENT_INFO_KEY)
            .unwrap_or(json!({"name": "agx", "version": env!("CARGO_PKG_VERSION")})),
    })
}

/// A modern request as a legacy backend takes it: the per-request era keys leave its
/// `_meta` (and an emptied `_meta` goes); others, such as `progressToken`, stay.
pub(crate) fn to_legacy_request(message: &mut Value) {
    let Some(params) = message.get_mut("params").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(Value::Object(meta)) = params.get_mut("_meta") else {
        return;
    };
    for key in ERA_KEYS {
        meta.remove(key);
    }
    if meta.is_empty() {
        params.remove("_meta");
    }
}

/// The legacy revisions a legacy client may open a session with, oldest first.
const LEGACY_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", LEGACY];

/// The `_meta` keys a modern backend needs on each request of a legacy client's session:
/// the modern version, and the capabilities and identity its `initialize` declared.
pub(crate) fn envelope_of_initialize(initialize: &Value) -> Map<String, Value> {
    let params = initialize.get("params");
    let field = |key: &str| params.and_then(|p| p.get(key)).cloned();
    let mut envelope = Map::new();
    envelope.insert(VERSION_KEY.into(), json!(MODERN));
    envelope.insert(
        CLIENT_CAPABILITIES_KEY.into(),
        field("capabilities").unwrap_or(json!({})),
    );
    envelope.insert(
        CLIENT_INFO_KEY.into(),
        field("clientInfo").unwrap_or(json!({"name": "agx", "version": env!("CARGO_PKG_VERSION")})),
    );
    envelope
}

/// The era keys of a request agx sends on its own behalf (no client's capabilities).
pub(crate) fn envelope_of_agx() -> Map<String, Value> {
    envelope_of_initialize(&json!({"params": {"capabilities": {}}}))
}

/// Give a request the era keys of `envelope` it lacks (a request already naming a version
/// keeps its own): a modern backend refuses a request without them.
pub(crate) fn stamp_request(message: &mut Value, envelope: &Map<String, Value>) {
    if message.get("method").is_none() || message.get("id").is_none() {
        return;
    }
    if !message.get("params").is_some_and(Value::is_object) {
        message["params"] = json!({});
    }
    let params = &mut message["params"];
    if !params.get("_meta").is_some_and(Value::is_object) {
        params["_meta"] = json!({});
    }
    let Some(meta) = params["_meta"].as_object_mut() else {
        return;
    };
    if meta.contains_key(VERSION_KEY) {
        return;
    }
    // Only the era keys: a `progressToken` belongs to the request it came with.
    for key in ERA_KEYS {
        if let Some(value) = envelope.get(key) {
            meta.entry(key).or_insert_with(|| value.clone());
        }
    }
}

/// The `_meta` key a modern request sets its log level under.
pub(crate) fn set_log_level(envelope: &mut Map<String, Value>, level: Value) {
    envelope.insert(LOG_LEVEL_KEY.into(), level);
}

/// A modern backend's answer as a legacy client takes it: without `resultType` and the
/// caching hints, which the legacy revisions do not define.
pub(crate) fn to_legacy_answer(answer: &mut Value) {
    if let Some(Value::Object(result)) = answer.get_mut("result") {
        for key in ["resultType", "ttlMs", "cacheScope"] {
            result.remove(key);
        }
    }
}

/// The legacy `initialize` result standing for a modern backend, from its `server/discover`
/// result: the version the client asked for when agx knows it, the backend's capabilities,
/// identity and instructions.
pub(crate) fn initialize_result(initialize: &Value, discovered: &Value) -> Value {
    let asked = initialize
        .pointer("/params/protocolVersion")
        .and_then(Value::as_str);
    let version = asked
        .filter(|v| LEGACY_VERSIONS.contains(v))
        .unwrap_or(LEGACY);
    let mut result = json!({
        "protocolVersion": version,
        "capabilities": discovered.get("capabilities").cloned().unwrap_or(json!({})),
        "serverInfo": discovered
            .pointer(&format!("/_meta/{}", SERVER_INFO_KEY.replace('/', "~1")))
            .cloned()
            .unwrap_or(json!({"name": "unnamed", "version": "0"})),
    });
    if let Some(instructions) = discovered.get("instructions") {
        result["instructions"] = instructions.clone();
    }
    result
}

/// The capabilities a modern request declares for its client.
pub(crate) fn client_capabilities(message: &Value) -> Value {
    meta(message)
        .and_then(|m| m.get(CLIENT_CAPABILITIES_KEY))
        .cloned()
        .unwrap_or(json!({}))
}

/// Whether a request may be answered with `input_required` (basic/patterns/mrtr).
pub(crate) fn takes_input(method: &str) -> bool {
    matches!(method, "tools/call" | "prompts/get" | "resources/read")
}

/// Whether a client with `capabilities` takes a server's request `method` as an input
/// request: a server must not ask for what the client did not declare.
pub(crate) fn declares(capabilities: &Value, method: &str) -> bool {
    let capability = match method {
        "sampling/createMessage" => "sampling",
        "elicitation/create" => "elicitation",
        "roots/list" => "roots",
        _ => return false,
    };
    capabilities.get(capability).is_some()
}

/// The key of the one input request agx puts in an `input_required` answer.
pub(crate) const INPUT_KEY: &str = "input";

/// The answer to request `id` that asks the client for `request` (a server's request as
/// `{method, params}`) under `key`; the retry echoes `state`.
pub(crate) fn input_required(id: &Value, key: &str, request: &Value, state: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": input_required_result(key, request, state)})
}

/// The result of [`input_required`].
pub(crate) fn input_required_result(key: &str, request: &Value, state: &str) -> Value {
    json!({
        "resultType": "input_required",
        "inputRequests": { key: request },
        "requestState": state,
    })
}

/// A `requestState` no client can guess: 128 random bits. One process may serve many
/// clients (`agx serve --http`), and a state is all a retry needs to take a waiting call.
pub(crate) fn unguessable_state() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random state for the call: {e}"))?;
    Ok(format!("agx-state-{}", hex::encode(bytes)))
}

/// Whether a method's result carries caching hints (server/utilities/caching).
pub(crate) fn is_cacheable(method: &str) -> bool {
    matches!(
        method,
        "server/discover"
            | "tools/list"
            | "prompts/list"
            | "resources/list"
            | "resources/templates/list"
            | "resources/read"
    )
}

/// How long, and for whom, a modern client may keep a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CacheHint {
    pub ttl_ms: u64,
    pub public: bool,
}

impl CacheHint {
    /// For what agx cannot vouch for (a wrapped server's lists, a filtered view): stale at
    /// once, kept by this client only.
    pub(crate) const NONE: CacheHint = CacheHint {
        ttl_ms: 0,
        public: false,
    };
}

/// A legacy backend's answer as a modern client takes it: `resultType` on a result, the
/// caching hints on a cacheable one (a backend's own kept), the modern code for a missing
/// resource on an error.
pub(crate) fn to_modern_answer(method: &str, answer: &mut Value, hint: CacheHint) {
    if let Some(Value::Object(result)) = answer.get_mut("result") {
        result
            .entry("resultType")
            .or_insert_with(|| json!("complete"));
        if is_cacheable(method) && result.get("resultType") == Some(&json!("complete")) {
            result.entry("ttlMs").or_insert_with(|| json!(hint.ttl_ms));
            let scope = if hint.public { "public" } else { "private" };
            result.entry("cacheScope").or_insert_with(|| json!(scope));
        }
        return;
    }
    if method == "resources/read"
        && let Some(code) = answer.pointer_mut("/error/code")
        && *code == json!(LEGACY_RESOURCE_NOT_FOUND)
    {
        *code = json!(super::stdio::INVALID_PARAMS);
    }
}

/// The capabilities a modern client is shown for a legacy backend's: what agx does not
/// carry across eras goes (logging needs a per-request level, tasks an extension). Change
/// notifications and resource subscriptions stay: agx serves them on `subscriptions/listen`.
pub(crate) fn modern_capabilities(legacy: &Value) -> Value {
    let mut capabilities = legacy.clone();
    let Some(map) = capabilities.as_object_mut() else {
        return json!({});
    };
    map.remove("logging");
    map.remove("tasks");
    capabilities
}

/// The `server/discover` result standing for a legacy backend, from its `initialize`
/// result.
pub(crate) fn discover_result(initialized: &Value, hint: CacheHint) -> Value {
    let mut result = json!({
        "resultType": "complete",
        "supportedVersions": supported_versions(
            initialized.get("protocolVersion").and_then(Value::as_str)
        ),
        "capabilities": modern_capabilities(initialized.get("capabilities").unwrap_or(&json!({}))),
        "ttlMs": hint.ttl_ms,
        "cacheScope": if hint.public { "public" } else { "private" },
    });
    if let Some(info) = initialized.get("serverInfo") {
        result["_meta"] = json!({ SERVER_INFO_KEY: info });
    }
    if let Some(instructions) = initialized.get("instructions") {
        result["instructions"] = instructions.clone();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modern(method: &str, params: Value) -> Value {
        let mut params = params;
        params["_meta"] = json!({
            VERSION_KEY: MODERN,
            CLIENT_CAPABILITIES_KEY: {"elicitation": {}},
            CLIENT_INFO_KEY: {"name": "modern", "version": "1"},
            "progressToken": 7,
        });
        json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    }

    #[test]
    fn the_era_is_read_from_the_requests_meta() {
        assert_eq!(
            of_request(&modern("tools/list", json!({}))),
            Ok(Era::Modern)
        );
        let legacy = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        assert_eq!(of_request(&legacy), Ok(Era::Legacy));
        let future = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                            "params": {"_meta": {VERSION_KEY: "2099-01-01"}}});
        assert_eq!(of_request(&future), Err("2099-01-01".into()));
        let error = unsupported_version(&json!(1), "2099-01-01");
        assert_eq!(error["error"]["code"], UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(error["error"]["data"]["supported"], json!([MODERN, LEGACY]));
    }

    #[test]
    fn a_modern_request_loses_only_its_era_keys_for_a_legacy_backend() {
        let mut call = modern("tools/call", json!({"name": "echo"}));
        to_legacy_request(&mut call);
        assert_eq!(
            call["params"],
            json!({"name": "echo", "_meta": {"progressToken": 7}})
        );
        let mut list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
                              "params": {"_meta": {VERSION_KEY: MODERN}}});
        to_legacy_request(&mut list);
        assert_eq!(list["params"], json!({}));
    }

    #[test]
    fn initialize_on_behalf_of_a_modern_client_carries_its_capabilities_and_name() {
        let params = initialize_params(&modern("tools/list", json!({})));
        assert_eq!(params["protocolVersion"], LEGACY);
        assert_eq!(params["capabilities"], json!({"elicitation": {}}));
        assert_eq!(params["clientInfo"]["name"], "modern");
    }

    #[test]
    fn answers_for_modern_clients_say_their_type_and_how_long_they_keep() {
        let mut list = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}});
        to_modern_answer("tools/list", &mut list, CacheHint::NONE);
        assert_eq!(
            list["result"],
            json!({"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"})
        );
        // A backend's own hints are kept.
        let mut own = json!({"jsonrpc": "2.0", "id": 1,
                             "result": {"tools": [], "ttlMs": 5000, "cacheScope": "public"}});
        to_modern_answer("tools/list", &mut own, CacheHint::NONE);
        assert_eq!(own["result"]["ttlMs"], 5000);
        assert_eq!(own["result"]["cacheScope"], "public");
        // A call is no cacheable result.
        let mut call = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}});
        to_modern_answer("tools/call", &mut call, CacheHint::NONE);
        assert_eq!(
            call["result"],
            json!({"content": [], "resultType": "complete"})
        );
        let mut missing = json!({"jsonrpc": "2.0", "id": 1,
                                 "error": {"code": -32002, "message": "no such resource"}});
        to_modern_answer("resources/read", &mut missing, CacheHint::NONE);
        assert_eq!(
            missing["error"]["code"],
            super::super::stdio::INVALID_PARAMS
        );
    }

    #[test]
    fn input_is_asked_only_for_what_the_client_declared() {
        let capabilities = client_capabilities(&modern("tools/call", json!({})));
        assert!(declares(&capabilities, "elicitation/create"));
        assert!(!declares(&capabilities, "sampling/createMessage"));
        assert!(!declares(&capabilities, "ping"));
        let request = json!({"method": "elicitation/create", "params": {"message": "name?"}});
        let answer = input_required(&json!(3), "input", &request, "agx-input-1");
        assert_eq!(answer["result"]["resultType"], "input_required");
        assert_eq!(answer["result"]["inputRequests"]["input"], request);
        assert_eq!(answer["result"]["requestState"], "agx-input-1");
        assert!(takes_input("tools/call") && !takes_input("tools/list"));
    }

    #[test]
    fn discovery_stands_for_a_legacy_backends_initialize() {
        let initialized = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {"listChanged": true}, "logging": {},
                             "resources": {"subscribe": true}},
            "serverInfo": {"name": "@work", "version": "1.2.3"},
            "instructions": "Use it.",
        });
        let result = discover_result(&initialized, CacheHint::NONE);
        assert_eq!(result["resultType"], "complete");
        assert_eq!(
            result["supportedVersions"],
            json!([MODERN, LEGACY, "2025-06-18"])
        );
        // Logging goes; change notifications and subscriptions stay (subscriptions/listen).
        assert_eq!(
            result["capabilities"],
            json!({"tools": {"listChanged": true}, "resources": {"subscribe": true}})
        );
        assert_eq!(result["_meta"][SERVER_INFO_KEY]["name"], "@work");
        assert_eq!(result["instructions"], "Use it.");
        assert_eq!(result["ttlMs"], 0);
    }
}
