//! Server assembly: from a qualified server name to the tools, prompts and resources it exposes, with
//! every reference resolved and every name unique. Packages come from a caller-supplied
//! finder, so assembly does not care whether they live in the store or a test folder.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use agx_core::name::{ItemRef, PackageName, QualifiedName};
use agx_model::manifest::{
    LoadError, Package, PromptDef, ResourceAddress, ResourceDef, ServerDef, SourceLocation,
    ToolDef, load_installed, load_package, snapshot,
};
use agx_model::settings::PackageSettings;
use agx_sandbox::Resolved;

/// Finds an installed package's folder: `Ok(None)` when it is not installed, `Err` when the
/// store cannot be read.
/// The error text should say how to fix the problem when the store knows.
pub type FindPackage<'a> = &'a (dyn Fn(&PackageName) -> Result<Option<PathBuf>, String> + Sync);

/// A tool as the server exposes it.
#[derive(Debug)]
pub struct ExposedTool {
    /// The MCP name (the tool's own name, or `Name1`, `Name2`, … on a collision).
    pub exposed: String,
    pub qualified: QualifiedName,
    pub def: ToolDef,
    pub package_dir: PathBuf,
    /// The settings of the tool's package (declared here, resolved by `runtime::settings`).
    pub settings: Arc<PackageSettings>,
    /// What its package lets it touch, when it declares permissions (docs/sandbox.md).
    pub sandbox: Option<Arc<Resolved>>,
}

/// A prompt as the server exposes it.
#[derive(Debug)]
pub struct ExposedPrompt {
    pub exposed: String,
    pub qualified: QualifiedName,
    pub def: PromptDef,
    pub package_dir: PathBuf,
    pub settings: Arc<PackageSettings>,
    pub sandbox: Option<Arc<Resolved>>,
}

/// A resource as the server exposes it.
#[derive(Debug)]
pub struct ExposedResource {
    /// The name in `resources/list` (unique like tool names).
    pub exposed: String,
    pub qualified: QualifiedName,
    pub def: ResourceDef,
    pub package_dir: PathBuf,
    /// The settings of the resource's package, passed to its command and completions.
    pub settings: Arc<PackageSettings>,
    pub sandbox: Option<Arc<Resolved>>,
}

/// A command run once before the server answers.
#[derive(Debug, Clone)]
pub struct InitStep {
    /// What it initializes, for messages (`server acme/w/s`, `tool acme/w/t`).
    pub what: String,
    pub command: Vec<String>,
    pub package_dir: PathBuf,
    /// The package it belongs to, whose settings it receives.
    pub package: PackageName,
    pub env: Vec<(String, String)>,
    pub timeout_secs: u64,
    pub sandbox: Option<Arc<Resolved>>,
}

/// A server whose tools and prompts agx serves itself.
#[derive(Debug)]
pub struct Assembly {
    pub server: QualifiedName,
    pub version: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub instructions: Option<String>,
    pub tools: Vec<ExposedTool>,
    pub prompts: Vec<ExposedPrompt>,
    pub resources: Vec<ExposedResource>,
    pub initialization: Vec<InitStep>,
}

/// A server that wraps an MCP server the package ships.
#[derive(Debug)]
pub struct WrappedServer {
    pub server: QualifiedName,
    pub command: Vec<String>,
    pub package_dir: PathBuf,
    pub cwd: PathBuf,
    pub env: BTreeMap<String, String>,
    pub settings: Arc<PackageSettings>,
    /// A remote server (`url` in its definition) that `agx serve` bridges instead of running
    /// `command`, with the headers it sends.
    pub url: Option<String>,
    pub headers: BTreeMap<String, String>,
    /// How `agx auth login` signs in to the remote `url`, as its publisher says.
    pub oauth: Option<Box<agx_model::manifest::model::OAuthHints>>,
    /// Arguments given after `--` (`agx serve REF -- ARG…`), appended to `command` as they
    /// are: never expanded as placeholders.
    pub args: Vec<String>,
    /// Its compiled-code cache, when it has one (set by `serve_installed`).
    pub code_cache: Option<crate::code_cache::NodeCacheLaunch>,
    /// Why the cache is not used this time, for the log.
    pub code_cache_problem: Option<String>,
    /// Where its pinned definitions are kept (set by `agx serve` for an installed version;
    /// docs/security.md, "Pinned definitions").
    pub pins_file: Option<PathBuf>,
    /// What `${package.data}` names (an imported plugin's `${CLAUDE_PLUGIN_DATA}`), set by
    /// `agx serve` from agx's home.
    pub data_dir: Option<PathBuf>,
    /// What the server's permissions let it touch, when it declares any (docs/sandbox.md).
    pub sandbox: Option<Arc<Resolved>>,
    /// Where a remote's sign-in is kept (`agx auth login`, docs/auth.md), set by `agx serve`
    /// from agx's home for a server with a `url`.
    pub sign_ins: Option<Box<agx_auth::SignIns>>,
}

impl WrappedServer {
    /// The poisoning-scan codes its package's install accepted (docs/security.md).
    pub fn accepted_findings(&self) -> Vec<String> {
        crate::poison::accepted_in(&self.package_dir)
    }
}

#[derive(Debug)]
pub enum Assembled {
    Native(Assembly),
    Wrapped(WrappedServer),
}

impl Assembled {
    /// Why the server takes no arguments after `--` (it has no command of its own to give
    /// them to), or `None` for a wrapped server with a command.
    pub fn refuses_args(&self) -> Option<&'static str> {
        match self {
            Assembled::Native(_) => {
                Some("an agx server (its tools and prompts run from the package)")
            }
            Assembled::Wrapped(w) if w.url.is_some() => {
                Some("a remote server (agx bridges its URL)")
            }
            Assembled::Wrapped(_) => None,
        }
    }

    /// Append `args` to a wrapped server's command; refused for a server without one.
    pub fn append_args(&mut self, args: &[String]) -> Result<(), AssembleError> {
        if args.is_empty() {
            return Ok(());
        }
        if let Some(kind) = self.refuses_args() {
            return Err(AssembleError::TakesNoArgs {
                server: self.server().clone(),
                kind,
            });
        }
        if let Assembled::Wrapped(w) = self {
            w.args.extend(args.iter().cloned());
        }
        Ok(())
    }

    fn server(&self) -> &QualifiedName {
        match self {
            Assembled::Native(a) => &a.server,
            Assembled::Wrapped(w) => &w.server,
        }
    }

    /// The settings of every package whose items the server runs, each package once.
    /// Confine every program of the server to `permissions` (the user's, which replace what
    /// the packages declare), each resolved for its own package.
    pub fn confine_all(&mut self, permissions: &agx_sandbox::Permissions) {
        use agx_sandbox::resolve_for;
        match self {
            Assembled::Wrapped(w) => w.sandbox = Some(resolve_for(permissions, &w.package_dir)),
            Assembled::Native(a) => {
                for t in &mut a.tools {
                    t.sandbox = Some(resolve_for(permissions, &t.package_dir));
                }
                for p in &mut a.prompts {
                    p.sandbox = Some(resolve_for(permissions, &p.package_dir));
                }
                for r in &mut a.resources {
                    r.sandbox = Some(resolve_for(permissions, &r.package_dir));
                }
                for s in &mut a.initialization {
                    s.sandbox = Some(resolve_for(permissions, &s.package_dir));
                }
            }
        }
    }

    /// Every program the server runs: what it is (`acme/w/forecast`), its confinement
    /// (`None`: unconfined) and its package's folder.
    pub fn confinements(&self) -> Vec<(String, Option<&Resolved>, &std::path::Path)> {
        match self {
            Assembled::Wrapped(w) => {
                vec![(
                    w.server.to_string(),
                    w.sandbox.as_deref(),
                    w.package_dir.as_path(),
                )]
            }
            Assembled::Native(a) => {
                let tools = a
                    .tools
                    .iter()
                    .map(|t| (t.qualified.to_string(), &t.sandbox, &t.package_dir));
                let prompts = a
                    .prompts
                    .iter()
                    .map(|p| (p.qualified.to_string(), &p.sandbox, &p.package_dir));
                let resources = a
                    .resources
                    .iter()
                    .map(|r| (r.qualified.to_string(), &r.sandbox, &r.package_dir));
                let init = a
                    .initialization
                    .iter()
                    .map(|s| (s.package.to_string(), &s.sandbox, &s.package_dir));
                tools
                    .chain(prompts)
                    .chain(resources)
                    .chain(init)
                    .map(|(what, sandbox, dir)| (what, sandbox.as_deref(), dir.as_path()))
                    .collect()
            }
        }
    }

    /// What confining every program to `permissions` would grant that its confinement now
    /// does not, one line each (`write /home/ada`). A program that runs unconfined now (its
    /// package declares nothing) is left out: `permissions` can only narrow it.
    pub fn grown_by(&self, permissions: &agx_sandbox::Permissions) -> Vec<String> {
        // Compared as the resolved paths each program would get.
        let as_declared = |r: &Resolved| agx_sandbox::Permissions {
            read: r.read.iter().map(|p| p.display().to_string()).collect(),
            write: r.write.iter().map(|p| p.display().to_string()).collect(),
            network: r.network.clone(),
            env: r.env.clone(),
        };
        let mut lines: Vec<String> = Vec::new();
        for (_, current, package_dir) in self.confinements() {
            let Some(current) = current.filter(|c| c.declared) else {
                continue;
            };
            let wanted = agx_sandbox::resolve_for(permissions, package_dir);
            let grown = agx_sandbox::growth::grown(
                Some(&as_declared(current)),
                Some(&as_declared(&wanted)),
            );
            for line in grown {
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
        }
        lines
    }

    /// Every package whose programs the server runs, each once.
    pub fn packages(&self) -> Vec<PackageName> {
        let mut all: Vec<PackageName> = Vec::new();
        let found: Vec<&PackageName> = match self {
            Assembled::Wrapped(w) => vec![&w.server.package],
            Assembled::Native(a) => a
                .tools
                .iter()
                .map(|t| &t.qualified.package)
                .chain(a.prompts.iter().map(|p| &p.qualified.package))
                .chain(a.resources.iter().map(|r| &r.qualified.package))
                .chain(a.initialization.iter().map(|s| &s.package))
                .collect(),
        };
        for package in found {
            if !all.contains(package) {
                all.push(package.clone());
            }
        }
        all
    }

    pub fn settings(&self) -> Vec<Arc<PackageSettings>> {
        let mut all: Vec<Arc<PackageSettings>> = Vec::new();
        let found: Vec<&Arc<PackageSettings>> = match self {
            Assembled::Wrapped(w) => vec![&w.settings],
            Assembled::Native(a) => a
                .tools
                .iter()
                .map(|t| &t.settings)
                .chain(a.prompts.iter().map(|p| &p.settings))
                .chain(a.resources.iter().map(|r| &r.settings))
                .collect(),
        };
        for s in found {
            if !all.iter().any(|known| known.package == s.package) {
                all.push(s.clone());
            }
        }
        all
    }
}

/// A package's declared settings, not yet resolved.
pub fn declared_settings(package: &Package) -> Arc<PackageSettings> {
    Arc::new(PackageSettings::declared(
        package.name().clone(),
        &package.manifest.extension.settings,
    ))
}

#[derive(Debug, thiserror::Error)]
pub enum AssembleError {
    #[error("package {package} is not installed{}", needed_by.as_ref().map(|n| format!(" (server {n} needs it)")).unwrap_or_default())]
    NotInstalled {
        package: PackageName,
        /// The qualified server, when the missing package is one of its dependencies.
        needed_by: Option<String>,
    },
    #[error("could not look up package {package} in the store: {reason}")]
    Store {
        package: PackageName,
        reason: String,
    },
    #[error("the installed package {package} is broken")]
    Broken {
        package: PackageName,
        #[source]
        source: LoadError,
    },
    #[error("package {package} has no server `{server}`")]
    NoServer {
        package: PackageName,
        server: String,
        available: Vec<String>,
    },
    #[error("{package} has {} servers; name one of them: {}", servers.len(), servers.join(", "))]
    SeveralServers {
        package: PackageName,
        /// Qualified, as `serve` and `install-server` take them.
        servers: Vec<String>,
    },
    #[error(transparent)]
    Name(#[from] agx_core::name::NameError),
    #[error("{0}")]
    BadReference(Box<BadReference>),
    #[error("{0}")]
    DuplicateUri(Box<DuplicateUri>),
    #[error("{server} takes no arguments after `--`: it is {kind}")]
    TakesNoArgs {
        server: QualifiedName,
        kind: &'static str,
    },
}

/// Two resources of one server (from different packages) share a URI.
#[derive(Debug, thiserror::Error)]
#[error("server {server} lists two resources with the URI `{uri}`: {first} and {second}")]
pub struct DuplicateUri {
    pub server: QualifiedName,
    pub uri: String,
    pub first: QualifiedName,
    pub second: QualifiedName,
}

/// A server definition names a tool or prompt that cannot be resolved.
#[derive(Debug, thiserror::Error)]
#[error("server {server} ({location}) refers to {kind} `{reference}`: {reason}")]
pub struct BadReference {
    pub server: QualifiedName,
    pub location: SourceLocation,
    pub kind: &'static str,
    pub reference: String,
    pub reason: String,
}

impl agx_core::error::Hint for AssembleError {
    fn hint(&self) -> Option<String> {
        match self {
            // `acme/weather` names server `weather` of a package `acme` without publisher;
            // users who meant a published package forgot the server segment.
            AssembleError::NotInstalled {
                package,
                needed_by: None,
            } if package.publisher().is_none() => Some(format!(
                "install it with `agx install {package}`; a server of a published package is \
                 named `publisher/package/server` (`agx list --servers` shows them)"
            )),
            AssembleError::NotInstalled { package, .. } => {
                Some(format!("install it with `agx install {package}`"))
            }
            AssembleError::Store { .. } => Some("run `agx doctor` to check the store".into()),
            AssembleError::Broken { package, source } => Some(format!(
                "reinstall it with `agx install {package}`; `agx validate {}` shows the details",
                source.dir.display()
            )),
            AssembleError::NoServer { available, .. } if available.is_empty() => {
                Some("this package defines no servers; `agx list --servers` shows them all".into())
            }
            AssembleError::NoServer {
                package, available, ..
            } => Some(format!(
                "its servers: {}",
                available
                    .iter()
                    .map(|s| format!("{package}/{s}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            AssembleError::SeveralServers { servers, .. } => Some(format!(
                "e.g. `agx serve {}`",
                servers.first().map(String::as_str).unwrap_or_default()
            )),
            AssembleError::Name(e) => Some(format!(
                "expected {}, or a package with exactly one server",
                e.expected_form()
            )),
            AssembleError::BadReference(b) => Some(format!(
                "fix the server definition in {} and reinstall it (`agx validate` checks it)",
                b.server.package
            )),
            AssembleError::TakesNoArgs { server, .. } => Some(format!(
                "arguments after `--` go to the command of a wrapped server (npm, PyPI, OCI, \
                 MCPB, an MCP registry entry); give {server} its values as settings: \
                 `agx config list {}`",
                server.package
            )),
            AssembleError::DuplicateUri(d) => Some(format!(
                "a client could read only one of them: remove one from `resources` of server \
                 `{}` in {}",
                d.server.item, d.server.package
            )),
        }
    }
}

/// Loads packages once each.
struct Loader<'a> {
    find: FindPackage<'a>,
    loaded: HashMap<PackageName, Arc<Package>>,
    server: QualifiedName,
}

impl Loader<'_> {
    fn load(&mut self, name: &PackageName) -> Result<Arc<Package>, AssembleError> {
        if let Some(p) = self.loaded.get(name) {
            return Ok(p.clone());
        }
        let dir = (self.find)(name)
            .map_err(|reason| AssembleError::Store {
                package: name.clone(),
                reason,
            })?
            .ok_or_else(|| AssembleError::NotInstalled {
                package: name.clone(),
                needed_by: (name != &self.server.package).then(|| self.server.to_string()),
            })?;
        let package = Arc::new(
            load_installed(&dir).map_err(|source| AssembleError::Broken {
                package: name.clone(),
                source,
            })?,
        );
        self.loaded.insert(name.clone(), package.clone());
        Ok(package)
    }

    /// Load these packages ahead of the references that need them, each read once: from its
    /// snapshot when current, else (installed by another agx version) parsed and checked,
    /// side by side on one thread per core when there are two or more.
    /// Failures are left for [`Loader::load`], so errors are reported in reference order, as
    /// without prefetching.
    fn prefetch(&mut self, names: Vec<&PackageName>) {
        let mut unparsed: Vec<(&PackageName, PathBuf)> = Vec::new();
        for name in names {
            if self.loaded.contains_key(name) {
                continue;
            }
            let Ok(Some(dir)) = (self.find)(name) else {
                continue;
            };
            match snapshot::read(&dir) {
                Some(package) => {
                    self.loaded.insert(name.clone(), Arc::new(package));
                }
                None => unparsed.push((name, dir)),
            }
        }
        let parse = |batch: &[(&PackageName, PathBuf)]| -> Vec<(PackageName, Package)> {
            batch
                .iter()
                .filter_map(|(name, dir)| Some(((*name).clone(), load_package(dir).ok()?)))
                .collect()
        };
        // Thread start-up costs more than one package's parse; the count of cores is read
        // from cgroup files, so it is asked only when threads could help.
        let threads = match unparsed.len() {
            0 | 1 => 1,
            _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let parsed: Vec<(PackageName, Package)> = if threads < 2 {
            parse(&unparsed)
        } else {
            let chunk = unparsed.len().div_ceil(threads);
            std::thread::scope(|scope| {
                let mut batches = unparsed.chunks(chunk);
                let first = batches.next().unwrap_or_default();
                let others: Vec<_> = batches
                    .map(|batch| scope.spawn(move || parse(batch)))
                    .collect();
                let mut parsed = parse(first);
                for handle in others {
                    parsed.extend(handle.join().unwrap_or_default());
                }
                parsed
            })
        };
        for (name, package) in parsed {
            self.loaded.insert(name, Arc::new(package));
        }
    }
}

/// The dependencies a server's references name explicitly (`publisher/pkg/item`), in order.
fn named_dependencies<'a>(owner: &'a Package, def: &'a ServerDef) -> Vec<&'a PackageName> {
    let mut names: Vec<&PackageName> = Vec::new();
    for reference in def.tools.iter().chain(&def.prompts).chain(&def.resources) {
        if let ItemRef::Qualified(q) = reference
            && owner.manifest.dependencies.contains_key(&q.package)
            && !names.contains(&&q.package)
        {
            names.push(&q.package);
        }
    }
    names
}

/// The server `raw` names: an installed package alone names its one server (an error lists
/// them when it has several); anything else is read as `publisher/package/server`. A
/// package is tried first, so `pypi/mcp-server-time` is that package, not server
/// `mcp-server-time` of a local package `pypi`.
pub fn resolve_server_ref(
    raw: &str,
    find: FindPackage<'_>,
) -> Result<QualifiedName, AssembleError> {
    if let Ok(package) = PackageName::parse(raw)
        && let Some(dir) = find(&package).map_err(|reason| AssembleError::Store {
            package: package.clone(),
            reason,
        })?
    {
        let loaded = load_installed(&dir).map_err(|source| AssembleError::Broken {
            package: package.clone(),
            source,
        })?;
        return match loaded.servers.as_slice() {
            [only] => Ok(QualifiedName {
                package,
                item: only.name.clone(),
            }),
            [] => Err(AssembleError::NoServer {
                package,
                server: String::new(),
                available: Vec::new(),
            }),
            several => Err(AssembleError::SeveralServers {
                servers: several
                    .iter()
                    .map(|s| format!("{package}/{}", s.name))
                    .collect(),
                package,
            }),
        };
    }
    Ok(QualifiedName::parse(raw)?)
}

/// Assemble `server` from installed packages.
pub fn assemble(server: &QualifiedName, find: FindPackage<'_>) -> Result<Assembled, AssembleError> {
    let mut loader = Loader {
        find,
        loaded: HashMap::new(),
        server: server.clone(),
    };
    let owner = loader.load(&server.package)?;
    assemble_from(server, &owner, &mut loader)
}

fn assemble_from(
    server: &QualifiedName,
    owner: &Arc<Package>,
    loader: &mut Loader<'_>,
) -> Result<Assembled, AssembleError> {
    let Some(def) = owner.server(server.item.as_str()) else {
        return Err(AssembleError::NoServer {
            package: server.package.clone(),
            server: server.item.to_string(),
            available: owner.servers.iter().map(|s| s.name.to_string()).collect(),
        });
    };
    if def.command.is_some() || def.url.is_some() {
        return Ok(Assembled::Wrapped(WrappedServer {
            server: server.clone(),
            command: def.command.clone().unwrap_or_default(),
            package_dir: owner.dir.clone(),
            cwd: def
                .cwd
                .as_ref()
                .map(|c| owner.dir.join(c))
                .unwrap_or_else(|| owner.dir.clone()),
            env: def.env.clone(),
            settings: declared_settings(owner),
            url: def.url.clone(),
            headers: def.headers.clone(),
            oauth: def.oauth.clone().map(Box::new),
            args: Vec::new(),
            code_cache: None,
            code_cache_problem: None,
            pins_file: None,
            data_dir: None,
            sign_ins: None,
            sandbox: agx_sandbox::for_package(owner, Some(server.item.as_str())),
        }));
    }

    loader.prefetch(named_dependencies(owner, def));

    let bad_ref = |kind: &'static str, reference: &ItemRef, reason: String| {
        AssembleError::BadReference(Box::new(BadReference {
            server: server.clone(),
            location: def.location.clone(),
            kind,
            reference: reference.to_string(),
            reason,
        }))
    };

    let mut tools: Vec<(QualifiedName, ToolDef, Arc<Package>)> = Vec::new();
    for reference in &def.tools {
        let (pkg, tool) =
            resolve(owner, reference, loader, |p, n| p.tool(n).cloned()).map_err(|reason| {
                match reason {
                    Resolve::Load(e) => e,
                    Resolve::Missing(reason) => bad_ref("tool", reference, reason),
                }
            })?;
        let qualified = QualifiedName {
            package: pkg.name().clone(),
            item: tool.name.clone(),
        };
        if !tools.iter().any(|(q, _, _)| q == &qualified) {
            tools.push((qualified, tool, pkg));
        }
    }
    let mut prompts: Vec<(QualifiedName, PromptDef, Arc<Package>)> = Vec::new();
    for reference in &def.prompts {
        let (pkg, prompt) = resolve(owner, reference, loader, |p, n| p.prompt(n).cloned())
            .map_err(|reason| match reason {
                Resolve::Load(e) => e,
                Resolve::Missing(reason) => bad_ref("prompt", reference, reason),
            })?;
        let qualified = QualifiedName {
            package: pkg.name().clone(),
            item: prompt.name.clone(),
        };
        if !prompts.iter().any(|(q, _, _)| q == &qualified) {
            prompts.push((qualified, prompt, pkg));
        }
    }

    type Found = (
        QualifiedName,
        ResourceDef,
        PathBuf,
        Arc<PackageSettings>,
        Option<Arc<Resolved>>,
    );
    let mut resources: Vec<Found> = Vec::new();
    for reference in &def.resources {
        let (pkg, resource) = resolve(owner, reference, loader, |p, n| p.resource(n).cloned())
            .map_err(|reason| match reason {
                Resolve::Load(e) => e,
                Resolve::Missing(reason) => bad_ref("resource", reference, reason),
            })?;
        let qualified = QualifiedName {
            package: pkg.name().clone(),
            item: resource.name.clone(),
        };
        if resources.iter().any(|(q, ..)| q == &qualified) {
            continue;
        }
        if let Some((first, ..)) = resources
            .iter()
            .find(|(_, r, ..)| r.address == resource.address)
        {
            let (ResourceAddress::Uri(uri) | ResourceAddress::UriTemplate(uri)) = resource.address;
            return Err(AssembleError::DuplicateUri(Box::new(DuplicateUri {
                server: server.clone(),
                uri,
                first: first.clone(),
                second: qualified,
            })));
        }
        resources.push((
            qualified,
            resource,
            pkg.dir.clone(),
            declared_settings(&pkg),
            agx_sandbox::for_package(&pkg, None),
        ));
    }

    let tool_names = disambiguate(&tools.iter().map(|t| t.1.name.as_str()).collect::<Vec<_>>());
    let prompt_names = disambiguate(
        &prompts
            .iter()
            .map(|p| p.1.name.as_str())
            .collect::<Vec<_>>(),
    );

    let resource_names = disambiguate(
        &resources
            .iter()
            .map(|r| r.1.name.as_str())
            .collect::<Vec<_>>(),
    );

    let mut initialization = Vec::new();
    if let Some(command) = &def.initialization {
        initialization.push(InitStep {
            what: format!("server {server}"),
            command: command.clone(),
            package_dir: owner.dir.clone(),
            package: owner.name().clone(),
            env: package_env(&owner.dir, owner.name())
                .into_iter()
                .chain(def.env.iter().map(|(k, v)| (k.clone(), v.clone())))
                .collect(),
            timeout_secs: agx_model::manifest::DEFAULT_TOOL_TIMEOUT_SECS,
            sandbox: agx_sandbox::for_package(owner, Some(server.item.as_str())),
        });
    }
    for (qualified, tool, pkg) in &tools {
        initialization.extend(tool_init_step(
            qualified,
            tool,
            &pkg.dir,
            agx_sandbox::for_package(pkg, None),
        ));
    }

    Ok(Assembled::Native(Assembly {
        server: server.clone(),
        version: def.version.as_ref().unwrap_or(owner.version()).to_string(),
        title: def.title.clone(),
        description: def.description.clone(),
        instructions: def.instructions.clone(),
        tools: tools
            .into_iter()
            .zip(tool_names)
            .map(|((qualified, def, pkg), exposed)| ExposedTool {
                exposed,
                qualified,
                def,
                package_dir: pkg.dir.clone(),
                settings: declared_settings(&pkg),
                sandbox: agx_sandbox::for_package(&pkg, None),
            })
            .collect(),
        prompts: prompts
            .into_iter()
            .zip(prompt_names)
            .map(|((qualified, def, pkg), exposed)| ExposedPrompt {
                exposed,
                qualified,
                def,
                package_dir: pkg.dir.clone(),
                settings: declared_settings(&pkg),
                sandbox: agx_sandbox::for_package(&pkg, None),
            })
            .collect(),
        resources: resources
            .into_iter()
            .zip(resource_names)
            .map(
                |((qualified, def, package_dir, settings, sandbox), exposed)| ExposedResource {
                    exposed,
                    qualified,
                    def,
                    package_dir,
                    settings,
                    sandbox,
                },
            )
            .collect(),
        initialization,
    }))
}

enum Resolve {
    Load(AssembleError),
    Missing(String),
}

/// Resolve one reference: a bare name in the owner first, then in its dependencies (in
/// order); a qualified name in the owner or one of its dependencies.
fn resolve<T>(
    owner: &Arc<Package>,
    reference: &ItemRef,
    loader: &mut Loader<'_>,
    get: impl Fn(&Package, &str) -> Option<T>,
) -> Result<(Arc<Package>, T), Resolve> {
    match reference {
        ItemRef::Local(name) => {
            if let Some(item) = get(owner, name.as_str()) {
                return Ok((owner.clone(), item));
            }
            for dep in owner.manifest.dependencies.keys() {
                let pkg = loader.load(dep).map_err(Resolve::Load)?;
                if let Some(item) = get(&pkg, name.as_str()) {
                    return Ok((pkg, item));
                }
            }
            Err(Resolve::Missing(format!(
                "neither {} nor its dependencies define it",
                owner.name()
            )))
        }
        ItemRef::Qualified(q) => {
            let pkg = if &q.package == owner.name() {
                owner.clone()
            } else if owner.manifest.dependencies.contains_key(&q.package) {
                loader.load(&q.package).map_err(Resolve::Load)?
            } else {
                return Err(Resolve::Missing(format!(
                    "{} is not in the [dependencies] of {}",
                    q.package,
                    owner.name()
                )));
            };
            match get(&pkg, q.item.as_str()) {
                Some(item) => Ok((pkg, item)),
                None => Err(Resolve::Missing(format!(
                    "package {} (version {}) does not define it",
                    q.package,
                    pkg.version()
                ))),
            }
        }
    }
}

/// Make names unique: every name shared by several items becomes `Name1`, `Name2`, … in
/// order, skipping any suffix that would equal a name some item already has.
pub fn disambiguate(names: &[&str]) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for n in names {
        *count.entry(n).or_default() += 1;
    }
    let mut taken: HashSet<String> = names.iter().map(|n| n.to_string()).collect();
    let mut next: HashMap<&str, usize> = HashMap::new();
    names
        .iter()
        .map(|&n| {
            if count[n] == 1 {
                return n.to_string();
            }
            let i = next.entry(n).or_insert(0);
            loop {
                *i += 1;
                let candidate = format!("{n}{i}");
                if !taken.contains(&candidate) {
                    taken.insert(candidate.clone());
                    return candidate;
                }
            }
        })
        .collect()
}

/// The initialization a tool asks for, if any: run once before its first call.
pub fn tool_init_step(
    qualified: &QualifiedName,
    tool: &ToolDef,
    dir: &std::path::Path,
    sandbox: Option<Arc<Resolved>>,
) -> Option<InitStep> {
    let command = tool.initialization.as_ref()?;
    Some(InitStep {
        what: format!("tool {qualified}"),
        command: command.clone(),
        package_dir: dir.to_path_buf(),
        package: qualified.package.clone(),
        env: tool_env(dir, qualified, &tool.env),
        timeout_secs: tool.timeout_secs,
        sandbox,
    })
}

/// `AGX_PACKAGE_DIR`, `AGX_PACKAGE` and, for an installed package, `AGX_DATA_DIR` (its
/// data folder outside the store, docs/store.md).
pub fn package_env(dir: &std::path::Path, package: &PackageName) -> Vec<(String, String)> {
    let mut env = vec![
        ("AGX_PACKAGE_DIR".into(), dir.display().to_string()),
        ("AGX_PACKAGE".into(), package.to_string()),
    ];
    if let Some(data) = agx_core::paths::package_data_of(dir) {
        env.push(("AGX_DATA_DIR".into(), data.display().to_string()));
    }
    env
}

impl ExposedPrompt {
    /// The environment of the prompt's commands (rendering and completion): the package's
    /// variables and its resolved settings.
    pub fn command_env(&self) -> Vec<(String, String)> {
        let mut env = package_env(&self.package_dir, &self.qualified.package);
        env.push(("AGX_PROMPT".into(), self.qualified.item.to_string()));
        env.extend(self.settings.env_vars());
        env
    }
}

impl ExposedResource {
    /// The environment of the resource's commands (reading and completion): the package's
    /// variables, the resource's own `env` and the package's resolved settings.
    pub fn command_env(&self) -> Vec<(String, String)> {
        let mut env = package_env(&self.package_dir, &self.qualified.package);
        env.push(("AGX_RESOURCE".into(), self.qualified.item.to_string()));
        env.extend(self.def.env.iter().map(|(k, v)| (k.clone(), v.clone())));
        env.extend(self.settings.env_vars());
        env
    }
}

/// The environment additions of a tool run (the tool contract: docs/package-format.md).
pub fn tool_env(
    dir: &std::path::Path,
    tool: &QualifiedName,
    extra: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut env = package_env(dir, &tool.package);
    env.push(("AGX_TOOL".into(), tool.item.to_string()));
    env.extend(extra.iter().map(|(k, v)| (k.clone(), v.clone())));
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Write a package folder from (path, text) pairs.
    fn write(dir: &std::path::Path, files: &[(&str, &str)]) {
        for (rel, text) in files {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    /// `acme/app` (server `main` listing `resources`) and its dependency `acme/lib`, which
    /// has a resource `guide` at `docs://guide`; `app_uri` is the URI of app's own `guide`.
    fn assemble_app(resources: &str, app_uri: &str) -> Result<Assembled, AssembleError> {
        let root = tempfile::tempdir().unwrap();
        let lib = root.path().join("lib");
        let app = root.path().join("app");
        write(
            &lib,
            &[
                (
                    "agx.toml",
                    "[package]\nname = \"acme/lib\"\nversion = \"1.0.0\"\ndescription = \"d\"\n[extension]\nresources = [\"guide\"]\n",
                ),
                (
                    "agx/resources/guide.toml",
                    "name = \"guide\"\nuri = \"docs://guide\"\ncommand = [\"true\"]\n",
                ),
            ],
        );
        write(
            &app,
            &[
                (
                    "agx.toml",
                    "[package]\nname = \"acme/app\"\nversion = \"1.0.0\"\ndescription = \"d\"\n[dependencies]\n\"acme/lib\" = \"^1.0\"\n[extension]\nservers = [\"main\"]\nresources = [\"guide\"]\n",
                ),
                (
                    "agx/resources/guide.toml",
                    &format!("name = \"guide\"\nuri = \"{app_uri}\"\ncommand = [\"true\"]\n"),
                ),
                (
                    "agx/servers/main.toml",
                    &format!("name = \"main\"\nresources = {resources}\n"),
                ),
            ],
        );
        let find = |name: &PackageName| -> Result<Option<PathBuf>, String> {
            Ok(match name.to_string().as_str() {
                "acme/app" => Some(app.clone()),
                "acme/lib" => Some(lib.clone()),
                _ => None,
            })
        };
        assemble(&QualifiedName::parse("acme/app/main").unwrap(), &find)
    }

    #[test]
    fn resources_of_dependencies_are_qualified_and_same_names_numbered() {
        let Ok(Assembled::Native(a)) =
            assemble_app("[\"guide\", \"acme/lib/guide\"]", "docs://app-guide")
        else {
            panic!("assembles");
        };
        let exposed: Vec<(String, String)> = a
            .resources
            .iter()
            .map(|r| (r.exposed.clone(), r.qualified.to_string()))
            .collect();
        assert_eq!(
            exposed,
            [
                ("guide1".to_string(), "acme/app/guide".to_string()),
                ("guide2".to_string(), "acme/lib/guide".to_string())
            ]
        );
    }

    #[test]
    fn two_resources_with_one_uri_stop_the_server() {
        let err = assemble_app("[\"guide\", \"acme/lib/guide\"]", "docs://guide").unwrap_err();
        assert_eq!(
            err.to_string(),
            "server acme/app/main lists two resources with the URI `docs://guide`: \
             acme/app/guide and acme/lib/guide"
        );
    }

    #[test]
    fn unique_names_stay() {
        assert_eq!(disambiguate(&["a", "b"]), vec!["a", "b"]);
    }

    #[test]
    fn collisions_are_numbered_in_order() {
        assert_eq!(
            disambiguate(&["Search", "x", "Search"]),
            vec!["Search1", "x", "Search2"]
        );
    }

    #[test]
    fn numbering_skips_names_real_items_use() {
        assert_eq!(
            disambiguate(&["Search", "Search", "Search1"]),
            vec!["Search2", "Search3", "Search1"]
        );
        assert_eq!(
            disambiguate(&["Search2", "Search", "Search"]),
            vec!["Search2", "Search1", "Search3"]
        );
    }
}
