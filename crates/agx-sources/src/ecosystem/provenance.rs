//! What the ecosystems' provenance checks share (npm attestations, PyPI's PEP 740
//! provenance): asking the registry for a version's document, what counts as "serves none",
//! and the trusted root they are verified against.

use std::path::PathBuf;

use agx_provenance::{ProvenanceError, Signer, SigstoreBundle, TrustRoot};

use super::EcosystemError;
use crate::index::{Fetched, Http, IndexError};

/// A verified provenance: who signed it, and its Sigstore bundle (kept in the version's
/// folder for `agx verify`).
pub(super) struct Verified {
    pub signer: Signer,
    pub bundle: Vec<u8>,
}

/// What a registry answered for a version's provenance document.
pub(super) enum Served {
    Document(Vec<u8>),
    /// 404 or 410: it serves none for this version (unsigned).
    Nothing,
    /// 401 or 403: it would not say (a private registry): not checked.
    Refused,
}

/// The provenance document at `url`, through agx's HTTP layer (its limits, retries and
/// proxies). Any other failure (a 429 after the retries, a server error, the network) is
/// not an answer, and fails the install instead of passing for unsigned.
pub(super) fn fetch_document(url: &str) -> Result<Served, EcosystemError> {
    let failed = |e: IndexError| EcosystemError::Download {
        url: url.to_string(),
        source: Box::new(e),
    };
    match Http::from_env()
        .map_err(failed)?
        .fetch(url, &Default::default())
    {
        Ok(Fetched::Fresh { body, .. }) => Ok(Served::Document(body)),
        Ok(Fetched::NotModified) => Ok(Served::Nothing),
        Err(IndexError::NotFound { .. }) => Ok(Served::Nothing),
        Err(e @ IndexError::Unauthorized { .. }) => {
            tracing::debug!("{url}: provenance not served to agx ({e})");
            Ok(Served::Refused)
        }
        Err(IndexError::Status { status: 403, .. }) => Ok(Served::Refused),
        Err(e) => Err(failed(e)),
    }
}

/// The trusted root that replaces the public-good one for the ecosystems' provenance
/// (`AGX_TRUSTED_ROOT`).
pub fn trusted_root() -> Option<PathBuf> {
    std::env::var_os(crate::index::source::TRUSTED_ROOT_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The trusted root to verify against: `AGX_TRUSTED_ROOT`, else Sigstore's public-good one.
pub(super) fn trust_root() -> Result<TrustRoot, ProvenanceError> {
    TrustRoot::configured_or_public_good(trusted_root().as_deref())
}

/// A verified DSSE bundle's statement must make a claim `accepted` takes and name, in one
/// subject, both `name` (the file or package URL the registry serves it for; any name when
/// `None`) and the artifact's digest `(algorithm, hex)`: a valid signature over another
/// claim, or over another artifact's name, is not this one's provenance.
pub(super) fn check_statement(
    bundle: &SigstoreBundle,
    accepted: impl Fn(&str) -> bool,
    name: Option<&str>,
    (algorithm, hex): (&str, &str),
) -> Result<(), ProvenanceError> {
    let statement = bundle
        .statement()
        .ok_or_else(|| ProvenanceError::Rejected {
            reason: "its attestation is not an in-toto statement".into(),
        })?;
    if !accepted(&statement.predicate_type) {
        return Err(ProvenanceError::Rejected {
            reason: format!(
                "its attestation claims {}, which is not provenance agx reads here",
                statement.predicate_type.escape_debug()
            ),
        });
    }
    if !statement.names(name, algorithm, hex) {
        // Quoted and escaped: the names come from whoever signed the statement.
        let named: Vec<String> = statement
            .subjects
            .iter()
            .map(|s| format!("\"{}\"", s.name.escape_debug()))
            .collect();
        return Err(ProvenanceError::Rejected {
            reason: format!(
                "the signed statement has no subject{} with the artifact's {algorithm} digest (its subjects: {})",
                name.map(|name| format!(" named \"{name}\""))
                    .unwrap_or_default(),
                named.join(", ")
            ),
        });
    }
    Ok(())
}
