//! An agx package as an OCI 1.1 artifact, and what a pulled manifest says about the version
//! it tags (docs/organizations.md, "The artifact").
//!
//! The manifest agx pushes: `artifactType` [`ARTIFACT_TYPE`], the empty config, one layer (the
//! package's deterministic `.tar.gz`, [`LAYER_TYPE`]) and the standard annotations. What the
//! index of an agx registry keeps beside a version (dependencies, the agx requirement, what the
//! package contributes) travels in the annotation [`ENTRY_ANNOTATION`]; an artifact pushed by
//! another tool without it installs too, with no dependencies.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::index::{IndexEntry, IndexError};
use agx_core::name::PackageName;
use agx_model::manifest::ExtensionSummary;

/// The manifest's `artifactType` for an agx package.
pub const ARTIFACT_TYPE: &str = "application/vnd.agx.package.v1";
/// The media type of the package's one layer.
pub const LAYER_TYPE: &str = "application/vnd.agx.package.layer.v1.tar+gzip";
/// An OCI image manifest.
pub const MANIFEST_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
/// The empty descriptor's media type, digest and data (image-spec 1.1, "Guidance for an
/// empty descriptor").
pub const EMPTY_TYPE: &str = "application/vnd.oci.empty.v1+json";
pub const EMPTY_DIGEST: &str =
    "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
pub const EMPTY_DATA: &[u8] = b"{}";
/// The package name, checked against the repository it was pulled from.
pub const NAME_ANNOTATION: &str = "dev.agx.package.name";
/// JSON of [`PackageFacts`].
pub const ENTRY_ANNOTATION: &str = "dev.agx.package.entry";
const TITLE: &str = "org.opencontainers.image.title";
const VERSION: &str = "org.opencontainers.image.version";
const DESCRIPTION: &str = "org.opencontainers.image.description";
const SOURCE: &str = "org.opencontainers.image.source";
const CREATED: &str = "org.opencontainers.image.created";
/// Registries must accept manifests up to 4 MiB (distribution-spec); agx reads no more.
pub const MAX_MANIFEST: usize = 4 * 1024 * 1024;

/// Layer media types read as a package's `.tar.gz`: agx's own, and the generic ones other
/// tools (`oras push file.tar.gz`, a plain image layer) give a gzipped tarball.
const GZIP_LAYERS: [&str; 4] = [
    LAYER_TYPE,
    "application/vnd.oci.image.layer.v1.tar+gzip",
    "application/gzip",
    "application/x-gzip",
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub schema_version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact_type: Option<String>,
    pub config: Descriptor,
    pub layers: Vec<Descriptor>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Descriptor {
    pub media_type: String,
    pub digest: String,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// What an index line holds beside name, version, checksum and size.
#[derive(Debug, Default, Serialize, Deserialize)]
struct PackageFacts {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    deps: BTreeMap<PackageName, semver::VersionReq>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agx: Option<semver::VersionReq>,
    #[serde(default)]
    extension: ExtensionSummary,
}

/// The manifest agx pushes for `entry` (whose `cksum` and `size` are the layer's), as the
/// bytes to push: keys in a fixed order, so the same inputs give the same digest.
pub fn manifest_for(entry: &IndexEntry, created: &str, source: Option<&str>) -> Vec<u8> {
    let (_, short) = entry.name.path_segments();
    let facts = PackageFacts {
        deps: entry.deps.clone(),
        agx: entry.agx.clone(),
        extension: entry.extension.clone(),
    };
    let mut annotations = BTreeMap::from([
        (TITLE.to_string(), entry.name.to_string()),
        (VERSION.to_string(), entry.vers.to_string()),
        (CREATED.to_string(), created.to_string()),
        (NAME_ANNOTATION.to_string(), entry.name.to_string()),
        (
            ENTRY_ANNOTATION.to_string(),
            serde_json::to_string(&facts).expect("facts serialize"),
        ),
    ]);
    if let Some(description) = &entry.description {
        annotations.insert(DESCRIPTION.to_string(), description.clone());
    }
    if let Some(source) = source {
        annotations.insert(SOURCE.to_string(), source.to_string());
    }
    let manifest = Manifest {
        schema_version: 2,
        media_type: Some(MANIFEST_TYPE.to_string()),
        artifact_type: Some(ARTIFACT_TYPE.to_string()),
        config: Descriptor {
            media_type: EMPTY_TYPE.to_string(),
            digest: EMPTY_DIGEST.to_string(),
            size: EMPTY_DATA.len() as u64,
            data: Some("e30=".to_string()),
            annotations: BTreeMap::new(),
        },
        layers: vec![Descriptor {
            media_type: LAYER_TYPE.to_string(),
            digest: format!("sha256:{}", entry.cksum),
            size: entry.size,
            data: None,
            annotations: BTreeMap::from([(
                TITLE.to_string(),
                format!("{short}-{}.tar.gz", entry.vers),
            )]),
        }],
        annotations,
    };
    serde_json::to_vec(&manifest).expect("a manifest serializes")
}

/// The digest of a manifest (its sha256) once it is checked to name the archive whose
/// sha256 hex is `layer_sha256` as a layer: what a Sigstore referrer signed, tied to what
/// was installed. `Err` says why not.
pub fn digest_naming_layer(bytes: &[u8], layer_sha256: &str) -> Result<[u8; 32], String> {
    use sha2::Digest as _;
    let manifest: Manifest =
        serde_json::from_slice(bytes).map_err(|e| format!("not an OCI image manifest: {e}"))?;
    let layer = format!("sha256:{layer_sha256}");
    if !manifest.layers.iter().any(|l| l.digest == layer) {
        return Err(format!("it does not name the installed archive ({layer})"));
    }
    Ok(sha2::Sha256::digest(bytes).into())
}

/// What a pulled manifest is.
#[derive(Debug)]
pub enum Pulled {
    /// An agx package: the index entry for the version its tag names.
    Package(Box<IndexEntry>),
    /// A ToolHive skill artifact ([`super::skill`]): installed as a package of that one skill.
    Skill(Box<IndexEntry>),
    /// Some other artifact or image (its `artifactType` or config type): not a version.
    Other(String),
}

/// Read the manifest tagged `version` in the repository of `name` (`location`: for
/// messages). An agx package's manifest that is malformed is an error (never skipped: it
/// claims to be a version); one of another kind is [`Pulled::Other`].
pub fn read_manifest(
    bytes: &[u8],
    name: &PackageName,
    version: &semver::Version,
    location: &str,
) -> Result<Pulled, IndexError> {
    let bad = |message: String| IndexError::Parse {
        location: location.to_string(),
        message,
    };
    if bytes.len() > MAX_MANIFEST {
        return Err(bad(format!(
            "the manifest is {} bytes, more than the {MAX_MANIFEST} a registry must accept",
            bytes.len()
        )));
    }
    // Another kind of document (an image index of a container image) is not a version,
    // whatever fields it has.
    #[derive(Deserialize)]
    struct Kind {
        #[serde(rename = "mediaType")]
        media_type: Option<String>,
    }
    if let Ok(Kind {
        media_type: Some(media_type),
    }) = serde_json::from_slice(bytes)
        && media_type != MANIFEST_TYPE
    {
        return Ok(Pulled::Other(media_type));
    }
    let manifest: Manifest = serde_json::from_slice(bytes)
        .map_err(|e| bad(format!("not an OCI image manifest: {e}")))?;
    if manifest.schema_version != 2 {
        return Err(bad(format!(
            "schemaVersion is {}, and OCI image manifests have 2",
            manifest.schema_version
        )));
    }
    if super::skill::is_skill(&manifest) {
        return super::skill::entry(&manifest, name, version, location)
            .map(|entry| Pulled::Skill(Box::new(entry)));
    }
    let kind = manifest
        .artifact_type
        .clone()
        .unwrap_or_else(|| manifest.config.media_type.clone());
    if kind != ARTIFACT_TYPE {
        return Ok(Pulled::Other(kind));
    }
    let (layer, cksum) = one_gzip_layer(
        &manifest,
        "an agx package has one layer (its .tar.gz)",
        LAYER_TYPE,
    )
    .map_err(bad)?;
    let annotation = |key: &str| manifest.annotations.get(key).map(String::as_str);
    if let Some(named) = annotation(NAME_ANNOTATION)
        && named != name.to_string()
    {
        return Err(bad(format!(
            "the manifest names the package `{named}`, and it was pulled as {name}"
        )));
    }
    if let Some(tagged) = annotation(VERSION)
        && semver::Version::parse(tagged).ok().as_ref() != Some(version)
    {
        return Err(bad(format!(
            "the manifest says version `{tagged}`, and its tag is {version}"
        )));
    }
    let facts: PackageFacts = match annotation(ENTRY_ANNOTATION) {
        Some(json) => serde_json::from_str(json)
            .map_err(|e| bad(format!("the annotation {ENTRY_ANNOTATION}: {e}")))?,
        None => PackageFacts::default(),
    };
    Ok(Pulled::Package(Box::new(IndexEntry {
        v: 1,
        name: name.clone(),
        vers: version.clone(),
        cksum,
        size: layer.size,
        deps: facts.deps,
        yanked: false,
        agx: facts.agx,
        description: annotation(DESCRIPTION).map(str::to_string),
        extension: facts.extension,
        provenance: None,
    })))
}

/// The one layer of `manifest`, a gzipped tarball with a sha256 digest, and that digest's
/// hex; `Err` says what is wrong (`has_one`: what the artifact holds, `expected`: its
/// layer's media type).
pub(super) fn one_gzip_layer<'a>(
    manifest: &'a Manifest,
    has_one: &str,
    expected: &str,
) -> Result<(&'a Descriptor, String), String> {
    let [layer] = manifest.layers.as_slice() else {
        return Err(format!(
            "{has_one}, and this manifest has {}",
            manifest.layers.len()
        ));
    };
    if !GZIP_LAYERS.contains(&layer.media_type.as_str()) {
        return Err(format!(
            "the layer's media type `{}` is not a gzipped tarball (expected {expected})",
            layer.media_type
        ));
    }
    let cksum = sha256_hex(&layer.digest).ok_or_else(|| {
        format!(
            "the layer's digest `{}` is not `sha256:` and 64 lowercase hex digits",
            layer.digest
        )
    })?;
    Ok((layer, cksum))
}

/// The hex of a `sha256:<64 lowercase hex>` digest.
pub fn sha256_hex(digest: &str) -> Option<String> {
    let hex = digest.strip_prefix("sha256:")?;
    (hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .then(|| hex.to_string())
}

/// The layer digest of a manifest agx reads as a package (for checking a tag before a push
/// replaces it); `None` when it is not one.
pub fn layer_digest(bytes: &[u8]) -> Option<String> {
    let manifest: Manifest = serde_json::from_slice(bytes).ok()?;
    match manifest.layers.as_slice() {
        [layer] => Some(layer.digest.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> IndexEntry {
        IndexEntry {
            v: 1,
            name: PackageName::parse("acme/weather").unwrap(),
            vers: semver::Version::new(1, 2, 0),
            cksum: "ab".repeat(32),
            size: 1234,
            deps: BTreeMap::from([(
                PackageName::parse("acme/units").unwrap(),
                semver::VersionReq::parse("^1").unwrap(),
            )]),
            yanked: false,
            agx: None,
            description: Some("Weather".into()),
            extension: ExtensionSummary::default(),
            provenance: None,
        }
    }

    fn read(bytes: &[u8]) -> Result<Pulled, IndexError> {
        let e = entry();
        read_manifest(bytes, &e.name, &e.vers, "oci://x/acme/weather:1.2.0")
    }

    #[test]
    fn a_pushed_manifest_reads_back_as_its_entry_and_is_deterministic() {
        let bytes = manifest_for(&entry(), "2026-01-01T00:00:00Z", None);
        assert_eq!(bytes, manifest_for(&entry(), "2026-01-01T00:00:00Z", None));
        let Pulled::Package(read) = read(&bytes).unwrap() else {
            panic!("a package")
        };
        assert_eq!(*read, entry());
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(value["artifactType"], ARTIFACT_TYPE);
        assert_eq!(value["config"]["digest"], EMPTY_DIGEST);
        assert_eq!(value["layers"][0]["mediaType"], LAYER_TYPE);
        assert_eq!(
            layer_digest(&bytes).unwrap(),
            format!("sha256:{}", "ab".repeat(32))
        );
    }

    #[test]
    fn an_image_or_other_artifact_is_not_a_version() {
        let image = r#"{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",
            "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:00","size":1},"layers":[]}"#;
        assert!(
            matches!(read(image.as_bytes()).unwrap(), Pulled::Other(t) if t.contains("image.config"))
        );
        let index = r#"{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json",
            "config":{"mediaType":"x","digest":"sha256:00","size":1},"layers":[]}"#;
        assert!(matches!(read(index.as_bytes()).unwrap(), Pulled::Other(_)));
        // A real image index has neither config nor layers.
        let multi_arch = r#"{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json",
            "manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:00","size":1}]}"#;
        assert!(
            matches!(read(multi_arch.as_bytes()).unwrap(), Pulled::Other(t) if t.contains("index"))
        );
    }

    #[test]
    fn a_malformed_package_manifest_is_an_error_naming_what() {
        let good: serde_json::Value =
            serde_json::from_slice(&manifest_for(&entry(), "t", None)).unwrap();
        let with = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut m = good.clone();
            edit(&mut m);
            match read(&serde_json::to_vec(&m).unwrap()) {
                Err(IndexError::Parse { message, .. }) => message,
                other => panic!("{other:?}"),
            }
        };
        assert!(with(&|m| m["layers"] = serde_json::json!([])).contains("one layer"));
        assert!(with(&|m| m["layers"][0]["digest"] = "sha512:00".into()).contains("sha256"));
        assert!(
            with(&|m| m["layers"][0]["mediaType"] = "text/plain".into())
                .contains("gzipped tarball")
        );
        assert!(
            with(&|m| m["annotations"][NAME_ANNOTATION] = "evil/weather".into())
                .contains("evil/weather")
        );
        assert!(with(&|m| m["annotations"][VERSION] = "9.9.9".into()).contains("9.9.9"));
        assert!(with(&|m| m["schemaVersion"] = 1.into()).contains("schemaVersion"));
        assert!(matches!(
            read(&vec![b' '; MAX_MANIFEST + 1]),
            Err(IndexError::Parse { .. })
        ));
    }

    #[test]
    fn an_artifact_pushed_by_another_tool_installs_without_dependencies() {
        let oras = format!(
            r#"{{"schemaVersion":2,"mediaType":"{MANIFEST_TYPE}","artifactType":"{ARTIFACT_TYPE}",
            "config":{{"mediaType":"{EMPTY_TYPE}","digest":"{EMPTY_DIGEST}","size":2}},
            "layers":[{{"mediaType":"{LAYER_TYPE}","digest":"sha256:{}","size":9,
            "annotations":{{"org.opencontainers.image.title":"weather.tar.gz"}}}}],
            "annotations":{{"org.opencontainers.image.created":"2026-01-01T00:00:00Z"}}}}"#,
            "cd".repeat(32)
        );
        let Pulled::Package(read) = read(oras.as_bytes()).unwrap() else {
            panic!()
        };
        assert!(read.deps.is_empty() && read.size == 9 && read.cksum == "cd".repeat(32));
    }
}
