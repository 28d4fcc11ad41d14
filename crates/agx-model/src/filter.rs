//! Filters of a server's tools, prompts and resources (docs/profiles.md): `allow` and `deny`
//! globs, renames and description overrides. A project's filter is written in `agx.toml`
//! (`[servers.KEY] tools = { deny = [...] }`); a user's is recorded by
//! `agx install-server --allow/--deny` in `filters-v1.toml` under agx's config folder, keyed
//! by the qualified server, so the client entry stays `agx serve REF`.
//!
//! A tool, prompt or resource is shown when no `deny` glob matches it and, if `allow` is
//! given, an `allow` glob does. Tools and prompts are matched by name, resources and
//! resource templates by URI (template). Renames and descriptions are keyed by the original
//! name (by URI for resources, whose renames change the `name` clients display; a resource is
//! still read by its URI).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use globset::{Glob, GlobMatcher};
use serde::{Deserialize, Serialize};

use agx_core::name::QualifiedName;
use agx_core::paths::AgxPaths;

/// The rules for one kind of item, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny: Vec<String>,
    /// Original name → the name clients see.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rename: BTreeMap<String, String>,
    /// Original name → the description clients see.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub descriptions: BTreeMap<String, String>,
}

impl Rules {
    pub fn is_empty(&self) -> bool {
        self == &Rules::default()
    }

    /// Whether these rules can be used: every glob parses, no two items get one new name.
    pub fn check(&self, kind: Kind, source_name: &str) -> Result<(), FilterError> {
        CompiledRules::new(self, kind, source_name).map(|_| ())
    }
}

/// A server's filter, as written in `agx.toml` or `filters-v1.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilterSpec {
    #[serde(default, skip_serializing_if = "Rules::is_empty")]
    pub tools: Rules,
    #[serde(default, skip_serializing_if = "Rules::is_empty")]
    pub prompts: Rules,
    #[serde(default, skip_serializing_if = "Rules::is_empty")]
    pub resources: Rules,
}

impl FilterSpec {
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty() && self.prompts.is_empty() && self.resources.is_empty()
    }

    /// One line per rule, for `agx info`: `tools deny: *_delete*, browser_*`.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (kind, rules) in [
            ("tools", &self.tools),
            ("prompts", &self.prompts),
            ("resources", &self.resources),
        ] {
            if !rules.allow.is_empty() {
                lines.push(format!("{kind} allow: {}", rules.allow.join(", ")));
            }
            if !rules.deny.is_empty() {
                lines.push(format!("{kind} deny: {}", rules.deny.join(", ")));
            }
            for (from, to) in &rules.rename {
                lines.push(format!("{kind} rename: {from} → {to}"));
            }
            for name in rules.descriptions.keys() {
                lines.push(format!("{kind} description: {name} (overridden)"));
            }
        }
        lines
    }
}

/// What a filter applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Tool,
    Prompt,
    Resource,
}

impl Kind {
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
        }
    }

    fn table(self) -> &'static str {
        match self {
            Kind::Tool => "tools",
            Kind::Prompt => "prompts",
            Kind::Resource => "resources",
        }
    }
}

/// A filter that cannot be used: a bad glob or two items renamed to one name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} in {source_name}: {detail}")]
pub struct FilterError {
    pub what: String,
    pub source_name: String,
    pub detail: String,
}

impl agx_core::error::Hint for FilterError {
    fn hint(&self) -> Option<String> {
        Some(
            "globs use `*` (any text) and `?` (one character); give each renamed item its own new name (docs/profiles.md)"
                .into(),
        )
    }
}

/// Why an item is hidden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hidden {
    /// A `deny` glob matches it.
    Denied(String),
    /// `allow` is given and no glob of it matches.
    NotAllowed,
    /// It was renamed: clients call it by its new name.
    Renamed(String),
}

#[derive(Debug, Clone)]
struct CompiledRules {
    allow: Vec<GlobMatcher>,
    deny: Vec<(String, GlobMatcher)>,
    rename: BTreeMap<String, String>,
    /// New name → original.
    original: HashMap<String, String>,
    descriptions: BTreeMap<String, String>,
}

impl CompiledRules {
    fn new(rules: &Rules, kind: Kind, source_name: &str) -> Result<CompiledRules, FilterError> {
        let glob = |pattern: &String, list: &str| {
            Glob::new(pattern)
                .map(|g| g.compile_matcher())
                .map_err(|e| FilterError {
                    what: format!("`{}.{list}` glob `{pattern}`", kind.table()),
                    source_name: source_name.to_string(),
                    detail: e.kind().to_string(),
                })
        };
        let allow = rules
            .allow
            .iter()
            .map(|p| glob(p, "allow"))
            .collect::<Result<_, _>>()?;
        let deny = rules
            .deny
            .iter()
            .map(|p| Ok((p.clone(), glob(p, "deny")?)))
            .collect::<Result<_, FilterError>>()?;
        let mut original = HashMap::new();
        for (from, to) in &rules.rename {
            if to.is_empty() {
                return Err(FilterError {
                    what: format!("`{}.rename` of `{from}`", kind.table()),
                    source_name: source_name.to_string(),
                    detail: "the new name is empty".into(),
                });
            }
            if let Some(other) = original.insert(to.clone(), from.clone()) {
                return Err(FilterError {
                    what: format!("`{}.rename`", kind.table()),
                    source_name: source_name.to_string(),
                    detail: format!("`{other}` and `{from}` are both renamed to `{to}`"),
                });
            }
        }
        Ok(CompiledRules {
            allow,
            deny,
            rename: rules.rename.clone(),
            original,
            descriptions: rules.descriptions.clone(),
        })
    }

    /// Whether the item with this original name is shown.
    fn check(&self, name: &str) -> Result<(), Hidden> {
        if let Some((pattern, _)) = self.deny.iter().find(|(_, g)| g.is_match(name)) {
            return Err(Hidden::Denied(pattern.clone()));
        }
        if !self.allow.is_empty() && !self.allow.iter().any(|g| g.is_match(name)) {
            return Err(Hidden::NotAllowed);
        }
        Ok(())
    }
}

/// A server's filter, ready to apply.
#[derive(Debug, Clone)]
pub struct Filter {
    /// Where it was written, named in every refusal: `agx.toml` or `filters-v1.toml`.
    pub source_name: String,
    pub spec: FilterSpec,
    tools: CompiledRules,
    prompts: CompiledRules,
    resources: CompiledRules,
}

/// An item as a client sees it after filtering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown<'a> {
    /// The name (for resources, the display name) clients see, when renamed.
    pub rename: Option<&'a str>,
    pub description: Option<&'a str>,
}

impl Filter {
    pub fn new(spec: FilterSpec, source_name: impl Into<String>) -> Result<Filter, FilterError> {
        let source_name = source_name.into();
        Ok(Filter {
            tools: CompiledRules::new(&spec.tools, Kind::Tool, &source_name)?,
            prompts: CompiledRules::new(&spec.prompts, Kind::Prompt, &source_name)?,
            resources: CompiledRules::new(&spec.resources, Kind::Resource, &source_name)?,
            source_name,
            spec,
        })
    }

    fn rules(&self, kind: Kind) -> &CompiledRules {
        match kind {
            Kind::Tool => &self.tools,
            Kind::Prompt => &self.prompts,
            Kind::Resource => &self.resources,
        }
    }

    /// How the item with this original name (URI for resources) is shown, or why it is not.
    pub fn show(&self, kind: Kind, original: &str) -> Result<Shown<'_>, Hidden> {
        let rules = self.rules(kind);
        rules.check(original)?;
        Ok(Shown {
            rename: rules.rename.get(original).map(String::as_str),
            description: rules.descriptions.get(original).map(String::as_str),
        })
    }

    /// The original name of what a client called `called`, or why the call is refused.
    /// Resources are never renamed by URI, so their URI is their own.
    pub fn resolve<'a>(&'a self, kind: Kind, called: &'a str) -> Result<&'a str, Hidden> {
        let rules = self.rules(kind);
        let original = match rules.original.get(called) {
            Some(original) if kind != Kind::Resource => original.as_str(),
            _ if kind != Kind::Resource && rules.rename.contains_key(called) => {
                return Err(Hidden::Renamed(rules.rename[called].clone()));
            }
            _ => called,
        };
        rules.check(original)?;
        Ok(original)
    }

    /// A rename that would show two items under one name: an item renamed to the name of
    /// another item the server lists (by original name; URIs for resources) that is shown
    /// under its own name. Only the server's list tells, so it is checked where that is
    /// known (when `agx serve` starts an agx server, on every list a wrapped one answers,
    /// and by `agx tools`).
    pub fn rename_clash<'a>(
        &self,
        kind: Kind,
        listed: impl IntoIterator<Item = &'a str>,
    ) -> Option<FilterError> {
        let rules = self.rules(kind);
        if rules.rename.is_empty() {
            return None;
        }
        let listed: Vec<&str> = listed.into_iter().collect();
        let shown = |name: &str| rules.check(name).is_ok();
        for (from, to) in &rules.rename {
            let keeps = listed
                .iter()
                .any(|n| *n == to && !rules.rename.contains_key(*n) && shown(n));
            if keeps && listed.contains(&from.as_str()) && shown(from) {
                return Some(FilterError {
                    what: format!("`{}.rename`", kind.table()),
                    source_name: self.source_name.clone(),
                    detail: format!(
                        "`{from}` is renamed to `{to}`, a name the server's own `{to}` keeps"
                    ),
                });
            }
        }
        None
    }

    /// Whether this filter hides or renames any item of `kind` (else every item of that
    /// kind passes as the server names it).
    pub fn narrows(&self, kind: Kind) -> bool {
        !match kind {
            Kind::Tool => &self.spec.tools,
            Kind::Prompt => &self.spec.prompts,
            Kind::Resource => &self.spec.resources,
        }
        .is_empty()
    }

    /// The message of a refused call to `called`: what hid it and where that is written.
    pub fn refusal(&self, kind: Kind, called: &str, server: &str) -> Option<String> {
        let why = match self.resolve(kind, called) {
            Ok(_) => return None,
            Err(Hidden::Denied(pattern)) => format!("denied by `{pattern}`"),
            Err(Hidden::NotAllowed) => "not in its allow list".to_string(),
            Err(Hidden::Renamed(to)) => format!("renamed to `{to}`; call it by that name"),
        };
        Some(format!(
            "{} `{called}` of {server} is hidden by the filter ({} {why}) in {}",
            kind.noun(),
            kind.table(),
            self.source_name
        ))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FiltersFileError {
    #[error("could not read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a filters file: {detail}", path.display())]
    Invalid { path: PathBuf, detail: String },
    #[error("{} does not load, so the filter it may give this server is unknown: {detail}", path.display())]
    ProjectUnreadable { path: PathBuf, detail: String },
    #[error("could not write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Filter(#[from] FilterError),
}

impl agx_core::error::Hint for FiltersFileError {
    fn hint(&self) -> Option<String> {
        match self {
            FiltersFileError::Invalid { .. } => Some(
                "fix the line named, or record the filter again with `agx install-server … --allow/--deny`"
                    .into(),
            ),
            FiltersFileError::Filter(e) => e.hint(),
            FiltersFileError::ProjectUnreadable { .. } => Some(
                "fix the project file (`agx validate` names the place); agx does not start a server whose filter it cannot read"
                    .into(),
            ),
            FiltersFileError::Read { .. } | FiltersFileError::Write { .. } => None,
        }
    }
}

/// The user's filters: `filters-v1.toml`, the qualified server → its filter.
fn table(paths: &AgxPaths) -> agx_core::server_table::ServerTable<'_> {
    agx_core::server_table::ServerTable {
        config_dir: &paths.config_dir,
        stem: "filters-v1",
        header: "Written by `agx install-server --allow/--deny` (docs/profiles.md).",
    }
}

/// The file of the user's filters.
pub fn filters_file(paths: &AgxPaths) -> PathBuf {
    table(paths).path()
}

impl From<agx_core::server_table::TableError> for FiltersFileError {
    fn from(e: agx_core::server_table::TableError) -> Self {
        use agx_core::server_table::TableError;
        match e {
            TableError::Read { path, source } => FiltersFileError::Read { path, source },
            TableError::Invalid { path, detail } => FiltersFileError::Invalid { path, detail },
            TableError::Write { path, source } => FiltersFileError::Write { path, source },
        }
    }
}

/// The user's filter of `server`, when one is recorded.
pub fn user_filter(
    paths: &AgxPaths,
    server: &QualifiedName,
) -> Result<Option<Filter>, FiltersFileError> {
    let table = table(paths);
    match table.read::<FilterSpec>()?.remove(&server.to_string()) {
        Some(spec) if !spec.is_empty() => {
            Ok(Some(Filter::new(spec, table.path().display().to_string())?))
        }
        _ => Ok(None),
    }
}

/// Record `spec` as the user's filter of `server` (an empty one removes it). Checked first,
/// so a bad glob is never recorded; the file is replaced whole or left as it was.
pub fn record_user_filter(
    paths: &AgxPaths,
    server: &QualifiedName,
    spec: &FilterSpec,
) -> Result<(), FiltersFileError> {
    let table = table(paths);
    Filter::new(spec.clone(), table.path().display().to_string())?;
    let value = (!spec.is_empty()).then(|| spec.clone());
    table.record(&server.to_string(), value)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(allow: &[&str], deny: &[&str]) -> FilterSpec {
        FilterSpec {
            tools: Rules {
                allow: allow.iter().map(|s| s.to_string()).collect(),
                deny: deny.iter().map(|s| s.to_string()).collect(),
                ..Rules::default()
            },
            ..FilterSpec::default()
        }
    }

    #[test]
    fn deny_globs_hide_and_allow_globs_keep() {
        let f = Filter::new(spec(&[], &["*_delete*", "browser_*"]), "agx.toml").unwrap();
        assert!(f.show(Kind::Tool, "issue_create").is_ok());
        assert_eq!(
            f.show(Kind::Tool, "issue_delete_all"),
            Err(Hidden::Denied("*_delete*".into()))
        );
        assert_eq!(
            f.show(Kind::Tool, "browser_click"),
            Err(Hidden::Denied("browser_*".into()))
        );
        // Prompts have their own rules.
        assert!(f.show(Kind::Prompt, "browser_help").is_ok());

        let f = Filter::new(spec(&["echo", "get_*"], &["get_secret"]), "agx.toml").unwrap();
        assert!(f.show(Kind::Tool, "echo").is_ok());
        assert!(f.show(Kind::Tool, "get_env").is_ok());
        assert_eq!(f.show(Kind::Tool, "add"), Err(Hidden::NotAllowed));
        // Deny wins over allow.
        assert_eq!(
            f.show(Kind::Tool, "get_secret"),
            Err(Hidden::Denied("get_secret".into()))
        );
    }

    #[test]
    fn renamed_items_are_called_by_their_new_name_only() {
        let mut s = spec(&[], &["add"]);
        s.tools.rename.insert("echo".into(), "say".into());
        s.tools
            .descriptions
            .insert("echo".into(), "Says it back".into());
        let f = Filter::new(s, "agx.toml").unwrap();
        assert_eq!(
            f.show(Kind::Tool, "echo"),
            Ok(Shown {
                rename: Some("say"),
                description: Some("Says it back")
            })
        );
        assert_eq!(f.resolve(Kind::Tool, "say"), Ok("echo"));
        assert_eq!(
            f.resolve(Kind::Tool, "echo"),
            Err(Hidden::Renamed("say".into()))
        );
        let refusal = f.refusal(Kind::Tool, "add", "npm/x/y").unwrap();
        assert_eq!(
            refusal,
            "tool `add` of npm/x/y is hidden by the filter (tools denied by `add`) in agx.toml"
        );
        assert_eq!(f.refusal(Kind::Tool, "say", "npm/x/y"), None);
    }

    #[test]
    fn a_rename_to_the_name_of_another_shown_item_is_a_clash() {
        let mut s = spec(&[], &["old_*"]);
        s.tools.rename.insert("echo".into(), "add".into());
        let f = Filter::new(s, "agx.toml").unwrap();
        let clash = f.rename_clash(Kind::Tool, ["echo", "add"]).unwrap();
        assert_eq!(
            clash.to_string(),
            "`tools.rename` in agx.toml: `echo` is renamed to `add`, a name the server's own `add` keeps"
        );
        // A hidden or renamed item frees its name.
        assert!(f.rename_clash(Kind::Tool, ["echo", "old_add"]).is_none());
        let mut s = spec(&[], &["add"]);
        s.tools.rename.insert("echo".into(), "add".into());
        let f = Filter::new(s, "agx.toml").unwrap();
        assert!(f.rename_clash(Kind::Tool, ["echo", "add"]).is_none());
    }

    #[test]
    fn bad_globs_and_clashing_renames_are_refused_with_their_place() {
        let err = Filter::new(spec(&[], &["a[b"]), "agx.toml").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("`tools.deny` glob `a[b` in agx.toml"),
            "{err}"
        );
        let mut s = FilterSpec::default();
        s.prompts.rename.insert("a".into(), "c".into());
        s.prompts.rename.insert("b".into(), "c".into());
        let err = Filter::new(s, "agx.toml").unwrap_err();
        assert!(err.to_string().contains("both renamed to `c`"), "{err}");
    }

    #[test]
    fn user_filters_are_recorded_read_back_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().to_path_buf(), true);
        let server = QualifiedName::parse("acme/tools/main").unwrap();
        assert!(user_filter(&paths, &server).unwrap().is_none());
        record_user_filter(&paths, &server, &spec(&[], &["rm_*"])).unwrap();
        let f = user_filter(&paths, &server).unwrap().unwrap();
        assert!(f.show(Kind::Tool, "rm_rf").is_err());
        // A bad glob is refused and the recorded filter stays as it was.
        let before = fs_err::read(filters_file(&paths)).unwrap();
        assert!(record_user_filter(&paths, &server, &spec(&["[x"], &[])).is_err());
        assert_eq!(fs_err::read(filters_file(&paths)).unwrap(), before);
        record_user_filter(&paths, &server, &FilterSpec::default()).unwrap();
        assert!(user_filter(&paths, &server).unwrap().is_none());
    }

    #[test]
    fn a_corrupt_filters_file_is_reported_with_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().to_path_buf(), true);
        fs_err::write(
            filters_file(&paths),
            "version = 1\n[servers.\"a/b/c\"]\ntools = 3\n",
        )
        .unwrap();
        let server = QualifiedName::parse("a/b/c").unwrap();
        let err = user_filter(&paths, &server).unwrap_err();
        assert!(
            err.to_string()
                .contains("filters-v1.toml is not a filters file"),
            "{err}"
        );
    }
}
