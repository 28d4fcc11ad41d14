//! Where sign-ins live. What is not secret (which servers, the issuer, the client ID, the
//! scopes, the authorization server's metadata, so that a start needs no discovery request)
//! is in `sign-ins-v1.json` in agx's config folder; the tokens and a client secret are in the
//! keyring (or agx's owner-only secrets file), under `oauth:RESOURCE`, never anywhere else.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rmcp::transport::auth::{
    AuthError as RmcpAuthError, AuthorizationMetadata, CredentialRefreshGuard, CredentialStore,
    StoredCredentials,
};
use serde::{Deserialize, Serialize};

use super::AuthError;
use agx_core::paths::AgxPaths;
use agx_model::settings::{KeyringChoice, SettingsStore};

/// A remote MCP server's URL as the key of its sign-in: scheme and host lowercased, without
/// its query and fragment (RFC 8707: a resource indicator has no fragment and should have no
/// query). A query may carry a secret setting (`?key=${settings.token}`), which must not
/// become a keyring account name, a record's key or a line of `agx auth status`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Resource(String);

impl Resource {
    pub fn parse(url: &str) -> Result<Resource, AuthError> {
        let mut parsed =
            url::Url::parse(url.trim()).map_err(|_| AuthError::BadUrl(url.to_string()))?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(AuthError::BadUrl(url.to_string()));
        }
        parsed.set_fragment(None);
        parsed.set_query(None);
        // A user name or password in the URL is a credential too.
        let _ = parsed.set_username("");
        let _ = parsed.set_password(None);
        Ok(Resource(parsed.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What agx shows of one sign-in (nothing secret).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SignIn {
    /// The authorization server that issued the tokens.
    pub issuer: Option<String>,
    pub client_id: String,
    /// How the client was registered: `pre-registered`, `metadata-document` or `dynamic`.
    pub registration: String,
    /// The scopes asked for.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// When the sign-in was made (seconds since the Unix epoch).
    pub signed_in_at: u64,
    /// The redirect URI the client was registered with (refreshes name it again).
    pub redirect_uri: String,
    /// The authorization server's metadata, as discovered at sign-in.
    pub metadata: AuthorizationMetadata,
}

/// The sign-ins file.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Index {
    version: u32,
    #[serde(default)]
    sign_ins: BTreeMap<String, SignIn>,
}

const INDEX_VERSION: u32 = 1;
/// A sign-ins file larger than this is not agx's.
const INDEX_CAP: u64 = 4 << 20;

/// The keyring's part of a sign-in.
#[derive(Clone, Serialize, Deserialize)]
struct Secret {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client_secret: Option<String>,
    credentials: StoredCredentials,
}

/// The sign-ins of one agx home.
#[derive(Clone)]
pub struct SignIns {
    paths: AgxPaths,
    settings: Arc<Mutex<SettingsStore>>,
}

impl std::fmt::Debug for SignIns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignIns")
            .field("index", &self.index_path())
            .finish()
    }
}

impl SignIns {
    pub fn open(paths: &AgxPaths) -> Result<SignIns, AuthError> {
        Ok(SignIns {
            paths: paths.clone(),
            settings: Arc::new(Mutex::new(SettingsStore::open(paths)?)),
        })
    }

    /// The sign-ins of `paths` with secrets where `choice` says (not `AGX_KEYRING`).
    pub fn open_with_choice(paths: &AgxPaths, choice: KeyringChoice) -> SignIns {
        SignIns {
            paths: paths.clone(),
            settings: Arc::new(Mutex::new(SettingsStore::with_choice(paths, choice))),
        }
    }

    fn index_path(&self) -> PathBuf {
        self.paths.config_dir.join("sign-ins-v1.json")
    }

    fn refresh_lock_path(&self) -> PathBuf {
        self.paths.config_dir.join("sign-ins.lock")
    }

    fn read_index(&self) -> Result<Index, AuthError> {
        let path = self.index_path();
        let text = match agx_core::regular_file::read_text(&path, INDEX_CAP) {
            Ok(text) => text,
            Err(agx_core::regular_file::ReadProblem::NotFound) => return Ok(Index::default()),
            Err(problem) => {
                return Err(AuthError::Index {
                    action: "read",
                    path: path.display().to_string(),
                    detail: problem.describe(),
                });
            }
        };
        let index: Index = serde_json::from_str(&text).map_err(|e| AuthError::Index {
            action: "read",
            path: path.display().to_string(),
            detail: format!("not a sign-ins file ({e}); remove it and sign in again"),
        })?;
        if index.version != INDEX_VERSION {
            return Err(AuthError::Index {
                action: "read",
                path: path.display().to_string(),
                detail: format!(
                    "version {} is not one this agx reads ({INDEX_VERSION})",
                    index.version
                ),
            });
        }
        Ok(index)
    }

    fn write_index(&self, index: &Index) -> Result<(), AuthError> {
        let path = self.index_path();
        let mut bytes = serde_json::to_vec_pretty(index).map_err(|e| AuthError::Index {
            action: "write",
            path: path.display().to_string(),
            detail: e.to_string(),
        })?;
        bytes.push(b'\n');
        agx_core::atomic::write_file(&path, &bytes, None).map_err(|e| AuthError::Index {
            action: "write",
            path: path.display().to_string(),
            detail: e.to_string(),
        })
    }

    /// The sign-in to `resource`, if there is one.
    pub fn get(&self, resource: &Resource) -> Result<Option<SignIn>, AuthError> {
        Ok(self.read_index()?.sign_ins.remove(resource.as_str()))
    }

    /// Every sign-in, by resource.
    pub fn list(&self) -> Result<Vec<(Resource, SignIn)>, AuthError> {
        Ok(self
            .read_index()?
            .sign_ins
            .into_iter()
            .map(|(r, s)| (Resource(r), s))
            .collect())
    }

    /// Record `sign_in` for `resource` (its tokens are already in the keyring).
    pub(crate) fn record(&self, resource: &Resource, sign_in: SignIn) -> Result<(), AuthError> {
        let mut index = self.read_index()?;
        index.version = INDEX_VERSION;
        index
            .sign_ins
            .insert(resource.as_str().to_string(), sign_in);
        self.write_index(&index)
    }

    /// Forget the sign-in to `resource`: its tokens and its record. Whether there was one.
    pub fn remove(&self, resource: &Resource) -> Result<bool, AuthError> {
        let secret = self.settings()?.remove_sign_in_secret(resource.as_str())?;
        let mut index = self.read_index()?;
        let recorded = index.sign_ins.remove(resource.as_str()).is_some();
        if recorded {
            index.version = INDEX_VERSION;
            self.write_index(&index)?;
        }
        Ok(secret || recorded)
    }

    /// When the access token kept for `resource` expires (seconds since the epoch), and
    /// whether a refresh token is kept with it; `None` when no token is kept.
    pub fn token_state(&self, resource: &Resource) -> Result<Option<TokenState>, AuthError> {
        use oauth2::TokenResponse;
        let Some(secret) = self.secret(resource)? else {
            return Ok(None);
        };
        let Some(tokens) = &secret.credentials.token_response else {
            return Ok(None);
        };
        let expires_at = match (tokens.expires_in(), secret.credentials.token_received_at) {
            (Some(lifetime), Some(received)) => Some(received + lifetime.as_secs()),
            _ => None,
        };
        Ok(Some(TokenState {
            expires_at,
            refreshable: tokens.refresh_token().is_some(),
            granted_scopes: secret.credentials.granted_scopes.clone(),
        }))
    }

    /// A value that changes whenever the tokens kept for `resource` do (a new sign-in, a
    /// refresh by another process); `None` when none are kept. Not a secret: a hash, for
    /// noticing a change.
    pub fn tokens_marker(&self, resource: &Resource) -> Result<Option<u64>, AuthError> {
        use std::hash::{Hash, Hasher};
        let Some(text) = self.settings()?.sign_in_secret(resource.as_str())? else {
            return Ok(None);
        };
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut hasher);
        Ok(Some(hasher.finish()))
    }

    fn settings(&self) -> Result<std::sync::MutexGuard<'_, SettingsStore>, AuthError> {
        self.settings.lock().map_err(|_| AuthError::Stored {
            resource: String::new(),
            detail: "the secret store's lock was poisoned".into(),
        })
    }

    fn secret(&self, resource: &Resource) -> Result<Option<Secret>, AuthError> {
        let Some(text) = self.settings()?.sign_in_secret(resource.as_str())? else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| AuthError::Stored {
                resource: resource.to_string(),
                // Line and column only: the parser's message may quote what is stored.
                detail: format!(
                    "its keyring entry is not agx's (at line {}, column {})",
                    e.line(),
                    e.column()
                ),
            })
    }

    fn set_secret(&self, resource: &Resource, secret: &Secret) -> Result<(), AuthError> {
        let text = serde_json::to_string(secret).map_err(|e| AuthError::Stored {
            resource: resource.to_string(),
            detail: e.to_string(),
        })?;
        self.settings()?
            .set_sign_in_secret(resource.as_str(), &text)?;
        Ok(())
    }

    /// The keyring-backed credential store rmcp's authorization manager reads and writes for
    /// `resource`; `client_secret` is kept beside the tokens it saves.
    pub(crate) fn credentials(
        &self,
        resource: &Resource,
        client_secret: Option<String>,
    ) -> KeyringCredentials {
        KeyringCredentials {
            sign_ins: self.clone(),
            resource: resource.clone(),
            client_secret: Arc::new(Mutex::new(client_secret)),
            cached: Arc::new(Mutex::new(None)),
            renewal: None,
        }
    }

    /// [`SignIns::credentials`] for a client-credentials sign-in, which `renewal` exchanges
    /// again whenever the kept token is about to expire.
    pub(crate) fn renewing_credentials(
        &self,
        resource: &Resource,
        renewal: Renewal,
    ) -> KeyringCredentials {
        let secret = Some(renewal.client_secret.clone());
        KeyringCredentials {
            renewal: Some(Arc::new(renewal)),
            ..self.credentials(resource, secret)
        }
    }

    /// The client secret kept for `resource`.
    pub(crate) fn client_secret(&self, resource: &Resource) -> Result<Option<String>, AuthError> {
        Ok(self.secret(resource)?.and_then(|s| s.client_secret))
    }
}

/// What `agx auth status` says of a kept token.
#[derive(Debug, Clone)]
pub struct TokenState {
    pub expires_at: Option<u64>,
    pub refreshable: bool,
    pub granted_scopes: Vec<String>,
}

/// rmcp's credential store over the keyring. Reads are cached in the process (every HTTP
/// request asks for the token); a refresh takes a file lock shared by every `agx serve` of
/// this home and reads the keyring again under it, so that a refresh token another process
/// already used and replaced is not sent twice.
#[derive(Clone)]
pub(crate) struct KeyringCredentials {
    sign_ins: SignIns,
    resource: Resource,
    client_secret: Arc<Mutex<Option<String>>>,
    cached: Arc<Mutex<Option<Option<StoredCredentials>>>>,
    /// A client-credentials sign-in: how to get a new token when the one kept expires (there
    /// is no refresh token).
    renewal: Option<Arc<Renewal>>,
}

/// What a client-credentials sign-in is exchanged again with.
pub(crate) struct Renewal {
    pub metadata: AuthorizationMetadata,
    pub client_id: String,
    pub client_secret: String,
    pub scopes: Vec<String>,
}

/// A token this close to its expiry is renewed first: before rmcp's own refresh, which it
/// starts 30 s before expiry and which a client-credentials sign-in has no token for.
const RENEW_BEFORE_SECS: u64 = 60;

fn expires_soon(credentials: &StoredCredentials) -> bool {
    use oauth2::TokenResponse;
    let Some(tokens) = &credentials.token_response else {
        return true;
    };
    match (tokens.expires_in(), credentials.token_received_at) {
        (Some(lifetime), Some(received)) => {
            received + lifetime.as_secs() < agx_core::clock::unix_now() + RENEW_BEFORE_SECS
        }
        _ => false,
    }
}

fn store_error(e: impl std::fmt::Display) -> RmcpAuthError {
    RmcpAuthError::CredentialStoreError(e.to_string())
}

/// Run keyring work off the async threads: the OS keyring's clients block.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, AuthError> + Send + 'static,
) -> Result<T, RmcpAuthError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(store_error)?
        .map_err(store_error)
}

impl KeyringCredentials {
    /// A new token for a client-credentials sign-in, saved through this store.
    async fn renew(&self, renewal: &Renewal) -> Result<(), RmcpAuthError> {
        let mut manager =
            rmcp::transport::auth::AuthorizationManager::new(self.resource.as_str()).await?;
        manager.set_metadata(renewal.metadata.clone());
        manager.set_credential_store(KeyringCredentials {
            renewal: None,
            ..self.clone()
        });
        crate::login::exchange_client_credentials(
            &mut manager,
            &self.resource,
            &renewal.client_id,
            &renewal.client_secret,
            &renewal.scopes,
        )
        .await
        .map_err(|e| match e {
            // The token endpoint refused the client (an OAuth error response): a sign-in to
            // make again, as a refused refresh. Anything else (the network) may pass.
            AuthError::Flow { ref detail, .. }
                if detail.contains("Server returned error response") =>
            {
                RmcpAuthError::TokenRefreshRejected(e.to_string())
            }
            e => RmcpAuthError::TokenRefreshFailed(e.to_string()),
        })
    }

    /// What the keyring holds (read once per process, and again after a refresh lock).
    async fn load_kept(&self) -> Result<Option<StoredCredentials>, RmcpAuthError> {
        if let Some(cached) = self.cached.lock().map_err(store_error)?.clone() {
            return Ok(cached);
        }
        let (sign_ins, resource) = (self.sign_ins.clone(), self.resource.clone());
        let secret = blocking(move || sign_ins.secret(&resource)).await?;
        if let Some(secret) = &secret
            && let Some(client_secret) = &secret.client_secret
        {
            *self.client_secret.lock().map_err(store_error)? = Some(client_secret.clone());
        }
        let credentials = secret.map(|s| s.credentials);
        *self.cached.lock().map_err(store_error)? = Some(credentials.clone());
        Ok(credentials)
    }
}

#[async_trait::async_trait]
impl CredentialStore for KeyringCredentials {
    async fn load(&self) -> Result<Option<StoredCredentials>, RmcpAuthError> {
        let loaded = self.load_kept().await?;
        if let Some(renewal) = &self.renewal
            && loaded.as_ref().is_none_or(expires_soon)
        {
            self.renew(renewal).await?;
            return self.load_kept().await;
        }
        Ok(loaded)
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), RmcpAuthError> {
        let secret = Secret {
            client_secret: self.client_secret.lock().map_err(store_error)?.clone(),
            credentials: credentials.clone(),
        };
        let (sign_ins, resource) = (self.sign_ins.clone(), self.resource.clone());
        blocking(move || sign_ins.set_secret(&resource, &secret)).await?;
        *self.cached.lock().map_err(store_error)? = Some(Some(credentials));
        Ok(())
    }

    async fn clear(&self) -> Result<(), RmcpAuthError> {
        let (sign_ins, resource) = (self.sign_ins.clone(), self.resource.clone());
        blocking(move || {
            sign_ins
                .settings()?
                .remove_sign_in_secret(resource.as_str())?;
            Ok(())
        })
        .await?;
        *self.cached.lock().map_err(store_error)? = Some(None);
        Ok(())
    }

    async fn acquire_refresh_guard(&self) -> Result<Option<CredentialRefreshGuard>, RmcpAuthError> {
        let path = self.sign_ins.refresh_lock_path();
        let lock = blocking(move || {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| AuthError::Index {
                    action: "create",
                    path: dir.display().to_string(),
                    detail: e.to_string(),
                })?;
            }
            agx_core::file_lock::FileLock::acquire(
                &path,
                agx_core::file_lock::LockMode::Exclusive,
                || {},
            )
            .map_err(|e| AuthError::Index {
                action: "lock",
                path: path.display().to_string(),
                detail: e.to_string(),
            })
        })
        .await?;
        // Another process may have refreshed while this one waited: read again.
        *self.cached.lock().map_err(store_error)? = None;
        Ok(Some(CredentialRefreshGuard::new(lock)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_are_urls_without_query_or_fragment() {
        assert_eq!(
            Resource::parse("HTTPS://MCP.Example.com/mcp#x")
                .unwrap()
                .as_str(),
            "https://mcp.example.com/mcp"
        );
        assert_eq!(
            Resource::parse("http://127.0.0.1:8080").unwrap().as_str(),
            "http://127.0.0.1:8080/"
        );
        assert_eq!(
            Resource::parse("https://mcp.example.com/mcp?key=s3cret")
                .unwrap()
                .as_str(),
            "https://mcp.example.com/mcp",
            "a query (which may hold a secret) is not part of the key"
        );
        assert_eq!(
            Resource::parse("https://user:pw@mcp.example.com/mcp")
                .unwrap()
                .as_str(),
            "https://mcp.example.com/mcp"
        );
        for bad in ["ftp://x/y", "not a url", "acme/geo", "file:///etc/passwd"] {
            assert!(
                matches!(Resource::parse(bad), Err(AuthError::BadUrl(_))),
                "{bad}"
            );
        }
    }
}
