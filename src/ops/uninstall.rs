//! Remove installed packages, and the dependencies nothing needs any more, with the skill
//! copies `install-skill` made of them (an edited copy is kept).

use super::{Context, OpsResult};
use crate::name::PackageName;
use crate::store::LockMode;
use crate::store::remove::Uninstalled;

/// What `agx uninstall` did.
#[derive(Debug)]
pub struct UninstallReport {
    pub store: Uninstalled,
    pub skills: super::skills::UninstalledCopies,
}

/// Uninstall `names`. Refused while client entries launch their servers or other packages
/// depend on them, unless `force`. Then the skill copies of every removed package go with
/// their records, unless edited by hand.
pub fn uninstall(ctx: &Context, names: &[PackageName], force: bool) -> OpsResult<UninstallReport> {
    crate::clients::refuse_uninstall_while_used(ctx.paths, names, force)?;
    let store = ctx.store();
    let done = {
        let _lock = store.lock(LockMode::Exclusive)?;
        crate::store::remove::uninstall(&store, names, force)?
    };
    let removed: Vec<PackageName> = done.removed.iter().map(|r| r.name.clone()).collect();
    let skills = super::skills::remove_copies_of(ctx, &removed)?;
    Ok(UninstallReport {
        store: done,
        skills,
    })
}
