//! `agx audit`: the poisoning scan (docs/security.md) over what is installed — every package
//! in the store (their skills included), one package, or the versions a project's agx.lock
//! holds — with the codes each install accepted.

use std::path::Path;

use serde::Serialize;

use super::project::{ProjectOpError, ProjectResult};
use super::{Context, OpsError};
use agx_core::name::PackageName;
use agx_model::scan::{self, ScanFinding};
use agx_store::{ReceiptHeader, VERSION_RECEIPT};

/// What to audit.
#[derive(Debug, Clone, Copy)]
pub enum AuditTarget<'a> {
    /// Every package the user installed (and their dependencies).
    Installed,
    /// One installed package, the version the user has.
    Package(&'a PackageName),
    /// The packages of a project's agx.lock (the nearest project, or this folder).
    Project(Option<&'a Path>),
}

/// One package's findings.
#[derive(Debug, Clone, Serialize)]
pub struct AuditedPackage {
    pub name: PackageName,
    pub version: semver::Version,
    /// The codes its install accepted (`--accept-finding`).
    pub accepted: Vec<String>,
    pub findings: Vec<ScanFinding>,
}

impl AuditedPackage {
    /// High findings its install did not accept: what `agx serve` hides and a new install
    /// refuses.
    pub fn unaccepted(&self) -> impl Iterator<Item = &ScanFinding> {
        scan::unaccepted(&self.findings, &self.accepted)
    }
}

/// The result of `agx audit`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Audit {
    pub packages: Vec<AuditedPackage>,
    /// Locked packages that are not in the store (`agx sync` installs them).
    pub missing: Vec<String>,
}

impl Audit {
    /// How many high findings no install accepted.
    pub fn unaccepted(&self) -> usize {
        self.packages.iter().map(|p| p.unaccepted().count()).sum()
    }
}

/// Scan what `target` names.
pub fn audit(ctx: &Context, target: AuditTarget<'_>) -> ProjectResult<Audit> {
    let store = ctx.store();
    let mut out = Audit::default();
    let versions: Vec<(PackageName, semver::Version)> = match target {
        AuditTarget::Installed => store
            .list()
            .map_err(OpsError::from)?
            .into_iter()
            .map(|p| (p.name, p.version))
            .collect(),
        AuditTarget::Package(name) => {
            let installed = store.installed(name).map_err(OpsError::from)?;
            let p = installed.ok_or_else(|| OpsError::Unknown { name: name.clone() })?;
            vec![(p.name, p.version)]
        }
        AuditTarget::Project(dir) => {
            let project = super::project::open(dir)?;
            let lock =
                agx_project::lock::LockFile::read(&project.dir)?.ok_or(ProjectOpError::NoLock {
                    dir: project.dir.clone(),
                })?;
            lock.packages
                .into_iter()
                .map(|p| (p.name, p.version))
                .collect()
        }
    };
    for (name, version) in versions {
        let dir = store.package_dir(&name, &version);
        if !dir.is_dir() {
            out.missing.push(format!("{name} {version}"));
            continue;
        }
        let package = agx_model::manifest::load_installed(&dir)
            .map_err(|e| OpsError::from(agx_store::StoreError::Load(Box::new(e))))?;
        // The version's own receipt: a project's version has no user receipt.
        let accepted = ReceiptHeader::read(&dir.join(VERSION_RECEIPT))
            .map(|r| r.accepted_findings)
            .unwrap_or_default();
        out.packages.push(AuditedPackage {
            findings: scan::scan_package(&package),
            name,
            version,
            accepted,
        });
    }
    Ok(out)
}
