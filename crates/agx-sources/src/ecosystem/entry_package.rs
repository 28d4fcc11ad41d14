//! Provisioning the one `packages[]` item of a server.json entry that was chosen: npm and
//! PyPI packages through their provisioners, an OCI image as a `docker run` line, an MCPB
//! bundle downloaded and checked against its `fileSha256`. Each gets the entry's arguments,
//! environment and settings (see [`super::entry_launch`]). See docs/ecosystem.md, "What
//! each field becomes".

use std::collections::BTreeMap;
use std::path::Path;

use super::entry_launch::{argument_elements, fixed_env, package_command, runtime_arguments_apply};
use super::{
    Ecosystem, EcosystemError, EcosystemSpec, PackageExtras, ProvisionOptions, ServerLaunch, mcpb,
    npm, oci, pypi,
};
use crate::index::mcp_registry::ServerJson;
use crate::index::mcp_registry::server_json::Package;
use agx_model::settings::Setting;

/// A provisioned package of an entry: how its server starts, its settings, and what the
/// receipt records.
pub(super) struct EntryPackage {
    pub launch: ServerLaunch,
    pub settings: Vec<Setting>,
    pub extras: PackageExtras,
    /// `npm:…@1.2.3`, `pypi:…==1.2.3`, `oci:<image reference>`, `mcpb:<url>`.
    pub exact: String,
    pub integrity: Vec<String>,
    /// Where npm or pip fetched it from.
    pub served_by: Option<String>,
    pub built_by: super::BuiltBy,
    /// npm's install scripts, left for the installer to run once it accepted the package.
    pub install_scripts: Option<super::InstallScripts>,
}

/// Provision `package` of the entry `server`: files go to `dir` (the package folder), a
/// downloaded bundle to `stage`. `image` is the image reference [`super::registry_entry::pin`]
/// resolved, for an OCI package.
pub(super) fn provision(
    server: &str,
    package: &Package,
    image: Option<&EcosystemSpec>,
    stage: &Path,
    dir: &Path,
    options: ProvisionOptions,
) -> Result<EntryPackage, EcosystemError> {
    let settings = ServerJson::package_settings(package);
    match package.registry_type.as_str() {
        "npm" | "pypi" => {
            let npm = package.registry_type == "npm";
            // The entry pins what it was published with; agx never guesses one.
            let version = package
                .version
                .as_deref()
                .ok_or_else(|| EcosystemError::NotFound {
                    spec: package_label(server, package),
                    detail: "the entry gives no `version` for this package".into(),
                })?;
            let spec = ecosystem_spec(
                server,
                package,
                &format!(
                    "{}:{}{}{version}",
                    package.registry_type,
                    package.identifier,
                    if npm { "@" } else { "==" },
                ),
            )?;
            let provisioned = if npm {
                npm::provision(&spec, dir)?
            } else {
                pypi::provision(&spec, dir, &options)?
            };
            // An entry is a server: a package without one is refused here.
            let server = provisioned
                .server?
                .ok_or_else(|| EcosystemError::NoLaunch {
                    spec: spec.to_string(),
                    detail: super::declares_no_server(&spec),
                })?;
            let command = package_command(package, &server.command);
            let env = fixed_env(package);
            if !npm {
                // Level 0 is compiled; `-O` or PYTHONOPTIMIZE ask for more.
                let python_args = command
                    .iter()
                    .skip(1)
                    .take_while(|a| !a.starts_with("venv/"))
                    .map(String::as_str);
                let levels = pypi::optimization_levels(python_args, &env);
                if !levels.is_empty() {
                    pypi::compile_bytecode(&spec, dir, &levels)?;
                }
            }
            Ok(EntryPackage {
                launch: ServerLaunch::Command { command, env },
                settings,
                extras: PackageExtras::default(),
                exact: provisioned.exact,
                integrity: provisioned.integrity,
                served_by: provisioned.served_by,
                built_by: provisioned.built_by,
                install_scripts: (npm && options.allow_scripts)
                    .then(|| super::InstallScripts::new(spec.clone())),
            })
        }
        "oci" => {
            let spec = match image {
                Some(spec) => spec.clone(),
                None => image_spec(server, package)?,
            };
            let runtime = oci::find_runtime(&spec)?;
            let reference = spec.native_reference();
            let (command, extra_env) = image_command(package, runtime, &reference);
            let mut env = fixed_env(package);
            env.extend(extra_env);
            let digest = oci::split_reference(&reference).digest;
            let integrity = digest.map(|d| vec![d.to_string()]).unwrap_or_default();
            let built_by = match digest {
                Some(digest) => {
                    oci::image_built_by(&spec, &reference, digest, dir, options.trusted.as_ref())?
                }
                None => super::BuiltBy::NotChecked,
            };
            Ok(EntryPackage {
                launch: ServerLaunch::Command { command, env },
                settings,
                extras: PackageExtras::default(),
                exact: format!("oci:{reference}"),
                integrity,
                served_by: None,
                built_by,
                install_scripts: None,
            })
        }
        "mcpb" => {
            // `choose` refuses a bundle without its sha256; `remote` checks what is given.
            let sha256 = package.file_sha256.as_deref().unwrap_or_default();
            let source = mcpb::BundleSource::remote(&package.identifier, sha256)?;
            let spec = mcpb::fetch(&source, stage)?;
            let Ecosystem::Mcpb(bundle) = &spec.ecosystem else {
                unreachable!("fetch returns a bundle spec")
            };
            let (launch, extras) = mcpb::provision(&spec, bundle, dir)?;
            let server = launch.server?.ok_or_else(|| EcosystemError::NoLaunch {
                spec: spec.to_string(),
                detail: "the bundle declares no server".into(),
            })?;
            let mut command = server.command;
            command.extend(package.package_arguments.iter().flat_map(argument_elements));
            Ok(EntryPackage {
                launch: ServerLaunch::Command {
                    command,
                    env: fixed_env(package),
                },
                settings,
                extras,
                exact: launch.exact,
                integrity: launch.integrity,
                served_by: None,
                built_by: launch.built_by,
                install_scripts: None,
            })
        }
        other => Err(EcosystemError::NotFound {
            spec: server.to_string(),
            detail: format!("agx cannot install a `{other}` package"),
        }),
    }
}

fn ecosystem_spec(
    server: &str,
    package: &Package,
    text: &str,
) -> Result<EcosystemSpec, EcosystemError> {
    EcosystemSpec::parse(text)
        .expect("an ecosystem prefix")
        .map_err(|e| EcosystemError::NotFound {
            spec: package_label(server, package),
            detail: e.to_string(),
        })
}

/// `io.github.user/weather: npm @u/weather`, how errors name one package of an entry.
fn package_label(server: &str, package: &Package) -> String {
    format!("{server}: {} {}", package.registry_type, package.identifier)
}

/// Registries that `docker` reaches for an image named without a host.
const DEFAULT_IMAGE_HOSTS: [&str; 3] = ["docker.io", "index.docker.io", "registry-1.docker.io"];

/// The image an OCI package names: its identifier, under the host of `registryBaseUrl`
/// when the identifier names none, at the package's version unless the identifier carries a
/// tag or digest itself (neither: the image's default tag, pinned to a digest by `pin`).
pub(super) fn image_spec(server: &str, package: &Package) -> Result<EcosystemSpec, EcosystemError> {
    let identifier = package.identifier.as_str();
    let first = identifier.split('/').next().unwrap_or_default();
    let has_host = identifier.contains('/')
        && (first.contains('.') || first.contains(':') || first == "localhost");
    let host = package
        .registry_base_url
        .as_deref()
        .and_then(|base| reqwest::Url::parse(base).ok())
        .and_then(|url| {
            let host = url.host_str()?.to_string();
            Some(match url.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            })
        })
        .filter(|host| !DEFAULT_IMAGE_HOSTS.contains(&host.as_str()));
    let mut reference = match host {
        Some(host) if !has_host => format!("{host}/{identifier}"),
        _ => identifier.to_string(),
    };
    let parts = oci::split_reference(&reference);
    if parts.tag.is_none()
        && parts.digest.is_none()
        && let Some(version) = &package.version
    {
        reference = format!("{reference}:{version}");
    }
    ecosystem_spec(server, package, &format!("oci:{reference}"))
}

/// `docker run --rm -i -e NAME… [runtime arguments] <image> [package arguments]`. Every
/// environment variable goes by name only; a runtime argument `-e NAME=value` becomes an
/// environment entry and `-e NAME`, so no value is ever on the command line.
fn image_command(
    package: &Package,
    runtime: &str,
    image: &str,
) -> (Vec<String>, BTreeMap<String, String>) {
    let mut names: Vec<String> = package
        .environment_variables
        .iter()
        .map(|v| v.name.clone())
        .collect();
    let mut env = BTreeMap::new();
    let mut runtime_args = Vec::new();
    let applies = runtime_arguments_apply(package);
    for argument in package.runtime_arguments.iter().filter(|_| applies) {
        let elements = argument_elements(argument);
        let assignment = match elements.as_slice() {
            [flag, value] if matches!(flag.as_str(), "-e" | "--env") => Some(value.as_str()),
            [one] => one
                .strip_prefix("-e=")
                .or_else(|| one.strip_prefix("--env=")),
            _ => None,
        };
        match assignment.and_then(|a| a.split_once('=')) {
            Some((name, value)) => {
                env.insert(name.to_string(), value.to_string());
                if !names.iter().any(|n| n == name) {
                    names.push(name.to_string());
                }
            }
            None => runtime_args.extend(elements),
        }
    }
    let mut command = oci::run_command(runtime, image, &names);
    let image = command.pop().expect("the image ends the line");
    command.extend(runtime_args);
    command.push(image);
    command.extend(package.package_arguments.iter().flat_map(argument_elements));
    (command, env)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(json: serde_json::Value) -> Package {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn images_are_named_with_their_host_and_version() {
        let p = package(
            serde_json::json!({"registryType": "oci", "identifier": "acme/weather",
            "version": "1.2.0", "registryBaseUrl": "https://ghcr.io", "transport": {"type": "stdio"}}),
        );
        assert_eq!(
            image_spec("s", &p).unwrap().native_reference(),
            "ghcr.io/acme/weather:1.2.0"
        );
        let p = package(
            serde_json::json!({"registryType": "oci", "identifier": "mcp/time",
            "version": "1.0", "registryBaseUrl": "https://docker.io", "transport": {"type": "stdio"}}),
        );
        assert_eq!(
            image_spec("s", &p).unwrap().native_reference(),
            "mcp/time:1.0"
        );
        let p = package(serde_json::json!({"registryType": "oci",
            "identifier": "localhost:5000/x:2.0", "version": "2.0.0", "transport": {"type": "stdio"}}));
        assert_eq!(
            image_spec("s", &p).unwrap().native_reference(),
            "localhost:5000/x:2.0"
        );
    }

    #[test]
    fn image_identifiers_outside_the_reference_grammar_are_refused() {
        for identifier in ["--privileged", "-e", "../../x", "acme/--privileged"] {
            let p = package(
                serde_json::json!({"registryType": "oci", "identifier": identifier,
                "version": "1.0.0", "transport": {"type": "stdio"}}),
            );
            let err = image_spec("io.github.user/x", &p).unwrap_err();
            assert!(
                err.to_string().contains("is not an image name part")
                    || err.to_string().contains("is not a registry host"),
                "{identifier}: {err}"
            );
        }
    }

    #[test]
    fn image_settings_travel_by_name_and_values_stay_off_the_command_line() {
        let p = package(
            serde_json::json!({"registryType": "oci", "identifier": "mcp/time",
            "version": "1.0", "runtimeHint": "docker", "transport": {"type": "stdio"},
            "runtimeArguments": [
                {"type": "named", "name": "-e", "value": "TOKEN={token}",
                 "variables": {"token": {"isSecret": true}}},
                {"type": "named", "name": "--network", "value": "host"}],
            "packageArguments": [{"type": "named", "name": "--tz", "default": "UTC"}],
            "environmentVariables": [{"name": "API_KEY", "isSecret": true}]}),
        );
        let (command, env) = image_command(&p, "docker", "mcp/time:1.0");
        assert_eq!(
            command,
            [
                "docker",
                "run",
                "--rm",
                "-i",
                "-e",
                "API_KEY",
                "-e",
                "TOKEN",
                "--network",
                "host",
                "mcp/time:1.0",
                "--tz",
                "${settings.tz}"
            ]
        );
        assert_eq!(env["TOKEN"], "${settings.token}");
    }
}
