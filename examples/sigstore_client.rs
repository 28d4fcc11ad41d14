//! The Sigstore conformance suite's client (`sigstore/sigstore-conformance`,
//! docs/cli_protocol.md), verification only, built on the code agx verifies package
//! provenance with (`agx_provenance`).
//!
//! ```text
//! sigstore_client verify-bundle --bundle B --certificate-identity ID --certificate-oidc-issuer URL [--trusted-root T] FILE|sha256:HEX
//! sigstore_client verify-bundle --bundle B --key KEY.pem [--trusted-root T] FILE|sha256:HEX
//! ```
//! Without `--trusted-root`, Sigstore's public-good root (`--staging` is refused: agx ships
//! no staging root). Exit 0 when the bundle verifies, 1 otherwise (the cause on stderr).

use std::path::PathBuf;
use std::process::ExitCode;

use agx_provenance::{IdentityPolicy, IdentityRule, SigstoreBundle, Subject, TrustRoot};

#[derive(Default)]
struct Args {
    bundle: Option<PathBuf>,
    identity: Option<String>,
    issuer: Option<String>,
    trusted_root: Option<PathBuf>,
    key: Option<PathBuf>,
    staging: bool,
    rest: Vec<String>,
}

fn parse() -> Result<Args, String> {
    let mut args = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--bundle" => args.bundle = Some(value()?.into()),
            "--certificate-identity" => args.identity = Some(value()?),
            "--certificate-oidc-issuer" => args.issuer = Some(value()?),
            "--trusted-root" => args.trusted_root = Some(value()?.into()),
            "--key" => args.key = Some(value()?.into()),
            "--staging" => args.staging = true,
            _ => args.rest.push(arg),
        }
    }
    Ok(args)
}

fn run() -> Result<String, Box<dyn std::error::Error>> {
    let args = parse()?;
    let [command, subject] = args.rest.as_slice() else {
        return Err("usage: sigstore_client verify-bundle --bundle B … FILE|sha256:HEX".into());
    };
    if command != "verify-bundle" {
        return Err(format!("`{command}` is not supported: this client only verifies").into());
    }
    let bundle = SigstoreBundle::read(&args.bundle.ok_or("--bundle is required")?)?;
    let root = match (&args.trusted_root, args.staging) {
        (Some(path), _) => TrustRoot::read(path)?,
        (None, true) => return Err("--staging: agx ships no staging trusted root".into()),
        (None, false) => TrustRoot::public_good()?,
    };
    let bytes;
    let subject = match subject.strip_prefix("sha256:") {
        Some(hex) => {
            let digest: [u8; 32] = hex::decode(hex)?
                .try_into()
                .map_err(|_| "a sha256 digest is 64 hex digits")?;
            Subject::Sha256(digest)
        }
        None => {
            bytes = fs_err::read(subject)?;
            Subject::Bytes(&bytes)
        }
    };
    let signer = match &args.key {
        Some(key) => {
            let pem = fs_err::read_to_string(key)?;
            root.verify_with_key(subject, &bundle, &pem, &key.display().to_string())?
        }
        None => {
            let policy = IdentityPolicy {
                identity: IdentityRule::Exact(
                    args.identity.ok_or("--certificate-identity is required")?,
                ),
                issuer: Some(args.issuer.ok_or("--certificate-oidc-issuer is required")?),
            };
            root.verify(subject, &bundle, &policy)?
        }
    };
    Ok(signer.summary())
}

fn main() -> ExitCode {
    match run() {
        Ok(signer) => {
            println!("verified: {signer}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
