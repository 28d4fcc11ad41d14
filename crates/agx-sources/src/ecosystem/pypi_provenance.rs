//! Who built a PyPI distribution: its PEP 740 provenance, which PyPI serves from the
//! Integrity API (`/integrity/PROJECT/VERSION/FILENAME/provenance`) for files uploaded by
//! trusted publishing. Each attestation is a DSSE envelope and the verification material
//! (certificate, Rekor entry) of a Sigstore bundle, in PyPI's own layout: agx puts them back
//! into a bundle, verifies it offline and binds it to the sha256 pip installed
//! (docs/ecosystem.md, "Provenance by source kind").

use agx_core::name::normalize_pypi_name;
use agx_provenance::{IdentityPolicy, ProvenanceError, Signer, SigstoreBundle, Subject, TrustRoot};

use super::EcosystemError;
use super::provenance::{Served, Verified, fetch_document, trust_root};

/// PyPI's JSON API, unless `AGX_PYPI_URL` names another (the same setting `outdated` reads).
const PYPI: &str = "https://pypi.org/pypi";
/// Where PyPI serves its files: the Integrity API for them is PyPI's.
const PYPI_FILES_HOST: &str = "files.pythonhosted.org";
/// The predicate types PyPI accepts in an attestation: its publish attestation and SLSA
/// build provenance.
const PREDICATES: [&str; 2] = [
    "https://docs.pypi.org/attestations/publish/v1",
    "https://slsa.dev/provenance/v1",
];

/// The Integrity API's base (`https://pypi.org/integrity`) for a file pip downloaded from
/// `download_url`, when that file came from the index the API belongs to: PyPI's files, or
/// the host `AGX_PYPI_URL` names. `None` for a file from any other index (a private index is
/// never asked about on PyPI's behalf, and PyPI never learns a private package's name).
pub(super) fn integrity_base(download_url: &str) -> Option<String> {
    let api = std::env::var("AGX_PYPI_URL")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| PYPI.to_string());
    let api = reqwest::Url::parse(&api).ok()?;
    let file = reqwest::Url::parse(download_url).ok()?;
    let same_host = file.host_str() == api.host_str() && file.port() == api.port();
    let pypi_files = api.host_str() == Some("pypi.org") && file.host_str() == Some(PYPI_FILES_HOST);
    if !(same_host || pypi_files) {
        return None;
    }
    let mut api = api;
    // No credential of the API's URL goes into requests' errors and logs.
    api.set_username("").ok()?;
    api.set_password(None).ok()?;
    let base = api.as_str().trim_end_matches('/');
    Some(format!(
        "{}/integrity",
        base.strip_suffix("/pypi").unwrap_or(base)
    ))
}

/// The signer of the distribution `filename` of `project` `version`, whose sha256 pip
/// recorded: `Some(None)` when the index serves no provenance for it (unsigned), `None` when
/// it would not say (401 or 403: not checked). A provenance that is served and does not
/// verify refuses the install.
pub(super) fn signer(
    spec: &str,
    base: &str,
    project: &str,
    version: &str,
    filename: &str,
    sha256: [u8; 32],
) -> Result<Option<Option<Verified>>, EcosystemError> {
    let url = format!("{base}/{project}/{version}/{filename}/provenance");
    let document = match fetch_document(&url)? {
        Served::Document(document) => document,
        Served::Nothing => return Ok(Some(None)),
        Served::Refused => return Ok(None),
    };
    let refused = |error| EcosystemError::Provenance {
        spec: spec.to_string(),
        error,
    };
    let root = trust_root().map_err(refused)?;
    verify_provenance(&document, &url, filename, sha256, &root)
        .map(|verified| Some(verified.map(|(signer, bundle)| Verified { signer, bundle })))
        .map_err(refused)
}

/// Verify a PEP 740 provenance object (`{"version": 1, "attestation_bundles": [{"publisher",
/// "attestations": [...]}]}`): every attestation in it must verify against `root`, bind the
/// file's sha256, name `filename` and make a claim PyPI accepts; the signer (and the bundle
/// rebuilt from it) is the first one's. `None` when it holds no attestation. `origin` names
/// the document in errors.
pub fn verify_provenance(
    document: &[u8],
    origin: &str,
    filename: &str,
    sha256: [u8; 32],
    root: &TrustRoot,
) -> Result<Option<(Signer, Vec<u8>)>, ProvenanceError> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        statement: String,
        signature: String,
    }
    #[derive(serde::Deserialize)]
    struct Material {
        certificate: String,
        transparency_entries: Vec<serde_json::Value>,
    }
    #[derive(serde::Deserialize)]
    struct Attestation {
        version: u32,
        verification_material: Material,
        envelope: Envelope,
    }
    #[derive(serde::Deserialize)]
    struct AttestationBundle {
        attestations: Vec<Attestation>,
    }
    #[derive(serde::Deserialize)]
    struct Provenance {
        version: u32,
        attestation_bundles: Vec<AttestationBundle>,
    }
    let malformed = |reason: String| ProvenanceError::Malformed {
        origin: origin.to_string(),
        reason,
    };
    let provenance: Provenance = serde_json::from_slice(document)
        .map_err(|e| malformed(format!("not a PEP 740 provenance object: {e}")))?;
    if provenance.version != 1 {
        return Err(malformed(format!(
            "provenance version {}, where agx reads 1",
            provenance.version
        )));
    }
    let mut first = None;
    for attestation in provenance
        .attestation_bundles
        .iter()
        .flat_map(|b| &b.attestations)
    {
        if attestation.version != 1 {
            return Err(malformed(format!(
                "attestation version {}, where agx reads 1",
                attestation.version
            )));
        }
        // The same content as a Sigstore bundle: PyPI keeps the DSSE envelope's payload
        // (the statement) and its one signature, and the certificate and log entries.
        let bundle = serde_json::json!({
            "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
            "verificationMaterial": {
                "certificate": {"rawBytes": attestation.verification_material.certificate},
                "tlogEntries": attestation.verification_material.transparency_entries,
            },
            "dsseEnvelope": {
                "payload": attestation.envelope.statement,
                "payloadType": "application/vnd.in-toto+json",
                "signatures": [{"sig": attestation.envelope.signature}],
            },
        })
        .to_string()
        .into_bytes();
        let parsed = SigstoreBundle::parse(&bundle, origin)?;
        let signer = root.verify(Subject::Sha256(sha256), &parsed, &IdentityPolicy::any())?;
        super::provenance::check_statement(
            &parsed,
            |claimed| PREDICATES.contains(&claimed),
            Some(filename),
            ("sha256", &hex::encode(sha256)),
        )?;
        first.get_or_insert((signer, bundle));
    }
    Ok(first)
}

/// `agx verify`'s second look at a PyPI package's kept bundle, once it verified over the
/// distribution's `sha256`: a claim PyPI's provenance makes, about a subject with that
/// digest (the receipt keeps no file name to compare).
pub fn check_kept(bundle: &SigstoreBundle, sha256: [u8; 32]) -> Result<(), ProvenanceError> {
    super::provenance::check_statement(
        bundle,
        |claimed| PREDICATES.contains(&claimed),
        None,
        ("sha256", &hex::encode(sha256)),
    )
}

/// The sha256 pip recorded for the package's own distribution, from a receipt's spec
/// (`pypi:NAME==VERSION`, or an MCP registry entry's `… (pypi:NAME==VERSION)`) and its
/// integrity list (`NAME==VERSION sha256:HEX`, one per installed distribution).
pub fn sha256_of(spec: &str, integrity: &[String]) -> Option<[u8; 32]> {
    let (_, pinned) = spec.split_once("pypi:")?;
    let name = normalize_pypi_name(pinned.split("==").next()?).ok()?;
    integrity.iter().find_map(|entry| {
        let (pinned, hash) = entry.split_once(" sha256:")?;
        let entry_name = normalize_pypi_name(pinned.split("==").next()?).ok()?;
        if entry_name != name {
            return None;
        }
        hex::decode(hash).ok()?.try_into().ok()
    })
}

#[cfg(test)]
mod tests {
    //! A real PEP 740 provenance object with its distribution, from pypi-attestations' test
    //! data (registry-fixtures/pypi-attestations/README.md).

    use super::*;
    use sha2::{Digest, Sha256};
    use std::path::Path;

    const SDIST: &str = "pypi_attestations-0.0.19.tar.gz";

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../registry-fixtures/pypi-attestations")
                .join(name),
        )
        .unwrap()
    }

    fn check(
        file: &[u8],
        filename: &str,
        document: &[u8],
    ) -> Result<Option<Signer>, ProvenanceError> {
        let digest: [u8; 32] = Sha256::digest(file).into();
        let root = TrustRoot::public_good().unwrap();
        let verified = verify_provenance(document, "provenance", filename, digest, &root)?;
        if let Some((signer, bundle)) = &verified {
            // The bundle kept for `agx verify` verifies on its own.
            let bundle = SigstoreBundle::parse(bundle, "kept").unwrap();
            assert_eq!(
                &root.verify(Subject::Sha256(digest), &bundle, &IdentityPolicy::any())?,
                signer
            );
        }
        Ok(verified.map(|(signer, _)| signer))
    }

    #[test]
    fn real_provenance_verifies_and_names_the_release_workflow() {
        let signer = check(
            &fixture(SDIST),
            SDIST,
            &fixture(&format!("{SDIST}.provenance")),
        )
        .unwrap()
        .unwrap();
        assert_eq!(signer.issuer, "https://token.actions.githubusercontent.com");
        assert!(
            signer.summary().starts_with(
                "github.com/trailofbits/pypi-attestations, workflow release.yml@refs/tags/v0.0.19"
            ),
            "{}",
            signer.summary()
        );
    }

    #[test]
    fn a_changed_file_or_another_file_name_is_refused() {
        let document = fixture(&format!("{SDIST}.provenance"));
        let mut sdist = fixture(SDIST);
        sdist[4] ^= 1;
        let error = check(&sdist, SDIST, &document).unwrap_err();
        assert!(matches!(error, ProvenanceError::Rejected { .. }), "{error}");
        let error = check(
            &fixture(SDIST),
            "pypi_attestations-0.0.19-py3-none-any.whl",
            &document,
        )
        .unwrap_err();
        assert!(
            error
                .to_string()
                .contains("no subject named \"pypi_attestations-0.0.19-py3-none-any.whl\""),
            "{error}"
        );
        let error = check(
            &fixture(SDIST),
            SDIST,
            b"{\"version\": 2, \"attestation_bundles\": []}",
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("provenance version 2"),
            "{error}"
        );
        assert!(
            check(
                &fixture(SDIST),
                SDIST,
                b"{\"version\": 1, \"attestation_bundles\": []}"
            )
            .unwrap()
            .is_none()
        );
    }

    #[test]
    fn the_integrity_api_is_asked_only_for_the_index_it_belongs_to() {
        // SAFETY of the environment: this test reads AGX_PYPI_URL only when it is unset.
        if std::env::var_os("AGX_PYPI_URL").is_some() {
            return;
        }
        assert_eq!(
            integrity_base("https://files.pythonhosted.org/packages/ab/cd/x-1.0-py3-none-any.whl")
                .as_deref(),
            Some("https://pypi.org/integrity")
        );
        assert_eq!(
            integrity_base("https://pypi.corp.example/packages/x-1.0.tar.gz"),
            None
        );
        assert_eq!(
            sha256_of(
                "io.github.acme/time@1.0.0 (pypi:Mcp_Server.Time==1.0)",
                &[
                    "mcp==1.2 sha256:00".into(),
                    format!("mcp-server-time==1.0 sha256:{}", "ab".repeat(32))
                ]
            ),
            Some([0xab; 32])
        );
    }
}
