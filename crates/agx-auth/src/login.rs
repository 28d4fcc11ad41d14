//! `agx auth login`: discover how a remote server wants clients to sign in, register agx as
//! a client, send the person to the authorization page with a PKCE challenge, take the code
//! from the loopback redirect, exchange it, and keep the tokens.

use std::time::Duration;

use rmcp::transport::auth::{
    AuthorizationCallback, AuthorizationManager, AuthorizationMetadataSource, AuthorizationRequest,
    AuthorizationSession, ClientCredentialsConfig,
};

use super::callback::{Listener, Redirect, query_param};
use super::sign_ins::{Resource, SignIn, SignIns};
use super::{AuthError, install_tls_provider};

/// How agx identifies itself to the authorization server, in the specification's order:
/// a client ID the person was given (with its secret, if any), else a Client ID Metadata
/// Document URL when the server accepts those, else dynamic registration.
#[derive(Clone, Default)]
pub struct ClientChoice {
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// An HTTPS URL serving agx's client metadata (docs/auth.md).
    pub metadata_url: Option<String>,
}

// The secret stays out of logs.
impl std::fmt::Debug for ClientChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientChoice")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("metadata_url", &self.metadata_url)
            .finish()
    }
}

#[derive(Debug, Clone)]
pub struct LoginRequest {
    pub resource: Resource,
    pub client: ClientChoice,
    /// Scopes to ask for; empty: the server's challenge, else its `scopes_supported`.
    pub scopes: Vec<String>,
    /// The loopback port for the redirect; `None`: any free one.
    pub callback_port: Option<u16>,
    /// How long to wait for the browser to come back.
    pub timeout: Duration,
}

/// How long a request without a sign-in may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// The name agx registers under.
const CLIENT_NAME: &str = "agx";

/// Sign in to `request.resource`; `present` is given the authorization page's URL to show
/// (and open). The tokens are in the keyring when this returns.
pub async fn login(
    sign_ins: &SignIns,
    request: LoginRequest,
    present: &mut dyn FnMut(&str),
) -> Result<SignIn, AuthError> {
    install_tls_provider();
    let resource = &request.resource;
    if let Some(url) = &request.client.metadata_url
        && !is_metadata_document_url(url)
    {
        return Err(AuthError::BadMetadataUrl(url.clone()));
    }
    let flow = |detail: String| AuthError::Flow {
        resource: resource.to_string(),
        detail,
    };
    let (mut manager, metadata) = discover(resource).await?;
    let issuer = metadata.issuer.clone();

    let listener = Listener::bind(request.callback_port.unwrap_or(0)).await?;
    let redirect_uri = listener.redirect_uri();
    let scopes = if request.scopes.is_empty() {
        manager.select_initial_scopes(&[]).await
    } else {
        request.scopes.clone()
    };

    // Registration, in the specification's order.
    let supports_metadata_documents = metadata
        .additional_fields
        .get("client_id_metadata_document_supported")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    let (client_id, client_secret, registration) = match &request.client {
        ClientChoice {
            client_id: Some(id),
            client_secret,
            ..
        } => (id.clone(), client_secret.clone(), "pre-registered"),
        ClientChoice {
            metadata_url: Some(url),
            ..
        } if supports_metadata_documents => (url.clone(), None, "metadata-document"),
        _ => {
            let scope_refs: Vec<&str> = scopes.iter().map(String::as_str).collect();
            let config = manager
                .register_client(CLIENT_NAME, &redirect_uri, &scope_refs)
                .await
                .map_err(|e| AuthError::Registration {
                    issuer: issuer.clone().unwrap_or_else(|| resource.to_string()),
                    detail: match e {
                        rmcp::transport::auth::AuthError::RegistrationFailed(d)
                            if d.contains("not supported") =>
                        {
                            "it offers no dynamic client registration".into()
                        }
                        e => e.to_string(),
                    },
                })?;
            (config.client_id, config.client_secret, "dynamic")
        }
    };
    let credentials = sign_ins.credentials(resource, client_secret.clone());
    manager.set_credential_store(credentials);

    let mut authorization = AuthorizationRequest::new(redirect_uri.clone())
        .with_client_name(CLIENT_NAME)
        .with_preregistered_client(client_id.clone())
        .with_scopes(scopes.clone());
    if let Some(secret) = &client_secret {
        authorization = authorization.with_client_secret(secret.clone());
    }
    let session = AuthorizationSession::new(manager, authorization)
        .await
        .map_err(|(_, e)| flow(e.to_string()))?;

    let state = query_param(&session.auth_url, "state")
        .ok_or_else(|| flow("the authorization URL carries no state".into()))?;
    present(&session.auth_url);
    let redirect = tokio::time::timeout(request.timeout, listener.wait(&state))
        .await
        .map_err(|_| AuthError::TimedOut {
            resource: resource.to_string(),
            seconds: request.timeout.as_secs(),
        })?;
    let callback_url = match redirect {
        Redirect::Code { url } => url,
        Redirect::Error {
            error, description, ..
        } => {
            return Err(AuthError::Denied {
                resource: resource.to_string(),
                error,
                description,
            });
        }
    };
    let callback =
        AuthorizationCallback::from_redirect_url(&callback_url).map_err(|e| flow(e.to_string()))?;
    // rmcp checks `state` against the one it sent and `iss` against the issuer (RFC 9207),
    // then saves the tokens through the keyring store.
    session
        .handle_callback_with_issuer(
            &callback.code,
            &callback.csrf_token,
            callback.issuer.as_deref(),
        )
        .await
        .map_err(|e| flow(e.to_string()))?;

    let sign_in = SignIn {
        issuer,
        client_id,
        registration: registration.to_string(),
        scopes,
        signed_in_at: agx_core::clock::unix_now(),
        redirect_uri,
        metadata,
    };
    sign_ins.record(resource, sign_in.clone())?;
    Ok(sign_in)
}

/// Find how `resource` wants clients to sign in: its challenge, then its metadata. The
/// manager returned holds that metadata. A server that answers without a sign-in and
/// publishes no metadata does not ask for one.
async fn discover(
    resource: &Resource,
) -> Result<
    (
        AuthorizationManager,
        rmcp::transport::auth::AuthorizationMetadata,
    ),
    AuthError,
> {
    let discovery = |e: rmcp::transport::auth::AuthError| AuthError::Discovery {
        resource: resource.to_string(),
        detail: e.to_string(),
    };
    let challenge = probe(resource)
        .await
        .map_err(|detail| AuthError::Unreachable {
            resource: resource.to_string(),
            detail,
        })?;
    let mut manager = AuthorizationManager::new(resource.as_str())
        .await
        .map_err(discovery)?;
    let resolution = manager
        .resolve_metadata_from_challenge(challenge.as_ref().and_then(Challenge::header))
        .await
        .map_err(discovery)?;
    if resolution.source == AuthorizationMetadataSource::LegacyEndpointFallback
        && matches!(challenge, Some(Challenge::Open))
    {
        return Err(AuthError::NotRequired {
            resource: resource.to_string(),
        });
    }
    manager.set_metadata(resolution.metadata.clone());
    Ok((manager, resolution.metadata))
}

/// How a client-credentials sign-in is recorded.
pub(crate) const CLIENT_CREDENTIALS: &str = "client-credentials";

/// Sign in without a person (OAuth client credentials, for machines and CI): `client_id` and
/// its `client_secret` are exchanged for a token directly, and `agx serve` exchanges them again
/// when it expires. The secret is kept in the keyring with the token.
pub async fn login_client_credentials(
    sign_ins: &SignIns,
    resource: &Resource,
    client_id: &str,
    client_secret: &str,
    scopes: &[String],
) -> Result<SignIn, AuthError> {
    install_tls_provider();
    let (mut manager, metadata) = discover(resource).await?;
    let scopes = if scopes.is_empty() {
        manager.select_initial_scopes(&[]).await
    } else {
        scopes.to_vec()
    };
    manager.set_credential_store(sign_ins.credentials(resource, Some(client_secret.to_string())));
    exchange_client_credentials(&mut manager, resource, client_id, client_secret, &scopes).await?;
    let sign_in = SignIn {
        issuer: metadata.issuer.clone(),
        client_id: client_id.to_string(),
        registration: CLIENT_CREDENTIALS.to_string(),
        scopes,
        signed_in_at: agx_core::clock::unix_now(),
        redirect_uri: resource.to_string(),
        metadata,
    };
    sign_ins.record(resource, sign_in.clone())?;
    Ok(sign_in)
}

/// Exchange a client's ID and secret for a token; `manager` (with metadata) saves it in its
/// credential store.
pub(crate) async fn exchange_client_credentials(
    manager: &mut AuthorizationManager,
    resource: &Resource,
    client_id: &str,
    client_secret: &str,
    scopes: &[String],
) -> Result<(), AuthError> {
    let config = ClientCredentialsConfig::ClientSecret {
        client_id: client_id.to_string(),
        client_secret: client_secret.to_string(),
        scopes: scopes.to_vec(),
        resource: Some(resource.to_string()),
    };
    let flow = |e: rmcp::transport::auth::AuthError| AuthError::Flow {
        resource: resource.to_string(),
        detail: e.to_string(),
    };
    manager
        .validate_client_credentials_metadata(&config)
        .map_err(flow)?;
    manager
        .configure_client_credentials(&config)
        .map_err(flow)?;
    manager
        .exchange_client_credentials(&config)
        .await
        .map_err(flow)?;
    Ok(())
}

/// Whether `resource` refuses a request without a sign-in with an OAuth challenge (a 401
/// with `WWW-Authenticate: Bearer …`), as `agx install` asks to offer one. A server that
/// cannot be reached, or refuses for want of an API key, does not.
pub async fn asks_for_sign_in(resource: &Resource) -> bool {
    install_tls_provider();
    matches!(probe(resource).await, Ok(Some(Challenge::Unauthorized(header)))
        if header.trim_start().to_ascii_lowercase().starts_with("bearer"))
}

/// How the server answered a request without a sign-in.
enum Challenge {
    /// 401 with this `WWW-Authenticate` (possibly empty).
    Unauthorized(String),
    /// It answered: no sign-in needed (or none asked for yet).
    Open,
}

impl Challenge {
    fn header(&self) -> Option<&str> {
        match self {
            Challenge::Unauthorized(h) if !h.is_empty() => Some(h),
            _ => None,
        }
    }
}

/// Ask the server as an MCP client would (an `initialize` request), to read its challenge.
/// `Ok(None)` when its answer says neither (discovery then goes on from well-known URLs);
/// an error, with its innermost cause, when it cannot be reached at all.
async fn probe(resource: &Resource) -> Result<Option<Challenge>, String> {
    let client = reqwest::Client::builder()
        .timeout(PROBE_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": CLIENT_NAME, "version": env!("CARGO_PKG_VERSION")}}
    });
    let response = client
        .post(resource.as_str())
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .map_err(|e| innermost_cause(&e))?;
    if response.status() == reqwest::StatusCode::UNAUTHORIZED {
        let header = response
            .headers()
            .get(reqwest::header::WWW_AUTHENTICATE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        return Ok(Some(Challenge::Unauthorized(header)));
    }
    Ok(response.status().is_success().then_some(Challenge::Open))
}

/// The deepest cause of `error` (reqwest's own text names only the request).
fn innermost_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    cause.to_string()
}

/// A Client ID Metadata Document's URL: HTTPS, with a host and a path (it is the client ID).
fn is_metadata_document_url(url: &str) -> bool {
    url::Url::parse(url)
        .is_ok_and(|u| u.scheme() == "https" && u.host_str().is_some() && u.path() != "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_metadata_document_url_is_https_with_a_path() {
        assert!(is_metadata_document_url(
            "https://tools.corp.example/agx/client.json"
        ));
        for bad in [
            "http://tools.corp.example/agx/client.json",
            "https://tools.corp.example/",
            "https://tools.corp.example",
            "not a url",
        ] {
            assert!(!is_metadata_document_url(bad), "{bad}");
        }
    }
}
