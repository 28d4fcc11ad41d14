//! Trust on first use of a package's signer (docs/security.md, "Provenance"): the first
//! verified install records who signed it; a later version signed by someone else, or not
//! signed at all, is refused unless the user allows that change, and what was allowed is
//! recorded beside the version.

use serde::{Deserialize, Serialize};

use agx_core::name::PackageName;
pub use agx_provenance::Signer;

use crate::StoreError;

/// Where the artifact a bundle signs is kept beside it, when that is not the archive
/// itself (an OCI source's manifest, whose one layer is the archive).
pub fn subject_beside(bundle: &std::path::Path) -> std::path::PathBuf {
    let mut name = bundle.file_name().unwrap_or_default().to_os_string();
    name.push(".subject");
    bundle.with_file_name(name)
}

/// What an install learnt about who built a version, recorded in its receipt.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// Who signed this version, as its bundle proved; absent: the version is unsigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer: Option<Signer>,
    /// Who is trusted to sign the package's next versions: this version's signer, or the
    /// earlier one, carried over a version allowed unsigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted: Option<Signer>,
    /// The change this install was allowed to make (`--allow-signer-change`,
    /// `--allow-unsigned`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed: Option<Allowed>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Allowed {
    SignerChange,
    Unsigned,
}

/// What the signer of a version is compared with, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The user's installed version (an install or update).
    InstalledVersion,
    /// The version the project's previous lock held (`agx lock`, `agx sync`).
    LockedVersion,
    /// What agx.lock records for this very version (a locked sync).
    Lock,
}

impl Basis {
    fn describe(self, trusted: &Signer) -> String {
        match self {
            Basis::InstalledVersion => {
                format!("its installed version was signed by {}", trusted.summary())
            }
            Basis::LockedVersion => format!(
                "the version agx.lock held was signed by {}",
                trusted.summary()
            ),
            Basis::Lock => format!("agx.lock records {} as its signer", trusted.summary()),
        }
    }
}

/// A version whose signer is not the one expected: another signer (`found`), or none.
#[derive(Debug, thiserror::Error)]
#[error("{name} {version} is {}, but {expected}", match found { Some(signer) => format!("signed by {}", signer.summary()), None => "not signed".into() })]
pub struct SignerMismatch {
    pub name: PackageName,
    pub version: semver::Version,
    /// What it was compared with, and who that names.
    pub expected: String,
    pub found: Option<Signer>,
    pub basis: Basis,
}

impl SignerMismatch {
    pub(crate) fn hint(&self) -> String {
        let name = &self.name;
        match (self.basis, &self.found) {
            (Basis::Lock, _) => "the registry's bundle and agx.lock disagree on who built it: if agx.lock was edited, restore it; if the publisher's change is expected, run `agx lock --allow-signer-change` (or --allow-unsigned) and review the lock's diff".into(),
            (_, Some(_)) => format!(
                "someone else built this version: ask {name}'s publisher whether the change is theirs (a new repository or workflow) before you install it; if it is, pass --allow-signer-change, which trusts the new signer from now on"
            ),
            (_, None) => format!(
                "{name}'s earlier versions came with a Sigstore bundle and this one does not: ask its publisher why before you install it; if expected, pass --allow-unsigned (the earlier signer stays the one expected next)"
            ),
        }
    }
}

/// The changes of signer a command may make (`--allow-signer-change`, `--allow-unsigned`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SignerChanges {
    pub allow_signer_change: bool,
    pub allow_unsigned: bool,
}

impl Provenance {
    /// One line for `info` and `install`: the signer, or `unsigned`.
    pub fn summary(&self) -> String {
        match (&self.signer, self.allowed) {
            (Some(signer), Some(Allowed::SignerChange)) => {
                format!(
                    "{} (a new signer, allowed with --allow-signer-change)",
                    signer.summary()
                )
            }
            (Some(signer), _) => signer.summary(),
            (None, Some(Allowed::Unsigned)) => match &self.trusted {
                Some(trusted) => format!(
                    "unsigned (allowed with --allow-unsigned; earlier versions were signed by {})",
                    trusted.summary()
                ),
                None => "unsigned".into(),
            },
            (None, _) => "unsigned".into(),
        }
    }
}

/// The provenance to record for `version` of `name`, signed by `signer` (`None`: unsigned),
/// given what the installed version recorded (`previous`).
pub fn decide(
    name: &PackageName,
    version: &semver::Version,
    (previous, basis): (Option<&Provenance>, Basis),
    signer: Option<Signer>,
    changes: SignerChanges,
) -> Result<Provenance, StoreError> {
    let trusted = previous.and_then(|p| p.trusted.as_ref());
    match (trusted, signer) {
        (None, signer) => Ok(Provenance {
            trusted: signer.clone(),
            signer,
            allowed: None,
        }),
        (Some(trusted), Some(signer)) if trusted.same_signer(&signer) => Ok(Provenance {
            trusted: Some(signer.clone()),
            signer: Some(signer),
            allowed: None,
        }),
        (Some(trusted), Some(signer)) => {
            if !changes.allow_signer_change {
                return Err(mismatch(
                    name,
                    version,
                    basis.describe(trusted),
                    Some(signer),
                    basis,
                ));
            }
            Ok(Provenance {
                trusted: Some(signer.clone()),
                signer: Some(signer),
                allowed: Some(Allowed::SignerChange),
            })
        }
        (Some(trusted), None) => {
            if !changes.allow_unsigned {
                return Err(mismatch(
                    name,
                    version,
                    basis.describe(trusted),
                    None,
                    basis,
                ));
            }
            Ok(Provenance {
                signer: None,
                trusted: Some(trusted.clone()),
                allowed: Some(Allowed::Unsigned),
            })
        }
    }
}

fn mismatch(
    name: &PackageName,
    version: &semver::Version,
    expected: String,
    found: Option<Signer>,
    basis: Basis,
) -> StoreError {
    StoreError::SignerMismatch(Box::new(SignerMismatch {
        name: name.clone(),
        version: version.clone(),
        expected,
        found,
        basis,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer(repo: &str) -> Signer {
        Signer {
            issuer: "https://token.actions.githubusercontent.com".into(),
            identity: format!(
                "https://github.com/{repo}/.github/workflows/release.yml@refs/tags/v1"
            ),
            repository: Some(format!("https://github.com/{repo}")),
            source_ref: Some("refs/tags/v1".into()),
            workflow: None,
        }
    }

    fn geo() -> (PackageName, semver::Version) {
        (
            PackageName::parse("acme/geo").unwrap(),
            semver::Version::new(1, 1, 0),
        )
    }

    #[test]
    fn the_kept_subject_is_named_as_the_installer_moves_it() {
        let staged = std::path::Path::new("stage").join(crate::PROVENANCE_BUNDLE);
        assert_eq!(
            subject_beside(&staged),
            std::path::Path::new("stage").join(crate::PROVENANCE_SUBJECT)
        );
    }

    #[test]
    fn the_first_signer_is_trusted_and_kept() {
        let (name, version) = geo();
        let first = decide(
            &name,
            &version,
            (None, Basis::InstalledVersion),
            Some(signer("acme/geo")),
            SignerChanges::default(),
        )
        .unwrap();
        assert_eq!(first.trusted, Some(signer("acme/geo")));
        let next = decide(
            &name,
            &version,
            (Some(&first), Basis::InstalledVersion),
            Some(signer("acme/geo")),
            SignerChanges::default(),
        )
        .unwrap();
        assert_eq!(next.allowed, None);
    }

    #[test]
    fn another_signer_or_none_is_refused_unless_allowed_and_the_trust_carries_over() {
        let (name, version) = geo();
        let first = decide(
            &name,
            &version,
            (None, Basis::InstalledVersion),
            Some(signer("acme/geo")),
            SignerChanges::default(),
        )
        .unwrap();
        let err = decide(
            &name,
            &version,
            (Some(&first), Basis::InstalledVersion),
            Some(signer("mallory/geo")),
            SignerChanges::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("mallory/geo"), "{err}");
        assert!(err.to_string().contains("acme/geo"), "{err}");
        assert!(matches!(
            decide(
                &name,
                &version,
                (Some(&first), Basis::InstalledVersion),
                None,
                SignerChanges::default()
            ),
            Err(StoreError::SignerMismatch(m)) if m.found.is_none()
        ));
        let unsigned = decide(
            &name,
            &version,
            (Some(&first), Basis::InstalledVersion),
            None,
            SignerChanges {
                allow_unsigned: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(unsigned.allowed, Some(Allowed::Unsigned));
        // The earlier signer is still the one expected next.
        assert!(
            decide(
                &name,
                &version,
                (Some(&unsigned), Basis::InstalledVersion),
                Some(signer("mallory/geo")),
                SignerChanges::default()
            )
            .is_err()
        );
        let changed = decide(
            &name,
            &version,
            (Some(&first), Basis::InstalledVersion),
            Some(signer("mallory/geo")),
            SignerChanges {
                allow_signer_change: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(changed.trusted, Some(signer("mallory/geo")));
        assert_eq!(changed.allowed, Some(Allowed::SignerChange));
    }
}
