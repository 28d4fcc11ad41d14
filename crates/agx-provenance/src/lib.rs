//! Provenance: who built an artifact. Sigstore bundles (v0.1–v0.3; message signatures and
//! DSSE in-toto statements; keyless or a managed key) verified offline against a trusted
//! root, MCPB signature blocks ([`mcpb`]), the signer read from the certificate, and the
//! rule that decides whether two signatures come from the same signer (trust on first use). Knows nothing of packages,
//! sources or the store: callers pass bytes and bundles and record the [`Signer`].

mod crypto;
pub mod mcpb;
mod signer;
mod verify;

pub use signer::Signer;
pub use verify::{
    IdentityPolicy, IdentityRule, MAX_BUNDLE_BYTES, ProvenanceError, RootOrigin, SigstoreBundle,
    Statement, StatementSubject, Subject, TrustRoot,
};
