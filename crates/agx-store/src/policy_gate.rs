//! The policy as the store's writers and `agx serve` apply it (docs/policy.md): what a
//! package's recorded source says of its origin, and the checks of a package before it is
//! put in place.

use std::collections::BTreeMap;

use agx_model::manifest::Package;
use agx_model::policy::{Origin, Policy, Refusal, Subject};

use super::{Source, StoreError};

/// The effective policy, with the configured names of sources so that `sources.allow` can
/// name them.
#[derive(Debug, Clone, Default)]
pub struct PolicyGate {
    pub policy: Policy,
    /// Configured source names by location (URL, folder or `oci://…`).
    names: BTreeMap<String, Vec<String>>,
}

impl PolicyGate {
    pub fn new(policy: Policy, names: BTreeMap<String, Vec<String>>) -> PolicyGate {
        PolicyGate { policy, names }
    }

    pub fn is_empty(&self) -> bool {
        self.policy.is_empty()
    }

    /// What the policy sees of where a package came from. Kinds and locations are facts of
    /// the receipt; configured names come from the user's `config.toml`, so only the user's
    /// and the project's layers count them (a system rule names locations, or `official`).
    pub fn origin(&self, source: &Source) -> Origin {
        let configured = |location: &str| -> Vec<String> {
            self.names
                .get(&location_key(location))
                .cloned()
                .unwrap_or_default()
        };
        let at = |location: &str| -> Vec<String> {
            let mut ids = vec![location.to_string()];
            if location_key(location) == OFFICIAL_URL {
                ids.push(OFFICIAL_NAME.to_string());
            }
            ids
        };
        let shown = |location: &str| match configured(location).first() {
            Some(name) => format!("{name} ({location})"),
            None => location.to_string(),
        };
        match source {
            Source::Registry { registry, verified } => Origin {
                ids: at(registry),
                configured: configured(registry),
                shown: shown(registry),
                checksum: true,
                signed: verified.is_some(),
            },
            Source::Local { path } => Origin {
                ids: vec!["local".into(), path.clone()],
                configured: Vec::new(),
                shown: format!("the local path {path}"),
                checksum: false,
                signed: false,
            },
            Source::Ecosystem {
                spec,
                integrity,
                entry,
                served_by,
            } => {
                let kind = spec.split_once(':').map_or(spec.as_str(), |(k, _)| k);
                let mut ids = vec![kind.to_string()];
                ids.extend(entry.iter().flat_map(|e| at(&e.registry)));
                // The registry npm or pip fetched it from: `sources.allow` may name it.
                ids.extend(served_by.iter().cloned());
                let served = served_by
                    .as_ref()
                    .map(|url| format!(", served by {url}"))
                    .unwrap_or_default();
                Origin {
                    ids,
                    configured: entry.iter().flat_map(|e| configured(&e.registry)).collect(),
                    shown: match entry {
                        Some(entry) => {
                            format!("{kind} (listed in {}{served})", shown(&entry.registry))
                        }
                        None if served.is_empty() => kind.to_string(),
                        None => format!("{kind} ({})", &served[2..]),
                    },
                    // A bundle's sha256 is a published digest only when a registry entry
                    // gave it; otherwise agx computed it from what it fetched.
                    checksum: !integrity.is_empty() && (kind != "mcpb" || entry.is_some()),
                    signed: false,
                }
            }
            Source::Plugin {
                marketplace,
                revision,
                ..
            } => {
                let mut ids = vec!["plugin".to_string()];
                ids.extend(at(marketplace));
                Origin {
                    ids,
                    configured: configured(marketplace),
                    shown: format!("the marketplace {}", shown(marketplace)),
                    // A git commit or npm's integrity is published; a `sha256:` of the files
                    // is agx's own count of what it copied.
                    checksum: revision.starts_with("git:") || revision.starts_with("npm:"),
                    signed: false,
                }
            }
        }
    }

    /// Whether `package` from `source` may be installed: its origin, its name, and what its
    /// programs may touch. `provenance`: what its install proved of who built it, when it
    /// was checked.
    pub fn check_package(
        &self,
        package: &Package,
        source: &Source,
        provenance: Option<&crate::provenance::Provenance>,
    ) -> Result<(), StoreError> {
        if self.is_empty() {
            return Ok(());
        }
        let name = package.name().to_string();
        self.check_name(&name, package.name().publisher(), source, provenance)?;
        let runs_programs = !(package.tools.is_empty()
            && package.prompts.is_empty()
            && package.resources.is_empty());
        let mut checks: Vec<(String, Option<&agx_model::permissions::Permissions>)> = package
            .servers
            .iter()
            .map(|s| {
                (
                    format!("{name}/{}", s.name.as_str()),
                    package.permissions_of(Some(s.name.as_str())),
                )
            })
            .collect();
        if runs_programs {
            checks.push((name.clone(), package.permissions_of(None)));
        }
        for (what, declared) in checks {
            self.policy
                .check_declared(&what, declared)
                .map_err(StoreError::Policy)?;
        }
        Ok(())
    }

    /// [`PolicyGate::check_package`] of the origin and name alone.
    pub fn check_name(
        &self,
        name: &str,
        publisher: Option<&str>,
        source: &Source,
        provenance: Option<&crate::provenance::Provenance>,
    ) -> Result<(), StoreError> {
        let mut origin = self.origin(source);
        // `signed`: a TUF-signed source, or a Sigstore bundle that verified at install. An
        // MCPB signature is not: any key can make one (`mcpb sign --self-signed`), and no
        // trusted root vouches for it.
        origin.signed |= provenance
            .and_then(|p| p.signer.as_ref())
            .is_some_and(|signer| {
                !signer
                    .issuer
                    .starts_with(agx_provenance::mcpb::SIGNER_ISSUER)
            });
        self.policy
            .check_package(&Subject {
                name,
                publisher,
                origin: &origin,
            })
            .map_err(StoreError::Policy)
    }

    /// [`PolicyGate::check_package`] of a version in the store (a project's sync checks
    /// what is already there too). A version with no receipt is not there: nothing to check.
    pub fn check_installed(
        &self,
        store: &super::Store,
        name: &agx_core::name::PackageName,
        version: &semver::Version,
    ) -> Result<(), StoreError> {
        if self.is_empty() {
            return Ok(());
        }
        let Some(receipt) = store.version_receipt(name, version) else {
            return Ok(());
        };
        let package = agx_model::manifest::load_installed(&store.package_dir(name, version))?;
        self.check_package(&package, &receipt.source, receipt.provenance.as_ref())
    }

    /// Whether agx may write the configuration or skills of the client `id`.
    pub fn check_client(&self, id: &str) -> Result<(), StoreError> {
        self.policy.check_client(id).map_err(StoreError::Policy)
    }
}

/// The name of the source agx configures by itself (docs/registry.md), and where it is.
pub const OFFICIAL_NAME: &str = "official";
pub const OFFICIAL_URL: &str = "https://registry.modelcontextprotocol.io";

/// Configured source names by location, as receipts record locations, read from
/// `config.toml`'s `[registries.NAME] url` (and the built-in `official` unless it is turned
/// off). Read here, below the registry client, because `agx serve` needs them too. A file
/// that cannot be read names nothing, so a rule that allows sources by name refuses: closed.
pub fn source_names(paths: &agx_core::paths::AgxPaths) -> BTreeMap<String, Vec<String>> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "kebab-case")]
    struct Entry {
        url: String,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(rename_all = "kebab-case")]
    struct Config {
        official_registry: Option<bool>,
        #[serde(default)]
        registries: BTreeMap<String, Entry>,
    }
    let config: Config = std::fs::read_to_string(paths.config_file())
        .ok()
        .and_then(|text| toml::from_str(&text).ok())
        .unwrap_or_default();
    // AGX_OFFICIAL_REGISTRY wins over the file, as for the registry client.
    let from_env = std::env::var("AGX_OFFICIAL_REGISTRY")
        .ok()
        .and_then(|v| agx_core::paths::parse_switch(&v));
    let official_off = !from_env.unwrap_or(config.official_registry != Some(false));
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if !official_off && !config.registries.contains_key(OFFICIAL_NAME) {
        names
            .entry(OFFICIAL_URL.to_string())
            .or_default()
            .push(OFFICIAL_NAME.to_string());
    }
    for (name, entry) in config.registries {
        names
            .entry(location_key(&entry.url))
            .or_default()
            .push(name);
    }
    names
}

/// A location as a receipt records it: a URL without its trailing `/`, scheme and host in
/// lowercase; a folder as an absolute path.
fn location_key(location: &str) -> String {
    match location.split_once("://") {
        Some(("file", path)) => path.trim_end_matches('/').to_string(),
        Some((scheme, rest)) => {
            let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
            let joined = format!(
                "{}://{}/{path}",
                scheme.to_ascii_lowercase(),
                host.to_ascii_lowercase()
            );
            joined.trim_end_matches('/').to_string()
        }
        None => std::path::absolute(location)
            .map_or_else(|_| location.to_string(), |p| p.display().to_string()),
    }
}

/// What to do about a refusal.
pub fn policy_hint(refusal: &Refusal) -> String {
    let instead = match refusal.rule {
        "clients.allow" => "choose an allowed client",
        "permissions.max.network" | "permissions.max.write" | "permissions.max.env" => {
            "choose a package that declares narrower permissions (`agx info PKG` shows them)"
        }
        _ => "choose another package or source",
    };
    format!(
        "nothing was changed; the rule is at {}: ask whoever manages that policy, or {instead} (`agx policy show` prints every rule and where it is)",
        refusal.at
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(names: &[(&str, &str)]) -> PolicyGate {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (location, name) in names {
            map.entry(location_key(location))
                .or_default()
                .push(name.to_string());
        }
        PolicyGate::new(Policy::default(), map)
    }

    #[test]
    fn a_registry_answers_to_its_configured_name_however_its_url_was_written() {
        let gate = gate(&[("HTTPS://Corp.Example/index/", "corp")]);
        let origin = gate.origin(&Source::Registry {
            registry: "https://corp.example/index".into(),
            verified: Some("tuf: corp, root v1".into()),
        });
        assert_eq!(origin.ids, ["https://corp.example/index"]);
        assert_eq!(origin.configured, ["corp"]);
        assert!(origin.checksum && origin.signed);
        assert_eq!(origin.shown, "corp (https://corp.example/index)");
    }

    #[test]
    fn each_kind_of_source_has_its_kind_among_its_names() {
        let gate = gate(&[("https://registry.example", "mcp")]);
        let npm = gate.origin(&Source::Ecosystem {
            spec: "npm:@acme/weather@1.2.0".into(),
            integrity: vec!["sha512-abc".into()],
            entry: Some(crate::EntryOrigin {
                registry: "https://registry.example/".into(),
                server: "io.github.acme/weather".into(),
                version: "1.2.0".into(),
                chosen: "npm:@acme/weather@1.2.0".into(),
            }),
            served_by: None,
        });
        assert_eq!(npm.ids, ["npm", "https://registry.example/"]);
        assert_eq!(npm.configured, ["mcp"]);
        assert!(npm.checksum && !npm.signed);
        let local = gate.origin(&Source::Local {
            path: "/src/weather".into(),
        });
        assert_eq!(local.ids, ["local", "/src/weather"]);
        assert!(!local.checksum);
        let plugin = gate.origin(&Source::Plugin {
            reference: "review@team".into(),
            marketplace: "https://github.example/team".into(),
            location: "./plugins/review".into(),
            revision: "git:abc".into(),
        });
        // The reference's `@team` names nothing the policy trusts: a lock can write any.
        assert_eq!(plugin.ids, ["plugin", "https://github.example/team"]);
        assert!(plugin.checksum);
        let unsigned = gate.origin(&Source::Ecosystem {
            spec: "pypi:weather==1.0".into(),
            integrity: vec![],
            entry: None,
            served_by: None,
        });
        assert_eq!(unsigned.ids, ["pypi"]);
        assert!(!unsigned.checksum);
        // The registry npm fetched from is a name `sources.allow` can give.
        let private = gate.origin(&Source::Ecosystem {
            spec: "npm:@acme/x@1.0.0".into(),
            integrity: vec!["sha512-abc".into()],
            entry: None,
            served_by: Some("https://npm.corp.example/npm/".into()),
        });
        assert_eq!(private.ids, ["npm", "https://npm.corp.example/npm/"]);
        assert_eq!(
            private.shown,
            "npm (served by https://npm.corp.example/npm/)"
        );
    }

    #[test]
    fn the_built_in_registry_is_official_whatever_the_configuration_says() {
        let gate = gate(&[("https://evil.example", "official")]);
        let official = gate.origin(&Source::Registry {
            registry: OFFICIAL_URL.into(),
            verified: None,
        });
        assert_eq!(official.ids, [OFFICIAL_URL, OFFICIAL_NAME]);
        let renamed = gate.origin(&Source::Registry {
            registry: "https://evil.example".into(),
            verified: None,
        });
        assert_eq!(renamed.ids, ["https://evil.example"]);
        assert_eq!(renamed.configured, ["official"]);
        let bundle = gate.origin(&Source::Ecosystem {
            spec: "mcpb:/tmp/x.mcpb".into(),
            integrity: vec!["sha256:00".into()],
            entry: None,
            served_by: None,
        });
        assert!(
            !bundle.checksum,
            "agx's own digest of a local bundle is no published one"
        );
    }

    #[test]
    fn locations_compare_without_case_or_trailing_slash() {
        assert_eq!(
            location_key("OCI://GHCR.io/acme/agx/"),
            "oci://ghcr.io/acme/agx"
        );
        assert_eq!(location_key("file:///srv/registry/"), "/srv/registry");
        assert_eq!(location_key("https://r.example"), "https://r.example");
    }
}
