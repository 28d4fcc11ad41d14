//! The folders and files a bundle's user asked its server to work on, as permission paths
//! (docs/sandbox.md, "MCPB folders and files"): each `user_config` entry of type
//! `directory` becomes a `write` path and each of type `file` a `read` path, with the value
//! its setting has for this run. Read from the bundle's own `manifest.json`, kept in the
//! package, so that installed bundles need nothing new.

use std::path::{Path, PathBuf};

use super::{BUNDLE_DIR, LAUNCHER, MAX_MANIFEST_SIZE, Manifest, UserConfig};
use crate::settings::PackageSettings;

/// Paths to read and paths to write that the settings of a bundle's `directory` and
/// `file` entries name.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ConfiguredPaths {
    pub read: Vec<PathBuf>,
    pub write: Vec<PathBuf>,
}

/// The paths the settings of the bundle installed in `package_dir` name; nothing when the
/// package is not a bundle whose server agx launches (`command`, as the wrapped server's).
/// A value that is not an absolute path is left out: the sandbox takes real folders only.
pub fn configured_paths(
    package_dir: &Path,
    command: &[String],
    settings: &PackageSettings,
) -> ConfiguredPaths {
    if command.get(1).map(String::as_str) != Some(LAUNCHER) {
        return ConfiguredPaths::default();
    }
    let manifest = package_dir.join(BUNDLE_DIR).join("manifest.json");
    let Some(manifest) = agx_core::regular_file::read(&manifest, MAX_MANIFEST_SIZE)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Manifest>(&bytes).ok())
    else {
        return ConfiguredPaths::default();
    };
    let values = settings.template_values();
    let mut paths = ConfiguredPaths::default();
    for (key, entry) in &manifest.user_config {
        let Ok(entry) = serde_json::from_value::<UserConfig>(entry.clone()) else {
            continue;
        };
        let list = match entry.kind.as_str() {
            "directory" => &mut paths.write,
            "file" => &mut paths.read,
            _ => continue,
        };
        let Some((_, value)) = values.iter().find(|(k, _)| k == key) else {
            continue;
        };
        list.extend(split(value, entry.multiple));
    }
    paths
}

/// The absolute paths of one value: several, separated by `:`, for a `multiple` entry
/// (the form agx gives those settings).
fn split(value: &str, multiple: bool) -> Vec<PathBuf> {
    let parts: Vec<&str> = if multiple {
        value.split(':').collect()
    } else {
        vec![value]
    };
    parts
        .into_iter()
        .map(PathBuf::from)
        .filter(|p| {
            let absolute = p.is_absolute();
            if !absolute && !p.as_os_str().is_empty() {
                tracing::debug!("not a permission path (not absolute): {}", p.display());
            }
            absolute
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_absolute_paths_are_taken_and_multiple_values_are_split() {
        assert_eq!(split("/srv/a", false), [PathBuf::from("/srv/a")]);
        assert_eq!(
            split("/srv/a:/srv/b:rel", true),
            [PathBuf::from("/srv/a"), PathBuf::from("/srv/b")]
        );
        assert!(split("", false).is_empty());
        assert!(split("relative/x", false).is_empty());
    }
}
