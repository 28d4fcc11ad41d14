//! Remove installed packages, and the dependencies nothing needs any more, with the skill
//! copies `install-skill` made of them (an edited copy is kept).

use super::{Context, OpsResult};
use agx_core::name::PackageName;
use agx_store::LockMode;
use agx_store::remove::Uninstalled;

/// What `agx uninstall` did.
#[derive(Debug)]
pub struct UninstallReport {
    pub store: Uninstalled,
    pub skills: super::skills::UninstalledCopies,
    /// With `purge`: the data folders removed.
    pub purged: Vec<std::path::PathBuf>,
}

/// Uninstall `names`. Refused while client entries launch their servers or other packages
/// depend on them, unless `force`. Then the skill copies of every removed package go with
/// their records, unless edited by hand. With `purge`, the data folders of `names` go too,
/// except for a version a project still holds (its servers keep their data).
pub fn uninstall(
    ctx: &Context,
    names: &[PackageName],
    force: bool,
    purge: bool,
) -> OpsResult<UninstallReport> {
    agx_clients::refuse_uninstall_while_used(ctx.paths, names, force)?;
    let store = ctx.store();
    let done = {
        let _lock = store.lock(LockMode::Exclusive)?;
        agx_store::remove::uninstall(&store, names, force)?
    };
    let removed: Vec<PackageName> = done.removed.iter().map(|r| r.name.clone()).collect();
    let skills = super::skills::remove_copies_of(ctx, &removed)?;
    let mut purged = Vec::new();
    if purge {
        for r in done
            .removed
            .iter()
            .filter(|r| names.contains(&r.name) && r.kept_for.is_empty())
        {
            let data = ctx.paths.package_data_dir(&r.name);
            if agx_store::remove::purge_data(&data)? {
                purged.push(data);
            }
        }
    }
    Ok(UninstallReport {
        store: done,
        skills,
        purged,
    })
}
