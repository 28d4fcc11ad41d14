//! On-disk copies of a web registry's index files, with the validators (`ETag`,
//! `Last-Modified`) needed for conditional requests. One folder per registry URL:
//! `<cache_dir>/index-v1/<host>-<hash>/{files,meta}/<relative path>`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::IndexError;
use crate::io_context::at;

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

    #[cfg(test)]
    pub fn root(&self) -> &Path {
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
        crate::atomic::write_file(&self.file(rel), body, None)?;
        let meta = serde_json::to_vec(validators).expect("validators serialize");
        Ok(crate::atomic::write_file(&self.meta(rel), &meta, None)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_keys() {
        let dir = tempfile::tempdir().unwrap();
        let a = IndexCache::new(dir.path(), "https://a.example/reg");
        let b = IndexCache::new(dir.path(), "https://a.example/other");
        assert_ne!(a.root(), b.root());
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
