//! Sigstore bundles and trusted roots as a registry serves them (agx-provenance).
//!
//! The first byte picks what the rest is: 0, a bundle checked against the Sigstore
//! conformance suite's artifact (`a.txt`) and Sigstore's public-good root, its in-toto
//! statement read, and chosen among an OCI manifest's referrers over the artifact's digest
//! (agx-sources' `signer_among`); 1, a trusted
//! root; 2, an npm attestations document (agx-sources' npm provenance) checked against the
//! real `gundam-visor@1.0.1` tarball; 3, an MCPB bundle whose signature block (`mcpb sign`'s
//! PKCS#7) is checked. Properties: no panic; a bundle or document that
//! verifies is signed by the one identity the seeds' real ones carry (nothing else can be
//! certified by that root over that artifact without a new signature, which a fuzzer cannot
//! make); an MCPB bundle that verifies was signed by the seed's key (its certificate's
//! subject is the certificate's own claim, which the fuzzer may rewrite).
#![no_main]

use agx_provenance::{IdentityPolicy, RootOrigin, SigstoreBundle, Subject, TrustRoot};
use libfuzzer_sys::fuzz_target;

const ARTIFACT: &[u8] =
    include_bytes!("../../registry-fixtures/sigstore-conformance/bundle-verify/a.txt");
/// The SHA-256 of the key that signed the seed `mcpb-signed` (agx's test signer).
const MCPB_SIGNER_KEY: &str = "097520c57f874e783a163c56c84fb2c3a56e6fe41aa87b264161d0e5b2069509";
const NPM_TARBALL: &[u8] =
    include_bytes!("../../registry-fixtures/npm-attestations/gundam-visor-1.0.1.tgz");
const GUNDAM: &str =
    "https://github.com/ramonpetgrave64/gundam-visor/.github/workflows/npm-publish.yml@refs/tags/v1.0.1";
const BEACON: &str = "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main";

fuzz_target!(|data: &[u8]| {
    let Some((&mode, body)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => {
            let Ok(bundle) = SigstoreBundle::parse(body, "fuzz.sigstore.json") else {
                return;
            };
            if let Some(statement) = bundle.statement() {
                let _ = statement.names(Some("a.txt"), "sha256", "00");
            }
            let root = TrustRoot::public_good().expect("the shipped root loads");
            if let Ok(signer) = root.verify(Subject::Bytes(ARTIFACT), &bundle, &IdentityPolicy::any()) {
                assert_eq!(signer.identity, BEACON, "verified as {signer:?}");
            }
            use sha2::Digest as _;
            let digest: [u8; 32] = sha2::Sha256::digest(ARTIFACT).into();
            let chosen = agx_sources::index::oci::provenance::signer_among(
                vec![body.to_vec()],
                digest,
                &root,
                "fuzz",
                None,
            );
            if let Ok(Some((signer, _))) = chosen {
                assert_eq!(signer.identity, BEACON, "chosen as {signer:?}");
            }
        }
        2 => {
            use sha2::Digest as _;
            let digest: [u8; 64] = sha2::Sha512::digest(NPM_TARBALL).into();
            let root = TrustRoot::public_good().expect("the shipped root loads");
            let verified = agx_sources::ecosystem::npm_provenance::verify_document(
                body,
                "fuzz",
                "gundam-visor",
                "1.0.1",
                digest,
                &root,
            );
            if let Ok(Some((signer, _))) = verified {
                assert_eq!(signer.identity, GUNDAM, "verified as {signer:?}");
            }
        }
        3 => {
            if let Ok(Some(signer)) = agx_provenance::mcpb::verify_bundle_bytes(body, "fuzz.mcpb") {
                // The certificate's subject is its own claim (no chain is checked, and the
                // fuzzer may rewrite it): the key is what signed, and only the seed's verifies.
                assert!(
                    signer
                        .identity
                        .ends_with(&format!(", key sha256:{MCPB_SIGNER_KEY}")),
                    "verified as {signer:?}"
                );
            }
        }
        _ => {
            if let Ok(text) = std::str::from_utf8(body) {
                let _ = TrustRoot::from_json(text, RootOrigin::PublicGood);
            }
        }
    }
});
