//! `agx outdated`.

use std::collections::BTreeMap;

use super::Context;
use super::install::open_registry;
use crate::cli::JsonArgs;
use crate::error::CliResult;
use crate::name::PackageName;
use crate::store::{InstalledPackage, Store};
use crate::ui;

pub fn run(ctx: &Context, args: &JsonArgs) -> CliResult {
    let store = Store::open(ctx.paths()?);
    let _lock = store.lock_shared_if_present()?;
    let installed: BTreeMap<PackageName, InstalledPackage> = store
        .list()?
        .into_iter()
        .map(|p| (p.name.clone(), p))
        .collect();
    let targets: Vec<&InstalledPackage> = installed
        .values()
        .filter(|p| p.receipt.source.is_registry())
        .collect();
    let checks = if targets.is_empty() {
        Vec::new()
    } else {
        let registry = open_registry(ctx)?;
        crate::store::update::check(&registry, &installed, &targets)?
    };
    let outdated: Vec<_> = checks.into_iter().filter(|c| c.is_outdated()).collect();

    if args.json {
        let rows: Vec<_> = outdated
            .iter()
            .map(|c| {
                serde_json::json!({
                    "name": c.name,
                    "current": c.current.to_string(),
                    "wanted": c.wanted.to_string(),
                    "latest": c.latest.to_string(),
                    "explicit": installed[&c.name].receipt.explicit,
                })
            })
            .collect();
        println!("{}", serde_json::json!({ "packages": rows }));
        return Ok(());
    }
    if outdated.is_empty() {
        ui::status(
            "Checked",
            &format!("{} package(s): all up to date", targets.len()),
        );
        return Ok(());
    }
    let width = outdated
        .iter()
        .map(|c| c.name.to_string().len())
        .max()
        .unwrap_or(0)
        .max("package".len());
    println!(
        "{:width$}  {:10} {:10} latest",
        "package", "current", "wanted"
    );
    for c in &outdated {
        println!(
            "{:width$}  {:10} {:10} {}",
            c.name.to_string(),
            c.current.to_string(),
            c.wanted.to_string(),
            c.latest
        );
    }
    Ok(())
}
