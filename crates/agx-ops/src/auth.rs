//! `agx auth login|logout|status` (docs/auth.md): sign in to a remote MCP server once, for
//! every client whose entry launches `agx serve` of it.

use std::time::Duration;

use serde::Serialize;

use super::{Context, OpsError, OpsResult};
pub use agx_auth::{ClientChoice, open_in_browser};
use agx_auth::{LoginRequest, Resource, SignIn, SignIns};
use agx_core::name::PinnedServer;

/// What `agx auth` signs in to: an installed remote server or a URL.
#[derive(Debug, Clone)]
pub struct Target {
    pub resource: Resource,
    /// The URL as shown: secret settings in it redacted.
    pub shown: String,
    /// The installed server it was named by, if it was.
    pub server: Option<String>,
    /// What the server's publisher says about signing in (defaults for the options).
    pub hints: agx_model::manifest::model::OAuthHints,
}

/// `reference`: an installed server (`PUBLISHER/NAME[/SERVER]`) whose definition has a
/// `url`, or an `http(s)://` URL.
pub fn target(ctx: &Context, reference: &str) -> OpsResult<Target> {
    // Anything with a scheme is meant as a URL (and refused if it is not http(s)).
    if reference.contains("://") {
        let resource = Resource::parse(reference)?;
        return Ok(Target {
            shown: resource.to_string(),
            resource,
            server: None,
            hints: Default::default(),
        });
    }
    let pinned = PinnedServer::parse(reference)?;
    let Some(remote) = agx_runtime::remote_server(ctx.paths, &pinned)? else {
        return Err(OpsError::NotRemote {
            server: reference.to_string(),
        });
    };
    Ok(Target {
        resource: Resource::parse(&remote.url)?,
        shown: remote.shown,
        server: Some(reference.to_string()),
        hints: remote.oauth.unwrap_or_default(),
    })
}

/// How `agx auth login` was asked to sign in.
#[derive(Debug, Clone, Default)]
pub struct LoginOptions {
    pub client: ClientChoice,
    /// Sign in as the client itself (OAuth client credentials): no browser, no person.
    pub client_credentials: bool,
    pub scopes: Vec<String>,
    pub callback_port: Option<u16>,
    pub timeout: Option<Duration>,
}

/// The time a person has to finish signing in, unless told otherwise.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// The result of `agx auth login`.
#[derive(Debug, Clone, Serialize)]
pub struct LoggedIn {
    pub resource: String,
    pub server: Option<String>,
    pub issuer: Option<String>,
    pub client_id: String,
    pub registration: String,
    pub scopes: Vec<String>,
    /// Where the tokens went.
    pub stored_in: String,
}

/// Sign in to `target`; `present` shows (and opens) the authorization page. What the options
/// leave out comes from the server's publisher (`target.hints`).
pub fn login(
    ctx: &Context,
    target: &Target,
    options: LoginOptions,
    present: &mut dyn FnMut(&str),
) -> OpsResult<LoggedIn> {
    let sign_ins = SignIns::open(ctx.paths)?;
    let mut client = options.client;
    if client.client_id.is_none() {
        client.client_id = target.hints.client_id.clone();
    }
    let request = LoginRequest {
        resource: target.resource.clone(),
        client,
        scopes: if options.scopes.is_empty() {
            target.hints.scopes.clone()
        } else {
            options.scopes
        },
        callback_port: options.callback_port.or(target.hints.callback_port),
        timeout: options.timeout.unwrap_or(DEFAULT_TIMEOUT),
    };
    let runtime = runtime(&target.shown)?;
    let sign_in = if options.client_credentials {
        let (Some(client_id), Some(secret)) =
            (&request.client.client_id, &request.client.client_secret)
        else {
            return Err(OpsError::ClientCredentialsNeedSecret);
        };
        runtime.block_on(agx_auth::login_client_credentials(
            &sign_ins,
            &request.resource,
            client_id,
            secret,
            &request.scopes,
        ))?
    } else {
        runtime.block_on(agx_auth::login(&sign_ins, request, present))?
    };
    let stored_in = agx_model::settings::SettingsStore::open(ctx.paths)
        .map(|s| s.secrets().location().to_string())
        .unwrap_or_default();
    Ok(LoggedIn {
        resource: target.shown.clone(),
        server: target.server.clone(),
        issuer: sign_in.issuer,
        client_id: sign_in.client_id,
        registration: sign_in.registration,
        scopes: sign_in.scopes,
        stored_in,
    })
}

/// Forget the sign-in to `target`; whether there was one.
pub fn logout(ctx: &Context, target: &Target) -> OpsResult<bool> {
    Ok(SignIns::open(ctx.paths)?.remove(&target.resource)?)
}

/// One sign-in, as `agx auth status` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub resource: String,
    pub issuer: Option<String>,
    pub client_id: String,
    pub registration: String,
    pub scopes: Vec<String>,
    pub signed_in_at: u64,
    /// `valid`, `expired` (a refresh renews it), `signed-out` (no token in the keyring) or
    /// `needs-login` (expired, nothing to refresh it with).
    pub state: &'static str,
    /// When the access token expires (seconds since the epoch), when the server said.
    pub expires_at: Option<u64>,
    pub refreshable: bool,
}

/// The sign-ins, or the one to `target`.
pub fn status(ctx: &Context, target: Option<&Target>) -> OpsResult<Vec<Status>> {
    let sign_ins = SignIns::open(ctx.paths)?;
    let chosen: Vec<(Resource, SignIn)> = match target {
        Some(t) => sign_ins
            .get(&t.resource)?
            .map(|s| (t.resource.clone(), s))
            .into_iter()
            .collect(),
        None => sign_ins.list()?,
    };
    let now = agx_core::clock::unix_now();
    let mut out = Vec::new();
    for (resource, sign_in) in chosen {
        let tokens = sign_ins.token_state(&resource)?;
        let (state, expires_at, refreshable, scopes) = match tokens {
            None => ("signed-out", None, false, sign_in.scopes.clone()),
            Some(t) => {
                let expired = t.expires_at.is_some_and(|at| at <= now);
                let state = match (expired, t.refreshable) {
                    (false, _) => "valid",
                    (true, true) => "expired",
                    (true, false) => "needs-login",
                };
                let scopes = if t.granted_scopes.is_empty() {
                    sign_in.scopes.clone()
                } else {
                    t.granted_scopes
                };
                (state, t.expires_at, t.refreshable, scopes)
            }
        };
        out.push(Status {
            resource: resource.to_string(),
            issuer: sign_in.issuer,
            client_id: sign_in.client_id,
            registration: sign_in.registration,
            scopes,
            signed_in_at: sign_in.signed_in_at,
            state,
            expires_at,
            refreshable,
        });
    }
    Ok(out)
}

/// The remote servers of the installed package `name` that ask for a sign-in agx does not
/// hold yet, each as `PUBLISHER/NAME/SERVER`, for `agx install` to offer one. Asked of each
/// server over the network; none offline.
pub fn sign_ins_wanted(
    ctx: &Context,
    name: &agx_core::name::PackageName,
) -> OpsResult<Vec<String>> {
    if ctx.offline {
        return Ok(Vec::new());
    }
    let Some(installed) = ctx.store().installed(name)? else {
        return Ok(Vec::new());
    };
    let Ok(package) = agx_model::manifest::load_installed(&installed.dir) else {
        return Ok(Vec::new());
    };
    let remotes: Vec<String> = package
        .servers
        .iter()
        // A server given headers (an API key) signs in with those.
        .filter(|s| s.url.is_some() && s.headers.is_empty())
        .map(|s| format!("{name}/{}", s.name))
        .collect();
    if remotes.is_empty() {
        return Ok(Vec::new());
    }
    let sign_ins = SignIns::open(ctx.paths)?;
    let runtime = runtime(&name.to_string())?;
    let mut wanted = Vec::new();
    for server in remotes {
        // A server whose URL needs a setting not given yet is asked once it has one.
        let Ok(target) = target(ctx, &server) else {
            continue;
        };
        if sign_ins.get(&target.resource)?.is_none()
            && runtime.block_on(agx_auth::asks_for_sign_in(&target.resource))
        {
            wanted.push(server);
        }
    }
    Ok(wanted)
}

/// The runtime the sign-in's requests run on, for what `about` names.
fn runtime(about: &str) -> Result<tokio::runtime::Runtime, agx_auth::AuthError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| agx_auth::AuthError::Flow {
            resource: about.to_string(),
            detail: e.to_string(),
        })
}
