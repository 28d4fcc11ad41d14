//! Settings while serving: resolved once at start, before the server answers anything, and
//! handed to tools, command prompts, templates, resource commands, completion commands
//! and wrapped servers. A required setting
//! without a value stops the server with the commands that set it. Secret values are
//! known to [`redact`] from then on, so tool stderr never carries them into logs.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::ServeError;
use super::assemble::Assembled;
use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;
use agx_model::settings::{PackageSettings, Redactor, SettingsStore, missing_message};

/// The secrets of this process's server: set once, at start.
static REDACTOR: OnceLock<Redactor> = OnceLock::new();

/// `text` with this server's secret values replaced.
pub fn redact(text: &str) -> Cow<'_, str> {
    match REDACTOR.get() {
        Some(r) => r.redact(text),
        None => Cow::Borrowed(text),
    }
}

/// Resolve the settings of every package the server runs and put them in place.
pub fn resolve(paths: &AgxPaths, assembled: &mut Assembled) -> Result<(), ServeError> {
    let declared = assembled.settings();
    if declared.iter().all(|s| s.settings.is_empty()) {
        return Ok(());
    }
    let served = match assembled {
        Assembled::Native(a) => a.server.clone(),
        Assembled::Wrapped(w) => w.server.clone(),
    };
    let server = format!("server {served}");
    // Project values (agx.toml `[servers.KEY].settings`) apply to the served package when
    // `agx serve` runs inside that project (docs/projects.md, "Settings").
    let project = agx_project::serve_values(&served).map(|(file, values)| ProjectValues {
        package: served.package.clone(),
        file,
        values,
    });
    let resolved = resolve_packages(paths, &declared, &server, project.as_ref())?;
    let of = |package: &PackageName, current: &Arc<PackageSettings>| {
        resolved
            .get(package)
            .cloned()
            .unwrap_or_else(|| current.clone())
    };
    match assembled {
        Assembled::Wrapped(w) => w.settings = of(&w.server.package, &w.settings),
        Assembled::Native(a) => {
            for t in &mut a.tools {
                t.settings = of(&t.qualified.package, &t.settings);
            }
            for p in &mut a.prompts {
                p.settings = of(&p.qualified.package, &p.settings);
            }
            for r in &mut a.resources {
                r.settings = of(&r.qualified.package, &r.settings);
            }
            for step in &mut a.initialization {
                if let Some(r) = resolved.get(&step.package) {
                    step.env.extend(r.env_vars());
                }
            }
        }
    }
    Ok(())
}

/// Resolve the settings of one package for a single run outside a server (`agx call`,
/// `agx prompt`), with the same rules: a missing required setting is an error naming
/// `agx config set`, and its secrets are redacted from the tool's stderr.
pub fn resolve_one(
    paths: &AgxPaths,
    declared: Arc<PackageSettings>,
    what: &str,
) -> Result<Arc<PackageSettings>, ServeError> {
    if declared.settings.is_empty() {
        return Ok(declared);
    }
    let mut resolved = resolve_packages(paths, std::slice::from_ref(&declared), what, None)?;
    Ok(resolved.remove(&declared.package).unwrap_or(declared))
}

/// The project's values for one package's settings.
struct ProjectValues {
    package: PackageName,
    file: std::path::PathBuf,
    values: std::collections::BTreeMap<String, String>,
}

/// Read the stored values of each package once, with the project's over them; fail with
/// every missing required setting; make the secrets known to [`redact`].
fn resolve_packages(
    paths: &AgxPaths,
    declared: &[Arc<PackageSettings>],
    what: &str,
    project: Option<&ProjectValues>,
) -> Result<HashMap<PackageName, Arc<PackageSettings>>, ServeError> {
    let store = SettingsStore::open(paths)?;
    let mut resolved: HashMap<PackageName, Arc<PackageSettings>> = HashMap::new();
    let mut missing = Vec::new();
    for d in declared {
        let mut r = store.resolve(&d.package, &d.declarations())?;
        if let Some(p) = project.filter(|p| p.package == d.package) {
            r.apply_project(&p.values, &p.file)?;
        }
        if r.missing().next().is_some() {
            missing.push(missing_message(&r.package, r.missing()));
        }
        resolved.insert(d.package.clone(), Arc::new(r));
    }
    if !missing.is_empty() {
        return Err(ServeError::MissingSettings {
            what: what.to_string(),
            detail: missing.join("\n"),
        });
    }
    let _ = REDACTOR.set(Redactor::new(
        resolved
            .values()
            .flat_map(|r| r.secret_values().map(str::to_string)),
    ));
    Ok(resolved)
}
