//! Signature checks for the key types the specification names (ed25519, ECDSA P-256/P-384,
//! RSA-PSS and PKCS#1 v1.5 with SHA-256), and ed25519 signing for the operator side.
//!
//! `ring` does the cryptography; this module only maps TUF's key encodings onto it: ed25519
//! keys are 32 raw bytes in hex, the others a PEM SubjectPublicKeyInfo.

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use ring::signature::{self, KeyPair as _, UnparsedPublicKey, VerificationAlgorithm};
use rustls_pki_types::SubjectPublicKeyInfoDer;
use rustls_pki_types::pem::PemObject;

use crate::error::{Result, TufError, malformed};
use crate::metadata::{Envelope, Key, KeyValue, RoleKeys, Signature};

/// Whether `sig_hex` is `key`'s signature of `message`. Unknown key types and malformed keys
/// or signatures verify nothing (they count as missing signatures, not as errors).
pub fn verify(key: &Key, sig_hex: &str, message: &[u8]) -> bool {
    let Ok(sig) = hex::decode(sig_hex) else {
        return false;
    };
    let algorithm: &dyn VerificationAlgorithm = match (key.keytype.as_str(), key.scheme.as_str()) {
        ("ed25519", "ed25519") => {
            return hex::decode(&key.keyval.public).is_ok_and(|public| {
                public.len() == 32
                    && UnparsedPublicKey::new(&signature::ED25519, public)
                        .verify(message, &sig)
                        .is_ok()
            });
        }
        ("ecdsa" | "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256") => {
            &signature::ECDSA_P256_SHA256_ASN1
        }
        ("ecdsa" | "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp384") => {
            &signature::ECDSA_P384_SHA384_ASN1
        }
        ("rsa", "rsassa-pss-sha256") => &signature::RSA_PSS_2048_8192_SHA256,
        ("rsa", "rsa-pkcs1v15-sha256") => &signature::RSA_PKCS1_2048_8192_SHA256,
        _ => return false,
    };
    let Some(public) = spki_public_key(&key.keyval.public) else {
        return false;
    };
    UnparsedPublicKey::new(algorithm, public)
        .verify(message, &sig)
        .is_ok()
}

/// The key bits of a PEM SubjectPublicKeyInfo: what `ring` takes for ECDSA (the point) and
/// RSA (the PKCS#1 RSAPublicKey).
fn spki_public_key(pem: &str) -> Option<Vec<u8>> {
    let spki = SubjectPublicKeyInfoDer::from_pem_slice(pem.as_bytes()).ok()?;
    let (tag, body, _) = der_element(spki.as_ref())?;
    if tag != 0x30 {
        return None;
    }
    let (_algorithm, _, rest) = der_element(body)?;
    let (tag, bits, _) = der_element(rest)?;
    // A BIT STRING whose first byte counts unused bits (always 0 for keys).
    (tag == 0x03 && bits.first() == Some(&0)).then(|| bits[1..].to_vec())
}

/// One DER element: its tag, its contents and what follows it.
fn der_element(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, mut rest) = rest.split_first()?;
    let len = if first < 0x80 {
        usize::from(first)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let len = rest[..count]
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        rest = &rest[count..];
        len
    };
    (rest.len() >= len).then(|| (tag, &rest[..len], &rest[len..]))
}

/// Count the distinct trusted keys of `role` that signed `envelope`; refuse below threshold.
pub fn check_threshold(
    file: &str,
    role_name: &str,
    envelope: &Envelope,
    role: &RoleKeys,
    keys: &BTreeMap<String, Key>,
) -> Result<()> {
    let message = envelope.signed_bytes(file)?;
    let signatures: BTreeMap<&str, &Signature> = envelope
        .signatures
        .iter()
        .map(|s| (s.keyid.as_str(), s))
        .collect();
    let mut valid = BTreeSet::new();
    for keyid in &role.keyids {
        let (Some(key), Some(signature)) = (keys.get(keyid), signatures.get(keyid.as_str())) else {
            continue;
        };
        if verify(key, &signature.sig, &message) {
            valid.insert(keyid);
        }
    }
    if role.threshold == 0 {
        return Err(malformed(file, format!("{role_name} has threshold 0")));
    }
    if (valid.len() as u64) < role.threshold {
        return Err(TufError::ThresholdNotMet {
            file: file.to_string(),
            role: role_name.to_string(),
            valid: valid.len(),
            threshold: role.threshold,
        });
    }
    Ok(())
}

/// An ed25519 private key (PKCS#8), as the operator's key files hold it.
pub struct SigningKey {
    pair: signature::Ed25519KeyPair,
    pkcs8: Vec<u8>,
}

const PEM_LABEL: &str = "PRIVATE KEY";

impl SigningKey {
    pub fn generate() -> Result<Self> {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = signature::Ed25519KeyPair::generate_pkcs8(&rng)
            .map_err(|_| TufError::Usage {
                what: "the system's random generator failed".into(),
            })?
            .as_ref()
            .to_vec();
        Self::from_pkcs8("a new key", &pkcs8)
    }

    pub fn from_pkcs8(file: &str, pkcs8: &[u8]) -> Result<Self> {
        let pair = signature::Ed25519KeyPair::from_pkcs8_maybe_unchecked(pkcs8)
            .map_err(|e| malformed(file, format!("not an ed25519 PKCS#8 private key: {e}")))?;
        Ok(SigningKey {
            pair,
            pkcs8: pkcs8.to_vec(),
        })
    }

    /// Read a PEM `PRIVATE KEY` (what [`SigningKey::to_pem`] writes).
    pub fn from_pem(file: &str, text: &str) -> Result<Self> {
        let der = rustls_pki_types::PrivatePkcs8KeyDer::from_pem_slice(text.as_bytes())
            .map_err(|e| malformed(file, format!("not a PEM private key: {e}")))?;
        Self::from_pkcs8(file, der.secret_pkcs8_der())
    }

    pub fn to_pem(&self) -> String {
        use base64::Engine as _;
        let body = base64::engine::general_purpose::STANDARD.encode(&self.pkcs8);
        let mut pem = format!("-----BEGIN {PEM_LABEL}-----\n");
        for line in body.as_bytes().chunks(64) {
            pem.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
            pem.push('\n');
        }
        pem.push_str(&format!("-----END {PEM_LABEL}-----\n"));
        pem
    }

    pub fn public(&self) -> Key {
        Key {
            keytype: "ed25519".into(),
            scheme: "ed25519".into(),
            keyval: KeyValue {
                public: hex::encode(self.pair.public_key().as_ref()),
            },
        }
    }

    pub fn sign(&self, message: &[u8]) -> Signature {
        Signature {
            keyid: self.public().id(),
            sig: hex::encode(self.pair.sign(message).as_ref()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_key_signs_what_it_verifies_and_survives_pem() {
        let key = SigningKey::generate().unwrap();
        let again = SigningKey::from_pem("k", &key.to_pem()).unwrap();
        let signature = again.sign(b"message");
        assert_eq!(signature.keyid, key.public().id());
        assert!(verify(&key.public(), &signature.sig, b"message"));
        assert!(!verify(&key.public(), &signature.sig, b"other"));
        assert!(!verify(&key.public(), "zz", b"message"));
    }

    #[test]
    fn the_suites_ecdsa_and_rsa_keys_are_read() {
        // A P-256 public key in PEM (from the TUF conformance suite's static data).
        let pem = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEcLYSZyFGeKdWNt5dWFbnv6N9NyHC\noUNLcG6GZIxLwN8Q8MUdHdOOxGkDnyBRSJpIZ/r/oDECSTwfCYhdSqHQ4A==\n-----END PUBLIC KEY-----\n";
        let bits = spki_public_key(pem).unwrap();
        assert_eq!(bits.len(), 65);
        assert_eq!(bits[0], 4);
    }
}
