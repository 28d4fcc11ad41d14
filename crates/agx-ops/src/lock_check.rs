//! Checking agx.lock before `sync` trusts it (docs/projects.md, "The lock"). A lock is
//! text anyone can edit; what sync writes into client files must follow from what each
//! field was resolved from, never from a field taken on trust:
//!
//! - [`check_fields`], before anything is installed: each server's `package`, `launches`,
//!   `version` and `entry` agree with its recorded inputs (`server`, `requirement`, `args`)
//!   and with the lock's `[[package]]` tables, and each package is needed by a server;
//! - [`locked_entries`], once the packages are in the store (each checked against the
//!   sha256 the lock records when it was installed): the entry each server launches,
//!   derived from the installed package, which must be what `launches` says.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::Context;
use agx_clients::ServerEntry;
use agx_core::name::{PackageName, QualifiedName};
use agx_model::client_table::shape::{entry_hash, project_entry};
use agx_project::lock::field_location;
use agx_project::{
    LOCK_FILE, LockError, LockFile, LockedPackage, LockedServer, LockedSkill, LockedSkillFolder,
    Project, ServerTarget, SkillDecl,
};

/// A field of server `key` that disagrees, placed in the lock file of `dir`.
fn server_field(dir: &Path, key: &str, field: &'static str, detail: String) -> LockError {
    LockError::Disagrees {
        location: field_location(&dir.join(LOCK_FILE), "server", "key", key, field),
        what: format!("server `{key}`"),
        field,
        detail,
    }
}

/// A field of package `name` that disagrees, placed in the lock file of `dir`.
fn package_field(dir: &Path, name: &PackageName, field: &'static str, detail: String) -> LockError {
    let name = name.to_string();
    LockError::Disagrees {
        location: field_location(&dir.join(LOCK_FILE), "package", "name", &name, field),
        what: format!("package `{name}`"),
        field,
        detail,
    }
}

/// Check that the fields of every locked server agree with each other and with the lock's
/// packages (see the module's documentation). `dir` is the project folder, for messages.
/// With `project` (`sync --frozen`, which does not compare versions with agx.toml), each
/// locked key must also launch what agx.toml declares for it.
pub fn check_fields(
    dir: &Path,
    lock: &LockFile,
    project: Option<&Project>,
) -> Result<(), LockError> {
    for s in &lock.servers {
        check_server(dir, lock, s, project)?;
    }
    for s in &lock.skills {
        check_skill(dir, lock, s, project)?;
    }
    for s in &lock.skill_folders {
        check_skill_folder(dir, s, project)?;
    }
    check_packages(dir, lock)
}

/// A locked skill folder's `path` is agx.toml's (under --frozen too); its `content` is
/// checked against the folder by `sync`.
fn check_skill_folder(
    dir: &Path,
    s: &LockedSkillFolder,
    project: Option<&Project>,
) -> Result<(), LockError> {
    let declared = match project.and_then(|p| p.skills.get(&s.key)) {
        Some(SkillDecl::Folder { path }) => Some(path.as_str()),
        Some(SkillDecl::Package(p)) => {
            return Err(super::project_skills::skill_folder_field(
                dir,
                &s.key,
                "path",
                format!("is `{}`, but agx.toml declares `{}`", s.path, p.skill),
            ));
        }
        None => None,
    };
    match declared {
        Some(path) if path != s.path => Err(super::project_skills::skill_folder_field(
            dir,
            &s.key,
            "path",
            format!("is `{}`, but agx.toml declares `{path}`", s.path),
        )),
        _ => Ok(()),
    }
}

/// A locked skill's fields agree with agx.toml (under --frozen), with each other and with
/// the lock's packages. Its `content` is checked against the installed package by `sync`.
fn check_skill(
    dir: &Path,
    lock: &LockFile,
    s: &LockedSkill,
    project: Option<&Project>,
) -> Result<(), LockError> {
    let field = |field, detail| super::project_skills::skill_field(dir, &s.key, field, detail);
    match project.and_then(|p| p.skills.get(&s.key)) {
        Some(SkillDecl::Package(decl)) if decl.skill.to_string() != s.skill => {
            return Err(field(
                "skill",
                format!("is `{}`, but agx.toml declares `{}`", s.skill, decl.skill),
            ));
        }
        Some(SkillDecl::Folder { path }) => {
            return Err(field(
                "skill",
                format!("is `{}`, but agx.toml declares the folder {path}", s.skill),
            ));
        }
        _ => {}
    }
    let skill = QualifiedName::parse(&s.skill)
        .map_err(|e| field("skill", format!("`{}` names no skill: {e}", s.skill)))?;
    if s.package != skill.package {
        return Err(field(
            "package",
            format!(
                "is {}, but `skill = \"{}\"` is in package {}",
                s.package, s.skill, skill.package
            ),
        ));
    }
    let Some(package) = lock.package(&s.package) else {
        return Err(field(
            "package",
            format!("is {}, which the lock has no [[package]] for", s.package),
        ));
    };
    if package.version != s.version {
        return Err(field(
            "version",
            format!(
                "is {}, but the lock's package {} is {}",
                s.version, package.name, package.version
            ),
        ));
    }
    let requirement = agx_core::name::parse_manifest_requirement(&s.requirement).map_err(|e| {
        field(
            "requirement",
            format!("`{}` is not a requirement: {e}", s.requirement),
        )
    })?;
    if !requirement.matches(&s.version) {
        return Err(field(
            "version",
            format!(
                "is {}, which does not satisfy `requirement = \"{}\"`",
                s.version, s.requirement
            ),
        ));
    }
    Ok(())
}

fn check_server(
    dir: &Path,
    lock: &LockFile,
    s: &LockedServer,
    project: Option<&Project>,
) -> Result<(), LockError> {
    let field = |field, detail| server_field(dir, &s.key, field, detail);
    if let Some(decl) = project.and_then(|p| p.servers.get(&s.key)) {
        if decl.target.to_string() != s.server {
            return Err(field(
                "server",
                format!("is `{}`, but agx.toml declares `{}`", s.server, decl.target),
            ));
        }
        if decl.args != s.args {
            return Err(field(
                "args",
                format!("are {:?}, but agx.toml gives {:?}", s.args, decl.args),
            ));
        }
    }
    let target = ServerTarget::parse(&s.server)
        .map_err(|e| field("server", format!("`{}` names no server: {e}", s.server)))?;
    if &s.package != target.package() {
        return Err(field(
            "package",
            format!(
                "is {}, but `server = \"{}\"` is in package {}",
                s.package,
                s.server,
                target.package()
            ),
        ));
    }
    let launches_package = match &target {
        ServerTarget::Server(q) => (s.launches == q.to_string()).then_some(()),
        ServerTarget::Package(p) => QualifiedName::parse(&s.launches)
            .ok()
            .filter(|q| &q.package == p)
            .map(drop),
    };
    if launches_package.is_none() {
        return Err(field(
            "launches",
            format!(
                "is `{}`, which `server = \"{}\"` does not launch",
                s.launches, s.server
            ),
        ));
    }
    let Some(package) = lock.package(&s.package) else {
        return Err(field(
            "package",
            format!("is {}, which the lock has no [[package]] for", s.package),
        ));
    };
    if package.version != s.version {
        return Err(field(
            "version",
            format!(
                "is {}, but the lock's package {} is {}",
                s.version, package.name, package.version
            ),
        ));
    }
    let requirement = agx_core::name::parse_manifest_requirement(&s.requirement).map_err(|e| {
        field(
            "requirement",
            format!("`{}` is not a requirement: {e}", s.requirement),
        )
    })?;
    if !requirement.matches(&s.version) {
        return Err(field(
            "version",
            format!(
                "is {}, which does not satisfy `requirement = \"{}\"`",
                s.version, s.requirement
            ),
        ));
    }
    let expected = entry_hash(&project_entry(&s.launches, &s.version, &s.args));
    if s.entry != expected {
        return Err(field(
            "entry",
            format!(
                "is `{}`, but its fields give the entry `{expected}`",
                s.entry
            ),
        ));
    }
    Ok(())
}

/// Every package is needed by a server, and every dependency it names is locked at the
/// version it names.
fn check_packages(dir: &Path, lock: &LockFile) -> Result<(), LockError> {
    let mut reached: BTreeSet<&PackageName> = BTreeSet::new();
    let mut stack: Vec<&PackageName> = lock
        .servers
        .iter()
        .map(|s| &s.package)
        .chain(lock.skills.iter().map(|s| &s.package))
        .collect();
    while let Some(name) = stack.pop() {
        if reached.insert(name)
            && let Some(p) = lock.package(name)
        {
            stack.extend(p.dependencies.iter().map(|(d, _)| d));
        }
    }
    for p in &lock.packages {
        check_plugin(dir, p)?;
        if !reached.contains(&p.name) {
            return Err(package_field(
                dir,
                &p.name,
                "name",
                "names a package that no locked server or skill needs".into(),
            ));
        }
        for (dep, version) in &p.dependencies {
            if lock.package(dep).is_none_or(|d| &d.version != version) {
                return Err(package_field(
                    dir,
                    &p.name,
                    "dependencies",
                    format!("names {dep} {version}, which the lock does not hold"),
                ));
            }
        }
    }
    Ok(())
}

/// An imported plugin's package (`source = "plugin:…"`): its `integrity` is the one
/// revision it was imported at (`git:<commit>`, `sha256:<hex>`, `npm:<name>@<version>
/// sha512-…`), its `sha256` is the checksum of that revision (what provisioning it again
/// must give), and it has no dependencies.
fn check_plugin(dir: &Path, p: &LockedPackage) -> Result<(), LockError> {
    let Some(parsed) = agx_sources::plugins::import::parse_lock_source(&p.source, dir, &p.name)
    else {
        return Ok(());
    };
    let field = |field, detail| package_field(dir, &p.name, field, detail);
    parsed.map_err(|e| field("source", e))?;
    let revision = match p.integrity.as_slice() {
        [one] if agx_sources::plugins::import::is_revision(one) => one,
        _ => {
            return Err(field(
                "integrity",
                format!(
                    "is {:?}, not the one revision a plugin is imported at (`git:<commit>`, `sha256:<hex>` or `npm:<name>@<version> sha512-…`)",
                    p.integrity
                ),
            ));
        }
    };
    let expected = agx_installer::integrity_sha256(std::slice::from_ref(revision));
    if p.sha256 != expected {
        return Err(field(
            "sha256",
            format!(
                "is {}, but its integrity `{revision}` gives {expected}",
                p.sha256
            ),
        ));
    }
    if !p.dependencies.is_empty() {
        return Err(field(
            "dependencies",
            "are given, but an imported plugin has none".into(),
        ));
    }
    Ok(())
}

/// The entry of each locked server of `keys`, derived from the installed package (which
/// must offer the server `launches` names). A package that is not installed with its
/// locked sha256 (only under `sync --check`, which reports it missing) is taken at its
/// checked `launches`. Call after [`check_fields`].
pub fn locked_entries<'a>(
    ctx: &Context,
    dir: &Path,
    lock: &LockFile,
    keys: impl Iterator<Item = &'a String>,
) -> Result<BTreeMap<String, ServerEntry>, LockError> {
    let store = ctx.store();
    let mut entries = BTreeMap::new();
    for key in keys {
        let Some(s) = lock.server(key) else {
            continue;
        };
        let package = lock
            .package(&s.package)
            .expect("check_fields found the package");
        let receipt = store
            .has_version(&package.name, &package.version, Some(&package.sha256))
            .then(|| store.version_receipt(&package.name, &package.version))
            .flatten();
        let launches = match receipt {
            None => s.launches.clone(),
            Some(receipt) => {
                let servers: Vec<&str> = receipt
                    .extension
                    .servers
                    .iter()
                    .map(|x| x.name.as_str())
                    .collect();
                let produced = match ServerTarget::parse(&s.server) {
                    Ok(ServerTarget::Server(q)) => {
                        servers.contains(&q.item.as_str()).then(|| q.to_string())
                    }
                    Ok(ServerTarget::Package(p)) => match servers.as_slice() {
                        [one] => Some(format!("{p}/{one}")),
                        _ => None,
                    },
                    Err(_) => None,
                };
                match produced {
                    Some(launches) if launches == s.launches => launches,
                    _ => {
                        return Err(server_field(
                            dir,
                            key,
                            "launches",
                            format!(
                                "is `{}`, but {} {} offers the servers: {}",
                                s.launches,
                                package.name,
                                package.version,
                                servers.join(", ")
                            ),
                        ));
                    }
                }
            }
        };
        entries.insert(
            key.clone(),
            project_entry(&launches, &package.version, &s.args),
        );
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(name: &str, version: &str, deps: &[(&str, &str)]) -> LockedPackage {
        LockedPackage {
            name: PackageName::parse(name).unwrap(),
            version: version.parse().unwrap(),
            source: "http://127.0.0.1:1/".into(),
            sha256: "ab".repeat(32),
            integrity: Vec::new(),
            root_keys: Vec::new(),
            pins: Default::default(),
            provenance: None,
            dependencies: deps
                .iter()
                .map(|(n, v)| (PackageName::parse(n).unwrap(), v.parse().unwrap()))
                .collect(),
        }
    }

    fn lock() -> LockFile {
        let version: semver::Version = "1.1.0".parse().unwrap();
        LockFile::new(
            vec![LockedServer {
                key: "weather".into(),
                server: "acme/weather".into(),
                requirement: "^1.1".into(),
                args: vec!["--db-path".into()],
                launches: "acme/weather/forecast".into(),
                package: PackageName::parse("acme/weather").unwrap(),
                entry: entry_hash(&project_entry(
                    "acme/weather/forecast",
                    &version,
                    &["--db-path".into()],
                )),
                version,
            }],
            Vec::new(),
            vec![
                package("acme/weather", "1.1.0", &[("acme/geo", "1.0.0")]),
                package("acme/geo", "1.0.0", &[]),
            ],
        )
    }

    /// The field `check_fields` names for `lock` (in a folder without a lock file).
    fn refused(lock: &LockFile) -> Option<String> {
        let dir = Path::new("/nonexistent-project");
        match check_fields(dir, lock, None) {
            Ok(()) => None,
            Err(LockError::Disagrees {
                location,
                what,
                field,
                ..
            }) => {
                assert_eq!(location, "/nonexistent-project/agx.lock");
                Some(format!("{what} {field}"))
            }
            Err(e) => panic!("{e}"),
        }
    }

    fn with_skill() -> LockFile {
        let mut lock = lock();
        lock.packages.push(package("acme/dev", "1.0.0", &[]));
        lock.skills.push(LockedSkill {
            key: "review".into(),
            skill: "acme/dev/review".into(),
            requirement: "^1".into(),
            package: PackageName::parse("acme/dev").unwrap(),
            version: "1.0.0".parse().unwrap(),
            content: "sha256:00".into(),
        });
        lock
    }

    #[test]
    fn each_disagreeing_skill_field_is_named() {
        assert_eq!(refused(&with_skill()), None);
        type Edit = fn(&mut LockFile);
        let cases: [(&str, Edit); 5] = [
            ("skill `review` skill", |l| {
                l.skills[0].skill = "review".into()
            }),
            ("skill `review` package", |l| {
                l.skills[0].package = PackageName::parse("acme/weather").unwrap()
            }),
            ("skill `review` version", |l| {
                l.skills[0].version = "1.1.0".parse().unwrap()
            }),
            ("skill `review` version", |l| {
                l.skills[0].requirement = "^2".into()
            }),
            // The package only the skill needed, without the skill.
            ("package `acme/dev` name", |l| l.skills.clear()),
        ];
        for (named, edit) in cases {
            let mut lock = with_skill();
            edit(&mut lock);
            assert_eq!(refused(&lock).as_deref(), Some(named));
        }
    }

    #[test]
    fn an_imported_plugin_is_locked_at_one_revision_its_sha256_covers() {
        let revision = format!("sha256:{}", "cd".repeat(32));
        let plugin = || {
            let mut lock = lock();
            let weather = &mut lock.packages[1];
            weather.source = "plugin:weather@https://r.example/market".into();
            weather.integrity = vec![revision.clone()];
            weather.sha256 = agx_installer::integrity_sha256(&weather.integrity);
            weather.dependencies.clear();
            lock.packages.retain(|p| p.name.to_string() != "acme/geo");
            lock
        };
        assert_eq!(refused(&plugin()), None);
        type Edit = fn(&mut LockFile);
        let cases: [(&str, Edit); 5] = [
            ("package `acme/weather` source", |l| {
                l.packages[0].source = "plugin:weather".into()
            }),
            ("package `acme/weather` integrity", |l| {
                l.packages[0].integrity.push("git:00".into())
            }),
            ("package `acme/weather` integrity", |l| {
                l.packages[0].integrity = vec!["sha256:nothex".into()]
            }),
            // Another revision with the old checksum: provisioning would be checked against
            // a hash the revision does not give.
            ("package `acme/weather` sha256", |l| {
                l.packages[0].integrity = vec![format!("git:{}", "ab".repeat(20))]
            }),
            ("package `acme/weather` sha256", |l| {
                l.packages[0].sha256 = "00".repeat(32)
            }),
        ];
        for (named, edit) in cases {
            let mut lock = plugin();
            edit(&mut lock);
            assert_eq!(refused(&lock).as_deref(), Some(named));
        }
    }

    #[test]
    fn a_resolved_lock_passes() {
        assert_eq!(refused(&lock()), None);
    }

    #[test]
    fn each_disagreeing_field_is_named() {
        type Edit = fn(&mut LockFile);
        let cases: [(&str, Edit); 8] = [
            ("server `weather` entry", |l| l.servers[0].args.clear()),
            ("server `weather` server", |l| {
                l.servers[0].server = "no".into()
            }),
            ("server `weather` launches", |l| {
                l.servers[0].launches = "acme/geo/main".into()
            }),
            ("server `weather` package", |l| {
                l.servers[0].package = PackageName::parse("acme/geo").unwrap()
            }),
            ("server `weather` requirement", |l| {
                l.servers[0].requirement = "one".into()
            }),
            ("server `weather` entry", |l| {
                l.servers[0].entry = "sha256:00".into()
            }),
            ("package `acme/other` name", |l| {
                l.packages.push(package("acme/other", "1.0.0", &[]))
            }),
            ("package `acme/weather` dependencies", |l| {
                l.packages[1].dependencies[0].1 = "2.0.0".parse().unwrap()
            }),
        ];
        for (named, edit) in cases {
            let mut lock = lock();
            edit(&mut lock);
            assert_eq!(refused(&lock).as_deref(), Some(named));
        }
    }
}
