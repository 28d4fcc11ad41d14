//! A TUF-signed agx index (docs/registry.md), as a client reads it: the pinned root and the
//! trusted metadata in the source's trust folder, a refresh once per run, and every index
//! file and archive checked against the signed targets before agx uses it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use agx_core::paths::AgxPaths;
use agx_tuf::metadata::Root;
use agx_tuf::trusted::TrustedSet;
use agx_tuf::updater::{DirFetcher, verify_target};
use agx_tuf::{FetchError, Fetcher, TufError, Updater};

use super::error::IndexError;
use super::http::{Http, Limits, Settings};
use super::source::{Source, trust_dir};

/// What a signed source's pinned root says, for the user to compare with what the operator
/// published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootSummary {
    pub version: u64,
    pub key_ids: Vec<String>,
    pub threshold: u64,
}

impl RootSummary {
    fn of(root: &Root) -> Self {
        let role = root.roles.get("root");
        RootSummary {
            version: root.common.version,
            key_ids: role.map(|r| r.keyids.clone()).unwrap_or_default(),
            threshold: role.map_or(0, |r| r.threshold),
        }
    }
}

/// Check that `root` is a root signed by its own keys and pin it for source `name`.
pub fn pin_root(paths: &AgxPaths, name: &str, root: &[u8]) -> Result<RootSummary, IndexError> {
    let summary = describe_root(root).map_err(|e| match e {
        IndexError::Signed { error, .. } => IndexError::Signed {
            source_name: name.to_string(),
            error,
        },
        e => e,
    })?;
    let dir = trust_dir(paths, name);
    if dir.exists() {
        fs_err::remove_dir_all(&dir)?;
    }
    fs_err::create_dir_all(&dir)?;
    agx_core::atomic::write_file(&dir.join("root.json"), root, None)?;
    Ok(summary)
}

/// What a root (not yet trusted) says: for the trust-on-first-use question.
pub fn describe_root(root: &[u8]) -> Result<RootSummary, IndexError> {
    let trusted =
        TrustedSet::new(root, chrono::Utc::now()).map_err(|error| IndexError::Signed {
            source_name: "the registry".into(),
            error,
        })?;
    Ok(RootSummary::of(&trusted.root().signed))
}

/// The root a signed source publishes (`metadata/1.root.json`), for trust on first use.
pub fn fetch_first_root(source: &Source) -> Result<Vec<u8>, IndexError> {
    let (fetcher, metadata, _) = fetcher_for(source, None)?;
    let url = format!("{metadata}1.root.json");
    fetcher.fetch(&url, 512_000).map_err(|e| match e {
        FetchError::NotFound => IndexError::NotFound { url },
        FetchError::Failed(reason) => IndexError::Signed {
            source_name: source.display(),
            error: TufError::Fetch { url, reason },
        },
    })
}

enum SignedFetcher {
    Http(Arc<Http>),
    Folder(DirFetcher),
}

impl Fetcher for SignedFetcher {
    fn fetch(&self, url: &str, max_length: u64) -> Result<Vec<u8>, FetchError> {
        match self {
            SignedFetcher::Http(http) => Fetcher::fetch(http.as_ref(), url, max_length),
            SignedFetcher::Folder(dir) => dir.fetch(url, max_length),
        }
    }
}

/// The fetcher, the metadata URL and the targets' base URL of a source (over `http` when the
/// registry has a client to share).
fn fetcher_for(
    source: &Source,
    http: Option<Arc<Http>>,
) -> Result<(SignedFetcher, String, String), IndexError> {
    Ok(match source {
        Source::Http(url) => (
            SignedFetcher::Http(match http {
                Some(http) => http,
                None => Arc::new(Http::new(Settings::from_env()?, Limits::from_env()?)),
            }),
            format!("{url}/metadata/"),
            format!("{url}/"),
        ),
        Source::Folder(dir) => (
            SignedFetcher::Folder(DirFetcher),
            format!("{}/", dir.join("metadata").display()),
            format!("{}/", dir.display()),
        ),
        Source::Oci(location) => {
            return Err(IndexError::InvalidUrl {
                url: location.display(),
                reason: "an OCI registry is not signed with TUF".into(),
            });
        }
    })
}

/// A signed source's verifier, refreshed on first use in a run.
pub struct SignedIndex {
    name: String,
    dir: PathBuf,
    source: Source,
    offline: bool,
    http: Option<Arc<Http>>,
    updater: Mutex<Option<Updater<SignedFetcher>>>,
}

impl std::fmt::Debug for SignedIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignedIndex")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .finish()
    }
}

impl SignedIndex {
    /// `dir`: the pinned root and trusted metadata; `http`: the registry's client, shared
    /// (`None`: one is made when needed).
    pub fn new(
        dir: &Path,
        name: &str,
        source: &Source,
        offline: bool,
        http: Option<Arc<Http>>,
    ) -> Self {
        SignedIndex {
            name: name.to_string(),
            dir: dir.to_path_buf(),
            source: source.clone(),
            offline,
            http,
            updater: Mutex::new(None),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    fn error(&self, error: TufError) -> IndexError {
        let error = match error {
            // The source served signed metadata before; now it has none.
            TufError::Missing { url } if url.ends_with("timestamp.json") => TufError::Downgrade {
                source_name: self.name.clone(),
            },
            e => e,
        };
        IndexError::Signed {
            source_name: self.name.clone(),
            error,
        }
    }

    /// Run `check` with the refreshed updater (refreshing it on first use).
    fn with_updater<T>(
        &self,
        check: impl FnOnce(&mut Updater<SignedFetcher>) -> Result<T, TufError>,
    ) -> Result<T, IndexError> {
        let mut guard = self.updater.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            if !self.dir.join("root.json").is_file() {
                return Err(self.error(TufError::Usage {
                    what: format!(
                        "its pinned root is missing from {}: pin it again with `agx registry remove-source {}` and `agx registry add-source {} URL --root ROOT.json`",
                        self.dir.display(),
                        self.name,
                        self.name
                    ),
                }));
            }
            let (fetcher, metadata, targets) = fetcher_for(&self.source, self.http.clone())?;
            let mut updater =
                Updater::new(&self.dir, &metadata, &targets, fetcher, chrono::Utc::now())
                    .map_err(|e| self.error(e))?;
            let loaded = if self.offline {
                updater.load_local()
            } else {
                updater.refresh()
            };
            loaded.map_err(|e| self.error(e))?;
            *guard = Some(updater);
        }
        check(guard.as_mut().expect("loaded")).map_err(|e| self.error(e))
    }

    /// Check an index file's bytes (`rel`: its path in the registry) against its target.
    pub fn verify(&self, rel: &str, bytes: &[u8]) -> Result<(), IndexError> {
        self.with_updater(|updater| {
            let info = updater.target_info(rel)?;
            verify_target(rel, &info, bytes)
        })
    }

    /// Check that an archive's index entry (size, sha256) is what the signed target says.
    pub fn check_archive(&self, rel: &str, size: u64, sha256: &str) -> Result<(), IndexError> {
        self.with_updater(|updater| {
            let info = updater.target_info(rel)?;
            let signed_hash = info.hashes.get("sha256").and_then(|h| h.as_str());
            if info.length != size || signed_hash.is_some_and(|h| !h.eq_ignore_ascii_case(sha256)) {
                return Err(TufError::Tampered {
                    file: rel.to_string(),
                    what: "index entry (size or sha256)".into(),
                });
            }
            Ok(())
        })
    }

    /// The trusted root's version, once verified in this run.
    pub fn root(&self) -> Result<RootSummary, IndexError> {
        self.with_updater(|updater| Ok(RootSummary::of(&updater.trusted().root().signed)))
    }

    /// The folder of trusted metadata.
    pub fn trust_dir(&self) -> &Path {
        &self.dir
    }
}
