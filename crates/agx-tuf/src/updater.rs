//! The TUF client workflow over a [`Fetcher`]: refresh the top-level metadata into a local
//! folder of trusted files, find a target through the delegations, download and verify it.
//!
//! The local folder holds one file per role (`root.json`, `timestamp.json`, …, delegated
//! roles percent-encoded), exactly the bytes that were verified; a refused file is never
//! written, so a failed refresh leaves the folder as it was.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use crate::error::{Result, TufError};
use crate::metadata::{ROOT, SNAPSHOT, TARGETS, TIMESTAMP, TargetFile};
use crate::trusted::{TimestampUpdate, TrustedSet, role_file};

/// Why a fetch failed: a missing file ends the root chain; anything else is an error.
#[derive(Debug)]
pub enum FetchError {
    NotFound,
    Failed(String),
}

/// How the updater reads the repository: HTTP for agx's sources, anything for tests.
pub trait Fetcher {
    /// The body at `url`, refusing more than `max_length` bytes.
    fn fetch(&self, url: &str, max_length: u64) -> Result<Vec<u8>, FetchError>;
}

/// Limits on what a repository may send (python-tuf's defaults).
#[derive(Debug, Clone)]
pub struct Limits {
    pub max_root_rotations: u64,
    pub max_delegations: usize,
    pub root_max_length: u64,
    pub timestamp_max_length: u64,
    pub snapshot_max_length: u64,
    pub targets_max_length: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_root_rotations: 256,
            max_delegations: 32,
            root_max_length: 512_000,
            timestamp_max_length: 16_384,
            snapshot_max_length: 2_000_000,
            targets_max_length: 5_000_000,
        }
    }
}

/// Python's `urllib.parse.quote(name, safe="")`: how role names and target paths become
/// file names and URL parts.
const QUOTE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub fn quote(name: &str) -> String {
    utf8_percent_encode(name, QUOTE).to_string()
}

pub struct Updater<F> {
    metadata_dir: PathBuf,
    metadata_url: String,
    target_base_url: String,
    fetcher: F,
    limits: Limits,
    trusted: TrustedSet,
    /// Set by [`Updater::load_local`]: delegated roles come from the local folder only.
    offline: bool,
}

impl<F: Fetcher> Updater<F> {
    /// Open the trusted metadata in `metadata_dir` (its `root.json` must exist: the pinned
    /// root or the last one verified).
    pub fn new(
        metadata_dir: &Path,
        metadata_url: &str,
        target_base_url: &str,
        fetcher: F,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        let root = fs_err::read(metadata_dir.join(role_file(ROOT)))?;
        Ok(Updater {
            metadata_dir: metadata_dir.to_path_buf(),
            metadata_url: with_slash(metadata_url),
            target_base_url: with_slash(target_base_url),
            fetcher,
            limits: Limits::default(),
            trusted: TrustedSet::new(&root, now)?,
            offline: false,
        })
    }

    pub fn trusted(&self) -> &TrustedSet {
        &self.trusted
    }

    /// The client workflow's top level: root chain, timestamp, snapshot, targets.
    pub fn refresh(&mut self) -> Result<()> {
        // In the specification's order (the conformance suite checks the requests): the
        // root chain, then the timestamp.
        load_root_chain(
            &mut self.trusted,
            &self.fetcher,
            &self.limits,
            &self.metadata_url,
            &self.metadata_dir,
        )?;
        let timestamp_url = format!("{}{}", self.metadata_url, role_file(TIMESTAMP));
        let timestamp = self.fetch_required(&timestamp_url, self.limits.timestamp_max_length)?;
        self.load_timestamp(&timestamp)?;
        self.load_snapshot()?;
        self.load_targets(TARGETS, ROOT)?;
        Ok(())
    }

    /// Offline: trust what the local folder holds, checked as on a refresh (signatures,
    /// versions, expiry) but with nothing fetched.
    pub fn load_local(&mut self) -> Result<()> {
        self.trusted.check_root_expiry()?;
        let timestamp = self.local(TIMESTAMP).ok_or(TufError::NothingCached)?;
        self.trusted.update_timestamp(&timestamp)?;
        let snapshot = self.local(SNAPSHOT).ok_or(TufError::NothingCached)?;
        self.trusted.update_snapshot(&snapshot, true)?;
        let targets = self.local(TARGETS).ok_or(TufError::NothingCached)?;
        self.trusted.update_targets(&targets, TARGETS, ROOT)?;
        self.offline = true;
        Ok(())
    }

    fn fetch(&self, url: &str, max_length: u64) -> Result<Vec<u8>, FetchError> {
        self.fetcher.fetch(url, max_length)
    }

    fn fetch_required(&self, url: &str, max_length: u64) -> Result<Vec<u8>> {
        self.fetch(url, max_length).map_err(|e| fetch_error(url, e))
    }

    fn persist(&self, role: &str, bytes: &[u8]) -> Result<()> {
        let path = self.metadata_dir.join(format!("{}.json", quote(role)));
        agx_core::atomic::write_file(&path, bytes, None)?;
        Ok(())
    }

    fn local(&self, role: &str) -> Option<Vec<u8>> {
        fs_err::read(self.metadata_dir.join(format!("{}.json", quote(role)))).ok()
    }

    /// The fetched timestamp `bytes`, after the local one (which only serves rollback checks).
    fn load_timestamp(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(local) = self.local(TIMESTAMP) {
            // A stale or broken local copy only loses its say in rollback checks.
            let _ = self.trusted.update_timestamp(&local);
        }
        if let TimestampUpdate::Accepted = self.trusted.update_timestamp(bytes)? {
            self.persist(TIMESTAMP, bytes)?;
        }
        Ok(())
    }

    fn consistent(&self) -> bool {
        self.trusted.root().signed.consistent_snapshot
    }

    fn load_snapshot(&mut self) -> Result<()> {
        if let Some(local) = self.local(SNAPSHOT)
            && self.trusted.update_snapshot(&local, true).is_ok()
        {
            return Ok(());
        }
        let file = role_file(SNAPSHOT);
        let timestamp = &self.trusted.timestamp().expect("timestamp loaded").signed;
        let meta = timestamp.snapshot_meta(&file)?;
        let max = meta.length.unwrap_or(self.limits.snapshot_max_length);
        let url = if self.consistent() {
            format!("{}{}.{file}", self.metadata_url, meta.version)
        } else {
            format!("{}{file}", self.metadata_url)
        };
        let bytes = self.fetch_required(&url, max)?;
        self.trusted.update_snapshot(&bytes, false)?;
        self.persist(SNAPSHOT, &bytes)?;
        Ok(())
    }

    /// Load `role` as delegated by `delegator`: from the local copy when it still verifies,
    /// else from the repository.
    fn load_targets(&mut self, role: &str, delegator: &str) -> Result<()> {
        if let Some(loaded) = self.trusted.targets(role) {
            if loaded.delegator == delegator {
                return Ok(());
            }
            // Reached through another delegator: verify again against that one's keys.
            let bytes = loaded.targets.bytes.clone();
            return self.trusted.update_targets(&bytes, role, delegator);
        }
        if let Some(local) = self.local(role) {
            match self.trusted.update_targets(&local, role, delegator) {
                Ok(()) => return Ok(()),
                Err(e) if self.offline => return Err(e),
                Err(_) => {}
            }
        } else if self.offline {
            return Err(TufError::NothingCached);
        }
        let file = role_file(role);
        let snapshot = &self.trusted.snapshot().expect("snapshot loaded").signed;
        let meta = snapshot
            .meta
            .get(&file)
            .ok_or_else(|| TufError::MixAndMatch {
                file: file.clone(),
                by: "snapshot.json".into(),
                detail: "the snapshot does not list it".into(),
            })?;
        let max = meta.length.unwrap_or(self.limits.targets_max_length);
        let name = format!("{}.json", quote(role));
        let url = if self.consistent() {
            format!("{}{}.{name}", self.metadata_url, meta.version)
        } else {
            format!("{}{name}", self.metadata_url)
        };
        let bytes = self.fetch_required(&url, max)?;
        self.trusted.update_targets(&bytes, role, delegator)?;
        self.persist(role, &bytes)?;
        Ok(())
    }

    /// Find `target` through the delegations (§5.6.7: pre-order, depth first, terminating
    /// roles end the search). `refresh` must have run.
    pub fn target_info(&mut self, target: &str) -> Result<TargetFile> {
        let mut stack = vec![(TARGETS.to_string(), ROOT.to_string())];
        let mut visited = BTreeSet::new();
        while let Some((role, delegator)) = stack.pop() {
            if visited.len() > self.limits.max_delegations {
                break;
            }
            if !visited.insert(role.clone()) {
                continue;
            }
            self.load_targets(&role, &delegator)?;
            let targets = &self
                .trusted
                .targets(&role)
                .expect("just loaded")
                .targets
                .signed;
            if let Some(found) = targets.targets.get(target) {
                return Ok(found.clone());
            }
            if let Some(delegations) = &targets.delegations {
                let mut children = Vec::new();
                for (child, terminating) in delegations.roles_for_target(target) {
                    children.push((child, role.clone()));
                    if terminating {
                        stack.clear();
                        break;
                    }
                }
                stack.extend(children.into_iter().rev());
            }
        }
        Err(TufError::UnknownTarget {
            name: target.to_string(),
        })
    }

    /// The URL of `target` in the repository (hash-prefixed under consistent snapshots).
    pub fn target_url(&self, target: &str, info: &TargetFile) -> String {
        let path = match (self.consistent(), info.hashes.values().next()) {
            (true, Some(serde_json::Value::String(hash))) => match target.rsplit_once('/') {
                Some((dir, base)) => format!("{dir}/{hash}.{base}"),
                None => format!("{hash}.{target}"),
            },
            _ => target.to_string(),
        };
        format!("{}{path}", self.target_base_url)
    }

    /// Download `target` and verify its length and hashes.
    pub fn download_target(&self, target: &str, info: &TargetFile) -> Result<Vec<u8>> {
        let url = self.target_url(target, info);
        let bytes = self.fetch_required(&url, info.length)?;
        verify_target(target, info, &bytes)?;
        Ok(bytes)
    }
}

/// §5.3: follow the root chain from the trusted root, `N+1.root.json` until one is missing,
/// persisting each verified root as `root.json`.
fn load_root_chain<F: Fetcher>(
    trusted: &mut TrustedSet,
    fetcher: &F,
    limits: &Limits,
    metadata_url: &str,
    metadata_dir: &Path,
) -> Result<()> {
    let first = trusted.root().signed.common.version + 1;
    for version in first..first + limits.max_root_rotations {
        let file = format!("{version}.root.json");
        let url = format!("{metadata_url}{file}");
        let bytes = match fetcher.fetch(&url, limits.root_max_length) {
            Ok(bytes) => bytes,
            Err(FetchError::NotFound) => break,
            Err(FetchError::Failed(reason)) => return Err(TufError::Fetch { url, reason }),
        };
        trusted.update_root(&bytes, &file)?;
        agx_core::atomic::write_file(&metadata_dir.join(role_file(ROOT)), &bytes, None)?;
    }
    Ok(())
}

fn fetch_error(url: &str, error: FetchError) -> TufError {
    match error {
        FetchError::NotFound => TufError::Missing {
            url: url.to_string(),
        },
        FetchError::Failed(reason) => TufError::Fetch {
            url: url.to_string(),
            reason,
        },
    }
}

/// A target's bytes against its signed length and hashes.
pub fn verify_target(target: &str, info: &TargetFile, bytes: &[u8]) -> Result<()> {
    if bytes.len() as u64 != info.length {
        return Err(TufError::Tampered {
            file: target.to_string(),
            what: format!("length ({} bytes, signed {})", bytes.len(), info.length),
        });
    }
    crate::hashes::check(&info.hashes, bytes).map_err(|what| TufError::Tampered {
        file: target.to_string(),
        what,
    })
}

fn with_slash(url: &str) -> String {
    if url.ends_with('/') {
        url.to_string()
    } else {
        format!("{url}/")
    }
}

/// A repository in a local folder: "URLs" are paths.
pub struct DirFetcher;

impl Fetcher for DirFetcher {
    fn fetch(&self, url: &str, max_length: u64) -> Result<Vec<u8>, FetchError> {
        use std::io::Read;
        let file = match std::fs::File::open(url) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(FetchError::NotFound);
            }
            Err(e) => return Err(FetchError::Failed(format!("{url}: {e}"))),
        };
        let mut bytes = Vec::new();
        file.take(max_length + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| FetchError::Failed(format!("{url}: {e}")))?;
        if bytes.len() as u64 > max_length {
            return Err(FetchError::Failed(format!(
                "{url}: larger than the {max_length} bytes allowed"
            )));
        }
        Ok(bytes)
    }
}
