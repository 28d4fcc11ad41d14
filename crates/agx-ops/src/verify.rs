//! `agx verify`: check what is installed against what its install recorded (docs/security.md,
//! "Provenance"): each version's files against the hash its receipt took when they were put
//! in place, and a signed version's Sigstore bundle (kept in its folder) against the archive
//! digest and the signer the receipt recorded, with its source's trusted root.

use serde::Serialize;

use super::{Context, OpsResult};
use agx_core::name::PackageName;
use agx_provenance::{
    IdentityPolicy, IdentityRule, ProvenanceError, SigstoreBundle, Subject, TrustRoot,
};
use agx_sources::ecosystem::{npm_provenance, provenance, pypi_provenance};
use agx_store::provenance::Signer;
use agx_store::{
    AGX_FILES, InstalledPackage, PROVENANCE_BUNDLE, PROVENANCE_SUBJECT, Source, StoreError,
};

/// How a version's files compare with its receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum FilesCheck {
    /// The same as when they were put in place.
    Unchanged,
    /// Different: a file was edited, added, removed or made (not) executable.
    Changed,
    /// The receipt has no hash (installed by an agx before 0.4): not checked.
    NotRecorded,
    /// The version's folder is gone or cannot be read.
    Unreadable { problem: String },
}

/// How a version's provenance compares with its receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum ProvenanceCheck {
    /// Its bundle verifies again for the installed archive and names the recorded signer.
    Verified { signer: String },
    /// Installed without a bundle.
    Unsigned,
    /// Verified when it was installed, from a signature agx does not keep (an MCPB bundle's
    /// signature block covers the bundle file, which is not kept once unpacked).
    CheckedAtInstall { signer: String },
    /// From a source agx does not check for provenance (a folder, an image, …).
    NotChecked,
    /// The bundle is missing, does not verify, or names another signer.
    Failed { problem: String },
}

#[derive(Debug, Clone, Serialize)]
pub struct VerifiedPackage {
    pub name: PackageName,
    pub version: semver::Version,
    pub files: FilesCheck,
    pub provenance: ProvenanceCheck,
}

impl VerifiedPackage {
    /// Whether anything differs from what was installed.
    pub fn is_mismatch(&self) -> bool {
        matches!(
            self.files,
            FilesCheck::Changed | FilesCheck::Unreadable { .. }
        ) || matches!(self.provenance, ProvenanceCheck::Failed { .. })
    }
}

/// Check `names` (every installed package when empty), in name order.
pub fn verify(ctx: &Context, names: &[PackageName]) -> OpsResult<Vec<VerifiedPackage>> {
    // The store's own listing: a version whose folder is damaged is reported, not skipped.
    let mut packages = ctx.store().list()?;
    if let Some(missing) = names
        .iter()
        .find(|n| !packages.iter().any(|p| &p.name == *n))
    {
        return Err(StoreError::NotInstalled {
            name: missing.clone(),
        }
        .into());
    }
    if !names.is_empty() {
        packages.retain(|p| names.contains(&p.name));
    }
    Ok(packages
        .into_iter()
        .map(|package| VerifiedPackage {
            files: files_of(&package),
            provenance: provenance_of(ctx, &package),
            name: package.name,
            version: package.version,
        })
        .collect())
}

fn files_of(package: &InstalledPackage) -> FilesCheck {
    let Some(recorded) = &package.receipt.files else {
        return FilesCheck::NotRecorded;
    };
    match agx_model::skills::tree_hash::hash_except(&package.dir, &AGX_FILES) {
        Ok(hash) if recorded.strip_prefix("sha256:") == Some(hash.as_str()) => {
            FilesCheck::Unchanged
        }
        Ok(_) => FilesCheck::Changed,
        Err(error) => FilesCheck::Unreadable {
            problem: error.to_string(),
        },
    }
}

fn provenance_of(ctx: &Context, package: &InstalledPackage) -> ProvenanceCheck {
    let receipt = &package.receipt;
    let Some(provenance) = &receipt.provenance else {
        return ProvenanceCheck::NotChecked;
    };
    let Some(signer) = &provenance.signer else {
        return ProvenanceCheck::Unsigned;
    };
    if let Source::Ecosystem { spec, .. } = &receipt.source
        && (spec.starts_with("mcpb:") || spec.contains("(mcpb:"))
    {
        return ProvenanceCheck::CheckedAtInstall {
            signer: signer.summary(),
        };
    }
    match check_bundle(ctx, package, signer) {
        Ok(()) => ProvenanceCheck::Verified {
            signer: signer.summary(),
        },
        Err(problem) => ProvenanceCheck::Failed { problem },
    }
}

/// The kept bundle verified again: for the artifact digest the receipt records (a registry
/// archive's sha256, an npm tarball's sha512), against the trusted root of the source it
/// came from, naming exactly the recorded signer; an npm or PyPI statement must still make
/// the claim it made at install about that artifact.
fn check_bundle(ctx: &Context, package: &InstalledPackage, signer: &Signer) -> Result<(), String> {
    let path = package.dir.join(PROVENANCE_BUNDLE);
    if !path.is_file() {
        return Err(format!("its bundle {} is missing", path.display()));
    }
    let bundle = SigstoreBundle::read(&path).map_err(|e| e.to_string())?;
    let receipt = &package.receipt;
    type StatementCheck<'a> = Box<dyn Fn(&SigstoreBundle) -> Result<(), ProvenanceError> + 'a>;
    let no_statement_check: StatementCheck = Box::new(|_| Ok(()));
    let (subject, trusted_root, statement) = match &receipt.source {
        Source::Registry { registry, .. } => {
            let trusted_root = agx_sources::index::source::select_entry(Some(registry), ctx.paths)
                .map_err(|e| e.to_string())?
                .trusted_root;
            let digest = match registry.starts_with("oci://") {
                // An OCI source's bundle signs the manifest, whose one layer is the archive.
                true => manifest_digest(&package.dir.join(PROVENANCE_SUBJECT), &receipt.sha256)?,
                false => hex::decode(&receipt.sha256)
                    .ok()
                    .and_then(|bytes| bytes.try_into().ok())
                    .ok_or_else(|| {
                        format!("the receipt's sha256 `{}` is damaged", receipt.sha256)
                    })?,
            };
            (Subject::Sha256(digest), trusted_root, no_statement_check)
        }
        Source::Ecosystem {
            spec, integrity, ..
        } if spec.starts_with("pypi:") || spec.contains("(pypi:") => {
            let digest = pypi_provenance::sha256_of(spec, integrity).ok_or_else(|| {
                "the receipt records no sha256 of the package's distribution".to_string()
            })?;
            let statement: StatementCheck =
                Box::new(move |bundle| pypi_provenance::check_kept(bundle, digest));
            (
                Subject::Sha256(digest),
                provenance::trusted_root(),
                statement,
            )
        }
        Source::Ecosystem {
            spec, integrity, ..
        } if spec.starts_with("oci:") || spec.contains("(oci:") => {
            // An image's bundle signs the digest it runs by, which the receipt records.
            let digest = integrity
                .iter()
                .find_map(|d| {
                    hex::decode(d.strip_prefix("sha256:")?)
                        .ok()?
                        .try_into()
                        .ok()
                })
                .ok_or_else(|| "the receipt records no image digest".to_string())?;
            (
                Subject::Sha256(digest),
                provenance::trusted_root(),
                no_statement_check,
            )
        }
        Source::Ecosystem {
            spec, integrity, ..
        } if spec.starts_with("npm:") || spec.contains("(npm:") => {
            let digest = integrity
                .iter()
                .find_map(|i| npm_provenance::sha512_of(i))
                .ok_or_else(|| "the receipt records no sha512 integrity".to_string())?;
            let statement: StatementCheck =
                Box::new(move |bundle| npm_provenance::check_kept(bundle, spec, digest));
            (
                Subject::Sha512(digest),
                provenance::trusted_root(),
                statement,
            )
        }
        other => {
            return Err(format!(
                "a package from {other} carries no provenance agx checks"
            ));
        }
    };
    let root =
        TrustRoot::configured_or_public_good(trusted_root.as_deref()).map_err(|e| e.to_string())?;
    let policy = IdentityPolicy {
        identity: IdentityRule::Exact(signer.identity.clone()),
        issuer: Some(signer.issuer.clone()).filter(|issuer| !issuer.is_empty()),
    };
    root.verify(subject, &bundle, &policy)
        .and_then(|_| statement(&bundle))
        .map_err(|e| e.to_string())
}

/// The digest of the OCI manifest kept beside a version's bundle, once it is checked to name
/// the archive the receipt records (`sha256`) as its layer.
fn manifest_digest(path: &std::path::Path, sha256: &str) -> Result<[u8; 32], String> {
    use agx_sources::index::oci::artifact;
    let bytes =
        agx_core::regular_file::read(path, artifact::MAX_MANIFEST as u64).map_err(|problem| {
            format!(
                "its signed manifest {} {}",
                path.display(),
                problem.describe()
            )
        })?;
    artifact::digest_naming_layer(&bytes, sha256)
        .map_err(|why| format!("its signed manifest {}: {why}", path.display()))
}
