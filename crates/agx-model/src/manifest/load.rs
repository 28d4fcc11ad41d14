//! The package loader: runs every check stage in order and collects all findings.
//! Stages: `agx.toml` structure → root folder → definition files → their contents →
//! cross-references. A stage runs on whatever the earlier ones could read.

use std::collections::BTreeSet;
use std::path::Path;

use super::agx_toml::{self, Kind, ManifestDraft};
use super::diagnostics::{self as codes, Findings, Report};
use super::fields::did_you_mean;
use super::items::{self, DefinitionSource, Reference};
use super::model::{Package, PromptDef, ResourceDef, ServerDef, SourceLocation, ToolDef};
use super::package_file::{self, ReadProblem};
use super::spanned::{Entry, Node, SourceFile};
use agx_archive::{ArchiveError, RefusedKind};
use agx_core::name::ItemRef;

pub const MANIFEST_FILE: &str = "agx.toml";
/// The gitignore-style file of paths `pack` leaves out.
const IGNORE_FILE: &str = ".agxignore";

/// Check a package folder: every stage, every finding.
pub fn check(dir: &Path) -> Report {
    let mut f = Findings::default();
    let package = check_into(&mut f, dir);
    let package = if f.error_count() == 0 { package } else { None };
    Report {
        findings: f.list,
        package,
    }
}

/// What was loaded of each kind.
#[derive(Default)]
struct Loaded {
    servers: Vec<ServerDef>,
    tools: Vec<ToolDef>,
    prompts: Vec<PromptDef>,
    resources: Vec<ResourceDef>,
    references: Vec<Reference>,
}

fn check_into(f: &mut Findings, dir: &Path) -> Option<Package> {
    // `symlink_metadata`: a link named agx.toml exists (and is refused below), wherever it points.
    if !dir.is_dir() || std::fs::symlink_metadata(dir.join(MANIFEST_FILE)).is_err() {
        let why = if dir.is_dir() {
            format!("no {MANIFEST_FILE} in `{}`", dir.display())
        } else {
            format!("`{}` is not a folder", dir.display())
        };
        f.whole(
            codes::MANIFEST_MISSING,
            MANIFEST_FILE,
            why,
            Some("give the package folder, the one holding agx.toml".into()),
        );
        return None;
    }
    check_packable(f, dir);
    let manifest_file = read_source(f, dir, MANIFEST_FILE)?;
    let doc = parse_source(f, &manifest_file)?;
    let draft = agx_toml::read(f, &manifest_file, &doc);

    let declares_anything = Kind::ALL.iter().any(|k| !draft.declarations(*k).is_empty());
    let mut loaded = Loaded::default();
    if !dir.join(&draft.root).is_dir() {
        if declares_anything {
            let span = draft.root_span.clone().unwrap_or(0..0);
            f.at(
                codes::ROOT_MISSING,
                &manifest_file,
                &span,
                format!("the definition folder `{}/` does not exist", draft.root),
                Some(format!(
                    "create `{}/` with the definition files, or set `root` in [extension]",
                    draft.root
                )),
            );
        }
        // Nothing declared and no root: a valid (if empty) package, which packs as it is.
    } else {
        for kind in Kind::ALL {
            load_kind(f, dir, &manifest_file, &draft, kind, &mut loaded);
        }
        check_references(f, &draft, &loaded.references);
        items::check_unique_addresses(f, &loaded.resources);
    }
    let skills = load_skills(f, dir, &manifest_file, &draft);

    if f.error_count() > 0 {
        return None;
    }
    let manifest = draft.finish()?;
    Some(Package {
        dir: std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()),
        manifest,
        servers: loaded.servers,
        tools: loaded.tools,
        prompts: loaded.prompts,
        resources: loaded.resources,
        skills,
    })
}

/// The folder of skills, at the package's top (not under the definition root): the layout
/// skill repositories use, so a folder of skills becomes a package by adding agx.toml.
pub const SKILLS_FOLDER: &str = "skills";

/// Each declared skill's folder, and skill folders that no declaration names.
fn load_skills(
    f: &mut Findings,
    dir: &Path,
    manifest_file: &SourceFile,
    draft: &ManifestDraft,
) -> Vec<crate::skills::SkillDef> {
    let mut skills = Vec::new();
    for decl in draft.declarations(Kind::Skill) {
        let name = decl.name.as_str();
        let folder = format!("{SKILLS_FOLDER}/{name}");
        if !dir.join(&folder).is_dir() {
            let span = draft
                .declaration_spans
                .get(&(Kind::Skill, name.to_string()))
                .cloned()
                .unwrap_or(0..0);
            f.at(
                codes::DEFINITION_MISSING,
                manifest_file,
                &span,
                format!("skill `{name}` is declared but the folder `{folder}/` does not exist"),
                Some(format!(
                    "create `{folder}/SKILL.md` with `name: {name}` and a `description` in its front matter, or remove the declaration"
                )),
            );
            continue;
        }
        skills.extend(crate::skills::check_skill(f, dir, &folder));
    }
    for name in folder_entries(dir, SKILLS_FOLDER) {
        let folder = format!("{SKILLS_FOLDER}/{name}");
        if !draft.is_declared(Kind::Skill, &name) && dir.join(&folder).is_dir() {
            f.whole(
                codes::UNDECLARED_DEFINITION,
                &folder,
                format!(
                    "no declaration in agx.toml names skill `{name}`; this folder is not installed"
                ),
                Some(format!(
                    "add \"{name}\" to `skills` in [extension], or remove the folder"
                )),
            );
        }
    }
    skills
}

/// Read a file of the package as UTF-8 text (see [`package_file::read_text`]).
fn read_source(f: &mut Findings, dir: &Path, rel: &str) -> Option<SourceFile> {
    match package_file::read_text(dir, rel) {
        Ok(text) => Some(SourceFile::new(rel, text)),
        Err(problem) => {
            report_unread(
                f,
                rel,
                &problem,
                "definition files are UTF-8 TOML or JSON".into(),
            );
            None
        }
    }
}

/// The finding for a package file that could not be read: a link and a special file are
/// reported as the folder walk reports them (one finding, whichever sees it first).
pub(crate) fn report_unread(f: &mut Findings, rel: &str, problem: &ReadProblem, hint: String) {
    match problem {
        ReadProblem::Link { link } => report_link(f, link),
        ReadProblem::NotRegular { is_dir: false } => report_special(f, rel),
        _ => f.whole(
            codes::UNREADABLE_FILE,
            rel,
            format!("`{rel}` {}", problem.describe()),
            Some(hint),
        ),
    }
}

fn report_link(f: &mut Findings, rel: &str) {
    f.whole(
        codes::LINK_IN_PACKAGE,
        rel,
        format!("`{rel}` is a symbolic link; validate does not follow it and pack refuses it"),
        Some(
            "replace the link with the file or folder it points to, or list it in .agxignore"
                .into(),
        ),
    );
}

fn report_special(f: &mut Findings, rel: &str) {
    f.whole(
        codes::NOT_PACKABLE,
        rel,
        format!("`{rel}` is not a regular file or folder (a FIFO, socket or device)"),
        Some("remove it from the package folder, or list it in .agxignore".into()),
    );
}

/// What `pack` would refuse, so that a package that validates also packs.
fn check_packable(f: &mut Findings, dir: &Path) {
    match agx_archive::refused_entries(dir) {
        Ok(refused) => {
            for entry in refused {
                match entry.why {
                    RefusedKind::Link => report_link(f, &entry.rel),
                    RefusedKind::Special => report_special(f, &entry.rel),
                    RefusedKind::NonUtf8Name => f.whole(
                        codes::NOT_PACKABLE,
                        &entry.rel,
                        format!("the name of `{}` is not UTF-8", entry.rel),
                        Some("rename it, or list it in .agxignore".into()),
                    ),
                }
            }
        }
        Err(e) => {
            let file = match e {
                ArchiveError::IgnoreFile { .. } | ArchiveError::ManifestIgnored { .. } => {
                    IGNORE_FILE
                }
                _ => ".",
            };
            let mut message = e.to_string();
            let mut cause = std::error::Error::source(&e);
            while let Some(c) = cause {
                message.push_str(&format!(": {c}"));
                cause = c.source();
            }
            f.whole(
                codes::NOT_PACKABLE,
                file,
                message,
                agx_core::error::Hint::hint(&e),
            );
        }
    }
}

fn parse_source(f: &mut Findings, file: &SourceFile) -> Option<Node> {
    match file.parse() {
        Ok(node) => Some(node),
        Err(e) => {
            let format = if file.is_json() { "JSON" } else { "TOML" };
            f.at(
                codes::SYNTAX_ERROR,
                file,
                &e.span,
                format!("`{}` is not valid {format}: {}", file.rel, e.message),
                Some(format!("fix the {format} syntax at this place")),
            );
            None
        }
    }
}

/// A combined definition file (`tools.toml`): one table per item, keyed by name.
struct Combined {
    file: SourceFile,
    node: Node,
}

impl Combined {
    fn entries(&self) -> &[Entry] {
        self.node.as_table().unwrap_or_default()
    }

    fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries().iter().find(|e| e.key == name)
    }
}

fn existing_files(dir: &Path, rels: [String; 2]) -> Vec<String> {
    rels.into_iter().filter(|r| dir.join(r).is_file()).collect()
}

/// The entry names in `<dir>/<folder>` (none when it does not exist). Listed once per kind,
/// so a package of many tools costs one directory read instead of two lookups per tool.
fn folder_entries(dir: &Path, folder: &str) -> BTreeSet<String> {
    std::fs::read_dir(dir.join(folder))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .collect()
}

fn load_combined(f: &mut Findings, dir: &Path, root: &str, kind: Kind) -> Option<Combined> {
    let files = existing_files(
        dir,
        [
            format!("{root}/{}.toml", kind.plural()),
            format!("{root}/{}.json", kind.plural()),
        ],
    );
    if let [used, ignored] = files.as_slice() {
        f.whole(
            codes::DUPLICATE_DEFINITION,
            ignored,
            format!("both `{used}` and `{ignored}` exist; `{ignored}` is ignored"),
            Some("keep one combined file".into()),
        );
    }
    let file = read_source(f, dir, files.first()?)?;
    let node = parse_source(f, &file)?;
    if node.as_table().is_none() {
        f.at(
            codes::WRONG_TYPE,
            &file,
            &node.span,
            format!(
                "`{}` must hold one table per {}, keyed by name; found {}",
                file.rel,
                kind.singular(),
                node.type_name()
            ),
            None,
        );
        return None;
    }
    Some(Combined { file, node })
}

fn load_kind(
    f: &mut Findings,
    dir: &Path,
    manifest_file: &SourceFile,
    draft: &ManifestDraft,
    kind: Kind,
    loaded: &mut Loaded,
) {
    let root = draft.root.as_str();
    let combined = load_combined(f, dir, root, kind);
    let folder = format!("{root}/{}", kind.plural());
    let in_folder = folder_entries(dir, &folder);
    report_undeclared(f, draft, kind, &folder, &in_folder, combined.as_ref());

    for decl in draft.declarations(kind) {
        let name = decl.name.as_str();
        let per_item: Vec<String> = [format!("{name}.toml"), format!("{name}.json")]
            .into_iter()
            .filter(|file| in_folder.contains(file))
            .map(|file| format!("{folder}/{file}"))
            .filter(|rel| dir.join(rel).is_file())
            .collect();
        let in_combined = combined
            .as_ref()
            .and_then(|c| c.entry(name).map(|e| (c, e)));
        let combined_entry_ignored = !per_item.is_empty() && in_combined.is_some();
        if let [used, ignored] = per_item.as_slice() {
            f.whole(
                codes::DUPLICATE_DEFINITION,
                ignored,
                format!(
                    "{} `{name}` is defined in `{used}` and `{ignored}`; `{ignored}` is ignored",
                    kind.singular()
                ),
                Some(format!("remove `{ignored}`")),
            );
        }
        if combined_entry_ignored && let Some((c, e)) = in_combined {
            f.at(
                codes::DUPLICATE_DEFINITION,
                &c.file,
                &e.key_span,
                format!(
                    "{} `{name}` is also defined in `{}`, which wins; this entry is ignored",
                    kind.singular(),
                    per_item[0]
                ),
                Some("remove one of the definitions".into()),
            );
        }

        if let Some(rel) = per_item.first() {
            let Some(file) = read_source(f, dir, rel) else {
                continue;
            };
            let Some(node) = parse_source(f, &file) else {
                continue;
            };
            let src = DefinitionSource {
                package_dir: dir,
                root,
                file: &file,
                node: &node,
                anchor: 0..0,
                declared: &decl.name,
                settings: &draft.settings,
                combined: false,
                location: file.location(0),
            };
            check_item(f, kind, &src, loaded);
        } else if let Some((c, entry)) = in_combined {
            let src = DefinitionSource {
                package_dir: dir,
                root,
                file: &c.file,
                node: &entry.value,
                anchor: entry.key_span.clone(),
                declared: &decl.name,
                settings: &draft.settings,
                combined: true,
                location: c.file.location(entry.key_span.start),
            };
            check_item(f, kind, &src, loaded);
        } else {
            let span = draft
                .declaration_spans
                .get(&(kind, name.to_string()))
                .cloned()
                .unwrap_or(0..0);
            f.at(
                codes::DEFINITION_MISSING,
                manifest_file,
                &span,
                format!("{} `{name}` is declared but has no definition file", kind.singular()),
                Some(format!(
                    "create `{root}/{plural}/{name}.toml` (or .json), or a `[{name}]` table in `{root}/{plural}.toml`",
                    plural = kind.plural()
                )),
            );
        }
    }
}

fn check_item(f: &mut Findings, kind: Kind, src: &DefinitionSource<'_>, loaded: &mut Loaded) {
    match kind {
        Kind::Tool => loaded.tools.extend(items::check_tool(f, src)),
        Kind::Prompt => loaded.prompts.extend(items::check_prompt(f, src)),
        Kind::Resource => loaded.resources.extend(items::check_resource(f, src)),
        // Skills are folders, not definition files: `load_skills` reads them.
        Kind::Skill => {}
        Kind::Server => {
            let (server, references) = items::check_server(f, src);
            loaded.servers.extend(server);
            loaded.references.extend(references);
        }
    }
}

/// Definition files and combined entries that no declaration names.
fn report_undeclared(
    f: &mut Findings,
    draft: &ManifestDraft,
    kind: Kind,
    folder: &str,
    in_folder: &BTreeSet<String>,
    combined: Option<&Combined>,
) {
    let undeclared = in_folder.iter().filter(|name| {
        let path = Path::new(name);
        let is_definition = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("toml" | "json")
        );
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        is_definition && !draft.is_declared(kind, stem)
    });
    // A sorted set, so the findings come in name order.
    for name in undeclared {
        let stem = Path::new(name)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        f.whole(
            codes::UNDECLARED_DEFINITION,
            &format!("{folder}/{name}"),
            format!(
                "no declaration in agx.toml names {} `{stem}`; this file is ignored",
                kind.singular()
            ),
            Some(format!(
                "add \"{stem}\" to `{}` in [extension], or remove the file",
                kind.plural()
            )),
        );
    }
    for entry in combined.map(Combined::entries).unwrap_or_default() {
        if !draft.is_declared(kind, &entry.key) {
            let file = &combined.expect("entries come from the combined file").file;
            f.at(
                codes::UNDECLARED_DEFINITION,
                file,
                &entry.key_span,
                format!(
                    "no declaration in agx.toml names {} `{}`; this entry is ignored",
                    kind.singular(),
                    entry.key
                ),
                Some(format!(
                    "add \"{}\" to `{}` in [extension], or remove the entry",
                    entry.key,
                    kind.plural()
                )),
            );
        }
    }
}

/// Every bare name in a server must be declared here; a qualified one must name this package
/// or one of its dependencies.
fn check_references(f: &mut Findings, draft: &ManifestDraft, references: &[Reference]) {
    for r in references {
        let kind = r.kind;
        let local = match &r.item {
            ItemRef::Local(name) => Some(name.as_str()),
            ItemRef::Qualified(q) if draft.name.as_ref() == Some(&q.package) => {
                Some(q.item.as_str())
            }
            ItemRef::Qualified(q) => {
                if !draft.dependencies.contains_key(&q.package) {
                    push_at(
                        f,
                        codes::UNDECLARED_DEPENDENCY,
                        r,
                        format!(
                            "`{}` is in package `{}`, which is not in [dependencies]",
                            r.item, q.package
                        ),
                        Some(format!(
                            "add `\"{}\" = \"^1.0\"` (with the version you need) to [dependencies]",
                            q.package
                        )),
                    );
                }
                None
            }
        };
        if let Some(name) = local
            && !draft.is_declared(kind, name)
        {
            let declared = draft.declarations(kind).iter().map(|d| d.name.as_str());
            let hint = match did_you_mean(name, declared) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!(
                    "declare it in `{}` of [extension], or qualify it as `publisher/package/{name}` for another package's {}",
                    kind.plural(),
                    kind.singular()
                ),
            };
            push_at(
                f,
                codes::UNKNOWN_REFERENCE,
                r,
                format!(
                    "this package declares no {} named `{name}`",
                    kind.singular()
                ),
                Some(hint),
            );
        }
    }
}

fn push_at(
    f: &mut Findings,
    code: codes::Code,
    r: &Reference,
    message: String,
    hint: Option<String>,
) {
    let location: SourceLocation = r.location.clone();
    f.push(code, location, r.length.max(1), message, hint);
}
