//! `agx install`.

use std::collections::BTreeMap;
use std::path::Path;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use super::Context;
use crate::cli::InstallArgs;
use crate::error::{CliError, CliResult};
use crate::index::Registry;
use crate::name::{PackageName, PackageSpec};
use crate::store::install::{Outcome, Progress};
use crate::store::{InstallOptions, Installer, LocalSource, LockMode, Root, Store, StoreError};
use crate::ui;

pub fn run(ctx: &Context, args: &InstallArgs) -> CliResult {
    let store = Store::open(ctx.paths()?);
    let mut specs = Vec::new();
    let mut locals = Vec::new();
    for arg in &args.packages {
        match classify(arg)? {
            Target::Spec(spec) => specs.push(spec),
            Target::Local(local) => locals.push(local),
        }
    }
    if locals.is_empty() && !args.force && all_installed(&store, &specs)? {
        return Ok(());
    }

    let _lock = store.lock(LockMode::Exclusive)?;
    let mut progress = CliProgress::new();
    let mut installer = Installer {
        store: &store,
        progress: &mut progress,
    };
    let options = InstallOptions { force: args.force };
    let mut prepared = Vec::new();
    for local in &locals {
        prepared.push(installer.prepare_local(local)?);
    }

    let mut roots: Vec<Root> = specs
        .iter()
        .map(|spec| Root {
            spec: spec.clone(),
            // Files gone behind a receipt's back: install again.
            force: args.force
                || matches!(store.installed(&spec.name), Err(StoreError::Damaged { .. })),
        })
        .collect();
    let explicit: BTreeMap<PackageName, semver::VersionReq> = specs
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                s.req.clone().unwrap_or(semver::VersionReq::STAR),
            )
        })
        .collect();
    // A local package's dependencies come from the registry, installed before it.
    for p in &prepared {
        for (dep, req) in &p.package().manifest.dependencies {
            if !explicit.contains_key(dep) {
                roots.push(Root {
                    spec: PackageSpec {
                        name: dep.clone(),
                        req: Some(req.clone()),
                    },
                    force: false,
                });
            }
        }
    }
    if !roots.is_empty() {
        let registry = open_registry(ctx)?;
        let installed = store
            .list()?
            .into_iter()
            .map(|p| (p.name, p.receipt))
            .collect();
        let plan = crate::store::plan::plan(&registry, &installed, &roots)?;
        for warning in &plan.warnings {
            ui::warn(warning);
        }
        installer.apply(&registry, &plan, &explicit)?;
    }
    for p in prepared {
        installer.commit_local(p, options)?;
    }
    Ok(())
}

/// The no-network fast path: every requested package is installed, explicitly, at a version
/// its requirement accepts. Says so and returns true.
fn all_installed(store: &Store, specs: &[PackageSpec]) -> CliResult<bool> {
    let mut found = Vec::new();
    for spec in specs {
        match store.installed(&spec.name) {
            Ok(Some(p))
                if p.receipt.explicit
                    && spec.req.as_ref().is_none_or(|r| r.matches(&p.version)) =>
            {
                found.push(p)
            }
            _ => return Ok(false),
        }
    }
    for p in found {
        report(&p.name, &p.version, &Outcome::AlreadyInstalled);
    }
    Ok(true)
}

enum Target {
    Spec(PackageSpec),
    Local(LocalSource),
}

/// A command-line argument is a local package when it looks like a path (`./x`, `/x`, `x.tar.gz`)
/// or is not a package spec but names an existing file or folder.
fn classify(arg: &str) -> CliResult<Target> {
    let looks_like_path = arg.starts_with('.')
        || arg.starts_with('/')
        || arg.starts_with('~')
        || arg.contains('\\')
        || arg.ends_with(".tar.gz")
        || arg.ends_with(".tgz");
    let spec = if looks_like_path {
        None
    } else {
        match PackageSpec::parse(arg) {
            Ok(spec) => return Ok(Target::Spec(spec)),
            Err(e) if !Path::new(arg).exists() => {
                let hint = format!(
                    "expected {}, or the path of a package folder or .tar.gz file",
                    e.expected_form()
                );
                return Err(CliError::from_error(&e).with_hint(hint));
            }
            Err(e) => Some(e),
        }
    };
    let path = Path::new(arg);
    let meta = std::fs::metadata(path).map_err(|e| {
        CliError::new(format!("cannot install `{arg}`: {e}")).with_hint(match spec {
            Some(_) => "give the path of a package folder (with agx.toml) or a .tar.gz made by `agx pack`".to_string(),
            None => "give the path of a package folder (with agx.toml) or a .tar.gz made by `agx pack`, or a package name such as `acme/weather`".to_string(),
        })
    })?;
    Ok(Target::Local(if meta.is_dir() {
        LocalSource::Dir(path.to_path_buf())
    } else {
        LocalSource::Tarball(path.to_path_buf())
    }))
}

/// The registry chosen by `--registry`, `AGX_REGISTRY` or the config file.
pub(crate) fn open_registry(ctx: &Context) -> CliResult<Registry> {
    Ok(crate::index::open(
        ctx.global.registry.as_deref(),
        ctx.global.offline,
        ctx.paths()?,
    )?)
}

/// The status line for one package (stderr; stdout carries only results).
pub(crate) fn report(name: &PackageName, version: &semver::Version, outcome: &Outcome) {
    match outcome {
        Outcome::Installed => ui::status("Installed", &format!("{name} v{version}")),
        Outcome::Reinstalled => ui::status("Reinstalled", &format!("{name} v{version}")),
        Outcome::Replaced { previous } => {
            ui::status("Updated", &format!("{name} v{previous} -> v{version}"))
        }
        Outcome::AlreadyInstalled => ui::status(
            "Installed",
            &format!("{name} v{version} (already installed; --force reinstalls it)"),
        ),
    }
}

/// Download bars (bytes, rate, ETA) on a terminal; status lines otherwise.
pub(crate) struct CliProgress {
    bars: Option<MultiProgress>,
    current: Option<ProgressBar>,
}

impl CliProgress {
    pub(crate) fn new() -> Self {
        CliProgress {
            bars: ui::progress_enabled().then(MultiProgress::new),
            current: None,
        }
    }
}

impl Progress for CliProgress {
    fn start_download(&mut self, name: &PackageName, version: &semver::Version, size: u64) {
        ui::verbose(&format!("downloading {name} v{version} ({size} bytes)"));
        let Some(bars) = &self.bars else { return };
        let bar = bars.add(ProgressBar::new(size));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>12.cyan.bold} {msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} ETA {eta}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix("Downloading");
        bar.set_message(format!("{name} v{version}"));
        self.current = Some(bar);
    }

    fn downloaded(&mut self, bytes: u64) {
        if let Some(bar) = &self.current {
            bar.set_position(bytes);
        }
    }

    fn finish_download(&mut self) {
        if let Some(bar) = self.current.take() {
            bar.finish_and_clear();
        }
    }

    fn done(&mut self, name: &PackageName, version: &semver::Version, outcome: &Outcome) {
        match &self.bars {
            Some(bars) => bars.suspend(|| report(name, version, outcome)),
            None => report(name, version, outcome),
        }
    }
}
