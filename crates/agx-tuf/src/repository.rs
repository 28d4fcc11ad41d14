//! The operator's side: keys, and signing a folder of files as a TUF repository.
//!
//! Layout, in the repository folder: `metadata/` holds `N.root.json` (every version, the
//! chain clients walk), `root.json` (the newest), `timestamp.json`, `snapshot.json`,
//! `targets.json` and the hashed bins `bins-XX.json`. Every other file of the folder is a
//! target under its own path. `targets` delegates all of them to `2^bits` succinct hashed
//! bins (PEP 458), so publishing one file re-signs its bin, the snapshot and the timestamp,
//! whatever the size of the catalog. The bins are signed with the targets keys.
//!
//! Keys live in a keys folder outside the repository: `ROLE-N.key` (PEM PKCS#8 ed25519,
//! mode 0600) and `keys.json` (the root threshold). `AGX_TUF_KEY_<ROLE>` (a PEM) or
//! `AGX_TUF_KEY_<ROLE>_FILE` (a path, e.g. `/dev/fd/3`) add a role's key from CI secrets.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::error::{Result, TufError, malformed};
use crate::keys::SigningKey;
use crate::metadata::{
    Common, Delegations, Envelope, Key, MetaFile, ROOT, RoleKeys, Root, SNAPSHOT, SPEC_VERSION,
    Snapshot, SuccinctRoles, TARGETS, TIMESTAMP, TargetFile, Targets, Timestamp, format_expires,
};

pub const ROLES: [&str; 4] = [ROOT, TARGETS, SNAPSHOT, TIMESTAMP];
pub const METADATA_DIR: &str = "metadata";
const BINS_PREFIX: &str = "bins";

/// How long each role's metadata stays valid (the defaults of docs/registry.md).
#[derive(Debug, Clone)]
pub struct Expiry(BTreeMap<String, Duration>);

impl Default for Expiry {
    fn default() -> Self {
        Expiry(BTreeMap::from([
            (ROOT.to_string(), Duration::days(365)),
            (TARGETS.to_string(), Duration::days(90)),
            (SNAPSHOT.to_string(), Duration::days(7)),
            (TIMESTAMP.to_string(), Duration::days(1)),
        ]))
    }
}

impl Expiry {
    /// Apply `ROLE=DURATION` (`30d`, `12h`, `90m`, `3600s`).
    pub fn set(&mut self, spec: &str) -> Result<()> {
        let usage = || TufError::Usage {
            what: format!(
                "--expires {spec:?}: expected ROLE=DURATION with ROLE one of root, targets, snapshot, timestamp and DURATION like 30d, 12h, 90m or 3600s"
            ),
        };
        let (role, duration) = spec.split_once('=').ok_or_else(usage)?;
        if !ROLES.contains(&role) {
            return Err(usage());
        }
        let (number, unit) = duration.split_at(duration.len().saturating_sub(1));
        let number: i64 = number.parse().map_err(|_| usage())?;
        let duration = match unit {
            "d" => Duration::days(number),
            "h" => Duration::hours(number),
            "m" => Duration::minutes(number),
            "s" => Duration::seconds(number),
            _ => return Err(usage()),
        };
        if number <= 0 {
            return Err(usage());
        }
        self.0.insert(role.to_string(), duration);
        Ok(())
    }

    fn of(&self, role: &str) -> Duration {
        let base = if role.starts_with(BINS_PREFIX) {
            TARGETS
        } else {
            role
        };
        self.0[base]
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct KeysConfig {
    root_threshold: u64,
}

/// The operator's private keys, by role.
pub struct KeySet {
    keys: BTreeMap<String, Vec<SigningKey>>,
    /// Root keys replaced by `rotate root`: they sign the next root once, so that clients
    /// trusting the old root accept it.
    retired: Vec<SigningKey>,
    root_threshold: u64,
}

impl KeySet {
    /// Generate one key per role (`root_keys` for root, `threshold` of them needed) into
    /// `dir`, which must not hold keys yet.
    pub fn generate(dir: &Path, root_keys: u64, threshold: u64) -> Result<Self> {
        if threshold == 0 || threshold > root_keys {
            return Err(TufError::Usage {
                what: format!(
                    "a root threshold of {threshold} with {root_keys} root keys: the threshold must be between 1 and the number of keys"
                ),
            });
        }
        if dir.join("keys.json").exists() {
            return Err(TufError::Usage {
                what: format!("{} already holds keys", dir.display()),
            });
        }
        fs_err::create_dir_all(dir)?;
        let mut keys = BTreeMap::new();
        for role in ROLES {
            let count = if role == ROOT { root_keys } else { 1 };
            let mut generated = Vec::new();
            for n in 1..=count {
                let key = SigningKey::generate()?;
                write_private(&dir.join(format!("{role}-{n}.key")), &key.to_pem())?;
                generated.push(key);
            }
            keys.insert(role.to_string(), generated);
        }
        let config = serde_json::to_vec_pretty(&KeysConfig {
            root_threshold: threshold,
        })
        .expect("serialises");
        agx_core::atomic::write_file(&dir.join("keys.json"), &config, None)?;
        Ok(KeySet {
            keys,
            retired: Vec::new(),
            root_threshold: threshold,
        })
    }

    /// Load the keys of `dir` (when given) and of the `AGX_TUF_KEY_*` variables.
    pub fn load(dir: Option<&Path>) -> Result<Self> {
        let mut keys: BTreeMap<String, Vec<SigningKey>> = BTreeMap::new();
        let mut retired = Vec::new();
        let mut root_threshold = 1;
        if let Some(dir) = dir {
            for path in key_files(&dir.join("retired"))? {
                let text = fs_err::read_to_string(&path)?;
                retired.push(SigningKey::from_pem(&path.display().to_string(), &text)?);
            }
            let config = dir.join("keys.json");
            if config.exists() {
                let text = fs_err::read(&config)?;
                let config: KeysConfig = serde_json::from_slice(&text)
                    .map_err(|e| malformed(&config.display().to_string(), e))?;
                root_threshold = config.root_threshold;
            }
            for path in key_files(dir)? {
                let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                let Some(role) = ROLES
                    .iter()
                    .find(|r| stem.strip_prefix(**r).is_some_and(|n| n.starts_with('-')))
                else {
                    continue;
                };
                let file = path.display().to_string();
                let key = SigningKey::from_pem(&file, &fs_err::read_to_string(&path)?)?;
                keys.entry(role.to_string()).or_default().push(key);
            }
        }
        for role in ROLES {
            let var = format!("AGX_TUF_KEY_{}", role.to_uppercase());
            let text = match (std::env::var(&var), std::env::var(format!("{var}_FILE"))) {
                (Ok(pem), _) => pem,
                (_, Ok(path)) => fs_err::read_to_string(path)?,
                _ => continue,
            };
            keys.entry(role.to_string())
                .or_default()
                .push(SigningKey::from_pem(&var, &text)?);
        }
        Ok(KeySet {
            keys,
            retired,
            root_threshold,
        })
    }

    fn role(&self, role: &str) -> Result<&[SigningKey]> {
        match self.keys.get(role) {
            Some(keys) if !keys.is_empty() => Ok(keys),
            _ => Err(TufError::Usage {
                what: format!(
                    "no {role} key: give the keys folder with --keys, or AGX_TUF_KEY_{}",
                    role.to_uppercase()
                ),
            }),
        }
    }

    /// Replace `role`'s keys with a new one, written to `dir`; the old files move to
    /// `dir/retired/`.
    pub fn rotate(&mut self, dir: &Path, role: &str) -> Result<()> {
        let retired = dir.join("retired");
        fs_err::create_dir_all(&retired)?;
        for entry in fs_err::read_dir(dir)? {
            let path = entry?.path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if name.starts_with(&format!("{role}-")) && name.ends_with(".key") {
                let stamp = Utc::now().format("%Y%m%dT%H%M%S");
                fs_err::rename(&path, retired.join(format!("{stamp}-{name}")))?;
            }
        }
        if role == ROOT {
            self.retired
                .extend(self.keys.remove(ROOT).into_iter().flatten());
        }
        let count = if role == ROOT {
            self.root_threshold.max(1)
        } else {
            1
        };
        let mut fresh = Vec::new();
        for n in 1..=count {
            let key = SigningKey::generate()?;
            write_private(&dir.join(format!("{role}-{n}.key")), &key.to_pem())?;
            fresh.push(key);
        }
        self.keys.insert(role.to_string(), fresh);
        Ok(())
    }

    /// Refuse, before anything changes, when the keys that re-sign after a publish (targets,
    /// snapshot, timestamp) are not all here.
    pub fn require_online(&self) -> Result<()> {
        for role in [TARGETS, SNAPSHOT, TIMESTAMP] {
            self.role(role)?;
        }
        Ok(())
    }

    fn public(&self, role: &str) -> Result<Vec<Key>> {
        Ok(self.role(role)?.iter().map(SigningKey::public).collect())
    }
}

/// The `*.key` files of `dir` (none when it does not exist), in name order.
fn key_files(dir: &Path) -> Result<Vec<PathBuf>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> = fs_err::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "key"))
        .collect();
    files.sort();
    Ok(files)
}

/// A private key file: 0600 from its creation on Unix (no moment where others may read it).
fn write_private(path: &Path, text: &str) -> Result<()> {
    #[cfg(unix)]
    let permissions = {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o600))
    };
    #[cfg(not(unix))]
    let permissions = None;
    agx_core::atomic::write_file(path, text.as_bytes(), permissions)?;
    Ok(())
}

fn sign_envelope(signed: &impl Serialize, keys: &[SigningKey]) -> Envelope {
    let signed = serde_json::to_value(signed).expect("metadata serialises");
    let message = crate::metadata::canonical_json(&signed).expect("agx writes no floats");
    Envelope {
        signatures: keys.iter().map(|k| k.sign(&message)).collect(),
        signed,
    }
}

fn common(kind: &str, version: u64, expires: DateTime<Utc>) -> Common {
    Common {
        kind: kind.to_string(),
        spec_version: SPEC_VERSION.to_string(),
        version,
        expires: format_expires(expires),
    }
}

/// A TUF repository in a folder, as the operator edits it.
pub struct Repository {
    dir: PathBuf,
    now: DateTime<Utc>,
    expiry: Expiry,
}

/// What signing changed, for the operator's report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Signed {
    pub root_version: u64,
    pub targets: usize,
    pub bins: usize,
    pub bins_signed: usize,
    pub snapshot_version: u64,
    pub timestamp_version: u64,
}

impl Repository {
    pub fn new(dir: &Path, expiry: Expiry) -> Self {
        Repository {
            dir: dir.to_path_buf(),
            now: Utc::now(),
            expiry,
        }
    }

    fn metadata_path(&self, file: &str) -> PathBuf {
        self.dir.join(METADATA_DIR).join(file)
    }

    fn read<T: serde::de::DeserializeOwned>(&self, role: &str) -> Result<Option<T>> {
        let file = format!("{role}.json");
        let path = self.metadata_path(&file);
        let bytes = match fs_err::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let kind = if role.starts_with(BINS_PREFIX) {
            TARGETS
        } else {
            role
        };
        Envelope::parse(&file, &bytes)?.typed(&file, kind).map(Some)
    }

    fn write(&self, file: &str, envelope: &Envelope) -> Result<Vec<u8>> {
        let bytes = envelope.to_bytes();
        let path = self.metadata_path(file);
        fs_err::create_dir_all(path.parent().expect("metadata folder"))?;
        agx_core::atomic::write_file(&path, &bytes, None)?;
        Ok(bytes)
    }

    fn expires(&self, role: &str) -> DateTime<Utc> {
        self.now + self.expiry.of(role)
    }

    pub fn is_signed(&self) -> bool {
        self.metadata_path("root.json").is_file()
    }

    /// The trusted root's version and key ids, for `agx registry sign`'s report and pinning.
    pub fn root(&self) -> Result<Option<Root>> {
        self.read(ROOT)
    }

    /// Sign every file of the folder: a new root when there is none (or `keys` differ from
    /// it), every bin whose targets changed, the snapshot and the timestamp.
    pub fn sign_all(&self, keys: &KeySet) -> Result<Signed> {
        let targets = self.scan_targets()?;
        self.sign_targets(keys, Some(targets), &[])
    }

    /// Re-sign after `changed` paths (relative, `/`-separated) were written or removed:
    /// only their bins are read and re-signed.
    pub fn sign_changed(&self, keys: &KeySet, changed: &[String]) -> Result<Signed> {
        if !self.is_signed() {
            return self.sign_all(keys);
        }
        self.sign_targets(keys, None, changed)
    }

    /// The root to sign under: the existing one while it names the given keys and has a
    /// month left, else the next version (signed by the old root keys as well).
    fn ensure_root(&self, keys: &KeySet) -> Result<Root> {
        let existing: Option<Root> = self.read(ROOT)?;
        let mut roles = BTreeMap::new();
        let mut all_keys = BTreeMap::new();
        for role in ROLES {
            let (ids, public) = match (keys.public(role), &existing) {
                (Ok(public), _) => (public.iter().map(Key::id).collect::<Vec<_>>(), public),
                // Not given (a CI job holding only the online keys): the root's stay.
                (Err(_), Some(root)) => {
                    let ids = root.role("root.json", role)?.keyids.clone();
                    let public = ids
                        .iter()
                        .filter_map(|id| root.keys.get(id).cloned())
                        .collect();
                    (ids, public)
                }
                (Err(e), None) => return Err(e),
            };
            for (id, key) in ids.iter().zip(public) {
                all_keys.insert(id.clone(), key);
            }
            let threshold = match (role, &existing, keys.public(role)) {
                (ROOT, _, Ok(_)) => keys.root_threshold.min(ids.len() as u64).max(1),
                (ROOT, Some(root), Err(_)) => root.role("root.json", ROOT)?.threshold,
                _ => 1,
            };
            roles.insert(
                role.to_string(),
                RoleKeys {
                    keyids: ids,
                    threshold,
                },
            );
        }
        if let Some(root) = &existing {
            let same = root.roles == roles;
            let fresh = root.common.expires > format_expires(self.now + Duration::days(30));
            if same && (fresh || keys.role(ROOT).is_err()) {
                return Ok(root.clone());
            }
        }
        let version = existing.as_ref().map_or(1, |r| r.common.version + 1);
        let root = Root {
            common: common(ROOT, version, self.expires(ROOT)),
            consistent_snapshot: false,
            keys: all_keys,
            roles,
        };
        let mut signers: Vec<&SigningKey> = keys.role(ROOT)?.iter().collect();
        if let Some(old) = &existing {
            let wanted = &old.role("root.json", ROOT)?.keyids;
            signers.extend(
                keys.retired
                    .iter()
                    .filter(|k| wanted.contains(&k.public().id())),
            );
        }
        let signed = serde_json::to_value(&root).expect("root serialises");
        let message = crate::metadata::canonical_json(&signed).expect("agx writes no floats");
        let mut seen = BTreeSet::new();
        let signatures = signers
            .iter()
            .filter(|k| seen.insert(k.public().id()))
            .map(|k| k.sign(&message))
            .collect();
        let envelope = Envelope { signatures, signed };
        self.write(&format!("{version}.root.json"), &envelope)?;
        self.write("root.json", &envelope)?;
        Ok(root)
    }

    /// Every target file of the folder (not `metadata/`, not dotfiles), with its entry.
    fn scan_targets(&self) -> Result<BTreeMap<String, TargetFile>> {
        let mut out = BTreeMap::new();
        let mut stack = vec![self.dir.clone()];
        while let Some(dir) = stack.pop() {
            for entry in fs_err::read_dir(&dir)? {
                let entry = entry?;
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || (dir == self.dir && name == METADATA_DIR) {
                    continue;
                }
                if entry.file_type()?.is_dir() {
                    stack.push(path);
                } else if let Some(target) = self.target_name(&path) {
                    out.insert(target, target_file(&path)?);
                }
            }
        }
        Ok(out)
    }

    fn target_name(&self, path: &Path) -> Option<String> {
        let relative = path.strip_prefix(&self.dir).ok()?;
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }

    fn sign_targets(
        &self,
        keys: &KeySet,
        all: Option<BTreeMap<String, TargetFile>>,
        changed: &[String],
    ) -> Result<Signed> {
        let root = self.ensure_root(keys)?;
        let targets_keys = keys.role(TARGETS)?;
        let old_targets: Option<Targets> = self.read(TARGETS)?;
        let old_snapshot: Option<Snapshot> = self.read(SNAPSHOT)?;
        let old_bins = old_targets
            .as_ref()
            .and_then(|t| t.delegations.as_ref())
            .and_then(|d| d.succinct_roles.clone());
        let bit_length = match (&all, &old_bins) {
            (Some(all), Some(old)) => old.bit_length.max(bits_for(all.len())),
            (Some(all), None) => bits_for(all.len()),
            (None, Some(old)) => old.bit_length,
            (None, None) => unreachable!("an unsigned repository is signed whole"),
        };
        let target_key_ids: Vec<String> = targets_keys.iter().map(|k| k.public().id()).collect();
        let bins = SuccinctRoles {
            keyids: target_key_ids.clone(),
            threshold: 1,
            bit_length,
            name_prefix: BINS_PREFIX.into(),
        };
        let delegations = Delegations {
            keys: targets_keys
                .iter()
                .map(|k| (k.public().id(), k.public()))
                .collect(),
            roles: None,
            succinct_roles: Some(bins.clone()),
        };
        let rebinned = old_bins.as_ref() != Some(&bins);
        let mut snapshot_meta = old_snapshot
            .as_ref()
            .map(|s| s.meta.clone())
            .unwrap_or_default();
        let mut bins_signed = 0;
        // The new content of each bin to (re)write.
        let mut new_bins: BTreeMap<String, BTreeMap<String, TargetFile>> = BTreeMap::new();
        match &all {
            Some(all) => {
                for bin in 0..bins.bin_count() {
                    new_bins.insert(bins.bin_name(bin), BTreeMap::new());
                }
                for (name, file) in all {
                    new_bins
                        .get_mut(&bins.bin_for_target(name))
                        .expect("every bin")
                        .insert(name.clone(), file.clone());
                }
            }
            None => {
                for name in changed {
                    let bin = bins.bin_for_target(name);
                    if !new_bins.contains_key(&bin) {
                        let old: Option<Targets> = self.read(&bin)?;
                        new_bins.insert(bin.clone(), old.map(|t| t.targets).unwrap_or_default());
                    }
                    let entries = new_bins.get_mut(&bin).expect("just inserted");
                    let path = self.dir.join(name);
                    if path.is_file() {
                        entries.insert(name.clone(), target_file(&path)?);
                    } else {
                        entries.remove(name);
                    }
                }
            }
        }
        for (bin, entries) in &new_bins {
            let old: Option<Targets> = if all.is_some() { self.read(bin)? } else { None };
            let file = format!("{bin}.json");
            let previous = snapshot_meta.get(&file).map_or(0, |m| m.version);
            if let Some(old) = &old
                && &old.targets == entries
                && !rebinned
                && old.common.expires > format_expires(self.now + self.expiry.of(bin) / 2)
            {
                continue;
            }
            let targets = Targets {
                common: common(TARGETS, previous + 1, self.expires(bin)),
                targets: entries.clone(),
                delegations: None,
            };
            self.write(&file, &sign_envelope(&targets, targets_keys))?;
            snapshot_meta.insert(file, MetaFile::at_version(previous + 1));
            bins_signed += 1;
        }
        if all.is_some() {
            // Bins of an older, smaller layout are gone.
            snapshot_meta.retain(|file, _| {
                file == "targets.json"
                    || bins.is_bin(file.trim_end_matches(".json"))
                    || !file.starts_with(BINS_PREFIX)
            });
        }
        let targets_changed = old_targets.as_ref().is_none_or(|t| {
            t.delegations
                .as_ref()
                .and_then(|d| d.succinct_roles.as_ref())
                != Some(&bins)
        }) || old_targets.as_ref().is_some_and(|t| {
            t.common.expires <= format_expires(self.now + self.expiry.of(TARGETS) / 2)
        });
        if targets_changed {
            let version = old_targets.as_ref().map_or(1, |t| t.common.version + 1);
            let targets = Targets {
                common: common(TARGETS, version, self.expires(TARGETS)),
                targets: BTreeMap::new(),
                delegations: Some(delegations),
            };
            self.write("targets.json", &sign_envelope(&targets, targets_keys))?;
            snapshot_meta.insert("targets.json".into(), MetaFile::at_version(version));
        }
        let snapshot_version = old_snapshot.as_ref().map_or(1, |s| s.common.version + 1);
        let snapshot = Snapshot {
            common: common(SNAPSHOT, snapshot_version, self.expires(SNAPSHOT)),
            meta: snapshot_meta,
        };
        let snapshot_bytes = self.write(
            "snapshot.json",
            &sign_envelope(&snapshot, keys.role(SNAPSHOT)?),
        )?;
        let timestamp_version = self.write_timestamp(keys, snapshot_version, &snapshot_bytes)?;
        Ok(Signed {
            root_version: root.common.version,
            targets: all.as_ref().map_or(changed.len(), BTreeMap::len),
            bins: bins.bin_count() as usize,
            bins_signed,
            snapshot_version,
            timestamp_version,
        })
    }

    fn write_timestamp(
        &self,
        keys: &KeySet,
        snapshot_version: u64,
        snapshot: &[u8],
    ) -> Result<u64> {
        let old: Option<Timestamp> = self.read(TIMESTAMP)?;
        let version = old.map_or(1, |t| t.common.version + 1);
        let timestamp = Timestamp {
            common: common(TIMESTAMP, version, self.expires(TIMESTAMP)),
            meta: BTreeMap::from([(
                "snapshot.json".to_string(),
                MetaFile {
                    version: snapshot_version,
                    length: Some(snapshot.len() as u64),
                    hashes: Some(crate::hashes::sha256_map(snapshot)),
                },
            )]),
        };
        self.write(
            "timestamp.json",
            &sign_envelope(&timestamp, keys.role(TIMESTAMP)?),
        )?;
        Ok(version)
    }

    /// A new timestamp for the current snapshot (what a cron job runs before the old one
    /// expires).
    pub fn refresh_timestamp(&self, keys: &KeySet) -> Result<u64> {
        let path = self.metadata_path("snapshot.json");
        let bytes = fs_err::read(&path).map_err(|_| TufError::Usage {
            what: format!(
                "{} is not signed yet: run `agx registry sign` first",
                self.dir.display()
            ),
        })?;
        let snapshot: Snapshot =
            Envelope::parse("snapshot.json", &bytes)?.typed("snapshot.json", SNAPSHOT)?;
        self.write_timestamp(keys, snapshot.common.version, &bytes)
    }
}

impl MetaFile {
    /// A snapshot entry naming only the version (agx writes no length or hashes there).
    fn at_version(version: u64) -> Self {
        MetaFile {
            version,
            length: None,
            hashes: None,
        }
    }
}

fn target_file(path: &Path) -> Result<TargetFile> {
    let bytes = fs_err::read(path)?;
    Ok(TargetFile {
        length: bytes.len() as u64,
        hashes: crate::hashes::sha256_map(&bytes),
        custom: None,
    })
}

/// Enough bins for about 64 targets each (at least 2, at most 2^14).
fn bits_for(targets: usize) -> u32 {
    let bins = targets.div_ceil(64).max(2);
    (usize::BITS - (bins - 1).leading_zeros()).clamp(1, 14)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::updater::{DirFetcher, Updater};

    fn registry(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().unwrap()).unwrap();
            fs_err::write(path, text).unwrap();
        }
        dir
    }

    fn client(repo: &Path, trusted_root: &[u8]) -> (tempfile::TempDir, Updater<DirFetcher>) {
        let metadata = tempfile::tempdir().unwrap();
        fs_err::write(metadata.path().join("root.json"), trusted_root).unwrap();
        let url = repo.join(METADATA_DIR).display().to_string();
        let updater = Updater::new(
            metadata.path(),
            &url,
            &repo.display().to_string(),
            DirFetcher,
            Utc::now(),
        )
        .unwrap();
        (metadata, updater)
    }

    /// `target` of the repository in `repo`, as a fresh client trusting `root` gets it.
    fn download(repo: &Path, root: &[u8], target: &str) -> Vec<u8> {
        let (_metadata, mut updater) = client(repo, root);
        updater.refresh().unwrap();
        let info = updater.target_info(target).unwrap();
        updater.download_target(target, &info).unwrap()
    }

    #[test]
    fn a_signed_folder_verifies_and_one_change_resigns_one_bin() {
        let repo = registry(&[
            ("config.json", "{}"),
            ("packages/acme/geo.json", "geo"),
            ("dl/acme/geo/1.0.0.tar.gz", "tarball"),
        ]);
        let keys_dir = tempfile::tempdir().unwrap();
        let keys = KeySet::generate(keys_dir.path(), 1, 1).unwrap();
        let repository = Repository::new(repo.path(), Expiry::default());
        let signed = repository.sign_all(&keys).unwrap();
        assert_eq!(signed.root_version, 1);
        assert_eq!(signed.targets, 3);
        let root = fs_err::read(repo.path().join("metadata/1.root.json")).unwrap();

        assert_eq!(
            download(repo.path(), &root, "packages/acme/geo.json"),
            b"geo"
        );

        fs_err::write(repo.path().join("packages/acme/geo.json"), "geo v2").unwrap();
        let again = repository
            .sign_changed(&keys, &["packages/acme/geo.json".into()])
            .unwrap();
        assert_eq!(again.bins_signed, 1);
        assert_eq!(
            download(repo.path(), &root, "packages/acme/geo.json"),
            b"geo v2"
        );
    }

    #[test]
    fn a_tampered_target_is_refused_with_its_cause() {
        let repo = registry(&[("config.json", "{}"), ("dl/a.tar.gz", "tarball")]);
        let keys_dir = tempfile::tempdir().unwrap();
        let keys = KeySet::generate(keys_dir.path(), 1, 1).unwrap();
        Repository::new(repo.path(), Expiry::default())
            .sign_all(&keys)
            .unwrap();
        fs_err::write(repo.path().join("dl/a.tar.gz"), "tarbalL").unwrap();
        let root = fs_err::read(repo.path().join("metadata/root.json")).unwrap();
        let (_metadata, mut updater) = client(repo.path(), &root);
        updater.refresh().unwrap();
        let info = updater.target_info("dl/a.tar.gz").unwrap();
        let error = updater.download_target("dl/a.tar.gz", &info).unwrap_err();
        assert!(matches!(error, TufError::Tampered { .. }), "{error}");
    }

    #[test]
    fn rotating_the_root_keeps_old_clients_following() {
        let repo = registry(&[("config.json", "{}")]);
        let keys_dir = tempfile::tempdir().unwrap();
        let mut keys = KeySet::generate(keys_dir.path(), 2, 2).unwrap();
        let repository = Repository::new(repo.path(), Expiry::default());
        repository.sign_all(&keys).unwrap();
        let first = fs_err::read(repo.path().join("metadata/1.root.json")).unwrap();
        keys.rotate(keys_dir.path(), ROOT).unwrap();
        let keys = KeySet::load(Some(keys_dir.path())).unwrap();
        let signed = repository.sign_all(&keys).unwrap();
        assert_eq!(signed.root_version, 2);
        let (_metadata, mut updater) = client(repo.path(), &first);
        updater.refresh().unwrap();
        assert_eq!(updater.trusted().root().signed.common.version, 2);
        assert_eq!(bits_for(10_000 * 3), 9);
    }

    #[test]
    fn expiry_takes_role_and_duration() {
        let mut expiry = Expiry::default();
        expiry.set("timestamp=2h").unwrap();
        assert_eq!(expiry.of(TIMESTAMP), Duration::hours(2));
        assert_eq!(expiry.of("bins-0a"), Duration::days(90));
        assert!(expiry.set("timestamp=2w").is_err());
        assert!(expiry.set("mirror=2d").is_err());
        assert!(expiry.set("timestamp=0d").is_err());
    }
}
