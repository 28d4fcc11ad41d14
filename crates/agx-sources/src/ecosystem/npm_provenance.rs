//! Who built an npm package version: the SLSA provenance attestation its registry serves at
//! `/-/npm/v1/attestations/NAME@VERSION` (written by `npm publish --provenance` and by
//! trusted publishing), verified offline against the Sigstore trusted root and bound to the
//! tarball npm installed by its SHA-512 (docs/ecosystem.md, "Provenance by source kind").

use agx_provenance::{IdentityPolicy, ProvenanceError, Signer, SigstoreBundle, Subject, TrustRoot};

use super::EcosystemError;
use super::provenance::{Served, Verified, fetch_document, trust_root};

/// Where npm registries serve a version's attestations.
const ATTESTATIONS_PATH: &str = "-/npm/v1/attestations";
/// The predicate type of a build provenance statement (SLSA v0.2 and v1).
const SLSA_PROVENANCE: &str = "https://slsa.dev/provenance/";

/// The registry's base URL, from the URL npm downloaded `name`'s tarball from: registries
/// serve tarballs at `BASE/NAME/-/FILE.tgz`. `None` when the URL is not of that shape (a
/// `file:` or git source, or a registry laid out otherwise), so no attestation is asked for.
pub(super) fn registry_of(resolved: &str, name: &str) -> Option<String> {
    if !(resolved.starts_with("https://") || resolved.starts_with("http://")) {
        return None;
    }
    let marker = format!("/{name}/-/");
    let at = resolved.rfind(&marker)?;
    // Never a user or password (or token) a URL carries into requests' errors and logs:
    // agx's HTTP layer adds a registry's credential itself.
    let mut base = reqwest::Url::parse(&resolved[..at]).ok()?;
    base.set_username("").ok()?;
    base.set_password(None).ok()?;
    Some(base.as_str().trim_end_matches('/').to_string())
}

/// The URL of `name@version`'s attestations at `registry` (a scope's `/` escaped, as npm
/// asks registries).
fn attestations_url(registry: &str, name: &str, version: &str) -> String {
    format!(
        "{}/{ATTESTATIONS_PATH}/{}@{version}",
        registry.trim_end_matches('/'),
        name.replace('/', "%2f")
    )
}

/// The signer of `name@version`'s build provenance, served by `registry` and bound to the
/// tarball whose npm integrity is `integrity`: `None` when the registry serves no
/// provenance for it (`Some(None)`: unsigned), `None` when it would not say (a private
/// registry's 401 or 403: not checked). A document that is served and does not verify
/// refuses the install.
pub(super) fn signer(
    spec: &str,
    registry: &str,
    name: &str,
    version: &str,
    integrity: &str,
) -> Result<Option<Option<Verified>>, EcosystemError> {
    let url = attestations_url(registry, name, version);
    let document = match fetch_document(&url)? {
        Served::Document(document) => document,
        Served::Nothing => return Ok(Some(None)),
        Served::Refused => return Ok(None),
    };
    let refused = |error| EcosystemError::Provenance {
        spec: spec.to_string(),
        error,
    };
    let digest = sha512_of(integrity).ok_or_else(|| {
        refused(ProvenanceError::Rejected {
            reason: format!(
                "npm recorded the tarball's integrity as `{integrity}`, not a SHA-512, so its attestation cannot be bound to it"
            ),
        })
    })?;
    let root = trust_root().map_err(refused)?;
    verify_document(&document, &url, name, version, digest, &root)
        .map(|verified| Some(verified.map(|(signer, bundle)| Verified { signer, bundle })))
        .map_err(refused)
}

/// `sha512-BASE64` (npm's Subresource Integrity; several hashes may be listed) → the digest.
pub fn sha512_of(integrity: &str) -> Option<[u8; 64]> {
    use base64::Engine as _;
    integrity.split_whitespace().find_map(|hash| {
        let encoded = hash.strip_prefix("sha512-")?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()?;
        bytes.try_into().ok()
    })
}

/// `agx verify`'s second look at an npm package's kept bundle, once it verified over the
/// tarball's `sha512`: a build provenance statement naming the version the receipt's
/// `spec` pins (`npm:NAME@VERSION`, or an MCP registry entry's `… (npm:NAME@VERSION)`)
/// with that digest, as at install.
pub fn check_kept(
    bundle: &SigstoreBundle,
    spec: &str,
    sha512: [u8; 64],
) -> Result<(), ProvenanceError> {
    let pinned = spec
        .split_once("npm:")
        .map(|(_, pinned)| pinned.trim_end_matches(')'))
        .and_then(|pinned| pinned.rsplit_once('@'))
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| ProvenanceError::Rejected {
            reason: format!("the receipt's spec `{spec}` names no npm version"),
        })?;
    super::provenance::check_statement(
        bundle,
        |claimed| claimed.starts_with(SLSA_PROVENANCE),
        Some(&purl(pinned.0, pinned.1)),
        ("sha512", &hex::encode(sha512)),
    )
}

/// The package URL npm's statements name a version by: `pkg:npm/%40scope/name@1.2.3`.
fn purl(name: &str, version: &str) -> String {
    let name = match name.strip_prefix('@') {
        Some(scoped) => format!("%40{scoped}"),
        None => name.to_string(),
    };
    format!("pkg:npm/{name}@{version}")
}

/// Verify an attestations document (`{"attestations": [{"predicateType", "bundle"}]}`):
/// every SLSA provenance bundle in it must verify against `root`, bind the tarball's
/// SHA-512 and name `name@version`; the signer (and bundle) is the first one's. `None` when
/// the document
/// holds no provenance (only the registry's publish attestation, which says who published,
/// not who built). `origin` names the document in errors.
pub fn verify_document(
    document: &[u8],
    origin: &str,
    name: &str,
    version: &str,
    sha512: [u8; 64],
    root: &TrustRoot,
) -> Result<Option<(Signer, Vec<u8>)>, ProvenanceError> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Attestation {
        predicate_type: String,
        bundle: serde_json::Value,
    }
    #[derive(serde::Deserialize)]
    struct Document {
        attestations: Vec<Attestation>,
    }
    let malformed = |reason: String| ProvenanceError::Malformed {
        origin: origin.to_string(),
        reason,
    };
    let document: Document = serde_json::from_slice(document)
        .map_err(|e| malformed(format!("not an npm attestations document: {e}")))?;
    let expected = purl(name, version);
    let mut signer = None;
    for attestation in document
        .attestations
        .iter()
        .filter(|a| a.predicate_type.starts_with(SLSA_PROVENANCE))
    {
        let bytes = attestation.bundle.to_string().into_bytes();
        let bundle = SigstoreBundle::parse(&bytes, origin)?;
        let verified = root.verify(Subject::Sha512(sha512), &bundle, &IdentityPolicy::any())?;
        // The document's own label is not signed: the statement must say the same.
        super::provenance::check_statement(
            &bundle,
            |claimed| claimed == attestation.predicate_type,
            Some(&expected),
            ("sha512", &hex::encode(sha512)),
        )?;
        signer.get_or_insert((verified, bytes));
    }
    Ok(signer)
}

#[cfg(test)]
mod tests {
    //! Real attestation documents of real npm packages, with their tarballs, from
    //! slsa-verifier's test data (registry-fixtures/npm-attestations/README.md).

    use super::*;
    use sha2::{Digest, Sha512};
    use std::path::Path;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../registry-fixtures/npm-attestations")
                .join(name),
        )
        .unwrap()
    }

    fn check(
        tarball: &[u8],
        document: &str,
        name: &str,
        version: &str,
    ) -> Result<Option<Signer>, ProvenanceError> {
        let digest: [u8; 64] = Sha512::digest(tarball).into();
        let root = TrustRoot::public_good().unwrap();
        let verified = verify_document(&fixture(document), document, name, version, digest, &root)?;
        // The bundle kept is the one that verified.
        if let Some((signer, bundle)) = &verified {
            let bundle = SigstoreBundle::parse(bundle, "kept").unwrap();
            assert_eq!(
                &root.verify(Subject::Sha512(digest), &bundle, &IdentityPolicy::any())?,
                signer
            );
        }
        Ok(verified.map(|(signer, _)| signer))
    }

    #[test]
    fn real_provenance_verifies_and_names_its_repository_and_workflow() {
        for (tarball, name, version, summary) in [
            (
                "gundam-visor-1.0.1.tgz",
                "gundam-visor",
                "1.0.1",
                "github.com/ramonpetgrave64/gundam-visor, workflow npm-publish.yml@refs/tags/v1.0.1",
            ),
            (
                "sigstore-2.3.1.tgz",
                "sigstore",
                "2.3.1",
                "github.com/sigstore/sigstore-js, workflow release.yml@refs/heads/main",
            ),
            (
                "laurentsimon-provenance-npm-test-1.0.5.tgz",
                "@laurentsimon/provenance-npm-test",
                "1.0.5",
                "",
            ),
        ] {
            let signer = check(&fixture(tarball), &format!("{tarball}.json"), name, version)
                .unwrap_or_else(|e| panic!("{tarball}: {e}"))
                .unwrap_or_else(|| panic!("{tarball}: no provenance"));
            assert_eq!(
                signer.issuer, "https://token.actions.githubusercontent.com",
                "{tarball}"
            );
            if !summary.is_empty() {
                assert_eq!(signer.summary(), summary, "{tarball}");
            }
        }
    }

    #[test]
    fn a_changed_tarball_another_package_or_a_bad_signature_is_refused() {
        let mut tarball = fixture("gundam-visor-1.0.1.tgz");
        tarball[4] ^= 1;
        let error = check(
            &tarball,
            "gundam-visor-1.0.1.tgz.json",
            "gundam-visor",
            "1.0.1",
        )
        .unwrap_err();
        assert!(matches!(error, ProvenanceError::Rejected { .. }), "{error}");

        let tarball = fixture("gundam-visor-1.0.1.tgz");
        let error = check(
            &tarball,
            "gundam-visor-1.0.1.tgz.json",
            "gundam-visor",
            "1.0.2",
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("no subject named \"pkg:npm/gundam-visor@1.0.2\""),
            "{error}"
        );

        let error = check(
            &tarball,
            "gundam-visor-1.0.1-invalidsigprov.tgz.json",
            "gundam-visor",
            "1.0.1",
        )
        .unwrap_err();
        assert!(matches!(error, ProvenanceError::Rejected { .. }), "{error}");
    }

    #[test]
    fn a_document_with_only_the_publish_attestation_proves_no_builder() {
        let document = serde_json::json!({"attestations": [{
            "predicateType": "https://github.com/npm/attestation/tree/main/specs/publish/v0.1",
            "bundle": {}
        }]});
        let signer = verify_document(
            document.to_string().as_bytes(),
            "doc",
            "x",
            "1.0.0",
            [0; 64],
            &TrustRoot::public_good().unwrap(),
        )
        .unwrap();
        assert!(signer.is_none());
        let error = verify_document(
            b"[]",
            "doc",
            "x",
            "1.0.0",
            [0; 64],
            &TrustRoot::public_good().unwrap(),
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("doc: not a Sigstore bundle: not an npm attestations document"),
            "{error}"
        );
    }

    #[test]
    fn the_registry_is_read_from_the_tarball_url() {
        assert_eq!(
            registry_of(
                "https://registry.npmjs.org/@scope/x/-/x-1.0.0.tgz",
                "@scope/x"
            )
            .as_deref(),
            Some("https://registry.npmjs.org")
        );
        assert_eq!(
            registry_of(
                "https://npm.corp.example/api/npm/npm/left-pad/-/left-pad-1.3.0.tgz",
                "left-pad"
            )
            .as_deref(),
            Some("https://npm.corp.example/api/npm/npm")
        );
        assert_eq!(registry_of("file:../x-1.0.0.tgz", "x"), None);
        assert_eq!(
            registry_of("https://me:secret@npm.corp.example/x/-/x-1.0.0.tgz", "x").as_deref(),
            Some("https://npm.corp.example")
        );
        assert_eq!(registry_of("https://cdn.example/x.tgz", "x"), None);
        assert_eq!(
            attestations_url("http://127.0.0.1:9/", "@acme/hello", "1.0.0"),
            "http://127.0.0.1:9/-/npm/v1/attestations/@acme%2fhello@1.0.0"
        );
        assert_eq!(purl("@acme/hello", "1.0.0"), "pkg:npm/%40acme/hello@1.0.0");
        assert_eq!(sha512_of("sha1-abc sha512-AAAA"), None);
    }
}
