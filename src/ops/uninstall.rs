//! Remove installed packages, and the dependencies nothing needs any more.

use super::{Context, OpsResult};
use crate::name::PackageName;
use crate::store::LockMode;
use crate::store::remove::Uninstalled;

/// Uninstall `names`. Refused while client entries launch their servers or other packages
/// depend on them, unless `force`.
pub fn uninstall(ctx: &Context, names: &[PackageName], force: bool) -> OpsResult<Uninstalled> {
    crate::clients::refuse_uninstall_while_used(ctx.paths, names, force)?;
    let store = ctx.store();
    let _lock = store.lock(LockMode::Exclusive)?;
    Ok(crate::store::remove::uninstall(&store, names, force)?)
}
