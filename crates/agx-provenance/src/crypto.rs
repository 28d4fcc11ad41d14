//! The cryptography sigstore-verify runs on: ring for hashes and every signature over a
//! message (the same ring the rest of agx links), and RustCrypto's P-256/P-384 for ECDSA
//! over a digest the verifier computed itself, which ring does not offer. Nothing here is
//! new cryptography: each call hands the bytes to one of those two implementations.

use std::sync::Once;

use ring::digest;
use ring::signature::{self as ring_signature, UnparsedPublicKey, VerificationAlgorithm};
use sigstore_verify::crypto::{CryptoProvider, Error, HashContext, SigningScheme};
use sigstore_verify::types::HashAlgorithm;

#[derive(Debug)]
struct RingProvider;

static PROVIDER: RingProvider = RingProvider;

/// Installs the provider for this process; every verification calls this first.
pub(crate) fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // Only agx installs a provider, and only here, so the slot is empty.
        let _ = sigstore_verify::crypto::install_default_provider(&PROVIDER);
    });
}

struct RingHash(digest::Context);

impl HashContext for RingHash {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    fn finalize(self: Box<Self>) -> Vec<u8> {
        self.0.finish().as_ref().to_vec()
    }
}

fn ring_digest(algorithm: HashAlgorithm) -> Result<&'static digest::Algorithm, Error> {
    match algorithm {
        HashAlgorithm::Sha2256 => Ok(&digest::SHA256),
        HashAlgorithm::Sha2384 => Ok(&digest::SHA384),
        HashAlgorithm::Sha2512 => Ok(&digest::SHA512),
        other => Err(Error::UnsupportedAlgorithm(format!(
            "cannot compute {other} digests"
        ))),
    }
}

fn ring_verification(scheme: SigningScheme) -> Result<&'static dyn VerificationAlgorithm, Error> {
    Ok(match scheme {
        SigningScheme::EcdsaP256Sha256 => &ring_signature::ECDSA_P256_SHA256_ASN1,
        SigningScheme::EcdsaP256Sha384 => &ring_signature::ECDSA_P256_SHA384_ASN1,
        SigningScheme::EcdsaP384Sha256 => &ring_signature::ECDSA_P384_SHA256_ASN1,
        SigningScheme::EcdsaP384Sha384 => &ring_signature::ECDSA_P384_SHA384_ASN1,
        SigningScheme::Ed25519 => &ring_signature::ED25519,
        SigningScheme::RsaPssSha256 => &ring_signature::RSA_PSS_2048_8192_SHA256,
        SigningScheme::RsaPssSha384 => &ring_signature::RSA_PSS_2048_8192_SHA384,
        SigningScheme::RsaPssSha512 => &ring_signature::RSA_PSS_2048_8192_SHA512,
        SigningScheme::RsaPkcs1Sha256 => &ring_signature::RSA_PKCS1_2048_8192_SHA256,
        SigningScheme::RsaPkcs1Sha384 => &ring_signature::RSA_PKCS1_2048_8192_SHA384,
        SigningScheme::RsaPkcs1Sha512 => &ring_signature::RSA_PKCS1_2048_8192_SHA512,
        other => {
            return Err(Error::UnsupportedAlgorithm(format!(
                "{} signatures are not supported",
                other.name()
            )));
        }
    })
}

fn invalid(scheme: SigningScheme) -> Error {
    Error::Verification(format!("{} signature invalid", scheme.name()))
}

/// ECDSA over a digest: RustCrypto's `verify_prehash`, for the two curves Sigstore uses.
fn verify_ecdsa_digest(
    scheme: SigningScheme,
    point: &[u8],
    digest: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    use p256::ecdsa::signature::hazmat::PrehashVerifier;
    let ok = match scheme {
        SigningScheme::EcdsaP256Sha256 | SigningScheme::EcdsaP256Sha384 => {
            let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map_err(|_| Error::InvalidKeyFormat("not a P-256 public key".into()))?;
            p256::ecdsa::Signature::from_der(signature)
                .is_ok_and(|signature| key.verify_prehash(digest, &signature).is_ok())
        }
        SigningScheme::EcdsaP384Sha256 | SigningScheme::EcdsaP384Sha384 => {
            let key = p384::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map_err(|_| Error::InvalidKeyFormat("not a P-384 public key".into()))?;
            p384::ecdsa::Signature::from_der(signature)
                .is_ok_and(|signature| key.verify_prehash(digest, &signature).is_ok())
        }
        other => {
            return Err(Error::UnsupportedAlgorithm(format!(
                "{} signatures over a digest are not supported; sign a DSSE envelope, or use an ECDSA key",
                other.name()
            )));
        }
    };
    if ok { Ok(()) } else { Err(invalid(scheme)) }
}

impl CryptoProvider for RingProvider {
    fn hash(&self, algorithm: HashAlgorithm) -> Result<Box<dyn HashContext>, Error> {
        Ok(Box::new(RingHash(digest::Context::new(ring_digest(
            algorithm,
        )?))))
    }

    fn verify_raw(
        &self,
        scheme: SigningScheme,
        spki_pubkey_bytes: &[u8],
        data: &[u8],
        signature: &[u8],
    ) -> Result<(), Error> {
        UnparsedPublicKey::new(ring_verification(scheme)?, spki_pubkey_bytes)
            .verify(data, signature)
            .map_err(|_| invalid(scheme))
    }

    fn verify_prehashed(
        &self,
        scheme: SigningScheme,
        spki_pubkey_bytes: &[u8],
        digest: &[u8],
        signature: &[u8],
    ) -> Result<(), Error> {
        verify_ecdsa_digest(scheme, spki_pubkey_bytes, digest, signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::hazmat::PrehashSigner;

    fn p256_key() -> p256::ecdsa::SigningKey {
        p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).unwrap()
    }

    #[test]
    fn a_digest_signature_verifies_and_a_changed_digest_does_not() {
        let key = p256_key();
        let point = key.verifying_key().to_encoded_point(false);
        let digest = PROVIDER.sha256(b"archive bytes");
        let signature: p256::ecdsa::Signature = key.sign_prehash(&digest).unwrap();
        let der = signature.to_der();
        PROVIDER
            .verify_prehashed(
                SigningScheme::EcdsaP256Sha256,
                point.as_bytes(),
                &digest,
                der.as_bytes(),
            )
            .unwrap();
        let other = PROVIDER.sha256(b"archive bytes!");
        assert!(
            PROVIDER
                .verify_prehashed(
                    SigningScheme::EcdsaP256Sha256,
                    point.as_bytes(),
                    &other,
                    der.as_bytes()
                )
                .is_err()
        );
    }

    #[test]
    fn ring_and_rustcrypto_agree_on_a_message_signature() {
        // The same signature checked as a message (ring) and as its digest (RustCrypto).
        use p256::ecdsa::signature::Signer;
        let key = p256_key();
        let point = key.verifying_key().to_encoded_point(false);
        let signature: p256::ecdsa::Signature = key.sign(b"hello");
        let der = signature.to_der();
        PROVIDER
            .verify_raw(
                SigningScheme::EcdsaP256Sha256,
                point.as_bytes(),
                b"hello",
                der.as_bytes(),
            )
            .unwrap();
        PROVIDER
            .verify_prehashed(
                SigningScheme::EcdsaP256Sha256,
                point.as_bytes(),
                &PROVIDER.sha256(b"hello"),
                der.as_bytes(),
            )
            .unwrap();
    }

    #[test]
    fn an_unsupported_scheme_is_an_error_not_a_pass() {
        assert!(
            PROVIDER
                .verify_prehashed(SigningScheme::Ed25519, &[0; 32], &[0; 32], &[0; 64])
                .is_err()
        );
        assert!(
            PROVIDER
                .verify_raw(SigningScheme::MlDsa44, &[0; 32], b"x", &[0; 64])
                .is_err()
        );
    }
}
