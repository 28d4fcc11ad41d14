//! Install transactions, in two halves. Staging, without the store lock: for each package,
//! download into this process's staging folder while hashing (the registry verifies size
//! and sha256), unpack from the verified file, and check that the archive holds the package
//! it claims. Committing, under the exclusive lock: mark each package complete, rename it
//! into place, and write its receipt last. A crash at any step leaves the previous receipt,
//! and therefore the previous state, valid; the next writer cleans the leftovers.
//! Nothing here runs package code.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

mod ownership;
pub mod plan;
pub mod update;

pub use ownership::imported_from;

pub use plan::{PackageSource, Plan, PlanError, PlannedInstall, Root};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agx_core::fsutil;
use agx_core::name::PackageName;
pub use agx_core::report::Outcome;
use agx_core::report::Reporter;
use agx_model::manifest::Package;
use agx_sources::ecosystem::{EcosystemError, Provisioned};
use agx_sources::index::{ArchiveForm, IndexEntry};
use agx_sources::plugins::import::{Imported, PluginOrigin};
use agx_store::{
    COMPLETE_MARKER, Receipt, Source, Staging, Store, StoreError, VERSION_RECEIPT, now_rfc3339,
};

/// Where a downloaded Sigstore bundle waits in a package's staging folder, beside the
/// unpacked `package/` it is moved into.
const BUNDLE_IN_STAGE: &str = "provenance.sigstore.json";

#[derive(Debug, Clone, Copy, Default)]
pub struct InstallOptions {
    /// Reinstall even when the same version is installed.
    pub force: bool,
}

/// The result of an install or update, one line per package.
#[derive(Debug, Clone, Default)]
pub struct InstallReport {
    pub packages: Vec<(PackageName, semver::Version, Outcome)>,
}

/// A package folder or `.tar.gz` on this machine.
#[derive(Debug, Clone)]
pub enum LocalSource {
    Dir(PathBuf),
    Tarball(PathBuf),
}

impl LocalSource {
    pub fn path(&self) -> &Path {
        match self {
            LocalSource::Dir(p) | LocalSource::Tarball(p) => p,
        }
    }
}

/// A package of any source kind in staging that came through the one gate
/// ([`Installer::admit`]): the poisoning scan, then the organisation's policy with what the
/// receipt will record (source and signer). Committing and placing take only this type, so
/// no kind of source can put a package in place without those checks. Dropping it removes
/// its staging folder.
pub struct Prepared {
    package: Package,
    /// The checksum its receipt records: the registry's, the archive's (a local package) or
    /// the ecosystem's own hashes (a provisioned one; see [`integrity_sha256`]).
    sha256: String,
    /// Where it came from, as its receipt records it.
    source: Source,
    /// Who built it and what trust on first use decided; `None` when its source kind is
    /// not checked.
    provenance: Option<agx_store::provenance::Provenance>,
    kind: Kind,
    /// Held for its `Drop`: removes the staging folder when not committed.
    _stage: StageGuard,
}

/// What committing a prepared package does beyond the common steps.
enum Kind {
    /// From an agx registry: its receipt's requirement comes from the plan.
    Registry,
    /// A folder or tarball on this machine; `wrapped` when it is a folder of skills agx made
    /// a package of (named after the folder, so another folder must not take the name).
    Local { origin: PathBuf, wrapped: bool },
    /// Provisioned from npm, PyPI, OCI, MCPB, an MCP registry entry or a marketplace's
    /// plugin: gets a fresh data folder when put in place; a plugin may only replace what
    /// the same marketplace's plugin installed.
    Provisioned { plugin: Option<PluginOrigin> },
}

/// What a source kind produced in staging, before the gate.
struct Fetched {
    package: Package,
    sha256: String,
    source: Source,
    provenance: Option<agx_store::provenance::Provenance>,
    kind: Kind,
    stage: StageGuard,
}

impl Prepared {
    /// The package to install.
    pub fn package(&self) -> &Package {
        &self.package
    }

    /// The checksum its receipt records.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The marketplace plugin it was imported as, whose installs only that plugin may replace.
    fn plugin(&self) -> Option<&PluginOrigin> {
        match &self.kind {
            Kind::Provisioned { plugin } => plugin.as_ref(),
            Kind::Registry | Kind::Local { .. } => None,
        }
    }

    /// Its receipt, recording `requested` and whether the user asked for it.
    fn receipt(&self, record: (semver::VersionReq, bool)) -> Receipt {
        let mut receipt = new_receipt(
            &self.package,
            self.sha256.clone(),
            self.source.clone(),
            record,
        );
        receipt.provenance = self.provenance.clone();
        receipt
    }
}

/// A new staging folder, removed when dropped: preparing can fail at any step, and a
/// prepared package not committed leaves nothing behind (committing moves the package out
/// and removes the folder itself).
struct StageGuard(PathBuf);

impl StageGuard {
    fn new(staging: &Staging, prefix: &str) -> Result<Self, StoreError> {
        Ok(StageGuard(staging.new_dir(prefix)?))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for StageGuard {
    fn drop(&mut self) {
        let _ = fsutil::remove_tree(&self.0);
    }
}

/// A plan whose packages are downloaded, unpacked and checked in staging, in plan order.
pub struct StagedPlan {
    plan: Plan,
    packages: Vec<Prepared>,
}

impl StagedPlan {
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The packages this plan puts in place, as read from staging.
    pub fn packages(&self) -> impl Iterator<Item = &Package> {
        self.packages.iter().map(|p| &p.package)
    }
}

/// Stages and commits install plans on a store. Staging needs no lock; committing needs
/// the exclusive one (see [`Store::prepare_then_commit`]).
pub struct Installer<'a> {
    pub store: &'a Store,
    pub reporter: &'a dyn Reporter,
    /// Codes of the poisoning scan's high findings to install anyway (`--accept-finding`);
    /// any other high finding refuses the package before anything is in place.
    pub accept: &'a [String],
    /// The organisation's policy: a package it refuses is refused before anything is in
    /// place (docs/policy.md).
    pub policy: &'a agx_store::PolicyGate,
    /// Which changes of a package's signer this run accepts (trust on first use).
    pub signer_changes: agx_store::provenance::SignerChanges,
    /// For a project's locked install: the signer the lock records for each package
    /// (`None`: unsigned when locked), which a download must match instead of what this
    /// machine's receipts trust; no change is allowed (`agx lock` records one).
    pub locked_signers: Option<BTreeMap<PackageName, Option<agx_store::provenance::Signer>>>,
}

impl Installer<'_> {
    /// Download, unpack and check every package of `plan` in `staging`, reusing what
    /// `previous` staged for the same bytes. Touches nothing in the store.
    pub fn stage(
        &self,
        source: &dyn PackageSource,
        plan: Plan,
        staging: &Staging,
        previous: Option<StagedPlan>,
    ) -> Result<StagedPlan, StoreError> {
        let mut reusable = previous.map(|p| p.packages).unwrap_or_default();
        let mut packages = Vec::new();
        for planned in &plan.installs {
            // The same version with the same bytes, staged by an earlier plan.
            let same = |p: &Prepared| {
                p.package.name() == &planned.entry.name
                    && p.package.version() == &planned.entry.vers
                    && p.sha256 == planned.entry.cksum
            };
            let staged = match reusable.iter().position(same) {
                Some(i) => reusable.swap_remove(i),
                None => self.stage_download(source, planned, staging)?,
            };
            packages.push(staged);
        }
        Ok(StagedPlan { plan, packages })
    }

    /// Put every package of a staged plan in place (dependencies first), then record the
    /// explicitly requested roots. `explicit` maps each root to the requirement its receipt
    /// records. The caller holds the exclusive lock.
    pub fn apply(
        &self,
        staged: StagedPlan,
        explicit: &BTreeMap<PackageName, semver::VersionReq>,
    ) -> Result<InstallReport, StoreError> {
        let StagedPlan { plan, packages } = staged;
        let mut report = InstallReport::default();
        for (planned, staged) in plan.installs.iter().zip(packages) {
            let outcome = self.commit_staged(planned, staged, explicit)?;
            self.reporter
                .package_done(&planned.entry.name, &planned.entry.vers, &outcome);
            report.packages.push((
                planned.entry.name.clone(),
                planned.entry.vers.clone(),
                outcome,
            ));
        }
        for (name, version) in &plan.kept {
            // Dependencies of a package installed whole are roots too, but the user did not
            // name them.
            let Some(req) = explicit.get(name) else {
                continue;
            };
            self.mark_explicit(name, req)?;
            let outcome = Outcome::AlreadyInstalled;
            self.reporter.package_done(name, version, &outcome);
            report
                .packages
                .push((name.clone(), version.clone(), outcome));
        }
        Ok(report)
    }

    fn stage_download(
        &self,
        source: &dyn PackageSource,
        planned: &PlannedInstall,
        staging: &Staging,
    ) -> Result<Prepared, StoreError> {
        let stage = StageGuard::new(staging, "install")?;
        let entry = &planned.entry;
        let dir = stage.path();
        let archive = dir.join("package.tar.gz");
        self.reporter
            .start_download(&entry.name, &entry.vers, entry.size);
        let mut report_bytes = |n| self.reporter.downloaded(n);
        let downloaded = source.download(entry, &archive, &mut report_bytes);
        self.reporter.finish_download();
        downloaded?;
        // Before anything of the archive is unpacked: a bundle that does not verify, or a
        // signer other than the trusted one, refuses the version here.
        let trusted = self.trusted_signer(&entry.name)?;
        let signer = source.provenance(
            entry,
            &archive,
            &dir.join(BUNDLE_IN_STAGE),
            trusted.as_ref(),
        )?;
        let provenance = self.trust_on_first_use(&entry.name, &entry.vers, signer)?;
        let what = format!("the archive of {} {}", entry.name, entry.vers);
        let package = match source.archive_form(entry) {
            ArchiveForm::Package => unpack_checked(&archive, dir, &what, true)?,
            form @ (ArchiveForm::Skill | ArchiveForm::SkillFile) => {
                unpack_skill(&archive, form, dir, entry, &what, &source.source())?
            }
        };
        if package.name() != &entry.name || package.version() != &entry.vers {
            return Err(StoreError::WrongPackage {
                expected: format!("{} {}", entry.name, entry.vers),
                found: format!("{} {}", package.name(), package.version()),
            });
        }
        self.admit(Fetched {
            package,
            sha256: entry.cksum.clone(),
            source: Source::Registry {
                registry: source.source(),
                verified: source.verified(),
            },
            provenance: Some(provenance),
            kind: Kind::Registry,
            stage,
        })
    }

    /// The one gate between a source and the store, for every kind: the poisoning scan
    /// (docs/security.md), then the organisation's policy on the package, the source its
    /// receipt will record and who signed it (docs/policy.md). Only what passes becomes a
    /// [`Prepared`], the one thing committing and placing take.
    fn admit(&self, fetched: Fetched) -> Result<Prepared, StoreError> {
        let Fetched {
            package,
            sha256,
            source,
            provenance,
            kind,
            stage,
        } = fetched;
        let findings = agx_model::scan::scan_package(&package);
        let what = format!("{} {}", package.name(), package.version());
        scan_gate(&what, &findings, self.accept, self.reporter)?;
        self.policy
            .check_package(&package, &source, provenance.as_ref())?;
        Ok(Prepared {
            package,
            sha256,
            source,
            provenance,
            kind,
            _stage: stage,
        })
    }

    /// The signer `name`'s next version is held to: the one agx.lock records in a locked
    /// install, else the one trust on first use recorded in its receipt.
    pub fn trusted_signer(
        &self,
        name: &PackageName,
    ) -> Result<Option<agx_store::provenance::Signer>, StoreError> {
        Ok(match &self.locked_signers {
            Some(locked) => locked.get(name).cloned().flatten(),
            None => self
                .current_receipt(name)?
                .and_then(|r| r.provenance)
                .and_then(|p| p.trusted),
        })
    }

    /// The provenance to record for `version` of `name`, signed by `signer` (`None`:
    /// unsigned): checked against what agx.lock records in a locked install, else against
    /// the installed version's signer (trust on first use; docs/security.md).
    fn trust_on_first_use(
        &self,
        name: &PackageName,
        version: &semver::Version,
        signer: Option<agx_store::provenance::Signer>,
    ) -> Result<agx_store::provenance::Provenance, StoreError> {
        use agx_store::provenance::{Basis, Provenance, decide};
        match &self.locked_signers {
            Some(locked) => {
                let expected = Provenance {
                    trusted: locked.get(name).cloned().flatten(),
                    ..Default::default()
                };
                decide(
                    name,
                    version,
                    (Some(&expected), Basis::Lock),
                    signer,
                    Default::default(),
                )
            }
            None => {
                let previous = self.current_receipt(name)?;
                decide(
                    name,
                    version,
                    (
                        previous.as_ref().and_then(|r| r.provenance.as_ref()),
                        Basis::InstalledVersion,
                    ),
                    signer,
                    self.signer_changes,
                )
            }
        }
    }

    fn commit_staged(
        &self,
        planned: &PlannedInstall,
        staged: Prepared,
        explicit: &BTreeMap<PackageName, semver::VersionReq>,
    ) -> Result<Outcome, StoreError> {
        let entry = &planned.entry;
        let previous = self.current_receipt(&entry.name)?;
        let receipt = staged.receipt(record_as(
            &entry.name,
            &planned.requested,
            explicit,
            previous.as_ref(),
        ));
        self.commit(&staged.package.dir, &receipt, previous.as_ref())
    }

    /// First half of a local install: validate the folder (packing it) or the tarball, and
    /// unpack it into staging. Nothing is in place until [`Installer::commit_prepared`].
    pub fn prepare_local(
        &self,
        local: &LocalSource,
        staging: &Staging,
    ) -> Result<Prepared, StoreError> {
        let stage = StageGuard::new(staging, "install")?;
        let stage_dir = stage.path();
        let origin = std::path::absolute(local.path()).unwrap_or_else(|_| local.path().into());
        let mut wrapped = false;
        let sha256;
        let archive = match local {
            LocalSource::Dir(dir) => {
                // A Claude Code plugin is imported as a marketplace's plugin is; skills
                // without agx.toml are wrapped in a generated package.
                let plugin = agx_sources::plugins::import::is_plugin_folder(dir);
                let generated = match agx_model::skills::wrap::detect(dir) {
                    _ if plugin => {
                        let into = stage_dir.join("plugin");
                        for warning in agx_sources::plugins::import::import_folder(dir, &into)? {
                            self.reporter.warn(&warning);
                        }
                        Some(into)
                    }
                    Some(what) => {
                        // Skills with an error are left out, as clients skip them; the
                        // rest install.
                        let (what, report, left_out) =
                            agx_model::skills::wrap::check_each(dir, &what)?;
                        if report.has_errors() {
                            return Err(agx_model::manifest::LoadError {
                                dir: dir.clone(),
                                findings: report.errors().cloned().collect(),
                            }
                            .into());
                        }
                        for skill in &left_out {
                            self.reporter.warn(&format!(
                                "left out {}/{}: {} (`agx validate {}` shows every finding)",
                                dir.display(),
                                skill.folder,
                                skill.why,
                                dir.join(&skill.folder).display()
                            ));
                        }
                        let into = stage_dir.join("wrapped");
                        agx_model::skills::wrap::wrap(dir, &what, &into)?;
                        wrapped = true;
                        Some(into)
                    }
                    None => None,
                };
                let package =
                    agx_model::manifest::load_package(generated.as_deref().unwrap_or(dir))?;
                let packed = agx_archive::pack_dir(
                    &package.dir,
                    package.name(),
                    package.version(),
                    stage_dir,
                )
                .map_err(|source| StoreError::Archive {
                    name: dir.display().to_string(),
                    source,
                })?;
                sha256 = packed.sha256;
                packed.path
            }
            LocalSource::Tarball(file) => {
                sha256 = agx_archive::sha256_file(file)?;
                file.clone()
            }
        };
        let what = local.path().display().to_string();
        let package = unpack_checked(&archive, stage_dir, &what, false)?;
        self.admit(Fetched {
            package,
            sha256,
            source: Source::Local {
                path: origin.display().to_string(),
            },
            provenance: None,
            kind: Kind::Local { origin, wrapped },
            stage,
        })
    }

    /// First half of an npm or PyPI install: provision the package into staging and check
    /// the generated package. Runs npm or pip, never the package's own code (unless
    /// `options` allow install scripts or sdists).
    pub fn prepare_ecosystem(
        &self,
        spec: &agx_sources::ecosystem::EcosystemSpec,
        staging: &Staging,
        mut options: agx_sources::ecosystem::ProvisionOptions,
    ) -> Result<Prepared, StoreError> {
        options.trusted = self.trusted_signer(&spec.name)?;
        self.prepare_provisioned(&spec.to_string(), staging, |stage| {
            agx_sources::ecosystem::provision(spec, stage, options)
        })
    }

    /// [`Installer::prepare_ecosystem`] for any provisioner (an MCP registry entry):
    /// `provision` fills a fresh staging folder, which is removed if anything fails.
    pub fn prepare_provisioned(
        &self,
        what: &str,
        staging: &Staging,
        provision: impl FnOnce(&Path) -> Result<Provisioned, EcosystemError>,
    ) -> Result<Prepared, StoreError> {
        self.provisioned(what, staging, |stage| Ok((provision(stage)?, None)))
    }

    /// [`Installer::prepare_provisioned`] for a marketplace's plugin: `import` fills the
    /// staging folder and says which plugin of which marketplace it is, which the receipt
    /// records instead of an ecosystem spec.
    pub fn prepare_plugin(
        &self,
        what: &str,
        staging: &Staging,
        import: impl FnOnce(&Path) -> Result<Imported, EcosystemError>,
    ) -> Result<Prepared, StoreError> {
        self.provisioned(what, staging, |stage| {
            let imported = import(stage)?;
            Ok((imported.provisioned, Some(imported.origin)))
        })
    }

    fn provisioned(
        &self,
        what: &str,
        staging: &Staging,
        provision: impl FnOnce(&Path) -> Result<(Provisioned, Option<PluginOrigin>), EcosystemError>,
    ) -> Result<Prepared, StoreError> {
        let stage = StageGuard::new(staging, "provision")?;
        let (provisioned, plugin) = provision(stage.path())?;
        for warning in &provisioned.warnings {
            self.reporter.warn(warning);
        }
        let package = load_checked(&provisioned.dir, what, false)?;
        let provenance = match provisioned.built_by {
            // Not checked this time (another host, a private image): after a signed
            // version, that is no signature, which trust on first use refuses unless
            // allowed; before any, nothing is recorded.
            agx_sources::ecosystem::BuiltBy::NotChecked => {
                Some(self.trust_on_first_use(package.name(), package.version(), None)?)
                    .filter(|p| p.trusted.is_some())
            }
            agx_sources::ecosystem::BuiltBy::Checked(signer) => {
                Some(self.trust_on_first_use(package.name(), package.version(), signer)?)
            }
        };
        let source = match &plugin {
            Some(plugin) => Source::Plugin {
                reference: plugin.reference.clone(),
                marketplace: plugin.marketplace.clone(),
                location: plugin.location.clone(),
                revision: plugin.revision.clone(),
            },
            None => Source::Ecosystem {
                spec: provisioned.exact,
                integrity: provisioned.integrity.clone(),
                entry: provisioned.origin,
                served_by: provisioned.served_by,
            },
        };
        let prepared = self.admit(Fetched {
            package,
            sha256: integrity_sha256(&provisioned.integrity),
            source,
            provenance,
            kind: Kind::Provisioned { plugin },
            stage,
        })?;
        if let Some(scripts) = &provisioned.install_scripts {
            // Accepted: now the package's own install scripts may run (--allow-scripts).
            // They run as the user, but may not rewrite the manifest just checked.
            let manifest = provisioned
                .dir
                .join(agx_model::manifest::load::MANIFEST_FILE);
            let checked = fs_err::read(&manifest)?;
            scripts.run(&provisioned.dir)?;
            if fs_err::read(&manifest).ok().as_ref() != Some(&checked) {
                return Err(StoreError::ScriptChangedManifest {
                    what: what.to_string(),
                    file: agx_model::manifest::load::MANIFEST_FILE,
                });
            }
        }
        Ok(prepared)
    }

    /// Second half of a local or provisioned install: put the prepared package in place,
    /// recorded as asked for by the user at its exact version. A local package with the same version and bytes
    /// as the installed one is a no-op, unless `force`.
    pub fn commit_prepared(
        &self,
        prepared: Prepared,
        options: InstallOptions,
    ) -> Result<Outcome, StoreError> {
        let (name, version) = (
            prepared.package.name().clone(),
            prepared.package.version().clone(),
        );
        let previous = self.current_receipt(&name)?;
        let outcome = match &prepared.kind {
            Kind::Local { origin, wrapped } => {
                if *wrapped && !options.force {
                    ownership::check_skill_folder(
                        &name,
                        origin,
                        previous.as_ref().map(|p| &p.source),
                    )?;
                }
                match &previous {
                    Some(prev)
                        if !options.force
                            && prev.version == version
                            && prev.sha256 == prepared.sha256 =>
                    {
                        if !prev.explicit {
                            self.mark_explicit(&name, &prev.requested)?;
                        }
                        Outcome::AlreadyInstalled
                    }
                    _ => self.commit(
                        &prepared.package.dir,
                        &prepared.receipt((exact_requirement(&version), true)),
                        previous.as_ref(),
                    )?,
                }
            }
            Kind::Provisioned { .. } | Kind::Registry => {
                if let Some(plugin) = prepared.plugin() {
                    // Under the lock, so nothing installs the name in between.
                    ownership::check(plugin, &name, previous.as_ref().map(|r| &r.source))?;
                }
                let receipt = prepared.receipt((exact_requirement(&version), true));
                let outcome = self.commit(&prepared.package.dir, &receipt, previous.as_ref())?;
                self.after_put_in_place(&prepared, &receipt)?;
                outcome
            }
        };
        self.reporter.package_done(&name, &version, &outcome);
        Ok(outcome)
    }

    /// What a provisioned package needs once in place: a fresh data folder.
    fn after_put_in_place(&self, prepared: &Prepared, receipt: &Receipt) -> Result<(), StoreError> {
        match prepared.kind {
            Kind::Provisioned { .. } => self.start_data(&prepared.package, receipt),
            Kind::Registry | Kind::Local { .. } => Ok(()),
        }
    }

    /// Give a version just put in place a fresh data folder: a reinstalled version's caches
    /// are dropped, and the Node version its `node` servers run on is recorded now, so no
    /// start has to ask (docs/ecosystem.md, "Compiled-code caches").
    fn start_data(&self, package: &Package, receipt: &Receipt) -> Result<(), StoreError> {
        let dir = self.store.package_dir(&receipt.name, &receipt.version);
        let Some(data) = self.store.data_dir_of(&dir) else {
            return Ok(());
        };
        self.store.discard_data(&data)?;
        let runs_node = package.servers.iter().any(|server| {
            server
                .command
                .as_deref()
                .is_some_and(agx_runtime::code_cache::runs_node)
        });
        if runs_node && let Err(e) = agx_runtime::code_cache::record_node(&data) {
            // The first start records it instead.
            self.reporter.warn(&format!(
                "cannot record the Node version of {} {}: {e}",
                receipt.name, receipt.version
            ));
        }
        Ok(())
    }

    /// Record that the user asked for an already installed package.
    fn mark_explicit(
        &self,
        name: &PackageName,
        req: &semver::VersionReq,
    ) -> Result<(), StoreError> {
        if let Some(mut receipt) = self.current_receipt(name)?
            && !receipt.explicit
        {
            receipt.explicit = true;
            receipt.requested = req.clone();
            receipt.write(&self.store.receipt_path(name))?;
        }
        Ok(())
    }

    /// A damaged receipt counts as none, so installing the package repairs it.
    fn current_receipt(&self, name: &PackageName) -> Result<Option<Receipt>, StoreError> {
        self.store.readable_receipt(name)
    }

    /// Move the unpacked, verified folder into place and write the user's receipt; then
    /// remove the files of the version it replaced, unless a project still holds them.
    fn commit(
        &self,
        unpacked: &Path,
        receipt: &Receipt,
        previous: Option<&Receipt>,
    ) -> Result<Outcome, StoreError> {
        self.put_in_place(unpacked, receipt)?;
        receipt.write(&self.store.receipt_path(&receipt.name))?;
        Ok(match previous {
            Some(prev) if prev.version != receipt.version => {
                self.store.release_user_version(prev)?;
                Outcome::Replaced {
                    previous: prev.version.clone(),
                }
            }
            Some(_) => Outcome::Reinstalled,
            None => Outcome::Installed,
        })
    }

    /// Write the version's receipt and completion marker into the unpacked folder, then
    /// rename it into `store-v1/<publisher>/<name>/<version>/`, and remove its staging
    /// folder. Whoever holds the version records that afterwards.
    fn put_in_place(&self, unpacked: &Path, receipt: &Receipt) -> Result<(), StoreError> {
        // A registry package's bundle, kept with the version for `agx verify`.
        let bundle = unpacked.with_file_name(BUNDLE_IN_STAGE);
        if bundle.is_file() {
            fs_err::rename(&bundle, unpacked.join(agx_store::PROVENANCE_BUNDLE))?;
            let subject = agx_store::provenance::subject_beside(&bundle);
            if subject.is_file() {
                fs_err::rename(&subject, unpacked.join(agx_store::PROVENANCE_SUBJECT))?;
            }
        }
        receipt.write(&unpacked.join(VERSION_RECEIPT))?;
        fs_err::write(unpacked.join(COMPLETE_MARKER), receipt.sha256.as_bytes())?;
        let target = self.store.package_dir(&receipt.name, &receipt.version);
        // Same version again: an atomic exchange, so the folder never goes missing.
        let exchanged = fsutil::replace_dir(unpacked, &target)?;
        if exchanged {
            fsutil::remove_tree(unpacked)?;
        }
        // Read-only once in place (a folder moved to another parent must be writable).
        fsutil::make_read_only(&target)?;
        let stage = unpacked.parent().unwrap_or(unpacked);
        Ok(fsutil::remove_tree(stage)?)
    }

    /// Put every package of a staged plan in place for a project's lock, without touching
    /// the user's receipts. The caller holds the exclusive lock and records the project
    /// root afterwards.
    pub fn place_staged(
        &self,
        staged: StagedPlan,
    ) -> Result<Vec<(PackageName, semver::Version)>, StoreError> {
        let StagedPlan { plan, packages } = staged;
        let mut placed = Vec::new();
        for (planned, staged) in plan.installs.iter().zip(packages) {
            placed.push(self.place_as(staged, planned.requested.clone())?);
        }
        Ok(placed)
    }

    /// [`Installer::place_staged`] for a prepared local or provisioned package.
    pub fn place(&self, prepared: Prepared) -> Result<(), StoreError> {
        let requested = exact_requirement(prepared.package.version());
        self.place_as(prepared, requested).map(drop)
    }

    fn place_as(
        &self,
        prepared: Prepared,
        requested: semver::VersionReq,
    ) -> Result<(PackageName, semver::Version), StoreError> {
        let receipt = prepared.receipt((requested, false));
        if let Some(plugin) = prepared.plugin() {
            // A project's import must not swap the files of a version another source put
            // there either.
            let there = self.store.version_receipt(&receipt.name, &receipt.version);
            ownership::check(plugin, &receipt.name, there.as_ref().map(|r| &r.source))?;
        }
        self.put_in_place(&prepared.package.dir, &receipt)?;
        self.after_put_in_place(&prepared, &receipt)?;
        self.reporter
            .package_done(&receipt.name, &receipt.version, &Outcome::Installed);
        Ok((receipt.name, receipt.version))
    }
}

/// What the poisoning scan's `findings` in `what` let through: a high finding whose code is
/// not in `accept` refuses it (nothing is in place yet); the others go to `reporter` as
/// warnings (docs/security.md).
pub fn scan_gate(
    what: &str,
    findings: &[agx_model::scan::ScanFinding],
    accept: &[String],
    reporter: &dyn Reporter,
) -> Result<(), StoreError> {
    let blocked: Vec<_> = agx_model::scan::unaccepted(findings, accept).collect();
    if !blocked.is_empty() {
        let mut codes: Vec<String> = blocked.iter().map(|f| f.code.to_string()).collect();
        codes.sort();
        codes.dedup();
        return Err(StoreError::Poisoned {
            what: what.to_string(),
            findings: agx_model::scan::render_list(&blocked),
            codes,
        });
    }
    for f in findings {
        let accepted = if f.severity == agx_model::scan::Severity::High {
            " (accepted)"
        } else {
            ""
        };
        reporter.warn(&format!("{what}: {}{accepted}", f.with_file_place()));
    }
    Ok(())
}

/// `=version`: what a package installed at one exact version records as asked for.
fn exact_requirement(version: &semver::Version) -> semver::VersionReq {
    semver::VersionReq::parse(&format!("={version}")).expect("a version is a valid requirement")
}

/// The checksum of a provisioned package: a sha256 of its integrity hashes (npm's
/// integrity, each wheel's hash, a plugin's revision), one a line.
pub fn integrity_sha256(integrity: &[String]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(integrity.join("\n").as_bytes()))
}

/// The requirement and explicit flag a receipt records: roots record what the user asked;
/// an installed package being replaced keeps what its receipt said.
fn record_as(
    name: &PackageName,
    planned: &semver::VersionReq,
    explicit: &BTreeMap<PackageName, semver::VersionReq>,
    previous: Option<&Receipt>,
) -> (semver::VersionReq, bool) {
    match (explicit.get(name), previous) {
        (Some(req), _) => (req.clone(), true),
        (None, Some(prev)) => (prev.requested.clone(), prev.explicit),
        (None, None) => (planned.clone(), false),
    }
}

fn new_receipt(
    package: &Package,
    sha256: String,
    source: Source,
    (requested, explicit): (semver::VersionReq, bool),
) -> Receipt {
    Receipt {
        name: package.name().clone(),
        version: package.version().clone(),
        sha256,
        // What `agx verify` checks the folder against; it cannot fail for a folder that was
        // just unpacked and loaded, and a receipt without it is only not checked.
        files: agx_model::skills::tree_hash::hash_except(&package.dir, &agx_store::AGX_FILES)
            .ok()
            .map(|hash| format!("sha256:{hash}")),
        requested,
        explicit,
        installed_at: now_rfc3339(),
        description: package.manifest.package.description.clone(),
        // The install got past the scan, so each high finding was accepted.
        accepted_findings: agx_model::scan::high_codes(&agx_model::scan::scan_package(package)),
        dependencies: package.manifest.dependencies.clone(),
        source,
        provenance: None,
        extension: package.summary(),
    }
}

/// Unpack `archive` into `stage/package` and load the package found there (validation only;
/// nothing runs). `what` names the archive in errors.
fn unpack_checked(
    archive: &Path,
    stage: &Path,
    what: &str,
    from_registry: bool,
) -> Result<Package, StoreError> {
    let dest = stage.join("package");
    agx_archive::unpack(archive, &dest).map_err(|source| StoreError::Archive {
        name: what.to_string(),
        source,
    })?;
    load_checked(&dest, what, from_registry)
}

/// Unpack a skill's artifact (`form`: an archive with its files at the root, a `.tar.gz` or
/// a `.zip` by its first bytes; or its `SKILL.md` alone) and wrap the skill in a package
/// named and versioned as `entry`, its skill folder named as the artifact's skill.
fn unpack_skill(
    archive: &Path,
    form: ArchiveForm,
    stage: &Path,
    entry: &IndexEntry,
    what: &str,
    source: &str,
) -> Result<Package, StoreError> {
    let files = stage.join("skill");
    let archive_error = |source| StoreError::Archive {
        name: what.to_string(),
        source,
    };
    if form == ArchiveForm::SkillFile {
        fs_err::create_dir(&files)?;
        fs_err::copy(archive, files.join(agx_model::skills::check::SKILL_FILE))?;
    } else if agx_archive::ArchiveFormat::of_file(archive)? == Some(agx_archive::ArchiveFormat::Zip)
    {
        agx_archive::unpack_zip(archive, &files).map_err(archive_error)?;
    } else {
        agx_archive::unpack_flat(archive, &files).map_err(archive_error)?;
    }
    let skill = entry
        .extension
        .skills
        .first()
        .map_or(entry.name.name(), |s| s.name.as_str());
    let dest = stage.join("package");
    fs_err::create_dir(&dest)?;
    agx_model::skills::wrap::wrap_published(
        &files,
        &dest,
        &entry.name,
        &entry.vers,
        skill,
        entry.description.as_deref().unwrap_or_default(),
        &format!(
            "the skill artifact {} {} of {source}",
            entry.name, entry.vers
        ),
    )?;
    load_checked(&dest, what, true)
}

/// Load the package in `dir` (validation only; nothing runs) and write its snapshot.
fn load_checked(dir: &Path, what: &str, from_registry: bool) -> Result<Package, StoreError> {
    // Not `check_package`: an archive holds a package, never loose skills to wrap.
    let mut report = agx_model::manifest::load::check(dir);
    match report.package.take() {
        Some(package) if !report.has_errors() => {
            agx_model::manifest::snapshot::write(&package)?;
            Ok(package)
        }
        _ => Err(StoreError::InvalidPackage {
            what: what.to_string(),
            findings: render_errors(report, dir),
            from_registry,
        }),
    }
}

/// The error findings of `report` as `agx validate` shows them, with paths relative to the
/// package. `render::human` ends with a summary naming `dir`, a staging folder about to be
/// removed, so that last line is left out, and messages that quote a path inside it say
/// where in the package instead.
fn render_errors(mut report: agx_model::manifest::Report, dir: &Path) -> String {
    report
        .findings
        .retain(|f| f.severity == agx_model::manifest::Severity::Error);
    let rendered = agx_model::manifest::render::human(&report, dir, false);
    let findings = rendered.trim_end().rsplit_once('\n').map_or("", |(f, _)| f);
    let dir = dir.display();
    findings
        .trim_end()
        .replace(&format!("{dir}/"), "")
        .replace(&format!("`{dir}`"), "the archive's top folder")
        .replace(&dir.to_string(), "the archive's top folder")
}
