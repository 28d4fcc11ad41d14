//! Install a server listed in an MCP registry (`agx install io.github.user/weather[@1.2.0]`):
//! pick one of its `packages[]` or `remotes[]` (see [`choose`]), provision it with the npm,
//! PyPI, OCI or MCPB code at the exact version the entry names (see `entry_package`), and
//! write a package that keeps the
//! registry name, with one server and the entry's inputs as settings named as written.
//! See docs/ecosystem.md, "Installing from an MCP registry".

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::entry_launch::{entry_version, remote_launch, runtime_arguments_apply};
use super::{
    EcosystemError, EcosystemSpec, GeneratedPackage, ProvisionOptions, Provisioned, ServerLaunch,
    entry_package, oci,
};
use crate::index::mcp_registry::server_json::{Package, Transport};
use crate::index::mcp_registry::{RegistryServer, ServerJson, Status, is_server_name};
use agx_core::name::{NameError, PackageName};
use agx_store::EntryOrigin;

/// `io.github.user/weather[@version]` as typed: a registry name and an exact server.json
/// version (none: the latest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntrySpec {
    pub name: PackageName,
    pub version: Option<String>,
}

impl EntrySpec {
    /// `None` when `arg` is not a registry server name (an agx name, a path).
    pub fn parse(arg: &str) -> Option<Result<EntrySpec, NameError>> {
        let (name, version) = match arg.split_once('@') {
            Some((name, version)) => (name, Some(version)),
            None => (arg, None),
        };
        if !is_server_name(name) || Path::new(arg).exists() {
            return None;
        }
        Some(match version {
            Some("") => Err(NameError::Package {
                input: arg.to_string(),
                reason: "the version after `@` is empty".into(),
            }),
            _ => PackageName::parse(name).map(|name| EntrySpec {
                name,
                version: version.map(str::to_string),
            }),
        })
    }
}

impl fmt::Display for EntrySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        if let Some(v) = &self.version {
            write!(f, "@{v}")?;
        }
        Ok(())
    }
}

/// What `--prefer` may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Prefer {
    Npm,
    Pypi,
    Oci,
    Mcpb,
    Remote,
}

impl Prefer {
    pub const ALL: [&'static str; 5] = ["npm", "pypi", "oci", "mcpb", "remote"];

    pub fn parse(s: &str) -> Option<Prefer> {
        Some(match s {
            "npm" => Prefer::Npm,
            "pypi" => Prefer::Pypi,
            "oci" => Prefer::Oci,
            "mcpb" => Prefer::Mcpb,
            "remote" => Prefer::Remote,
            _ => return None,
        })
    }

    fn of_package(package: &Package) -> Option<Prefer> {
        Prefer::parse(&package.registry_type)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Prefer::Npm => "npm",
            Prefer::Pypi => "pypi",
            Prefer::Oci => "oci",
            Prefer::Mcpb => "mcpb",
            Prefer::Remote => "remote",
        }
    }
}

/// A project lock's entry source read back (see [`EntryOrigin::lock_source`]): the
/// registry's base URL, the entry at its exact version, and the kind to choose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedEntry {
    pub registry: String,
    pub spec: EntrySpec,
    pub prefer: Option<Prefer>,
}

impl LockedEntry {
    /// `None` when `source` is not an entry's API URL.
    pub fn parse(source: &str) -> Option<Result<LockedEntry, NameError>> {
        let (registry, rest) = source.split_once("/v0.1/servers/")?;
        if !registry.contains("://") {
            return None;
        }
        let (rest, kind) = rest.split_once('#').unwrap_or((rest, ""));
        let (name, version) = rest.rsplit_once("/versions/")?;
        let name = name.replace("%2F", "/").replace("%2f", "/");
        Some(PackageName::parse(&name).map(|name| LockedEntry {
            registry: registry.to_string(),
            spec: EntrySpec {
                name,
                version: Some(version.to_string()),
            },
            prefer: Prefer::parse(kind),
        }))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    #[error("{server} is deleted from {registry}{}", message(.status_message))]
    Deleted {
        server: String,
        registry: String,
        status_message: Option<String>,
    },
    #[error("{server} has no {wanted} package or remote (it offers: {offered})")]
    NotOffered {
        server: String,
        wanted: &'static str,
        offered: String,
    },
    #[error("{server} offers only {offered}, which agx cannot install yet")]
    Unsupported { server: String, offered: String },
    #[error("{server} offers nothing to install: no packages and no remotes")]
    Empty { server: String },
    #[error(
        "{server}: its remote {url} uses SSE, which agx cannot bridge (rmcp, the MCP library agx is built on, offers no SSE client)"
    )]
    Sse { server: String, url: String },
    #[error("{server}: no version `{version}` in {registry}")]
    NoSuchVersion {
        server: String,
        version: String,
        registry: String,
    },
    #[error("{server}: version `{version}` cannot be written as a semver version")]
    Version { server: String, version: String },
    #[error("{server} lists the bundle {bundle} without its `fileSha256`")]
    NoSha256 { server: String, bundle: String },
}

fn message(status: &Option<String>) -> String {
    status
        .as_ref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default()
}

impl agx_core::error::Hint for EntryError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            EntryError::Deleted { .. } => {
                "a deleted server is not offered any more; `agx search` shows what is".into()
            }
            EntryError::NotOffered { .. } => {
                "leave out --prefer, or choose one of the kinds it offers".into()
            }
            EntryError::Unsupported { .. } => {
                "choose a server that offers an npm, PyPI, OCI or MCPB package or a Streamable HTTP remote".into()
            }
            EntryError::Empty { .. } => "ask its publisher to list a package or a remote".into(),
            EntryError::Sse { .. } => {
                "choose another of its packages or remotes with --prefer, if it offers one".into()
            }
            EntryError::NoSuchVersion { server, .. } => {
                format!("`agx info {server}` shows its latest version; leave out `@version` to install that")
            }
            EntryError::Version { .. } => return None,
            EntryError::NoSha256 { .. } => {
                "agx installs a bundle only against the sha256 its publisher lists: ask them to add `fileSha256`, or choose another of its packages with --prefer".into()
            }
        })
    }
}

/// The part of an entry to install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Package(usize),
    Remote(usize),
}

/// An entry with its choice, ready to provision; `warnings` are for the user (deprecation,
/// ignored runtime arguments).
#[derive(Debug, Clone)]
pub struct Planned {
    pub entry: RegistryServer,
    pub registry: String,
    pub choice: Choice,
    pub warnings: Vec<String>,
    /// For an OCI package: its image, pinned to a digest by [`pin`] when a daemon answered.
    pub image: Option<EcosystemSpec>,
}

/// Pick what to install. Without `prefer`: the first stdio package, in the order npm, pypi,
/// oci, mcpb, whose runtime `has_program` finds (node; python3; docker or podman), then a
/// Streamable HTTP remote, then any package (whose provisioning names what to install).
/// With `prefer`: the first package or remote of that kind, else an error.
pub fn choose(
    entry: RegistryServer,
    registry: &str,
    prefer: Option<Prefer>,
    has_program: &dyn Fn(&str) -> bool,
) -> Result<Planned, EntryError> {
    let server = &entry.server;
    if entry.status == Status::Deleted {
        return Err(EntryError::Deleted {
            server: server.name.clone(),
            registry: registry.to_string(),
            status_message: entry.status_message.clone(),
        });
    }
    let mut warnings = Vec::new();
    if entry.status == Status::Deprecated {
        warnings.push(format!(
            "{} is deprecated{}",
            server.name,
            message(&entry.status_message)
        ));
    }
    // agx runs a local package over stdio; one that serves HTTP itself is not offered.
    let kinds: Vec<Option<Prefer>> = server
        .packages
        .iter()
        .map(|p| Prefer::of_package(p).filter(|_| p.transport == Some(Transport::Stdio)))
        .collect();
    let package_of = |kind: Prefer| kinds.iter().position(|k| *k == Some(kind));
    let streamable = server
        .remotes
        .iter()
        .position(|r| matches!(r, Transport::StreamableHttp { .. }));
    let remote = streamable.or(if server.remotes.is_empty() {
        None
    } else {
        Some(0)
    });
    let runtime_present = |kind: Prefer| match kind {
        Prefer::Npm => has_program("node"),
        Prefer::Pypi => has_program("python3"),
        Prefer::Oci => has_program("docker") || has_program("podman"),
        Prefer::Mcpb | Prefer::Remote => true,
    };
    let local_order = [Prefer::Npm, Prefer::Pypi, Prefer::Oci, Prefer::Mcpb];
    let choice = match prefer {
        Some(Prefer::Remote) => remote.map(Choice::Remote),
        Some(kind) => package_of(kind).map(Choice::Package),
        None => local_order
            .iter()
            .filter(|k| runtime_present(**k))
            .find_map(|k| package_of(*k))
            .map(Choice::Package)
            .or(remote.map(Choice::Remote))
            .or(local_order
                .iter()
                .find_map(|k| package_of(*k))
                .map(Choice::Package)),
    };
    let offered = || {
        let mut all: Vec<String> = server
            .packages
            .iter()
            .map(|p| {
                let transport = p.transport.as_ref().map_or("stdio", Transport::kind);
                format!("{} {} ({transport})", p.registry_type, p.identifier)
            })
            .collect();
        all.extend(
            server
                .remotes
                .iter()
                .map(|r| format!("{} remote", r.kind())),
        );
        all.join(", ")
    };
    let Some(choice) = choice else {
        return Err(match prefer {
            Some(kind) => EntryError::NotOffered {
                server: server.name.clone(),
                wanted: kind.as_str(),
                offered: offered(),
            },
            None if server.packages.is_empty() && server.remotes.is_empty() => EntryError::Empty {
                server: server.name.clone(),
            },
            None => EntryError::Unsupported {
                server: server.name.clone(),
                offered: offered(),
            },
        });
    };
    match choice {
        Choice::Package(i) => {
            let package = &server.packages[i];
            if package.registry_type == "mcpb" && package.file_sha256.is_none() {
                return Err(EntryError::NoSha256 {
                    server: server.name.clone(),
                    bundle: package.identifier.clone(),
                });
            }
            if !package.runtime_arguments.is_empty() && !runtime_arguments_apply(package) {
                warnings.push(format!(
                    "{}: the runtimeArguments for `{}` are left out: agx runs the pinned install directly, not through that runner",
                    server.name,
                    package.runtime_hint.as_deref().unwrap_or("the runtime")
                ));
            }
        }
        Choice::Remote(i) => {
            if let Transport::Sse { url, .. } = &server.remotes[i] {
                return Err(EntryError::Sse {
                    server: server.name.clone(),
                    url: url.clone(),
                });
            }
        }
    }
    Ok(Planned {
        entry,
        registry: registry.to_string(),
        choice,
        warnings,
        image: None,
    })
}

/// For an OCI package: resolve its image to a digest while a container daemon can tell it
/// (see [`oci::pin`]), keeping the tag with a warning when none answers. Other choices are
/// left as they are. Runs before [`provision`], outside staging: it may pull the image.
pub fn pin(planned: &mut Planned) -> Result<(), EcosystemError> {
    let Choice::Package(i) = planned.choice else {
        return Ok(());
    };
    let package = &planned.entry.server.packages[i];
    if package.registry_type != "oci" {
        return Ok(());
    }
    let pinned = oci::pin(&entry_package::image_spec(
        &planned.entry.server.name,
        package,
    )?)?;
    planned.warnings.extend(pinned.warning);
    planned.image = Some(pinned.spec);
    Ok(())
}

/// Whether `program` is an executable file in a folder of `PATH`: how [`choose`] sees
/// which runtimes this machine has.
pub fn on_path(program: &str) -> bool {
    agx_core::paths::find_on_path(program).is_some()
}

/// Provision the planned choice into `stage`: nothing outside `stage` changes.
pub fn provision(
    planned: &Planned,
    stage: &Path,
    options: ProvisionOptions,
) -> Result<Provisioned, EcosystemError> {
    let server = &planned.entry.server;
    let name = PackageName::parse(&server.name).map_err(|e| EcosystemError::NoLaunch {
        spec: server.name.clone(),
        detail: e.to_string(),
    })?;
    let version = entry_version(&server.name, &server.version)?;
    let item = super::server_name_from(
        &server.name,
        server.name.rsplit('/').next().unwrap_or(&server.name),
    )?;
    let dir = stage.join("package");
    fs_err::create_dir_all(&dir)?;
    let mut install_scripts = None;
    let (launch, settings, extras, exact, integrity, served_by, built_by, chosen) =
        match planned.choice {
            Choice::Package(i) => {
                let package = entry_package::provision(
                    &server.name,
                    &server.packages[i],
                    planned.image.as_ref(),
                    stage,
                    &dir,
                    options,
                )?;
                install_scripts = package.install_scripts;
                (
                    package.launch,
                    package.settings,
                    package.extras,
                    package.exact.clone(),
                    package.integrity,
                    package.served_by,
                    package.built_by,
                    package.exact,
                )
            }
            Choice::Remote(i) => {
                let remote = &server.remotes[i];
                let (url, headers) = remote_launch(remote);
                let chosen = format!(
                    "remote:{} {}",
                    remote.kind(),
                    remote.url().unwrap_or_default()
                );
                (
                    ServerLaunch::Remote { url, headers },
                    ServerJson::remote_settings(remote),
                    Default::default(),
                    chosen.clone(),
                    Vec::new(),
                    None,
                    Default::default(),
                    chosen,
                )
            }
        };
    GeneratedPackage {
        name: &name,
        version: &version,
        description: &server.description,
        server: Some(super::GeneratedServer {
            name: &item,
            launch,
        }),
        settings: &settings,
        extras: &extras,
    }
    .write(&dir)?;
    let warnings = extras.warnings;
    Ok(Provisioned {
        dir,
        version,
        exact: format!("{}@{} ({exact})", server.name, server.version),
        integrity,
        served_by,
        built_by,
        install_scripts,
        origin: Some(EntryOrigin {
            registry: planned.registry.clone(),
            server: server.name.clone(),
            version: server.version.clone(),
            chosen,
        }),
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(json: &str) -> RegistryServer {
        RegistryServer {
            server: ServerJson::parse(json.as_bytes(), "test").unwrap(),
            status: Status::Active,
            status_message: None,
        }
    }

    const BOTH: &str = r#"{"name": "io.github.user/weather", "description": "d", "version": "1.0.0",
      "packages": [
        {"registryType": "oci", "identifier": "ghcr.io/u/w", "version": "1.0.0", "transport": {"type": "stdio"}},
        {"registryType": "pypi", "identifier": "weather-mcp", "version": "1.0.0", "transport": {"type": "stdio"}},
        {"registryType": "npm", "identifier": "@u/weather", "version": "1.0.0", "runtimeHint": "npx",
         "runtimeArguments": [{"type": "positional", "value": "-y"}],
         "transport": {"type": "stdio"},
         "packageArguments": [
           {"type": "named", "name": "--units", "default": "metric"},
           {"type": "named", "name": "--max-results"},
           {"type": "positional", "value": "--root={root}", "variables": {"root": {"isRequired": true}}}
         ],
         "environmentVariables": [{"name": "WEATHER_API_KEY", "isSecret": true},
                                  {"name": "MODE", "value": "fast-{tier}", "variables": {"tier": {"default": "a"}}}]}
      ],
      "remotes": [{"type": "sse", "url": "https://w.example/sse"},
                  {"type": "streamable-http", "url": "https://{region}.w.example/mcp",
                   "variables": {"region": {"default": "eu"}},
                   "headers": [{"name": "X-Api-Key", "isSecret": true}, {"name": "Accept-Language", "value": "en"}]}]}"#;

    #[test]
    fn the_preference_follows_what_is_installed() {
        let all = |_: &str| true;
        let none = |_: &str| false;
        let python_only = |p: &str| p == "python3";
        let pick = |prefer, has: &dyn Fn(&str) -> bool| {
            choose(entry(BOTH), "r", prefer, has).map(|p| p.choice)
        };
        assert_eq!(pick(None, &all).unwrap(), Choice::Package(2));
        assert_eq!(pick(None, &python_only).unwrap(), Choice::Package(1));
        assert_eq!(pick(None, &none).unwrap(), Choice::Remote(1));
        assert_eq!(pick(Some(Prefer::Remote), &all).unwrap(), Choice::Remote(1));
        assert!(matches!(
            pick(Some(Prefer::Mcpb), &all),
            Err(EntryError::NotOffered { wanted: "mcpb", .. })
        ));
        assert_eq!(pick(Some(Prefer::Oci), &all).unwrap(), Choice::Package(0));
        let docker_only = |p: &str| p == "docker";
        assert_eq!(pick(None, &docker_only).unwrap(), Choice::Package(0));
    }

    #[test]
    fn packages_that_serve_http_themselves_are_not_offered() {
        let json = r#"{"name": "io.github.user/web", "description": "d", "version": "1.0.0",
          "packages": [{"registryType": "npm", "identifier": "web", "version": "1.0.0",
                        "transport": {"type": "streamable-http", "url": "http://localhost:8080/mcp"}}]}"#;
        let err = choose(entry(json), "r", None, &|_| true).unwrap_err();
        assert!(
            err.to_string()
                .contains("offers only npm web (streamable-http)"),
            "{err}"
        );
    }

    #[test]
    fn deleted_is_refused_and_deprecated_warns() {
        let mut e = entry(BOTH);
        e.status = Status::Deprecated;
        e.status_message = Some("use io.github.user/weather2".into());
        let planned = choose(e.clone(), "r", None, &|_| true).unwrap();
        assert!(planned.warnings[0].contains("deprecated: use io.github.user/weather2"));
        e.status = Status::Deleted;
        let err = choose(e, "r", None, &|_| true).unwrap_err();
        assert!(err.to_string().contains("deleted"), "{err}");
    }

    #[test]
    fn lock_sources_name_the_exact_entry_and_its_kind() {
        let origin = EntryOrigin {
            registry: "http://127.0.0.1:9/".into(),
            server: "io.github.user/weather".into(),
            version: "1.0.2".into(),
            chosen: "pypi:weather-mcp==1.0.2".into(),
        };
        let source = origin.lock_source();
        assert_eq!(
            source,
            "http://127.0.0.1:9/v0.1/servers/io.github.user%2Fweather/versions/1.0.2#pypi"
        );
        let read = LockedEntry::parse(&source).unwrap().unwrap();
        assert_eq!(read.registry, "http://127.0.0.1:9");
        assert_eq!(read.spec.to_string(), "io.github.user/weather@1.0.2");
        assert_eq!(read.prefer, Some(Prefer::Pypi));
        assert!(LockedEntry::parse("https://r.example/agx").is_none());
    }

    #[test]
    fn specs_and_versions() {
        let s = EntrySpec::parse("io.github.user/weather@1.0.2")
            .unwrap()
            .unwrap();
        assert_eq!(s.name.to_string(), "io.github.user/weather");
        assert_eq!(s.version.as_deref(), Some("1.0.2"));
        // The store keeps it under its namespace and reads it back as written.
        assert_eq!(s.name.path_segments(), ("io.github.user", "weather"));
        assert_eq!(
            PackageName::from_path_segments("io.github.user", "weather").unwrap(),
            s.name
        );
        let mixed = EntrySpec::parse("io.GitHub.User/Weather_2")
            .unwrap()
            .unwrap();
        assert_eq!(mixed.name.to_string(), "io.GitHub.User/Weather_2");
        assert!(EntrySpec::parse("acme/weather").is_none());
        assert!(
            EntrySpec::parse("io.github.user/weather@")
                .unwrap()
                .is_err()
        );
        assert_eq!(
            entry_version("x", "2025.09.25").unwrap().to_string(),
            "2025.9.25"
        );
        assert_eq!(entry_version("x", "1.2").unwrap().to_string(), "1.2.0");
        assert!(entry_version("x", "v1").is_err());
    }
}
