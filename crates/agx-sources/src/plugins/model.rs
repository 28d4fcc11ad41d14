//! What every plugin format is written from: one installed package, reduced to the parts
//! plugins carry (metadata, MCP servers, settings, skills), and the files a format writes.

use std::path::PathBuf;

use agx_core::name::PackageName;
use agx_model::client_table::shape::ServerEntry;
use agx_model::manifest::Package;
use agx_model::settings::Setting;

use super::names::{self, Author};

/// One package as a plugin.
#[derive(Debug, Clone)]
pub struct PluginSource {
    pub package: PackageName,
    /// [`names::plugin_name`] of the package.
    pub name: String,
    pub version: semver::Version,
    pub description: Option<String>,
    pub author: Option<Author>,
    pub license: Option<String>,
    pub homepage: Option<String>,
    pub repository: Option<String>,
    pub keywords: Vec<String>,
    /// The package's servers, in declaration order: the key in the plugin's MCP file and the
    /// qualified server (`acme/weather/forecast`).
    pub servers: Vec<(String, String)>,
    pub settings: Vec<Setting>,
    /// Each skill's name and the folder its files are copied from.
    pub skills: Vec<(String, PathBuf)>,
}

impl PluginSource {
    pub fn from_package(package: &Package) -> PluginSource {
        let meta = &package.manifest.package;
        PluginSource {
            package: meta.name.clone(),
            name: names::plugin_name(&meta.name),
            version: meta.version.clone(),
            description: meta.description.clone(),
            author: meta.authors.first().map(|a| Author::parse(a)),
            license: meta.license.clone(),
            homepage: meta.homepage.clone(),
            repository: meta.repository.clone(),
            keywords: meta.keywords.clone(),
            servers: package
                .servers
                .iter()
                .map(|s| (s.name.to_string(), format!("{}/{}", meta.name, s.name)))
                .collect(),
            settings: package.manifest.extension.settings.clone(),
            skills: package
                .skills
                .iter()
                .map(|s| (s.name.clone(), package.dir.join(&s.folder)))
                .collect(),
        }
    }

    /// The entry of one server: bare `agx serve <server>@=<version>`, no environment (the
    /// form of committed project entries, docs/projects.md).
    pub fn entry(&self, launches: &str) -> ServerEntry {
        agx_model::client_table::shape::project_entry(launches, &self.version, &[])
    }

    /// The settings `agx serve` refuses to start without, unless they have a default.
    pub fn required_settings(&self) -> impl Iterator<Item = &Setting> {
        self.settings
            .iter()
            .filter(|s| s.required && s.default.is_none())
    }

    /// The package's description, followed by the settings it needs and how to set them
    /// (values never go into a plugin).
    pub fn description(&self) -> String {
        let mut text = self
            .description
            .clone()
            .unwrap_or_else(|| format!("{} {}", self.package, self.version));
        let required: Vec<String> = self
            .required_settings()
            .map(|s| {
                let secret = if s.secret { " (secret)" } else { "" };
                format!("{}{secret}", s.key)
            })
            .collect();
        if !required.is_empty() {
            let text_ends = text.ends_with(['.', '!', '?']);
            text.push_str(if text_ends { " " } else { ". " });
            text.push_str(&format!(
                "Requires the setting(s) {}: `agx config set {} <key>`.",
                required.join(", "),
                self.package
            ));
        }
        text
    }

    /// The homepage when it is an http(s) URL (Claude Code rejects any other).
    pub fn web_homepage(&self) -> Option<&str> {
        self.homepage
            .as_deref()
            .filter(|h| h.starts_with("https://") || h.starts_with("http://"))
    }
}

/// One file or folder a format writes, relative to the output folder.
#[derive(Debug, Clone, PartialEq)]
pub enum BundleFile {
    /// A text file (JSON), written as given.
    Text { path: PathBuf, text: String },
    /// A copy of a folder (a skill).
    Tree { path: PathBuf, from: PathBuf },
}

impl BundleFile {
    pub fn path(&self) -> &std::path::Path {
        match self {
            BundleFile::Text { path, .. } | BundleFile::Tree { path, .. } => path,
        }
    }
}

/// The MCP configuration file at `path`, when the plugin has servers (a skills-only plugin
/// has none: every format treats a missing file as no servers).
pub fn mcp_file(
    source: &PluginSource,
    path: PathBuf,
    config: serde_json::Value,
) -> Vec<BundleFile> {
    if source.servers.is_empty() {
        return Vec::new();
    }
    vec![BundleFile::Text {
        path,
        text: json_text(&config),
    }]
}

/// The descriptive fields every plugin manifest shares: `name`, `version`, `description`,
/// then `author`, `homepage`, `repository`, `license` and `keywords` when the package has
/// them. Each format gives its own `author` object and `homepage` (Claude Code accepts only
/// an http(s) one; Cursor's author has no `url`).
pub fn manifest_metadata(
    source: &PluginSource,
    author: Option<serde_json::Value>,
    homepage: Option<&str>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("name".into(), source.name.clone().into());
    m.insert("version".into(), source.version.to_string().into());
    m.insert("description".into(), source.description().into());
    if let Some(author) = author {
        m.insert("author".into(), author);
    }
    if let Some(homepage) = homepage {
        m.insert("homepage".into(), homepage.into());
    }
    if let Some(repository) = &source.repository {
        m.insert("repository".into(), repository.clone().into());
    }
    if let Some(license) = &source.license {
        m.insert("license".into(), license.clone().into());
    }
    if !source.keywords.is_empty() {
        m.insert("keywords".into(), source.keywords.clone().into());
    }
    m
}

/// The files of every plugin of a marketplace, each in `plugins/<name>/` as `plugin_files`
/// writes one.
pub fn plugins_folder(
    sources: &[PluginSource],
    plugin_files: fn(&PluginSource, &std::path::Path) -> Vec<BundleFile>,
) -> Vec<BundleFile> {
    sources
        .iter()
        .flat_map(|source| {
            plugin_files(
                source,
                &std::path::Path::new(super::claude::PLUGINS_FOLDER).join(&source.name),
            )
        })
        .collect()
}

/// Each server as a bare `{"command": "agx", "args": ["serve", …]}` entry, by its key: the
/// servers map of formats that pass no settings through the entry (Codex, Cursor, Gemini).
pub fn plain_servers(source: &PluginSource) -> serde_json::Map<String, serde_json::Value> {
    source
        .servers
        .iter()
        .map(|(key, launches)| {
            let entry = source.entry(launches);
            (
                key.clone(),
                serde_json::json!({"command": entry.command, "args": entry.args}),
            )
        })
        .collect()
}

/// `value` as pretty JSON ending in a newline: the bytes every format writes.
pub fn json_text(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The `skills/<name>` copies of a plugin rooted at `root`.
pub fn skill_files(source: &PluginSource, root: &std::path::Path) -> Vec<BundleFile> {
    source
        .skills
        .iter()
        .map(|(name, from)| BundleFile::Tree {
            path: root.join("skills").join(name),
            from: from.clone(),
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod fixture {
    //! A plugin source with a server, a required secret, an optional setting and a skill.
    use super::*;

    pub(crate) fn source() -> PluginSource {
        let mut api_key = Setting::new("api_key");
        api_key.secret = true;
        api_key.required = true;
        api_key.description = Some("Acme API key".into());
        api_key.env = Some("ACME_API_KEY".into());
        let mut units = Setting::new("units");
        units.default = Some("metric".into());
        units.env = Some("ACME_UNITS".into());
        PluginSource {
            package: PackageName::parse("acme/quotes").unwrap(),
            name: "acme-quotes".into(),
            version: semver::Version::new(1, 0, 0),
            description: Some("Quotes".into()),
            author: Some(Author::parse("Acme <dev@acme.test>")),
            license: Some("MIT".into()),
            homepage: Some("https://acme.test/quotes".into()),
            repository: None,
            keywords: vec!["quotes".into()],
            servers: vec![("quotes".into(), "acme/quotes/quotes".into())],
            settings: vec![api_key, units],
            skills: vec![("review".into(), PathBuf::from("/src/skills/review"))],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_bare_agx_serve_pinned_without_environment() {
        let source = fixture::source();
        let entry = source.entry("acme/quotes/quotes");
        assert_eq!(entry.command, "agx");
        assert_eq!(entry.args, ["serve", "acme/quotes/quotes@=1.0.0"]);
        assert!(entry.env.is_empty());
    }

    #[test]
    fn the_description_names_required_settings_but_no_value() {
        let text = fixture::source().description();
        assert_eq!(
            text,
            "Quotes. Requires the setting(s) api_key (secret): `agx config set acme/quotes <key>`."
        );
    }
}
