//! Reading `agx.toml`: `[package]`, `[dependencies]` and `[extension]` with its three
//! declaration forms. Produces what it could read, and a finding for everything else.

use std::collections::BTreeMap;
use std::ops::Range;

use super::diagnostics::{self as codes, Findings};
use super::fields::Table;
use super::model::{Declaration, ExtensionDecl, Manifest, PackageMeta};
use super::spanned::{Node, SourceFile, Value};
use agx_core::name::{ItemName, PackageName, parse_manifest_requirement};

/// The kinds of item a package declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Server,
    Tool,
    Prompt,
    Resource,
    /// A skill folder, `skills/<name>/SKILL.md` (crates/agx-model/src/skills); not a definition file, so
    /// not in [`Kind::ALL`].
    Skill,
}

impl Kind {
    /// The kinds defined by files under the definition root.
    pub const ALL: [Kind; 4] = [Kind::Server, Kind::Tool, Kind::Prompt, Kind::Resource];
    /// Every kind `[extension]` declares.
    pub const DECLARED: [Kind; 5] = [
        Kind::Server,
        Kind::Tool,
        Kind::Prompt,
        Kind::Resource,
        Kind::Skill,
    ];

    /// The plural used for `[extension]` keys, folders and combined files.
    pub fn plural(self) -> &'static str {
        match self {
            Kind::Server => "servers",
            Kind::Tool => "tools",
            Kind::Prompt => "prompts",
            Kind::Resource => "resources",
            Kind::Skill => "skills",
        }
    }

    pub fn singular(self) -> &'static str {
        match self {
            Kind::Server => "server",
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
            Kind::Skill => "skill",
        }
    }
}

/// `agx.toml` as far as it could be read.
#[derive(Debug, Default)]
pub struct ManifestDraft {
    pub name: Option<PackageName>,
    pub version: Option<semver::Version>,
    pub description: Option<String>,
    pub license: Option<String>,
    pub authors: Vec<String>,
    pub homepage: Option<String>,
    pub repository: Option<String>,
    pub keywords: Vec<String>,
    pub agx: Option<semver::VersionReq>,
    pub dependencies: BTreeMap<PackageName, semver::VersionReq>,
    pub root: String,
    /// Where `root` was written (for findings about the folder).
    pub root_span: Option<Range<usize>>,
    pub servers: Vec<Declaration>,
    pub tools: Vec<Declaration>,
    pub prompts: Vec<Declaration>,
    pub settings: Vec<crate::settings::Setting>,
    pub permissions: Option<crate::permissions::Permissions>,
    pub resources: Vec<Declaration>,
    pub skills: Vec<Declaration>,
    /// Where each declaration was written, for findings that point at it.
    pub declaration_spans: std::collections::HashMap<(Kind, String), Range<usize>>,
}

impl ManifestDraft {
    pub fn declarations(&self, kind: Kind) -> &[Declaration] {
        match kind {
            Kind::Server => &self.servers,
            Kind::Tool => &self.tools,
            Kind::Prompt => &self.prompts,
            Kind::Resource => &self.resources,
            Kind::Skill => &self.skills,
        }
    }

    fn declarations_mut(&mut self, kind: Kind) -> &mut Vec<Declaration> {
        match kind {
            Kind::Server => &mut self.servers,
            Kind::Tool => &mut self.tools,
            Kind::Prompt => &mut self.prompts,
            Kind::Resource => &mut self.resources,
            Kind::Skill => &mut self.skills,
        }
    }

    pub fn is_declared(&self, kind: Kind, name: &str) -> bool {
        self.declarations(kind)
            .iter()
            .any(|d| d.name.as_str() == name)
    }

    /// The finished manifest, when the required parts were read.
    pub fn finish(self) -> Option<Manifest> {
        Some(Manifest {
            package: PackageMeta {
                name: self.name?,
                version: self.version?,
                description: self.description,
                license: self.license,
                authors: self.authors,
                homepage: self.homepage,
                repository: self.repository,
                keywords: self.keywords,
                agx: self.agx,
            },
            dependencies: self.dependencies,
            extension: ExtensionDecl {
                root: self.root,
                servers: self.servers,
                tools: self.tools,
                prompts: self.prompts,
                settings: self.settings,
                permissions: self.permissions,
                resources: self.resources,
                skills: self.skills,
            },
        })
    }
}

// `project`, `servers` and `policy` belong to a project file sharing agx.toml with the
// package; the project checker (crates/agx-project/src/manifest.rs) reads them.
const TOP_KEYS: &[&str] = &[
    "package",
    "dependencies",
    "extension",
    "project",
    "servers",
    "policy",
];
const PACKAGE_KEYS: &[&str] = &[
    "name",
    "version",
    "description",
    "license",
    "authors",
    "homepage",
    "repository",
    "keywords",
    "agx",
];
const EXTENSION_KEYS: &[&str] = &[
    "root",
    "servers",
    "tools",
    "prompts",
    "resources",
    "settings",
    "skills",
    "permissions",
];
const DECLARATION_KEYS: &[&str] = &["name", "description", "title"];

pub const DEFAULT_ROOT: &str = "agx";

/// Read a parsed `agx.toml`.
pub fn read(f: &mut Findings, file: &SourceFile, doc: &Node) -> ManifestDraft {
    let mut draft = ManifestDraft {
        root: DEFAULT_ROOT.to_string(),
        ..Default::default()
    };
    let Some(top) = Table::read(f, file, doc, 0..0, "agx.toml", TOP_KEYS) else {
        return draft;
    };
    match top.get("package") {
        Some(entry) => read_package(f, file, &entry.value, entry.key_span.clone(), &mut draft),
        None => {
            top.require(
                f,
                "package",
                "{ name = \"publisher/name\", version = \"0.1.0\" }",
            );
        }
    }
    if let Some(entry) = top.get("dependencies") {
        read_dependencies(f, file, &entry.value, &mut draft);
    }
    if let Some(entry) = top.get("extension") {
        read_extension(f, file, &entry.value, entry.key_span.clone(), &mut draft);
    }
    draft
}

fn read_package(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    anchor: Range<usize>,
    draft: &mut ManifestDraft,
) {
    let Some(t) = Table::read(f, file, node, anchor.clone(), "[package]", PACKAGE_KEYS) else {
        return;
    };
    if t.require(f, "name", "\"publisher/name\"").is_some()
        && let Some((name, node)) = t.string(f, "name")
    {
        match PackageName::parse(&name) {
            Ok(n) => draft.name = Some(n),
            Err(e) => f.at(
                codes::INVALID_PACKAGE_NAME,
                file,
                &node.span,
                e.to_string(),
                Some(format!("expected {}", e.expected_form())),
            ),
        }
    }
    if t.require(f, "version", "\"0.1.0\"").is_some()
        && let Some((version, node)) = t.string(f, "version")
    {
        match semver::Version::parse(&version) {
            Ok(v) => draft.version = Some(v),
            Err(e) => f.at(
                codes::INVALID_VERSION,
                file,
                &node.span,
                format!("version `{version}` is not semver: {e}"),
                Some("write MAJOR.MINOR.PATCH, e.g. \"1.2.0\"".into()),
            ),
        }
    }
    draft.description = t.opt_string(f, "description");
    if draft.description.is_none() && !t.has("description") {
        f.at(
            codes::MISSING_DESCRIPTION,
            file,
            &anchor,
            "[package] has no `description`",
            Some("add `description = \"…\"`; a registry requires one".into()),
        );
    }
    draft.license = t.opt_string(f, "license");
    draft.homepage = t.opt_string(f, "homepage");
    draft.repository = t.opt_string(f, "repository");
    draft.authors = plain_strings(t.strings(f, "authors"));
    draft.keywords = plain_strings(t.strings(f, "keywords"));
    if let Some((req, node)) = t.string(f, "agx") {
        match parse_manifest_requirement(&req) {
            Ok(r) => draft.agx = Some(r),
            Err(e) => f.at(
                codes::INVALID_REQUIREMENT,
                file,
                &node.span,
                format!("agx requirement `{req}` does not parse: {e}"),
                Some("use semver requirement syntax, e.g. \">=0.1\"".into()),
            ),
        }
    }
}

fn plain_strings(items: Option<Vec<(String, &Node)>>) -> Vec<String> {
    items
        .unwrap_or_default()
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

fn read_dependencies(f: &mut Findings, file: &SourceFile, node: &Node, draft: &mut ManifestDraft) {
    let Some(entries) = node.as_table() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!("[dependencies] must be a table, found {}", node.type_name()),
            Some("write one `\"publisher/name\" = \"^1.0\"` line per dependency".into()),
        );
        return;
    };
    for entry in entries {
        let name = match PackageName::parse_published(&entry.key) {
            Ok(n) => Some(n),
            Err(e) => {
                f.at(
                    codes::INVALID_PACKAGE_NAME,
                    file,
                    &entry.key_span,
                    format!("dependency {e}"),
                    Some(format!("expected {}", e.expected_form())),
                );
                None
            }
        };
        let Some(req) = entry.value.as_str() else {
            f.at(
                codes::WRONG_TYPE,
                file,
                &entry.value.span,
                format!(
                    "the requirement of dependency `{}` must be a string, found {}",
                    entry.key,
                    entry.value.type_name()
                ),
                Some(format!("write `\"{}\" = \"^1.0\"`", entry.key)),
            );
            continue;
        };
        match parse_manifest_requirement(req) {
            Ok(r) => {
                if let Some(n) = name {
                    draft.dependencies.insert(n, r);
                }
            }
            Err(e) => f.at(
                codes::INVALID_REQUIREMENT,
                file,
                &entry.value.span,
                format!("requirement `{req}` of `{}` does not parse: {e}", entry.key),
                Some("use semver requirement syntax, e.g. \"^1.2\" or \">=1.0, <2\"".into()),
            ),
        }
    }
}

fn read_extension(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    anchor: Range<usize>,
    draft: &mut ManifestDraft,
) {
    let Some(t) = Table::read(f, file, node, anchor, "[extension]", EXTENSION_KEYS) else {
        return;
    };
    if let Some((root, node)) = t.string(f, "root") {
        draft.root_span = Some(node.span.clone());
        if is_inside_package(&root) {
            draft.root = root.trim_end_matches('/').to_string();
        } else {
            f.at(
                codes::INVALID_VALUE,
                file,
                &node.span,
                format!("root `{root}` is not a folder inside the package"),
                Some("use a relative path without `..`, e.g. \"agx\"".into()),
            );
        }
    }
    if let Some(entry) = t.get("settings") {
        draft.settings = super::items::read_settings(f, file, &entry.value);
    }
    if let Some(entry) = t.get("permissions") {
        draft.permissions = super::items::read_permissions(
            f,
            file,
            &entry.value,
            entry.key_span.clone(),
            "[extension.permissions]",
        );
    }
    for kind in Kind::DECLARED {
        let Some(entry) = t.get(kind.plural()) else {
            continue;
        };
        let Some(items) = entry.value.as_array() else {
            f.at(
                codes::WRONG_TYPE,
                file,
                &entry.value.span,
                format!(
                    "`{}` in [extension] must be an array of declarations, found {}",
                    kind.plural(),
                    entry.value.type_name()
                ),
                Some(format!("write `{} = [\"name\"]`", kind.plural())),
            );
            continue;
        };
        for item in items {
            if let Some(decl) = read_declaration(f, file, item, kind) {
                if draft.is_declared(kind, decl.name.as_str()) {
                    f.at(
                        codes::DUPLICATE_DECLARATION,
                        file,
                        &item.span,
                        format!("{} `{}` is declared twice", kind.singular(), decl.name),
                        Some("remove one of the declarations".into()),
                    );
                    continue;
                }
                draft
                    .declaration_spans
                    .insert((kind, decl.name.to_string()), item.span.clone());
                draft.declarations_mut(kind).push(decl);
            }
        }
    }
}

/// A relative path that stays inside the package (no absolute paths, no `..`).
pub fn is_inside_package(path: &str) -> bool {
    let p = std::path::Path::new(path);
    !path.is_empty()
        && !p.has_root()
        && p.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        })
}

fn read_declaration(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    kind: Kind,
) -> Option<Declaration> {
    let forms = format!(
        "declare a {} as \"name\", [\"name\", \"description\"] or {{ name = \"name\", description = \"…\" }}",
        kind.singular()
    );
    let invalid = |f: &mut Findings, what: String| {
        f.at(
            codes::INVALID_DECLARATION,
            file,
            &node.span,
            what,
            Some(forms.clone()),
        );
    };
    let (name_node, description, title) = match &node.value {
        Value::String(_) => (node, None, None),
        Value::Array(pair) => match pair.as_slice() {
            [name, desc] if name.as_str().is_some() && desc.as_str().is_some() => {
                (name, desc.as_str().map(str::to_string), None)
            }
            _ => {
                invalid(
                    f,
                    format!(
                        "a {} declaration array must be [name, description] (two strings)",
                        kind.singular()
                    ),
                );
                return None;
            }
        },
        Value::Table(_) => {
            let what = format!("a {} declaration", kind.singular());
            let t = Table::read(f, file, node, node.span.clone(), what, DECLARATION_KEYS)?;
            let entry = t.require(f, "name", "\"name\"")?;
            let description = t.opt_string(f, "description");
            let title = t.opt_string(f, "title");
            if entry.value.as_str().is_none() {
                t.string(f, "name");
                return None;
            }
            (&entry.value, description, title)
        }
        _ => {
            invalid(
                f,
                format!(
                    "a {} declaration cannot be {}",
                    kind.singular(),
                    node.type_name()
                ),
            );
            return None;
        }
    };
    let raw = name_node.as_str().unwrap_or_default();
    match ItemName::parse(raw) {
        Ok(name) => Some(Declaration {
            name,
            description,
            title,
            location: file.location(node.span.start),
        }),
        Err(e) => {
            f.at(
                codes::INVALID_ITEM_NAME,
                file,
                &name_node.span,
                e.to_string(),
                Some(format!("expected {}", e.expected_form())),
            );
            None
        }
    }
}
