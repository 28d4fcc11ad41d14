//! On-disk copies of a web registry's index files, with the validators (`ETag`,
//! `Last-Modified`) needed for conditional requests. One folder per registry URL:
//! `<cache_dir>/index-v1/<host>-<hash>/{files,meta}/<relative path>`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use std::sync::atomic::{AtomicBool, Ordering};

use super::IndexError;
use super::http::{Fetched, Http};
use agx_core::io_context::at;

/// What the server said about a cached file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validators {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Validators {
    pub fn is_empty(&self) -> bool {
        self.etag.is_none() && self.last_modified.is_none()
    }
}

#[derive(Debug, Clone)]
pub struct IndexCache {
    root: PathBuf,
}

impl IndexCache {
    /// The cache of the registry at `url`.
    pub fn new(cache_dir: &Path, url: &str) -> Self {
        let hash = hex::encode(Sha256::digest(url.as_bytes()));
        let host: String = url
            .split("://")
            .nth(1)
            .unwrap_or(url)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .take(48)
            .collect();
        IndexCache {
            root: cache_dir
                .join("index-v1")
                .join(format!("{host}-{}", &hash[..12])),
        }
    }

    /// The folder of this registry's cached files.
    pub fn dir(&self) -> &Path {
        &self.root
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.root.join("files").join(rel)
    }

    fn meta(&self, rel: &str) -> PathBuf {
        self.root.join("meta").join(format!("{rel}.json"))
    }

    /// The cached body, if any.
    pub fn read(&self, rel: &str) -> Result<Option<Vec<u8>>, IndexError> {
        let path = self.file(rel);
        match std::fs::read(&path) {
            Ok(body) => Ok(Some(body)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(IndexError::from(at("read cached index file", path)(e))),
        }
    }

    /// Validators of the cached copy (none when there is no copy or no usable metadata).
    pub fn validators(&self, rel: &str) -> Validators {
        if !self.file(rel).exists() {
            return Validators::default();
        }
        std::fs::read(self.meta(rel))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Store a fresh copy (body first, then its validators; each atomically).
    pub fn write(&self, rel: &str, body: &[u8], validators: &Validators) -> Result<(), IndexError> {
        agx_core::atomic::write_file(&self.file(rel), body, None)?;
        let meta = serde_json::to_vec(validators).expect("validators serialize");
        Ok(agx_core::atomic::write_file(&self.meta(rel), &meta, None)?)
    }
}

/// A web registry's files fetched through its cache: conditional requests, `--offline`
/// from the cache, and the cache as a fallback (with one warning) when the network fails.
#[derive(Debug)]
pub struct CachedRemote {
    /// Shared with the source's TUF verifier: one client (one connection pool, one set of
    /// root certificates loaded) per registry.
    pub http: std::sync::Arc<Http>,
    pub cache: IndexCache,
    /// Set after the first network failure: the rest of the run uses the cache.
    unreachable: AtomicBool,
}

impl CachedRemote {
    pub fn new(http: Http, cache: IndexCache) -> Self {
        CachedRemote {
            http: std::sync::Arc::new(http),
            cache,
            unreachable: AtomicBool::new(false),
        }
    }

    /// The file at `url`, cached under `rel`, parsed by `parse` (given the body and `url`);
    /// `None` when the server does not have it. Only a body that parses is cached, so a
    /// cut-off or odd answer never poisons later runs; a cached copy that no longer parses is
    /// fetched again.
    pub fn get<T>(
        &self,
        url: &str,
        rel: &str,
        offline: bool,
        parse: impl Fn(&[u8], &str) -> Result<T, IndexError>,
    ) -> Result<Option<T>, IndexError> {
        let url = url.to_string();
        let cached = || -> Result<Option<T>, IndexError> {
            self.cache
                .read(rel)?
                .map(|body| parse(&body, &url))
                .transpose()
        };
        if offline {
            return match cached()? {
                Some(value) => Ok(Some(value)),
                None => Err(IndexError::Offline { url }),
            };
        }
        if self.unreachable.load(Ordering::Relaxed)
            && let Some(value) = cached()?
        {
            return Ok(Some(value));
        }
        let fresh = |body: Vec<u8>, validators: Validators| -> Result<Option<T>, IndexError> {
            let value = parse(&body, &url)?;
            if let Err(e) = self.cache.write(rel, &body, &validators) {
                tracing::debug!("could not cache {url}: {e}");
            }
            Ok(Some(value))
        };
        match self.http.fetch(&url, &self.cache.validators(rel)) {
            Ok(Fetched::Fresh { body, validators }) => fresh(body, validators),
            Ok(Fetched::NotModified) => {
                if let Ok(Some(value)) = cached() {
                    return Ok(Some(value));
                }
                // The copy the server vouched for is gone or damaged: ask for the whole file.
                tracing::debug!(
                    "the cached copy of {url} is missing or unreadable; fetching it again"
                );
                match self.http.fetch(&url, &Validators::default())? {
                    Fetched::Fresh { body, validators } => fresh(body, validators),
                    Fetched::NotModified => Err(IndexError::NotModifiedUncached { url }),
                }
            }
            Err(IndexError::NotFound { .. }) => Ok(None),
            Err(
                error @ (IndexError::Network { .. }
                | IndexError::Status { .. }
                | IndexError::TooSlow { .. }
                | IndexError::DeadlineExceeded { .. }),
            ) => match cached()? {
                Some(value) => {
                    if !self.unreachable.swap(true, Ordering::Relaxed) {
                        tracing::warn!("{}; using cached index data", describe(&error));
                    }
                    Ok(Some(value))
                }
                None => Err(error),
            },
            Err(other) => Err(other),
        }
    }
}

/// An error with its causes on one line, for warnings.
fn describe(error: &IndexError) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_keys() {
        let dir = tempfile::tempdir().unwrap();
        let a = IndexCache::new(dir.path(), "https://a.example/reg");
        let b = IndexCache::new(dir.path(), "https://a.example/other");
        assert_ne!(a.dir(), b.dir());
        assert_eq!(a.read("catalog.json").unwrap(), None);
        assert!(a.validators("catalog.json").is_empty());
        let v = Validators {
            etag: Some("\"x\"".into()),
            last_modified: None,
        };
        a.write("packages/acme/w.json", b"{}", &v).unwrap();
        assert_eq!(
            a.read("packages/acme/w.json").unwrap(),
            Some(b"{}".to_vec())
        );
        assert_eq!(a.validators("packages/acme/w.json"), v);
        assert_eq!(b.read("packages/acme/w.json").unwrap(), None);
    }
}
