//! Verifying a Sigstore bundle offline against a trusted root: sigstore-verify does every
//! check (the certificate chain to the CA, the SCT, the transparency log's inclusion proof,
//! checkpoint and promise, RFC 3161 timestamps, the signature or DSSE statement over the
//! artifact); agx adds the identity patterns and turns the certificate into a [`Signer`].

use std::path::{Path, PathBuf};

use agx_core::error::Hint;
use sigstore_verify::crypto::SubjectAltName;
use sigstore_verify::trust_root::{
    SIGSTORE_GITHUB_TRUSTED_ROOT, SIGSTORE_PRODUCTION_TRUSTED_ROOT, TrustedRoot,
};
use sigstore_verify::types::{
    Artifact, ArtifactDigest, Bundle, DerPublicKey, HashAlgorithm, Sha256Hash, SignatureContent,
};
use sigstore_verify::{
    IdentityMatcher, PublicKeyVerificationPolicy, VerificationPolicy, VerificationResult, Verifier,
};

use crate::crypto;
use crate::signer::Signer;

/// The media type of a trusted root, before its `+json;version=…`.
const TRUSTED_ROOT_MEDIA_TYPE: &str = "application/vnd.dev.sigstore.trustedroot";

/// The largest bundle agx reads: real ones are a few KB (a certificate, a log entry and a
/// signature, or a DSSE statement); anything far larger is not a bundle.
pub const MAX_BUNDLE_BYTES: usize = 4 << 20;

#[derive(Debug, thiserror::Error)]
pub enum ProvenanceError {
    #[error("cannot read the {what} {origin}: {reason}")]
    Unreadable {
        what: &'static str,
        origin: String,
        reason: String,
    },
    #[error("{origin}: not a Sigstore bundle: {reason}")]
    Malformed { origin: String, reason: String },
    #[error("{origin}: the trusted root is not usable: {reason}")]
    BadRoot { origin: String, reason: String },
    #[error("{origin}: not a PEM public key: {reason}")]
    BadKey { origin: String, reason: String },
    #[error("the bundle does not verify: {reason}")]
    Rejected { reason: String },
    #[error("the bundle is signed by {found}, not {expected}")]
    WrongSigner { expected: String, found: String },
}

impl Hint for ProvenanceError {
    fn hint(&self) -> Option<String> {
        Some(match self {
            ProvenanceError::Unreadable { .. } => "check the path".into(),
            ProvenanceError::Malformed { .. } => "a bundle is the JSON `cosign sign-blob --bundle` or `sigstore sign` writes (media type application/vnd.dev.sigstore.bundle.v0.3+json); ask the publisher for it".into(),
            ProvenanceError::BadRoot { .. } => "a trusted root is the trusted_root.json of a Sigstore instance (for the public-good instance, agx's own is used when none is given)".into(),
            ProvenanceError::BadKey { .. } => "give the publisher's public key as PEM (-----BEGIN PUBLIC KEY-----)".into(),
            ProvenanceError::Rejected { .. } => "the artifact, its bundle or the signer's certificate is not what was signed or logged: do not install it; tell its publisher".into(),
            ProvenanceError::WrongSigner { .. } => "someone other than the expected publisher signed it: do not install it unless the publisher confirms the change".into(),
        })
    }
}

/// Which identity a bundle must carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdentityRule {
    /// Any identity the trusted root's CA certified (the signer is recorded, not checked).
    Any,
    /// This SAN, exactly.
    Exact(String),
    /// A SAN matching this pattern (`*` and `?`).
    Pattern(String),
}

/// The identity policy: the SAN rule and, optionally, the OIDC issuer it must come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityPolicy {
    pub identity: IdentityRule,
    pub issuer: Option<String>,
}

impl IdentityPolicy {
    pub fn any() -> IdentityPolicy {
        IdentityPolicy {
            identity: IdentityRule::Any,
            issuer: None,
        }
    }

    fn describe(&self) -> String {
        let identity = match &self.identity {
            IdentityRule::Any => "any identity".to_string(),
            IdentityRule::Exact(value) => value.clone(),
            IdentityRule::Pattern(pattern) => format!("an identity matching `{pattern}`"),
        };
        match &self.issuer {
            Some(issuer) => format!("{identity} ({issuer})"),
            None => identity,
        }
    }
}

/// What was signed: the artifact's bytes, or only its digest (then the signature must be
/// one that can be checked over a digest: ECDSA or a DSSE statement; npm's statements name
/// a tarball by its SHA-512 only).
#[derive(Debug, Clone, Copy)]
pub enum Subject<'a> {
    Bytes(&'a [u8]),
    Sha256([u8; 32]),
    Sha512([u8; 64]),
}

/// The in-toto statement a DSSE bundle carries, as far as agx reads it: what it is about
/// and what kind of claim it makes. Only meaningful once the bundle verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub predicate_type: String,
    pub subjects: Vec<StatementSubject>,
}

/// One subject of an in-toto statement: its `name` (for npm, `pkg:npm/NAME@VERSION`) and
/// its digests (`sha256` → lowercase hex).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementSubject {
    pub name: String,
    pub digest: std::collections::BTreeMap<String, String>,
}

impl Statement {
    /// Whether one subject has both this `name` (any name when `None`) and this digest
    /// (`algorithm`, `hex`): the signature binds the digest to some subject, and a name
    /// checked against another subject would not be the signed artifact's.
    pub fn names(&self, name: Option<&str>, algorithm: &str, hex: &str) -> bool {
        self.subjects.iter().any(|subject| {
            name.is_none_or(|name| subject.name == name)
                && subject
                    .digest
                    .get(algorithm)
                    .is_some_and(|d| d.eq_ignore_ascii_case(hex))
        })
    }
}

/// A parsed bundle.
pub struct SigstoreBundle {
    bundle: Bundle,
}

impl SigstoreBundle {
    /// Parses a bundle (v0.1 to v0.3); `origin` names it in errors.
    pub fn parse(bytes: &[u8], origin: &str) -> Result<SigstoreBundle, ProvenanceError> {
        let malformed = |reason: String| ProvenanceError::Malformed {
            origin: origin.to_string(),
            reason,
        };
        if bytes.len() > MAX_BUNDLE_BYTES {
            return Err(malformed(format!(
                "{} bytes, more than a bundle's {MAX_BUNDLE_BYTES}",
                bytes.len()
            )));
        }
        let text = std::str::from_utf8(bytes).map_err(|_| malformed("not UTF-8 text".into()))?;
        let bundle = Bundle::from_json(text).map_err(|error| malformed(error.to_string()))?;
        Ok(SigstoreBundle { bundle })
    }

    pub fn read(path: &Path) -> Result<SigstoreBundle, ProvenanceError> {
        SigstoreBundle::read_with_bytes(path).map(|(bundle, _)| bundle)
    }

    /// The in-toto statement of a DSSE bundle; `None` for a message signature or a payload
    /// that is not an in-toto statement (which does not verify anyway).
    pub fn statement(&self) -> Option<Statement> {
        #[derive(serde::Deserialize)]
        struct Subject {
            #[serde(default)]
            name: String,
            #[serde(default)]
            digest: std::collections::BTreeMap<String, String>,
        }
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Raw {
            predicate_type: String,
            #[serde(default)]
            subject: Vec<Subject>,
        }
        let SignatureContent::DsseEnvelope(envelope) = &self.bundle.content else {
            return None;
        };
        let raw: Raw = serde_json::from_slice(envelope.payload.as_bytes()).ok()?;
        Some(Statement {
            predicate_type: raw.predicate_type,
            subjects: raw
                .subject
                .into_iter()
                .map(|s| StatementSubject {
                    name: s.name,
                    digest: s.digest,
                })
                .collect(),
        })
    }

    /// [`SigstoreBundle::read`], keeping the file's bytes (to publish or hash them).
    pub fn read_with_bytes(path: &Path) -> Result<(SigstoreBundle, Vec<u8>), ProvenanceError> {
        let origin = path.display().to_string();
        let bytes =
            read_capped(path, MAX_BUNDLE_BYTES).map_err(|reason| ProvenanceError::Unreadable {
                what: "Sigstore bundle",
                origin: origin.clone(),
                reason,
            })?;
        Ok((SigstoreBundle::parse(&bytes, &origin)?, bytes))
    }
}

fn read_capped(path: &Path, limit: usize) -> Result<Vec<u8>, String> {
    agx_core::regular_file::read(path, limit as u64)
        .map_err(|problem| format!("it {}", problem.describe()))
}

/// Where a trusted root came from, for messages and receipts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootOrigin {
    /// Sigstore's public-good instance (Fulcio, Rekor), shipped with agx.
    PublicGood,
    /// GitHub's instance, which signs artifact attestations of private repositories.
    GitHub,
    /// A `trusted_root.json` the user or the source named.
    File(PathBuf),
}

impl std::fmt::Display for RootOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RootOrigin::PublicGood => f.write_str("Sigstore's public-good instance"),
            RootOrigin::GitHub => f.write_str("GitHub's Sigstore instance"),
            RootOrigin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// A trusted root, ready to verify bundles against.
pub struct TrustRoot {
    verifier: Verifier,
    origin: RootOrigin,
}

impl TrustRoot {
    pub fn public_good() -> Result<TrustRoot, ProvenanceError> {
        TrustRoot::from_json(SIGSTORE_PRODUCTION_TRUSTED_ROOT, RootOrigin::PublicGood)
    }

    /// The trusted root at `path` when one is configured, else the public-good one.
    pub fn configured_or_public_good(path: Option<&Path>) -> Result<TrustRoot, ProvenanceError> {
        match path {
            Some(path) => TrustRoot::read(path),
            None => TrustRoot::public_good(),
        }
    }

    pub fn github() -> Result<TrustRoot, ProvenanceError> {
        TrustRoot::from_json(SIGSTORE_GITHUB_TRUSTED_ROOT, RootOrigin::GitHub)
    }

    pub fn read(path: &Path) -> Result<TrustRoot, ProvenanceError> {
        let origin = RootOrigin::File(path.to_path_buf());
        let bytes =
            read_capped(path, MAX_BUNDLE_BYTES).map_err(|reason| ProvenanceError::Unreadable {
                what: "trusted root",
                origin: origin.to_string(),
                reason,
            })?;
        let text = String::from_utf8(bytes).map_err(|_| ProvenanceError::BadRoot {
            origin: origin.to_string(),
            reason: "not UTF-8 text".into(),
        })?;
        TrustRoot::from_json(&text, origin)
    }

    pub fn from_json(text: &str, origin: RootOrigin) -> Result<TrustRoot, ProvenanceError> {
        crypto::install();
        let bad = |reason: String| ProvenanceError::BadRoot {
            origin: origin.to_string(),
            reason,
        };
        let root = TrustedRoot::from_json(text).map_err(|error| bad(error.to_string()))?;
        // Every field but the media type may be absent, so a JSON object that is not a
        // trusted root would otherwise load and refuse every bundle for an unrelated reason.
        if !root.media_type.starts_with(TRUSTED_ROOT_MEDIA_TYPE) {
            return Err(bad(format!(
                "its mediaType is `{}`, not {TRUSTED_ROOT_MEDIA_TYPE}+json",
                root.media_type
            )));
        }
        if root.tlogs.is_empty() && root.timestamp_authorities.is_empty() {
            return Err(bad(
                "it names no transparency log and no timestamp authority, so no bundle can verify against it".into(),
            ));
        }
        let verifier = Verifier::new(&root).map_err(|error| bad(error.to_string()))?;
        Ok(TrustRoot { verifier, origin })
    }

    pub fn origin(&self) -> &RootOrigin {
        &self.origin
    }

    /// Verifies a keyless (certificate) bundle and returns its signer, if it meets `policy`.
    pub fn verify(
        &self,
        subject: Subject<'_>,
        bundle: &SigstoreBundle,
        policy: &IdentityPolicy,
    ) -> Result<Signer, ProvenanceError> {
        let mut checks = VerificationPolicy::any_identity();
        if let IdentityRule::Exact(identity) = &policy.identity {
            checks = checks.require_identity(IdentityMatcher::Exact(identity.clone()));
        }
        if let Some(issuer) = &policy.issuer {
            checks = checks.require_issuer(issuer.clone());
        }
        let result = self
            .verifier
            .verify(artifact(subject)?, &bundle.bundle, &checks)
            .map_err(|error| match error {
                sigstore_verify::Error::IdentityMismatch { actual, .. } => {
                    ProvenanceError::WrongSigner {
                        expected: policy.describe(),
                        found: actual
                            .map_or_else(|| "no identity".into(), |a| a.as_str().to_string()),
                    }
                }
                sigstore_verify::Error::IssuerMismatch { actual, .. } => {
                    ProvenanceError::WrongSigner {
                        expected: policy.describe(),
                        found: format!(
                            "an identity from {}",
                            actual.as_deref().unwrap_or("no issuer")
                        ),
                    }
                }
                other => rejected(other),
            })?;
        let signer = signer_of(&result)?;
        if let IdentityRule::Pattern(pattern) = &policy.identity
            && !agx_core::wildcard::matches(pattern, &signer.identity)
        {
            return Err(ProvenanceError::WrongSigner {
                expected: policy.describe(),
                found: signer.summary(),
            });
        }
        Ok(signer)
    }

    /// Verifies a bundle signed with a managed key (`key_pem`) instead of a certificate.
    pub fn verify_with_key(
        &self,
        subject: Subject<'_>,
        bundle: &SigstoreBundle,
        key_pem: &str,
        key_origin: &str,
    ) -> Result<Signer, ProvenanceError> {
        let key = DerPublicKey::from_pem(key_pem).map_err(|error| ProvenanceError::BadKey {
            origin: key_origin.to_string(),
            reason: error.to_string(),
        })?;
        let digest = ring::digest::digest(&ring::digest::SHA256, key.as_bytes());
        let policy = PublicKeyVerificationPolicy::new(key);
        self.verifier
            .verify(artifact(subject)?, &bundle.bundle, &policy)
            .map_err(rejected)?;
        Ok(Signer::key(&hex(digest.as_ref())))
    }
}

fn artifact(subject: Subject<'_>) -> Result<Artifact<'_>, ProvenanceError> {
    Ok(match subject {
        Subject::Bytes(bytes) => Artifact::from_blob(bytes),
        Subject::Sha256(digest) => Artifact::from_digest(Sha256Hash::new(digest)),
        Subject::Sha512(digest) => Artifact::from_digest(
            ArtifactDigest::new(HashAlgorithm::Sha2512, digest.to_vec()).map_err(|error| {
                ProvenanceError::Rejected {
                    reason: error.to_string(),
                }
            })?,
        ),
    })
}

fn rejected(error: sigstore_verify::Error) -> ProvenanceError {
    ProvenanceError::Rejected {
        reason: error.to_string(),
    }
}

fn signer_of(result: &VerificationResult) -> Result<Signer, ProvenanceError> {
    let identity = match result.identity() {
        Some(SubjectAltName::Email(value) | SubjectAltName::Uri(value)) => value.clone(),
        Some(other) => other.as_str().to_string(),
        None => {
            return Err(ProvenanceError::Rejected {
                reason: "the signing certificate names no identity".into(),
            });
        }
    };
    let claims = result
        .certificate()
        .map(|certificate| &certificate.ci_claims);
    Ok(Signer {
        issuer: result.issuer().unwrap_or_default().to_string(),
        identity,
        repository: claims.and_then(|c| c.source_repository_uri.clone()),
        source_ref: claims.and_then(|c| c.source_repository_ref.clone()),
        workflow: claims.and_then(|c| c.build_signer_uri.clone()),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod conformance_cases {
    //! Every case of the Sigstore conformance suite's `bundle-verify` assets
    //! (registry-fixtures/sigstore-conformance), with the outcome its name gives.

    use super::*;

    const DEFAULT_IDENTITY: &str = "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main";
    const DEFAULT_ISSUER: &str = "https://token.actions.githubusercontent.com";

    fn cases_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../registry-fixtures/sigstore-conformance/bundle-verify")
    }

    fn verify_case(dir: &Path) -> Result<Signer, String> {
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
        let bundle =
            SigstoreBundle::read(&dir.join("bundle.sigstore.json")).map_err(|e| e.to_string())?;
        let root = match dir.join("trusted_root.json") {
            path if path.is_file() => TrustRoot::read(&path),
            _ => TrustRoot::public_good(),
        }
        .map_err(|e| e.to_string())?;
        let artifact_path = match dir.join("artifact") {
            path if path.is_file() => path,
            _ => dir.join("../a.txt"),
        };
        let artifact = std::fs::read(artifact_path).unwrap();
        let subject = Subject::Bytes(&artifact);
        match read("key.pub") {
            Some(key) => root.verify_with_key(subject, &bundle, &key, "key.pub"),
            None => {
                let policy = IdentityPolicy {
                    identity: IdentityRule::Exact(
                        read("identity").map_or(DEFAULT_IDENTITY.into(), |s| s.trim().into()),
                    ),
                    issuer: Some(read("issuer").map_or(DEFAULT_ISSUER.into(), |s| s.trim().into())),
                };
                root.verify(subject, &bundle, &policy)
            }
        }
        .map_err(|e| e.to_string())
    }

    #[test]
    fn every_case_has_the_outcome_its_name_gives() {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(cases_dir())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        cases.sort();
        assert!(cases.len() > 60, "the suite's cases are there");
        let mut wrong = Vec::new();
        for case in &cases {
            let name = case.file_name().unwrap().to_string_lossy().into_owned();
            let must_fail = name.ends_with("_fail");
            match (verify_case(case), must_fail) {
                (Ok(_), false) | (Err(_), true) => {}
                (Ok(signer), true) => {
                    wrong.push(format!("{name}: verified ({})", signer.summary()))
                }
                (Err(error), false) => wrong.push(format!("{name}: refused: {error}")),
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} cases:\n{}",
            wrong.len(),
            cases.len(),
            wrong.join("\n")
        );
    }
}

#[cfg(test)]
mod test_instance_cases {
    //! The private Sigstore test instance's cases (registry-fixtures/sigstore/cases.json),
    //! which CI also runs through sigstore-python (scripts/ci/sigstore-reference.sh): agx
    //! must agree with the reference on each, and read the signer the certificate names.

    use super::*;

    fn folder() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../registry-fixtures/sigstore")
    }

    #[test]
    fn agx_agrees_with_the_reference_on_every_case() {
        let dir = folder();
        let spec: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap())
                .unwrap();
        let root = TrustRoot::read(&dir.join("trusted_root.json")).unwrap();
        let cases = spec["cases"].as_array().unwrap();
        let mut checked = 0;
        for case in cases {
            let name = case["name"].as_str().unwrap();
            let Some(bundle) = case["bundle"].as_str() else {
                continue;
            };
            let bundle = SigstoreBundle::read(&dir.join(bundle)).unwrap();
            let artifact = std::fs::read(dir.join(case["artifact"].as_str().unwrap())).unwrap();
            let policy = IdentityPolicy {
                identity: IdentityRule::Exact(case["identity"].as_str().unwrap().into()),
                issuer: Some(case["issuer"].as_str().unwrap().into()),
            };
            let result = root.verify(Subject::Bytes(&artifact), &bundle, &policy);
            match case["expect"].as_str().unwrap() {
                "pass" => {
                    let signer = result.unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(
                        signer.identity,
                        case["identity"].as_str().unwrap(),
                        "{name}"
                    );
                    if let Some(repository) = case.get("source_repository") {
                        assert_eq!(signer.repository.as_deref(), repository.as_str(), "{name}");
                        assert_eq!(
                            signer.source_ref.as_deref(),
                            case["source_ref"].as_str(),
                            "{name}"
                        );
                        assert_eq!(
                            signer.workflow.as_deref(),
                            case["build_signer"].as_str(),
                            "{name}"
                        );
                    }
                }
                "fail" => {
                    let error = result.err().unwrap_or_else(|| panic!("{name}: verified"));
                    let identity = matches!(error, ProvenanceError::WrongSigner { .. });
                    assert_eq!(identity, case["fails_at"] == "identity", "{name}: {error}");
                }
                other => panic!("{name}: unknown expectation {other}"),
            }
            checked += 1;
        }
        assert_eq!(checked, cases.len() - 1, "every case but the unsigned one");
    }

    #[test]
    fn a_json_object_that_is_not_a_trusted_root_is_refused_as_one() {
        for (text, why) in [
            (r#"{"mediaType": "x"}"#, "its mediaType is `x`"),
            (
                r#"{"mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1"}"#,
                "names no transparency log",
            ),
            ("[]", "not usable"),
        ] {
            let error = TrustRoot::from_json(text, RootOrigin::File("t.json".into()))
                .err()
                .unwrap_or_else(|| panic!("{text} loaded"));
            assert!(
                error
                    .to_string()
                    .contains("t.json: the trusted root is not usable"),
                "{error}"
            );
            assert!(error.to_string().contains(why), "{error}");
        }
    }

    #[test]
    fn a_bundle_of_the_test_instance_is_refused_against_the_public_good_root() {
        let dir = folder();
        let bundle = SigstoreBundle::read(&dir.join("hello.txt.sigstore.json")).unwrap();
        let artifact = std::fs::read(dir.join("hello.txt")).unwrap();
        let error = TrustRoot::public_good()
            .unwrap()
            .verify(Subject::Bytes(&artifact), &bundle, &IdentityPolicy::any())
            .unwrap_err();
        assert!(matches!(error, ProvenanceError::Rejected { .. }), "{error}");
    }
}

#[cfg(test)]
mod statement_subjects {
    use super::*;

    fn subject(name: &str, sha256: &str) -> StatementSubject {
        StatementSubject {
            name: name.into(),
            digest: [("sha256".to_string(), sha256.to_string())].into(),
        }
    }

    #[test]
    fn the_name_and_the_digest_must_be_one_subjects() {
        let statement = Statement {
            predicate_type: "https://slsa.dev/provenance/v1".into(),
            subjects: vec![subject("evil.whl", "aa11"), subject("good.whl", "bb22")],
        };
        assert!(statement.names(Some("good.whl"), "sha256", "BB22"));
        assert!(statement.names(None, "sha256", "aa11"));
        // Each is some subject's, but no one subject has both.
        assert!(!statement.names(Some("good.whl"), "sha256", "aa11"));
        assert!(!statement.names(Some("good.whl"), "sha512", "bb22"));
        assert!(!statement.names(None, "sha256", "cc33"));
    }
}
