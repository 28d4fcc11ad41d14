//! Finding installed packages and resolving every tool and prompt of a server without
//! running anything, so a broken server fails at `install-server`, not inside the client.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::manifest::{LoadError, Package, load_package};
use crate::name::{ItemRef, PackageName, QualifiedName};
use crate::paths::AgxPaths;
use crate::store::{Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error("package {0} is not installed")]
    NotInstalled(PackageName),
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Store(Box<StoreError>),
    #[error("package {package} has no server `{server}`{}", available_list(.available))]
    NoSuchServer {
        package: PackageName,
        server: String,
        available: Vec<String>,
    },
    #[error("server {server} does not resolve:\n  {}", problems.join("\n  "))]
    Unresolved {
        server: QualifiedName,
        problems: Vec<String>,
    },
}

fn available_list(names: &[String]) -> String {
    if names.is_empty() {
        " (it declares no servers)".into()
    } else {
        format!(" (it has: {})", names.join(", "))
    }
}

impl From<StoreError> for ResolveError {
    fn from(e: StoreError) -> Self {
        ResolveError::Store(Box::new(e))
    }
}

impl crate::error::Hint for ResolveError {
    fn hint(&self) -> Option<String> {
        match self {
            ResolveError::NotInstalled(p) => Some(format!("run `agx install {p}`")),
            ResolveError::Load(e) => e.hint(),
            ResolveError::Store(e) => e.as_ref().hint(),
            ResolveError::NoSuchServer { package, .. } => {
                Some(format!("`agx info {package}` lists its servers"))
            }
            ResolveError::Unresolved { .. } => Some(
                "install the missing dependencies (`agx install`) or fix the server's definition"
                    .into(),
            ),
        }
    }
}

/// The installed folder of a package, if it is installed.
pub fn installed_package_dir(
    paths: &AgxPaths,
    name: &PackageName,
) -> Result<Option<PathBuf>, ResolveError> {
    Ok(Store::open(paths).installed(name)?.map(|p| p.dir))
}

/// What a resolved server offers (qualified names of every tool and prompt).
#[derive(Debug, Clone)]
pub struct ResolvedServer {
    pub server: QualifiedName,
    pub package_dir: PathBuf,
    pub tools: Vec<QualifiedName>,
    pub prompts: Vec<QualifiedName>,
    /// A server wrapping a shipped MCP server (`command`): agx serve runs it instead.
    pub wrapped: bool,
}

/// Loads each package once.
struct Packages<'a> {
    paths: &'a AgxPaths,
    loaded: BTreeMap<PackageName, Package>,
}

impl Packages<'_> {
    fn get(&mut self, name: &PackageName) -> Result<&Package, ResolveError> {
        if !self.loaded.contains_key(name) {
            let dir = installed_package_dir(self.paths, name)?
                .ok_or_else(|| ResolveError::NotInstalled(name.clone()))?;
            let package = load_package(&dir)?;
            self.loaded.insert(name.clone(), package);
        }
        Ok(&self.loaded[name])
    }
}

/// Resolve a server as `agx serve` would, reading definition files only.
pub fn resolve_server(
    paths: &AgxPaths,
    server: &QualifiedName,
) -> Result<ResolvedServer, ResolveError> {
    let mut packages = Packages {
        paths,
        loaded: BTreeMap::new(),
    };
    let package = packages.get(&server.package)?.clone();
    let Some(def) = package.server(server.item.as_str()) else {
        return Err(ResolveError::NoSuchServer {
            package: server.package.clone(),
            server: server.item.to_string(),
            available: package.servers.iter().map(|s| s.name.to_string()).collect(),
        });
    };
    let mut problems = Vec::new();
    let mut resolve_refs = |refs: &[ItemRef], kind: &str| -> Vec<QualifiedName> {
        let mut out = Vec::new();
        for item in refs {
            let (target, in_dependency) = match item {
                ItemRef::Local(name) => (
                    QualifiedName {
                        package: package.name().clone(),
                        item: name.clone(),
                    },
                    false,
                ),
                ItemRef::Qualified(q) => (q.clone(), q.package != *package.name()),
            };
            if in_dependency && !package.manifest.dependencies.contains_key(&target.package) {
                problems.push(format!(
                    "{kind} {target}: package {} is not in [dependencies] of {}",
                    target.package,
                    package.name()
                ));
                continue;
            }
            let found = match packages.get(&target.package) {
                Ok(p) => match kind {
                    "tool" => p.tool(target.item.as_str()).is_some(),
                    _ => p.prompt(target.item.as_str()).is_some(),
                },
                Err(e) => {
                    problems.push(format!("{kind} {target}: {e}"));
                    continue;
                }
            };
            if found {
                out.push(target);
            } else {
                problems.push(format!(
                    "{kind} {target}: no such {kind} in {}",
                    target.package
                ));
            }
        }
        out
    };
    let tools = resolve_refs(&def.tools, "tool");
    let prompts = resolve_refs(&def.prompts, "prompt");
    if let Some(first) = def.command.as_ref().and_then(|c| c.first()) {
        let command = def.command.as_deref().unwrap_or_default();
        let program = crate::manifest::resolve_program(&package.dir, first);
        if first.contains('/') && !program.exists() {
            problems.push(format!(
                "command {}: {} does not exist",
                command.join(" "),
                program.display()
            ));
        }
    }
    if !problems.is_empty() {
        return Err(ResolveError::Unresolved {
            server: server.clone(),
            problems,
        });
    }
    Ok(ResolvedServer {
        server: server.clone(),
        package_dir: package.dir.clone(),
        tools,
        prompts,
        wrapped: def.command.is_some(),
    })
}
