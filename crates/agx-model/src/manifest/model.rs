//! The loaded, checked model of an extension package: `agx.toml` plus every definition file
//! (docs/package-format.md). Loading (`super::load`) produces these; everything else in agx reads them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use agx_core::name::{ItemName, ItemRef, PackageName};

/// Where something came from: a file relative to the package root, and a 1-based line and
/// column. Kept on every definition so later errors (serve, install-server) can point at it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct SourceLocation {
    /// Path relative to the package folder, with `/` separators.
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A whole package, every declared item loaded and checked.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Package {
    /// The package folder (absolute). Not part of a snapshot: it is where the snapshot is.
    #[serde(skip)]
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// In declaration order.
    pub servers: Vec<ServerDef>,
    pub tools: Vec<ToolDef>,
    pub prompts: Vec<PromptDef>,
    pub resources: Vec<ResourceDef>,
    #[serde(default)]
    pub skills: Vec<crate::skills::SkillDef>,
}

impl Package {
    pub fn name(&self) -> &PackageName {
        &self.manifest.package.name
    }

    pub fn version(&self) -> &semver::Version {
        &self.manifest.package.version
    }

    pub fn tool(&self, name: &str) -> Option<&ToolDef> {
        self.tools.iter().find(|t| t.name.as_str() == name)
    }

    pub fn server(&self, name: &str) -> Option<&ServerDef> {
        self.servers.iter().find(|s| s.name.as_str() == name)
    }

    pub fn prompt(&self, name: &str) -> Option<&PromptDef> {
        self.prompts.iter().find(|p| p.name.as_str() == name)
    }

    pub fn resource(&self, name: &str) -> Option<&ResourceDef> {
        self.resources.iter().find(|r| r.name.as_str() == name)
    }

    /// The folder holding definition files (`[extension] root`).
    pub fn root_dir(&self) -> PathBuf {
        self.dir.join(&self.manifest.extension.root)
    }

    /// The permissions `server` declares: its own, else the package's; `None` when neither
    /// declares any (docs/sandbox.md).
    pub fn permissions_of(&self, server: Option<&str>) -> Option<&crate::permissions::Permissions> {
        server
            .and_then(|name| self.server(name))
            .and_then(|s| s.permissions.as_ref())
            .or(self.manifest.extension.permissions.as_ref())
    }
}

/// `agx.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub package: PackageMeta,
    pub dependencies: BTreeMap<PackageName, semver::VersionReq>,
    pub extension: ExtensionDecl,
}

/// `[package]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PackageMeta {
    pub name: PackageName,
    pub version: semver::Version,
    pub description: Option<String>,
    pub license: Option<String>,
    pub authors: Vec<String>,
    pub homepage: Option<String>,
    pub repository: Option<String>,
    pub keywords: Vec<String>,
    /// agx versions the package works with.
    pub agx: Option<semver::VersionReq>,
}

/// `[extension]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExtensionDecl {
    /// Folder of definition files, relative to the package (default `agx`).
    pub root: String,
    pub servers: Vec<Declaration>,
    pub tools: Vec<Declaration>,
    pub prompts: Vec<Declaration>,
    /// `[extension.settings.<key>]`, in declaration order (docs/settings.md).
    #[serde(default)]
    pub settings: Vec<crate::settings::Setting>,
    /// `[extension.permissions]` (docs/sandbox.md); `None` when the package declares none.
    #[serde(default)]
    pub permissions: Option<crate::permissions::Permissions>,
    pub resources: Vec<Declaration>,
    /// Skill folders, `skills/<name>/` at the package's top (docs/skills.md).
    #[serde(default)]
    pub skills: Vec<Declaration>,
}

/// One declared item: a name, a `[name, description]` pair, or a table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Declaration {
    pub name: ItemName,
    pub description: Option<String>,
    pub title: Option<String>,
    pub location: SourceLocation,
}

/// How a tool receives its arguments (docs/package-format.md, "Input").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum InputMode {
    /// One JSON object on stdin.
    #[default]
    #[serde(rename = "stdin")]
    Stdin,
    /// The JSON object as the last argument (`argv-json`, first spelled `argv`; Fractalic's
    /// contract).
    #[serde(rename = "argv", alias = "argv-json")]
    Argv,
    /// `--name value` per argument: booleans as bare flags, arrays repeated (scripts written
    /// for argparse and the like).
    #[serde(rename = "argv-flags")]
    ArgvFlags,
}

impl InputMode {
    /// Every spelling `input` accepts, for messages.
    pub const SPELLINGS: &str = "\"stdin\", \"argv-json\" (or \"argv\") or \"argv-flags\"";

    /// The mode a definition's `input` names.
    pub fn parse(spelling: &str) -> Option<InputMode> {
        match spelling {
            "stdin" => Some(InputMode::Stdin),
            "argv" | "argv-json" => Some(InputMode::Argv),
            "argv-flags" => Some(InputMode::ArgvFlags),
            _ => None,
        }
    }

    /// How definitions spell the mode (`argv-json` for [`InputMode::Argv`]).
    pub fn as_str(self) -> &'static str {
        match self {
            InputMode::Stdin => "stdin",
            InputMode::Argv => "argv-json",
            InputMode::ArgvFlags => "argv-flags",
        }
    }
}

pub const DEFAULT_TOOL_TIMEOUT_SECS: u64 = 60;

/// The largest file a file-backed resource may be: `agx serve` holds a read in memory and
/// sends it in one message (base64 makes binary a third larger).
pub const RESOURCE_FILE_CAP: u64 = 8 * 1024 * 1024;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolAnnotations {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

/// Parameter types a tool may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    String,
    Number,
    Integer,
    Boolean,
    Array,
    Object,
}

impl ParamType {
    pub const ALL: [&'static str; 6] =
        ["string", "number", "integer", "boolean", "array", "object"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "string" => ParamType::String,
            "number" => ParamType::Number,
            "integer" => ParamType::Integer,
            "boolean" => ParamType::Boolean,
            "array" => ParamType::Array,
            "object" => ParamType::Object,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Number => "number",
            ParamType::Integer => "integer",
            ParamType::Boolean => "boolean",
            ParamType::Array => "array",
            ParamType::Object => "object",
        }
    }
}

/// `[[parameters]]` of a tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ParamType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#enum: Option<Vec<serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
    /// For arrays: the schema of each element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<serde_json::Value>,
}

/// A tool definition (`tools/<name>.toml`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ToolDef {
    pub name: ItemName,
    pub title: Option<String>,
    pub description: Option<String>,
    /// argv; no shell. Relative program paths are relative to the package folder.
    pub command: Vec<String>,
    pub input: InputMode,
    pub timeout_secs: u64,
    pub env: BTreeMap<String, String>,
    pub initialization: Option<Vec<String>>,
    pub annotations: ToolAnnotations,
    pub parameters: Vec<Parameter>,
    /// An explicit JSON Schema; when present it replaces the one built from `parameters`.
    pub input_schema: Option<serde_json::Value>,
    pub location: SourceLocation,
}

impl ToolDef {
    /// The JSON Schema of the tool's arguments (`inputSchema` in MCP).
    pub fn input_schema(&self) -> serde_json::Value {
        if let Some(schema) = &self.input_schema {
            return schema.clone();
        }
        let mut properties = serde_json::Map::new();
        let mut required = Vec::new();
        for p in &self.parameters {
            let mut prop = serde_json::Map::new();
            prop.insert("type".into(), p.kind.as_str().into());
            if let Some(d) = &p.description {
                prop.insert("description".into(), d.clone().into());
            }
            if let Some(e) = &p.r#enum {
                prop.insert("enum".into(), e.clone().into());
            }
            if let Some(d) = &p.default {
                prop.insert("default".into(), d.clone());
            }
            if let Some(items) = &p.items {
                prop.insert("items".into(), items.clone());
            }
            if p.required {
                required.push(serde_json::Value::from(p.name.clone()));
            }
            properties.insert(p.name.clone(), prop.into());
        }
        let mut schema = serde_json::Map::new();
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), properties.into());
        if !required.is_empty() {
            schema.insert("required".into(), required.into());
        }
        schema.into()
    }
}

/// A remote server's sign-in, as its publisher knows it (`[oauth]` of a server definition,
/// `oauth` of a plugin's `.mcp.json` entry; docs/auth.md): defaults for `agx auth login`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OAuthHints {
    /// A client ID registered with the server's authorization server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The loopback port that client's redirect URI names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_port: Option<u16>,
    /// The scopes to ask for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

/// A server definition (`servers/<name>.toml`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerDef {
    pub name: ItemName,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Defaults to the package version.
    pub version: Option<semver::Version>,
    pub instructions: Option<String>,
    pub tools: Vec<ItemRef>,
    pub prompts: Vec<ItemRef>,
    pub resources: Vec<ItemRef>,
    pub initialization: Option<Vec<String>>,
    /// A wrapped MCP server that the package ships; `agx serve` runs it in its place.
    pub command: Option<Vec<String>>,
    pub env: BTreeMap<String, String>,
    /// Working directory of a wrapped server, relative to the package folder.
    pub cwd: Option<String>,
    /// A remote MCP server (Streamable HTTP) that `agx serve` bridges to stdio.
    pub url: Option<String>,
    /// HTTP headers sent to the remote `url`.
    pub headers: BTreeMap<String, String>,
    /// How `agx auth login` signs in to the remote `url`, as its publisher says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth: Option<OAuthHints>,
    /// The server's own permissions, in place of the package's (docs/sandbox.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permissions: Option<crate::permissions::Permissions>,
    pub location: SourceLocation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PromptKind {
    Text,
    Command,
}

/// `[[arguments]]` of a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptArgument {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub required: bool,
    /// Where `completion/complete` finds values for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<CompletionSource>,
}

/// Where completions for a prompt argument or a template variable come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompletionSource {
    /// `enum = [...]`: the values, offered by prefix.
    Enum(Vec<String>),
    /// `complete = [...]`: a command given `{argument, value, context}` as JSON on stdin that
    /// prints candidates one per line.
    Command(Vec<String>),
}

/// A prompt definition (`prompts/<name>.toml`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PromptDef {
    pub name: ItemName,
    pub title: Option<String>,
    pub description: Option<String>,
    pub kind: PromptKind,
    /// The template text (from `content`, or read from `content_file` at load time).
    pub content: Option<String>,
    pub content_file: Option<String>,
    pub command: Option<Vec<String>>,
    pub arguments: Vec<PromptArgument>,
    pub location: SourceLocation,
}

/// How a client names a resource: one URI, or a URI template with variables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceAddress {
    Uri(String),
    /// RFC 6570 (`weather://{city}/today`); see `manifest::uri_template`.
    UriTemplate(String),
}

/// What produces a resource's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceSource {
    /// A file in the package, relative to the package folder.
    Path(String),
    /// argv; stdin is the template variables as one JSON object (`{}` for a static
    /// resource); stdout is the content.
    Command(Vec<String>),
}

/// `[[variables]]` of a resource template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TemplateVariable {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<CompletionSource>,
}

/// A resource definition (`resources/<name>.toml`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResourceDef {
    pub name: ItemName,
    pub title: Option<String>,
    pub description: Option<String>,
    pub address: ResourceAddress,
    pub mime_type: Option<String>,
    pub source: ResourceSource,
    /// For a command source.
    pub timeout_secs: u64,
    pub env: BTreeMap<String, String>,
    /// For a template: its variables, when declared (else the template's own).
    pub variables: Vec<TemplateVariable>,
    pub location: SourceLocation,
}

impl ResourceDef {
    /// The file that backs it, when it is one (relative to the package folder).
    pub fn file(&self) -> Option<&str> {
        match &self.source {
            ResourceSource::Path(p) => Some(p),
            ResourceSource::Command(_) => None,
        }
    }
}

/// Resolve a command's program: a path with a `/` is relative to the package folder;
/// a bare name (`python3`) is looked up on PATH by the OS when it runs.
pub fn resolve_program(package_dir: &Path, program: &str) -> PathBuf {
    let p = Path::new(program);
    if p.is_absolute() || !program.contains('/') {
        p.to_path_buf()
    } else {
        package_dir.join(p)
    }
}

/// What a package contributes, as recorded in the registry index and the catalog, and shown
/// by `list` without reading definition files. Stable JSON shape (docs/registry.md).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtensionSummary {
    #[serde(default)]
    pub servers: Vec<ServerSummary>,
    #[serde(default)]
    pub tools: Vec<ToolSummary>,
    #[serde(default)]
    pub prompts: Vec<PromptSummary>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ResourceSummary>,
    /// Skipped when empty, so index entries and receipts of packages without skills read as
    /// before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<SkillSummary>,
}

/// A skill as the index, receipts, `list` and `info` show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillSummary {
    pub name: String,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerSummary {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Tool references as written (bare or qualified).
    #[serde(default)]
    pub tools: Vec<String>,
    #[serde(default)]
    pub prompts: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSummary {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub parameters: Vec<ParameterSummary>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParameterSummary {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptSummary {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub arguments: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceSummary {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The URI, or the URI template.
    pub uri: String,
}

impl Package {
    /// The summary recorded in the index for this package.
    pub fn summary(&self) -> ExtensionSummary {
        ExtensionSummary {
            servers: self
                .servers
                .iter()
                .map(|s| ServerSummary {
                    name: s.name.to_string(),
                    description: s.description.clone(),
                    tools: s.tools.iter().map(|t| t.to_string()).collect(),
                    prompts: s.prompts.iter().map(|p| p.to_string()).collect(),
                    resources: s.resources.iter().map(|r| r.to_string()).collect(),
                })
                .collect(),
            tools: self
                .tools
                .iter()
                .map(|t| ToolSummary {
                    name: t.name.to_string(),
                    description: t.description.clone(),
                    parameters: summarize_parameters(t),
                })
                .collect(),
            prompts: self
                .prompts
                .iter()
                .map(|p| PromptSummary {
                    name: p.name.to_string(),
                    description: p.description.clone(),
                    arguments: p.arguments.iter().map(|a| a.name.clone()).collect(),
                })
                .collect(),
            resources: self
                .resources
                .iter()
                .map(|r| ResourceSummary {
                    name: r.name.to_string(),
                    description: r.description.clone(),
                    uri: match &r.address {
                        ResourceAddress::Uri(u) | ResourceAddress::UriTemplate(u) => u.clone(),
                    },
                })
                .collect(),
            skills: self
                .skills
                .iter()
                .map(|s| SkillSummary {
                    name: s.name.clone(),
                    description: s.description.clone(),
                })
                .collect(),
        }
    }
}

/// Parameters as a flat list, read from `input_schema` when the tool gives one.
fn summarize_parameters(tool: &ToolDef) -> Vec<ParameterSummary> {
    let schema = tool.input_schema();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(|r| r.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    let Some(props) = schema.get("properties").and_then(|p| p.as_object()) else {
        return Vec::new();
    };
    props
        .iter()
        .map(|(name, prop)| ParameterSummary {
            name: name.clone(),
            kind: prop
                .get("type")
                .and_then(|t| t.as_str())
                .unwrap_or("any")
                .to_string(),
            required: required.contains(&name.as_str()),
            description: prop
                .get("description")
                .and_then(|d| d.as_str())
                .map(str::to_string),
        })
        .collect()
}
