//! Which texts of a package (or of an MCP list item) the scan reads, and under what names:
//! every item's title and description, every `description` and `title` inside its schemas,
//! prompt and template arguments, server instructions, prompt content and each SKILL.md.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::sources::Sources;
use super::{Origin, ScanFinding, TextKind, findings_of, findings_placed, length};
use crate::manifest::SourceLocation;
use crate::manifest::package_file;
use crate::manifest::{Package, PromptDef, ResourceDef, ServerDef, ToolDef};
use crate::skills::SKILL_FILE;

/// What kind of thing a scanned text belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SubjectKind {
    Tool,
    Prompt,
    Resource,
    Server,
    Skill,
}

impl SubjectKind {
    fn as_str(self) -> &'static str {
        match self {
            SubjectKind::Tool => "tool",
            SubjectKind::Prompt => "prompt",
            SubjectKind::Resource => "resource",
            SubjectKind::Server => "server",
            SubjectKind::Skill => "skill",
        }
    }
}

/// The item a finding is about: `tool `fetch``.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Subject {
    pub kind: SubjectKind,
    pub name: String,
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}`", self.kind.as_str(), self.name)
    }
}

/// Collects the findings of one package's texts.
struct Scan {
    findings: Vec<ScanFinding>,
    /// Item descriptions and their subjects, for the length comparison.
    descriptions: Vec<(Subject, Option<SourceLocation>, String)>,
    /// The package's files, when the items were loaded from them: findings then point at the
    /// match in the file rather than at the item.
    sources: Option<Sources>,
}

impl Scan {
    fn text(
        &mut self,
        subject: &Subject,
        field: &str,
        origin: Origin<'_>,
        text: Option<&str>,
        kind: TextKind,
    ) {
        let Some(text) = text else { return };
        let sources = &mut self.sources;
        let written = |offset| match origin {
            Origin::Definition(item) => sources.as_mut()?.locate(item, text, offset),
            _ => None,
        };
        let found = findings_placed(text, kind, subject, field, origin, written);
        self.findings.extend(found);
    }

    /// An item's own description, which is also compared with its neighbours'.
    fn description(&mut self, subject: &Subject, at: &SourceLocation, text: Option<&str>) {
        let origin = Origin::Definition(at);
        self.text(subject, "description", origin, text, TextKind::Description);
        if let Some(text) = text {
            self.descriptions
                .push((subject.clone(), Some(at.clone()), text.to_string()));
        }
    }

    /// Every `description` and `title` string inside a JSON Schema, named by its path.
    fn schema(&mut self, subject: &Subject, prefix: &str, origin: Origin<'_>, schema: &Value) {
        let mut texts = Vec::new();
        schema_texts(schema, prefix.to_string(), &mut texts);
        for (field, text) in texts {
            self.text(subject, &field, origin, Some(text), TextKind::Description);
        }
    }
}

fn schema_texts<'a>(value: &'a Value, path: String, out: &mut Vec<(String, &'a str)>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                let here = format!("{path}.{key}");
                match v {
                    Value::String(s) if key == "description" || key == "title" => {
                        out.push((here, s))
                    }
                    _ => schema_texts(v, here, out),
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                schema_texts(v, format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

fn subject(kind: SubjectKind, name: &str) -> Subject {
    Subject {
        kind,
        name: name.to_string(),
    }
}

impl Scan {
    fn new() -> Self {
        Scan {
            findings: Vec::new(),
            descriptions: Vec::new(),
            sources: None,
        }
    }

    fn tool(&mut self, tool: &ToolDef) {
        let s = subject(SubjectKind::Tool, tool.name.as_str());
        let at = Origin::Definition(&tool.location);
        self.text(
            &s,
            "title",
            at,
            tool.title.as_deref(),
            TextKind::Description,
        );
        self.description(&s, &tool.location, tool.description.as_deref());
        self.schema(&s, "input_schema", at, &tool.input_schema());
    }

    fn prompt(&mut self, prompt: &PromptDef) {
        let s = subject(SubjectKind::Prompt, prompt.name.as_str());
        let at = Origin::Definition(&prompt.location);
        self.text(
            &s,
            "title",
            at,
            prompt.title.as_deref(),
            TextKind::Description,
        );
        self.description(&s, &prompt.location, prompt.description.as_deref());
        for a in &prompt.arguments {
            let field = format!("arguments.{}.description", a.name);
            self.text(
                &s,
                &field,
                at,
                a.description.as_deref(),
                TextKind::Description,
            );
        }
        self.text(
            &s,
            "content",
            at,
            prompt.content.as_deref(),
            TextKind::Content,
        );
    }

    fn resource(&mut self, resource: &ResourceDef) {
        let s = subject(SubjectKind::Resource, resource.name.as_str());
        let at = Origin::Definition(&resource.location);
        self.text(
            &s,
            "title",
            at,
            resource.title.as_deref(),
            TextKind::Description,
        );
        self.description(&s, &resource.location, resource.description.as_deref());
        for v in &resource.variables {
            let field = format!("variables.{}.description", v.name);
            self.text(
                &s,
                &field,
                at,
                v.description.as_deref(),
                TextKind::Description,
            );
        }
    }

    fn server(&mut self, server: &ServerDef) {
        let s = subject(SubjectKind::Server, server.name.as_str());
        let at = Origin::Definition(&server.location);
        self.text(
            &s,
            "title",
            at,
            server.title.as_deref(),
            TextKind::Description,
        );
        self.text(
            &s,
            "description",
            at,
            server.description.as_deref(),
            TextKind::Description,
        );
        let instructions = server.instructions.as_deref();
        self.text(&s, "instructions", at, instructions, TextKind::Instructions);
    }
}

/// Scan every text of `package` that reaches a model, and its skills' SKILL.md files.
pub fn scan_package(package: &Package) -> Vec<ScanFinding> {
    let mut scan = Scan::new();
    scan.sources = Some(Sources::new(&package.dir));
    package.tools.iter().for_each(|t| scan.tool(t));
    package.prompts.iter().for_each(|p| scan.prompt(p));
    package.resources.iter().for_each(|r| scan.resource(r));
    package.servers.iter().for_each(|s| scan.server(s));
    for skill in &package.skills {
        scan.findings
            .extend(scan_skill(&package.dir, &skill.folder, &skill.name));
    }
    let Scan {
        mut findings,
        descriptions,
        sources: _,
    } = scan;
    findings.extend(length::outliers(&descriptions));
    findings
}

/// Scan the package `check_package(dir)` loaded from `dir`. A folder of skills without
/// agx.toml was checked as a package in a temporary folder, gone by now: its SKILL.md files
/// are read where they are, and reported there.
pub fn scan_checked(dir: &Path, package: &Package) -> Vec<ScanFinding> {
    let Some(what) = crate::skills::wrap::detect(dir) else {
        return scan_package(package);
    };
    let mut findings = Vec::new();
    for skill in &package.skills {
        let rel =
            crate::skills::wrap::unwrapped_path(&what, &format!("{}/{SKILL_FILE}", skill.folder));
        let folder = rel
            .strip_suffix(SKILL_FILE)
            .unwrap_or("")
            .trim_end_matches('/');
        findings.extend(scan_skill(dir, folder, &skill.name));
    }
    findings
}

/// One item's findings, as `agx serve` checks each item it serves (no length comparison:
/// that needs the whole package, and is never high).
pub fn scan_tool(tool: &ToolDef) -> Vec<ScanFinding> {
    let mut scan = Scan::new();
    scan.tool(tool);
    scan.findings
}

/// See [`scan_tool`].
pub fn scan_prompt(prompt: &PromptDef) -> Vec<ScanFinding> {
    let mut scan = Scan::new();
    scan.prompt(prompt);
    scan.findings
}

/// See [`scan_tool`].
pub fn scan_resource(resource: &ResourceDef) -> Vec<ScanFinding> {
    let mut scan = Scan::new();
    scan.resource(resource);
    scan.findings
}

/// See [`scan_tool`]: a server's title, description and instructions.
pub fn scan_server(server: &ServerDef) -> Vec<ScanFinding> {
    let mut scan = Scan::new();
    scan.server(server);
    scan.findings
}

/// Scan the SKILL.md of the skill in `<package>/<folder>`, front matter and body: positions
/// are in the file. A SKILL.md that cannot be read has nothing to scan (validation reports
/// why).
pub fn scan_skill(package: &Path, folder: &str, name: &str) -> Vec<ScanFinding> {
    let rel = match folder {
        "" => SKILL_FILE.to_string(),
        folder => format!("{folder}/{SKILL_FILE}"),
    };
    let Ok(text) = package_file::read_text(package, &rel) else {
        return Vec::new();
    };
    let s = subject(SubjectKind::Skill, name);
    findings_of(
        &text,
        TextKind::Instructions,
        &s,
        SKILL_FILE,
        Origin::File(&rel),
    )
}

/// Scan one item of an MCP list (`tools/list`, `prompts/list`, `resources/list`,
/// `resources/templates/list`) as a wrapped server sends it: its title, description and every
/// text inside `inputSchema`, `outputSchema` and `arguments`.
pub fn scan_listed(kind: SubjectKind, item: &Value) -> Vec<ScanFinding> {
    let name = item
        .get("name")
        .or_else(|| item.get("uri"))
        .or_else(|| item.get("uriTemplate"))
        .and_then(Value::as_str)
        .unwrap_or("?");
    let s = subject(kind, name);
    let mut scan = Scan::new();
    for field in ["title", "description"] {
        let text = item.get(field).and_then(Value::as_str);
        scan.text(&s, field, Origin::Listed, text, TextKind::Description);
    }
    for field in ["inputSchema", "outputSchema", "arguments"] {
        if let Some(schema) = item.get(field) {
            scan.schema(&s, field, Origin::Listed, schema);
        }
    }
    scan.findings
}
