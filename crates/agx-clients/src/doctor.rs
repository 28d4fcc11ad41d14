//! `agx doctor`: drift between clients-v1.toml, the client files and the store.

use std::path::Path;

use serde::Serialize;

use super::apply::lock_client_file;
use super::in_use::uninstall_command;
use super::resolve::resolve_server;
use super::{
    ClientError, HostEnv, Record, Records, ServerEntry, Target, agx_binary, plan_install, read_doc,
    shape,
};
use agx_core::paths::AgxPaths;
use agx_model::settings::{PackageSettings, SettingsError, SettingsStore, set_command};

/// What is wrong with one recorded entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Problem {
    /// The client file is gone.
    FileMissing,
    /// The client file no longer parses.
    FileUnreadable,
    /// The entry was removed from the file.
    EntryMissing,
    /// The entry no longer runs what agx wrote.
    ChangedByHand,
    /// The agx binary the entry runs no longer exists.
    BinaryMissing,
    /// The server's package is not installed.
    PackageMissing,
    /// The server no longer resolves (broken definition, missing dependency).
    ServerBroken,
    /// A required setting of the server has no value, so `agx serve` refuses to start.
    SettingMissing,
    /// The stored settings cannot be read (a corrupt file, a locked keyring).
    SettingsUnreadable,
    /// The server's recorded filter cannot be used (filters-v1.toml does not parse, a bad
    /// glob), so `agx serve` refuses to start.
    FilterUnusable,
    /// The server's recorded filter hides every one of its tools.
    FilterHidesAll,
    /// An entry serves a profile (`agx serve @NAME`) that no profile file defines.
    ProfileMissing,
    /// A member of the profile an entry serves does not resolve (its package is gone, its
    /// server no longer exists).
    ProfileMemberBroken,
    /// The entry's remote server has a sign-in (`agx auth login`) that can no longer be used:
    /// its token expired with nothing to refresh it, or the keyring no longer holds it.
    SignInNeeded,
}

#[derive(Debug, Serialize)]
pub struct Finding {
    pub client: String,
    pub scope: String,
    pub file: String,
    pub key: String,
    pub server: String,
    pub problem: Problem,
    pub detail: String,
    /// What --fix did, or what the user should do.
    pub action: String,
    pub fixed: bool,
}

#[derive(Debug, Serialize)]
pub struct DoctorReport {
    pub checked: usize,
    pub findings: Vec<Finding>,
    /// Skill copies checked, and what is wrong with them (crates/agx-clients/src/skill_doctor.rs).
    #[serde(skip_serializing_if = "is_zero")]
    pub skills_checked: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skill_findings: Vec<super::skill_doctor::SkillFinding>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn finding(r: &Record, problem: Problem, detail: String, action: String) -> Finding {
    Finding {
        client: r.client.id.to_string(),
        scope: r.scope.to_string(),
        file: r.file.display().to_string(),
        key: r.key.clone(),
        server: r.server.to_string(),
        problem,
        detail,
        action,
        fixed: false,
    }
}

/// Check every recorded entry; with `fix`, repair what is safe: forget entries the user
/// removed (or whose file is gone), and point entries at this agx binary when theirs is gone.
/// Fixing holds the record's lock throughout, and each client file's while it is edited.
pub fn run(paths: &AgxPaths, fix: bool) -> Result<DoctorReport, ClientError> {
    let records_path = paths.clients_file();
    let _records_lock = fix.then(|| Records::lock(&records_path)).transpose()?;
    let mut records = Records::load(&records_path)?;
    let mut findings = Vec::new();
    let mut forget = Vec::new();
    let mut changed_records = false;
    let current = agx_binary().ok().map(|p| p.display().to_string());
    for record in records.entries.clone() {
        let target = Target::of_record(&record)?;
        let (before, doc) = match read_doc(&target) {
            Ok((Some(b), doc)) => (b, doc),
            Ok((None, _)) => {
                let mut f = finding(
                    &record,
                    Problem::FileMissing,
                    "the client file does not exist".into(),
                    "forget the entry".into(),
                );
                if fix {
                    forget.push(record.clone());
                    f.fixed = true;
                }
                findings.push(f);
                continue;
            }
            Err(e @ ClientError::Syntax { .. }) => {
                let detail = e.to_string();
                findings.push(finding(
                    &record,
                    Problem::FileUnreadable,
                    detail,
                    "fix the file by hand".into(),
                ));
                continue;
            }
            Err(e) => return Err(e),
        };
        let Some(value) = doc.get(&target.container, &record.key) else {
            let mut f = finding(
                &record,
                Problem::EntryMissing,
                "the entry was removed from the file".into(),
                "forget the entry".into(),
            );
            if fix {
                forget.push(record.clone());
                f.fixed = true;
            }
            findings.push(f);
            continue;
        };
        let entry = shape::parse(target.client.shape, &value);
        let server = record.server.to_string();
        let ours = entry.as_ref().and_then(ServerEntry::agx_server) == Some(server.as_str());
        let same_command = entry.as_ref().is_some_and(|e| e.command == record.command);
        if !ours || !same_command {
            let hint = uninstall_command(&record);
            findings.push(finding(
                &record,
                Problem::ChangedByHand,
                format!("the entry now holds {value}"),
                format!("left as it is; re-run `agx install-server` with --force, or `{hint}`"),
            ));
            continue;
        }
        let entry = entry.expect("checked above");
        if !Path::new(&entry.command).exists() {
            let mut f = finding(
                &record,
                Problem::BinaryMissing,
                format!("{} does not exist", entry.command),
                "point the entry at this agx binary".into(),
            );
            if let (true, Some(current)) = (fix, &current) {
                let fixed_entry = ServerEntry {
                    command: current.clone(),
                    ..entry.clone()
                };
                let _file_lock = lock_client_file(&target.file)?;
                let change = plan_install(&target, &record.key, &fixed_entry, false);
                // Only when the file is still what was checked: another process may have
                // edited it since.
                if let Ok(change) = change
                    && change.before.as_deref() == Some(before.as_str())
                    && change.apply().is_ok()
                {
                    let _ = records.upsert(Record {
                        command: current.clone(),
                        ..record.clone()
                    });
                    changed_records = true;
                    f.fixed = true;
                }
            }
            findings.push(f);
        }
        match resolve_server(paths, &record.server) {
            Ok(resolved) => {
                findings.extend(check_settings(paths, &record, &resolved.settings));
                findings.extend(check_filter(paths, &record, &resolved.tools));
            }
            Err(e) if e.missing_package().is_some() => {
                let p = e.missing_package().expect("checked");
                findings.push(finding(
                    &record,
                    Problem::PackageMissing,
                    format!("package {p} is not installed"),
                    format!("run `agx install {p}`, or `{}`", uninstall_command(&record)),
                ))
            }
            Err(e) => findings.push(finding(
                &record,
                Problem::ServerBroken,
                e.to_string(),
                "fix or reinstall the package".into(),
            )),
        }
    }
    for r in &forget {
        changed_records |= records.remove_place(&r.place());
    }
    let skills_checked = records.skills.len();
    let host = HostEnv::current();
    let skill_findings = super::skill_doctor::check(paths, host.as_ref(), &mut records.skills, fix);
    changed_records |= skill_findings.iter().any(|f| f.fixed);
    if changed_records {
        records.save(&records_path)?;
    }
    Ok(DoctorReport {
        checked: records.entries.len() + forget.len(),
        findings,
        skills_checked,
        skill_findings,
    })
}

/// A finding when the server's recorded filter stops `agx serve`, or hides every tool the
/// server is known to have (a wrapped server's tools are known only when it runs).
fn check_filter(paths: &AgxPaths, record: &Record, tools: &[String]) -> Option<Finding> {
    let filter = match agx_model::filter::user_filter(paths, &record.server) {
        Ok(filter) => filter?,
        Err(e) => {
            let hint = agx_core::error::Hint::hint(&e).unwrap_or_default();
            return Some(finding(
                record,
                Problem::FilterUnusable,
                e.to_string(),
                hint,
            ));
        }
    };
    let hides_all = !tools.is_empty()
        && tools
            .iter()
            .all(|t| filter.show(agx_model::filter::Kind::Tool, t).is_err());
    hides_all.then(|| {
        finding(
            record,
            Problem::FilterHidesAll,
            format!(
                "the filter in {} hides all {} tools of the server",
                filter.source_name,
                tools.len()
            ),
            format!(
                "record another with `agx install-server {} {} --allow/--deny …`, or `--no-filter`",
                record.client.id, record.server
            ),
        )
    })
}

/// A finding per required setting without a value (never a value itself).
fn check_settings(
    paths: &AgxPaths,
    record: &Record,
    declared: &[std::sync::Arc<PackageSettings>],
) -> Vec<Finding> {
    if declared.iter().all(|d| d.settings.is_empty()) {
        return Vec::new();
    }
    let unreadable = |e: SettingsError| {
        let hint = agx_core::error::Hint::hint(&e).unwrap_or_default();
        vec![finding(
            record,
            Problem::SettingsUnreadable,
            e.to_string(),
            hint,
        )]
    };
    let store = match SettingsStore::open(paths) {
        Ok(s) => s,
        Err(e) => return unreadable(e),
    };
    let mut out = Vec::new();
    for d in declared {
        let resolved = match store.resolve(&d.package, &d.declarations()) {
            Ok(r) => r,
            Err(e) => return unreadable(e),
        };
        for s in resolved.missing() {
            out.push(finding(
                record,
                Problem::SettingMissing,
                format!("required setting `{}` of {} has no value", s.key, d.package),
                format!("run `{}`", set_command(&d.package, s)),
            ));
        }
    }
    out
}
