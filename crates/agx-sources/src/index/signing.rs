//! Signing a folder registry as a TUF repository (docs/registry.md): the operations behind
//! `agx registry keys generate|sign|refresh-timestamp|rotate` and the re-signing that
//! `registry add|yank` do on a signed registry.

use std::path::Path;

use agx_tuf::TufError;
use agx_tuf::repository::{Expiry, KeySet, Repository, Signed};

/// Where the keys are and how long new metadata lasts.
#[derive(Debug, Clone, Default)]
pub struct SigningOptions<'a> {
    pub keys_dir: Option<&'a Path>,
    pub expires: &'a [String],
}

impl SigningOptions<'_> {
    fn expiry(&self) -> Result<Expiry, TufError> {
        let mut expiry = Expiry::default();
        for spec in self.expires {
            expiry.set(spec)?;
        }
        Ok(expiry)
    }

    fn keys(&self) -> Result<KeySet, TufError> {
        if let Some(dir) = self.keys_dir
            && !dir.is_dir()
        {
            return Err(TufError::Usage {
                what: format!(
                    "{} is not a keys folder: create one with `agx registry keys generate {}`",
                    dir.display(),
                    dir.display()
                ),
            });
        }
        KeySet::load(self.keys_dir)
    }
}

/// Generate a keys folder: one key per role, `root_keys` (default: `threshold`) for root.
pub fn generate_keys(dir: &Path, threshold: u64, root_keys: Option<u64>) -> Result<(), TufError> {
    KeySet::generate(dir, root_keys.unwrap_or(threshold), threshold)?;
    Ok(())
}

fn check_registry(registry: &Path) -> Result<(), TufError> {
    if !registry.join("config.json").is_file() {
        return Err(TufError::Usage {
            what: format!(
                "{} is not an agx registry (no config.json): create one with `agx registry init`",
                registry.display()
            ),
        });
    }
    Ok(())
}

/// Sign every file of the registry (a new root on the first run).
pub fn sign(registry: &Path, options: &SigningOptions) -> Result<Signed, TufError> {
    check_registry(registry)?;
    let keys = options.keys()?;
    Repository::new(registry, options.expiry()?).sign_all(&keys)
}

/// A new timestamp for the current snapshot; returns its version.
pub fn refresh_timestamp(registry: &Path, options: &SigningOptions) -> Result<u64, TufError> {
    check_registry(registry)?;
    let keys = options.keys()?;
    Repository::new(registry, options.expiry()?).refresh_timestamp(&keys)
}

/// Replace `role`'s keys and re-sign everything under a new root version.
pub fn rotate(registry: &Path, role: &str, options: &SigningOptions) -> Result<Signed, TufError> {
    check_registry(registry)?;
    let dir = options.keys_dir.ok_or_else(|| TufError::Usage {
        what: "rotating keys needs the keys folder: give --keys KEYS_DIR".into(),
    })?;
    let repository = Repository::new(registry, options.expiry()?);
    if !repository.is_signed() {
        return Err(TufError::Usage {
            what: format!(
                "{} is not signed yet: run `agx registry sign` first",
                registry.display()
            ),
        });
    }
    let mut keys = options.keys()?;
    keys.rotate(dir, role)?;
    repository.sign_all(&keys)
}

/// What re-signs a registry after a publish: present when the registry is signed or keys
/// were given. Built before the publish, so missing keys stop it before anything changes.
pub struct Resigner {
    repository: Repository,
    keys: KeySet,
}

impl Resigner {
    pub fn prepare(registry: &Path, options: &SigningOptions) -> Result<Option<Self>, TufError> {
        let repository = Repository::new(registry, options.expiry()?);
        let signed = repository.is_signed();
        if !signed && options.keys_dir.is_none() {
            return Ok(None);
        }
        let keys = options.keys()?;
        keys.require_online().map_err(|e| match e {
            TufError::Usage { what } if signed => TufError::Usage {
                what: format!(
                    "{} is a signed registry and changing it needs its keys: {what}",
                    registry.display()
                ),
            },
            e => e,
        })?;
        Ok(Some(Resigner { repository, keys }))
    }

    /// Re-sign the bins of `changed` (relative paths), the snapshot and the timestamp.
    pub fn resign(&self, changed: &[String]) -> Result<Signed, TufError> {
        self.repository.sign_changed(&self.keys, changed)
    }
}
