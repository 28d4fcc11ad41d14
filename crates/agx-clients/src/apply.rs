//! Editing a client file and the record of entries together, safely against other agx
//! processes: the record's lock, then the file's, are held from reading the file to
//! writing both, so concurrent `install-server` runs each keep their entry.

use std::path::{Path, PathBuf};

use super::plan::{Change, Outcome, check_key, plan_install, plan_uninstall};
use super::records::Records;
use super::{ClientError, ServerEntry, Target, write};
use agx_core::file_lock::FileLock;
use agx_core::name::QualifiedName;

/// A change that was written, and where the previous content was saved.
#[derive(Debug)]
pub struct Applied {
    pub change: Change,
    pub backup: Option<PathBuf>,
}

/// Write `entry` (which launches `server`) under `key` and record it.
pub fn install_entry(
    records_path: &Path,
    target: &Target,
    key: &str,
    server: &QualifiedName,
    entry: &ServerEntry,
    force: bool,
) -> Result<Applied, ClientError> {
    // Before the lock, which makes the file's folder.
    check_key(key)?;
    let _records = Records::lock(records_path)?;
    let _file = lock_client_file(&target.file)?;
    let change = plan_install(target, key, entry, force)?;
    let backup = change.apply()?;
    let mut records = Records::load(records_path)?;
    if records.upsert(target.record(key, server, &entry.command)) {
        records.save(records_path)?;
    }
    Ok(Applied { change, backup })
}

/// Remove the entry named by key or by the server it launches, and forget its record.
/// An entry that is not there is an `Outcome::NotFound` change, and nothing is written.
pub fn uninstall_entry(
    records_path: &Path,
    target: &Target,
    key_or_server: &str,
) -> Result<Applied, ClientError> {
    if !target.file.exists() {
        // Nothing to remove, and no lock (nor a folder for one) to make.
        return Ok(Applied {
            change: plan_uninstall(target, key_or_server)?,
            backup: None,
        });
    }
    let _records = Records::lock(records_path)?;
    let _file = lock_client_file(&target.file)?;
    let change = plan_uninstall(target, key_or_server)?;
    if change.outcome == Outcome::NotFound {
        return Ok(Applied {
            change,
            backup: None,
        });
    }
    let backup = change.apply()?;
    let mut records = Records::load(records_path)?;
    if records.remove_place(&target.place(&change.key)) {
        records.save(records_path)?;
    }
    Ok(Applied { change, backup })
}

/// Hold a client file for a read-modify-write. The lock sits next to the file agx really
/// writes (the end of a symlink chain), so two paths to one file share it, and it is
/// removed on release: the user's folders keep no trace of it.
pub fn lock_client_file(file: &Path) -> Result<FileLock, ClientError> {
    let err = |source| ClientError::Lock {
        file: file.to_path_buf(),
        source,
    };
    let real = write::follow_links(file).map_err(err)?;
    let mut name = real.file_name().unwrap_or_default().to_os_string();
    name.push(".agx-lock");
    let lock_path = real.with_file_name(name);
    if let Some(dir) = lock_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    FileLock::acquire_transient(&lock_path, || {
        tracing::info!(
            verb = "Blocking",
            "waiting for another agx process editing {}",
            file.display()
        )
    })
    .map_err(err)
}
