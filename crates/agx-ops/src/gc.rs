//! `agx gc`: remove the versions no root holds, forget the projects that are gone, and
//! remove what ended writers left in staging (docs/store.md, "Roots").

use super::{Context, OpsResult};
use agx_store::gc::{self, GcPlan};

/// What gc removed, or with `dry_run` would remove. Planning reads under the shared lock;
/// only removing takes the exclusive one.
pub fn gc(ctx: &Context, dry_run: bool) -> OpsResult<GcPlan> {
    let store = ctx.store();
    let planned = {
        let _shared = store.lock_shared_if_present()?;
        gc::plan(&store)?
    };
    if dry_run || planned.is_empty() {
        return Ok(planned);
    }
    Ok(gc::apply(&store, planned)?)
}
