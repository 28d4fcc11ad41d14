//! Write or remove a client entry that launches `agx serve <server>`: make sure the package
//! is installed, check that the server assembles exactly as `agx serve` would, then edit the
//! client's file and `clients-v1.toml` under their locks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Context, OpsError, OpsResult};
use agx_clients::{self as clients, Client, HostEnv, Outcome, Scope, ServerEntry, Target, shape};
use agx_core::name::{PackageName, QualifiedName};

/// Which client file to edit: `--scope`, `--project`, `--config`.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub client: &'static Client,
    pub scope: Scope,
    pub project: Option<&'a Path>,
    pub config: Option<&'a Path>,
}

impl Place<'_> {
    /// The file and container for `key`.
    fn target(&self, key: &str) -> OpsResult<Target> {
        let host = HostEnv::current().ok_or(clients::ClientError::NoHome)?;
        Ok(Target::new(
            self.client,
            self.scope,
            self.project,
            self.config,
            key,
            &host,
        )?)
    }
}

/// What `agx install-server` was asked to write.
#[derive(Debug, Clone)]
pub struct ServerRequest<'a> {
    pub place: Place<'a>,
    /// `publisher/package/server`, or a package with exactly one server.
    pub server: String,
    /// The entry's key (default: derived from the server's name).
    pub key: Option<String>,
    /// Extra environment variables for the server.
    pub env: BTreeMap<String, String>,
    /// Arguments for a wrapped server's command, written after `agx serve SERVER --`.
    pub args: Vec<String>,
    /// Replace an entry with the same key that launches something else.
    pub force: bool,
    /// Compute the change and write nothing.
    pub dry_run: bool,
    /// The server's filter to record (an empty one removes it); `None` keeps what is
    /// recorded. Recorded in agx's state, never in the entry (docs/profiles.md).
    pub filter: Option<agx_model::filter::FilterSpec>,
}

/// What was done to a client file.
#[derive(Debug, Clone)]
pub struct EntryChange {
    pub key: String,
    pub file: PathBuf,
    pub outcome: Outcome,
    /// The change as a unified diff, for a dry run that would change something.
    pub diff: Option<String>,
    /// Where the previous content was saved, when the file was replaced.
    pub backup: Option<PathBuf>,
    /// Required settings of the server that have no value yet: `agx serve` will refuse to
    /// start until they are set (`agx config set`).
    pub missing_settings: Vec<super::config::Target>,
    /// The server the entry launches.
    pub server: String,
    /// The filter recorded for it, when this request recorded one.
    pub filter: Option<agx_model::filter::FilterSpec>,
    /// Why the entry may stop working although it was written (agx ran from npx's cache).
    pub binary_notice: Option<String>,
}

/// The client a file belongs to, guessed from its place and contents (`auto`).
pub fn guess_client(file: &Path) -> OpsResult<&'static Client> {
    let text = clients::write::read_client_file(file)
        .map_err(|source| clients::ClientError::Read {
            file: file.to_path_buf(),
            source,
        })?
        .unwrap_or_default();
    let host = HostEnv::current().ok_or(clients::ClientError::NoHome)?;
    Ok(agx_model::client_table::guess(file, &text, &host)
        .ok_or_else(|| clients::ClientError::UnknownClient("auto".into()))?)
}

/// Install the server's package if needed, check the server, and write its entry.
pub fn install_server(ctx: &Context, request: &ServerRequest) -> OpsResult<EntryChange> {
    let policy = super::policy::gate(ctx, request.place.project)?;
    policy.check_client(request.place.client.id)?;
    if let Some(name) = agx_project::profile::profile_name(&request.server) {
        return install_profile(ctx, request, name?, &policy);
    }
    ensure_reference_installed(ctx, &request.server)?;
    let (server, resolved) = {
        let store = ctx.store();
        let _lock = store.lock_shared_if_present()?;
        let server = clients::resolve::server_reference(ctx.paths, &request.server)?;
        // An entry `agx serve` would refuse to start is not written.
        if let Some(installed) = store.installed(&server.package)? {
            policy.check_installed(&store, &server.package, &installed.version)?;
        }
        let resolved = clients::resolve::resolve_server(ctx.paths, &server)?;
        (server, resolved)
    };
    let server = &server;
    if resolved.wrapped {
        tracing::debug!("{server} wraps a shipped MCP server");
    }
    // Checked now, so that no entry is written that `agx serve` would refuse.
    if !request.args.is_empty()
        && let Some(kind) = resolved.refuses_args
    {
        return Err(clients::resolve::ServerLookupError::from(
            agx_runtime::assemble::AssembleError::TakesNoArgs {
                server: server.clone(),
                kind,
            },
        )
        .into());
    }
    // Checked before anything is written, so a bad glob leaves the client file as it was.
    if let Some(filter) = &request.filter {
        agx_model::filter::Filter::new(filter.clone(), "--allow/--deny")
            .map_err(agx_model::filter::FiltersFileError::from)?;
        // The filters file must load before the client's file is touched: the entry and its
        // filter are one request.
        agx_model::filter::user_filter(ctx.paths, server)?;
    }
    let missing_settings = super::config::missing(ctx, &resolved.settings)?;
    tracing::debug!(
        "{server} resolves: {} tool(s) [{}], {} prompt(s) [{}]",
        resolved.tools.len(),
        resolved.tools.join(", "),
        resolved.prompts.len(),
        resolved.prompts.join(", ")
    );

    let key = request
        .key
        .clone()
        .unwrap_or_else(|| shape::default_key(server.item.as_str()));
    let target = request.place.target(&key)?;
    let binary = clients::agx_binary().map_err(OpsError::NoBinary)?;
    let binary_notice = clients::transient_binary_notice(&binary);
    let command = binary.display().to_string();
    let env = entry_env(ctx, request);
    let mut args = vec!["serve".to_string(), server.to_string()];
    if !request.args.is_empty() {
        args.push("--".into());
        args.extend(request.args.iter().cloned());
    }
    let entry = ServerEntry { command, args, env };
    if request.dry_run {
        let change = clients::plan_install(&target, &key, &entry, request.force)?;
        return Ok(EntryChange {
            diff: (change.outcome != Outcome::Unchanged).then(|| change.diff()),
            key,
            file: target.file,
            outcome: change.outcome,
            backup: None,
            missing_settings,
            server: server.to_string(),
            filter: None,
            binary_notice,
        });
    }
    let clients::Applied { change, backup } = clients::install_entry(
        &ctx.paths.clients_file(),
        &target,
        &key,
        server,
        &entry,
        request.force,
    )?;
    if let Some(filter) = &request.filter {
        agx_model::filter::record_user_filter(ctx.paths, server, filter)?;
    }
    Ok(EntryChange {
        key,
        file: target.file,
        outcome: change.outcome,
        diff: None,
        backup,
        missing_settings,
        server: server.to_string(),
        filter: request.filter.clone(),
        binary_notice,
    })
}

/// Write one entry `agx serve @NAME` for a profile (docs/profiles.md). Every server of the
/// profile must resolve as `agx serve` would resolve it; under `namespace = "none"` each is
/// asked for its tools, and a name two of them show is refused before anything is written.
/// The entry has no record in `clients-v1.toml`, which tracks entries of one server.
fn install_profile(
    ctx: &Context,
    request: &ServerRequest,
    name: &str,
    policy: &agx_store::PolicyGate,
) -> OpsResult<EntryChange> {
    use agx_project::profile::{Namespace, ProfileError};
    let profile = agx_project::profile::find_profile(ctx.paths, name)?;
    if !request.args.is_empty() || request.filter.is_some() {
        return Err(ProfileError::Options(name.to_string()).into());
    }
    for member in &profile.members {
        let pinned = agx_core::name::PinnedServer::parse(&member.reference)?;
        let store = ctx.store();
        let _lock = store.lock_shared_if_present()?;
        let server = clients::resolve::server_reference(ctx.paths, &pinned.reference)?;
        // Every member must be one `agx serve` would start.
        if let Some(installed) = store.installed(&server.package)? {
            policy.check_installed(&store, &server.package, &installed.version)?;
        }
        clients::resolve::resolve_server(ctx.paths, &server)?;
    }
    if profile.namespace == Namespace::None {
        super::tools::profile_tools(ctx, &profile, false)?;
    }
    let key = request.key.clone().unwrap_or_else(|| name.to_string());
    let target = request.place.target(&key)?;
    let binary = clients::agx_binary().map_err(OpsError::NoBinary)?;
    let binary_notice = clients::transient_binary_notice(&binary);
    let entry = ServerEntry {
        command: binary.display().to_string(),
        args: vec!["serve".to_string(), format!("@{name}")],
        env: entry_env(ctx, request),
    };
    let change = {
        let _file = (!request.dry_run)
            .then(|| clients::apply::lock_client_file(&target.file))
            .transpose()?;
        let change = clients::plan_install(&target, &key, &entry, request.force)?;
        let backup = if request.dry_run {
            None
        } else {
            change.apply()?
        };
        (change, backup)
    };
    let (change, backup) = change;
    Ok(EntryChange {
        diff: (request.dry_run && change.outcome != Outcome::Unchanged).then(|| change.diff()),
        key,
        file: target.file,
        outcome: change.outcome,
        backup,
        missing_settings: Vec::new(),
        server: format!("@{name}"),
        filter: None,
        binary_notice,
    })
}

/// The environment of an entry: `AGX_HOME` when set, the secret store chosen here, and
/// the request's own variables.
fn entry_env(ctx: &Context, request: &ServerRequest) -> BTreeMap<String, String> {
    let mut env = BTreeMap::new();
    if ctx.paths.home_from_env {
        env.insert("AGX_HOME".to_string(), ctx.paths.home.display().to_string());
    }
    // Clients may clear the environment (Codex does): the secret store chosen here must be
    // the one the server reads.
    if let Ok(choice) = std::env::var(agx_model::settings::KEYRING_ENV) {
        env.insert(agx_model::settings::KEYRING_ENV.to_string(), choice);
    }
    env.extend(request.env.clone());
    env
}

/// Install the package a server reference names unless it is installed: an MCP registry
/// entry (`io.github.user/weather`), an ecosystem or agx package named alone, or the
/// package of `publisher/package/server`.
fn ensure_reference_installed(ctx: &Context, raw: &str) -> OpsResult<()> {
    let why = "needed by the entry";
    if let Some(spec) = agx_sources::ecosystem::EntrySpec::parse(raw) {
        let spec = spec?;
        if ctx.store().installed_dir(&spec.name)?.is_some() {
            return Ok(());
        }
        ctx.reporter
            .status("Installing", &format!("{spec} ({why})"));
        return super::install::install(ctx, &[super::install::Target::Entry(spec)], false);
    }
    let package = match (PackageName::parse(raw), QualifiedName::parse(raw)) {
        (Ok(package), _) if ctx.store().installed_dir(&package)?.is_some() => return Ok(()),
        (Ok(package), Err(_)) => package,
        (Ok(package), Ok(_)) if package.is_ecosystem() => package,
        (_, Ok(qualified)) => qualified.package,
        (Err(e), Err(_)) => return Err(e.into()),
    };
    // `io.github.user/weather/weather`: its package comes from an MCP registry.
    match agx_sources::ecosystem::EntrySpec::parse(&package.to_string()) {
        Some(spec) if ctx.store().installed_dir(&package)?.is_none() => {
            ctx.reporter
                .status("Installing", &format!("{package} ({why})"));
            super::install::install(ctx, &[super::install::Target::Entry(spec?)], false)
        }
        _ => super::install::ensure_installed(ctx, &package, why),
    }
}

/// Remove the entry named by its key or the qualified server it launches. An entry that is
/// not there is an error.
pub fn uninstall_server(
    ctx: &Context,
    place: Place,
    entry: &str,
    dry_run: bool,
) -> OpsResult<EntryChange> {
    // Continue's project files are named after the key; a qualified server names no key.
    let key_hint = if entry.contains('/') {
        shape::default_key(entry.rsplit('/').next().unwrap_or_default())
    } else {
        entry.to_string()
    };
    let target = place.target(&key_hint)?;
    let (change, backup) = if dry_run {
        (clients::plan_uninstall(&target, entry)?, None)
    } else {
        let applied = clients::uninstall_entry(&ctx.paths.clients_file(), &target, entry)?;
        (applied.change, applied.backup)
    };
    if change.outcome == Outcome::NotFound {
        return Err(OpsError::NoEntry {
            entry: entry.to_string(),
            file: target.file,
            client: place.client.id,
            scope: place.scope,
        });
    }
    Ok(EntryChange {
        diff: dry_run.then(|| change.diff()),
        key: change.key,
        file: target.file,
        outcome: change.outcome,
        backup,
        missing_settings: Vec::new(),
        server: entry.to_string(),
        filter: None,
        binary_notice: None,
    })
}
