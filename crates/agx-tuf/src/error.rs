//! Why a TUF repository was refused, in the words a user reads: each variant is one cause of
//! docs/registry.md (tampered, rollback, freeze, mix-and-match, threshold, rotation, downgrade) and
//! names the file it was found in.

use agx_core::error::Hint;

#[derive(Debug, thiserror::Error)]
pub enum TufError {
    #[error("{file}: not valid TUF metadata: {reason}")]
    Malformed { file: String, reason: String },

    #[error("{file}: signed by {valid} of the {threshold} trusted keys its role needs ({role})")]
    ThresholdNotMet {
        file: String,
        role: String,
        valid: usize,
        threshold: u64,
    },

    #[error(
        "{file}: version {new} is older than the trusted version {trusted} (a rollback: the server offers outdated metadata)"
    )]
    Rollback {
        file: String,
        trusted: u64,
        new: u64,
    },

    #[error("{file}: version {found} where {expected} was expected")]
    WrongVersion {
        file: String,
        expected: u64,
        found: u64,
    },

    #[error("{file}: expired on {expires} (a freeze: the server keeps offering stale metadata)")]
    Expired { file: String, expires: String },

    #[error("{file}: does not match what {by} says about it ({detail}) (mix-and-match)")]
    MixAndMatch {
        file: String,
        by: String,
        detail: String,
    },

    #[error("{file}: its {what} does not match the signed metadata (the file was tampered with)")]
    Tampered { file: String, what: String },

    #[error("root rotation failed at {file}: {reason}")]
    RootRotation { file: String, reason: String },

    #[error("{name}: no such target in the signed metadata")]
    UnknownTarget { name: String },

    #[error("{url}: {reason}")]
    Fetch { url: String, reason: String },

    #[error("{url}: not found")]
    Missing { url: String },

    #[error(
        "no trusted metadata of this registry is cached yet, and agx is offline: run once online"
    )]
    NothingCached,

    #[error(
        "{source_name} was signed, but serves no TUF metadata now (a downgrade to an unsigned registry)"
    )]
    Downgrade { source_name: String },

    #[error("its root is signed by other keys ({found}) than the lock records ({locked})")]
    RootKeysChanged { locked: String, found: String },

    #[error("{0}")]
    Io(#[from] std::io::Error),

    #[error("{what}")]
    Usage { what: String },
}

impl Hint for TufError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            TufError::Malformed { .. } => {
                "the registry's metadata is damaged or not TUF; tell the registry's operator".into()
            }
            TufError::ThresholdNotMet { .. } => "the metadata is not signed by the keys agx trusts for this registry: do not install from it, and tell its operator (if the keys were changed on purpose, the operator must rotate them through root metadata)".into(),
            TufError::Rollback { .. } | TufError::WrongVersion { .. } => "the server (or something between you and it) offers older metadata than agx has seen; nothing was installed; try again later or tell the registry's operator".into(),
            TufError::Expired { .. } => "the registry's operator must re-sign it (`agx registry refresh-timestamp` for the timestamp, `agx registry sign` for the others); nothing was installed".into(),
            TufError::MixAndMatch { .. } => "the registry's files do not belong together (a partial upload or an attack); nothing was installed; try again later".into(),
            TufError::Tampered { .. } => "a file differs from what the registry signed; nothing was installed; do not use this mirror, and tell the registry's operator".into(),
            TufError::RootRotation { .. } => "the registry's new root is not signed by the keys agx trusts; if the operator lost their keys, remove and re-add the source with the new root (`agx registry remove-source`, `add-source --root`)".into(),
            TufError::UnknownTarget { .. } => "the file is not listed in the registry's signed targets; ask the operator to re-sign the registry".into(),
            TufError::Fetch { .. } | TufError::Missing { .. } => {
                "check the registry URL and your connection".into()
            }
            TufError::RootKeysChanged { .. } => "if the registry's operator rotated the root keys on purpose (ask them), run `agx lock` to record the new ones; otherwise do not sync from this registry".into(),
            TufError::NothingCached => "run the command once without --offline".into(),
            TufError::Downgrade { .. } => "do not install from this registry until its operator restores the metadata; if the registry stopped signing on purpose, remove and re-add the source".into(),
            TufError::Io(_) | TufError::Usage { .. } => return None,
        })
    }
}

pub type Result<T, E = TufError> = std::result::Result<T, E>;

pub(crate) fn malformed(file: &str, reason: impl std::fmt::Display) -> TufError {
    TufError::Malformed {
        file: file.to_string(),
        reason: reason.to_string(),
    }
}
