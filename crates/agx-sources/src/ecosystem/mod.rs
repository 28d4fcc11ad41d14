//! Packages from other ecosystems (npm, PyPI, OCI images, MCPB bundles) provisioned into
//! ordinary agx package folders: resolve the exact version, install it without running
//! package code (npm with `--ignore-scripts`, PyPI from wheels only, a bundle unpacked by
//! agx), find its launch command, and write an `agx.toml` declaring one wrapped server. The
//! store then commits the folder like any other package, so `list`, `info`, `serve` and
//! `uninstall` need nothing special. See docs/ecosystem.md.

mod entry_launch;
mod entry_package;
pub mod latest;
pub mod mcpb;
mod npm;
pub mod npm_provenance;
pub mod oci;
pub mod provenance;
mod pypi;
pub mod pypi_provenance;
pub mod registry_entry;

pub use agx_store::EntryOrigin;
pub(crate) use npm::pack as npm_pack;
pub use registry_entry::{EntryError, EntrySpec, LockedEntry, Prefer};

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use agx_core::name::{ItemName, NameError, PackageName};

/// The ecosystems agx provisions packages from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ecosystem {
    Npm,
    Pypi,
    /// A container image; the spec's version is its tag or digest.
    Oci,
    /// An MCPB bundle, already on this machine and checked against its sha256
    /// ([`mcpb::fetch`]).
    Mcpb(mcpb::BundleFile),
}

impl Ecosystem {
    /// The spec prefix (`npm:`) and the publisher part of agx package names (`npm/…`).
    pub fn prefix(&self) -> &'static str {
        match self {
            Ecosystem::Npm => "npm",
            Ecosystem::Pypi => "pypi",
            Ecosystem::Oci => "oci",
            Ecosystem::Mcpb(_) => "mcpb",
        }
    }
}

/// `npm:<name>[@version]` or `pypi:<name>[==version]` as typed on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EcosystemSpec {
    pub ecosystem: Ecosystem,
    /// The agx package name (`npm/@scope/x`, `pypi/mcp-server-time`).
    pub name: PackageName,
    /// The version or requirement as the ecosystem writes it (`1.2.3`, `^1`, `2025.1.1`).
    pub version: Option<String>,
}

impl EcosystemSpec {
    /// Parse a spec; `None` when `arg` has no ecosystem prefix.
    pub fn parse(arg: &str) -> Option<Result<EcosystemSpec, NameError>> {
        let (ecosystem, rest) = if let Some(rest) = arg.strip_prefix("npm:") {
            // `@scope/x@1`: the version separator is the last `@` after the first character.
            let split = rest[1.min(rest.len())..].rfind('@').map(|i| i + 1);
            let (name, version) = match split {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            (Ecosystem::Npm, (name, version))
        } else if let Some(rest) = arg.strip_prefix("pypi:") {
            let (name, version) = match rest.split_once("==") {
                Some((n, v)) => (n, Some(v)),
                None => (rest, None),
            };
            (Ecosystem::Pypi, (name, version))
        } else if let Some(rest) = arg.strip_prefix("oci:")
            // `oci://HOST/NAMESPACE` is an OCI registry source of agx packages, not an image.
            && !rest.starts_with("//")
        {
            let image = oci::split_reference(rest);
            if let Err(reason) = oci::check_reference(&image) {
                return Some(Err(NameError::Package {
                    input: arg.to_string(),
                    reason,
                }));
            }
            let version = &rest[image.repository.len()..];
            let version = version.strip_prefix(':').unwrap_or(version);
            let version = version.strip_prefix('@').unwrap_or(version);
            (
                Ecosystem::Oci,
                (image.repository, (!version.is_empty()).then_some(version)),
            )
        } else {
            return None;
        };
        let (name, version) = rest;
        let checked = match (&ecosystem, version) {
            (Ecosystem::Npm, Some(v)) if !v.is_empty() => check_npm_version(v),
            (Ecosystem::Pypi, Some(v)) if !v.is_empty() => check_pypi_version(v),
            _ => Ok(()),
        };
        if let Err(reason) = checked {
            return Some(Err(NameError::Package {
                input: arg.to_string(),
                reason,
            }));
        }
        let parsed =
            PackageName::parse(&format!("{}/{name}", ecosystem.prefix())).and_then(|name| {
                match version {
                    Some("") => Err(NameError::Package {
                        input: arg.to_string(),
                        reason: "the version after the separator is empty".into(),
                    }),
                    _ => Ok(EcosystemSpec {
                        ecosystem,
                        name,
                        version: version.map(str::to_string),
                    }),
                }
            });
        Some(parsed)
    }

    /// The package's name in its own ecosystem (`@scope/x`, `mcp-server-time`).
    pub fn native_name(&self) -> String {
        self.name.native_name()
    }

    /// An image's full reference (`ghcr.io/acme/x:1.2`, `x@sha256:…`, `x:1.2@sha256:…`);
    /// the name alone for other ecosystems.
    pub fn native_reference(&self) -> String {
        let name = self.native_name();
        match &self.version {
            Some(v) if v.starts_with("sha256:") => format!("{name}@{v}"),
            Some(v) => format!("{name}:{v}"),
            None => name,
        }
    }
}

/// An npm spec's version part: a semver version or range (`1.2.3`, `^1`, `>=1 <2`) or a
/// dist-tag (`latest`, `next`). npm would also take a URL, a `git+…` or `file:` spec or an
/// alias, and fetch from any host, run git or read a local folder for it.
fn check_npm_version(version: &str) -> Result<(), String> {
    let dist_tag = version.starts_with(|c: char| c.is_ascii_alphabetic())
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    // The range parser skips what it does not know (`1 ; touch x` parses), so each word
    // must look like a comparator first: operators, then a version or `x`/`*`.
    let comparator = |word: &str| {
        let rest = word.trim_start_matches(['<', '>', '=', '~', '^']);
        let rest = rest.strip_prefix(['v', 'V']).unwrap_or(rest);
        rest.starts_with(|c: char| c.is_ascii_digit() || matches!(c, 'x' | 'X' | '*'))
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '*'))
    };
    let words: Vec<&str> = version.split_whitespace().collect();
    let range = !words.is_empty()
        && words.iter().enumerate().all(|(i, word)| {
            comparator(word)
                || (matches!(*word, "||" | "-") && i > 0 && i + 1 < words.len())
                || word.split("||").all(|w| w.is_empty() || comparator(w)) && !word.starts_with('|')
        });
    if dist_tag || (range && nodejs_semver::Range::parse(version).is_ok()) {
        Ok(())
    } else {
        Err(format!(
            "`{version}` is not a semver version, range or dist-tag; agx installs npm packages \
             from the npm registry only (e.g. `npm:name@1.2.3`, `npm:name@^1`, `npm:name@next`)"
        ))
    }
}

/// A PyPI spec's version part (after `==`): a PEP 440 version, or a prefix with `.*`. pip
/// would read anything after it (`; marker`, `@ URL`) as more of the requirement.
fn check_pypi_version(version: &str) -> Result<(), String> {
    use std::str::FromStr;
    let plain = version.trim() == version && !version.starts_with('-');
    if plain && pep440_rs::VersionSpecifier::from_str(&format!("=={version}")).is_ok() {
        Ok(())
    } else {
        Err(format!(
            "`{version}` is not a PEP 440 version; give one like `pypi:name==1.2.3` (or \
             `==1.2.*`), without markers, URLs or spaces"
        ))
    }
}

impl fmt::Display for EcosystemSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = match &self.ecosystem {
            Ecosystem::Npm => "@",
            Ecosystem::Pypi => "==",
            Ecosystem::Oci => return write!(f, "oci:{}", self.native_reference()),
            Ecosystem::Mcpb(bundle) => return f.write_str(&bundle.origin),
        };
        write!(f, "{}:{}", self.ecosystem.prefix(), self.native_name())?;
        if let Some(v) = &self.version {
            write!(f, "{sep}{v}")?;
        }
        Ok(())
    }
}

/// Who built a provisioned package, as far as its source tells (docs/ecosystem.md,
/// "Provenance by source kind").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum BuiltBy {
    /// Its source kind publishes no provenance agx reads (yet).
    #[default]
    NotChecked,
    /// Checked: the signer its attestation proved, or `None` when its registry serves none
    /// for this version (unsigned).
    Checked(Option<agx_provenance::Signer>),
}

/// What may run at install time (both default to nothing), and what to prefer.
#[derive(Debug, Clone, Default)]
pub struct ProvisionOptions {
    /// Run npm install scripts (`preinstall`, `postinstall`, …).
    pub allow_scripts: bool,
    /// Let pip build source distributions (which runs their build code).
    pub allow_sdist: bool,
    /// For an MCP registry entry: which of its packages or remotes to install.
    pub prefer: Option<Prefer>,
    /// Start each installed server that keeps a compile cache once, to fill it
    /// (`agx_ops::warm`).
    pub warm: bool,
    /// The signer trust on first use recorded for the package: among several signatures of
    /// an image, its own is preferred (the installer fills it in).
    pub trusted: Option<agx_provenance::Signer>,
}

/// npm's install scripts of a provisioned package, allowed (`--allow-scripts`) and held
/// back: npm installs with `--ignore-scripts`, so that nothing of the package runs before
/// its provenance, the signer trust on first use expects and the policy have been checked.
#[derive(Debug, Clone)]
pub struct InstallScripts {
    spec: EcosystemSpec,
}

impl InstallScripts {
    fn new(spec: EcosystemSpec) -> InstallScripts {
        InstallScripts { spec }
    }

    /// Run them in the provisioned package folder `dir`.
    pub fn run(&self, dir: &Path) -> Result<(), EcosystemError> {
        npm::run_install_scripts(&self.spec, dir)
    }
}

/// A provisioned package folder in staging, ready for the store to commit.
#[derive(Debug)]
pub struct Provisioned {
    /// The package folder (with the generated `agx.toml`).
    pub dir: PathBuf,
    pub version: semver::Version,
    /// The exact spec installed: `npm:@scope/x@1.2.3`, `pypi:mcp-server-time==2025.9.25`.
    pub exact: String,
    /// Integrity of what was installed: npm's `integrity` of the package, or the sha256 of
    /// every wheel (`name==version sha256:HEX`).
    pub integrity: Vec<String>,
    /// The MCP registry entry it was installed from, if any.
    pub origin: Option<EntryOrigin>,
    /// Where npm or pip fetched the package from (see [`served_by`]).
    pub served_by: Option<String>,
    /// Who built it, as far as its source tells.
    pub built_by: BuiltBy,
    /// npm's install scripts (`--allow-scripts`), not run yet: the installer runs them once
    /// it has accepted the package.
    pub install_scripts: Option<InstallScripts>,
    /// For the user: what was read leniently (see [`PackageExtras::warnings`]).
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum EcosystemError {
    #[error("{what} is needed to install {spec} but was not found on PATH")]
    MissingRuntime {
        what: &'static str,
        spec: String,
        install: &'static str,
    },
    #[error("{spec}: {detail}")]
    NotFound { spec: String, detail: String },
    #[error("`{command}` failed for {spec}: {detail}")]
    Failed {
        spec: String,
        command: String,
        detail: String,
    },
    #[error("{spec}: {detail}")]
    NoLaunch { spec: String, detail: String },
    #[error("{spec}: version `{version}` cannot be written as a semver version")]
    Version { spec: String, version: String },
    /// A bundle agx refuses (a bad manifest, a missing file); `hint` says how to fix it.
    #[error("{bundle}: {detail}")]
    Bundle {
        bundle: String,
        detail: String,
        hint: String,
    },
    #[error("{bundle}: the sha256 is {actual}, not the expected {expected}")]
    Sha256Mismatch {
        bundle: String,
        expected: String,
        actual: String,
    },
    #[error(transparent)]
    Archive(#[from] agx_archive::ArchiveError),
    #[error("cannot download {url}")]
    Download {
        url: String,
        #[source]
        source: Box<crate::index::IndexError>,
    },
    /// npm or pip ran past agx's download deadline and was killed, with what it started.
    #[error("{spec}: `{command}` did not finish within {} s and was stopped", .deadline.as_secs_f64())]
    Deadline {
        spec: String,
        command: String,
        deadline: std::time::Duration,
    },
    /// A limit in the environment (`AGX_HTTP_DEADLINE`) that does not parse.
    #[error(transparent)]
    Limits(Box<crate::index::IndexError>),
    /// The package's provenance attestation was served and does not verify.
    #[error("{spec}: provenance refused: {error}")]
    Provenance {
        spec: String,
        error: agx_provenance::ProvenanceError,
    },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl agx_core::error::Hint for EcosystemError {
    fn hint(&self) -> Option<String> {
        match self {
            EcosystemError::MissingRuntime { install, .. } => Some((*install).into()),
            EcosystemError::NotFound { .. } => Some(
                "check the spelling and the version (npm: `npm view <name> versions`; PyPI: https://pypi.org/project/<name>/)"
                    .into(),
            ),
            EcosystemError::Failed {
                command, detail, ..
            } => credential_hint(command, detail),
            EcosystemError::NoLaunch { .. } => Some(
                "agx runs npm packages through a `bin` entry and PyPI packages through a console script, and installs a package without one for the skills it ships (`skills/<name>/SKILL.md` in an npm package, `PACKAGE/skills/<name>/SKILL.md` in a wheel); this package has neither".into(),
            ),
            EcosystemError::Bundle { hint, .. } => Some(hint.clone()),
            EcosystemError::Sha256Mismatch { .. } => Some(
                "the file is not the one published: download it again, or check the sha256 you were given".into(),
            ),
            EcosystemError::Archive(agx_archive::ArchiveError::Unsafe { .. }) => Some(
                "a bundle may hold only regular files and folders inside it; rebuild it with \
                 `mcpb pack`, or ask its publisher for a clean one"
                    .into(),
            ),
            EcosystemError::Archive(e) => agx_core::error::Hint::hint(e),
            EcosystemError::Download { source, .. } => agx_core::error::Hint::hint(source.as_ref()),
            EcosystemError::Deadline { .. } => Some(
                "its registry did not answer in time (npm and pip retry an unreachable one for \
                 minutes): check the network and npm's or pip's registry settings, or set \
                 AGX_HTTP_DEADLINE (seconds, default 600) higher for a slow one"
                    .into(),
            ),
            EcosystemError::Limits(source) => agx_core::error::Hint::hint(source.as_ref()),
            EcosystemError::Provenance { error, .. } => agx_core::error::Hint::hint(error),
            EcosystemError::Version { .. } | EcosystemError::Io(_) => None,
        }
    }
}

/// Provision `spec` into a new folder under `stage`: nothing outside `stage` changes.
pub fn provision(
    spec: &EcosystemSpec,
    stage: &Path,
    options: ProvisionOptions,
) -> Result<Provisioned, EcosystemError> {
    let dir = stage.join("package");
    fs_err::create_dir_all(&dir)?;
    let (launch, mut extras) = match &spec.ecosystem {
        Ecosystem::Npm => (npm::provision(spec, &dir)?, PackageExtras::default()),
        Ecosystem::Pypi => (
            pypi::provision(spec, &dir, &options)?,
            PackageExtras::default(),
        ),
        Ecosystem::Oci => (
            oci::provision(spec, &dir, options.trusted.as_ref())?,
            PackageExtras::default(),
        ),
        Ecosystem::Mcpb(bundle) => mcpb::provision(spec, bundle, &dir)?,
    };
    if let Some(shipped) = &launch.skills {
        let (names, left_out) =
            agx_model::skills::wrap::carry(&shipped.base, shipped.folders.clone(), &dir)?;
        extras.skills = names;
        extras.warnings.extend(left_out.into_iter().map(|l| {
            format!(
                "left out the skill {} of {spec}: {} (clients could not load it)",
                l.folder, l.why
            )
        }));
    }
    write_package(
        spec,
        &dir,
        &launch.version,
        launch.description.as_deref(),
        launch.server,
        &extras,
    )?;
    Ok(Provisioned {
        dir,
        version: launch.version,
        exact: launch.exact,
        integrity: launch.integrity,
        served_by: launch.served_by,
        built_by: launch.built_by,
        install_scripts: (spec.ecosystem == Ecosystem::Npm && options.allow_scripts)
            .then(|| InstallScripts::new(spec.clone())),
        origin: None,
        warnings: extras.warnings,
    })
}

/// Why a package of `spec`'s ecosystem declares no server agx can run.
fn declares_no_server(spec: &EcosystemSpec) -> String {
    match spec.ecosystem {
        Ecosystem::Pypi => "it declares no console script".into(),
        _ => "its package.json declares no `bin`".into(),
    }
}

/// What an ecosystem provisioner found: the exact version, how to start the server and the
/// skills the package ships.
struct Launch {
    version: semver::Version,
    exact: String,
    integrity: Vec<String>,
    /// Where the package's files came from ([`served_by`]).
    served_by: Option<String>,
    built_by: BuiltBy,
    description: Option<String>,
    /// The server it wraps; `None` when it declares none (no `bin`, no console script),
    /// which is an error only for a package that ships no skills either; an error when the
    /// one it declares cannot run (a missing file, several none of which is picked).
    server: Result<Option<WrappedServer>, EcosystemError>,
    /// The skill folders it ships, if it can ship any (npm and PyPI packages).
    skills: Option<ShippedSkills>,
}

/// The one server of a generated package: its name (the bin or console script it runs) and
/// its program and arguments, paths relative to the package folder.
struct WrappedServer {
    name: ItemName,
    command: Vec<String>,
}

/// Skill folders a package ships: `folders` relative to `base`, a folder of the provisioned
/// package (`node_modules/NAME`, a venv's `site-packages`).
struct ShippedSkills {
    base: PathBuf,
    folders: Vec<String>,
}

/// The registry that served a package: the `scheme://host[:port]/` of the URL npm or pip
/// downloaded it from. Only that: user and password, and a path, which some registries
/// put a token in (`https://npm-proxy.fury.io/TOKEN/…`), are never recorded. `None` for what
/// is not an http(s) URL.
fn served_by(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let host = parsed.host_str()?;
    Some(match parsed.port() {
        Some(port) => format!("{}://{host}:{port}/", parsed.scheme()),
        None => format!("{}://{host}/", parsed.scheme()),
    })
}

/// What some ecosystems add to the generated package beyond [`Launch`] (a bundle's
/// `user_config` settings and metadata).
#[derive(Debug, Default)]
pub struct PackageExtras {
    /// `[extension.settings]`, keyed by setting key.
    pub(crate) settings: toml::Table,
    /// The server's description, when it says more than the package's.
    pub(crate) server_description: Option<String>,
    /// More `.agxignore` lines: folders of foreign files validation must not judge.
    pub(crate) ignore: Vec<String>,
    pub(crate) license: Option<String>,
    pub(crate) homepage: Option<String>,
    pub(crate) repository: Option<String>,
    pub(crate) keywords: Vec<String>,
    /// For the user, about what was read leniently (a bundle's string defaults).
    pub(crate) warnings: Vec<String>,
    /// The skills copied into the package's `skills/` folder, to declare.
    pub(crate) skills: Vec<String>,
}

/// Write `agx.toml`, the wrapped server's definition and the skills it ships. A package
/// with neither a server nor a skill is refused with why it has no server.
fn write_package(
    spec: &EcosystemSpec,
    dir: &Path,
    version: &semver::Version,
    description: Option<&str>,
    server: Result<Option<WrappedServer>, EcosystemError>,
    extras: &PackageExtras,
) -> Result<(), EcosystemError> {
    let description = description
        .map(str::to_string)
        .unwrap_or_else(|| format!("{} from {}", spec.native_name(), spec.ecosystem.prefix()));
    let server = match server? {
        None if extras.skills.is_empty() => {
            // Say why the skills it ships, if any, were not taken either.
            let mut detail = declares_no_server(spec);
            if !extras.warnings.is_empty() {
                detail.push_str(&format!(
                    ", and none of its skills could be carried ({})",
                    extras.warnings.join("; ")
                ));
            }
            return Err(EcosystemError::NoLaunch {
                spec: spec.to_string(),
                detail,
            });
        }
        server => server,
    };
    GeneratedPackage {
        name: &spec.name,
        version,
        description: &description,
        server: server.as_ref().map(|server| GeneratedServer {
            name: &server.name,
            launch: ServerLaunch::Command {
                command: server.command.clone(),
                env: Default::default(),
            },
        }),
        settings: &[],
        extras,
    }
    .write(dir)
}

/// How the one server of a generated package starts: a command run in the package folder,
/// or a remote URL that `agx serve` bridges. Values may hold `${settings.KEY}`.
#[derive(Debug, Clone)]
pub enum ServerLaunch {
    Command {
        command: Vec<String>,
        env: std::collections::BTreeMap<String, String>,
    },
    Remote {
        url: String,
        headers: std::collections::BTreeMap<String, String>,
    },
}

/// An agx package written for a server from another ecosystem: `agx.toml` with its
/// settings, the server's definition, and the skills the package ships
/// ([`PackageExtras::skills`], already copied under `skills/`).
pub struct GeneratedPackage<'a> {
    pub name: &'a PackageName,
    pub version: &'a semver::Version,
    pub description: &'a str,
    /// `None` for a package that only ships skills.
    pub server: Option<GeneratedServer<'a>>,
    pub settings: &'a [agx_model::settings::Setting],
    pub extras: &'a PackageExtras,
}

/// The one server of a [`GeneratedPackage`].
pub struct GeneratedServer<'a> {
    pub name: &'a ItemName,
    pub launch: ServerLaunch,
}

impl GeneratedPackage<'_> {
    pub fn write(&self, dir: &Path) -> Result<(), EcosystemError> {
        let mut manifest = toml::toml! {
            [package]
            name = (self.name.to_string())
            version = (self.version.to_string())
            description = (self.description)

            [extension]
        };
        let extras = self.extras;
        let extension = manifest["extension"]
            .as_table_mut()
            .expect("[extension] is a table");
        if let Some(server) = &self.server {
            extension.insert("servers".into(), vec![server.name.as_str()].into());
        }
        if !extras.skills.is_empty() {
            extension.insert("skills".into(), extras.skills.clone().into());
        }
        let package = manifest["package"].as_table_mut().expect("written above");
        for (key, value) in [
            ("license", &extras.license),
            ("homepage", &extras.homepage),
            ("repository", &extras.repository),
        ] {
            if let Some(value) = value {
                package.insert(key.into(), value.clone().into());
            }
        }
        if !extras.keywords.is_empty() {
            package.insert("keywords".into(), extras.keywords.clone().into());
        }
        if !self.settings.is_empty() || !extras.settings.is_empty() {
            let mut table = extras.settings.clone();
            for setting in self.settings {
                let mut value = toml::Table::try_from(setting)
                    .map_err(|e| std::io::Error::other(e.to_string()))?;
                value.remove("key");
                table.insert(setting.key.clone(), value.into());
            }
            manifest["extension"]
                .as_table_mut()
                .expect("[extension] is a table")
                .insert("settings".into(), table.into());
        }
        fs_err::write(dir.join("agx.toml"), manifest.to_string())?;
        // The installed dependencies are npm's and pip's (or the bundle's), not agx package
        // files: validation would refuse their links (`node_modules/.bin`, the venv's `lib64`).
        let mut ignore = String::from("/node_modules/\n/venv/\n");
        for line in &extras.ignore {
            ignore.push_str(line);
            ignore.push('\n');
        }
        fs_err::write(dir.join(".agxignore"), ignore)?;
        let Some(generated) = &self.server else {
            return Ok(());
        };
        let description = extras
            .server_description
            .as_deref()
            .unwrap_or(self.description);
        let mut server = toml::toml! {
            name = (generated.name.as_str())
            description = (description)
        };
        match &generated.launch {
            ServerLaunch::Command { command, env } => {
                server.insert("command".into(), command.clone().into());
                if !env.is_empty() {
                    server.insert("env".into(), toml::Value::try_from(env).expect("strings"));
                }
            }
            ServerLaunch::Remote { url, headers } => {
                server.insert("url".into(), url.clone().into());
                if !headers.is_empty() {
                    server.insert(
                        "headers".into(),
                        toml::Value::try_from(headers).expect("strings"),
                    );
                }
            }
        }
        let servers = dir.join("agx").join("servers");
        fs_err::create_dir_all(&servers)?;
        fs_err::write(
            servers.join(format!("{}.toml", generated.name.as_str())),
            server.to_string(),
        )?;
        Ok(())
    }
}

/// Run `command` as [`std::process::Command::output`] does (stdin closed), for at most
/// `AGX_HTTP_DEADLINE`, the deadline of agx's own downloads: npm and pip reach registries
/// of their own and retry an unreachable one for minutes. At the deadline the command and
/// every process it started are killed. A spawn error (a missing program) is returned as
/// it is, for the caller to name.
fn output_within_deadline(
    spec: &EcosystemSpec,
    command: &mut Command,
) -> Result<Result<Output, std::io::Error>, EcosystemError> {
    use agx_core::process_tree::spawn_tree;
    use agx_model::manifest::probe::read_in_background;
    use std::process::Stdio;
    let deadline = crate::index::HttpLimits::from_env()
        .map_err(|e| EcosystemError::Limits(Box::new(e)))?
        .deadline;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = std::time::Instant::now();
    let (mut child, tree) = match spawn_tree(command) {
        Ok(spawned) => spawned,
        Err(e) => return Ok(Err(e)),
    };
    let stdout = read_in_background(child.stdout.take());
    let stderr = read_in_background(child.stderr.take());
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() >= deadline {
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let Some(status) = status else {
        tree.kill(&mut child);
        let _ = child.wait();
        let shown = std::iter::once(command.get_program())
            .chain(command.get_args())
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ");
        return Err(EcosystemError::Deadline {
            spec: spec.to_string(),
            command: shown,
            deadline,
        });
    };
    Ok(Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }))
}

/// Run `program` with `args` (within the deadline of [`output_within_deadline`]); a
/// missing program is `missing`, a failure keeps the last lines of its error output.
fn run(
    spec: &EcosystemSpec,
    program: &str,
    args: &[&str],
    cwd: &Path,
    missing: impl Fn() -> EcosystemError,
) -> Result<Output, EcosystemError> {
    let output = output_within_deadline(spec, Command::new(program).args(args).current_dir(cwd))?
        .map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            missing()
        } else {
            e.into()
        }
    })?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(EcosystemError::Failed {
            spec: spec.to_string(),
            command: format!("{program} {}", args.join(" ")),
            detail: tail(&output.stderr),
        })
    }
}

/// Which credential to set when npm, pip or uv failed because a private registry or index
/// answered 401 or 403 (docs/ecosystem.md, "Private registries"): agx runs them with the
/// user's own settings, so the credential goes where those tools read it.
fn credential_hint(command: &str, detail: &str) -> Option<String> {
    let lower = detail.to_ascii_lowercase();
    let refused = [
        "e401",
        "e403",
        " 401",
        " 403",
        "unauthorized",
        "forbidden",
        "authentication",
    ]
    .iter()
    .any(|sign| lower.contains(sign));
    if !refused {
        return None;
    }
    Some(if command.starts_with("npm") {
        "the npm registry wants credentials: add a token for it to your ~/.npmrc (`//HOST/:_authToken=…`, as `npm login --registry URL` writes it), or to the project's .npmrc; agx runs npm with your settings, so what works for `npm install` works here".into()
    } else {
        "the package index wants credentials: give them as pip and uv read them (an index URL with them in `PIP_INDEX_URL`/`UV_INDEX_URL` or pip.conf, a `~/.netrc` entry for the host, or the keyring); agx runs them with your settings, so what works for `pip install` works here".into()
    })
}

/// The last few lines of a tool's error output, for an error message.
fn tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(6);
    lines[start..].join("\n")
}

/// A server name from a bin or script name: its characters outside the item-name alphabet
/// become `-`.
fn server_name(spec: &EcosystemSpec, raw: &str) -> Result<ItemName, EcosystemError> {
    server_name_from(&spec.to_string(), raw)
}

/// [`server_name`] for what `what` names in errors.
pub(crate) fn server_name_from(what: &str, raw: &str) -> Result<ItemName, EcosystemError> {
    let cleaned: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    ItemName::parse(cleaned.trim_start_matches(['-', '.'])).map_err(|e| EcosystemError::NoLaunch {
        spec: what.to_string(),
        detail: e.to_string(),
    })
}

/// A version as semver: PEP 440 and npm versions with fewer than three parts are padded
/// (`1.0` → `1.0.0`), and a PEP 440 pre-release suffix becomes a semver one (`1.0rc1` →
/// `1.0.0-rc1`).
fn to_semver(spec: &EcosystemSpec, version: &str) -> Result<semver::Version, EcosystemError> {
    if let Ok(v) = semver::Version::parse(version) {
        return Ok(v);
    }
    let bad = || EcosystemError::Version {
        spec: spec.to_string(),
        version: version.to_string(),
    };
    let release_end = version
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(version.len());
    let (release, suffix) = version.split_at(release_end);
    let mut parts: Vec<&str> = release.split('.').filter(|p| !p.is_empty()).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    while parts.len() < 3 {
        parts.push("0");
    }
    let suffix = suffix.trim_start_matches(['.', '-', '_']);
    let text = if suffix.is_empty() {
        parts.join(".")
    } else {
        format!("{}-{suffix}", parts.join("."))
    };
    semver::Version::parse(&text).map_err(|_| bad())
}

impl From<EcosystemError> for agx_store::StoreError {
    fn from(e: EcosystemError) -> Self {
        agx_store::StoreError::Upstream(agx_core::error::Upstream::new(e))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_registry_that_served_a_package_is_recorded_without_credentials() {
        let npm = "https://registry.npmjs.org/@acme/x/-/x-1.0.0.tgz";
        assert_eq!(
            served_by(npm).as_deref(),
            Some("https://registry.npmjs.org/")
        );
        let private = "https://ci:s3cret@npm.corp.example:8443/npm/x/-/x-1.0.0.tgz?token=abc#f";
        assert_eq!(
            served_by(private).as_deref(),
            Some("https://npm.corp.example:8443/")
        );
        // A token in the path stays out too.
        let fury = "https://npm-proxy.fury.io/Tok3n/acme/x/-/x-1.0.0.tgz";
        assert_eq!(
            served_by(fury).as_deref(),
            Some("https://npm-proxy.fury.io/")
        );
        let wheel = "https://files.pythonhosted.org/packages/ab/cd/x-1.0-py3-none-any.whl";
        assert_eq!(
            served_by(wheel).as_deref(),
            Some("https://files.pythonhosted.org/")
        );
        assert_eq!(served_by("file:///tmp/x.tgz"), None);
        assert_eq!(served_by("not a url"), None);
    }

    #[test]
    fn a_refused_download_says_which_credential_to_set() {
        let npm = super::credential_hint(
            "npm pack --json -- @acme/private@latest",
            "npm error code E401\nnpm error Unable to authenticate, need: Basic realm=\"npm\"",
        )
        .unwrap();
        assert!(npm.contains(".npmrc"), "{npm}");
        let pip = super::credential_hint(
            "uv pip install acme-private",
            "error: Failed to fetch: `https://pypi.acme.example/simple/acme-private/`\n  Caused by: HTTP status client error (401 Unauthorized)",
        )
        .unwrap();
        assert!(pip.contains("UV_INDEX_URL"), "{pip}");
        assert_eq!(
            super::credential_hint("npm pack", "npm error code E404"),
            None
        );
    }

    use super::*;

    fn spec(arg: &str) -> EcosystemSpec {
        EcosystemSpec::parse(arg).expect("prefixed").expect("valid")
    }

    #[test]
    fn an_oci_registry_source_is_not_an_image_spec() {
        assert!(EcosystemSpec::parse("oci://127.0.0.1:5000/corp").is_none());
        assert_eq!(
            spec("oci:ghcr.io/acme/x:1").native_reference(),
            "ghcr.io/acme/x:1"
        );
    }

    #[test]
    fn npm_specs_split_the_version_after_the_scope() {
        let s = spec("npm:@modelcontextprotocol/server-everything@2025.9.25");
        assert_eq!(
            s.name.to_string(),
            "npm/@modelcontextprotocol/server-everything"
        );
        assert_eq!(s.native_name(), "@modelcontextprotocol/server-everything");
        assert_eq!(s.version.as_deref(), Some("2025.9.25"));
        let s = spec("npm:@scope/x");
        assert_eq!(s.version, None);
        assert_eq!(spec("npm:left-pad@^1").version.as_deref(), Some("^1"));
    }

    #[test]
    fn pypi_specs_normalize_the_name() {
        let s = spec("pypi:MCP_Server.Time==2025.9.25");
        assert_eq!(s.name.to_string(), "pypi/mcp-server-time");
        assert_eq!(s.to_string(), "pypi:mcp-server-time==2025.9.25");
    }

    #[test]
    fn bad_specs_are_refused() {
        assert!(EcosystemSpec::parse("acme/x").is_none());
        assert!(EcosystemSpec::parse("npm:").unwrap().is_err());
        assert!(EcosystemSpec::parse("npm:x@").unwrap().is_err());
        assert!(EcosystemSpec::parse("npm:UPPER").unwrap().is_err());
        assert!(EcosystemSpec::parse("pypi:a b").unwrap().is_err());
    }

    #[test]
    fn npm_versions_are_semver_versions_ranges_or_dist_tags() {
        for good in [
            "1.2.3",
            "^1",
            "~1.2",
            ">=1 <2",
            "1.x",
            "1.2.3 - 2.0.0",
            "^1 || ^2",
            "*",
            "latest",
            "next",
            "beta",
            "1.0.0-rc.1",
        ] {
            assert!(
                EcosystemSpec::parse(&format!("npm:x@{good}"))
                    .unwrap()
                    .is_ok(),
                "{good}"
            );
        }
        for bad in [
            "https://evil.example/x.tgz",
            "git+https://evil.example/x.git",
            "git+ssh://git@evil.example:x.git",
            "file:../x",
            "github:user/repo",
            "npm:other",
            "user/repo#main",
            "--registry=http://evil.example",
            "-x",
            "latest with space",
            "1 ; touch x",
        ] {
            let err = EcosystemSpec::parse(&format!("npm:x@{bad}"))
                .unwrap()
                .unwrap_err();
            assert!(
                err.to_string()
                    .contains("is not a semver version, range or dist-tag"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn pypi_versions_are_pep_440_versions() {
        for good in [
            "1.2.3",
            "2025.9.25",
            "1.0rc1",
            "1!2.0",
            "1.0.post1",
            "1.0.dev3",
            "1.2.*",
        ] {
            assert!(
                EcosystemSpec::parse(&format!("pypi:x=={good}"))
                    .unwrap()
                    .is_ok(),
                "{good}"
            );
        }
        for bad in [
            "1; touch x",
            "1 ; python_version > '3'",
            "1 @ https://evil.example/x.whl",
            "--index-url=http://evil.example",
            "-r",
            " 1",
            "latest",
            ">=1",
        ] {
            let err = EcosystemSpec::parse(&format!("pypi:x=={bad}"))
                .unwrap()
                .unwrap_err();
            assert!(
                err.to_string().contains("is not a PEP 440 version"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn versions_become_semver() {
        let s = spec("pypi:x");
        assert_eq!(to_semver(&s, "2025.9.25").unwrap().to_string(), "2025.9.25");
        assert_eq!(to_semver(&s, "1.0").unwrap().to_string(), "1.0.0");
        assert_eq!(to_semver(&s, "1.0rc1").unwrap().to_string(), "1.0.0-rc1");
        assert!(to_semver(&s, "1.2.3.4").is_err());
    }
}
