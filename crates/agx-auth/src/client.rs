//! The HTTP client `agx serve` reaches a signed-in remote with: rmcp's `AuthClient`, which
//! attaches the access token to every request, refreshes it shortly before it expires (and
//! once when the server rejects it), and saves refreshed tokens through the keyring store.
//! The authorization server's metadata comes from the sign-in record, so a start makes no
//! discovery request.

use rmcp::transport::auth::{AuthClient, AuthorizationManager, OAuthClientConfig};

use super::sign_ins::{Resource, SignIns};
use super::{AuthError, install_tls_provider};

/// An HTTP client that signs every request to one remote in.
pub type SignedInClient = AuthClient<reqwest::Client>;

/// The signed-in client for `resource`, or `None` when there is no sign-in to it.
pub async fn signed_in_client(
    sign_ins: &SignIns,
    resource: &Resource,
    http: reqwest::Client,
) -> Result<Option<SignedInClient>, AuthError> {
    let Some(sign_in) = sign_ins.get(resource)? else {
        return Ok(None);
    };
    install_tls_provider();
    let stored = |detail: String| AuthError::Stored {
        resource: resource.to_string(),
        detail,
    };
    let client_secret = {
        let (sign_ins, resource) = (sign_ins.clone(), resource.clone());
        tokio::task::spawn_blocking(move || sign_ins.client_secret(&resource))
            .await
            .map_err(|e| stored(e.to_string()))??
    };
    let mut manager = AuthorizationManager::new(resource.as_str())
        .await
        .map_err(|e| stored(e.to_string()))?;
    manager.set_metadata(sign_in.metadata.clone());
    let credentials = match (&client_secret, sign_in.registration.as_str()) {
        (Some(secret), super::login::CLIENT_CREDENTIALS) => sign_ins.renewing_credentials(
            resource,
            super::sign_ins::Renewal {
                metadata: sign_in.metadata.clone(),
                client_id: sign_in.client_id.clone(),
                client_secret: secret.clone(),
                scopes: sign_in.scopes.clone(),
            },
        ),
        _ => sign_ins.credentials(resource, client_secret.clone()),
    };
    manager.set_credential_store(credentials);
    if !manager
        .initialize_from_store()
        .await
        .map_err(|e| stored(e.to_string()))?
    {
        // Signed out of the keyring (or its entry was removed): requests go without a
        // token, and the server's 401 says to sign in again.
        return Ok(Some(AuthClient::new(http, manager)));
    }
    // `initialize_from_store` knows the client ID only; a confidential client's refresh
    // needs its secret too.
    let mut config = OAuthClientConfig::new(sign_in.client_id.clone(), sign_in.redirect_uri)
        .with_scopes(sign_in.scopes);
    if let Some(secret) = client_secret {
        config = config.with_client_secret(secret);
    }
    manager
        .configure_client(config)
        .map_err(|e| stored(e.to_string()))?;
    Ok(Some(AuthClient::new(http, manager)))
}
