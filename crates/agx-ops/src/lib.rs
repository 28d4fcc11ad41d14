//! The operations that commands call: each takes a [`Context`] (agx's folders, the registry
//! choice, a reporter) and the operation's own typed arguments, and returns a typed result
//! for the command to render. Operations never print and never see command-line types.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

pub mod audit;
pub mod auth;
pub mod author;
pub mod call;
pub mod clients;
pub mod config;
mod direct;
pub mod discover;
pub mod doctor;
pub mod export;
pub mod gc;
pub mod info;
pub mod install;
mod install_entry;
pub mod install_server;
pub mod list;
pub mod lock_check;
mod locked;
pub mod new;
pub mod outdated;
pub mod pins;
pub mod policy;
pub mod project;
mod project_install;
mod project_skills;
pub mod prompt;
pub mod sbom;
pub mod search;
pub mod skills;
pub mod tools;
pub mod uninstall;
pub mod update;
pub mod verify;
pub mod warm;

pub use locked::{
    LockedInstallReport, LockedPackage, install_locked, is_installed, is_synced, release_project,
};

use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;
use agx_core::report::Reporter;
use agx_sources::index::{IndexError, Registry};
use agx_store::Store;

/// What every operation gets.
pub struct Context<'a> {
    pub paths: &'a AgxPaths,
    /// `--registry` / `AGX_REGISTRY`: a configured name, a URL or a folder; `None` for the
    /// configured default.
    pub registry: Option<&'a str>,
    /// `--root`: the TUF root to verify a `registry` URL or folder against, for this run.
    pub registry_root: Option<&'a std::path::Path>,
    /// Use only cached index data.
    pub offline: bool,
    pub reporter: &'a dyn Reporter,
    /// Codes of the poisoning scan's high findings that installs and skill copies of this
    /// run accept (`--accept-finding`, docs/security.md); empty for every other command.
    pub accept_findings: &'a [String],
    /// The changes of a package's signer that installs of this run accept
    /// (`--allow-signer-change`, `--allow-unsigned`); none for every other command.
    pub signer_changes: agx_store::provenance::SignerChanges,
}

impl Context<'_> {
    pub fn store(&self) -> Store {
        Store::open(self.paths)
    }

    /// The installer of this run: its store, reporter, accepted findings and policy.
    pub fn installer<'s>(
        &'s self,
        store: &'s Store,
        policy: &'s agx_store::PolicyGate,
    ) -> agx_installer::Installer<'s> {
        agx_installer::Installer {
            store,
            reporter: self.reporter,
            accept: self.accept_findings,
            policy,
            signer_changes: self.signer_changes,
            locked_signers: None,
        }
    }

    /// The registry chosen by `--registry`, `AGX_REGISTRY` or the config file.
    pub fn open_registry(&self) -> Result<Registry, IndexError> {
        agx_sources::index::open(self.registry, self.registry_root, self.offline, self.paths)
    }

    /// [`Context::open_registry`] for `names`: when no registry is asked for and every name's
    /// publisher is a configured `.well-known` site (`docs/review`), that site.
    pub fn open_registry_for<'n>(
        &self,
        mut names: impl Iterator<Item = &'n PackageName>,
    ) -> Result<Registry, IndexError> {
        let sites = self.sites()?;
        let first = names.next();
        match first.and_then(|first| sites.of(first)) {
            Some(site) if names.all(|n| n.publisher() == first.and_then(|f| f.publisher())) => {
                self.open_site(site)
            }
            _ => self.open_registry(),
        }
    }

    /// The configured `.well-known` sites packages install from (read once per operation),
    /// none when a registry is asked for.
    pub fn sites(&self) -> Result<Sites, IndexError> {
        Ok(Sites(match self.registry.is_none_or(str::is_empty) {
            true => agx_sources::index::source::well_known_sites(self.paths)?,
            false => Default::default(),
        }))
    }

    /// The configured source `site`.
    pub fn open_site(&self, site: &str) -> Result<Registry, IndexError> {
        agx_sources::index::open(Some(site), None, self.offline, self.paths)
    }
}

/// The configured `.well-known` sites, by the publisher of their skills' packages.
#[derive(Debug, Default)]
pub struct Sites(std::collections::BTreeMap<String, String>);

impl Sites {
    /// The site `name` installs from (its publisher is the site's name), if any.
    pub fn of(&self, name: &PackageName) -> Option<&str> {
        self.0.get(name.publisher()?).map(String::as_str)
    }
}

/// Errors of operations: those of the layers below, and the few that only an operation can
/// tell. Hints come from the underlying error.
#[derive(Debug, thiserror::Error)]
pub enum OpsError {
    #[error(transparent)]
    Store(#[from] agx_store::StoreError),
    #[error(transparent)]
    Filter(#[from] agx_model::filter::FiltersFileError),
    #[error(transparent)]
    Profile(#[from] agx_project::profile::ProfileError),
    #[error(transparent)]
    Serve(Box<agx_runtime::ServeError>),
    #[error(transparent)]
    Auth(Box<agx_auth::AuthError>),
    #[error(
        "{server} is not a remote server: it runs a program on this machine, which needs no sign-in"
    )]
    NotRemote { server: String },
    #[error("a client-credentials sign-in needs the client's ID and secret")]
    ClientCredentialsNeedSecret,
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Policy(#[from] agx_model::policy::PolicyError),
    #[error(transparent)]
    Project(#[from] agx_project::ProjectError),
    #[error(transparent)]
    Plan(Box<agx_installer::plan::PlanError>),
    #[error(transparent)]
    Name(#[from] agx_core::name::NameError),
    #[error(transparent)]
    Clients(#[from] agx_clients::ClientError),
    #[error(transparent)]
    Records(#[from] agx_clients::records::RecordsError),
    #[error(transparent)]
    InUse(#[from] agx_clients::in_use::InUseError),
    #[error(transparent)]
    ServerLookup(#[from] agx_clients::resolve::ServerLookupError),
    #[error(transparent)]
    Config(Box<config::ConfigError>),
    #[error(transparent)]
    Entry(#[from] agx_sources::ecosystem::EntryError),
    #[error("cannot find the path of the running agx binary: {0}")]
    NoBinary(std::io::Error),
    #[error("no entry `{entry}` in {} ({client}, {scope} scope)", file.display())]
    NoEntry {
        entry: String,
        file: std::path::PathBuf,
        client: &'static str,
        scope: agx_clients::Scope,
    },
    /// An argument of `agx install` that is neither a package spec nor an existing path.
    #[error(transparent)]
    NotASpec { source: agx_core::name::NameError },
    #[error("cannot install `{arg}`: {source}")]
    NotAPackage {
        arg: String,
        source: std::io::Error,
        /// The argument could not be a package name either.
        not_a_name: bool,
    },
    /// An argument of `agx info` that names neither a package nor a server.
    #[error(transparent)]
    NotATarget { source: agx_core::name::NameError },
    #[error("{name} is neither installed nor in the registry")]
    Unknown { name: agx_core::name::PackageName },
    #[error(transparent)]
    SkillCopy(Box<agx_model::skills::copies::CopyError>),
    #[error("{package} has no skill `{skill}`")]
    NoSuchSkill {
        package: String,
        skill: String,
        /// The package's skills, qualified.
        known: Vec<String>,
    },
    /// `agx search` with several sources, none of which answered (each is warned about).
    #[error("no registry answered the search ({})", registries.join(", "))]
    NothingAnswered { registries: Vec<String> },
    /// `agx info` of an npm, PyPI, OCI or MCPB package that is not installed: no agx
    /// registry lists those.
    #[error("{name} is not installed, and agx registries do not list {} packages", name.publisher().unwrap_or_default())]
    EcosystemNotInstalled { name: agx_core::name::PackageName },
    #[error("{package} is not installed")]
    SkillPackageMissing {
        package: agx_core::name::PackageName,
    },
    #[error("`{client}` reads no skills")]
    NoSkillClient { client: String },
    #[error("skill `{key}` of agx.toml: the folder {path} holds no skill agx can copy: {detail}")]
    SkillFolder {
        key: String,
        path: String,
        detail: String,
    },
    #[error("{profile} is a profile: its servers are pinned one by one")]
    ProfilePins { profile: String },
    #[error("`{item}` is not a changed, new or removed item of {server}")]
    NothingToTrust {
        server: String,
        item: String,
        /// The items that differ from their pins.
        changed: Vec<String>,
    },
    #[error("{package} has no server `{server}`")]
    NoSuchServer {
        /// The package and its version, as `acme/weather 1.2.0`.
        package: String,
        server: String,
        /// The package's servers, qualified.
        known: Vec<String>,
    },
}

// Boxed: every operation returns this type.
impl From<agx_model::skills::copies::CopyError> for OpsError {
    fn from(e: agx_model::skills::copies::CopyError) -> Self {
        OpsError::SkillCopy(Box::new(e))
    }
}

// Boxed: a config error is large, and every operation returns this type.
impl From<agx_auth::AuthError> for OpsError {
    fn from(e: agx_auth::AuthError) -> Self {
        OpsError::Auth(Box::new(e))
    }
}

impl From<agx_runtime::ServeError> for OpsError {
    fn from(e: agx_runtime::ServeError) -> Self {
        OpsError::Serve(Box::new(e))
    }
}

impl From<config::ConfigError> for OpsError {
    fn from(e: config::ConfigError) -> Self {
        OpsError::Config(Box::new(e))
    }
}

// Boxed: a plan error is large, and every operation returns this type.
impl From<agx_installer::plan::PlanError> for OpsError {
    fn from(e: agx_installer::plan::PlanError) -> Self {
        OpsError::Plan(Box::new(e))
    }
}

impl agx_core::error::Hint for OpsError {
    fn hint(&self) -> Option<String> {
        match self {
            OpsError::Store(e) => e.hint(),
            OpsError::Filter(e) => e.hint(),
            OpsError::Profile(e) => e.hint(),
            OpsError::Serve(e) => e.hint(),
            OpsError::Auth(e) => e.hint(),
            OpsError::ClientCredentialsNeedSecret => Some(
                "pass --client-id ID and pipe its secret in with --client-secret-stdin".into(),
            ),
            OpsError::NotRemote { .. } => Some(
                "`agx auth login` signs in to servers reached by URL; `agx info PACKAGE` shows which those are"
                    .into(),
            ),
            OpsError::SkillCopy(e) => e.as_ref().hint(),
            OpsError::NoSuchSkill { known, .. } if known.is_empty() => {
                Some("the package has no skills; `agx list --skills` lists installed ones".into())
            }
            OpsError::NoSuchSkill { known, .. } => {
                Some(format!("its skills: {}", known.join(", ")))
            }
            OpsError::EcosystemNotInstalled { name } => {
                let name = name.to_string();
                Some(match name.split_once('/') {
                    Some((kind @ ("npm" | "pypi"), rest)) => format!(
                        "install it first: `agx install {kind}:{rest}`; `agx search WORDS` finds servers in the MCP registries"
                    ),
                    _ => "install it first (`agx install --help` lists the forms); `agx search WORDS` finds servers in the MCP registries".into(),
                })
            }
            OpsError::SkillPackageMissing { package } => {
                Some(format!("install it first: `agx install {package}`"))
            }
            OpsError::SkillFolder { path, .. } => Some(format!(
                "`path` names a folder of the project holding SKILL.md, its name the folder's (docs/projects.md, \"Skills\"); fix what `agx validate {path}` reports"
            )),
            OpsError::NoSkillClient { .. } => Some(format!(
                "name one of {} or `all`",
                agx_model::skills::folders::SKILL_CLIENTS.join(", ")
            )),
            OpsError::NothingAnswered { .. } => Some(
                "the warnings above say why each failed; check the network (or search the cache with --offline), search one source with --registry NAME, or remove one that is gone with `agx registry remove-source NAME`".into(),
            ),
            OpsError::Index(e) => e.hint(),
            OpsError::Policy(e) => e.hint(),
            OpsError::Project(e) => e.hint(),
            OpsError::Plan(e) => e.hint(),
            OpsError::Name(e) => e.hint(),
            OpsError::Clients(e) => e.hint(),
            OpsError::Records(e) => e.hint(),
            OpsError::InUse(e) => e.hint(),
            OpsError::ServerLookup(e) => e.hint(),
            OpsError::Config(e) => e.hint(),
            OpsError::Entry(e) => e.hint(),
            OpsError::NoBinary(_) => None,
            OpsError::NoEntry { .. } => {
                Some("`agx clients` lists the agx entries of every client".into())
            }
            OpsError::NotASpec { source } => Some(format!(
                "expected {}, or the path of a package folder or .tar.gz file",
                source.expected_form()
            )),
            OpsError::NotAPackage { not_a_name, .. } => Some(if *not_a_name {
                "give the path of a package folder (with agx.toml) or a .tar.gz made by `agx pack`, or a package name such as `acme/weather`".into()
            } else {
                "give the path of a package folder (with agx.toml) or a .tar.gz made by `agx pack`"
                    .into()
            }),
            OpsError::NotATarget { .. } => Some(
                "expected a package (`acme/weather`) or a server (`acme/weather/forecast`)".into(),
            ),
            OpsError::Unknown { name } => Some(format!(
                "check the spelling (`agx search {}`) or the registry (--registry)",
                name.name()
            )),
            OpsError::ProfilePins { .. } => Some(
                "name one of its servers (`agx tools @NAME` lists them), as `publisher/package/server`".into(),
            ),
            OpsError::NothingToTrust { server, changed, .. } => Some(if changed.is_empty() {
                format!("what {server} lists matches its pins; `agx tools {server} --diff` shows the comparison")
            } else {
                format!("its changed items: {}; `agx tools {server} --diff` shows them", changed.join(", "))
            }),
            OpsError::NoSuchServer { known, .. } => Some(if known.is_empty() {
                "this package declares no servers".to_string()
            } else {
                format!("its servers: {}", known.join(", "))
            }),
        }
    }
}

pub type OpsResult<T> = Result<T, OpsError>;
