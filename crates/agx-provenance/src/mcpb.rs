//! MCPB signature blocks, as `mcpb sign` appends them to a bundle: `MCPB_SIG_V1`, a 4-byte
//! little-endian length, a PKCS#7 (CMS) SignedData with a detached signature over everything
//! before the block, and `MCPB_SIG_END`. The signature is by an X.509 certificate, not by
//! Sigstore: agx checks that the certificate's key signed the bundle's bytes (RFC 5652
//! §5.4: the signed attributes carry the content's digest) and names the signer by the
//! certificate's subject and the key's SHA-256, which trust on first use then pins.
//!
//! The SignedData is walked here with a small DER reader rather than the `cms` crate: the
//! signer `mcpb` uses (node-forge) writes the signed attributes in insertion order, not in
//! the sorted order DER requires of a SET OF, and the signature covers those bytes as
//! written; the `der` crate (under `cms`) decodes them re-sorted (checked on a bundle
//! `mcpb sign` 2.1.2 signed), so re-encoding them gives other bytes than were signed. The signature itself is verified
//! by ring, and the certificate is parsed by `x509-cert`.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use ring::digest;
use ring::signature::{self as ring_signature, UnparsedPublicKey};
use x509_cert::Certificate;
use x509_cert::der::{Decode, Encode};

use crate::Signer;
use crate::verify::ProvenanceError;

const HEADER: &[u8] = b"MCPB_SIG_V1";
const FOOTER: &[u8] = b"MCPB_SIG_END";
/// How a signer from an MCPB signature is marked (its `issuer` starts so).
pub const SIGNER_ISSUER: &str = "MCPB signature";
/// The largest signature block agx reads: a certificate chain and a signature are a few KB.
pub const MAX_SIGNATURE_BYTES: usize = 1 << 20;

// DER encodings of the object identifiers a signature block uses (RFC 5652, RFC 8017,
// RFC 5758, NIST's hash arcs).
const SIGNED_DATA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02];
const DATA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01];
const CONTENT_TYPE: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x03];
const MESSAGE_DIGEST: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x04];
const SHA256: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01];
const SHA384: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02];
const SHA512: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03];
const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
const SHA256_WITH_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b];
const SHA384_WITH_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c];
const SHA512_WITH_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d];
const ECDSA_WITH_SHA256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
const ECDSA_WITH_SHA384: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03];
const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];

/// A bundle's signature block: where the signed bytes end, and the PKCS#7 SignedData.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureBlock {
    /// The length of what was signed: the bundle before the block.
    pub content_len: u64,
    pub pkcs7: Vec<u8>,
}

/// The signature block at the end of the bundle at `path`; `None` when the file does not end
/// with one (unsigned). A block that ends the file but does not hold together is an error,
/// never "unsigned".
pub fn read_signature_block(path: &Path) -> Result<Option<SignatureBlock>, ProvenanceError> {
    let origin = path.display().to_string();
    let unreadable = |e: std::io::Error| ProvenanceError::Unreadable {
        what: "MCPB bundle",
        origin: origin.clone(),
        reason: e.to_string(),
    };
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    let tail_len = size.min((MAX_SIGNATURE_BYTES + HEADER.len() + 4 + FOOTER.len()) as u64);
    file.seek(SeekFrom::Start(size - tail_len))
        .map_err(unreadable)?;
    let mut tail = Vec::with_capacity(tail_len as usize);
    file.read_to_end(&mut tail).map_err(unreadable)?;
    Ok(
        split_block(&tail, &origin)?.map(|(start, pkcs7)| SignatureBlock {
            content_len: size - tail_len + start as u64,
            pkcs7: pkcs7.to_vec(),
        }),
    )
}

/// In the last bytes of a bundle, the block's start and its PKCS#7 bytes.
fn split_block<'a>(
    tail: &'a [u8],
    origin: &str,
) -> Result<Option<(usize, &'a [u8])>, ProvenanceError> {
    let Some(end) = tail.len().checked_sub(FOOTER.len()) else {
        return Ok(None);
    };
    if &tail[end..] != FOOTER {
        return Ok(None);
    }
    // The header nearest the footer whose length reaches exactly to it (the signature's own
    // bytes may contain the header's text).
    let mut search = end;
    while let Some(at) = find_last(&tail[..search], HEADER) {
        let length_at = at + HEADER.len();
        if let Some(length) = tail.get(length_at..length_at + 4) {
            let length = u32::from_le_bytes(length.try_into().expect("4 bytes")) as usize;
            // Checked: on a 32-bit target a hostile length could wrap the sum to `end`.
            let reaches = (length_at + 4).checked_add(length);
            if reaches == Some(end) && length > 0 {
                return Ok(Some((at, &tail[length_at + 4..end])));
            }
        }
        search = at;
    }
    Err(ProvenanceError::Malformed {
        origin: origin.to_string(),
        reason: "it ends with MCPB_SIG_END, but no signature block of a consistent length \
                 precedes it"
            .into(),
    })
}

fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .rposition(|window| window == needle)
}

/// Verify the signature block of the bundle at `path` (whose signed bytes are its first
/// `block.content_len` bytes) and name its signer. The signed bytes are written to
/// `copy_to` as they are hashed (one pass), for a caller that reads them alone afterwards.
pub fn verify_bundle_signature(
    path: &Path,
    block: &SignatureBlock,
    mut copy_to: Option<&mut dyn std::io::Write>,
) -> Result<Signer, ProvenanceError> {
    let origin = path.display().to_string();
    let signed = SignedData::parse(&block.pkcs7).map_err(|reason| malformed(&origin, &reason))?;
    let algorithm = signed.digest_algorithm()?;
    let mut file = std::fs::File::open(path).map_err(|e| ProvenanceError::Unreadable {
        what: "MCPB bundle",
        origin: origin.clone(),
        reason: e.to_string(),
    })?;
    let mut context = digest::Context::new(algorithm);
    let mut remaining = block.content_len;
    let mut buffer = vec![0u8; 64 * 1024];
    while remaining > 0 {
        let want = remaining.min(buffer.len() as u64) as usize;
        file.read_exact(&mut buffer[..want])
            .map_err(|e| ProvenanceError::Unreadable {
                what: "MCPB bundle",
                origin: origin.clone(),
                reason: e.to_string(),
            })?;
        context.update(&buffer[..want]);
        if let Some(copy) = copy_to.as_mut() {
            copy.write_all(&buffer[..want])
                .map_err(|e| ProvenanceError::Unreadable {
                    what: "copy of the signed bundle",
                    origin: origin.clone(),
                    reason: e.to_string(),
                })?;
        }
        remaining -= want as u64;
    }
    signed.verify(context.finish().as_ref())
}

/// Verify a bundle held in memory: its signature block, if any, against the bytes before it.
/// `None` for a bundle without a block.
pub fn verify_bundle_bytes(bundle: &[u8], origin: &str) -> Result<Option<Signer>, ProvenanceError> {
    let tail = &bundle[bundle
        .len()
        .saturating_sub(MAX_SIGNATURE_BYTES + HEADER.len() + 4 + FOOTER.len())..];
    let offset = bundle.len() - tail.len();
    let Some((start, pkcs7)) = split_block(tail, origin)? else {
        return Ok(None);
    };
    let signed = SignedData::parse(pkcs7).map_err(|reason| malformed(origin, &reason))?;
    let content = &bundle[..offset + start];
    let algorithm = signed.digest_algorithm()?;
    signed
        .verify(digest::digest(algorithm, content).as_ref())
        .map(Some)
}

fn malformed(origin: &str, reason: &str) -> ProvenanceError {
    ProvenanceError::Malformed {
        origin: origin.to_string(),
        reason: format!("its signature block is not a PKCS#7 signature: {reason}"),
    }
}

/// The parts of a SignedData a detached signature is checked with.
struct SignedData<'a> {
    digest_oid: &'a [u8],
    certificates: Vec<&'a [u8]>,
    issuer: &'a [u8],
    serial: &'a [u8],
    /// The signed attributes as they were signed: tag `SET OF` and their bytes as written.
    signed_attributes: Vec<u8>,
    content_type: Option<&'a [u8]>,
    message_digest: Option<&'a [u8]>,
    signature_oid: &'a [u8],
    signature: &'a [u8],
}

impl<'a> SignedData<'a> {
    fn parse(der: &'a [u8]) -> Result<SignedData<'a>, String> {
        let (info, rest) = tlv(der, 0x30, "ContentInfo")?;
        if !rest.is_empty() {
            return Err("bytes after the ContentInfo".into());
        }
        let (oid, info) = tlv(info.value, 0x06, "contentType")?;
        if oid.value != SIGNED_DATA {
            return Err("its content is not SignedData".into());
        }
        let (explicit, after) = tlv(info, 0xa0, "content")?;
        let (data, inside) = tlv(explicit.value, 0x30, "SignedData")?;
        if !after.is_empty() || !inside.is_empty() {
            return Err("bytes after the SignedData".into());
        }
        let (_version, data) = tlv(data.value, 0x02, "version")?;
        let (_digests, data) = tlv(data, 0x31, "digestAlgorithms")?;
        let (encapsulated, mut data) = tlv(data, 0x30, "encapContentInfo")?;
        let (content_oid, embedded) = tlv(encapsulated.value, 0x06, "eContentType")?;
        if content_oid.value != DATA || !embedded.is_empty() {
            return Err("it is not a detached signature over data".into());
        }
        let mut certificates = Vec::new();
        if data.first() == Some(&0xa0) {
            let (set, rest) = tlv(data, 0xa0, "certificates")?;
            let mut inner = set.value;
            while !inner.is_empty() {
                let (certificate, rest) = tlv(inner, 0x30, "certificate")?;
                certificates.push(certificate.raw);
                inner = rest;
            }
            data = rest;
        }
        if data.first() == Some(&0xa1) {
            return Err(
                "it carries revocation lists, which a bundle signature has no use for".into(),
            );
        }
        let (signer_infos, after) = tlv(data, 0x31, "signerInfos")?;
        if !after.is_empty() {
            return Err("bytes after the signer infos".into());
        }
        let (info, others) = tlv(signer_infos.value, 0x30, "SignerInfo")?;
        if !others.is_empty() {
            return Err("it has more than one signer".into());
        }
        let (version, info) = tlv(info.value, 0x02, "version")?;
        if version.value != [1] {
            return Err("its signer is not named by issuer and serial number".into());
        }
        let (sid, info) = tlv(info, 0x30, "sid")?;
        let (issuer, serial) = tlv(sid.value, 0x30, "issuer")?;
        let (serial, _) = tlv(serial, 0x02, "serialNumber")?;
        let (digest_algorithm, info) = tlv(info, 0x30, "digestAlgorithm")?;
        let (digest_oid, _) = tlv(digest_algorithm.value, 0x06, "digestAlgorithm")?;
        let (attributes, info) = tlv(info, 0xa0, "signedAttrs")
            .map_err(|_| "it has no signed attributes, so the content's digest is not signed")?;
        let (signature_algorithm, info) = tlv(info, 0x30, "signatureAlgorithm")?;
        let (signature_oid, _) = tlv(signature_algorithm.value, 0x06, "signatureAlgorithm")?;
        let (signature, after) = tlv(info, 0x04, "signature")?;
        if !after.is_empty() {
            return Err("bytes after the signature (unsigned attributes agx does not read)".into());
        }

        // RFC 5652 §5.4: the signature is over the attributes' DER with the SET OF tag.
        let mut signed_attributes = attributes.raw.to_vec();
        signed_attributes[0] = 0x31;
        let (mut content_type, mut message_digest) = (None, None);
        let mut list = attributes.value;
        while !list.is_empty() {
            let (attribute, rest) = tlv(list, 0x30, "attribute")?;
            let (kind, values) = tlv(attribute.value, 0x06, "attrType")?;
            let (values, _) = tlv(values, 0x31, "attrValues")?;
            let slot = match kind.value {
                CONTENT_TYPE => &mut content_type,
                MESSAGE_DIGEST => &mut message_digest,
                _ => {
                    list = rest;
                    continue;
                }
            };
            if slot.is_some() {
                return Err("a signed attribute appears twice".into());
            }
            let (value, more) = tlv(
                values.value,
                values.value.first().copied().unwrap_or(0),
                "attrValue",
            )?;
            if !more.is_empty() {
                return Err("a signed attribute has more than one value".into());
            }
            *slot = Some(value.value);
            list = rest;
        }
        Ok(SignedData {
            digest_oid: digest_oid.value,
            certificates,
            issuer: issuer.raw,
            serial: serial.value,
            signed_attributes,
            content_type,
            message_digest,
            signature_oid: signature_oid.value,
            signature: signature.value,
        })
    }

    fn digest_algorithm(&self) -> Result<&'static digest::Algorithm, ProvenanceError> {
        match self.digest_oid {
            SHA256 => Ok(&digest::SHA256),
            SHA384 => Ok(&digest::SHA384),
            SHA512 => Ok(&digest::SHA512),
            _ => Err(rejected(
                "its digest algorithm is not SHA-256, SHA-384 or SHA-512",
            )),
        }
    }

    /// Check the signature over the signed attributes, and that they name `content_digest`
    /// (the bundle's digest) as data; the signer's certificate names the signer.
    fn verify(&self, content_digest: &[u8]) -> Result<Signer, ProvenanceError> {
        if self.content_type != Some(DATA) {
            return Err(rejected("its signed content type is not data"));
        }
        if self.message_digest != Some(content_digest) {
            return Err(rejected(
                "the bundle's digest is not the one its signature covers: the bundle changed after it was signed",
            ));
        }
        // Compared as names, not bytes: decoding may normalise an encoding (the order of a
        // SET OF) that the signer's issuer field kept as written.
        let issuer = x509_cert::name::Name::from_der(self.issuer)
            .map_err(|e| rejected(&format!("its signer's issuer does not parse: {e}")))?;
        let certificate = self
            .certificates
            .iter()
            .map(|der| Certificate::from_der(der))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| rejected(&format!("a certificate it carries does not parse: {e}")))?
            .into_iter()
            .find(|certificate| {
                let tbs = &certificate.tbs_certificate;
                tbs.issuer == issuer
                    && strip_sign_byte(tbs.serial_number.as_bytes()) == strip_sign_byte(self.serial)
            })
            .ok_or_else(|| rejected("it does not carry the signer's certificate"))?;
        let key_info = &certificate.tbs_certificate.subject_public_key_info;
        let key = key_info.subject_public_key.raw_bytes();
        let key_oid = key_info.algorithm.oid.as_bytes();
        let curve = key_info
            .algorithm
            .parameters
            .as_ref()
            .and_then(|p| p.decode_as::<x509_cert::der::asn1::ObjectIdentifier>().ok())
            .map(|oid| oid.to_string());
        let algorithm: &dyn ring_signature::VerificationAlgorithm = match (
            self.signature_oid,
            self.digest_oid,
            key_oid,
        ) {
            (RSA_ENCRYPTION | SHA256_WITH_RSA, SHA256, RSA_ENCRYPTION) => {
                &ring_signature::RSA_PKCS1_2048_8192_SHA256
            }
            (RSA_ENCRYPTION | SHA384_WITH_RSA, SHA384, RSA_ENCRYPTION) => {
                &ring_signature::RSA_PKCS1_2048_8192_SHA384
            }
            (RSA_ENCRYPTION | SHA512_WITH_RSA, SHA512, RSA_ENCRYPTION) => {
                &ring_signature::RSA_PKCS1_2048_8192_SHA512
            }
            (ECDSA_WITH_SHA256, SHA256, EC_PUBLIC_KEY)
                if curve.as_deref() == Some("1.2.840.10045.3.1.7") =>
            {
                &ring_signature::ECDSA_P256_SHA256_ASN1
            }
            (ECDSA_WITH_SHA384, SHA384, EC_PUBLIC_KEY)
                if curve.as_deref() == Some("1.3.132.0.34") =>
            {
                &ring_signature::ECDSA_P384_SHA384_ASN1
            }
            _ => {
                return Err(rejected(
                    "its signature algorithm is not RSA (PKCS #1 v1.5, 2048 bits or more) or ECDSA P-256/P-384 with a matching digest",
                ));
            }
        };
        UnparsedPublicKey::new(algorithm, key)
            .verify(&self.signed_attributes, self.signature)
            .map_err(|_| rejected("its signature does not verify with its certificate's key"))?;
        let spki = key_info
            .to_der()
            .map_err(|e| rejected(&format!("its certificate's key does not encode: {e}")))?;
        let fingerprint = hex(digest::digest(&digest::SHA256, &spki).as_ref());
        let tbs = &certificate.tbs_certificate;
        let issued_by = if tbs.issuer == tbs.subject {
            "a self-signed certificate".to_string()
        } else {
            format!("a certificate issued by {}", tbs.issuer)
        };
        Ok(Signer {
            issuer: format!("{SIGNER_ISSUER}, {issued_by}"),
            identity: format!("{}, key sha256:{fingerprint}", tbs.subject),
            repository: None,
            source_ref: None,
            workflow: None,
        })
    }
}

fn rejected(reason: &str) -> ProvenanceError {
    ProvenanceError::Rejected {
        reason: reason.to_string(),
    }
}

/// An INTEGER's content without the leading zero DER adds to keep it positive.
fn strip_sign_byte(integer: &[u8]) -> &[u8] {
    match integer {
        [0, rest @ ..] if !rest.is_empty() => rest,
        other => other,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One DER element: its whole encoding and its value.
struct Tlv<'a> {
    raw: &'a [u8],
    value: &'a [u8],
}

/// Read one element with the one-byte tag `tag` (`what`: for the message), and what
/// follows it. Definite lengths only, as DER has.
fn tlv<'a>(input: &'a [u8], tag: u8, what: &str) -> Result<(Tlv<'a>, &'a [u8]), String> {
    let short = || format!("{what} is cut short");
    let (&found, rest) = input.split_first().ok_or_else(short)?;
    if found != tag {
        return Err(format!("{what}: tag {found:#04x} where {tag:#04x} belongs"));
    }
    let (&first, rest) = rest.split_first().ok_or_else(short)?;
    let (length, rest) = match first {
        0..=0x7f => (first as usize, rest),
        0x81..=0x84 => {
            let count = (first & 0x7f) as usize;
            let bytes = rest.get(..count).ok_or_else(short)?;
            let length = bytes.iter().fold(0usize, |n, b| (n << 8) | *b as usize);
            (length, &rest[count..])
        }
        _ => return Err(format!("{what}: a length agx does not read")),
    };
    let value = rest.get(..length).ok_or_else(short)?;
    let header = input.len() - rest.len();
    Ok((
        Tlv {
            raw: &input[..header + length],
            value,
        },
        &rest[length..],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_found_only_where_it_ends_the_file_and_holds_together() {
        let mut bundle = b"PK\x05\x06zip bytes".to_vec();
        assert_eq!(split_block(&bundle, "b").unwrap(), None);
        let pkcs7 = b"0\x03MCPB_SIG_V1 inside";
        let start = bundle.len();
        bundle.extend_from_slice(HEADER);
        bundle.extend_from_slice(&(pkcs7.len() as u32).to_le_bytes());
        bundle.extend_from_slice(pkcs7);
        bundle.extend_from_slice(FOOTER);
        assert_eq!(
            split_block(&bundle, "b").unwrap(),
            Some((start, &pkcs7[..]))
        );
        // A length that does not reach the footer is not a block, and says so.
        let mut broken = bundle.clone();
        broken[start + HEADER.len()] ^= 1;
        assert!(matches!(
            split_block(&broken, "b"),
            Err(ProvenanceError::Malformed { .. })
        ));
    }

    fn signed_fixture() -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../registry-fixtures/mcpb/hello-signed.mcpb"),
        )
        .unwrap()
    }

    #[test]
    fn a_bundle_signed_by_mcpb_sign_names_its_certificate_and_key() {
        let signer = verify_bundle_bytes(&signed_fixture(), "hello-signed.mcpb")
            .unwrap()
            .expect("signed");
        assert_eq!(signer.issuer, "MCPB signature, a self-signed certificate");
        assert!(
            signer
                .identity
                .starts_with("O=agx,CN=agx test signer, key sha256:"),
            "{}",
            signer.identity
        );
        // The file-based check agrees.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.mcpb");
        std::fs::write(&path, signed_fixture()).unwrap();
        let block = read_signature_block(&path).unwrap().expect("a block");
        assert_eq!(
            verify_bundle_signature(&path, &block, None).unwrap(),
            signer
        );
    }

    #[test]
    fn a_changed_byte_anywhere_before_the_block_is_refused() {
        let bundle = signed_fixture();
        for at in [0, 10, bundle.len() / 3] {
            let mut changed = bundle.clone();
            changed[at] ^= 1;
            let error = verify_bundle_bytes(&changed, "b").unwrap_err();
            assert!(
                error.to_string().contains("changed after it was signed"),
                "{at}: {error}"
            );
        }
        // The signature itself changed: it does not verify.
        let mut changed = bundle.clone();
        let last_signature_byte = bundle.len() - FOOTER.len() - 1;
        changed[last_signature_byte] ^= 1;
        let error = verify_bundle_bytes(&changed, "b").unwrap_err();
        assert!(error.to_string().contains("does not verify"), "{error}");
    }

    #[test]
    fn what_is_not_pkcs7_is_refused_with_why() {
        for (der, why) in [
            (&b""[..], "ContentInfo is cut short"),
            (
                &[0x30, 0x03, 0x06, 0x01, 0x00][..],
                "its content is not SignedData",
            ),
            (&[0x31, 0x00][..], "tag 0x31 where 0x30 belongs"),
        ] {
            let error = SignedData::parse(der).err().expect("refused");
            assert!(error.contains(why), "{error}");
        }
    }
}
