//! The MCP conformance suite's client (`@modelcontextprotocol/conformance client`), built from
//! agx's own code: the sign-in is `agx auth login`'s (crates/agx-auth: discovery, client
//! registration, PKCE, the loopback redirect, tokens kept as agx keeps them) and the
//! connection is the signed-in HTTP client `agx serve` reaches remotes with.
//!
//! ```text
//! cargo build --release --example mcp_client
//! npx @modelcontextprotocol/conformance client --command target/release/examples/mcp_client --suite auth
//! ```
//!
//! The suite runs `mcp_client URL` with `MCP_CONFORMANCE_SCENARIO` (the scenario's name) and
//! `MCP_CONFORMANCE_CONTEXT` (JSON: a pre-registered `client_id`/`client_secret`, tool calls).
//! The client-credentials scenarios sign in as `agx auth login --client-credentials` does.
//! The client connects, signs in when the server asks (as a person would with
//! `agx auth login`, the browser step done by following the authorization server's redirect),
//! lists the tools and calls each; a 403 `insufficient_scope` signs in again with the scope
//! the server named, with `MAX_SIGN_INS` sign-ins in all. Sign-ins live in a temporary agx home.

#![allow(deprecated)] // MCP sampling (SEP-2577) is deprecated in rmcp, but the suite still offers it

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ErrorData,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

use agx_auth::{Challenge, ClientChoice, LoginRequest, Resource, SignIns};
use agx_core::paths::AgxPaths;
use agx_model::settings::KeyringChoice;

/// How many sign-ins one run makes at most, the first included: a server that keeps refusing
/// the scopes it named is not asked forever (`scope-retry-limit`).
const MAX_SIGN_INS: usize = 3;
/// The Client ID Metadata Document URL the suite's authorization servers accept.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

type Failure = Box<dyn std::error::Error + Send + Sync>;

fn main() {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: mcp_client URL (MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT)");
        std::process::exit(2);
    };
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or(Value::Null);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    match runtime.block_on(run(&url, &context)) {
        Ok(()) => {}
        Err(e) => {
            eprintln!("mcp_client: {e}");
            std::process::exit(1);
        }
    }
}

async fn run(url: &str, context: &Value) -> Result<(), Failure> {
    let home = tempfile::tempdir()?;
    let paths = AgxPaths::under(home.path().to_path_buf(), true);
    let sign_ins = SignIns::open_with_choice(&paths, KeyringChoice::File);
    let resource = Resource::parse(url)?;
    let mut scopes: Vec<String> = Vec::new();
    let mut signed_in = 0;
    let mut client = connect(url, &sign_ins, &resource).await;
    loop {
        let outcome = match client {
            Ok(running) => exercise(&running, context).await.map(|()| running),
            Err(e) => Err(e),
        };
        let failure = match outcome {
            Ok(running) => {
                let _ = running.cancel().await;
                return Ok(());
            }
            Err(failure) => failure,
        };
        let challenge = agx_auth::challenge_in(failure.as_ref()).ok_or(failure)?;
        if signed_in == MAX_SIGN_INS {
            return Err(format!("the server still refuses after {MAX_SIGN_INS} sign-ins").into());
        }
        signed_in += 1;
        if let Challenge::ScopeNeeded { scope } = &challenge {
            for s in scope.iter().flat_map(|s| s.split_whitespace()) {
                if !scopes.iter().any(|have| have == s) {
                    scopes.push(s.to_string());
                }
            }
        }
        sign_in(&sign_ins, &resource, context, &scopes).await?;
        client = connect(url, &sign_ins, &resource).await;
    }
}

/// Sign in as `agx auth login` does, the browser step done by following the redirect.
async fn sign_in(
    sign_ins: &SignIns,
    resource: &Resource,
    context: &Value,
    scopes: &[String],
) -> Result<(), Failure> {
    let text = |key: &str| context.get(key).and_then(Value::as_str).map(str::to_string);
    // A machine's sign-in (the suite's client-credentials scenarios): the client's own ID and
    // secret, no browser.
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    if scenario.starts_with("auth/client-credentials")
        && let (Some(id), Some(secret)) = (text("client_id"), text("client_secret"))
    {
        agx_auth::login_client_credentials(sign_ins, resource, &id, &secret, scopes).await?;
        return Ok(());
    }
    let request = LoginRequest {
        resource: resource.clone(),
        client: ClientChoice {
            client_id: text("client_id"),
            client_secret: text("client_secret"),
            metadata_url: Some(CLIENT_METADATA_URL.to_string()),
        },
        scopes: scopes.to_vec(),
        callback_port: None,
        timeout: Duration::from_secs(30),
    };
    let mut browse = |url: &str| {
        let url = url.to_string();
        std::thread::spawn(move || follow_redirects(&url));
    };
    agx_auth::login(sign_ins, request, &mut browse).await?;
    Ok(())
}

/// What a browser does after the person approves: follow the authorization server's
/// redirects, the last of which reaches the loopback listener.
fn follow_redirects(url: &str) {
    let Ok(client) = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(10))
        .timeout(Duration::from_secs(30))
        .build()
    else {
        return;
    };
    let _ = client.get(url).send();
}

async fn connect(
    url: &str,
    sign_ins: &SignIns,
    resource: &Resource,
) -> Result<RunningService<RoleClient, Handler>, Failure> {
    let config = StreamableHttpClientTransportConfig::with_uri(url);
    let http = reqwest::Client::new();
    let running = match agx_auth::signed_in_client(sign_ins, resource, http.clone()).await? {
        Some(signed_in) => {
            Handler
                .serve(StreamableHttpClientTransport::with_client(
                    signed_in, config,
                ))
                .await?
        }
        None => {
            Handler
                .serve(StreamableHttpClientTransport::with_client(http, config))
                .await?
        }
    };
    Ok(running)
}

/// List the tools and call each, with the context's arguments or ones its schema asks for.
async fn exercise(
    client: &RunningService<RoleClient, Handler>,
    context: &Value,
) -> Result<(), Failure> {
    let tools = client.list_all_tools().await?;
    for tool in tools {
        let named = context
            .get("toolCalls")
            .and_then(Value::as_array)
            .and_then(|calls| calls.iter().find(|c| c["name"] == tool.name.as_ref()))
            .and_then(|c| c.get("arguments"))
            .and_then(Value::as_object)
            .cloned();
        let schema = Value::Object((*tool.input_schema).clone());
        let arguments = named.unwrap_or_else(|| arguments_for(&schema));
        client
            .call_tool(CallToolRequestParams::new(tool.name.clone()).with_arguments(arguments))
            .await?;
    }
    Ok(())
}

/// A value for every required property of `schema`, by its type.
fn arguments_for(schema: &Value) -> Map<String, Value> {
    let mut arguments = Map::new();
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        let value = match schema["properties"][name]["type"].as_str() {
            Some("number" | "integer") => json!(1),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("test"),
        };
        arguments.insert(name.to_string(), value);
    }
    arguments
}

/// A client that accepts elicitations with the schema's defaults and answers sampling.
#[derive(Clone)]
struct Handler;

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        serde_json::from_value(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": {}}, "sampling": {}},
            "clientInfo": {"name": "agx-conformance-client", "version": env!("CARGO_PKG_VERSION")}
        }))
        .expect("a client config")
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let request = serde_json::to_value(&request).unwrap_or(Value::Null);
        let mut content = Map::new();
        if let Some(properties) = request["requestedSchema"]["properties"].as_object() {
            for (name, property) in properties {
                if let Some(default) = property.get("default") {
                    content.insert(name.clone(), default.clone());
                }
            }
        }
        serde_json::from_value(json!({"action": "accept", "content": content}))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        serde_json::from_value(json!({
            "role": "assistant",
            "content": {"type": "text", "text": "a reply from the conformance client"},
            "model": "none",
            "stopReason": "endTurn"
        }))
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}
