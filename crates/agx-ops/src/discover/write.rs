//! `agx discover --write`: what discovery found, as a package's declarations. A folder
//! without agx.toml gets one, a server offering every tool, and a definition file per tool;
//! a package that exists gets its new tools added to `[extension] tools` and their files.
//! Nothing that exists is overwritten: a tool whose definition file exists is left out.

use std::path::{Path, PathBuf};

use agx_core::name::PackageName;
use agx_model::manifest::Parameter;
use serde_json::Value;
use toml_edit::{Array, DocumentMut, Item, Table, value};

use super::{Discovery, FoundTool, Schema};
use crate::new::{create_file, folder_name};

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("the folder name `{folder}` is not a package name: {source}")]
    FolderName {
        folder: String,
        source: agx_core::name::NameError,
    },
    #[error(transparent)]
    Name(#[from] agx_core::name::NameError),
    #[error("could not read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not valid TOML: {message}", path.display())]
    Toml { path: PathBuf, message: String },
    #[error("could not write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl agx_core::error::Hint for WriteError {
    fn hint(&self) -> Option<String> {
        match self {
            WriteError::FolderName { .. } => {
                Some("name the package with --name publisher/name (lowercase a-z, 0-9, -)".into())
            }
            WriteError::Name(e) => e.hint(),
            _ => None,
        }
    }
}

/// What `--write` wrote, paths relative to the folder.
#[derive(Debug, Default, serde::Serialize)]
pub struct Written {
    pub files: Vec<String>,
    /// Tools not written because their definition file exists.
    pub left_alone: Vec<String>,
    /// Whether agx.toml was created (else the tools were added to the existing one).
    pub new_package: bool,
    /// The package's name and the server offering the tools (a new package only).
    pub package: Option<String>,
    pub server: Option<String>,
}

/// Write the declarations of `discovery`'s tools into its folder, naming a new package
/// `name` (else after the folder).
pub fn write(discovery: &Discovery, name: Option<&str>) -> Result<Written, WriteError> {
    let dir = &discovery.dir;
    let manifest_path = dir.join("agx.toml");
    let existing = match std::fs::read_to_string(&manifest_path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(WriteError::Read {
                path: manifest_path,
                source,
            });
        }
    };
    let root = match &existing {
        Some(_) => agx_model::manifest::load_package(dir)
            .map(|p| p.manifest.extension.root.clone())
            .unwrap_or_else(|_| "agx".into()),
        None => "agx".into(),
    };
    let mut written = Written::default();
    let mut names = Vec::new();
    for tool in &discovery.tools {
        let file = format!("{root}/tools/{}.toml", tool.name);
        let path = dir.join(&file);
        match create_file(&path, &definition(tool)) {
            Ok(()) => {
                written.files.push(file);
                names.push(tool.name.clone());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                written.left_alone.push(file);
            }
            Err(source) => return Err(WriteError::Write { path, source }),
        }
    }
    match existing {
        Some(text) => {
            let updated = with_tools(&text, &names).map_err(|message| WriteError::Toml {
                path: manifest_path.clone(),
                message,
            })?;
            agx_core::atomic::write_file(&manifest_path, updated.as_bytes(), None).map_err(
                |source| WriteError::Write {
                    path: manifest_path,
                    source,
                },
            )?;
            written.files.push("agx.toml".into());
        }
        None => {
            let package = match name {
                Some(name) => PackageName::parse(name)?,
                None => name_from_folder(dir)?,
            };
            let server = package.name().to_string();
            let server_file = format!("{root}/servers/{server}.toml");
            for (file, text) in [
                (
                    "agx.toml".to_string(),
                    manifest(&package, &server, &names, dir),
                ),
                (server_file, server_definition(&server, dir, &names)),
            ] {
                let path = dir.join(&file);
                create_file(&path, &text).map_err(|source| WriteError::Write { path, source })?;
                written.files.push(file);
            }
            written.new_package = true;
            written.package = Some(package.to_string());
            written.server = Some(format!("{package}/{server}"));
        }
    }
    Ok(written)
}

fn name_from_folder(dir: &Path) -> Result<PackageName, WriteError> {
    let folder = folder_name(dir);
    PackageName::parse(&folder).map_err(|source| WriteError::FolderName { folder, source })
}

fn strings(items: &[String]) -> Array {
    items.iter().map(String::as_str).collect()
}

fn manifest(package: &PackageName, server: &str, tools: &[String], dir: &Path) -> String {
    let mut doc = DocumentMut::new();
    let mut head = Table::new();
    head["name"] = value(package.to_string());
    head["version"] = value("0.1.0");
    head["description"] = value(format!(
        "Tools from the scripts in {} (found by `agx discover`)",
        folder_name(dir)
    ));
    doc["package"] = Item::Table(head);
    let mut extension = Table::new();
    extension["servers"] = value(strings(&[server.to_string()]));
    extension["tools"] = value(strings(tools));
    doc["extension"] = Item::Table(extension);
    doc.to_string()
}

fn server_definition(server: &str, dir: &Path, tools: &[String]) -> String {
    let mut doc = DocumentMut::new();
    doc["name"] = value(server);
    doc["description"] = value(format!("The scripts in {}", folder_name(dir)));
    doc["tools"] = value(strings(tools));
    doc.to_string()
}

/// `text` (agx.toml) with `tools` added to `[extension] tools`, its formatting kept.
fn with_tools(text: &str, tools: &[String]) -> Result<String, String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.to_string())?;
    let extension = doc
        .entry("extension")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut()
        .ok_or("[extension] is not a table")?;
    let list = extension
        .entry("tools")
        .or_insert(value(Array::new()))
        .as_array_mut()
        .ok_or("`tools` in [extension] is not an array")?;
    for tool in tools {
        list.push(tool.as_str());
    }
    Ok(doc.to_string())
}

/// A tool's definition file.
pub(crate) fn definition(tool: &FoundTool) -> String {
    let mut doc = DocumentMut::new();
    doc.decor_mut().set_prefix(format!(
        "# Found by `agx discover` in {} ({}).\n\
         # Yours to edit: discovery never runs again for a script that a definition runs.\n",
        tool.script,
        match tool.via {
            super::Via::SelfTest => "it answered the self-test and dumped no schema",
            super::Via::MultiSchema => "--fractalic-dump-multi-schema",
            super::Via::Schema => "--fractalic-dump-schema",
            super::Via::Argparse => "its argparse arguments",
            super::Via::Help => "its --help text",
        }
    ));
    doc["name"] = value(tool.name.as_str());
    doc["description"] = value(tool.description.as_str());
    doc["command"] = value(strings(&tool.command));
    doc["input"] = value(tool.input.as_str());
    match &tool.schema {
        Schema::Parameters(parameters) => {
            let mut tables = toml_edit::ArrayOfTables::new();
            for p in parameters {
                tables.push(parameter_table(p));
            }
            if !tables.is_empty() {
                doc["parameters"] = Item::ArrayOfTables(tables);
            }
        }
        Schema::Json(schema) => {
            if let Some(Item::Value(toml_edit::Value::InlineTable(inline))) = toml_item(schema) {
                doc["input_schema"] = Item::Table(inline.into_table());
            }
        }
    }
    doc.to_string()
}

fn parameter_table(p: &Parameter) -> Table {
    let mut t = Table::new();
    t["name"] = value(p.name.as_str());
    t["type"] = value(p.kind.as_str());
    if let Some(d) = &p.description {
        t["description"] = value(d.as_str());
    }
    if p.required {
        t["required"] = value(true);
    }
    for (key, json) in [
        ("enum", &p.r#enum.clone().map(Value::Array)),
        ("items", &p.items),
    ] {
        if let Some(item) = json.as_ref().and_then(toml_item) {
            t[key] = item;
        }
    }
    t
}

/// JSON as TOML (a null, which TOML cannot hold, is left out).
fn toml_item(json: &Value) -> Option<Item> {
    agx_edit::json_to_toml(json).map(Item::Value)
}

#[cfg(test)]
mod tests {
    use super::super::{InputMode, Via};
    use super::*;
    use agx_model::manifest::ParamType;

    fn found(schema: Schema) -> FoundTool {
        FoundTool {
            name: "weather".into(),
            script: "weather.py".into(),
            description: "Simple \"weather\" fetcher".into(),
            input: InputMode::ArgvFlags,
            via: Via::Help,
            command: vec!["python3".into(), "weather.py".into()],
            schema,
        }
    }

    #[test]
    fn a_definition_holds_parameters_or_a_schema() {
        let text = definition(&found(Schema::Parameters(vec![Parameter {
            name: "lat".into(),
            kind: ParamType::String,
            description: Some("Latitude".into()),
            required: true,
            r#enum: None,
            default: None,
            items: None,
        }])));
        let doc: DocumentMut = text.parse().unwrap();
        assert_eq!(doc["input"].as_str(), Some("argv-flags"));
        assert_eq!(
            doc["description"].as_str(),
            Some("Simple \"weather\" fetcher")
        );
        assert_eq!(doc["parameters"][0]["required"].as_bool(), Some(true));
        let schema = serde_json::json!({"type": "object", "properties": {
            "units": {"type": "string", "enum": ["C", "F"], "default": null}},
            "required": ["units"]});
        let text = definition(&found(Schema::Json(schema)));
        let doc: DocumentMut = text.parse().unwrap();
        let units = doc["input_schema"]["properties"]["units"]
            .as_table_like()
            .unwrap();
        assert_eq!(units.get("enum").unwrap().as_array().unwrap().len(), 2);
        assert!(units.get("default").is_none());
    }

    #[test]
    fn tools_join_an_existing_list_keeping_its_formatting() {
        let text = "[package]\nname = \"a\" # mine\n\n[extension]\ntools = [\"old\"]\n";
        let updated = with_tools(text, &["new".into()]).unwrap();
        assert!(updated.contains("name = \"a\" # mine"), "{updated}");
        assert!(updated.contains("tools = [\"old\", \"new\"]"), "{updated}");
    }
}
