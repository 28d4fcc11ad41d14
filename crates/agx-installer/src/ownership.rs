//! Which packages an imported plugin may write (docs/plugins.md, "Installing a plugin"): as
//! with cargo and npm, an installed package records its source, and a marketplace's plugin
//! may only create a package or update the one that same plugin of that same marketplace
//! imported. Anything else under its name (a registry's package, another marketplace's
//! import, another plugin of this one) is refused, never replaced without a word.

use agx_core::name::PackageName;
use agx_sources::ecosystem::EcosystemError;
use agx_sources::plugins::import::PluginOrigin;
use agx_store::{Source, StoreError};

/// The plugin's name in `PLUGIN@SOURCE`.
fn plugin_of(reference: &str) -> &str {
    reference
        .split_once('@')
        .map_or(reference, |(plugin, _)| plugin)
}

/// Whether an installed package's `source` is the import of `plugin` from the marketplace
/// at `marketplace` (its URL or folder).
pub fn imported_from(source: &Source, plugin: &str, marketplace: &str) -> bool {
    matches!(
        source,
        Source::Plugin { reference, marketplace: from, .. }
            if plugin_of(reference) == plugin && from == marketplace
    )
}

/// A folder of skills whose generated package (named after the folder) would replace a
/// package installed from somewhere else: another folder of the same name, or a package.
#[derive(Debug, thiserror::Error)]
#[error("{name} is installed from {installed}; the skills in {} would replace it (a folder of skills is installed under its folder's name)", folder.display())]
pub(crate) struct SkillFolderClash {
    name: PackageName,
    installed: String,
    folder: std::path::PathBuf,
}

impl agx_core::error::Hint for SkillFolderClash {
    fn hint(&self) -> Option<String> {
        Some(format!(
            "rename the folder, uninstall the other first (`agx uninstall {}`), or pass --force to replace it",
            self.name
        ))
    }
}

/// Refuse to install the skills in `folder` as `name` over a package from anywhere else.
pub(crate) fn check_skill_folder(
    name: &PackageName,
    folder: &std::path::Path,
    installed: Option<&Source>,
) -> Result<(), StoreError> {
    match installed {
        None => Ok(()),
        Some(Source::Local { path }) if std::path::Path::new(path) == folder => Ok(()),
        Some(source) => Err(StoreError::Upstream(agx_core::error::Upstream::new(
            SkillFolderClash {
                name: name.clone(),
                installed: describe(source),
                folder: folder.to_path_buf(),
            },
        ))),
    }
}

/// What a package's source is, for the refusal.
fn describe(source: &Source) -> String {
    match source {
        Source::Registry { registry, .. } => format!("the registry {registry}"),
        Source::Local { path } => format!("the folder or archive {path}"),
        Source::Ecosystem { spec, .. } => format!("`{spec}`"),
        Source::Plugin {
            reference,
            marketplace,
            ..
        } => format!(
            "the plugin `{}` of the marketplace {marketplace}",
            plugin_of(reference)
        ),
    }
}

/// Refuse to write `name` for the import `plugin` when `installed` (the source of what is
/// there now) is not that same plugin's import.
pub(crate) fn check(
    plugin: &PluginOrigin,
    name: &PackageName,
    installed: Option<&Source>,
) -> Result<(), StoreError> {
    let wanted = plugin_of(&plugin.reference);
    match installed {
        None => Ok(()),
        Some(source) if imported_from(source, wanted, &plugin.marketplace) => Ok(()),
        Some(source) => Err(EcosystemError::Bundle {
            bundle: plugin.reference.clone(),
            detail: format!(
                "it would replace {name}, which comes from {}; the plugin `{wanted}` of the marketplace {} may only install or update the package it imported itself",
                describe(source),
                plugin.marketplace
            ),
            hint: format!(
                "to put the plugin in its place, run `agx uninstall {name}` first; to keep both, add the marketplace under another name (`agx registry add-source NAME {}`): that name is the publisher of the packages it imports",
                plugin.marketplace
            ),
        }
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(reference: &str, marketplace: &str) -> PluginOrigin {
        PluginOrigin {
            reference: reference.into(),
            marketplace: marketplace.into(),
            location: "./plugins/weather".into(),
            revision: format!("sha256:{}", "a".repeat(64)),
        }
    }

    fn imported(reference: &str, marketplace: &str) -> Source {
        Source::Plugin {
            reference: reference.into(),
            marketplace: marketplace.into(),
            location: "./plugins/weather".into(),
            revision: format!("sha256:{}", "b".repeat(64)),
        }
    }

    #[test]
    fn an_import_creates_or_updates_only_its_own_package() {
        let name = PackageName::parse("acme/weather").unwrap();
        let plugin = origin("weather@acme", "/m/acme");
        assert!(check(&plugin, &name, None).is_ok());
        // The same plugin of the same marketplace, under whatever name it was asked as.
        assert!(
            check(
                &plugin,
                &name,
                Some(&imported("weather@old-name", "/m/acme"))
            )
            .is_ok()
        );

        let registry = Source::Registry {
            registry: "https://registry.example".into(),
            verified: None,
        };
        let err = check(&plugin, &name, Some(&registry)).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("it would replace acme/weather, which comes from the registry https://registry.example"),
            "{text}"
        );
        let hint = agx_core::error::Hint::hint(&err).unwrap_or_default();
        assert!(hint.contains("agx uninstall acme/weather"), "{hint}");
        assert!(
            hint.contains("agx registry add-source NAME /m/acme"),
            "{hint}"
        );

        // Another marketplace's import, and another plugin of this one, are not its own.
        let other = check(&plugin, &name, Some(&imported("weather@evil", "/m/evil")));
        assert!(
            other
                .unwrap_err()
                .to_string()
                .contains("the plugin `weather` of the marketplace /m/evil"),
        );
        assert!(check(&plugin, &name, Some(&imported("Weather@acme", "/m/acme"))).is_err());
        let local = Source::Local {
            path: "/src/weather".into(),
        };
        assert!(check(&plugin, &name, Some(&local)).is_err());
    }
}
