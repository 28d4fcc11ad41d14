//! Which of the Sigstore bundles attached to an OCI manifest says who built it.
//!
//! Anyone who can push to a repository can attach referrers to any of its manifests, and a
//! scanner's SBOM or vulnerability attestation is a valid signature too. So a bundle counts
//! only when it is a signature of the digest (a message signature, or cosign's
//! `sign/v1` statement) or a build provenance statement; and when several identities signed,
//! the one trust on first use already recorded is preferred over the registry's listing
//! order, so a stranger's extra signature cannot take a pinned package's place.

use agx_provenance::{IdentityPolicy, ProvenanceError, Signer, SigstoreBundle, Subject, TrustRoot};

/// The claims about a manifest that say who built or signed it: cosign's image signature
/// (v3 and `--new-bundle-format`) and SLSA build provenance (v0.2, v1).
const COSIGN_SIGNATURE: &str = "https://sigstore.dev/cosign/sign/v1";
const SLSA_PROVENANCE: &str = "https://slsa.dev/provenance/";

fn says_who_built(bundle: &SigstoreBundle) -> bool {
    match bundle.statement() {
        // A message signature over the digest: the signer vouches for the manifest.
        None => true,
        Some(statement) => {
            statement.predicate_type == COSIGN_SIGNATURE
                || statement.predicate_type.starts_with(SLSA_PROVENANCE)
        }
    }
}

/// The signer of the manifest whose sha256 is `digest`, among the `bundles` attached to it
/// (`origin` names them in errors), with the bundle that proves it: the one signed by
/// `trusted` (the signer recorded before) when there is one, else the first in the
/// registry's order. Bundles of other claims are passed over; `None` when no bundle makes
/// a counted claim (unsigned). When counted bundles are attached and none verifies, the
/// version is refused with the last reason.
pub fn signer_among(
    bundles: Vec<Vec<u8>>,
    digest: [u8; 32],
    root: &TrustRoot,
    origin: &str,
    trusted: Option<&Signer>,
) -> Result<Option<(Signer, Vec<u8>)>, ProvenanceError> {
    let mut first = None;
    let mut refusal = None;
    for bytes in bundles {
        let parsed = match SigstoreBundle::parse(&bytes, origin) {
            Ok(parsed) => parsed,
            Err(error) => {
                refusal = Some(error);
                continue;
            }
        };
        if !says_who_built(&parsed) {
            tracing::debug!("{origin}: a referrer of another claim is passed over");
            continue;
        }
        match root.verify(Subject::Sha256(digest), &parsed, &IdentityPolicy::any()) {
            Ok(signer) if trusted.is_some_and(|t| t.same_signer(&signer)) => {
                return Ok(Some((signer, bytes)));
            }
            Ok(signer) => {
                first.get_or_insert((signer, bytes));
            }
            Err(error) => refusal = Some(error),
        }
    }
    match (first, refusal) {
        (Some(found), _) => Ok(Some(found)),
        (None, Some(error)) => Err(error),
        (None, None) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    //! acme's 1.0.0 manifest from the private Sigstore test instance
    //! (registry-fixtures/sigstore/oci), signed by acme (SLSA provenance), and by mallory
    //! twice: an image signature and an SBOM attestation.

    use super::*;
    use sha2::{Digest, Sha256};
    use std::path::{Path, PathBuf};

    fn folder() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../registry-fixtures/sigstore")
    }

    fn bundle(label: &str) -> Vec<u8> {
        let name = match label {
            "acme" => "acme-geo-1.0.0.manifest.json.sigstore.json".to_string(),
            other => format!("acme-geo-1.0.0.manifest.json.{other}.sigstore.json"),
        };
        std::fs::read(folder().join("oci").join(name)).unwrap()
    }

    fn choose(
        labels: &[&str],
        trusted: Option<&Signer>,
    ) -> Result<Option<Signer>, ProvenanceError> {
        let manifest = std::fs::read(folder().join("oci/acme-geo-1.0.0.manifest.json")).unwrap();
        let root = TrustRoot::read(&folder().join("trusted_root.json")).unwrap();
        let bundles = labels.iter().map(|l| bundle(l)).collect();
        signer_among(
            bundles,
            Sha256::digest(&manifest).into(),
            &root,
            "test",
            trusted,
        )
        .map(|found| found.map(|(signer, _)| signer))
    }

    fn repository(signer: Option<Signer>) -> String {
        signer.and_then(|s| s.repository).unwrap_or_default()
    }

    #[test]
    fn the_recorded_signer_is_preferred_over_the_listing_order() {
        let acme = choose(&["acme"], None).unwrap().unwrap();
        let mallory = choose(&["mallory"], None).unwrap().unwrap();
        assert!(!acme.same_signer(&mallory));
        // First use: the registry's order decides; after that, the recorded signer.
        assert_eq!(
            repository(choose(&["mallory", "acme"], None).unwrap()),
            "https://github.com/mallory/geo"
        );
        assert_eq!(
            repository(choose(&["mallory", "acme"], Some(&acme)).unwrap()),
            "https://github.com/acme/geo"
        );
        // Without acme's own signature, mallory's is what there is (and trust on first use
        // then refuses it).
        assert_eq!(
            repository(choose(&["mallory"], Some(&acme)).unwrap()),
            "https://github.com/mallory/geo"
        );
    }

    #[test]
    fn an_attestation_of_another_claim_does_not_say_who_built_it() {
        assert_eq!(choose(&["sbom"], None).unwrap(), None);
        assert_eq!(
            repository(choose(&["sbom", "acme"], None).unwrap()),
            "https://github.com/acme/geo"
        );
    }

    #[test]
    fn attached_bundles_of_which_none_verifies_refuse_the_version() {
        assert_eq!(choose(&[], None).unwrap(), None);
        let manifest = std::fs::read(folder().join("oci/acme-geo-1.1.0.manifest.json")).unwrap();
        let root = TrustRoot::read(&folder().join("trusted_root.json")).unwrap();
        // acme's bundle signs the 1.0.0 manifest, not this one.
        let refused = signer_among(
            vec![bundle("acme"), b"{not a bundle".to_vec()],
            Sha256::digest(&manifest).into(),
            &root,
            "test",
            None,
        );
        assert!(refused.is_err());
    }
}
