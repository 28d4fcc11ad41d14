//! Rank the registry's catalog for a query (discovery: reads index metadata only).

use super::{Context, OpsResult};
use crate::index::{Catalog, search};

/// The catalog searched and where it came from; [`Searched::hits`] ranks it.
pub struct Searched {
    pub query: String,
    /// The registry's source (URL or folder).
    pub registry: String,
    catalog: Catalog,
}

impl Searched {
    /// Matching packages, best first.
    pub fn hits(&self) -> Vec<search::Hit<'_>> {
        search::search(&self.catalog.packages, &self.query)
    }
}

pub fn search(ctx: &Context, query: &str) -> OpsResult<Searched> {
    let registry = ctx.open_registry()?;
    let catalog = registry.catalog()?;
    Ok(Searched {
        query: query.to_string(),
        registry: registry.source().to_string(),
        catalog,
    })
}
