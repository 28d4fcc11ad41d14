//! What of a Claude Code plugin becomes an agx package (docs/plugins.md, "What is carried"):
//! its MCP servers and skills, each on its own. A server or skill agx cannot carry is left
//! out and named with the plugin's own file and the reason, and the rest is installed, as
//! Claude Code loads the rest; a plugin with nothing agx can carry is refused. Strictness
//! stays for one's own package (`agx validate`); leniency here is about format only: no
//! link is followed and every file is read by the bounded readers.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::lenient_skill;
use super::names::{self, Author};
use crate::ecosystem::EcosystemError;
use crate::index::dialect::Dialect;
use crate::index::marketplace::{self, Components};
use crate::index::marketplace_files;
use agx_core::name::PackageName;
use agx_model::manifest::diagnostics::{Findings, Severity};
use agx_model::skills::rules;

/// Where the generated server definitions go (the default definition root).
const SERVERS_FOLDER: &str = "agx/servers";

/// A server, skill or setting of the plugin agx does not carry, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NotCarried {
    /// `server `google calendar``, `skill `notes``.
    pub what: String,
    /// The plugin's own file (`.mcp.json`, `skills/notes/SKILL.md`).
    pub place: String,
    pub reason: String,
}

impl std::fmt::Display for NotCarried {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}: {})", self.what, self.place, self.reason)
    }
}

/// The package facts that do not come from the plugin's files.
pub(crate) struct PackageFacts<'a> {
    pub name: &'a PackageName,
    pub version: &'a semver::Version,
    /// The catalog entry's description, used when `plugin.json` has none.
    pub description: Option<String>,
    /// `weather-tools@acme` or the folder, for messages.
    pub label: &'a str,
}

/// One MCP server as a wrapped or remote server definition.
struct Server {
    /// Its key in the plugin's servers (`google calendar`).
    key: String,
    /// The agx item name (`google-calendar`).
    item: String,
    table: toml::Table,
}

/// A skill rewritten for every client (`` `notes` (skills/Notes/SKILL.md) ``), and what
/// changed.
type Rewritten = (String, Vec<String>);

/// One skill carried: its agx name and the plugin's own folder for it.
struct Skill {
    name: String,
    origin: String,
}

/// Write `agx.toml`, one server definition per MCP server and `.agxignore` into `dir`, which
/// holds the plugin's files; `skipped_links` are the links its copy left out. Returns the
/// warnings for the user: what was not carried, and skills rewritten for other clients.
/// `dir` is a staging copy that is gone when the user reads a message: messages name the
/// plugin (`facts.label`) in its place.
pub(crate) fn write_package(
    facts: &PackageFacts<'_>,
    dir: &Path,
    skipped_links: &[String],
) -> Result<Vec<String>, EcosystemError> {
    let staged = dir.display().to_string();
    let in_plugin = |text: String| text.replace(&staged, facts.label);
    match write_staged(facts, dir, skipped_links) {
        Ok(warnings) => Ok(warnings.into_iter().map(in_plugin).collect()),
        Err(EcosystemError::Bundle {
            bundle,
            detail,
            hint,
        }) => Err(EcosystemError::Bundle {
            bundle,
            detail: in_plugin(detail),
            hint,
        }),
        Err(other) => Err(other),
    }
}

fn write_staged(
    facts: &PackageFacts<'_>,
    dir: &Path,
    skipped_links: &[String],
) -> Result<Vec<String>, EcosystemError> {
    let label = facts.label;
    let bad = |detail: String, hint: &str| EcosystemError::Bundle {
        bundle: label.to_string(),
        detail,
        hint: hint.to_string(),
    };
    // Any dialect's: the copy left the link out, so the folder may now look like another
    // dialect's plugin (a root `plugin.json` beside a linked `.claude-plugin/plugin.json`).
    let linked_manifest = |link: &String| {
        Dialect::ALL
            .into_iter()
            .find(|d| Some(link.as_str()) == d.manifest_folder() || link == d.manifest_file())
    };
    if let Some((link, dialect)) = skipped_links
        .iter()
        .find_map(|l| linked_manifest(l).map(|d| (l, d)))
    {
        return Err(bad(
            format!(
                "`{link}` is a symbolic link: agx reads a plugin's manifest only as a regular file of the plugin, and follows no link"
            ),
            &format!(
                "ask the plugin's maintainer to commit the file itself; {} can still install the plugin",
                dialect.client()
            ),
        ));
    }
    let dialect = Dialect::of(dir);
    let manifest_hint = manifest_hint(dialect);
    // Read once: the raw document for the fields only some dialects have (settings,
    // author), parsed for the components.
    let manifest_doc = marketplace::read_dialect_manifest(dir, dialect)
        .map_err(|e| bad(e.to_string(), &manifest_hint))?;
    let manifest = match &manifest_doc {
        None => marketplace::PluginManifest::empty(dialect),
        Some(doc) => marketplace::PluginManifest::parse(dir, dialect, doc.clone())
            .map_err(|e| bad(e.to_string(), &manifest_hint))?,
    };
    let manifest_doc = manifest_doc.unwrap_or(Value::Null);
    let mut not_carried = Vec::new();
    // Read first, listed after the servers and skills: a Gemini setting also adds its
    // variable to every server's environment.
    let mut settings_not_carried = Vec::new();
    let (settings, setting_env) = match dialect {
        Dialect::Gemini => gemini_settings(&manifest_doc, &mut settings_not_carried),
        Dialect::Cursor => cursor_variables(&manifest_doc, &mut settings_not_carried),
        _ => (
            user_config_settings(&manifest_doc, &mut settings_not_carried),
            BTreeMap::new(),
        ),
    };
    let mut servers = servers(
        dir,
        &manifest.components,
        &setting_env,
        skipped_links,
        &mut not_carried,
    );
    let (mut skills, adapted) = skills(
        label,
        dir,
        &manifest.components,
        skipped_links,
        &mut not_carried,
    )?;

    let description = manifest
        .description
        .clone()
        .or_else(|| facts.description.clone())
        .unwrap_or_else(|| format!("{label} ({})", dialect.describe()));
    let mut package = toml::Table::new();
    package.insert("name".into(), facts.name.to_string().into());
    package.insert("version".into(), facts.version.to_string().into());
    package.insert("description".into(), description.into());
    if let Some(author) = author(&manifest_doc) {
        package.insert("authors".into(), vec![author].into());
    }
    for key in ["license", "homepage"] {
        if let Some(value) = manifest_doc.get(key).and_then(Value::as_str) {
            package.insert(key.into(), value.into());
        }
    }
    not_carried.extend(settings_not_carried);
    if dialect == Dialect::Gemini {
        not_carried.extend(gemini_excluded_tools(&manifest_doc));
    }
    // What validation refuses is left out with the plugin's file named, and the rest checked
    // again: a definition agx generated is never what the user is told to fix.
    loop {
        if servers.is_empty() && skills.is_empty() {
            return Err(nothing_to_carry(
                label,
                dir,
                &manifest.components,
                &not_carried,
            ));
        }
        write_files(dir, &package, &servers, &skills, &settings)?;
        let report = agx_model::manifest::load::check(dir);
        let errors: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .collect();
        if errors.is_empty() {
            break;
        }
        let before = servers.len() + skills.len();
        for finding in &errors {
            let file = finding.location.file.as_str();
            let reason = finding.message.clone();
            if let Some(i) = servers
                .iter()
                .position(|s| file == format!("{SERVERS_FOLDER}/{}.toml", s.item))
            {
                let server = servers.remove(i);
                fs_err::remove_file(dir.join(file))?;
                not_carried.push(NotCarried {
                    what: format!("server `{}`", server.key),
                    place: marketplace::servers_place(&manifest.components),
                    reason,
                });
            } else if let Some(i) = skills
                .iter()
                .position(|s| file.starts_with(&format!("skills/{}/", s.name)))
            {
                let skill = skills.remove(i);
                agx_core::fsutil::remove_tree(&dir.join("skills").join(&skill.name))?;
                not_carried.push(NotCarried {
                    what: format!("skill `{}`", skill.name),
                    place: format!("{}/SKILL.md", skill.origin),
                    reason,
                });
            }
        }
        if servers.len() + skills.len() == before {
            let messages: Vec<String> = errors
                .iter()
                .map(|f| format!("{}: {}", f.location, f.message))
                .collect();
            return Err(bad(
                format!("agx cannot make a package of it: {}", messages.join("; ")),
                &format!(
                    "this is likely a bug in agx's import; please report it with the plugin's name. {} can install the plugin as it is",
                    dialect.client()
                ),
            ));
        }
    }

    let mut warnings = Vec::new();
    if !not_carried.is_empty() {
        let listed: Vec<String> = not_carried.iter().map(ToString::to_string).collect();
        warnings.push(format!(
            "{label}: not carried: {}; the rest of the plugin is installed",
            listed.join(", ")
        ));
    }
    warnings.extend(adapted.into_iter().map(|(skill, changes)| {
        format!(
            "{label}: skill {skill} rewritten so every client loads it: {}",
            changes.join("; ")
        )
    }));
    Ok(warnings)
}

/// What to do about a manifest agx cannot read.
fn manifest_hint(dialect: Dialect) -> String {
    format!(
        "fix the plugin's {}, or ask its maintainer to",
        dialect.manifest_file()
    )
}

/// The refusal of a plugin with no server or skill agx can carry, naming what it has.
fn nothing_to_carry(
    label: &str,
    dir: &Path,
    manifest: &Components,
    not_carried: &[NotCarried],
) -> EcosystemError {
    let mut has = marketplace::uncarried_components(dir, manifest);
    has.extend(not_carried.iter().map(ToString::to_string));
    let detail = if has.is_empty() {
        "nothing agx can carry: it has no MCP server and no skill".to_string()
    } else {
        format!("nothing agx can carry: {}", has.join(", "))
    };
    EcosystemError::Bundle {
        bundle: label.to_string(),
        detail,
        hint: format!(
            "agx carries a plugin's MCP servers and skills to every client; its other parts (hooks, agents, commands, rules, …) belong to the client it was written for: install this plugin with {}",
            manifest.dialect.client()
        ),
    }
}

/// The plugin's servers as definitions; those agx cannot run go to `not_carried`.
fn servers(
    dir: &Path,
    manifest: &Components,
    setting_env: &BTreeMap<String, String>,
    skipped_links: &[String],
    not_carried: &mut Vec<NotCarried>,
) -> Vec<Server> {
    let place = marketplace::servers_place(manifest);
    let mut all = |reason: String| {
        not_carried.push(NotCarried {
            what: "servers".into(),
            place: place.clone(),
            reason,
        })
    };
    if skipped_links.contains(&place) {
        all("is a symbolic link; agx reads it only as a regular file of the plugin".into());
        return Vec::new();
    }
    let defs = match marketplace::plugin_servers(dir, manifest) {
        Ok(defs) => defs,
        Err(e) => {
            all(e.to_string());
            return Vec::new();
        }
    };
    let mut servers: Vec<Server> = Vec::new();
    for (key, def) in defs {
        let made = server_table(&def, manifest.dialect, setting_env).and_then(|mut table| {
            let item = crate::ecosystem::server_name_from("", &key).map_err(|_| {
                "its name has no letter or digit agx can name a server with".to_string()
            })?;
            // Compared without case: their definition files would be one file on macOS
            // and Windows.
            let taken = servers
                .iter()
                .find(|s| s.item.eq_ignore_ascii_case(item.as_str()));
            if let Some(other) = taken {
                return Err(format!(
                    "its agx name `{item}` is the server `{}`'s too",
                    other.key
                ));
            }
            table.insert("name".into(), item.as_str().into());
            Ok(Server {
                key: key.clone(),
                item: item.as_str().to_string(),
                table,
            })
        });
        match made {
            Ok(server) => servers.push(server),
            Err(reason) => not_carried.push(NotCarried {
                what: format!("server `{key}`"),
                place: place.clone(),
                reason,
            }),
        }
    }
    servers
}

/// A server definition from its `.mcp.json` entry, or why there is none. `setting_env` maps
/// a variable of the plugin's settings (`${VAR}` in its text) to the setting; a Gemini
/// command server's environment also gets each where the entry does not set it itself.
fn server_table(
    def: &Value,
    dialect: Dialect,
    setting_env: &BTreeMap<String, String>,
) -> Result<toml::Table, String> {
    // A Gemini setting's variable in the extension's own text (`"--key=${API_KEY}"`) is the
    // setting, as Gemini CLI substitutes it.
    let translate = |text: &str| {
        let mut out = dialect.translate(text);
        for (variable, setting) in setting_env {
            out = out.replace(&format!("${{{variable}}}"), setting);
        }
        out
    };
    let Some(def) = def.as_object() else {
        return Err("its entry is not an object".into());
    };
    let text = |key: &str| match def.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Err(format!("\"{key}\" is empty")),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(format!("\"{key}\" is not text")),
    };
    let pairs = |key: &str| -> BTreeMap<String, String> {
        def.get(key)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), translate(&json_text(v))))
            .collect()
    };
    let mut table = toml::Table::new();
    if let Some(command) = text("command")? {
        let mut line = vec![translate(command)];
        for arg in def
            .get("args")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            line.push(translate(&json_text(arg)));
        }
        table.insert("command".into(), line.into());
        let mut env = pairs("env");
        // Gemini CLI also sets each setting's variable in its servers' environment; Cursor
        // substitutes its variables in the text only.
        if dialect == Dialect::Gemini {
            for (name, value) in setting_env {
                env.entry(name.clone()).or_insert_with(|| value.clone());
            }
        }
        if !env.is_empty() {
            table.insert("env".into(), toml::Value::try_from(env).expect("strings"));
        }
        if let Some(cwd) = def.get("cwd").and_then(Value::as_str)
            && let Some(cwd) = dialect.relative_cwd(cwd)
        {
            table.insert("cwd".into(), cwd.into());
        }
    } else if let Some(url) = text("url")?.or(text("httpUrl")?) {
        // (`httpUrl` is Gemini CLI's streamable-HTTP server; its `url` is SSE.)
        table.insert("url".into(), translate(url).into());
        let headers = pairs("headers");
        if !headers.is_empty() {
            table.insert(
                "headers".into(),
                toml::Value::try_from(headers).expect("strings"),
            );
        }
        if let Some(oauth) = def.get("oauth").and_then(oauth_table) {
            table.insert("oauth".into(), oauth.into());
        }
    } else {
        return Err("it has neither \"command\" nor \"url\"".into());
    }
    Ok(table)
}

/// A remote entry's sign-in (Claude Code's `oauth`: `clientId`, `callbackPort`, `scopes` as
/// one space-separated string or a list) as the server definition's `[oauth]` (docs/auth.md);
/// `None` when it has none of those.
fn oauth_table(oauth: &Value) -> Option<toml::Table> {
    let mut table = toml::Table::new();
    if let Some(id) = oauth
        .get("clientId")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
    {
        table.insert("client_id".into(), id.into());
    }
    if let Some(port) = oauth
        .get("callbackPort")
        .and_then(Value::as_u64)
        .filter(|p| (1..=u64::from(u16::MAX)).contains(p))
    {
        table.insert("callback_port".into(), (port as i64).into());
    }
    let scopes: Vec<String> = match oauth.get("scopes") {
        Some(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    if !scopes.is_empty() {
        table.insert("scopes".into(), scopes.into());
    }
    (!table.is_empty()).then_some(table)
}

/// The skills agx carries, each in `skills/<name>/` of `dir` and valid for every client
/// (rewritten when Claude Code would load it but the Agent Skills rules refuse it), with
/// the rewritten ones and what changed; the others go to `not_carried`.
fn skills(
    label: &str,
    dir: &Path,
    manifest: &Components,
    skipped_links: &[String],
    not_carried: &mut Vec<NotCarried>,
) -> Result<(Vec<Skill>, Vec<Rewritten>), EcosystemError> {
    let roots = marketplace::skill_roots(manifest);
    let found = marketplace::plugin_skills(dir, manifest).map_err(|e| EcosystemError::Bundle {
        bundle: label.to_string(),
        detail: e.to_string(),
        hint: manifest_hint(manifest.dialect),
    })?;
    let relative = |folder: &Path| {
        folder
            .strip_prefix(dir)
            .unwrap_or(folder)
            .to_string_lossy()
            .replace('\\', "/")
    };
    // A skill with a link among its files would be carried without it.
    let mut broken: BTreeMap<String, String> = BTreeMap::new();
    for link in skipped_links {
        let in_skill = found
            .iter()
            .map(|(_, folder)| relative(folder))
            .find(|folder| link.starts_with(&format!("{folder}/")));
        let folder = match in_skill {
            Some(folder) => folder,
            None => match link.rsplit_once('/') {
                // A skill folder that is itself a link.
                Some((parent, _)) if roots.iter().any(|r| r == parent) => link.clone(),
                // The skills folder itself.
                _ if roots.contains(link) => link.clone(),
                _ => continue,
            },
        };
        broken.entry(folder).or_insert_with(|| {
            format!("`{link}` is a symbolic link; agx copies a skill's files and follows no link")
        });
    }
    for (folder, reason) in &broken {
        let name = folder.rsplit('/').next().unwrap_or(folder);
        not_carried.push(NotCarried {
            what: format!("skill `{name}`"),
            place: folder.clone(),
            reason: reason.clone(),
        });
    }
    // Folders of `skills/` without a SKILL.md: Claude Code does not load them either, but
    // the user may expect them.
    if let Ok(entries) = std::fs::read_dir(dir.join("skills")) {
        for entry in entries.flatten() {
            let folder = relative(&entry.path());
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            let known = found.iter().any(|(_, f)| relative(f) == folder);
            if is_dir && !known && !broken.contains_key(&folder) {
                not_carried.push(NotCarried {
                    what: format!("skill `{}`", entry.file_name().to_string_lossy()),
                    place: folder,
                    reason: "has no SKILL.md".into(),
                });
            }
        }
    }
    // A partial copy of a skill is no skill.
    for folder in broken.keys() {
        agx_core::fsutil::remove_tree(&dir.join(folder))?;
    }

    let mut carried: Vec<Skill> = Vec::new();
    let mut adapted = Vec::new();
    for (found_name, folder) in found {
        let origin = relative(&folder);
        if broken.contains_key(&origin) {
            continue;
        }
        let not = |reason: String| NotCarried {
            what: format!("skill `{found_name}`"),
            place: format!("{origin}/SKILL.md"),
            reason,
        };
        let name = names::skill_name(&found_name);
        if !rules::is_valid_name(&name) {
            not_carried.push(not(
                "its folder's name has no letter or digit to name the skill with".into(),
            ));
            continue;
        }
        if let Some(other) = carried.iter().find(|s| s.name == name) {
            not_carried.push(not(format!(
                "its name `{name}` is the skill in `{}`'s too",
                other.origin
            )));
            continue;
        }
        let wanted = dir.join("skills").join(&name);
        if folder != wanted {
            if marketplace_files::exists(&wanted) && !same_folder(&folder, &wanted) {
                not_carried.push(not(format!(
                    "its name `{name}` is the folder `skills/{name}`'s, which is not this skill"
                )));
                continue;
            }
            if folder.parent() == wanted.parent() {
                // Through another name: on a file system that ignores case, `Notes` and
                // `notes` are one folder.
                let moving = dir.join("skills").join(format!(".agx-renaming-{name}"));
                fs_err::rename(&folder, &moving)?;
                fs_err::rename(&moving, &wanted)?;
            } else {
                marketplace_files::copy_tree(&folder, &wanted).map_err(|e| {
                    EcosystemError::Bundle {
                        bundle: label.to_string(),
                        detail: e.to_string(),
                        hint: manifest_hint(manifest.dialect),
                    }
                })?;
            }
        }
        let mut changes = match checked_skill(dir, &name) {
            SkillCheck::Valid => Vec::new(),
            SkillCheck::Adapted(changes) => changes,
            SkillCheck::Refused(reason) => {
                agx_core::fsutil::remove_tree(&wanted)?;
                not_carried.push(not(reason));
                continue;
            }
        };
        // Copied out alone by `install-skill`, it must hold what it names of its plugin.
        changes.extend(super::plugin_root::carry(dir, &wanted)?);
        if !changes.is_empty() {
            adapted.push((format!("`{name}` ({origin}/SKILL.md)"), changes));
        }
        carried.push(Skill { name, origin });
    }
    carried.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((carried, adapted))
}

/// Whether two paths of the staged copy (which holds no link) are one folder, as they are
/// on a file system that ignores case.
fn same_folder(a: &Path, b: &Path) -> bool {
    matches!(
        (std::fs::canonicalize(a), std::fs::canonicalize(b)),
        (Ok(a), Ok(b)) if a == b
    )
}

enum SkillCheck {
    Valid,
    /// Valid once its front matter was rewritten; what changed.
    Adapted(Vec<String>),
    /// Not valid even so: the first error.
    Refused(String),
}

/// Check `skills/<name>` of `dir` as validation does; rewrite its front matter when that
/// makes it valid.
fn checked_skill(dir: &Path, name: &str) -> SkillCheck {
    let folder = format!("skills/{name}");
    let first_error = || {
        let mut findings = Findings::default();
        agx_model::skills::check_skill(&mut findings, dir, &folder);
        findings
            .list
            .into_iter()
            .find(|f| f.severity == Severity::Error)
    };
    let Some(error) = first_error() else {
        return SkillCheck::Valid;
    };
    let refused = |f: &agx_model::manifest::diagnostics::Finding| {
        SkillCheck::Refused(format!("line {}: {}", f.location.line, f.message))
    };
    let file = dir.join(&folder).join(agx_model::skills::SKILL_FILE);
    // Read as validation read it: a regular file within the cap.
    let Ok(Some(bytes)) = marketplace_files::read(
        dir,
        &format!("{folder}/{}", agx_model::skills::SKILL_FILE),
        marketplace_files::MAX_PLUGIN_FILE_BYTES,
    ) else {
        return refused(&error);
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return refused(&error);
    };
    let Some(adapted) = lenient_skill::adapt(&text, name) else {
        return refused(&error);
    };
    if fs_err::write(&file, &adapted.text).is_err() {
        return refused(&error);
    }
    match first_error() {
        None => SkillCheck::Adapted(adapted.changes),
        Some(error) => refused(&error),
    }
}

/// `Name <email> (url)` from the manifest's `author` (an object or text).
fn author(manifest: &Value) -> Option<String> {
    let author = manifest.get("author")?;
    if let Some(text) = author.as_str() {
        return (!text.trim().is_empty()).then(|| text.trim().to_string());
    }
    let part = |key: &str| {
        author
            .get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    Some(
        Author {
            name: part("name")?,
            email: part("email"),
            url: part("url"),
        }
        .to_string(),
    )
}

/// Write `agx.toml`, the server definitions and `.agxignore`.
fn write_files(
    dir: &Path,
    package: &toml::Table,
    servers: &[Server],
    skills: &[Skill],
    settings: &toml::Table,
) -> Result<(), EcosystemError> {
    let mut extension = toml::Table::new();
    if !servers.is_empty() {
        let server_dir = dir.join(SERVERS_FOLDER);
        fs_err::create_dir_all(&server_dir)?;
        for server in servers {
            fs_err::write(
                server_dir.join(format!("{}.toml", server.item)),
                toml::to_string(&server.table).expect("a table"),
            )?;
        }
        let names: Vec<&str> = servers.iter().map(|s| s.item.as_str()).collect();
        extension.insert("servers".into(), names.into());
    }
    if !skills.is_empty() {
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        extension.insert("skills".into(), names.into());
    }
    if !settings.is_empty() {
        extension.insert("settings".into(), settings.clone().into());
    }
    let mut doc = toml::Table::new();
    doc.insert("package".into(), package.clone().into());
    doc.insert("extension".into(), extension.into());
    fs_err::write(
        dir.join("agx.toml"),
        toml::to_string(&doc).expect("a table"),
    )?;
    // The plugin's own files (hooks, agents, commands, its manifest) are not agx package
    // files: validation must not judge them.
    let mut ignore = String::new();
    for folder in [
        "/.claude-plugin/",
        "/.codex-plugin/",
        "/.cursor-plugin/",
        "/plugin.json",
        "/gemini-extension.json",
        "/hooks/",
        "/agents/",
        "/commands/",
        "/rules/",
        "/output-styles/",
        "/.mcp.json",
        "/mcp.json",
        "/.lsp.json",
        "/.app.json",
    ] {
        ignore.push_str(folder);
        ignore.push('\n');
    }
    fs_err::write(dir.join(".agxignore"), ignore)?;
    Ok(())
}

/// A string as it is; a number or boolean as JSON writes it (`"args": ["--port", 8080]`).
pub(crate) fn json_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// `userConfig` options as `[extension.settings]`: `sensitive` → `secret`, `required`,
/// `default`, `title`/`description` → `description`, and the type (`number`, `boolean`, else
/// `string`). An option agx cannot hold as a setting (a key that is no setting name, an
/// option that is not an object) is not carried: a server that uses it is then left out by
/// validation, and the rest of the plugin installs.
pub(crate) fn user_config_settings(
    manifest: &Value,
    not_carried: &mut Vec<NotCarried>,
) -> toml::Table {
    let mut settings = toml::Table::new();
    let Some(options) = manifest.get("userConfig").and_then(Value::as_object) else {
        return settings;
    };
    for (key, option) in options {
        let problem = if !agx_model::settings::declaration::is_valid_key(key) {
            Some(
                "it is no name agx can give a setting (ASCII letters, digits and `_`, starting with a letter)",
            )
        } else if !option.is_object() {
            Some("it is not an object")
        } else {
            None
        };
        if let Some(reason) = problem {
            not_carried.push(NotCarried {
                what: format!("setting `{key}`"),
                place: ".claude-plugin/plugin.json userConfig".into(),
                reason: reason.into(),
            });
            continue;
        }
        let mut setting = toml::Table::new();
        let text = |field: &str| option.get(field).and_then(Value::as_str);
        let description = match (text("title"), text("description")) {
            (Some(title), Some(description)) => Some(format!("{title}: {description}")),
            (a, b) => a.or(b).map(str::to_string),
        };
        if let Some(description) = description {
            setting.insert("description".into(), description.into());
        }
        let kind = match text("type") {
            Some("number") => "number",
            Some("boolean") => "boolean",
            _ => "string",
        };
        setting.insert("type".into(), kind.into());
        if option.get("sensitive").and_then(Value::as_bool) == Some(true) {
            setting.insert("secret".into(), true.into());
        }
        if option.get("required").and_then(Value::as_bool) == Some(true) {
            setting.insert("required".into(), true.into());
        }
        match option.get("default") {
            Some(Value::String(s)) => {
                setting.insert("default".into(), s.clone().into());
            }
            Some(other @ (Value::Number(_) | Value::Bool(_))) => {
                setting.insert("default".into(), other.to_string().into());
            }
            _ => {}
        }
        settings.insert(key.clone(), setting.into());
    }
    settings
}

/// A Gemini extension's tool exclusions (`excludeTools`, and a server's `excludeTools` or
/// `includeTools`): Gemini hides those tools from the model; agx hides none on a package's
/// behalf, so each is named with how the user hides a tool.
fn gemini_excluded_tools(manifest: &Value) -> Vec<NotCarried> {
    let listed = |v: Option<&Value>| -> Option<String> {
        let names: Vec<&str> = v?.as_array()?.iter().filter_map(Value::as_str).collect();
        (!names.is_empty()).then(|| names.join(", "))
    };
    let reason = |field: &str| {
        match field {
        "includeTools" => "agx hides no tool on a package's behalf; `agx install-server CLIENT SERVER --allow NAME` shows only those named",
        _ => "agx hides no tool on a package's behalf; `agx install-server CLIENT SERVER --deny NAME` hides one",
    }
    .to_string()
    };
    let mut found = Vec::new();
    if let Some(names) = listed(manifest.get("excludeTools")) {
        found.push(NotCarried {
            what: format!("excludeTools ({names})"),
            place: Dialect::Gemini.manifest_file().to_string(),
            reason: reason("excludeTools"),
        });
    }
    let servers = manifest.get("mcpServers").and_then(Value::as_object);
    for (server, def) in servers.into_iter().flatten() {
        for field in ["excludeTools", "includeTools"] {
            if let Some(names) = listed(def.get(field)) {
                found.push(NotCarried {
                    what: format!("server `{server}`'s {field} ({names})"),
                    place: Dialect::Gemini.manifest_file().to_string(),
                    reason: reason(field),
                });
            }
        }
    }
    found
}

/// A Cursor plugin's `variables` (a JSON Schema object of user-configured values, each
/// `${NAME}` in its MCP servers' text) as settings keyed by the name in lower case, with the
/// map from each variable to its setting. Cursor marks none secret: one whose name says it
/// holds a credential (a token, secret, key, password) is a secret, kept in the keyring.
fn cursor_variables(
    manifest: &Value,
    not_carried: &mut Vec<NotCarried>,
) -> (toml::Table, BTreeMap<String, String>) {
    let mut settings = toml::Table::new();
    let mut vars = BTreeMap::new();
    let variables = manifest.get("variables");
    let Some(properties) = variables
        .and_then(|v| v.get("properties"))
        .and_then(Value::as_object)
    else {
        return (settings, vars);
    };
    let required: Vec<&str> = variables
        .and_then(|v| v.get("required"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (name, schema) in properties {
        let key = name.to_ascii_lowercase();
        let problem = if !agx_model::settings::declaration::is_valid_key(&key) {
            Some(format!(
                "`{name}` is no name agx can give a setting (ASCII letters, digits and `_`, starting with a letter)"
            ))
        } else if settings.contains_key(&key) {
            Some(format!("another variable is `{key}` in lower case too"))
        } else {
            None
        };
        if let Some(reason) = problem {
            not_carried.push(NotCarried {
                what: format!("variable `{name}`"),
                place: ".cursor-plugin/plugin.json variables".into(),
                reason,
            });
            continue;
        }
        let text = |field: &str| schema.get(field).and_then(Value::as_str);
        let description = match (text("title"), text("description")) {
            (Some(title), Some(description)) => format!("{title}: {description}"),
            (Some(one), None) | (None, Some(one)) => one.to_string(),
            (None, None) => name.clone(),
        };
        let kind = match text("type") {
            Some("number" | "integer") => "number",
            Some("boolean") => "boolean",
            _ => "string",
        };
        let mut setting = toml::Table::new();
        setting.insert("description".into(), description.into());
        setting.insert("type".into(), kind.into());
        let upper = name.to_ascii_uppercase();
        let credential = ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"]
            .iter()
            .any(|word| upper.contains(word))
            || upper.split('_').any(|part| matches!(part, "KEY" | "PAT"));
        if credential
            || schema.get("writeOnly").and_then(Value::as_bool) == Some(true)
            || text("format") == Some("password")
        {
            setting.insert("secret".into(), true.into());
        }
        if required.contains(&name.as_str()) {
            setting.insert("required".into(), true.into());
        }
        vars.insert(name.clone(), format!("${{settings.{key}}}"));
        settings.insert(key, setting.into());
    }
    (settings, vars)
}

/// Gemini CLI's `settings` (`[{name, description, envVar, sensitive}]`) as
/// `[extension.settings]`, each keyed by its variable in lower case (`API_KEY` → `api_key`),
/// and the environment that gives each server its value (`API_KEY = "${settings.api_key}"`),
/// as Gemini CLI passes a setting to the extension's servers. None is required: an unset
/// setting's variable is left out, as Gemini CLI leaves it unset.
pub(crate) fn gemini_settings(
    manifest: &Value,
    not_carried: &mut Vec<NotCarried>,
) -> (toml::Table, BTreeMap<String, String>) {
    let mut settings = toml::Table::new();
    let mut env = BTreeMap::new();
    let Some(options) = manifest.get("settings").and_then(Value::as_array) else {
        return (settings, env);
    };
    for option in options {
        let text = |field: &str| option.get(field).and_then(Value::as_str);
        let name = text("name").unwrap_or("(unnamed)");
        let key = text("envVar").map(str::to_ascii_lowercase);
        let problem = match &key {
            None => Some("it has no `envVar`".to_string()),
            Some(key) if !agx_model::settings::declaration::is_valid_key(key) => Some(format!(
                "`{}` is no name agx can give a setting (ASCII letters, digits and `_`, starting with a letter)",
                text("envVar").unwrap_or_default()
            )),
            Some(key) if settings.contains_key(key) => {
                Some(format!("another setting has the variable `{key}` too"))
            }
            Some(_) => None,
        };
        let (Some(key), None) = (key, &problem) else {
            not_carried.push(NotCarried {
                what: format!("setting `{name}`"),
                place: "gemini-extension.json settings".into(),
                reason: problem.unwrap_or_default(),
            });
            continue;
        };
        let mut setting = toml::Table::new();
        let description = match text("description") {
            Some(description) => format!("{name}: {description}"),
            None => name.to_string(),
        };
        setting.insert("description".into(), description.into());
        setting.insert("type".into(), "string".into());
        if option.get("sensitive").and_then(Value::as_bool) == Some(true) {
            setting.insert("secret".into(), true.into());
        }
        env.insert(
            text("envVar").unwrap_or_default().to_string(),
            format!("${{settings.{key}}}"),
        );
        settings.insert(key, setting.into());
    }
    (settings, env)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn skill(dir: &Path, folder: &str, name: &str) {
        write(
            &dir.join("skills").join(folder).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: Does {name}.\n---\nBody\n"),
        );
    }

    fn import(dir: &Path, skipped_links: &[String]) -> Result<Vec<String>, EcosystemError> {
        let name = PackageName::parse("m/p").unwrap();
        let version = semver::Version::new(1, 0, 0);
        let facts = PackageFacts {
            name: &name,
            version: &version,
            description: None,
            label: "p@m",
        };
        write_package(&facts, dir, skipped_links)
    }

    #[test]
    fn cursor_variables_become_settings_credentials_secret() {
        let manifest = serde_json::json!({"variables": {"type": "object", "properties": {
            "CLIENT_ID": {"type": "string", "title": "Client ID"},
            "CLIENT_SECRET": {"type": "string", "description": "The secret"},
            "API_KEY": {"type": "string"},
            "KEYCLOAK_URL": {"type": "string"},
            "PORT": {"type": "integer"},
            "SHOWN": {"type": "string", "format": "password"},
            "9BAD": {"type": "string"}
        }, "required": ["CLIENT_ID"]}});
        let mut not_carried = Vec::new();
        let (settings, vars) = cursor_variables(&manifest, &mut not_carried);
        let secret = |key: &str| settings[key].get("secret").is_some();
        assert!(!secret("client_id") && !secret("keycloak_url") && !secret("port"));
        assert!(secret("client_secret") && secret("api_key") && secret("shown"));
        assert_eq!(settings["client_id"]["required"].as_bool(), Some(true));
        assert_eq!(
            settings["client_id"]["description"].as_str(),
            Some("Client ID")
        );
        assert_eq!(settings["port"]["type"].as_str(), Some("number"));
        assert_eq!(vars["CLIENT_SECRET"], "${settings.client_secret}");
        assert_eq!(not_carried.len(), 1, "{not_carried:?}");
        assert!(not_carried[0].what.contains("9BAD"));
    }

    #[test]
    fn each_server_and_skill_is_carried_or_named_with_its_reason() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        write(
            &dir.join(".mcp.json"),
            r#"{"mcpServers": {
                "runs": {"command": "node", "args": ["s.js", "--port", 8080]},
                "no command": {"command": "  "},
                "nothing": {"env": {}},
                "Runs": {"url": "https://example.com/mcp"}
            }}"#,
        );
        skill(dir, "notes", "notes");
        skill(dir, "Notes Two", "Notes Two");
        skill(dir, "linked", "linked");
        std::fs::create_dir_all(dir.join("skills/empty")).unwrap();
        let warnings = import(dir, &["skills/linked/LICENSE".into()]).unwrap();
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        for expected in [
            "server `no command` (.mcp.json: \"command\" is empty)",
            "server `nothing` (.mcp.json: it has neither \"command\" nor \"url\")",
            "server `Runs` (.mcp.json: its agx name `Runs` is the server `runs`'s too)",
            "skill `linked` (skills/linked: `skills/linked/LICENSE` is a symbolic link",
            "skill `empty` (skills/empty: has no SKILL.md)",
        ] {
            assert!(
                warnings[0].contains(expected),
                "{expected}: {}",
                warnings[0]
            );
        }
        assert!(
            warnings[1].contains("name `Notes Two` → `notes-two`"),
            "{}",
            warnings[1]
        );
        let manifest = std::fs::read_to_string(dir.join("agx.toml")).unwrap();
        assert!(manifest.contains("servers = [\"runs\"]"), "{manifest}");
        assert!(
            manifest.contains("skills = [\"notes\", \"notes-two\"]"),
            "{manifest}"
        );
        let server = std::fs::read_to_string(dir.join("agx/servers/runs.toml")).unwrap();
        assert!(
            server.contains("command = [\"node\", \"s.js\", \"--port\", \"8080\"]"),
            "{server}"
        );
        assert!(!dir.join("skills/linked").exists());
    }

    #[test]
    fn a_skill_named_like_another_skills_folder_is_not_carried_over_it() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        skill(dir, "notes", "notes");
        skill(dir, "Notes", "Notes");
        let warnings = import(dir, &[]).unwrap();
        let manifest = std::fs::read_to_string(dir.join("agx.toml")).unwrap();
        assert!(manifest.contains("skills = [\"notes\"]"), "{manifest}");
        // On a file system that ignores case both are one folder, and one skill.
        if dir.join("skills/Notes").exists()
            && !same_folder(&dir.join("skills/Notes"), &dir.join("skills/notes"))
        {
            assert!(warnings[0].contains("skill `Notes`"), "{warnings:?}");
        }
    }

    #[test]
    fn a_plugin_with_nothing_to_carry_is_refused_naming_what_it_has() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        write(
            &dir.join(".claude-plugin/plugin.json"),
            r#"{"name": "x", "lspServers": {}}"#,
        );
        write(&dir.join("commands/go.md"), "go");
        write(
            &dir.join(".mcp.json"),
            r#"{"mcpServers": {"s": {"url": ""}}}"#,
        );
        let err = import(dir, &[]).unwrap_err().to_string();
        assert_eq!(
            err,
            "p@m: nothing agx can carry: commands, lsp servers, server `s` (.mcp.json: \"url\" is empty)"
        );
        assert!(!dir.join("agx.toml").exists());
        let err = import(dir, &[marketplace::MANIFEST_FILE.to_string()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("is a symbolic link"), "{err}");
    }

    #[test]
    fn numbers_in_args_are_kept() {
        assert_eq!(json_text(&serde_json::json!(8080)), "8080");
        assert_eq!(json_text(&serde_json::json!("x")), "x");
    }

    #[test]
    fn placeholders_are_translated() {
        assert_eq!(
            Dialect::Claude.translate(
                "${CLAUDE_PLUGIN_ROOT}/s.py --data=${CLAUDE_PLUGIN_DATA} ${user_config.k}"
            ),
            "${package.dir}/s.py --data=${package.data} ${settings.k}"
        );
    }

    #[test]
    fn user_config_becomes_settings() {
        let manifest = serde_json::json!({"userConfig": {
            "api_key": {"type": "string", "title": "Key", "description": "The key", "sensitive": true, "required": true},
            "days": {"type": "number", "default": 3}
        }});
        let mut not_carried = Vec::new();
        let settings = user_config_settings(&manifest, &mut not_carried);
        assert_eq!(
            settings.to_string(),
            "[api_key]\ndescription = \"Key: The key\"\nrequired = true\nsecret = true\ntype = \"string\"\n\n[days]\ndefault = \"3\"\ntype = \"number\"\n"
        );
        assert!(not_carried.is_empty());
    }

    #[test]
    fn a_remote_entrys_sign_in_is_carried_as_its_oauth_table() {
        let entry = serde_json::json!({
            "type": "http", "url": "https://mcp.example.com/mcp",
            "oauth": {"clientId": "claude-code-client", "callbackPort": 8765, "scopes": "read write"}
        });
        let table = server_table(&entry, Dialect::Claude, &BTreeMap::new()).unwrap();
        let oauth = table["oauth"].as_table().unwrap();
        assert_eq!(oauth["client_id"].as_str(), Some("claude-code-client"));
        assert_eq!(oauth["callback_port"].as_integer(), Some(8765));
        assert_eq!(
            oauth["scopes"].as_array().unwrap().len(),
            2,
            "a space-separated string becomes a list"
        );
        // Nothing usable: no table.
        let bare =
            serde_json::json!({"url": "https://x.example/mcp", "oauth": {"callbackPort": 0}});
        let table = server_table(&bare, Dialect::Claude, &BTreeMap::new()).unwrap();
        assert!(!table.contains_key("oauth"));
    }

    #[test]
    fn a_user_config_key_agx_cannot_hold_is_not_carried() {
        let manifest = serde_json::json!({"userConfig": {
            "API Key": {"type": "string"},
            "odd": "not an object",
            "token": {"type": "string", "sensitive": true}
        }});
        let mut not_carried = Vec::new();
        let settings = user_config_settings(&manifest, &mut not_carried);
        assert_eq!(settings.keys().collect::<Vec<_>>(), ["token"]);
        let named: Vec<String> = not_carried.iter().map(|n| n.what.clone()).collect();
        assert_eq!(named, ["setting `API Key`", "setting `odd`"]);
    }
}
