//! Finding installed packages and resolving every tool and prompt of a server exactly as
//! `agx serve` does (the runtime's assembly), without running anything, so a broken server
//! fails at `install-server`, not inside the client.

use std::path::PathBuf;

use agx_core::name::{PackageName, QualifiedName};
use agx_core::paths::AgxPaths;
use agx_runtime::{AssembleError, Assembled, assemble};
use agx_store::{Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ServerLookupError {
    #[error(transparent)]
    Assemble(Box<AssembleError>),
    #[error(transparent)]
    Store(Box<StoreError>),
}

impl From<StoreError> for ServerLookupError {
    fn from(e: StoreError) -> Self {
        ServerLookupError::Store(Box::new(e))
    }
}

impl From<AssembleError> for ServerLookupError {
    fn from(e: AssembleError) -> Self {
        ServerLookupError::Assemble(Box::new(e))
    }
}

impl agx_core::error::Hint for ServerLookupError {
    fn hint(&self) -> Option<String> {
        match self {
            ServerLookupError::Assemble(e) => e.as_ref().hint(),
            ServerLookupError::Store(e) => e.as_ref().hint(),
        }
    }
}

impl ServerLookupError {
    /// The package that is not installed, when that is the problem.
    pub fn missing_package(&self) -> Option<&PackageName> {
        match self {
            ServerLookupError::Assemble(e) => match e.as_ref() {
                AssembleError::NotInstalled { package, .. } => Some(package),
                _ => None,
            },
            ServerLookupError::Store(_) => None,
        }
    }
}

/// The installed folder of a package, if it is installed.
pub fn installed_package_dir(
    paths: &AgxPaths,
    name: &PackageName,
) -> Result<Option<PathBuf>, ServerLookupError> {
    Ok(Store::open(paths).installed_dir(name)?)
}

/// What a resolved server offers (qualified names of every tool and prompt).
#[derive(Debug, Clone)]
pub struct ResolvedServer {
    pub server: QualifiedName,
    pub tools: Vec<String>,
    pub prompts: Vec<String>,
    /// A server wrapping a shipped MCP server (`command`): agx serve runs it instead.
    pub wrapped: bool,
    /// Why it takes no arguments after `--` (see `Assembled::refuses_args`); `None` when
    /// it does.
    pub refuses_args: Option<&'static str>,
    /// The declared settings of every package the server runs (not resolved).
    pub settings: Vec<std::sync::Arc<agx_model::settings::PackageSettings>>,
}

/// The server `raw` names, as `agx serve` reads it: `publisher/package/server`, or an
/// installed package with exactly one server (see `runtime::resolve_server_ref`).
pub fn server_reference(paths: &AgxPaths, raw: &str) -> Result<QualifiedName, ServerLookupError> {
    let store = Store::open(paths);
    let find = |name: &PackageName| -> Result<Option<PathBuf>, String> {
        store.installed_dir(name).map_err(|e| e.to_string())
    };
    Ok(agx_runtime::resolve_server_ref(raw, &find)?)
}

/// Resolve a server as `agx serve` would, reading definition files only.
pub fn resolve_server(
    paths: &AgxPaths,
    server: &QualifiedName,
) -> Result<ResolvedServer, ServerLookupError> {
    let store = Store::open(paths);
    let find = |name: &PackageName| -> Result<Option<PathBuf>, String> {
        store.installed_dir(name).map_err(|e| e.to_string())
    };
    let assembled = assemble(server, &find)?;
    let settings = assembled.settings();
    let refuses_args = assembled.refuses_args();
    Ok(match assembled {
        Assembled::Native(a) => ResolvedServer {
            server: server.clone(),
            tools: a.tools.iter().map(|t| t.exposed.clone()).collect(),
            prompts: a.prompts.iter().map(|p| p.exposed.clone()).collect(),
            wrapped: false,
            refuses_args,
            settings,
        },
        Assembled::Wrapped(_) => ResolvedServer {
            server: server.clone(),
            tools: Vec::new(),
            prompts: Vec::new(),
            wrapped: true,
            refuses_args,
            settings,
        },
    })
}
