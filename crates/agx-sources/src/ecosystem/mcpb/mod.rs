//! MCPB bundles (`.mcpb`, a zip with `manifest.json` at its top): fetched and checked
//! against their sha256 ([`fetch`]), then provisioned into a package folder whose one
//! wrapped server starts the bundle's `mcp_config` ([`provision`]). See docs/ecosystem.md,
//! "MCPB bundles".
//!
//! Entry points for other installers (server.json `packages[]` of type `mcpb`):
//! [`BundleSource::remote`] with the identifier URL and `fileSha256`, then [`fetch`], whose
//! spec goes through the ordinary ecosystem install.

mod launch;
pub use agx_model::mcpb_manifest::{self as manifest, paths};

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{Ecosystem, EcosystemError, EcosystemSpec, Launch, PackageExtras, to_semver};
use agx_core::name::PackageName;
use manifest::{MANIFEST_VERSIONS, Manifest, ServerType};

pub use agx_model::mcpb_manifest::{BUNDLE_DIR, LAUNCHER, MAX_MANIFEST_SIZE};

/// The largest bundle agx downloads; the unpacked size is capped separately.
pub const MAX_BUNDLE_SIZE: u64 = 512 * 1024 * 1024;

/// Where a bundle comes from, and the sha256 it must have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleSource {
    pub location: BundleLocation,
    /// Lowercase hex; required for a URL, checked for a file when given.
    pub sha256: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BundleLocation {
    File(PathBuf),
    Url(String),
}

/// A bundle on this machine whose sha256 is known: the original file, or a verified
/// download in staging. What [`Ecosystem::Mcpb`] carries to provisioning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleFile {
    pub path: PathBuf,
    pub sha256: String,
    /// The path or URL as given, for messages and the receipt.
    pub origin: String,
}

impl BundleSource {
    /// A command-line argument that names a bundle: a URL ending in `.mcpb`, or a path
    /// ending in `.mcpb`. `None` when `arg` is neither.
    pub fn parse(arg: &str, sha256: Option<&str>) -> Option<Result<BundleSource, EcosystemError>> {
        let is_url = arg.starts_with("https://") || arg.starts_with("http://");
        let path_part = arg.split(['?', '#']).next().unwrap_or(arg);
        if !path_part.to_ascii_lowercase().ends_with(".mcpb") {
            return None;
        }
        Some(if is_url {
            match sha256 {
                Some(hex) => BundleSource::remote(arg, hex),
                None => Err(EcosystemError::Bundle {
                    bundle: arg.to_string(),
                    detail: "a bundle from a URL needs its sha256".into(),
                    hint: "pass `--sha256 <64 hex digits>` as published with the bundle (or \
                           download it and install the file)"
                        .into(),
                }),
            }
        } else {
            let sha256 = sha256.map(|hex| check_sha256(arg, hex)).transpose();
            sha256.map(|sha256| BundleSource {
                location: BundleLocation::File(
                    std::path::absolute(arg).unwrap_or_else(|_| PathBuf::from(arg)),
                ),
                sha256,
            })
        })
    }

    /// A bundle at `url` with the given sha256 (server.json `identifier` and
    /// `fileSha256`). The URL must be `https://`, or `http://` on loopback.
    pub fn remote(url: &str, sha256: &str) -> Result<BundleSource, EcosystemError> {
        let sha256 = check_sha256(url, sha256)?;
        match crate::index::Source::parse(url) {
            Ok(crate::index::Source::Http(_)) => Ok(BundleSource {
                location: BundleLocation::Url(url.to_string()),
                sha256: Some(sha256),
            }),
            Ok(_) => Err(EcosystemError::Bundle {
                bundle: url.to_string(),
                detail: "it is not a web URL".into(),
                hint: "give an https:// URL, or a path to a .mcpb file".into(),
            }),
            Err(e) => Err(EcosystemError::Bundle {
                bundle: url.to_string(),
                detail: e.to_string(),
                hint: "bundles are downloaded over https:// (http:// only on loopback)".into(),
            }),
        }
    }

    fn origin(&self) -> String {
        match &self.location {
            BundleLocation::File(path) => path.display().to_string(),
            BundleLocation::Url(url) => url.clone(),
        }
    }
}

/// A sha256 as 64 hex digits (either case), returned lowercase.
fn check_sha256(bundle: &str, hex: &str) -> Result<String, EcosystemError> {
    let hex = hex.trim();
    if hex.len() == 64 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        Ok(hex.to_ascii_lowercase())
    } else {
        Err(EcosystemError::Bundle {
            bundle: bundle.to_string(),
            detail: format!("`{hex}` is not a sha256 (64 hex digits)"),
            hint: "compute it with `sha256sum <file>` (or `shasum -a 256` on macOS)".into(),
        })
    }
}

/// Make the bundle available on this machine under `dir` (a staging folder) and verify it:
/// a URL is downloaded, a file is read where it is; the sha256 must match when one is
/// given. Reads its manifest to name the package. Nothing outside `dir` changes.
pub fn fetch(source: &BundleSource, dir: &Path) -> Result<EcosystemSpec, EcosystemError> {
    let origin = source.origin();
    let (path, actual) = match &source.location {
        BundleLocation::File(path) => {
            if let Some(detail) = not_a_file(path) {
                return Err(EcosystemError::Bundle {
                    bundle: origin,
                    detail,
                    hint: "check the path; a bundle is a .mcpb file".into(),
                });
            }
            let sha256 = agx_archive::sha256_file(path)?;
            (path.clone(), sha256)
        }
        BundleLocation::Url(url) => {
            let path = dir.join("bundle.mcpb");
            let sha256 = download(url, &path)?;
            (path, sha256)
        }
    };
    if let Some(expected) = &source.sha256
        && *expected != actual
    {
        return Err(EcosystemError::Sha256Mismatch {
            bundle: origin,
            expected: expected.clone(),
            actual,
        });
    }
    let bundle = BundleFile {
        path,
        sha256: actual,
        origin,
    };
    let manifest = read_manifest(&bundle)?;
    let name = package_name(&bundle, &manifest.name)?;
    Ok(EcosystemSpec {
        ecosystem: Ecosystem::Mcpb(bundle),
        name,
        version: Some(manifest.version),
    })
}

/// Why `path` (links followed) is not a regular file to read, if it is not: missing, a
/// folder, or a FIFO, socket or device, which would block or never end.
fn not_a_file(path: &Path) -> Option<String> {
    let kind = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some("no such file".into()),
        Err(e) => return Some(format!("cannot be read: {e}")),
        Ok(meta) if meta.is_file() => return None,
        Ok(meta) if meta.is_dir() => "a folder",
        Ok(meta) => special_kind(&meta.file_type()),
    };
    Some(format!("it is {kind}, not a file"))
}

#[cfg(unix)]
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special_kind(_kind: &std::fs::FileType) -> &'static str {
    "not a regular file"
}

/// Download `url` into `path` through agx's HTTP layer, returning its sha256.
pub(crate) fn download(url: &str, path: &Path) -> Result<String, EcosystemError> {
    use crate::index::{Http, IndexError, SinkError};
    let failed = |e: IndexError| EcosystemError::Download {
        url: url.to_string(),
        source: Box::new(e),
    };
    let http = Http::from_env().map_err(failed)?;
    let mut sha256 = String::new();
    http.download_unsized(url, |body| {
        let mut file = fs_err::File::create(path).map_err(|e| SinkError::Fatal(e.into()))?;
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; 64 * 1024];
        let mut received = 0u64;
        loop {
            let n = body
                .read(&mut buf)
                .map_err(|e| SinkError::Read(e, received))?;
            if n == 0 {
                break;
            }
            received += n as u64;
            if received > MAX_BUNDLE_SIZE {
                return Err(SinkError::Fatal(IndexError::Io(std::io::Error::other(
                    format!(
                        "the bundle is larger than {}",
                        agx_core::regular_file::human_size(MAX_BUNDLE_SIZE)
                    ),
                ))));
            }
            hasher.update(&buf[..n]);
            file.write_all(&buf[..n])
                .map_err(|e| SinkError::Fatal(e.into()))?;
        }
        sha256 = hex::encode(hasher.finalize());
        Ok(())
    })
    .map_err(failed)?;
    Ok(sha256)
}

/// The bundle's `manifest.json`, parsed and checked (version, server type).
pub fn read_manifest(bundle: &BundleFile) -> Result<Manifest, EcosystemError> {
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: bundle.origin.clone(),
        detail,
        hint: hint.into(),
    };
    let bytes = agx_archive::read_zip_file(&bundle.path, "manifest.json", MAX_MANIFEST_SIZE)?
        .ok_or_else(|| {
            bad(
                "it has no manifest.json at its top".into(),
                "an MCPB bundle is a zip with manifest.json at its root; build it with `mcpb pack`",
            )
        })?;
    let manifest: Manifest = serde_json::from_slice(&bytes).map_err(|e| {
        bad(
            format!(
                "manifest.json:{}:{}: {}",
                e.line(),
                e.column(),
                strip_position(&e.to_string())
            ),
            "fix manifest.json (check it with `mcpb validate manifest.json`) and pack the bundle again",
        )
    })?;
    match manifest.declared_version() {
        Some(version) if MANIFEST_VERSIONS.contains(&version) => {}
        Some(version) => {
            return Err(bad(
                format!(
                    "manifest.json has manifest_version `{version}`; agx reads {}",
                    MANIFEST_VERSIONS.join(", ")
                ),
                "set manifest_version to one of those if the manifest follows it, or install \
                 a newer agx for a newer manifest version",
            ));
        }
        None => {
            return Err(bad(
                "manifest.json has no manifest_version (nor the older dxt_version)".into(),
                "add \"manifest_version\": \"0.3\" (the version its fields follow) to manifest.json \
                 and pack the bundle again",
            ));
        }
    }
    if ServerType::parse(&manifest.server.kind).is_none() {
        return Err(bad(
            format!(
                "manifest.json has server.type `{}`; agx knows {}",
                manifest.server.kind,
                ServerType::ALL.join(", ")
            ),
            "set server.type to one of those in manifest.json and pack the bundle again",
        ));
    }
    Ok(manifest)
}

/// serde_json appends " at line L column C"; the message already leads with them.
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |i| &message[..i])
}

/// `mcpb/<name>`: the manifest's name, lowercased, each run of characters other than
/// `a-z 0-9 - . _` written as one `-`.
fn package_name(bundle: &BundleFile, raw: &str) -> Result<PackageName, EcosystemError> {
    let mut name = String::new();
    for c in raw.trim().chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_') {
            name.push(c);
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_matches(['-', '.', '_']);
    PackageName::parse(&format!("mcpb/{name}")).map_err(|e| EcosystemError::Bundle {
        bundle: bundle.origin.clone(),
        detail: format!("its manifest name `{raw}` cannot name a package: {e}"),
        hint: "give the bundle a name of letters, digits and `-` in manifest.json".into(),
    })
}

/// Who signed the bundle, from the signature block `mcpb sign` appends (docs/ecosystem.md,
/// "Provenance by source kind"): `None` for a bundle without one; a block that does not
/// verify refuses the bundle.
/// For a signed bundle, also a copy of the signed bytes alone, beside `dir`.
fn signer(
    bundle: &BundleFile,
    dir: &Path,
) -> Result<(super::BuiltBy, Option<BundleFile>), EcosystemError> {
    use agx_provenance::mcpb::{read_signature_block, verify_bundle_signature};
    let refused = |error| EcosystemError::Provenance {
        spec: bundle.origin.clone(),
        error,
    };
    let Some(block) = read_signature_block(&bundle.path).map_err(refused)? else {
        return Ok((super::BuiltBy::Checked(None), None));
    };
    // The signed bytes are copied as they are hashed: one read of the bundle.
    let copy = dir.with_file_name("signed-content.mcpb");
    let mut file = std::io::BufWriter::new(fs_err::File::create(&copy)?);
    let signer = verify_bundle_signature(&bundle.path, &block, Some(&mut file)).map_err(refused)?;
    std::io::Write::flush(&mut file)?;
    let signed = BundleFile {
        path: copy,
        ..bundle.clone()
    };
    Ok((super::BuiltBy::Checked(Some(signer)), Some(signed)))
}

/// Unpack the verified bundle into `dir/bundle/` and work out its launch (see `launch`).
pub(super) fn provision(
    spec: &EcosystemSpec,
    bundle: &BundleFile,
    dir: &Path,
) -> Result<(Launch, PackageExtras), EcosystemError> {
    let (built_by, signed) = signer(bundle, dir)?;
    // A signed bundle is read and unpacked from the bytes its signature covers only: the
    // block after them must not be able to hold a zip of its own.
    let bundle = signed.as_ref().unwrap_or(bundle);
    let manifest = read_manifest(bundle)?;
    let unpacked = dir.join(BUNDLE_DIR);
    agx_archive::unpack_zip(&bundle.path, &unpacked)?;
    let prepared = launch::prepare(spec, bundle, &manifest, &unpacked, dir)?;
    let version = to_semver(spec, &manifest.version)?;
    let launch = Launch {
        version,
        exact: format!("mcpb:{}", bundle.origin),
        integrity: vec![format!("sha256:{}", bundle.sha256)],
        served_by: None,
        built_by,
        description: Some(manifest.description.clone()),
        server: Ok(Some(super::WrappedServer {
            name: super::server_name(spec, spec.name.name())?,
            command: prepared.command,
        })),
        skills: None,
    };
    let extras = PackageExtras {
        settings: prepared.settings,
        server_description: Some(prepared.server_description),
        ignore: vec![format!("/{BUNDLE_DIR}/")],
        license: manifest.license.clone(),
        homepage: manifest.homepage.clone(),
        repository: manifest.repository.as_ref().map(|r| r.url.clone()),
        keywords: manifest.keywords.clone(),
        warnings: prepared.warnings,
        skills: Vec::new(),
    };
    Ok((launch, extras))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_specs_need_a_sha256_for_urls_only() {
        assert!(BundleSource::parse("acme/x", None).is_none());
        assert!(BundleSource::parse("./x.tar.gz", None).is_none());
        let local = BundleSource::parse("./x.mcpb", None).unwrap().unwrap();
        assert!(matches!(local.location, BundleLocation::File(_)));
        let err = BundleSource::parse("https://example.com/x.mcpb", None)
            .unwrap()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "https://example.com/x.mcpb: a bundle from a URL needs its sha256"
        );
        let hex = "AB".repeat(32);
        let remote = BundleSource::parse("https://example.com/x.mcpb", Some(&hex))
            .unwrap()
            .unwrap();
        assert_eq!(remote.sha256, Some("ab".repeat(32)));
        assert!(
            BundleSource::parse("http://example.com/x.mcpb", Some(&hex))
                .unwrap()
                .is_err()
        );
        assert!(
            BundleSource::parse("http://127.0.0.1:9/x.mcpb", Some(&hex))
                .unwrap()
                .is_ok()
        );
        assert!(
            BundleSource::parse("./x.mcpb", Some("abc"))
                .unwrap()
                .is_err()
        );
    }

    #[test]
    fn a_bundle_path_that_is_not_a_file_says_what_it_is() {
        let tmp = tempfile::tempdir().unwrap();
        let stage = tmp.path().join("stage");
        let detail = |path: &Path| {
            let source = BundleSource {
                location: BundleLocation::File(path.to_path_buf()),
                sha256: None,
            };
            match fetch(&source, &stage) {
                Err(EcosystemError::Bundle { detail, .. }) => detail,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(detail(&tmp.path().join("missing.mcpb")), "no such file");
        let folder = tmp.path().join("folder.mcpb");
        fs_err::create_dir(&folder).unwrap();
        assert_eq!(detail(&folder), "it is a folder, not a file");
        #[cfg(unix)]
        {
            let fifo = tmp.path().join("fifo.mcpb");
            let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo only creates the named pipe at a valid C string path.
            assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
            assert_eq!(detail(&fifo), "it is a FIFO, not a file");
            assert_eq!(
                detail(Path::new("/dev/null")),
                "it is a character device, not a file"
            );
        }
    }

    #[test]
    fn manifest_names_become_package_names() {
        let bundle = BundleFile {
            path: PathBuf::new(),
            sha256: String::new(),
            origin: "x.mcpb".into(),
        };
        let name = |raw| package_name(&bundle, raw).map(|n| n.to_string());
        assert_eq!(name("hello-world").unwrap(), "mcpb/hello-world");
        assert_eq!(name("My MCP Extension").unwrap(), "mcpb/my-mcp-extension");
        assert!(name("!!!").is_err());
    }
}
