//! `agx sbom`: a software bill of materials of the installed packages or of a project's
//! agx.lock, as CycloneDX 1.6 or SPDX 2.3 JSON (docs/organizations.md, "SBOM").
//!
//! One neutral list of [`Component`]s (name, version, source, digest, license, permissions,
//! what verified it, dependencies) is rendered into either format.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use super::Context;
use super::project::{ProjectOpError, ProjectResult};
use agx_core::name::PackageName;
use agx_store::{Receipt, Source, VERSION_RECEIPT, now_rfc3339};

/// The formats `agx sbom` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SbomFormat {
    CycloneDx,
    Spdx,
}

/// What the bill of materials describes.
pub enum SbomTarget<'a> {
    /// Every installed package.
    Installed,
    /// The packages a project's agx.lock holds (the nearest project, or this folder).
    Project(Option<&'a Path>),
}

/// One package of the bill.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    pub name: PackageName,
    pub version: semver::Version,
    pub description: Option<String>,
    /// The archive's sha256 (lowercase hex); absent when not known.
    pub sha256: Option<String>,
    /// `registry`, `local`, `npm`, `pypi`, `oci`, `mcpb`, `plugin`.
    pub source_kind: String,
    /// The registry's URL or folder, the ecosystem spec, the plugin reference, the path.
    pub source: String,
    /// The declared license (SPDX expression), as the package's agx.toml says.
    pub license: Option<String>,
    /// What verified the source (`tuf: NAME, root vN`), when something did.
    pub verified: Option<String>,
    /// Who built it (a Sigstore signer's summary) or `unsigned`, for a registry package;
    /// absent for sources agx does not check (docs/registry.md, "Provenance").
    pub provenance: Option<String>,
    /// `package` (the package's own permissions) or a server's name, with what its
    /// programs may do.
    pub permissions: Vec<(String, String)>,
    pub dependencies: Vec<PackageName>,
    /// Asked for by the user or the project (the rest came in as dependencies).
    pub root: bool,
    /// The package URL: `pkg:npm/…`, `pkg:pypi/…`, else `pkg:generic/publisher/name@version`.
    pub purl: String,
}

/// The components of `target`, sorted by name.
pub fn components(ctx: &Context, target: SbomTarget<'_>) -> ProjectResult<Vec<Component>> {
    let store = ctx.store();
    let mut out = Vec::new();
    match target {
        SbomTarget::Installed => {
            for installed in store.list().map_err(super::OpsError::from)? {
                out.push(component_of(
                    &installed.receipt,
                    &installed.dir,
                    installed.receipt.explicit,
                ));
            }
        }
        SbomTarget::Project(dir) => {
            let project = super::project::open(dir)?;
            let lock =
                agx_project::lock::LockFile::read(&project.dir)?.ok_or(ProjectOpError::NoLock {
                    dir: project.dir.clone(),
                })?;
            let needed: std::collections::BTreeSet<PackageName> = lock
                .packages
                .iter()
                .flat_map(|p| p.dependencies.iter().map(|(n, _)| n.clone()))
                .collect();
            for locked in &lock.packages {
                let dir = store.package_dir(&locked.name, &locked.version);
                let mut component = match Receipt::read(&dir.join(VERSION_RECEIPT)) {
                    Ok(receipt) => component_of(&receipt, &dir, false),
                    Err(_) => Component {
                        name: locked.name.clone(),
                        version: locked.version.clone(),
                        description: None,
                        sha256: None,
                        source_kind: String::new(),
                        source: String::new(),
                        license: None,
                        verified: None,
                        provenance: None,
                        permissions: Vec::new(),
                        dependencies: Vec::new(),
                        root: false,
                        purl: String::new(),
                    },
                };
                // The lock is what the project means: its source, digest and dependencies.
                component.source_kind = kind_of_locked(&locked.source).to_string();
                component.source = locked.source.clone();
                component.sha256 = Some(locked.sha256.clone()).filter(|s| !s.is_empty());
                component.dependencies =
                    locked.dependencies.iter().map(|(n, _)| n.clone()).collect();
                component.root = !needed.contains(&locked.name);
                if let Some(provenance) = &locked.provenance {
                    component.provenance = Some(provenance.summary());
                }
                component.purl = purl(
                    &locked.name,
                    &locked.version,
                    &component.source_kind,
                    &locked.source,
                );
                out.push(component);
            }
        }
    }
    out.sort_by_cached_key(|c| (c.name.to_string(), c.version.clone()));
    Ok(out)
}

fn component_of(receipt: &Receipt, dir: &Path, root: bool) -> Component {
    let (source_kind, source, verified): (&str, String, Option<String>) = match &receipt.source {
        Source::Registry { registry, verified } => ("registry", registry.clone(), verified.clone()),
        Source::Local { path } => ("local", path.clone(), None),
        Source::Ecosystem { spec, .. } => (
            match spec.split(':').next() {
                Some("npm") => "npm",
                Some("pypi") => "pypi",
                Some("oci") => "oci",
                Some("mcpb") => "mcpb",
                _ => "ecosystem",
            },
            spec.clone(),
            None,
        ),
        Source::Plugin { reference, .. } => ("plugin", reference.clone(), None),
    };
    let package = agx_model::manifest::load_installed(dir).ok();
    let license = package
        .as_ref()
        .and_then(|p| p.manifest.package.license.clone())
        .filter(|l| !l.trim().is_empty());
    let mut permissions = Vec::new();
    if let Some(package) = &package {
        let declared = package.manifest.extension.permissions.as_ref();
        permissions.push((
            "package".to_string(),
            agx_model::permissions::Permissions::describe(declared).join("; "),
        ));
        for server in &package.servers {
            if let Some(own) = &server.permissions {
                permissions.push((
                    server.name.to_string(),
                    agx_model::permissions::Permissions::describe(Some(own)).join("; "),
                ));
            }
        }
    }
    Component {
        purl: purl(&receipt.name, &receipt.version, source_kind, &source),
        name: receipt.name.clone(),
        version: receipt.version.clone(),
        description: receipt.description.clone(),
        sha256: Some(receipt.sha256.clone()).filter(|s| !s.is_empty()),
        source_kind: source_kind.to_string(),
        source,
        license,
        verified,
        provenance: receipt.provenance.as_ref().map(|p| p.summary()),
        permissions,
        dependencies: receipt.dependencies.keys().cloned().collect(),
        root,
    }
}

/// The kind of a lock's `source`, as [`Component::source_kind`] names it.
fn kind_of_locked(source: &str) -> &'static str {
    match source.split_once(':').map(|(scheme, _)| scheme) {
        Some("npm") => "npm",
        Some("pypi") => "pypi",
        Some("mcpb") => "mcpb",
        Some("plugin") => "plugin",
        _ if source.contains("://") => "registry",
        _ => "local",
    }
}

/// The package URL (purl) of a component: npm and PyPI packages by their own names, the
/// rest as generic `publisher/name`.
fn purl(name: &PackageName, version: &semver::Version, kind: &str, source: &str) -> String {
    let encode = |s: &str| {
        s.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'_' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    match kind {
        "npm" => {
            let spec = source.trim_start_matches("npm:");
            let split = spec[1.min(spec.len())..].rfind('@').map(|i| i + 1);
            let (package, exact) = match split {
                Some(i) => (&spec[..i], &spec[i + 1..]),
                None => (spec, ""),
            };
            let exact = if exact.is_empty() {
                version.to_string()
            } else {
                exact.to_string()
            };
            match package.split_once('/') {
                Some((scope, short)) if scope.starts_with('@') => {
                    format!(
                        "pkg:npm/{}/{}@{}",
                        encode(scope),
                        encode(short),
                        encode(&exact)
                    )
                }
                _ => format!("pkg:npm/{}@{}", encode(package), encode(&exact)),
            }
        }
        "pypi" => {
            let spec = source.trim_start_matches("pypi:");
            let (package, exact) = spec.split_once("==").unwrap_or((spec, ""));
            let exact = if exact.is_empty() {
                version.to_string()
            } else {
                exact.to_string()
            };
            format!(
                "pkg:pypi/{}@{}",
                encode(&package.to_ascii_lowercase().replace('_', "-")),
                encode(&exact)
            )
        }
        _ => {
            let (publisher, short) = name.path_segments();
            format!(
                "pkg:generic/{}/{}@{}",
                encode(publisher),
                encode(short),
                encode(&version.to_string())
            )
        }
    }
}

/// The bill of `target` as a JSON document of `format`.
pub fn sbom(ctx: &Context, target: SbomTarget<'_>, format: SbomFormat) -> ProjectResult<Value> {
    let subject = match &target {
        SbomTarget::Installed => format!("agx packages installed in {}", ctx.paths.home.display()),
        SbomTarget::Project(dir) => {
            let dir = agx_project::find_project(*dir)?;
            format!("agx project {}", dir.display())
        }
    };
    let components = components(ctx, target)?;
    Ok(render(
        &components,
        format,
        &subject,
        &random_uuid(),
        &now_rfc3339(),
    ))
}

/// The bill as a JSON document of `format`. `serial` is a random UUID (the document's
/// identity), `now` the creation time in RFC 3339; `subject` names what it describes.
pub fn render(
    components: &[Component],
    format: SbomFormat,
    subject: &str,
    serial: &str,
    now: &str,
) -> Value {
    match format {
        SbomFormat::CycloneDx => cyclonedx(components, subject, serial, now),
        SbomFormat::Spdx => spdx(components, subject, serial, now),
    }
}

fn properties(c: &Component) -> Vec<Value> {
    let mut properties = vec![
        json!({"name": "agx:source-kind", "value": c.source_kind}),
        json!({"name": "agx:source", "value": c.source}),
    ];
    if let Some(verified) = &c.verified {
        properties.push(json!({"name": "agx:verified", "value": verified}));
    }
    if let Some(provenance) = &c.provenance {
        properties.push(json!({"name": "agx:provenance", "value": provenance}));
    }
    for (scope, permissions) in &c.permissions {
        let name = match scope.as_str() {
            "package" => "agx:permissions".to_string(),
            server => format!("agx:permissions:{server}"),
        };
        properties.push(json!({"name": name, "value": permissions}));
    }
    properties
}

fn cyclonedx(components: &[Component], subject: &str, serial: &str, now: &str) -> Value {
    let by_name: BTreeMap<&PackageName, &Component> =
        components.iter().map(|c| (&c.name, c)).collect();
    let listed: Vec<Value> = components
        .iter()
        .map(|c| {
            let (publisher, short) = c.name.path_segments();
            let mut component = json!({
                "type": "application",
                "bom-ref": c.purl,
                "group": publisher,
                "name": short,
                "version": c.version.to_string(),
                "purl": c.purl,
                "properties": properties(c),
            });
            if let Some(description) = &c.description {
                component["description"] = json!(description);
            }
            if let Some(license) = &c.license {
                component["licenses"] = json!([{"expression": license}]);
            }
            if let Some(sha) = &c.sha256 {
                component["hashes"] = json!([{"alg": "SHA-256", "content": sha}]);
            }
            component
        })
        .collect();
    let dependencies: Vec<Value> = components
        .iter()
        .map(|c| {
            let on: Vec<&str> = c
                .dependencies
                .iter()
                .filter_map(|d| by_name.get(d).map(|d| d.purl.as_str()))
                .collect();
            json!({"ref": c.purl, "dependsOn": on})
        })
        .collect();
    json!({
        "bomFormat": "CycloneDX",
        "specVersion": "1.6",
        "serialNumber": format!("urn:uuid:{serial}"),
        "version": 1,
        "metadata": {
            "timestamp": now,
            "tools": {"components": [{
                "type": "application",
                "name": "agx",
                "version": env!("CARGO_PKG_VERSION"),
            }]},
            "component": {"type": "application", "bom-ref": "agx:subject", "name": subject},
        },
        "components": listed,
        "dependencies": dependencies,
    })
}

/// `SPDXRef-Package-<name>-<version>`, with what SPDX ids may not hold replaced by `-`.
fn spdx_id(c: &Component) -> String {
    let raw = format!("Package-{}-{}", c.name, c.version);
    let clean: String = raw
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || ch == '.' || ch == '-' {
                ch
            } else {
                '-'
            }
        })
        .collect();
    format!("SPDXRef-{clean}")
}

/// A license SPDX tools read as an expression; anything else is not asserted.
fn spdx_license(license: Option<&str>) -> &str {
    match license {
        Some(l)
            if !l.is_empty()
                && l.chars()
                    .all(|c| c.is_ascii_alphanumeric() || " .+-()".contains(c)) =>
        {
            l
        }
        _ => "NOASSERTION",
    }
}

fn spdx(components: &[Component], subject: &str, serial: &str, now: &str) -> Value {
    let ids: BTreeMap<&PackageName, String> =
        components.iter().map(|c| (&c.name, spdx_id(c))).collect();
    let packages: Vec<Value> = components
        .iter()
        .map(|c| {
            let (publisher, _) = c.name.path_segments();
            let mut comment = format!("source ({}): {}", c.source_kind, c.source);
            if let Some(verified) = &c.verified {
                comment.push_str(&format!("; verified: {verified}"));
            }
            if let Some(provenance) = &c.provenance {
                comment.push_str(&format!("; provenance: {provenance}"));
            }
            for (scope, permissions) in &c.permissions {
                comment.push_str(&format!("; permissions ({scope}): {permissions}"));
            }
            let mut package = json!({
                "SPDXID": ids[&c.name],
                "name": c.name.to_string(),
                "versionInfo": c.version.to_string(),
                "supplier": format!("Organization: {publisher}"),
                "downloadLocation": if c.source.starts_with("https://") { c.source.as_str() } else { "NOASSERTION" },
                "filesAnalyzed": false,
                "licenseConcluded": "NOASSERTION",
                "licenseDeclared": spdx_license(c.license.as_deref()),
                "copyrightText": "NOASSERTION",
                "externalRefs": [{
                    "referenceCategory": "PACKAGE-MANAGER",
                    "referenceType": "purl",
                    "referenceLocator": c.purl,
                }],
                "comment": comment,
            });
            if let Some(description) = &c.description {
                package["description"] = json!(description);
            }
            if let Some(sha) = &c.sha256 {
                package["checksums"] = json!([{"algorithm": "SHA256", "checksumValue": sha}]);
            }
            package
        })
        .collect();
    let mut relationships: Vec<Value> = components
        .iter()
        .filter(|c| c.root)
        .map(|c| {
            json!({
                "spdxElementId": "SPDXRef-DOCUMENT",
                "relationshipType": "DESCRIBES",
                "relatedSpdxElement": ids[&c.name],
            })
        })
        .collect();
    for c in components {
        for dependency in &c.dependencies {
            if let Some(on) = ids.get(dependency) {
                relationships.push(json!({
                    "spdxElementId": ids[&c.name],
                    "relationshipType": "DEPENDS_ON",
                    "relatedSpdxElement": on,
                }));
            }
        }
    }
    json!({
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": subject,
        "documentNamespace": format!("urn:uuid:{serial}"),
        "creationInfo": {
            "created": now,
            "creators": [format!("Tool: agx-{}", env!("CARGO_PKG_VERSION"))],
        },
        "packages": packages,
        "relationships": relationships,
    })
}

/// A random (version 4) UUID, for a document's serial number.
pub fn random_uuid() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: the time keeps documents apart.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        bytes = nanos.to_le_bytes();
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = hex::encode(bytes);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> PackageName {
        PackageName::parse(s).unwrap()
    }

    #[test]
    fn package_urls_follow_the_ecosystem() {
        let v = semver::Version::new(1, 2, 3);
        assert_eq!(
            purl(&name("npm/@scope/x"), &v, "npm", "npm:@scope/x@1.2.3"),
            "pkg:npm/%40scope/x@1.2.3"
        );
        assert_eq!(
            purl(
                &name("pypi/mcp-server-time"),
                &v,
                "pypi",
                "pypi:mcp_server_time==1.2.3"
            ),
            "pkg:pypi/mcp-server-time@1.2.3"
        );
        assert_eq!(
            purl(&name("acme/weather"), &v, "registry", "oci://x/y"),
            "pkg:generic/acme/weather@1.2.3"
        );
    }

    #[test]
    fn uuids_are_version_four() {
        let id = random_uuid();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert!(matches!(&id[19..20], "8" | "9" | "a" | "b"));
        assert_ne!(id, random_uuid());
    }
}
