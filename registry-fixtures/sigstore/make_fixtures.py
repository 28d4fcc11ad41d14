#!/usr/bin/env python3
"""Build agx's private Sigstore test instance and the bundles signed with it.

The instance is three keys and a CA, all derived from fixed seeds: a Fulcio-style CA (root
and intermediate, ECDSA P-384, like the public-good Fulcio), a certificate-transparency log
key (the CT log that issues embedded SCTs, P-256) and a Rekor v1 transparency log key (P-256).
`trusted_root.json` describes them in Sigstore's format
(application/vnd.dev.sigstore.trustedroot+json;version=0.1), and `trust_config.json` wraps it
in a ClientTrustConfig (with a signing config naming the same made-up services) for clients
that take one, such as sigstore-python's `--trust-config`.

Every bundle (application/vnd.dev.sigstore.bundle.v0.3+json) holds what the public-good
instance would have issued:
  * a Fulcio-style leaf certificate (ephemeral P-256 key, empty subject, critical SAN with the
    identity, code-signing EKU, 10 minutes of validity from the signing time) with the OIDC
    issuer extensions (1.3.6.1.4.1.57264.1.1 raw, .1.8 UTF8String), for GitHub Actions
    identities the workflow extensions Fulcio sets (.1.2-.1.6 raw, .1.9-.1.22 UTF8String),
    and an embedded SCT (1.3.6.1.4.1.11129.2.4.2) signed by the CT log key over the
    precertificate TBS (RFC 6962 section 3.2);
  * a Rekor v1 entry, hashedrekord/0.0.1 (message signatures) or dsse/0.0.1 (DSSE envelopes):
    canonicalized body, integrated time, log index and ID, a signed entry timestamp, and an
    RFC 6962 inclusion proof in the log of every entry made here, with a signed checkpoint.

What is signed: acme/geo 1.0.0-1.2.0, packed by agx itself from
registry-fixtures/packages/acme-geo (1.3.0 is packed and left unsigned), `hello.txt`, the
negative cases, and the npm tarballs of @acme/hello-mcp 1.0.0-1.2.0 in npm/ (SLSA provenance
statements naming `pkg:npm/%40acme/hello-mcp@VERSION` by sha512, served as the registry's
attestations documents `npm/@acme%2fhello-mcp@VERSION.json`), and the wheel of hello-mcp-py
1.0.0 in pypi/ (a PEP 740 provenance object beside it), and OCI manifests of acme/geo 1.0.0
(signed by acme) and 1.1.0 (by mallory) in oci/; `cases.json` lists each case with its
expected outcome (see README.md).

Keys come from fixed seeds and every ECDSA signature uses RFC 6979 nonces, so a rerun with
the same agx binary writes the same bytes. Needs only pyca/cryptography (>= 44, for
deterministic ECDSA) and the agx binary ($AGX_BIN, default target/debug/agx; when it is
missing, the archives already in packages/ are signed again as they are):
    python3 -m venv /tmp/sgvenv && /tmp/sgvenv/bin/pip install cryptography==50.0.2
    AGX_BIN=target/debug/agx /tmp/sgvenv/bin/python registry-fixtures/sigstore/make_fixtures.py
"""
import base64
import hashlib
import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
SEED = b"agx private sigstore test instance, v1"

# Made-up service addresses (.invalid never resolves): only names in the trusted root.
FULCIO_URL = "https://fulcio.sigstore-test.invalid"
REKOR_URL = "https://rekor.sigstore-test.invalid"
CTFE_URL = "https://ctfe.sigstore-test.invalid/test"
OIDC_URL = "https://oauth2.sigstore-test.invalid/auth"
REKOR_HOST = "rekor.sigstore-test.invalid"
REKOR_TREE_ID = 4711000000000000001
INSTANCE_START = datetime(2026, 1, 1, tzinfo=timezone.utc)
CA_END = datetime(2036, 1, 1, tzinfo=timezone.utc)

GITHUB_ISSUER = "https://token.actions.githubusercontent.com"
EMAIL_ISSUER = "https://accounts.example.com"

# ---------------------------------------------------------------------------------------------
# Keys and signatures

CURVE_ORDER = {
    "secp256r1": 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
    "secp384r1": int(
        "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973",
        16,
    ),
}


def derive_key(label, curve):
    """An EC private key whose scalar comes from SEED and `label`."""
    order = CURVE_ORDER[curve.name]
    digest = hashlib.sha512(SEED + b"/key/" + label.encode()).digest()
    return ec.derive_private_key(int.from_bytes(digest, "big") % (order - 1) + 1, curve)


def p256(label):
    return derive_key(label, ec.SECP256R1())


def p384(label):
    return derive_key(label, ec.SECP384R1())


def sign(key, data, hash_alg=None):
    """ECDSA over `data` (DER signature, RFC 6979 nonce)."""
    return key.sign(data, ec.ECDSA(hash_alg or hashes.SHA256(), deterministic_signing=True))


def spki_der(key):
    public = key.public_key() if hasattr(key, "public_key") else key
    return public.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def key_id(key):
    """RFC 6962 key ID: SHA-256 of the DER SubjectPublicKeyInfo (Rekor's and the CT log's)."""
    return hashlib.sha256(spki_der(key)).digest()


def b64(data):
    return base64.b64encode(data).decode()


def serial(label):
    return int.from_bytes(hashlib.sha256(SEED + b"/serial/" + label.encode()).digest()[:16], "big") >> 1 | 1


def rfc3339(when):
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def canonical_json(value):
    """RFC 8785 for what is canonicalized here (strings, integers, ASCII keys)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


# ---------------------------------------------------------------------------------------------
# DER bits that pyca/cryptography does not build itself

def der_tlv(tag, content):
    n = len(content)
    if n < 0x80:
        length = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + content


def utf8_string(text):
    return der_tlv(0x0C, text.encode())


SCT_LIST_OID = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")


def sct_list_extension(ct_key, precert_tbs, issuer_key, timestamp_ms):
    """The precertificate SCT list extension (RFC 6962 section 3.3) with one SCT from `ct_key`.

    The SCT signs (section 3.2): version v1, signature_type certificate_timestamp, the
    timestamp, entry_type precert_entry, then the PreCert: SHA-256 of the issuer's DER
    SubjectPublicKeyInfo and the TBSCertificate without the SCT extension (u24 length), then
    empty CtExtensions."""
    tbs_len = len(precert_tbs).to_bytes(3, "big")
    signed = (
        struct.pack(">BBQH", 0, 0, timestamp_ms, 1)
        + key_id(issuer_key)
        + tbs_len
        + precert_tbs
        + struct.pack(">H", 0)
    )
    signature = sign(ct_key, signed)
    sct = (
        struct.pack(">B", 0)  # sct_version v1
        + key_id(ct_key)  # LogID
        + struct.pack(">QH", timestamp_ms, 0)  # timestamp, empty extensions
        + struct.pack(">BBH", 4, 3, len(signature))  # sha256, ecdsa, signature<0..2^16-1>
        + signature
    )
    serialized = struct.pack(">H", len(sct)) + sct
    sct_list = struct.pack(">H", len(serialized)) + serialized
    # The extension's value is an OCTET STRING holding the TLS-encoded list.
    return x509.UnrecognizedExtension(SCT_LIST_OID, der_tlv(0x04, sct_list))


# ---------------------------------------------------------------------------------------------
# Certificate authority

def ca_name(common_name):
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "sigstore-test.invalid"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


class CertificateAuthority:
    """A root and an intermediate, shaped like the public-good Fulcio's (P-384, SHA-384)."""

    def __init__(self, label, name_prefix="sigstore-test"):
        self.label = label
        self.root_key = p384(f"{label}/root")
        self.key = p384(f"{label}/intermediate")
        root_subject = ca_name(name_prefix)
        self.root = (
            x509.CertificateBuilder()
            .subject_name(root_subject)
            .issuer_name(root_subject)
            .public_key(self.root_key.public_key())
            .serial_number(serial(f"{label}/root"))
            .not_valid_before(INSTANCE_START)
            .not_valid_after(CA_END)
            .add_extension(
                x509.KeyUsage(False, False, False, False, False, True, True, False, False),
                critical=True,
            )
            .add_extension(x509.BasicConstraints(ca=True, path_length=1), critical=True)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(self.root_key.public_key()),
                critical=False,
            )
            .sign(self.root_key, hashes.SHA384(), ecdsa_deterministic=True)
        )
        self.intermediate = (
            x509.CertificateBuilder()
            .subject_name(ca_name(f"{name_prefix}-intermediate"))
            .issuer_name(root_subject)
            .public_key(self.key.public_key())
            .serial_number(serial(f"{label}/intermediate"))
            .not_valid_before(INSTANCE_START)
            .not_valid_after(CA_END)
            .add_extension(
                x509.KeyUsage(False, False, False, False, False, True, True, False, False),
                critical=True,
            )
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(self.key.public_key()), critical=False
            )
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.root_key.public_key()),
                critical=False,
            )
            .sign(self.root_key, hashes.SHA384(), ecdsa_deterministic=True)
        )

    def issue(self, label, leaf_key, san, extensions, not_before, ct_key, sct_time_ms):
        """A Fulcio-style leaf: the precertificate TBS is signed into an SCT by `ct_key`, then
        the certificate is issued with that SCT list appended as its last extension."""

        def build(extra):
            builder = (
                x509.CertificateBuilder()
                .subject_name(x509.Name([]))
                .issuer_name(self.intermediate.subject)
                .public_key(leaf_key.public_key())
                .serial_number(serial(f"{self.label}/leaf/{label}"))
                .not_valid_before(not_before)
                .not_valid_after(not_before + timedelta(minutes=10))
                .add_extension(
                    x509.KeyUsage(True, False, False, False, False, False, False, False, False),
                    critical=True,
                )
                .add_extension(
                    x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=False
                )
                .add_extension(
                    x509.SubjectKeyIdentifier.from_public_key(leaf_key.public_key()),
                    critical=False,
                )
                .add_extension(
                    x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                    critical=False,
                )
                .add_extension(x509.SubjectAlternativeName([san]), critical=True)
            )
            for oid, value in extensions + extra:
                builder = builder.add_extension(
                    x509.UnrecognizedExtension(x509.ObjectIdentifier(oid), value), critical=False
                )
            return builder.sign(self.key, hashes.SHA384(), ecdsa_deterministic=True)

        precert = build([])
        sct = sct_list_extension(ct_key, precert.tbs_certificate_bytes, self.key, sct_time_ms)
        cert = build([(sct.oid.dotted_string, sct.value)])
        # What a verifier rebuilds (the TBS less the SCT list) is what the SCT signed.
        assert cert.tbs_precertificate_bytes == precert.tbs_certificate_bytes
        scts = cert.extensions.get_extension_for_class(x509.PrecertificateSignedCertificateTimestamps)
        assert len(scts.value) == 1 and scts.value[0].log_id == key_id(ct_key)
        return cert


def fulcio_extensions(identity):
    """Fulcio's extensions for an identity (docs/oid-info.md of sigstore/fulcio)."""
    exts = [
        ("1.3.6.1.4.1.57264.1.1", identity["issuer"].encode()),  # issuer (deprecated, raw)
    ]
    gh = identity.get("github")
    if gh:
        exts += [
            # The deprecated GitHub workflow extensions, raw strings.
            ("1.3.6.1.4.1.57264.1.2", gh["event"].encode()),
            ("1.3.6.1.4.1.57264.1.3", gh["sha"].encode()),
            ("1.3.6.1.4.1.57264.1.4", gh["workflow_name"].encode()),
            ("1.3.6.1.4.1.57264.1.5", gh["repository"].encode()),
            ("1.3.6.1.4.1.57264.1.6", gh["ref"].encode()),
        ]
    exts.append(("1.3.6.1.4.1.57264.1.8", utf8_string(identity["issuer"])))
    if gh:
        repo_uri = f"https://github.com/{gh['repository']}"
        workflow = f"{repo_uri}/{gh['workflow_path']}@{gh['ref']}"
        for oid, value in [
            ("1.3.6.1.4.1.57264.1.9", workflow),  # build signer URI
            ("1.3.6.1.4.1.57264.1.10", gh["sha"]),  # build signer digest
            ("1.3.6.1.4.1.57264.1.11", "github-hosted"),  # runner environment
            ("1.3.6.1.4.1.57264.1.12", repo_uri),  # source repository URI
            ("1.3.6.1.4.1.57264.1.13", gh["sha"]),  # source repository digest
            ("1.3.6.1.4.1.57264.1.14", gh["ref"]),  # source repository ref
            ("1.3.6.1.4.1.57264.1.15", gh["repository_id"]),  # source repository identifier
            ("1.3.6.1.4.1.57264.1.16", f"https://github.com/{gh['repository'].split('/')[0]}"),
            ("1.3.6.1.4.1.57264.1.17", gh["owner_id"]),  # source repository owner identifier
            ("1.3.6.1.4.1.57264.1.18", workflow),  # build config URI
            ("1.3.6.1.4.1.57264.1.19", gh["sha"]),  # build config digest
            ("1.3.6.1.4.1.57264.1.20", gh["event"]),  # build trigger
            ("1.3.6.1.4.1.57264.1.21", f"{repo_uri}/actions/runs/{gh['run_id']}/attempts/1"),
            ("1.3.6.1.4.1.57264.1.22", "public"),  # source repository visibility
        ]:
            exts.append((oid, utf8_string(value)))
    return exts


def github_identity(repository, ref, repository_id, owner_id, run_id):
    sha = hashlib.sha1(SEED + f"/commit/{repository}@{ref}".encode()).hexdigest()
    gh = {
        "repository": repository,
        "ref": ref,
        "sha": sha,
        "event": "push",
        "workflow_name": "Release",
        "workflow_path": ".github/workflows/release.yml",
        "repository_id": repository_id,
        "owner_id": owner_id,
        "run_id": run_id,
    }
    san = f"https://github.com/{repository}/{gh['workflow_path']}@{ref}"
    return {
        "identity": san,
        "san": x509.UniformResourceIdentifier(san),
        "issuer": GITHUB_ISSUER,
        "github": gh,
        "source_repository": f"https://github.com/{repository}",
        "source_ref": ref,
        "build_signer": san,
    }


def email_identity(email, issuer):
    return {"identity": email, "san": x509.RFC822Name(email), "issuer": issuer}


# ---------------------------------------------------------------------------------------------
# Transparency log (Rekor v1)

def leaf_hash(data):
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def split_point(n):
    """The largest power of two smaller than n (RFC 6962 section 2.1)."""
    k = 1
    while k << 1 < n:
        k <<= 1
    return k


def tree_hash(leaves):
    if len(leaves) == 1:
        return leaves[0]
    k = split_point(len(leaves))
    return node_hash(tree_hash(leaves[:k]), tree_hash(leaves[k:]))


def audit_path(m, leaves):
    """PATH(m, D[n]) of RFC 6962 section 2.1.1, from the leaf up."""
    if len(leaves) == 1:
        return []
    k = split_point(len(leaves))
    if m < k:
        return audit_path(m, leaves[:k]) + [tree_hash(leaves[k:])]
    return audit_path(m - k, leaves[k:]) + [tree_hash(leaves[:k])]


def verify_inclusion(index, size, leaf, path, root):
    """RFC 9162 section 2.1.3.2, as a check of what is written."""
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


class RekorLog:
    """Entries are added in time order; `close` fixes the tree and signs its checkpoint, after
    which every entry's proof is against that one checkpoint."""

    def __init__(self, key):
        self.key = key
        self.log_id = key_id(key)
        self.entries = []  # (canonicalized body, integrated time)
        self.checkpoint = None

    def add(self, body, integrated_time):
        assert self.checkpoint is None
        assert not self.entries or self.entries[-1][1] <= integrated_time
        self.entries.append((body, integrated_time))
        return len(self.entries) - 1

    def close(self):
        self.leaves = [leaf_hash(body) for body, _ in self.entries]
        self.root = tree_hash(self.leaves)
        note = f"{REKOR_HOST} - {REKOR_TREE_ID}\n{len(self.leaves)}\n{b64(self.root)}\n"
        signature = sign(self.key, note.encode())
        # A signed note: the text, a blank line, "— NAME base64(key hint || signature)";
        # Rekor v1's key hint is the first 4 bytes of its log ID.
        self.checkpoint = f"{note}\n\u2014 {REKOR_HOST} {b64(self.log_id[:4] + signature)}\n"

    def tlog_entry(self, index, kind):
        body, integrated_time = self.entries[index]
        size = len(self.leaves)
        path = audit_path(index, self.leaves)
        assert verify_inclusion(index, size, self.leaves[index], path, self.root)
        promise = {
            "body": b64(body),
            "integratedTime": integrated_time,
            "logID": self.log_id.hex(),
            "logIndex": index,
        }
        return {
            "logIndex": str(index),
            "logId": {"keyId": b64(self.log_id)},
            "kindVersion": {"kind": kind, "version": "0.0.1"},
            "integratedTime": str(integrated_time),
            "inclusionPromise": {"signedEntryTimestamp": b64(sign(self.key, canonical_json(promise)))},
            "inclusionProof": {
                "logIndex": str(index),
                "rootHash": b64(self.root),
                "treeSize": str(size),
                "hashes": [b64(h) for h in path],
                "checkpoint": {"envelope": self.checkpoint},
            },
            "canonicalizedBody": b64(body),
        }


def pem_b64(cert):
    return b64(cert.public_bytes(serialization.Encoding.PEM))


def hashedrekord_body(cert, signature, digest):
    return canonical_json(
        {
            "apiVersion": "0.0.1",
            "kind": "hashedrekord",
            "spec": {
                "data": {"hash": {"algorithm": "sha256", "value": digest.hex()}},
                "signature": {"content": b64(signature), "publicKey": {"content": pem_b64(cert)}},
            },
        }
    )


def dsse_body(cert, envelope, payload, signature):
    return canonical_json(
        {
            "apiVersion": "0.0.1",
            "kind": "dsse",
            "spec": {
                # Rekor hashes the envelope as submitted; here, its canonical JSON.
                "envelopeHash": {
                    "algorithm": "sha256",
                    "value": hashlib.sha256(canonical_json(envelope)).hexdigest(),
                },
                "payloadHash": {"algorithm": "sha256", "value": hashlib.sha256(payload).hexdigest()},
                "signatures": [{"signature": b64(signature), "verifier": pem_b64(cert)}],
            },
        }
    )


def pae(payload_type, payload):
    return b"DSSEv1 %d %s %d %s" % (len(payload_type), payload_type.encode(), len(payload), payload)


# ---------------------------------------------------------------------------------------------
# Signing

IN_TOTO = "application/vnd.in-toto+json"


class Signing:
    """One signing event: a leaf certificate, a signature and (after the log closes) a bundle."""

    def __init__(self, name, artifact, identity, when, ca, ct_key, log, dsse=False,
                 subject=None, predicate_type=None):
        """`subject`: for a DSSE statement, the subject's name and digest algorithm in place
        of the file name and sha256 (npm's statements: `pkg:npm/NAME@VERSION`, sha512);
        `predicate_type`: a claim other than SLSA provenance (with an empty predicate)."""
        self.name = name
        self.artifact = artifact
        self.identity = identity
        data = artifact.read_bytes()
        self.digest = hashlib.sha256(data).digest()
        subject_name, subject_digest = artifact.name, {"sha256": self.digest.hex()}
        if subject:
            subject_name, algorithm = subject
            subject_digest = {algorithm: hashlib.new(algorithm, data).hexdigest()}
        leaf_key = p256(f"leaf/{name}")
        self.cert = ca.issue(
            name,
            leaf_key,
            identity["san"],
            fulcio_extensions(identity),
            when,
            ct_key,
            int(when.timestamp()) * 1000 + 450,
        )
        self.integrated_time = int(when.timestamp()) + 2
        if dsse:
            payload = in_toto_statement(subject_name, subject_digest, identity, predicate_type)
            signature = sign(leaf_key, pae(IN_TOTO, payload))
            self.content = {
                "dsseEnvelope": {
                    "payload": b64(payload),
                    "payloadType": IN_TOTO,
                    "signatures": [{"sig": b64(signature), "keyid": ""}],
                }
            }
            body = dsse_body(self.cert, self.content["dsseEnvelope"], payload, signature)
            self.kind = "dsse"
        else:
            signature = leaf_key.sign(data, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
            self.content = {
                "messageSignature": {
                    "messageDigest": {"algorithm": "SHA2_256", "digest": b64(self.digest)},
                    "signature": b64(signature),
                }
            }
            body = hashedrekord_body(self.cert, signature, self.digest)
            self.kind = "hashedrekord"
        self.log = log
        self.index = log.add(body, self.integrated_time)

    def bundle(self):
        return {
            "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
            "verificationMaterial": {
                "certificate": {"rawBytes": b64(self.cert.public_bytes(serialization.Encoding.DER))},
                "tlogEntries": [self.log.tlog_entry(self.index, self.kind)],
            },
            **self.content,
        }


def in_toto_statement(name, digest, identity, predicate_type=None):
    """An in-toto v1 statement with a small SLSA v1 provenance predicate, as GitHub's
    attest-build-provenance writes for a tag-triggered release workflow; `digest`: the
    subject's digest set (`{"sha256": HEX}`). With `predicate_type`, another claim (an SBOM)
    with an empty predicate."""
    if predicate_type:
        return json.dumps({
            "_type": "https://in-toto.io/Statement/v1",
            "subject": [{"name": name, "digest": digest}],
            "predicateType": predicate_type,
            "predicate": {},
        }, separators=(",", ":")).encode()
    gh = identity["github"]
    repo_uri = identity["source_repository"]
    statement = {
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [{"name": name, "digest": digest}],
        "predicateType": "https://slsa.dev/provenance/v1",
        "predicate": {
            "buildDefinition": {
                "buildType": "https://actions.github.io/buildtypes/workflow/v1",
                "externalParameters": {
                    "workflow": {
                        "ref": gh["ref"],
                        "repository": repo_uri,
                        "path": gh["workflow_path"],
                    }
                },
                "internalParameters": {
                    "github": {
                        "event_name": gh["event"],
                        "repository_id": gh["repository_id"],
                        "repository_owner_id": gh["owner_id"],
                        "runner_environment": "github-hosted",
                    }
                },
                "resolvedDependencies": [
                    {"uri": f"git+{repo_uri}@{gh['ref']}", "digest": {"gitCommit": gh["sha"]}}
                ],
            },
            "runDetails": {
                "builder": {"id": identity["build_signer"]},
                "metadata": {
                    "invocationId": f"{repo_uri}/actions/runs/{gh['run_id']}/attempts/1"
                },
            },
        },
    }
    return json.dumps(statement, separators=(",", ":")).encode()


# ---------------------------------------------------------------------------------------------
# Files

def pack_geo(versions, out_dir):
    """acme/geo at each version, packed by agx itself (`agx pack`); without an agx binary the
    archives already in out_dir are kept."""
    agx = pathlib.Path(os.environ.get("AGX_BIN", REPO / "target" / "debug" / "agx"))
    names = {v: out_dir / f"acme-geo-{v}.tar.gz" for v in versions}
    if not agx.is_file():
        missing = [str(p) for p in names.values() if not p.is_file()]
        if missing:
            sys.exit(f"no agx binary at {agx} (set AGX_BIN) and no archive at {', '.join(missing)}")
        print(f"note: no agx binary at {agx}; signing the archives already in {out_dir}")
        return names
    src = REPO / "registry-fixtures" / "packages" / "acme-geo"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        env = dict(os.environ, HOME=str(tmp / "home"), AGX_HOME=str(tmp / "agx-home"),
                   AGX_NO_PROGRESS="1", AGX_OFFICIAL_REGISTRY="off", NO_COLOR="1")
        env.pop("AGX_REGISTRY", None)
        for version, target in names.items():
            pkg = tmp / f"geo-{version}"
            shutil.copytree(src, pkg)
            manifest = pkg / "agx.toml"
            text, n = re.subn(r'^version = "[^"]*"$', f'version = "{version}"',
                              manifest.read_text(), count=1, flags=re.M)
            assert n == 1, "no version line in acme-geo/agx.toml"
            manifest.write_text(text)
            built = tmp / f"out-{version}"
            subprocess.run([str(agx), "-q", "pack", str(pkg), "-o", str(built)], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            (archive,) = built.iterdir()
            assert archive.name == target.name, archive.name
            shutil.copyfile(archive, target)
    return names


def pack_npm(name, version, out_dir):
    """The npm tarball of `name@version`: a dependency-free MCP server (the MCPB fixture's
    server) with one `bin`, laid out as `npm pack` does (`package/…`), with fixed times so a
    rerun writes the same bytes."""
    import gzip
    import io
    import tarfile

    server = (REPO / "registry-fixtures" / "mcpb" / "hello" / "server" / "index.js").read_bytes()
    manifest = json.dumps({
        "name": name,
        "version": version,
        "description": "A test MCP server with npm provenance from agx's Sigstore test instance",
        "bin": {name.split("/")[-1]: "index.js"},
        # Records that the package's own code ran at install, where a test asks it to.
        "scripts": {"postinstall": "node -e \"const f=process.env.AGX_TEST_SCRIPT_RAN;"
                                   "if(f)require('fs').appendFileSync(f,process.env."
                                   "npm_package_version+'\\n')\""},
        "license": "MIT",
    }, indent=2).encode() + b"\n"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path, data, mode in (("package/package.json", manifest, 0o644),
                                 ("package/index.js", server, 0o755)):
            info = tarfile.TarInfo(path)
            info.size, info.mode, info.mtime = len(data), mode, 499162500  # npm's fixed date
            tar.addfile(info, io.BytesIO(data))
    target = out_dir / f"{name.split('/')[-1]}-{version}.tgz"
    target.write_bytes(gzip.compress(raw.getvalue(), mtime=0))
    return target


def npm_purl(name, version):
    return "pkg:npm/" + name.replace("@", "%40", 1) + "@" + version


def write_npm_attestations(signing, out_dir, name, version):
    """The registry's answer at /-/npm/v1/attestations/NAME@VERSION: the SLSA provenance
    bundle (npm's document also holds the registry's publish attestation, which agx does
    not read)."""
    path = out_dir / f"{name.replace('/', '%2f')}@{version}.json"
    write_json(path, {"attestations": [{
        "predicateType": "https://slsa.dev/provenance/v1",
        "bundle": signing.bundle(),
    }]})
    return path


PYPI_SERVER = b'''"""A stdlib MCP server over stdio (one JSON-RPC message per line), for agx's tests."""
import json
import sys

TOOLS = [{"name": "greet", "description": "Greet someone",
          "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}]


def answer(request):
    method = request.get("method")
    if method == "initialize":
        return {"protocolVersion": request["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hello-mcp-py", "version": "1.0.0"}}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        name = request["params"].get("arguments", {}).get("name", "you")
        return {"content": [{"type": "text", "text": f"Hello, {name}!"}]}
    if method == "ping":
        return {}
    return None


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if "id" not in request:
            continue
        result = answer(request)
        reply = {"jsonrpc": "2.0", "id": request["id"]}
        if result is None:
            reply["error"] = {"code": -32601, "message": "method not found"}
        else:
            reply["result"] = result
        print(json.dumps(reply), flush=True)
'''


def pack_wheel(version, out_dir):
    """The wheel of hello-mcp-py `version`: one module with a console script, no
    dependencies, fixed times, so a rerun writes the same bytes."""
    import io
    import zipfile

    dist = f"hello_mcp_py-{version}.dist-info"
    files = {
        "hello_mcp_py/__init__.py": PYPI_SERVER,
        f"{dist}/METADATA": (f"Metadata-Version: 2.1\nName: hello-mcp-py\nVersion: {version}\n"
                             "Summary: A test MCP server with PEP 740 provenance from agx's "
                             "Sigstore test instance\n").encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: agx make_fixtures\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist}/entry_points.txt": b"[console_scripts]\nhello-mcp-py = hello_mcp_py:main\n",
    }
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 6, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    target = out_dir / f"hello_mcp_py-{version}-py3-none-any.whl"
    target.write_bytes(raw.getvalue())
    return target


def write_pypi_provenance(signing, out_dir):
    """What PyPI's Integrity API serves for the file (PEP 740): the bundle's DSSE envelope
    and verification material in PyPI's layout."""
    bundle = signing.bundle()
    material = bundle["verificationMaterial"]
    envelope = bundle["dsseEnvelope"]
    path = out_dir / f"{signing.artifact.name}.provenance"
    write_json(path, {"version": 1, "attestation_bundles": [{
        "publisher": {"kind": "GitHub", "repository": "acme/hello-mcp-py",
                      "workflow": "release.yml", "environment": None},
        "attestations": [{
            "version": 1,
            "verification_material": {
                "certificate": material["certificate"]["rawBytes"],
                "transparency_entries": material["tlogEntries"],
            },
            "envelope": {"statement": envelope["payload"],
                         "signature": envelope["signatures"][0]["sig"]},
        }],
    }]})
    return path


def oci_manifest(archive, name, version):
    """An OCI manifest of an agx package as `agx publish` pushes it to an OCI source
    (docs/organizations.md, "The artifact"): the empty config, the archive as its one layer,
    the name and version annotations; compact JSON, so its bytes (and digest) are fixed."""
    data = archive.read_bytes()
    return json.dumps({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "artifactType": "application/vnd.agx.package.v1",
        "config": {"mediaType": "application/vnd.oci.empty.v1+json",
                   "digest": "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
                   "size": 2, "data": "e30="},
        "layers": [{"mediaType": "application/vnd.agx.package.layer.v1.tar+gzip",
                    "digest": "sha256:" + hashlib.sha256(data).hexdigest(), "size": len(data),
                    "annotations": {"org.opencontainers.image.title": f"geo-{version}.tar.gz"}}],
        "annotations": {"dev.agx.package.name": name, "org.opencontainers.image.title": name,
                        "org.opencontainers.image.version": version},
    }, separators=(",", ":")).encode()


def write_json(path, value):
    path.write_text(json.dumps(value, indent=2) + "\n")


def public_key_entry(key, base_url):
    return {
        "baseUrl": base_url,
        "hashAlgorithm": "SHA2_256",
        "publicKey": {
            "rawBytes": b64(spki_der(key)),
            "keyDetails": "PKIX_ECDSA_P256_SHA_256",
            "validFor": {"start": rfc3339(INSTANCE_START)},
        },
        "logId": {"keyId": b64(key_id(key))},
    }


def trusted_root(ca, ct_key, rekor_key):
    der = lambda cert: {"rawBytes": b64(cert.public_bytes(serialization.Encoding.DER))}  # noqa: E731
    return {
        "mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
        "tlogs": [public_key_entry(rekor_key, REKOR_URL)],
        "certificateAuthorities": [
            {
                "subject": {"organization": "sigstore-test.invalid", "commonName": "sigstore-test"},
                "uri": FULCIO_URL,
                "certChain": {"certificates": [der(ca.intermediate), der(ca.root)]},
                "validFor": {"start": rfc3339(INSTANCE_START)},
            }
        ],
        "ctlogs": [public_key_entry(ct_key, CTFE_URL)],
        "timestampAuthorities": [],
    }


def signing_config():
    def service(url):
        return {
            "url": url,
            "majorApiVersion": 1,
            "validFor": {"start": rfc3339(INSTANCE_START)},
            "operator": "sigstore-test.invalid",
        }

    return {
        "mediaType": "application/vnd.dev.sigstore.signingconfig.v0.2+json",
        "caUrls": [service(FULCIO_URL)],
        "oidcUrls": [service(OIDC_URL)],
        "rekorTlogUrls": [service(REKOR_URL)],
        "tsaUrls": [],
        "rekorTlogConfig": {"selector": "ANY"},
        "tsaConfig": {"selector": "ANY"},
    }


def case(name, artifact, bundle, identity, expect, **extra):
    out = {"name": name, "artifact": artifact, "bundle": bundle}
    if identity:
        out["identity"] = identity["identity"]
        out["issuer"] = identity["issuer"]
    out["expect"] = expect
    out.update(extra)
    return out


def main():
    packages = HERE / "packages"
    negative = HERE / "negative"
    for folder in (packages, negative):
        if folder.exists():
            # Keep the archives when they cannot be packed again (no agx binary).
            for f in folder.iterdir():
                if not f.name.endswith(".tar.gz") or folder is negative:
                    f.unlink()
        folder.mkdir(exist_ok=True)

    ca = CertificateAuthority("fulcio")
    ct_key = p256("ctlog")
    rekor_key = p256("rekor")
    rogue_ca = CertificateAuthority("rogue-fulcio")  # same names as the real one, other keys
    rogue_ct_key = p256("rogue-ctlog")
    log = RekorLog(rekor_key)

    archives = pack_geo(["1.0.0", "1.1.0", "1.2.0", "1.3.0"], packages)
    hello = HERE / "hello.txt"
    hello.write_text("Hello from agx's private Sigstore test instance.\n")

    def acme(version):
        run_id = "90000" + version.replace(".", "")
        return github_identity("acme/geo", f"refs/tags/v{version}", "812301", "401101", run_id)

    mallory = github_identity("mallory/geo", "refs/tags/v1.2.0", "666013", "666001", "66600120")
    dev = email_identity("dev@example.com", EMAIL_ISSUER)
    def t(day, hour, minute=0):
        return datetime(2026, 6, day, hour, minute, tzinfo=timezone.utc)


    # In time order: the log takes its entries as they come.
    geo100 = Signing("acme-geo-1.0.0", archives["1.0.0"], acme("1.0.0"), t(1, 12), ca, ct_key, log)
    hello_sig = Signing("hello", hello, dev, t(1, 12, 30), ca, ct_key, log)
    geo110 = Signing("acme-geo-1.1.0", archives["1.1.0"], acme("1.1.0"), t(8, 12), ca, ct_key, log,
                     dsse=True)
    geo120 = Signing("acme-geo-1.2.0", archives["1.2.0"], mallory, t(15, 12), ca, ct_key, log)
    rogue = Signing("untrusted-ca", archives["1.0.0"], acme("1.0.0"), t(20, 12), rogue_ca, ct_key,
                    log)
    rogue_sct = Signing("untrusted-ct-log", archives["1.0.0"], acme("1.0.0"), t(20, 12, 30), ca,
                        rogue_ct_key, log)
    # npm packages with provenance (docs/ecosystem.md): @acme/hello-mcp 1.0.0 and 1.1.0 from
    # acme's release workflow, 1.2.0 from mallory's.
    npm_dir = HERE / "npm"
    npm_dir.mkdir(exist_ok=True)
    for f in npm_dir.iterdir():
        f.unlink()
    npm_name = "@acme/hello-mcp"

    def npm_identity(repo, version):
        return github_identity(repo, f"refs/tags/v{version}",
                               "812302" if repo.startswith("acme") else "666014",
                               "401101" if repo.startswith("acme") else "666001",
                               "91000" + version.replace(".", ""))

    npm_signings = []
    for day, (version, repo) in enumerate(
            [("1.0.0", "acme/hello-mcp"), ("1.1.0", "acme/hello-mcp"), ("1.2.0", "mallory/hello-mcp")]):
        tarball = pack_npm(npm_name, version, npm_dir)
        npm_signings.append((version, Signing(
            f"npm-hello-mcp-{version}", tarball, npm_identity(repo, version), t(22 + day, 12),
            ca, ct_key, log, dsse=True, subject=(npm_purl(npm_name, version), "sha512"))))
    # A PyPI wheel with PEP 740 provenance: hello-mcp-py 1.0.0 from acme's release workflow.
    pypi_dir = HERE / "pypi"
    pypi_dir.mkdir(exist_ok=True)
    for f in pypi_dir.iterdir():
        f.unlink()
    wheel = pack_wheel("1.0.0", pypi_dir)
    wheel_signing = Signing(
        "pypi-hello-mcp-py-1.0.0", wheel,
        github_identity("acme/hello-mcp-py", "refs/tags/v1.0.0", "812303", "401101", "92000100"),
        t(26, 12), ca, ct_key, log, dsse=True, subject=(wheel.name, "sha256"))
    # OCI: acme/geo 1.0.0's manifest signed by acme (a DSSE statement whose subject is the
    # manifest's digest, as cosign's new bundle format makes), 1.1.0's by mallory (a message
    # signature over the manifest); attached as referrers by tests/it/provenance.rs.
    oci_dir = HERE / "oci"
    oci_dir.mkdir(exist_ok=True)
    for f in oci_dir.iterdir():
        f.unlink()
    oci_signings = []
    for day, (version, identity, dsse) in enumerate(
            [("1.0.0", acme("1.0.0"), True), ("1.1.0", mallory, False)]):
        manifest = oci_dir / f"acme-geo-{version}.manifest.json"
        manifest.write_bytes(oci_manifest(archives[version], "acme/geo", version))
        oci_signings.append(Signing(
            f"oci-acme-geo-{version}", manifest, identity, t(27 + day, 12), ca, ct_key, log,
            dsse=dsse,
            subject=("oci://registry.example/agx/acme/geo", "sha256") if dsse else None))
    # Mallory's signatures attached to acme's 1.0.0 manifest as well (anyone who can push
    # can attach referrers): an image signature and an SBOM attestation.
    oci_extra = {
        "mallory": Signing("oci-acme-geo-1.0.0-mallory", oci_dir / "acme-geo-1.0.0.manifest.json",
                           mallory, t(29, 12), ca, ct_key, log),
        "sbom": Signing("oci-acme-geo-1.0.0-sbom", oci_dir / "acme-geo-1.0.0.manifest.json",
                        mallory, t(29, 13), ca, ct_key, log, dsse=True,
                        subject=("oci://registry.example/agx/acme/geo", "sha256"),
                        predicate_type="https://cyclonedx.org/bom"),
    }
    log.close()
    write_pypi_provenance(wheel_signing, pypi_dir)
    for version, signing in npm_signings:
        write_npm_attestations(signing, npm_dir, npm_name, version)

    rel = lambda p: p.relative_to(HERE).as_posix()  # noqa: E731
    cases = []

    def positive(signing, **extra):
        path = signing.artifact.with_name(signing.artifact.name + ".sigstore.json")
        write_json(path, signing.bundle())
        ident = signing.identity
        more = {}
        if "source_repository" in ident:
            more = {key: ident[key] for key in ("source_repository", "source_ref", "build_signer")}
        cases.append(case(
            signing.name, rel(signing.artifact), rel(path), ident, "pass",
            content="dsse_envelope" if signing.kind == "dsse" else "message_signature",
            artifact_sha256=signing.digest.hex(),
            integrated_time=signing.integrated_time,
            log_index=signing.index,
            **more, **extra,
        ))
        return path

    b100 = positive(geo100)
    b110 = positive(geo110, predicate_type="https://slsa.dev/provenance/v1")
    b120 = positive(geo120)
    cases.append(case("acme-geo-1.3.0", rel(archives["1.3.0"]), None, None, "unsigned",
                      artifact_sha256=hashlib.sha256(archives["1.3.0"].read_bytes()).hexdigest()))
    b_hello = positive(hello_sig)
    # The OCI manifests' bundles and the wheel's attestation (as a bundle) are cases too, so
    # that sigstore-python checks them as well.
    for signing in oci_signings:
        positive(signing)
    for label, signing in oci_extra.items():
        write_json(oci_dir / f"acme-geo-1.0.0.manifest.json.{label}.sigstore.json",
                   signing.bundle())
    positive(wheel_signing)

    # Negative cases: `fails_at` is the check that must reject them; `sigstore_python_error` a
    # piece of sigstore-python's message for it (scripts/ci/sigstore-reference.sh).
    def negative_case(name, artifact, bundle, identity, fails_at, reason, error):
        cases.append(case(name, rel(artifact), rel(bundle), identity, "fail",
                          fails_at=fails_at, reason=reason, sigstore_python_error=error))

    def negative_bundle(signing, name, fails_at, reason, error, mutate=None):
        bundle = signing.bundle()
        if mutate:
            mutate(bundle["verificationMaterial"]["tlogEntries"][0])
        path = negative / f"{name}.sigstore.json"
        write_json(path, bundle)
        negative_case(name, signing.artifact, path, signing.identity, fails_at, reason, error)

    tampered = negative / "acme-geo-1.0.0.tar.gz"
    data = bytearray(archives["1.0.0"].read_bytes())
    assert data[:2] == b"\x1f\x8b"
    data[4] ^= 0x01  # the gzip header's MTIME: still a valid archive with the same files
    tampered.write_bytes(bytes(data))
    negative_case("tampered-artifact", tampered, b100, acme("1.0.0"), "artifact",
                  "the 1.0.0 bundle against its archive with one byte changed (gzip MTIME)",
                  "Bundle message digest mismatch")
    negative_case("dsse-subject-mismatch", archives["1.0.0"], b110, acme("1.1.0"), "artifact",
                  "the 1.1.0 attestation against the 1.0.0 archive: no in-toto subject has its digest",
                  "in-toto statement has no subject for digest")
    negative_bundle(rogue, "untrusted-ca", "chain",
                    "a certificate with the same names as the test CA's, issued by another CA "
                    "(valid SCT and log entry)", "failed to build timestamp certificate chain")
    negative_bundle(rogue_sct, "untrusted-ct-log", "sct",
                    "a certificate from the test CA whose SCT is signed by a CT log key that is "
                    "not in the trusted root", "failed to verify SCT on signing certificate")

    def shift_time(entry):
        entry["integratedTime"] = str(int(entry["integratedTime"]) + 60)

    negative_bundle(geo100, "tampered-set", "tlog",
                    "the 1.0.0 bundle with its integratedTime moved 60 s (still inside the "
                    "certificate's validity): the signed entry timestamp no longer covers it",
                    "SET: invalid inclusion promise", shift_time)

    def flip_proof(entry):
        first = bytearray(base64.b64decode(entry["inclusionProof"]["hashes"][0]))
        first[0] ^= 0x01
        entry["inclusionProof"]["hashes"][0] = b64(bytes(first))

    negative_bundle(geo100, "tampered-inclusion-proof", "tlog",
                    "the 1.0.0 bundle with one bit of its inclusion proof's first hash flipped",
                    "inclusion proof contains invalid root hash", flip_proof)
    negative_case("identity-mismatch", archives["1.2.0"], b120, acme("1.2.0"), "identity",
                  "mallory's 1.2.0 bundle checked against acme's workflow identity",
                  "Certificate's SANs do not match")
    negative_case("issuer-mismatch", hello, b_hello,
                  {"identity": dev["identity"], "issuer": GITHUB_ISSUER}, "identity",
                  "the email bundle checked against another OIDC issuer",
                  "Certificate's OIDCIssuer does not match")

    root = trusted_root(ca, ct_key, rekor_key)
    write_json(HERE / "trusted_root.json", root)
    write_json(HERE / "trust_config.json", {
        "mediaType": "application/vnd.dev.sigstore.clienttrustconfig.v0.1+json",
        "trustedRoot": root,
        "signingConfig": signing_config(),
    })
    write_json(HERE / "cases.json", {
        "about": "registry-fixtures/sigstore: expected outcomes of each bundle against "
                 "trusted_root.json (see README.md); paths are relative to this folder",
        "trusted_root": "trusted_root.json",
        "trust_config": "trust_config.json",
        "cases": cases,
    })
    print(f"wrote {len(cases)} cases, log of {len(log.entries)} entries, root {log.root.hex()}")


if __name__ == "__main__":
    main()
