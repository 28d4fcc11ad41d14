//! `agx serve`: server assembly, tool execution, prompt rendering (docs/tool-protocol.md).
//!
//! [`assemble`] turns a qualified server name into the tools and prompts it exposes (or a
//! wrapped server command); [`run`] runs initialization and then speaks MCP over stdio
//! or Streamable HTTP until the client goes away; [`serve_installed`] does both for a
//! server in the store. [`handoff`] is how `agx serve` passes the work to `agx-serve`.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod assemble;
mod bridge;
mod channel;
pub mod code_cache;
mod completions;
mod data_vars;
mod era;
mod era_adapter;
pub mod filtered;
mod handler;
pub mod handoff;
mod http;
mod line_server;
pub mod listing;
mod lists;
mod log;
mod modern_backend;
mod output;
pub mod pinning;
mod poison;
mod policy;
mod process;
#[cfg(target_os = "linux")]
mod proxy_beside;

mod profile;
mod prompts;
mod resources;
mod rounds;
pub mod settings;
mod std_streams;
pub mod stderr_protocol;
pub mod stdio;
mod subscriptions;
mod tools;
mod wrapped;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub use assemble::{
    AssembleError, Assembled, Assembly, ExposedPrompt, ExposedTool, FindPackage, assemble,
    declared_settings, disambiguate, resolve_server_ref,
};
pub use handler::{AgxServer, Runtime};
pub use stderr_protocol::StderrLine;

use agx_core::error::Hint;
use agx_core::name::{NameError, PackageName, PinnedServer, QualifiedName};
use agx_core::paths::AgxPaths;
use agx_core::process_tree;
use agx_model::manifest::resolve_program;
use agx_store::{Store, StoreError};

/// Where the server listens.
#[derive(Debug, Clone)]
pub enum Listen {
    Stdio,
    Http(SocketAddr),
}

impl Listen {
    /// Stdio, or HTTP on the `--http` address given.
    pub fn parse(http: Option<&str>) -> Result<Listen, ServeError> {
        Ok(match http {
            Some(addr) => Listen::Http(parse_listen_address(addr)?),
            None => Listen::Stdio,
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("initialization of {what} failed: {detail}")]
    Init { what: String, detail: String },
    #[error("`{0}` is not a loopback address; `agx serve --http` listens on this machine only")]
    NotLoopback(String),
    #[error("`{0}` is not an address such as 127.0.0.1:8080")]
    BadAddress(String),
    #[error("could not listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("could not start the wrapped server of {server} (`{program}`): {source}")]
    Wrapped {
        server: QualifiedName,
        program: String,
        source: std::io::Error,
    },
    #[error("cannot bridge {server}: {detail}")]
    Remote { server: String, detail: String },
    #[error("could not start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("{0}")]
    Prompt(String),
    #[error(transparent)]
    Name(#[from] NameError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Policy(Box<agx_model::policy::PolicyError>),
    #[error(transparent)]
    Assemble(#[from] AssembleError),
    /// `what` is `server acme/w/s`, `tool acme/w/t` or `prompt acme/w/p`.
    #[error("{what} cannot start: required settings have no value:\n{detail}")]
    MissingSettings { what: String, detail: String },
    #[error(transparent)]
    Settings(Box<agx_model::settings::SettingsError>),
    #[error(transparent)]
    Filter(#[from] agx_model::filter::FiltersFileError),
    #[error("could not list the tools of {server}: {detail}")]
    Listing { server: String, detail: String },
    #[error(transparent)]
    Profile(#[from] agx_project::profile::ProfileError),
    #[error("profile @{0} takes no arguments after `--`")]
    ProfileArgs(String),
    #[error(transparent)]
    Permissions(#[from] agx_sandbox::user::PermissionsFileError),
    #[error("{} gives {server} more than it may touch without it: {}", file.display(), grown.join(", "))]
    ProjectWidens {
        server: String,
        file: PathBuf,
        grown: Vec<String>,
    },
}

// Boxed: a settings error is large, and serving returns this type.
impl From<agx_model::settings::SettingsError> for ServeError {
    fn from(e: agx_model::settings::SettingsError) -> Self {
        ServeError::Settings(Box::new(e))
    }
}

impl agx_core::error::Hint for ServeError {
    fn hint(&self) -> Option<String> {
        match self {
            ServeError::Init { .. } => Some(
                "the package's initialization command failed; fix or reinstall the package".into(),
            ),
            ServeError::NotLoopback(_) | ServeError::BadAddress(_) => {
                Some("use --http 127.0.0.1:PORT (or [::1]:PORT)".into())
            }
            ServeError::Bind { .. } => Some("choose another port".into()),
            ServeError::Wrapped { .. } => Some(
                "the wrapped server's program must be installed (or shipped in the package)".into(),
            ),
            ServeError::Remote { .. } => Some(
                "`agx config list <package>` shows its settings; clients reach a remote server through `agx serve` on stdio".into(),
            ),
            ServeError::Runtime(_) | ServeError::Prompt(_) => None,
            ServeError::Name(e) => e.hint(),
            ServeError::Store(e) => e.hint(),
            ServeError::Policy(e) => e.hint(),
            ServeError::Assemble(e) => e.hint(),
            ServeError::MissingSettings { .. } => Some(
                "set them once with `agx config set` (docs/settings.md); every client's entry uses them"
                    .into(),
            ),
            ServeError::Settings(e) => e.hint(),
            ServeError::Filter(e) => e.hint(),
            ServeError::Permissions(e) => agx_core::error::Hint::hint(e),
            ServeError::ProjectWidens { server, .. } => Some(format!(
                "a project may only narrow a server's permissions; if you trust this project, run `agx permissions accept {server}` in it (again whenever it asks for more), or narrow its [servers.KEY.permissions]"
            )),
            ServeError::Listing { .. } => Some(
                "`agx serve` runs the same server: try it, and read its log (`AGX_LOG=debug`)"
                    .into(),
            ),
            ServeError::Profile(e) => e.hint(),
            ServeError::ProfileArgs(_) => Some(
                "give a member's arguments in the project's [servers] entry (`args`) and list its key".into(),
            ),
        }
    }
}

/// Parse a `--http` address: an IP literal or `localhost`, with a port, on loopback only.
pub fn parse_listen_address(text: &str) -> Result<SocketAddr, ServeError> {
    let addr = match text.parse::<SocketAddr>() {
        Ok(a) => a,
        Err(_) => match text.strip_prefix("localhost:").map(str::parse::<u16>) {
            Some(Ok(port)) => SocketAddr::from(([127, 0, 0, 1], port)),
            _ => return Err(ServeError::BadAddress(text.to_string())),
        },
    };
    if !addr.ip().is_loopback() {
        return Err(ServeError::NotLoopback(text.to_string()));
    }
    Ok(addr)
}

/// The log file of a server: `<logs>/<publisher>-<name>-<server>.log`.
pub fn log_file(logs_dir: &Path, server: &QualifiedName) -> PathBuf {
    logs_dir.join(format!(
        "{}-{}.log",
        server.package.file_stem(),
        server.item
    ))
}

/// Serve `pinned` from the store until the client goes away: exactly its version when it
/// names one, else the user's version (or, when the user has none, the newest version a
/// project holds, which the log names). A package alone names its only server. `args` go
/// after a wrapped server's command (refused for a server without one).
pub fn serve_installed(
    paths: &AgxPaths,
    pinned: &PinnedServer,
    listen: Listen,
    args: &[String],
) -> Result<(), ServeError> {
    limit_malloc_arenas();
    let loaded = load_unchecked(paths, pinned, args)?;
    if let Err(refused) = policy::check(paths, &loaded.assembled) {
        policy::report_refusal(
            &refused,
            &log_file(&paths.logs_dir(), &loaded.server),
            &listen,
        );
        return Err(refused);
    }
    let filter = server_filter(paths, &loaded.server)?;
    run(
        loaded.assembled,
        listen,
        Some(log_file(&paths.logs_dir(), &loaded.server)),
        loaded.note.as_deref(),
        filter,
    )
}

/// What `agx serve` is given: a server reference, or a profile as `@NAME`.
#[derive(Debug, Clone)]
pub enum Served {
    Server(PinnedServer),
    Profile(String),
}

impl Served {
    pub fn parse(text: &str) -> Result<Served, ServeError> {
        match agx_project::profile::profile_name(text) {
            Some(name) => Ok(Served::Profile(name?.to_string())),
            None => Ok(Served::Server(PinnedServer::parse(text)?)),
        }
    }
}

/// Serve what `agx serve` was given. `agx` is the program that serves each member of a
/// profile (`agx serve REF`).
pub fn serve(
    paths: &AgxPaths,
    served: &Served,
    listen: Listen,
    args: &[String],
    agx: &Path,
) -> Result<(), ServeError> {
    match served {
        Served::Server(server) => serve_installed(paths, server, listen, args),
        Served::Profile(name) => {
            if !args.is_empty() {
                return Err(ServeError::ProfileArgs(name.clone()));
            }
            let profile = agx_project::profile::find_profile(paths, name)?;
            let log_file = paths.logs_dir().join(format!("profile-{name}.log"));
            let _log = log::init(Some(&log_file));
            tracing::debug!(
                "serving profile @{name} of {}: {}",
                profile.source.display(),
                profile
                    .members
                    .iter()
                    .map(|m| m.reference.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            match listen {
                Listen::Stdio => block_on_current_thread(profile::serve_stdio(&profile, agx)),
                Listen::Http(addr) => block_on_current_thread(async {
                    // Each HTTP session is its own run of the profile on stdio.
                    let command = vec![agx.into(), "serve".into(), format!("@{name}").into()];
                    http::serve_command(command, addr).await
                }),
            }
        }
    }
}

/// A server loaded from the store as `agx serve` loads it.
pub struct Loaded {
    /// Assembled, its settings resolved.
    pub assembled: Assembled,
    pub server: QualifiedName,
    /// What the log says first (which version was chosen, when not the user's).
    pub note: Option<String>,
}

/// Load `pinned` as [`serve_installed`] does, without serving it; what the policy refuses
/// to serve is refused here too (`agx tools`, `agx pins` run the server).
pub fn load_installed(
    paths: &AgxPaths,
    pinned: &PinnedServer,
    args: &[String],
) -> Result<Loaded, ServeError> {
    let loaded = load_unchecked(paths, pinned, args)?;
    policy::check(paths, &loaded.assembled)?;
    Ok(loaded)
}

/// An installed remote server, as `agx auth login` needs it.
#[derive(Debug, Clone)]
pub struct RemoteServer {
    /// The URL with settings substituted (it may carry a secret: for the HTTP client and the
    /// sign-in's key alone).
    pub url: String,
    /// The URL as shown, secrets redacted.
    pub shown: String,
    /// What its publisher says about signing in.
    pub oauth: Option<agx_model::manifest::model::OAuthHints>,
}

/// An installed remote server's URL with its settings substituted, or `None` when the server
/// runs a program instead.
pub fn remote_server(
    paths: &AgxPaths,
    pinned: &PinnedServer,
) -> Result<Option<RemoteServer>, ServeError> {
    let loaded = load_installed(paths, pinned, &[])?;
    let Assembled::Wrapped(w) = &loaded.assembled else {
        return Ok(None);
    };
    let Some(url) = &w.url else {
        return Ok(None);
    };
    let remote = bridge::Remote::of(w, url, &w.headers)?;
    Ok(Some(RemoteServer {
        url: remote.resolved_url().to_string(),
        shown: remote.url.to_string(),
        oauth: w.oauth.as_deref().cloned(),
    }))
}

/// [`load_installed`] before the policy's check.
fn load_unchecked(
    paths: &AgxPaths,
    pinned: &PinnedServer,
    args: &[String],
) -> Result<Loaded, ServeError> {
    let store = Store::open(paths);
    let (mut assembled, server, note) = {
        // Readers share the store lock while loading, so an install cannot swap a package
        // half-way; it is released before serving, which may last for days.
        let _lock = store.lock_shared_if_present()?;
        let cwd = std::env::current_dir().ok();
        let served_version = |name: &PackageName| {
            store.served_version(name, pinned.version.as_ref(), cwd.as_deref())
        };
        // A package alone is looked up once, here, so that its store error (a pinned
        // version not installed) is reported with its own hint, not as a failed lookup.
        let alone = match PackageName::parse(&pinned.reference) {
            Ok(package) => Some((served_version(&package)?, package)),
            Err(_) => None,
        };
        let server = {
            let served_dir = |name: &PackageName| -> Result<Option<PathBuf>, String> {
                match &alone {
                    Some((served, package)) if package == name => {
                        Ok(served.as_ref().map(|s| s.dir.clone()))
                    }
                    _ => served_version(name)
                        .map(|s| s.map(|s| s.dir))
                        .map_err(|e| describe_store_error(&e)),
                }
            };
            resolve_server_ref(&pinned.reference, &served_dir)?
        };
        let served = match alone {
            Some((served, package)) if package == server.package => served,
            _ => served_version(&server.package)?,
        };
        let dependencies = served.as_ref().and_then(|s| s.dependencies.as_ref());
        let find = |name: &PackageName| -> Result<Option<PathBuf>, String> {
            if name == &server.package {
                return Ok(served.as_ref().map(|s| s.dir.clone()));
            }
            store
                .dependency_dir(name, dependencies)
                .map_err(|e| describe_store_error(&e))
        };
        let mut assembled = assemble(&server, &find)?;
        assembled.append_args(args)?;
        if let Assembled::Wrapped(w) = &mut assembled {
            with_code_cache(&store, w);
            w.pins_file = store.pins_file(&w.package_dir, w.server.item.as_str());
            if w.url.is_some() {
                let sign_ins = agx_auth::SignIns::open(paths).map_err(|e| ServeError::Remote {
                    server: w.server.to_string(),
                    detail: e.to_string(),
                })?;
                w.sign_ins = Some(Box::new(sign_ins));
            }
        }
        confine(paths, &server, &mut assembled)?;
        let mut notes: Vec<String> = served
            .as_ref()
            .and_then(|s| s.note.clone())
            .into_iter()
            .collect();
        for package in assembled.packages() {
            // A home agx cannot write (a read-only mount) still serves: the programs then
            // find no folder at AGX_DATA_DIR, and the log says why.
            if let Err(e) = paths.ensure_package_data_dir(&package) {
                notes.push(format!("cannot create the data folder of {package}: {e}"));
            }
            if let Assembled::Wrapped(w) = &mut assembled {
                w.data_dir = Some(paths.package_data_dir(&package));
            }
        }
        (
            assembled,
            server,
            (!notes.is_empty()).then(|| notes.join("; ")),
        )
    };
    settings::resolve(paths, &mut assembled)?;
    if let Assembled::Wrapped(w) = &mut assembled {
        grant_configured_paths(w);
    }
    Ok(Loaded {
        assembled,
        server,
        note,
    })
}

/// The filter of `server` (docs/profiles.md): the project's (`agx.toml`, when `agx serve`
/// runs in a project with an entry for it), else the user's (`agx install-server --deny`).
pub fn server_filter(
    paths: &AgxPaths,
    server: &QualifiedName,
) -> Result<Option<Arc<agx_model::filter::Filter>>, agx_model::filter::FiltersFileError> {
    let project = agx_project::serve_filter(server).map_err(|(path, detail)| {
        agx_model::filter::FiltersFileError::ProjectUnreadable { path, detail }
    })?;
    if let Some((file, spec)) = project {
        let filter = agx_model::filter::Filter::new(spec, file.display().to_string())?;
        return Ok(Some(Arc::new(filter)));
    }
    Ok(agx_model::filter::user_filter(paths, server)?.map(Arc::new))
}

/// Confine `server`'s programs as docs/sandbox.md says: to the user's permissions
/// (`agx permissions set`) where recorded, else as their packages declare; then, in a
/// project whose agx.toml gives the server permissions, to the project's. A project may
/// only narrow what applies without it, unless the user accepted its permissions
/// (`agx permissions accept`): a cloned repository must not widen what a server may touch.
fn confine(
    paths: &AgxPaths,
    server: &QualifiedName,
    assembled: &mut Assembled,
) -> Result<(), ServeError> {
    if let Some(user) = agx_sandbox::user::user_permissions(paths, server)? {
        assembled.confine_all(&user);
    }
    let project = agx_project::serve_permissions(server).map_err(|(path, detail)| {
        agx_sandbox::user::PermissionsFileError::ProjectUnreadable { path, detail }
    })?;
    let Some((file, permissions)) = project else {
        return Ok(());
    };
    let grown = assembled.grown_by(&permissions);
    if !grown.is_empty() {
        let accepted = agx_sandbox::user::accepted_project_permissions(paths, &file, server)?;
        let within = accepted.as_ref().is_some_and(|accepted| {
            agx_sandbox::growth::grown(Some(accepted), Some(&permissions)).is_empty()
        });
        if !within {
            return Err(ServeError::ProjectWidens {
                server: server.to_string(),
                file,
                grown,
            });
        }
    }
    assembled.confine_all(&permissions);
    Ok(())
}

/// A confined bundle server may also touch what its user pointed it at: the folders
/// (`write`) and files (`read`) its `directory` and `file` settings name (docs/sandbox.md).
fn grant_configured_paths(w: &mut assemble::WrappedServer) {
    let Some(sandbox) = &w.sandbox else {
        return;
    };
    let configured =
        agx_model::mcpb_manifest::paths::configured_paths(&w.package_dir, &w.command, &w.settings);
    if configured == Default::default() {
        return;
    }
    let mut widened = (**sandbox).clone();
    widened.read.extend(configured.read);
    widened.write.extend(configured.write);
    w.sandbox = Some(Arc::new(widened));
}

/// Give a wrapped server run by `node` from an installed version its compile cache, in the
/// version's data folder (docs/ecosystem.md, "Compiled-code caches").
fn with_code_cache(store: &Store, w: &mut assemble::WrappedServer) {
    use crate::code_cache;
    if w.url.is_some() || !code_cache::runs_node(&w.command) {
        return;
    }
    let Some(data_dir) = store.data_dir_of(&w.package_dir) else {
        return;
    };
    match code_cache::node_launch(&data_dir) {
        Ok(cache) => w.code_cache = cache,
        Err(problem) => w.code_cache_problem = Some(problem),
    }
}

/// The pins a wrapped or remote server's definitions are checked against, unless its rule
/// is `on-change = "allow"` (then it is served as it lists, with nothing between) or it is
/// not an installed version.
fn pinning_of(w: &assemble::WrappedServer) -> Result<Option<pinning::Pinning>, ServeError> {
    let Some(file) = &w.pins_file else {
        return Ok(None);
    };
    let rule = pinning::Pinning::rule_of(&w.server)?;
    if rule == agx_store::pins::OnChange::Allow {
        return Ok(None);
    }
    Ok(Some(pinning::Pinning::load(file, &w.server, rule)?))
}

/// Say in the log how each package's programs are confined (docs/sandbox.md).
fn log_confinement(assembly: &assemble::Assembly) {
    let mut seen: Vec<&PackageName> = Vec::new();
    let items = (assembly
        .tools
        .iter()
        .map(|t| (&t.qualified.package, &t.sandbox)))
    .chain(
        assembly
            .prompts
            .iter()
            .map(|p| (&p.qualified.package, &p.sandbox)),
    )
    .chain(
        assembly
            .resources
            .iter()
            .map(|r| (&r.qualified.package, &r.sandbox)),
    );
    for (package, sandbox) in items {
        if seen.contains(&package) {
            continue;
        }
        seen.push(package);
        match sandbox {
            Some(resolved) => tracing::info!(
                "sandbox for {package}: {}; reads {}; writes {}",
                agx_sandbox::enforcement(resolved),
                join_paths(&resolved.read),
                join_paths(&resolved.write)
            ),
            None => tracing::debug!(
                "sandbox for {package}: {}",
                agx_sandbox::permissions::NOT_CONFINED
            ),
        }
    }
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A store error with its fix, for messages that carry it as text.
fn describe_store_error(e: &agx_store::StoreError) -> String {
    match e.hint() {
        Some(fix) => format!("{e} ({fix})"),
        None => e.to_string(),
    }
}

/// Serve an assembled server until the client goes away, logging `note` first, through
/// `filter` when it has one. A wrapped server replaces this process and only returns on
/// failure; with a filter or pins, agx proxies it (on Linux from a process forked beside it,
/// elsewhere as its child).
pub fn run(
    assembled: Assembled,
    listen: Listen,
    log_file: Option<PathBuf>,
    note: Option<&str>,
    filter: Option<Arc<agx_model::filter::Filter>>,
) -> Result<(), ServeError> {
    let mut assembly = match assembled {
        Assembled::Wrapped(w) => match &w.url {
            Some(url) => {
                let remote = bridge::Remote::of(&w, url, &w.headers)?;
                if let Listen::Http(_) = listen {
                    return Err(ServeError::Remote {
                        server: w.server.to_string(),
                        detail: format!(
                            "it is a remote server at {}; `--http` serves local servers only",
                            remote.url
                        ),
                    });
                }
                let _log = log::init(log_file.as_deref());
                let pinning = pinning_of(&w)?;
                let rewriter = match (filter, pinning) {
                    (None, None) => None,
                    (filter, pinning) => {
                        let filter = filter.unwrap_or_else(filtered::no_filter);
                        Some(filtered::rewriter_of(&w, filter, pinning))
                    }
                };
                return block_on_current_thread(bridge::serve(remote, rewriter));
            }
            None => {
                // Pinned definitions need agx between the client and the server.
                let pinning = pinning_of(&w)?;
                // The network proxy needs agx alive beside the server (docs/sandbox.md).
                let proxied = w.sandbox.as_deref().is_some_and(agx_sandbox::needs_proxy);
                let between = filter.is_some() || pinning.is_some();
                let filter = between.then(|| filter.unwrap_or_else(filtered::no_filter));
                // On Linux the server keeps this process and the proxy is forked beside it
                // (proxy_beside.rs); a server whose network goes through agx's proxy needs
                // agx's process itself.
                #[cfg(target_os = "linux")]
                let (pinning, not_forked) = match &filter {
                    Some(filter) if !proxied => {
                        let log_file = log_file.as_deref();
                        match proxy_beside::serve(&w, filter.clone(), pinning, log_file) {
                            proxy_beside::NotForked::Failed(e) => return Err(e),
                            proxy_beside::NotForked::Threads { threads, pinning } => {
                                (*pinning, Some(threads))
                            }
                        }
                    }
                    _ => (pinning, None),
                };
                let log = (between || w.code_cache_problem.is_some() || proxied)
                    .then(|| log::init(log_file.as_deref()));
                #[cfg(target_os = "linux")]
                if let Some(threads) = not_forked {
                    tracing::debug!("the server runs as agx's child: agx runs {threads} threads");
                }
                if let Some(problem) = &w.code_cache_problem {
                    tracing::warn!("{problem}");
                }
                if let Some(filter) = filter {
                    let status =
                        block_on_current_thread(filtered::serve_wrapped(&w, filter, pinning))?;
                    return match status {
                        Some(status) if !status.success() => {
                            drop(log);
                            std::process::exit(wrapped::exit_code(status));
                        }
                        _ => Ok(()),
                    };
                }
                if proxied {
                    let status = block_on_current_thread(wrapped::run_beside_proxy(&w))?;
                    drop(log);
                    std::process::exit(wrapped::exit_code(status));
                }
                // Exec ends this process's threads: write out the queued lines first.
                drop(log);
                return Err(wrapped::exec(&w));
            }
        },
        Assembled::Native(a) => a,
    };
    if let Some(filter) = &filter {
        filtered::apply_to_assembly(filter, &mut assembly)
            .map_err(agx_model::filter::FiltersFileError::from)?;
    }
    let _log = log::init(log_file.as_deref());
    if let Some(note) = note {
        tracing::info!("{note}");
    }
    poison::hide_poisoned(&mut assembly);
    log_confinement(&assembly);
    // One thread is enough: tool runs are child processes and every wait is async. It
    // starts faster and idles smaller than a worker pool.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let result = rt.block_on(async {
        process_tree::adopt_orphans();
        initialize(&assembly.initialization).await?;
        tracing::debug!(
            "serving {} {} ({} tools, {} prompts)",
            assembly.server,
            assembly.version,
            assembly.tools.len(),
            assembly.prompts.len()
        );
        let runtime = Arc::new(Runtime::new(assembly).with_filter(filter));
        release_freed_memory();
        match listen {
            Listen::Stdio => {
                serve_stdio(runtime).await;
                Ok(())
            }
            Listen::Http(addr) => http::serve(runtime, addr).await,
        }
    });
    // In-flight calls end their processes when dropped; do not wait for stray blocking
    // reads, or for a template still rendering (it stops at its budget).
    rt.shutdown_timeout(Duration::from_millis(200));
    result
}

/// Run one tool as `agx serve` would, outside a server (`agx call`): the tool's
/// initialization, then the call, with the same checks, limits and output rules. There is no
/// client: the tool's channel requests are refused. Its stderr lines and channel
/// notifications go to `on_line` as they arrive; Ctrl-C ends the call and its processes.
pub fn call_tool(
    tool: ExposedTool,
    args: &serde_json::Value,
    mut on_line: impl FnMut(StderrLine),
) -> Result<rmcp::model::CallToolResult, ServeError> {
    block_on_current_thread(async {
        process_tree::adopt_orphans();
        let settings_env = tool.settings.env_vars();
        let init: Vec<_> = assemble::tool_init_step(
            &tool.qualified,
            &tool.def,
            &tool.package_dir,
            tool.sandbox.clone(),
        )
        .into_iter()
        .map(|mut step| {
            step.env.extend(settings_env.iter().cloned());
            step
        })
        .collect();
        initialize(&init).await?;
        let tool = tools::ServedTool::new(tool);
        let (tx, mut rx) = tokio::sync::mpsc::channel(process::STDERR_QUEUE_LINES);
        let call = tool.call(args, channel::Client::Absent, Some(tx), interrupted());
        let forward = async {
            while let Some(line) = rx.recv().await {
                on_line(line);
            }
        };
        Ok(tokio::join!(call, forward).0)
    })
}

/// Render one prompt as `prompts/get` would, outside a server (`agx prompt`).
pub fn render_prompt(
    prompt: &ExposedPrompt,
    args: serde_json::Map<String, serde_json::Value>,
) -> Result<rmcp::model::GetPromptResult, ServeError> {
    block_on_current_thread(async {
        let cancel = tokio_util::sync::CancellationToken::new();
        let on_interrupt = cancel.clone();
        let render = prompts::get(prompt, Some(args), cancel);
        tokio::select! {
            result = render => result.map_err(|e| ServeError::Prompt(e.message.into_owned())),
            _ = interrupted() => {
                on_interrupt.cancel();
                Err(ServeError::Prompt(format!("prompt `{}`: interrupted", prompt.exposed)))
            }
        }
    })
}

/// Resolves on Ctrl-C (never, when the signal cannot be watched).
async fn interrupted() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

fn block_on_current_thread<T>(
    work: impl std::future::Future<Output = Result<T, ServeError>>,
) -> Result<T, ServeError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let result = rt.block_on(work);
    // Do not wait for a template still rendering (it stops at its budget).
    rt.shutdown_timeout(Duration::from_millis(200));
    result
}

/// glibc gives every thread that allocates its own arena, which stays resident. The
/// server's work runs on one thread; the helper threads (logging, rendering) can share the
/// main arena. Call before any thread starts.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only tunes the allocator; it is called before any helper thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Return to the system the memory that loading definitions used and freed: a server may
/// idle for days.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of the allocator's own heap.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Serve over stdin/stdout until stdin closes.
pub async fn serve_stdio(runtime: Arc<Runtime>) {
    use rmcp::ServiceExt;
    let (read, write) = std_streams::open();
    let transport = stdio::LineTransport::new(read, write);
    match AgxServer::new(runtime).serve(transport).await {
        Ok(running) => {
            let _ = running.waiting().await;
        }
        Err(e) => tracing::debug!("the client left before initializing: {e}"),
    }
}

/// Run initialization steps (the server's, then each tool's), in order.
async fn initialize(steps: &[assemble::InitStep]) -> Result<(), ServeError> {
    for step in steps {
        let fail = |detail: String| ServeError::Init {
            what: step.what.clone(),
            detail,
        };
        let Some((program, args)) = step.command.split_first() else {
            continue;
        };
        tracing::debug!("initializing {}", step.what);
        let spec = process::RunSpec {
            program: resolve_program(&step.package_dir, program),
            args: args.to_vec(),
            cwd: step.package_dir.clone(),
            env: step.env.clone(),
            stdin: None,
            timeout: Duration::from_secs(step.timeout_secs),
            output_cap: process::OUTPUT_CAP,
            sandbox: step.sandbox.clone(),
        };
        let outcome = process::run(&spec, None, std::future::pending())
            .await
            .map_err(|e| fail(format!("could not start `{program}`: {e}")))?;
        let output = || {
            let mut s = String::new();
            let out = String::from_utf8_lossy(&outcome.stdout);
            let out = settings::redact(&out);
            if !out.trim().is_empty() {
                s.push_str(&format!("\nstdout:\n{}", out.trim_end()));
            }
            if !outcome.stderr_tail.trim().is_empty() {
                s.push_str(&format!("\nstderr:\n{}", outcome.stderr_tail.trim_end()));
            }
            s
        };
        match outcome.ending {
            process::Ending::Exited(s) if s.success() => {}
            process::Ending::Exited(s) => {
                return Err(fail(format!(
                    "`{}` exited with {s}{}",
                    step.command.join(" "),
                    output()
                )));
            }
            _ => {
                return Err(fail(format!(
                    "`{}` did not finish within {} s{}",
                    step.command.join(" "),
                    step.timeout_secs,
                    output()
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses_must_be_loopback() {
        assert!(parse_listen_address("127.0.0.1:8080").is_ok());
        assert!(parse_listen_address("[::1]:8080").is_ok());
        assert_eq!(
            parse_listen_address("localhost:9").unwrap(),
            SocketAddr::from(([127, 0, 0, 1], 9))
        );
        assert!(matches!(
            parse_listen_address("0.0.0.0:8080"),
            Err(ServeError::NotLoopback(_))
        ));
        assert!(matches!(
            parse_listen_address("8080"),
            Err(ServeError::BadAddress(_))
        ));
    }
}
