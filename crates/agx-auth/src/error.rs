//! What can go wrong signing in, each with what to do about it. No message carries a token,
//! a code or a client secret.

use agx_core::error::Hint;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("`{0}` is not an http:// or https:// URL of a remote MCP server")]
    BadUrl(String),

    #[error("`{0}` is not an HTTPS URL with a path, as a client metadata document's must be")]
    BadMetadataUrl(String),

    #[error(
        "{resource} does not ask for a sign-in: it answered without one and publishes no authorization metadata"
    )]
    NotRequired { resource: String },

    #[error("could not reach {resource}: {detail}")]
    Unreachable { resource: String, detail: String },

    #[error("could not find how to sign in to {resource}: {detail}")]
    Discovery { resource: String, detail: String },

    #[error("could not register agx as a client of {issuer}: {detail}")]
    Registration { issuer: String, detail: String },

    #[error("could not listen for the sign-in's redirect on 127.0.0.1:{port}: {detail}")]
    Callback { port: u16, detail: String },

    #[error("the sign-in to {resource} was not completed within {seconds} s")]
    TimedOut { resource: String, seconds: u64 },

    #[error("the authorization server refused the sign-in to {resource}: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Denied {
        resource: String,
        error: String,
        description: Option<String>,
    },

    #[error("the sign-in to {resource} failed: {detail}")]
    Flow { resource: String, detail: String },

    #[error("the stored sign-in to {resource} cannot be used: {detail}")]
    Stored { resource: String, detail: String },

    #[error("could not keep the sign-in: {0}")]
    Keyring(#[from] agx_model::settings::SettingsError),

    #[error("could not {action} {path}: {detail}")]
    Index {
        action: &'static str,
        path: String,
        detail: String,
    },
}

impl Hint for AuthError {
    fn hint(&self) -> Option<String> {
        match self {
            AuthError::BadUrl(_) => Some(
                "name an installed remote server (`agx auth login PUBLISHER/NAME`) or its URL (`https://…`)"
                    .into(),
            ),
            AuthError::BadMetadataUrl(_) => Some(
                "give the URL your organisation hosts agx's client metadata at (`https://…/client-metadata.json`), or leave out --client-metadata-url and AGX_OAUTH_CLIENT_METADATA_URL"
                    .into(),
            ),
            AuthError::NotRequired { .. } => Some(
                "nothing to do: agx serve reaches it without a sign-in; if it needs an API key instead, set it with `agx config set`"
                    .into(),
            ),
            AuthError::Unreachable { .. } => Some(
                "check the URL, and that this machine reaches the server (network, proxy, VPN)"
                    .into(),
            ),
            AuthError::Discovery { .. } => Some(
                "check the URL; a server that signs in elsewhere may need its client ID: `agx auth login SERVER --client-id ID`"
                    .into(),
            ),
            AuthError::Registration { .. } => Some(
                "this authorization server does not let clients register themselves: ask its administrator for a client ID and pass `--client-id ID` (and `--client-secret-stdin` if it has a secret)"
                    .into(),
            ),
            AuthError::Callback { .. } => Some(
                "another program holds that port: choose another with `--callback-port PORT`, or leave it out for a free one"
                    .into(),
            ),
            AuthError::TimedOut { .. } => Some(
                "open the printed URL in a browser on this machine and sign in, then run `agx auth login` again"
                    .into(),
            ),
            AuthError::Denied { .. } => {
                Some("sign in again with `agx auth login`; check the account has access".into())
            }
            AuthError::Flow { .. } => Some(
                "run `agx auth login` again; check the URL, the client ID and the account".into(),
            ),
            AuthError::Stored { .. } => {
                Some("sign in again with `agx auth login`, which replaces it".into())
            }
            AuthError::Keyring(e) => e.hint(),
            AuthError::Index { .. } => Some("check the permissions of agx's config folder".into()),
        }
    }
}
