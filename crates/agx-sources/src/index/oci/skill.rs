//! ToolHive's skill artifacts (docs/organizations.md, "Skills as OCI artifacts"): one Agent
//! Skill in an OCI registry, as `thv skill push` writes it and agx reads and pushes it.
//!
//! An image index (`artifactType` [`SKILL_ARTIFACT_TYPE`]) lists one image manifest per
//! platform (linux/amd64, linux/arm64: Kubernetes mounts skills as image volumes). Every
//! manifest has the same one layer, a gzipped tar with the skill's files at its root
//! (`SKILL.md`, no top folder), and an OCI image config whose labels repeat the skill's
//! front matter. The skill's name is the repository's last segment; the tag is its version.
//! A plain manifest of that artifact type (as `oras push --artifact-type` writes) is read too.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::artifact::{Descriptor, MANIFEST_TYPE, Manifest, one_gzip_layer};
use crate::index::{IndexEntry, IndexError};
use agx_core::name::PackageName;
use agx_model::manifest::{ExtensionSummary, SkillSummary};

/// The `artifactType` of a skill's index and manifests.
pub const SKILL_ARTIFACT_TYPE: &str = "dev.toolhive.skills.v1";
/// An OCI image index.
pub const INDEX_TYPE: &str = "application/vnd.oci.image.index.v1+json";
const IMAGE_CONFIG_TYPE: &str = "application/vnd.oci.image.config.v1+json";
const IMAGE_LAYER_TYPE: &str = "application/vnd.oci.image.layer.v1.tar+gzip";
const TITLE: &str = "org.opencontainers.image.title";
const CREATED: &str = "org.opencontainers.image.created";
/// Keys of the manifest's annotations and the config's labels.
const NAME: &str = "dev.toolhive.skills.name";
const DESCRIPTION: &str = "dev.toolhive.skills.description";
const VERSION: &str = "dev.toolhive.skills.version";
const ALLOWED_TOOLS: &str = "dev.toolhive.skills.allowedTools";
const LICENSE: &str = "dev.toolhive.skills.license";
const FILES: &str = "dev.toolhive.skills.files";
/// The layer's file name, as ToolHive names it.
pub const LAYER_FILE: &str = "skill.tar.gz";
/// The platforms ToolHive pushes by default.
const PLATFORMS: [(&str, &str); 2] = [("linux", "amd64"), ("linux", "arm64")];

/// Whether a manifest is a skill artifact: its artifact type, or (from a tool that sets none)
/// ToolHive's name annotation.
pub fn is_skill(manifest: &Manifest) -> bool {
    manifest.artifact_type.as_deref() == Some(SKILL_ARTIFACT_TYPE)
        || manifest.annotations.contains_key(NAME)
}

/// The index entry of a skill artifact's manifest tagged `version` in the repository of
/// `name`: its layer is the archive, the skill its one item. A skill named other than the
/// repository, or a version annotation other than the tag, is an error.
pub fn entry(
    manifest: &Manifest,
    name: &PackageName,
    version: &semver::Version,
    location: &str,
) -> Result<IndexEntry, IndexError> {
    let bad = |message: String| IndexError::Parse {
        location: location.to_string(),
        message,
    };
    let (layer, cksum) = one_gzip_layer(
        manifest,
        "a skill artifact has one layer (the skill's files)",
        IMAGE_LAYER_TYPE,
    )
    .map_err(bad)?;
    let annotation = |key: &str| {
        manifest
            .annotations
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    };
    let skill = name.name();
    if let Some(named) = annotation(NAME)
        && named != skill
    {
        return Err(bad(format!(
            "the artifact is the skill `{named}`, and a skill's repository ends in its name (`{skill}` here)"
        )));
    }
    if let Some(said) = annotation(VERSION)
        && let Ok(said) = semver::Version::parse(said.trim_start_matches('v'))
        && &said != version
    {
        return Err(bad(format!(
            "the artifact says version {said}, and its tag is {version}"
        )));
    }
    let description = annotation(DESCRIPTION).map(str::to_string);
    Ok(IndexEntry {
        v: 1,
        name: name.clone(),
        vers: version.clone(),
        cksum,
        size: layer.size,
        deps: BTreeMap::new(),
        yanked: false,
        agx: None,
        description: description.clone(),
        provenance: None,
        extension: ExtensionSummary {
            skills: vec![SkillSummary {
                name: skill.to_string(),
                description: description.unwrap_or_default(),
            }],
            ..ExtensionSummary::default()
        },
    })
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Index {
    schema_version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    media_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    artifact_type: Option<String>,
    manifests: Vec<IndexDescriptor>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    annotations: BTreeMap<String, String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct IndexDescriptor {
    media_type: String,
    digest: String,
    size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    platform: Option<Platform>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Platform {
    architecture: String,
    os: String,
}

/// The manifest to read for a skill's image index: its first image manifest (every platform
/// holds the same layer). `None` when `bytes` is not a skill's index.
pub fn first_manifest(bytes: &[u8]) -> Option<String> {
    let index: Index = serde_json::from_slice(bytes).ok()?;
    if index.media_type.as_deref().is_some_and(|t| t != INDEX_TYPE)
        || index.artifact_type.as_deref() != Some(SKILL_ARTIFACT_TYPE)
    {
        return None;
    }
    index
        .manifests
        .into_iter()
        .find(|m| m.media_type == MANIFEST_TYPE)
        .map(|m| m.digest)
}

/// What the front matter of the skill being pushed says, for the labels and annotations.
#[derive(Debug, Clone)]
pub struct SkillFacts {
    pub name: String,
    pub description: String,
    pub version: semver::Version,
    pub license: Option<String>,
    pub allowed_tools: Vec<String>,
}

/// A skill artifact ready to push: blobs (the configs; the layer is pushed from its file),
/// the platform manifests and the index, each with its digest.
#[derive(Debug)]
pub struct SkillArtifact {
    pub configs: Vec<(Vec<u8>, String)>,
    pub manifests: Vec<(Vec<u8>, String)>,
    pub index: Vec<u8>,
}

fn digest_of(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

/// The artifact of a skill whose layer `flat` packed (`created`: RFC 3339).
pub fn build(facts: &SkillFacts, flat: &agx_archive::FlatArchive, created: &str) -> SkillArtifact {
    let json_list = |items: &[String]| {
        if items.is_empty() {
            // What ToolHive writes for none (Go's nil slice).
            "null".to_string()
        } else {
            serde_json::to_string(items).expect("strings serialize")
        }
    };
    let version = facts.version.to_string();
    let labels = BTreeMap::from([
        (NAME, facts.name.clone()),
        (DESCRIPTION, facts.description.clone()),
        (VERSION, version.clone()),
        (ALLOWED_TOOLS, json_list(&facts.allowed_tools)),
        (LICENSE, facts.license.clone().unwrap_or_default()),
        (FILES, json_list(&flat.files)),
    ]);
    let annotations: BTreeMap<String, String> = BTreeMap::from([
        (CREATED.to_string(), created.to_string()),
        (NAME.to_string(), facts.name.clone()),
        (DESCRIPTION.to_string(), facts.description.clone()),
        (VERSION.to_string(), version),
    ]);
    let layer = Descriptor {
        media_type: IMAGE_LAYER_TYPE.to_string(),
        digest: format!("sha256:{}", flat.archive.sha256),
        size: flat.archive.size,
        data: None,
        annotations: BTreeMap::from([(TITLE.to_string(), LAYER_FILE.to_string())]),
    };
    let mut artifact = SkillArtifact {
        configs: Vec::new(),
        manifests: Vec::new(),
        index: Vec::new(),
    };
    let mut entries = Vec::new();
    for (os, architecture) in PLATFORMS {
        let config = serde_json::to_vec(&serde_json::json!({
            "created": created,
            "architecture": architecture,
            "os": os,
            "config": { "Labels": labels },
            "rootfs": { "type": "layers", "diff_ids": [format!("sha256:{}", flat.tar_sha256)] },
            "history": [{ "created": created, "created_by": "agx publish --skill" }],
        }))
        .expect("a config serializes");
        let config_digest = digest_of(&config);
        let manifest = serde_json::to_vec(&Manifest {
            schema_version: 2,
            media_type: Some(MANIFEST_TYPE.to_string()),
            artifact_type: Some(SKILL_ARTIFACT_TYPE.to_string()),
            config: Descriptor {
                media_type: IMAGE_CONFIG_TYPE.to_string(),
                digest: config_digest.clone(),
                size: config.len() as u64,
                data: None,
                annotations: BTreeMap::new(),
            },
            layers: vec![layer.clone()],
            annotations: annotations.clone(),
        })
        .expect("a manifest serializes");
        let manifest_digest = digest_of(&manifest);
        entries.push(IndexDescriptor {
            media_type: MANIFEST_TYPE.to_string(),
            digest: manifest_digest.clone(),
            size: manifest.len() as u64,
            platform: Some(Platform {
                architecture: architecture.to_string(),
                os: os.to_string(),
            }),
        });
        artifact.configs.push((config, config_digest));
        artifact.manifests.push((manifest, manifest_digest));
    }
    artifact.index = serde_json::to_vec(&Index {
        schema_version: 2,
        media_type: Some(INDEX_TYPE.to_string()),
        artifact_type: Some(SKILL_ARTIFACT_TYPE.to_string()),
        manifests: entries,
        annotations,
    })
    .expect("an index serializes");
    artifact
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SkillFacts {
        SkillFacts {
            name: "review".into(),
            description: "Review a change".into(),
            version: semver::Version::new(1, 2, 0),
            license: Some("MIT".into()),
            allowed_tools: vec!["Read".into(), "Grep".into()],
        }
    }

    fn packed(dir: &std::path::Path) -> agx_archive::FlatArchive {
        let skill = dir.join("review");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(skill.join("SKILL.md"), "---\nname: review\n---\nBody\n").unwrap();
        agx_archive::pack_flat(&skill, &dir.join("out"), LAYER_FILE).unwrap()
    }

    #[test]
    fn a_built_artifact_reads_back_as_the_skill_it_holds() {
        let temp = tempfile::tempdir().unwrap();
        let flat = packed(temp.path());
        let artifact = build(&facts(), &flat, "2026-01-01T00:00:00Z");
        assert_eq!(artifact.manifests.len(), 2);
        let first = first_manifest(&artifact.index).unwrap();
        assert_eq!(first, artifact.manifests[0].1);
        let manifest: Manifest = serde_json::from_slice(&artifact.manifests[0].0).unwrap();
        assert!(is_skill(&manifest));
        let name = PackageName::parse("skills/review").unwrap();
        let version = semver::Version::new(1, 2, 0);
        let entry = entry(&manifest, &name, &version, "oci://x").unwrap();
        assert_eq!(entry.cksum, flat.archive.sha256);
        assert_eq!(entry.extension.skills[0].name, "review");
        assert_eq!(entry.description.as_deref(), Some("Review a change"));

        let config: serde_json::Value = serde_json::from_slice(&artifact.configs[1].0).unwrap();
        assert_eq!(config["architecture"], "arm64");
        let labels = &config["config"]["Labels"];
        assert_eq!(labels[FILES], r#"["SKILL.md"]"#);
        assert_eq!(labels[ALLOWED_TOOLS], r#"["Read","Grep"]"#);
        assert_eq!(
            config["rootfs"]["diff_ids"][0],
            format!("sha256:{}", flat.tar_sha256)
        );
        assert_eq!(digest_of(&artifact.configs[1].0), artifact.configs[1].1);
    }

    #[test]
    fn a_skill_named_other_than_its_repository_or_tag_is_refused() {
        let temp = tempfile::tempdir().unwrap();
        let artifact = build(&facts(), &packed(temp.path()), "t");
        let manifest: Manifest = serde_json::from_slice(&artifact.manifests[0].0).unwrap();
        let v = semver::Version::new(1, 2, 0);
        let other = PackageName::parse("skills/other").unwrap();
        let message = |r: Result<IndexEntry, IndexError>| match r {
            Err(IndexError::Parse { message, .. }) => message,
            other => panic!("{other:?}"),
        };
        assert!(message(entry(&manifest, &other, &v, "x")).contains("`review`"));
        let review = PackageName::parse("skills/review").unwrap();
        let later = semver::Version::new(2, 0, 0);
        assert!(message(entry(&manifest, &review, &later, "x")).contains("1.2.0"));
        let mut two = manifest.clone();
        two.layers.push(two.layers[0].clone());
        assert!(message(entry(&two, &review, &v, "x")).contains("one layer"));
    }

    #[test]
    fn only_a_skill_index_names_a_manifest() {
        let image_index = format!(
            r#"{{"schemaVersion":2,"mediaType":"{INDEX_TYPE}","manifests":[{{"mediaType":"{MANIFEST_TYPE}","digest":"sha256:00","size":1}}]}}"#
        );
        assert_eq!(first_manifest(image_index.as_bytes()), None);
        assert_eq!(first_manifest(b"not json"), None);
    }
}
