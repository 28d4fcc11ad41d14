//! The project tables of `agx.toml` and the personal `agx.local.toml` beside it:
//!
//! ```toml
//! [project]
//! clients = ["claude-code", "cursor"]
//! [servers]
//! weather = { server = "acme/weather/forecast", version = "^1.1", settings = { units = "metric" } }
//! [skills]
//! review = { skill = "acme/dev/review", version = "^1" }
//! ```
//!
//! One checker serves both `agx validate` (every finding, with codes and line:col) and the
//! project commands (which stop at the first error). The same file may hold `[package]`.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::{LOCAL_FILE, PROJECT_FILE, ProjectError};
use agx_core::name::{NameError, PackageName, QualifiedName};
use agx_core::regular_file::ReadProblem;
use agx_model::client_table::{self, Client};
use agx_model::manifest::diagnostics::{self as codes, Findings, Severity};
use agx_model::manifest::fields::{Table, did_you_mean};
use agx_model::manifest::package_file;
use agx_model::manifest::spanned::{Node, SourceFile, Value};
use agx_model::settings::Setting;

/// What a `[servers]` entry launches: a qualified server, or a package with one server.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ServerTarget {
    Server(QualifiedName),
    Package(PackageName),
}

impl ServerTarget {
    /// `publisher/name` (a package, with a publisher) or `publisher/package/server`.
    pub fn parse(text: &str) -> Result<ServerTarget, NameError> {
        match PackageName::parse(text) {
            Ok(p) if p.publisher().is_some() => Ok(ServerTarget::Package(p)),
            _ => QualifiedName::parse(text).map(ServerTarget::Server),
        }
    }

    pub fn package(&self) -> &PackageName {
        match self {
            ServerTarget::Server(q) => &q.package,
            ServerTarget::Package(p) => p,
        }
    }
}

impl std::fmt::Display for ServerTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerTarget::Server(q) => q.fmt(f),
            ServerTarget::Package(p) => p.fmt(f),
        }
    }
}

/// One `[servers]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerDecl {
    pub target: ServerTarget,
    /// `version` as written (`*` when absent), and parsed.
    pub version: String,
    pub requirement: semver::VersionReq,
    /// Non-secret setting values, as written (numbers and booleans as their TOML text).
    pub settings: BTreeMap<String, String>,
    /// `enabled = false` keeps the entry out of client files.
    pub enabled: bool,
    /// `args`: arguments for a wrapped server's own command, written into the entry after
    /// `agx serve SERVER --` (an agx server refuses them when it starts).
    pub args: Vec<String>,
    /// `tools`, `prompts`, `resources`: what `agx serve` hides, renames and re-describes
    /// (docs/profiles.md).
    pub filter: agx_model::filter::FilterSpec,
    /// `permissions`: what the server's programs may touch when `agx serve` runs it in this
    /// project, replacing the user's and the package's (docs/sandbox.md).
    pub permissions: Option<agx_model::permissions::Permissions>,
    /// `on-change`: what `agx serve` does with a definition the server's pins do not hold
    /// (docs/security.md, "Pinned definitions"); absent: hide it.
    pub on_change: agx_store::pins::OnChange,
}

/// One `[skills]` entry, copied into the project's skills folders: a skill of a package, or
/// a skill folder of the project itself.
#[derive(Debug, Clone, PartialEq)]
pub enum SkillDecl {
    Package(PackageSkill),
    /// `path`: a folder of the project holding `SKILL.md`, `/`-separated and relative to
    /// the project's folder, as written; the skill's name is the folder's.
    Folder {
        path: String,
    },
}

/// The skill's name of a skill folder `path` (`tools/skills/review` → `review`): its last
/// part, which every copy's folder is named after.
pub fn skill_folder_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A `[skills]` entry naming a skill of a package.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageSkill {
    /// `publisher/package/skill`.
    pub skill: QualifiedName,
    /// `version` as written (`*` when absent), and parsed.
    pub version: String,
    pub requirement: semver::VersionReq,
}

impl SkillDecl {
    /// The skill's name, which is its copies' folder name.
    pub fn name(&self) -> &str {
        match self {
            SkillDecl::Package(p) => p.skill.item.as_str(),
            SkillDecl::Folder { path } => skill_folder_name(path),
        }
    }

    pub fn package(&self) -> Option<&PackageSkill> {
        match self {
            SkillDecl::Package(p) => Some(p),
            SkillDecl::Folder { .. } => None,
        }
    }
}

/// A project: `agx.toml` with `agx.local.toml` laid over it.
#[derive(Debug, Clone)]
pub struct Project {
    pub dir: PathBuf,
    /// `[project].clients` of agx.toml.
    pub clients: Vec<&'static Client>,
    /// `[servers]` of agx.toml: what the lock pins.
    pub servers: BTreeMap<String, ServerDecl>,
    /// `[skills]` of agx.toml (locked too; agx.local.toml has none).
    pub skills: BTreeMap<String, SkillDecl>,
    /// Clients that agx.local.toml adds.
    pub local_clients: Vec<&'static Client>,
    /// Servers that agx.local.toml adds (resolved at sync, never locked).
    pub local_servers: BTreeMap<String, ServerDecl>,
    /// Keys of agx.toml that agx.local.toml disables.
    pub disabled: BTreeSet<String>,
    /// `[profiles]` of agx.toml: one client entry each (docs/profiles.md).
    pub profiles: BTreeMap<String, crate::profile::Profile>,
}

impl Project {
    /// Read and check the project in `dir`; the first error stops it.
    pub fn load(dir: &Path) -> Result<Project, ProjectError> {
        let committed = read_checked(&dir.join(PROJECT_FILE), Kind::Committed)?
            .ok_or_else(|| ProjectError::NotFound { start: dir.into() })?;
        let local = read_checked(&dir.join(LOCAL_FILE), Kind::Local)?.unwrap_or_default();
        let mut project = Project {
            dir: dir.to_path_buf(),
            clients: committed.clients,
            servers: committed.servers,
            skills: committed.skills,
            profiles: committed.profiles,
            local_clients: Vec::new(),
            local_servers: BTreeMap::new(),
            disabled: BTreeSet::new(),
        };
        for client in local.clients {
            if !project.clients.iter().any(|c| c.id == client.id) {
                project.local_clients.push(client);
            }
        }
        for key in local.disabled {
            if !project.servers.contains_key(&key) {
                return Err(ProjectError::Invalid {
                    location: local.key_locations[&key].clone(),
                    message: format!("`{key}` disables no server of {PROJECT_FILE}"),
                    hint: Some(format!(
                        "the keys of {PROJECT_FILE}: {}",
                        project
                            .servers
                            .keys()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                    more: 0,
                });
            }
            project.disabled.insert(key);
        }
        for (key, decl) in local.servers {
            match project.servers.get(&key) {
                Some(_) => {
                    return Err(ProjectError::Invalid {
                        location: local.key_locations[&key].clone(),
                        message: format!(
                            "`{key}` is already in {PROJECT_FILE}; {LOCAL_FILE} can only disable it"
                        ),
                        hint: Some(format!(
                            "write `{key} = {{ enabled = false }}` to disable it, or add it under another key"
                        )),
                        more: 0,
                    });
                }
                None => {
                    project.local_servers.insert(key, decl);
                }
            }
        }
        Ok(project)
    }

    /// Every client whose project file `sync` writes: agx.toml's, then agx.local.toml's.
    pub fn all_clients(&self) -> impl Iterator<Item = &'static Client> + '_ {
        self.clients.iter().chain(&self.local_clients).copied()
    }

    /// The entries `sync` writes: agx.toml's that are enabled, and agx.local.toml's.
    pub fn active_servers(&self) -> impl Iterator<Item = (&String, &ServerDecl)> {
        self.servers
            .iter()
            .filter(|(k, d)| d.enabled && !self.disabled.contains(*k))
            .chain(self.local_servers.iter().filter(|(_, d)| d.enabled))
    }

    /// The entry for `server` with its settings, when the project has one (agx serve reads
    /// project values through it).
    pub fn entry_for(&self, server: &QualifiedName) -> Option<(&String, &ServerDecl)> {
        self.servers
            .iter()
            .chain(&self.local_servers)
            .find(|(_, d)| match &d.target {
                ServerTarget::Server(q) => q == server,
                ServerTarget::Package(p) => p == &server.package,
            })
    }
}

/// Which file is being read: the committed one allows other tables (`[package]`, …) and
/// needs `server` in every entry; the local one may disable entries by key alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Committed,
    Local,
}

/// What the checker read from one file.
#[derive(Debug, Default)]
pub struct Draft {
    pub clients: Vec<&'static Client>,
    pub servers: BTreeMap<String, ServerDecl>,
    pub skills: BTreeMap<String, SkillDecl>,
    pub profiles: BTreeMap<String, crate::profile::Profile>,
    /// Whether the file has `[project]`, `[servers]` or `[skills]` at all.
    pub is_project: bool,
    /// Keys that agx.local.toml disables by key alone (`key = { enabled = false }`).
    pub disabled: BTreeSet<String>,
    /// Where each key and each setting value is, for later findings.
    pub key_locations: BTreeMap<String, String>,
    setting_spans: BTreeMap<(String, String), Range<usize>>,
}

const TOP_KEYS: &[&str] = &["project", "servers"];
/// Only the committed file has skills: the lock pins each one.
const COMMITTED_ONLY_KEYS: &[&str] = &["skills", "profiles", "policy"];
/// Tables of a package manifest that may share the file with the project tables.
const PACKAGE_TABLES: &[&str] = &["package", "dependencies", "extension"];
const PROJECT_KEYS: &[&str] = &["clients"];
const COMMITTED_SERVER_KEYS: &[&str] = &[
    "server",
    "version",
    "settings",
    "enabled",
    "args",
    "tools",
    "prompts",
    "resources",
    "permissions",
    "on-change",
];
const FILTER_KEYS: &[&str] = &["allow", "deny", "rename", "descriptions"];
const SKILL_KEYS: &[&str] = &["skill", "version", "path"];

/// Read `path` (None when it does not exist) and turn the first error into a
/// [`ProjectError::Invalid`].
fn read_checked(path: &Path, kind: Kind) -> Result<Option<Draft>, ProjectError> {
    let text = match agx_core::regular_file::read_text(path, package_file::MAX_FILE_BYTES) {
        Ok(t) => t,
        Err(ReadProblem::NotFound) => return Ok(None),
        Err(problem) => {
            return Err(ProjectError::Read {
                path: path.into(),
                source: problem.into_io(),
            });
        }
    };
    let file = SourceFile::new(path.display().to_string(), text);
    let mut f = Findings::default();
    let draft = check_file(&mut f, &file, kind);
    first_error(f.list)?;
    Ok(Some(draft))
}

/// The first error among `findings` as a [`ProjectError::Invalid`], counting the others.
fn first_error(findings: Vec<agx_model::manifest::Finding>) -> Result<(), ProjectError> {
    let mut errors = findings
        .into_iter()
        .filter(|x| x.severity == Severity::Error);
    match errors.next() {
        Some(first) => Err(ProjectError::Invalid {
            location: first.location.to_string(),
            message: first.message,
            hint: first.hint,
            more: errors.map(|x| x.count()).sum(),
        }),
        None => Ok(()),
    }
}

/// Check the project tables of one file, adding findings.
pub fn check_file(f: &mut Findings, file: &SourceFile, kind: Kind) -> Draft {
    let mut draft = Draft::default();
    let doc = match file.parse() {
        Ok(doc) => doc,
        Err(e) => {
            f.at(
                codes::SYNTAX_ERROR,
                file,
                &e.span,
                format!("`{}` is not valid TOML: {}", file.rel, e.message),
                Some("fix the TOML syntax at this place".into()),
            );
            return draft;
        }
    };
    let allowed: Vec<&str> = match kind {
        Kind::Committed => TOP_KEYS
            .iter()
            .chain(COMMITTED_ONLY_KEYS)
            .chain(PACKAGE_TABLES)
            .copied()
            .collect(),
        Kind::Local => TOP_KEYS.to_vec(),
    };
    // The package tables are checked by the package checker; only the project's are here.
    let Some(top) = Table::read(f, file, &doc, 0..0, file.rel.clone(), &allowed) else {
        return draft;
    };
    if let Some(entry) = top.get("project") {
        draft.is_project = true;
        read_project(f, file, &entry.value, entry.key_span.clone(), &mut draft);
    }
    if let Some(entry) = top.get("servers") {
        draft.is_project = true;
        read_servers(f, file, &entry.value, kind, &mut draft);
    }
    if let Some(entry) = top.get("skills") {
        draft.is_project = true;
        read_skills(f, file, &entry.value, &mut draft);
    }
    if let Some(entry) = top.get("policy") {
        draft.is_project = true;
        let path = std::path::Path::new(&file.rel);
        if let Err(e) = agx_model::policy::parse_project(path, file, &entry.value) {
            let (span, message, hint) = match &e {
                agx_model::policy::PolicyError::Invalid { at, message, hint } => (
                    file.offset_of(at.line, at.column),
                    message.clone(),
                    hint.clone(),
                ),
                other => (entry.key_span.start, other.to_string(), None),
            };
            f.at(codes::INVALID_VALUE, file, &(span..span + 1), message, hint);
        }
    }
    if let Some(entry) = top.get("profiles") {
        draft.is_project = true;
        let servers = &draft.servers;
        let lookup = |key: &str| {
            servers.get(key).map(|decl| crate::profile::Member {
                key: key.to_string(),
                reference: decl.target.to_string(),
                args: decl.args.clone(),
            })
        };
        let taken: Vec<&str> = servers.keys().map(String::as_str).collect();
        draft.profiles =
            crate::profile::read_profiles(f, file, &entry.value, Some(&lookup), &taken);
    }
    draft
}

/// A version requirement as written, or a finding at its place (`*` when absent).
fn read_requirement(
    f: &mut Findings,
    file: &SourceFile,
    t: &Table,
) -> (String, Option<semver::VersionReq>) {
    match t.string(f, "version") {
        None => ("*".to_string(), Some(semver::VersionReq::STAR)),
        Some((text, node)) => match agx_core::name::parse_manifest_requirement(&text) {
            Ok(req) => (text, Some(req)),
            Err(e) => {
                f.at(
                    codes::INVALID_REQUIREMENT,
                    file,
                    &node.span,
                    format!("`{text}` is not a version requirement: {e}"),
                    Some("write a requirement such as \"^1.1\", \"~1.1.0\" or \"=1.1.0\"".into()),
                );
                (text, None)
            }
        },
    }
}

/// Server `key`'s `on-change`, checked where it is written.
fn read_on_change(
    f: &mut Findings,
    file: &SourceFile,
    key: &str,
    t: &Table,
) -> agx_store::pins::OnChange {
    use agx_store::pins::OnChange;
    let Some((text, node)) = t.string(f, "on-change") else {
        return OnChange::default();
    };
    OnChange::parse(&text).unwrap_or_else(|| {
        f.at(
            codes::INVALID_ON_CHANGE,
            file,
            &node.span,
            format!("`on-change = \"{text}\"` of server `{key}` is not a rule agx knows"),
            Some(format!(
                "write one of {} (docs/security.md, \"Pinned definitions\")",
                OnChange::VALUES.map(|v| format!("\"{v}\"")).join(", ")
            )),
        );
        OnChange::default()
    })
}

/// A skill of a published package: `publisher/package/skill`.
pub fn parse_skill(text: &str) -> Result<QualifiedName, String> {
    let skill = QualifiedName::parse(text).map_err(|e| e.to_string())?;
    if skill.package.publisher().is_none() {
        return Err("it needs the publisher, the package and the skill".into());
    }
    Ok(skill)
}

fn read_skills(f: &mut Findings, file: &SourceFile, node: &Node, draft: &mut Draft) {
    let Some(entries) = node.as_table() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!("[skills] must be a table, found {}", node.type_name()),
            None,
        );
        return;
    };
    // Each copy's folder is the skill's name: two entries may not share one.
    let mut folders: BTreeMap<String, String> = BTreeMap::new();
    for entry in entries {
        let key = &entry.key;
        if !agx_model::client_table::shape::is_portable_key(key) {
            f.at(
                codes::INVALID_SERVER_KEY,
                file,
                &entry.key_span,
                format!("`{key}` is not a valid entry name"),
                Some(
                    "use lowercase letters, digits and `-`, starting with a letter or digit".into(),
                ),
            );
            continue;
        }
        let what = format!("skill `{key}`");
        let Some(t) = Table::read(
            f,
            file,
            &entry.value,
            entry.key_span.clone(),
            what,
            SKILL_KEYS,
        ) else {
            continue;
        };
        let decl = if t.has("path") {
            read_skill_folder(f, file, &t, key)
        } else {
            read_package_skill(f, file, &t)
        };
        let Some(decl) = decl else {
            continue;
        };
        let folder = decl.name().to_string();
        if let Some(other) = folders.get(&folder) {
            f.at(
                codes::SKILL_FOLDER_CLASH,
                file,
                &entry.key_span,
                format!("`{key}` and `{other}` both name a skill `{folder}`; their copies would share one folder"),
                Some("keep one of them: a client loads one skill per name".into()),
            );
            continue;
        }
        folders.insert(folder, key.clone());
        draft.skills.insert(key.clone(), decl);
    }
}

/// A `[skills]` entry's `skill` and `version`.
fn read_package_skill(f: &mut Findings, file: &SourceFile, t: &Table) -> Option<SkillDecl> {
    let skill = t
        .require(f, "skill", "\"publisher/package/skill\"")
        .and_then(|_| t.string(f, "skill"))
        .and_then(|(text, node)| match parse_skill(&text) {
            Ok(q) => Some(q),
            Err(e) => {
                f.at(
                    codes::INVALID_SKILL_TARGET,
                    file,
                    &node.span,
                    format!("`{text}` names no skill: {e}"),
                    Some("give the package and the skill: `acme/dev/review`, or a folder of the project: `path = \"skills/review\"`".into()),
                );
                None
            }
        });
    let (version, requirement) = read_requirement(f, file, t);
    Some(SkillDecl::Package(PackageSkill {
        skill: skill?,
        version,
        requirement: requirement?,
    }))
}

/// A `[skills]` entry's `path`: a folder inside the project, written relative to it with
/// `/`, whose last part names the skill. Whether it holds a skill is `sync`'s to check.
fn read_skill_folder(
    f: &mut Findings,
    file: &SourceFile,
    t: &Table,
    key: &str,
) -> Option<SkillDecl> {
    let (path, node) = t.string(f, "path")?;
    let mut bad = |node: &Node, message: String, hint: &str| {
        f.at(
            codes::INVALID_SKILL_TARGET,
            file,
            &node.span,
            message,
            Some(hint.into()),
        );
    };
    for other in ["skill", "version"] {
        if let Some(entry) = t.get(other) {
            bad(
                &entry.value,
                format!("skill `{key}` has both `path` and `{other}`"),
                "a folder of the project has no package or version: keep `path`, or name a package's skill with `skill` alone",
            );
            return None;
        }
    }
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    // Relative, `/`-separated, never climbing: a Windows drive (`C:`) or `\\` is not one.
    let escapes = path.is_empty()
        || path.starts_with('/')
        || path.contains('\\')
        || path.get(1..2) == Some(":")
        || parts.iter().any(|p| p.is_empty() || *p == "..")
        || parts.iter().all(|p| *p == ".");
    let inside = !escapes;
    if !inside {
        bad(
            node,
            format!("`path = \"{path}\"` of skill `{key}` is not a folder inside the project"),
            "write the skill's folder relative to agx.toml's folder, with `/`: `path = \"skills/review\"`",
        );
        return None;
    }
    let name = parts.last().copied().unwrap_or_default();
    let normal = parts
        .iter()
        .filter(|p| **p != ".")
        .copied()
        .collect::<Vec<_>>()
        .join("/");
    // The copies are written there: a source among them would be its own copy.
    if let Some(folder) = project_skill_folders()
        .into_iter()
        .find(|f| normal == *f || normal.starts_with(&format!("{f}/")))
    {
        bad(
            node,
            format!(
                "`path = \"{path}\"` of skill `{key}` is inside `{folder}`, where `agx sync` writes the skills' copies"
            ),
            "keep the skill outside the clients' skills folders (`tools/skills/NAME`): sync copies it into each of them",
        );
        return None;
    }
    if let Err(e) = agx_core::name::ItemName::parse(name) {
        bad(
            node,
            format!("the folder `{name}` of skill `{key}` cannot name a skill: {e}"),
            "a skill's folder is its name: lowercase letters, digits and `-`",
        );
        return None;
    }
    Some(SkillDecl::Folder { path: normal })
}

/// Every skills folder a client reads in a project (`.claude/skills`, `.agents/skills`,
/// `.cursor/skills`, …).
fn project_skill_folders() -> Vec<&'static str> {
    use agx_model::skills::folders::{FolderChoice, SKILL_CLIENTS, folder};
    let mut all: Vec<&str> = SKILL_CLIENTS
        .iter()
        .flat_map(|c| [FolderChoice::Shared, FolderChoice::Own].map(|f| folder(c, true, f)))
        .flatten()
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

fn read_project(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    anchor: Range<usize>,
    draft: &mut Draft,
) {
    let Some(t) = Table::read(f, file, node, anchor, "[project]", PROJECT_KEYS) else {
        return;
    };
    for (name, node) in t.strings(f, "clients").unwrap_or_default() {
        match agx_model::client_table::find(&name) {
            Some(client) if draft.clients.iter().any(|c| c.id == client.id) => f.at(
                codes::DUPLICATE_NAME,
                file,
                &node.span,
                format!("client `{name}` is listed twice in [project].clients"),
                Some("list each client once".into()),
            ),
            Some(client) => draft.clients.push(client),
            None => {
                let ids = client_table::CLIENTS.iter().map(|c| c.id);
                let hint = match did_you_mean(&name, ids) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => "`agx clients` lists the supported clients".into(),
                };
                f.at(
                    codes::UNKNOWN_CLIENT,
                    file,
                    &node.span,
                    format!("unknown client `{name}` in [project].clients"),
                    Some(hint),
                );
            }
        }
    }
}

fn read_servers(f: &mut Findings, file: &SourceFile, node: &Node, kind: Kind, draft: &mut Draft) {
    let Some(entries) = node.as_table() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!("[servers] must be a table, found {}", node.type_name()),
            None,
        );
        return;
    };
    let mut launched: BTreeMap<String, (String, BTreeMap<String, String>)> = BTreeMap::new();
    for entry in entries {
        let key = &entry.key;
        if !agx_model::client_table::shape::is_portable_key(key) {
            f.at(
                codes::INVALID_SERVER_KEY,
                file,
                &entry.key_span,
                format!("`{key}` is not a valid entry name"),
                Some(
                    "use lowercase letters, digits and `-`, starting with a letter or digit (every client accepts those)"
                        .into(),
                ),
            );
            continue;
        }
        draft
            .key_locations
            .insert(key.clone(), file.location(entry.key_span.start).to_string());
        let what = format!("server `{key}`");
        let Some(t) = Table::read(
            f,
            file,
            &entry.value,
            entry.key_span.clone(),
            what,
            COMMITTED_SERVER_KEYS,
        ) else {
            continue;
        };
        let enabled = t.bool(f, "enabled").unwrap_or(true);
        let disables_only = kind == Kind::Local && !t.has("server");
        if disables_only {
            if enabled {
                t.require(f, "server", "\"publisher/package/server\"");
                continue;
            }
            // `key = { enabled = false }`: which committed key it disables is checked on load.
            draft.disabled.insert(key.clone());
            continue;
        }
        let target = t
            .require(f, "server", "\"publisher/package/server\"")
            .and_then(|_| t.string(f, "server"))
            .and_then(|(text, node)| match ServerTarget::parse(&text) {
                Ok(target) => Some(target),
                Err(e) => {
                    f.at(
                        codes::INVALID_SERVER_TARGET,
                        file,
                        &node.span,
                        format!("`{text}` names no server: {e}"),
                        Some(
                            "give a qualified server (`acme/weather/forecast`) or a package with one server (`acme/weather`)"
                                .into(),
                        ),
                    );
                    None
                }
            });
        let (version, requirement) = read_requirement(f, file, &t);
        let settings = t
            .get("settings")
            .map(|e| read_settings(f, file, key, &e.value, draft))
            .unwrap_or_default();
        let args: Vec<String> = t
            .strings(f, "args")
            .unwrap_or_default()
            .into_iter()
            .map(|(arg, _)| arg)
            .collect();
        let filter = read_filter(f, file, key, &t);
        let permissions = t.get("permissions").and_then(|e| {
            agx_model::manifest::items::read_permissions(
                f,
                file,
                &e.value,
                e.key_span.clone(),
                &format!("`permissions` of server `{key}`"),
            )
        });
        let on_change = read_on_change(f, file, key, &t);
        let (Some(target), Some(requirement)) = (target, requirement) else {
            continue;
        };
        let launch = target.to_string();
        if let Some((other, other_settings)) = launched.get(&launch)
            && other_settings != &settings
        {
            f.at(
                codes::CONFLICTING_PROJECT_SETTINGS,
                file,
                &entry.key_span,
                format!("`{key}` and `{other}` both launch {launch} with different settings"),
                Some(
                    "`agx serve` finds a project's values by server; give both the same settings, or keep one"
                        .into(),
                ),
            );
        }
        launched.insert(launch, (key.clone(), settings.clone()));
        draft.servers.insert(
            key.clone(),
            ServerDecl {
                target,
                version,
                requirement,
                settings,
                enabled,
                args,
                filter,
                permissions,
                on_change,
            },
        );
    }
}

/// The `tools`, `prompts` and `resources` filters of server `key`, each checked (globs,
/// renames) where it is written.
fn read_filter(
    f: &mut Findings,
    file: &SourceFile,
    key: &str,
    server: &Table,
) -> agx_model::filter::FilterSpec {
    use agx_model::filter::{FilterSpec, Kind, Rules};
    let mut spec = FilterSpec::default();
    for (name, kind, slot) in [
        ("tools", Kind::Tool, &mut spec.tools),
        ("prompts", Kind::Prompt, &mut spec.prompts),
        ("resources", Kind::Resource, &mut spec.resources),
    ] {
        let Some(entry) = server.get(name) else {
            continue;
        };
        let what = format!("`{name}` of server `{key}`");
        let Some(t) = Table::read(
            f,
            file,
            &entry.value,
            entry.key_span.clone(),
            what,
            FILTER_KEYS,
        ) else {
            continue;
        };
        let strings = |f: &mut Findings, list: &str| -> Vec<String> {
            t.strings(f, list)
                .unwrap_or_default()
                .into_iter()
                .map(|(s, _)| s)
                .collect()
        };
        let rules = Rules {
            allow: strings(f, "allow"),
            deny: strings(f, "deny"),
            rename: t.string_map(f, "rename").unwrap_or_default(),
            descriptions: t.string_map(f, "descriptions").unwrap_or_default(),
        };
        match rules.check(kind, &file.rel) {
            Ok(_) => *slot = rules,
            Err(e) => f.at(
                codes::INVALID_FILTER,
                file,
                &entry.value.span,
                format!("{} of server `{key}`: {}", e.what, e.detail),
                agx_core::error::Hint::hint(&e),
            ),
        }
    }
    spec
}

fn read_settings(
    f: &mut Findings,
    file: &SourceFile,
    key: &str,
    node: &Node,
    draft: &mut Draft,
) -> BTreeMap<String, String> {
    let Some(items) = node.as_table() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!(
                "`settings` of server `{key}` must be a table, found {}",
                node.type_name()
            ),
            None,
        );
        return BTreeMap::new();
    };
    let mut out = BTreeMap::new();
    for item in items {
        let text = match &item.value.value {
            Value::String(s) => s.clone(),
            Value::Integer(i) => i.to_string(),
            Value::Float(x) => x.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => {
                f.at(
                    codes::WRONG_TYPE,
                    file,
                    &item.value.span,
                    format!(
                        "setting `{}` of server `{key}` must be a string, number or boolean, found {}",
                        item.key,
                        item.value.type_name()
                    ),
                    None,
                );
                continue;
            }
        };
        draft
            .setting_spans
            .insert((key.to_string(), item.key.clone()), item.value.span.clone());
        out.insert(item.key.clone(), text);
    }
    out
}

/// Check each entry's setting values against the declarations of its installed package
/// (`declared` gives them; `None` when the package is not installed, which skips it).
pub fn check_settings(
    f: &mut Findings,
    file: &SourceFile,
    draft: &Draft,
    declared: &dyn Fn(&PackageName) -> Option<Vec<Setting>>,
) {
    for (key, decl) in &draft.servers {
        if decl.settings.is_empty() {
            continue;
        }
        let Some(settings) = declared(decl.target.package()) else {
            continue;
        };
        for (name, value) in &decl.settings {
            let span = &draft.setting_spans[&(key.clone(), name.clone())];
            let package = decl.target.package();
            match settings.iter().find(|s| &s.key == name) {
                None => {
                    let hint = match did_you_mean(name, settings.iter().map(|s| s.key.as_str())) {
                        Some(close) => format!("did you mean `{close}`?"),
                        None if settings.is_empty() => format!("{package} declares no settings"),
                        None => format!(
                            "{package} declares: {}",
                            settings
                                .iter()
                                .map(|s| s.key.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    };
                    f.at(
                        codes::UNDECLARED_PROJECT_SETTING,
                        file,
                        span,
                        format!("{package} declares no setting `{name}` (server `{key}`)"),
                        Some(hint),
                    );
                }
                Some(s) if s.secret => f.at(
                    codes::PROJECT_SECRET_VALUE,
                    file,
                    span,
                    format!(
                        "`{name}` of {package} is a secret; a project file (committed) must not hold its value"
                    ),
                    Some(format!(
                        "remove it here; each person sets it once with `agx config set {package} {name}`"
                    )),
                ),
                Some(s) => {
                    if let Err(e) = s.check_value(value) {
                        f.at(
                            codes::INVALID_PROJECT_SETTING_VALUE,
                            file,
                            span,
                            format!("setting `{name}` of server `{key}`: {e}"),
                            Some(e.hint(s)),
                        );
                    }
                }
            }
        }
    }
}

/// Whether `dir/agx.toml` declares a project, and if so whether it also holds `[package]`
/// (then `agx validate` checks the package too).
pub fn project_tables(dir: &Path) -> Option<bool> {
    let file = dir.join(PROJECT_FILE);
    if !super::discover::is_project_file(&file) {
        return None;
    }
    let text = super::discover::read_regular(&file)?;
    let has_package = agx_model::manifest::spanned::parse_toml(&text)
        .ok()
        .and_then(|doc| doc.as_table().map(|t| t.iter().any(|e| e.key == "package")))
        .unwrap_or(true);
    Some(has_package)
}

/// What `agx validate` finds in a folder's project files (`agx.toml`, `agx.local.toml`).
/// `declared` gives a package's setting declarations (`None`: unknown, values unchecked).
pub fn check_dir(
    dir: &Path,
    declared: &dyn Fn(&PackageName) -> Option<Vec<Setting>>,
) -> Vec<agx_model::manifest::Finding> {
    check_files(dir, declared, |name| name.to_string())
}

/// The checks of [`check_dir`] for the project commands (`sync`, `sync --check`, `lock`):
/// the first error, with the file's full path, line and column. So a secret value, an
/// undeclared setting or a wrong-typed value (E203, E204, E205) stops them as it stops
/// `agx validate`. Packages that are not installed are skipped, as validate skips them.
pub fn check_setting_values(
    dir: &Path,
    declared: &dyn Fn(&PackageName) -> Option<Vec<Setting>>,
) -> Result<(), ProjectError> {
    first_error(check_files(dir, declared, |name| {
        dir.join(name).display().to_string()
    }))
}

fn check_files(
    dir: &Path,
    declared: &dyn Fn(&PackageName) -> Option<Vec<Setting>>,
    shown_as: impl Fn(&str) -> String,
) -> Vec<agx_model::manifest::Finding> {
    let mut f = Findings::default();
    for (name, kind) in [(PROJECT_FILE, Kind::Committed), (LOCAL_FILE, Kind::Local)] {
        let Some(text) = super::discover::read_regular(&dir.join(name)) else {
            continue;
        };
        let file = SourceFile::new(shown_as(name), text);
        let draft = check_file(&mut f, &file, kind);
        check_settings(&mut f, &file, &draft, declared);
    }
    f.list
}

/// The declared settings of an installed package, for checking the values of the project in
/// `project`: the version that project holds (what `sync` installed for it), else the user's
/// version. `None` when neither is installed or it cannot be read: the checks are then
/// skipped.
pub fn installed_settings(
    store: &agx_store::Store,
    project: Option<&Path>,
    name: &PackageName,
) -> Option<Vec<Setting>> {
    let held = project
        .and_then(|dir| store.project_root(dir).ok().flatten())
        .and_then(|root| root.packages.into_iter().find(|p| &p.name == name))
        .filter(|p| store.has_version(name, &p.version, None))
        .map(|p| store.package_dir(name, &p.version));
    let dir = match held {
        Some(dir) => dir,
        None => store.installed_dir(name).ok()??,
    };
    let package = agx_model::manifest::load_installed(&dir).ok()?;
    Some(package.manifest.extension.settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, kind: Kind) -> (Draft, Vec<String>) {
        let file = SourceFile::new("agx.toml", text.to_string());
        let mut f = Findings::default();
        let draft = check_file(&mut f, &file, kind);
        let found = f
            .list
            .iter()
            .map(|x| format!("{} {} {}", x.code, x.location, x.message))
            .collect();
        (draft, found)
    }

    #[test]
    fn a_project_with_a_package_reads_its_servers() {
        let (draft, found) = check(
            "[package]\nname = \"acme/x\"\nversion = \"0.1.0\"\n\n[project]\nclients = [\"claude-code\", \"cursor\"]\n\n[servers]\nweather = { server = \"acme/weather/forecast\", version = \"^1.1\", settings = { units = \"metric\", days = 3 } }\ngeo = { server = \"acme/geo\" }\n",
            Kind::Committed,
        );
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(draft.clients.len(), 2);
        let w = &draft.servers["weather"];
        assert_eq!(w.target.to_string(), "acme/weather/forecast");
        assert_eq!(w.settings["days"], "3");
        assert!(matches!(
            draft.servers["geo"].target,
            ServerTarget::Package(_)
        ));
        assert_eq!(draft.servers["geo"].requirement, semver::VersionReq::STAR);
    }

    #[test]
    fn a_servers_permissions_are_read_and_bad_ones_are_findings_with_places() {
        let (draft, found) = check(
            "[servers.files]\nserver = \"acme/files/main\"\n\n[servers.files.permissions]\nwrite = [\"{project}/out\"]\nnetwork = \"none\"\n",
            Kind::Committed,
        );
        assert!(found.is_empty(), "{found:?}");
        let permissions = draft.servers["files"].permissions.as_ref().unwrap();
        assert_eq!(permissions.write, ["{project}/out"]);
        assert_eq!(permissions.network, agx_model::permissions::Network::None);

        let (_, found) = check(
            "[servers.files]\nserver = \"acme/files/main\"\npermissions = { read = [\"relative\"], env = [\"1X\"] }\n",
            Kind::Committed,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("E041 agx.toml:3:25 "), "{found:?}");
        assert!(found[1].starts_with("E041 agx.toml:3:45 "), "{found:?}");
    }

    #[test]
    fn bad_clients_keys_and_requirements_are_findings_with_places() {
        let (_, found) = check(
            "[project]\nclients = [\"cursr\"]\n\n[servers]\nWeather = { server = \"acme/weather/forecast\" }\nok = { server = \"acme/weather/forecast\", version = \"one\", colour = 1 }\n",
            Kind::Committed,
        );
        let all = found.join("\n");
        assert!(
            all.contains("E200 agx.toml:2:12 unknown client `cursr`"),
            "{all}"
        );
        assert!(all.contains("E201 agx.toml:5:1"), "{all}");
        assert!(all.contains("E003 agx.toml:6:"), "{all}");
        assert!(all.contains("E008 agx.toml:6:"), "{all}");
    }

    #[test]
    fn skills_are_read_and_bad_ones_are_findings_with_places() {
        let (draft, found) = check(
            "[skills]\nreview = { skill = \"acme/dev/review\", version = \"^1\" }\nnotes = { skill = \"acme/dev/release-notes\" }\n",
            Kind::Committed,
        );
        assert!(found.is_empty(), "{found:?}");
        assert!(draft.is_project);
        let package = |key: &str| draft.skills[key].package().unwrap().clone();
        assert_eq!(package("review").skill.to_string(), "acme/dev/review");
        assert_eq!(package("notes").requirement, semver::VersionReq::STAR);

        let (_, found) = check(
            "[skills]\nreview = { skill = \"acme/dev\" }\nb = { skill = \"acme/dev/review\", version = \"one\" }\nc = { skill = \"acme/dev/review\" }\nd = { skill = \"contoso/x/review\", colour = 1 }\n",
            Kind::Committed,
        );
        let all = found.join("\n");
        assert!(
            all.contains("E207 agx.toml:2:20 `acme/dev` names no skill"),
            "{all}"
        );
        assert!(all.contains("E008 agx.toml:3:"), "{all}");
        assert!(
            all.contains("E208 agx.toml:5:1 `d` and `c` both name a skill `review`"),
            "{all}"
        );
        assert!(all.contains("E003 agx.toml:5:"), "{all}");
        // The local file holds no skills: the lock pins them.
        let (_, found) = check("[skills]\n", Kind::Local);
        assert!(found[0].starts_with("E003"), "{found:?}");
    }

    #[test]
    fn a_skill_folder_is_read_and_one_outside_the_project_is_a_finding() {
        let (draft, found) = check(
            "[skills]\nreview = { path = \"./tools/skills/review/\" }\n",
            Kind::Committed,
        );
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(
            draft.skills["review"],
            SkillDecl::Folder {
                path: "tools/skills/review".into()
            }
        );
        assert_eq!(draft.skills["review"].name(), "review");
        for path in [
            "../x/review",
            "/abs/review",
            "a//review",
            "C:/review",
            "a\\\\review",
            ".",
            "",
            ".claude/skills/review",
            "./.agents/skills/review",
            ".github/skills",
        ] {
            let (draft, found) = check(
                &format!("[skills]\nreview = {{ path = {path:?} }}\n"),
                Kind::Committed,
            );
            assert!(draft.skills.is_empty(), "{path}");
            assert!(
                found.iter().any(|f| f.starts_with("E207 agx.toml:2:")),
                "{path}: {found:?}"
            );
        }
        // A folder and a package's skill of one name share a copy's folder.
        let (_, found) = check(
            "[skills]\na = { path = \"skills/review\" }\nb = { skill = \"acme/dev/review\" }\n",
            Kind::Committed,
        );
        assert!(found.iter().any(|f| f.starts_with("E208")), "{found:?}");
    }

    #[test]
    fn a_local_file_may_disable_by_key_but_not_hold_package_tables() {
        let (draft, found) = check("[servers]\nweather = { enabled = false }\n", Kind::Local);
        assert!(found.is_empty(), "{found:?}");
        assert!(draft.disabled.contains("weather"));
        let (_, found) = check("[package]\nname = \"a/b\"\n", Kind::Local);
        assert!(found[0].starts_with("E003"), "{found:?}");
    }

    #[test]
    fn secret_and_undeclared_settings_are_refused() {
        let text = "[servers]\nw = { server = \"acme/w/s\", settings = { api_key = \"x\", unitz = \"a\" } }\n";
        let file = SourceFile::new("agx.toml", text.to_string());
        let mut f = Findings::default();
        let draft = check_file(&mut f, &file, Kind::Committed);
        let declared = |_: &PackageName| {
            Some(vec![
                Setting {
                    secret: true,
                    ..Setting::new("api_key")
                },
                Setting::new("units"),
            ])
        };
        check_settings(&mut f, &file, &draft, &declared);
        let codes: Vec<_> = f.list.iter().map(|x| x.code).collect();
        assert_eq!(codes, ["E203", "E204"], "{:?}", f.list);
        assert_eq!(f.list[1].hint.as_deref(), Some("did you mean `units`?"));
    }
}
