//! `agx new`: a new package folder with one tool with one parameter (a shell, Python or Node
//! script that answers the self-test at once), one prompt, one server offering both, and a
//! README; it passes `agx validate --probe` as it is.

use std::io::Write;
use std::path::{Path, PathBuf};

use agx_core::name::{NameError, PackageName, QualifiedName};

#[derive(Debug, thiserror::Error)]
pub enum NewError {
    #[error("{} is not empty", dir.display())]
    NotEmpty { dir: PathBuf },
    #[error("{} exists and is not a folder", dir.display())]
    NotAFolder { dir: PathBuf },
    #[error("the folder name `{folder}` is not a package name: {source}")]
    FolderName { folder: String, source: NameError },
    #[error(transparent)]
    Name(#[from] NameError),
    #[error("`{skill}` is not a skill name")]
    SkillName { skill: String },
    #[error("could not write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl agx_core::error::Hint for NewError {
    fn hint(&self) -> Option<String> {
        match self {
            NewError::NotEmpty { .. } | NewError::NotAFolder { .. } => {
                Some("choose a new folder; `agx new` never writes over files".into())
            }
            NewError::FolderName { .. } => {
                Some("name the package with --name publisher/name (lowercase a-z, 0-9, -)".into())
            }
            NewError::Name(e) => e.hint(),
            NewError::SkillName { .. } => Some(format!(
                "a skill name is {}, e.g. `code-review`",
                agx_model::skills::rules::NAME_FORM
            )),
            NewError::Write { .. } => None,
        }
    }
}

/// What `agx new` made.
#[derive(Debug)]
pub struct Created {
    pub dir: PathBuf,
    pub package: PackageName,
    /// The new server, as clients launch it.
    pub server: QualifiedName,
    /// The new tool and prompt, qualified.
    pub tool: QualifiedName,
    pub prompt: QualifiedName,
    /// The files written, relative to `dir`.
    pub files: Vec<&'static str>,
}

const TOOL: &str = "greet";
const PROMPT: &str = "introduce";

/// The language of the new package's tool. (`clap::ValueEnum` so the CLI offers it as
/// `--lang`, with these doc comments as help.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Language {
    /// A POSIX shell script: needs nothing installed.
    #[default]
    Sh,
    /// A Python 3 script, run with `python3 -S` (no site packages) so it starts fast.
    Python,
    /// A Node.js script.
    Node,
}

impl Language {
    /// The script's path in the package.
    fn script_path(self) -> &'static str {
        match self {
            Language::Sh => "bin/greet.sh",
            Language::Python => "bin/greet.py",
            Language::Node => "bin/greet.js",
        }
    }

    /// The tool's `command`, as TOML.
    fn command(self) -> String {
        let path = self.script_path();
        match self {
            Language::Sh => format!(r#"["sh", "{path}"]"#),
            Language::Python => format!(r#"["python3", "-S", "{path}"]"#),
            Language::Node => format!(r#"["node", "{path}"]"#),
        }
    }

    fn script(self) -> &'static str {
        match self {
            Language::Sh => SH_SCRIPT,
            Language::Python => PYTHON_SCRIPT,
            Language::Node => NODE_SCRIPT,
        }
    }

    fn described(self) -> &'static str {
        match self {
            Language::Sh => "a shell script",
            Language::Python => "a Python script",
            Language::Node => "a Node.js script",
        }
    }
}

const SH_SCRIPT: &str = r#"#!/bin/sh
# The greet tool. Its arguments arrive as one JSON object on stdin ({"name": "Ada"}); what
# it prints on stdout is the result (plain text here; a JSON object becomes structured
# content). Any language works the same way: change `command` in agx/tools.toml.
input=$(cat)
case $input in
*'"__test__"'*) # the self-test of `agx validate --probe`: answer at once
    echo '{"ok": true}'
    exit 0
    ;;
esac
name=$(printf '%s' "$input" | sed -n 's/.*"name" *: *"\([^"]*\)".*/\1/p')
printf 'Hello, %s!\n' "$name"
"#;

const PYTHON_SCRIPT: &str = r#"#!/usr/bin/env python3
"""The greet tool. Its arguments arrive as one JSON object on stdin ({"name": "Ada"}); what
it prints on stdout is the result (plain text here; a JSON object becomes structured
content). agx runs it with `python3 -S`, which skips site packages for a fast start: import
only the standard library, or vendor what you need next to this file."""

import json
import sys


def main():
    args = json.load(sys.stdin)
    if args.get("__test__"):  # the self-test of `agx validate --probe`: answer at once
        print(json.dumps({"ok": True}))
        return
    print(f"Hello, {args['name']}!")


main()
"#;

const NODE_SCRIPT: &str = r#"// The greet tool. Its arguments arrive as one JSON object on stdin ({"name": "Ada"}); what
// it prints on stdout is the result (plain text here; a JSON object becomes structured
// content).
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  if (args.__test__) {
    // the self-test of `agx validate --probe`: answer at once
    console.log(JSON.stringify({ ok: true }));
    return;
  }
  console.log(`Hello, ${args.name}!`);
});
"#;

/// Create the package in `dir` (which must not exist, or be empty), named `name` or after
/// the folder.
pub fn create(dir: &Path, name: Option<&str>, language: Language) -> Result<Created, NewError> {
    let package = prepare(dir, name)?;
    let server = package.name().to_string();
    let files = files(&package, &server, language);
    for (path, contents) in &files {
        write_new(&dir.join(path), contents)?;
    }
    let qualified =
        |item: &str| QualifiedName::parse(&format!("{package}/{item}")).expect("a valid item name");
    Ok(Created {
        dir: dir.into(),
        server: qualified(&server),
        tool: qualified(TOOL),
        prompt: qualified(PROMPT),
        files: files.iter().map(|(path, _)| *path).collect(),
        package,
    })
}

/// What `agx new --skill` made.
#[derive(Debug)]
pub struct CreatedSkill {
    pub dir: PathBuf,
    pub package: PackageName,
    pub skill: QualifiedName,
    /// The files written, relative to `dir`.
    pub files: Vec<String>,
}

/// Create a package in `dir` holding one skill, `skills/<skill>/SKILL.md` (docs/skills.md);
/// it passes `agx validate` as it is.
pub fn create_skill(dir: &Path, name: Option<&str>, skill: &str) -> Result<CreatedSkill, NewError> {
    if !agx_model::skills::rules::is_valid_name(skill) {
        return Err(NewError::SkillName {
            skill: skill.to_string(),
        });
    }
    let package = prepare(dir, name)?;
    let files = skill_files(&package, skill);
    for (path, contents) in &files {
        write_new(&dir.join(path), contents)?;
    }
    Ok(CreatedSkill {
        dir: dir.into(),
        skill: QualifiedName::parse(&format!("{package}/{skill}"))?,
        files: files.into_iter().map(|(path, _)| path).collect(),
        package,
    })
}

fn skill_files(package: &PackageName, skill: &str) -> Vec<(String, String)> {
    vec![
        (
            "agx.toml".into(),
            format!(
                r#"[package]
name = "{package}"
version = "0.1.0"
description = "The {skill} skill (made by `agx new --skill`)"

[extension]
skills = ["{skill}"]
"#
            ),
        ),
        (
            format!("skills/{skill}/SKILL.md"),
            format!(
                r#"---
name: {skill}
description: Say what this skill does and when an agent should use it (at most 1024 characters).
---

# {skill}

Write the instructions the agent follows, step by step. Put long material in
`references/` and scripts in `scripts/`, and link them from here (for example
[the guide](references/guide.md)); clients read them only when the skill needs them.
"#
            ),
        ),
        (
            format!("skills/{skill}/references/guide.md"),
            format!("# {skill}: guide\n\nDetails the agent reads when SKILL.md links here.\n"),
        ),
        (
            "README.md".into(),
            format!(
                "# {package}\n\nThe `{skill}` Agent Skill. `agx validate` checks it; `agx install .` installs it.\n"
            ),
        ),
    ]
}

/// The package name, once `dir` is known to be a new or empty folder.
fn prepare(dir: &Path, name: Option<&str>) -> Result<PackageName, NewError> {
    let package = match name {
        Some(name) => PackageName::parse(name)?,
        None => name_from_folder(dir)?,
    };
    if dir.exists() && !dir.is_dir() {
        return Err(NewError::NotAFolder { dir: dir.into() });
    }
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_some()) {
        Ok(true) => return Err(NewError::NotEmpty { dir: dir.into() }),
        Ok(false) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(NewError::Write {
                path: dir.into(),
                source,
            });
        }
    }
    Ok(package)
}

fn name_from_folder(dir: &Path) -> Result<PackageName, NewError> {
    let folder = folder_name(dir);
    PackageName::parse(&folder).map_err(|source| NewError::FolderName { folder, source })
}

/// The last component of `dir` made absolute (`.` names the current folder); empty for a
/// root. What a package made in `dir` is named after; also `agx discover --write`'s.
pub(crate) fn folder_name(dir: &Path) -> String {
    std::path::absolute(dir)
        .unwrap_or_else(|_| dir.to_path_buf())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Write a file that must not exist yet.
fn write_new(path: &Path, contents: &str) -> Result<(), NewError> {
    create_file(path, contents).map_err(|source| NewError::Write {
        path: path.into(),
        source,
    })
}

/// Write a file that must not exist yet (so a race with another writer loses nothing),
/// creating its folder. Also writes what `agx discover --write` finds.
pub(crate) fn create_file(path: &Path, contents: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(contents.as_bytes())
}

/// The files of the new package, by path.
fn files(package: &PackageName, server: &str, language: Language) -> Vec<(&'static str, String)> {
    let command = language.command();
    let script = language.script_path();
    let described = language.described();
    vec![
        (
            "agx.toml",
            format!(
                r#"[package]
name = "{package}"
version = "0.1.0"
description = "Greets people (made by `agx new`)"

[extension]
servers = ["{server}"]
tools = ["{TOOL}"]
prompts = ["{PROMPT}"]
"#
            ),
        ),
        (
            "agx/servers.toml",
            format!(
                r#"[{server}]
description = "Greetings"
instructions = "Use {TOOL} to greet someone by name."
tools = ["{TOOL}"]
prompts = ["{PROMPT}"]
"#
            ),
        ),
        (
            "agx/tools.toml",
            format!(
                r#"[{TOOL}]
description = "Greet someone by name"
command = {command}
timeout = 10

[[{TOOL}.parameters]]
name = "name"
type = "string"
description = "Who to greet"
required = true
"#
            ),
        ),
        (
            "agx/prompts.toml",
            format!(
                r#"[{PROMPT}]
description = "Introduce yourself to someone"
content = "Write a short, friendly introduction to {{{{ name }}}}."

[[{PROMPT}.arguments]]
name = "name"
description = "Who to introduce yourself to"
required = true
"#
            ),
        ),
        (script, language.script().to_string()),
        (
            "README.md",
            format!(
                r#"# {package}

Made by `agx new`: one tool (`{TOOL}`, {described} in `{script}`), one prompt (`{PROMPT}`) and one
server (`{server}`) offering both.

```sh
agx validate --probe .                      # check the package and run the tool's self-test
agx install .                               # install it from this folder
agx call {package}/{TOOL} --arg name=Ada      # run the tool as a client would
agx prompt {package}/{PROMPT} --arg name=Ada  # render the prompt
agx serve {package}/{server}                  # serve it over MCP (stdio)
```

Writing tools, prompts, resources, completions and settings, and publishing: agx's
`docs/authoring.md`. The tool contract (arguments, output, progress, asking the client to
sample or elicit) is in `docs/package-format.md` and `docs/tool-protocol.md`.
"#
            ),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_folder_with_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("keep.txt"), "mine").unwrap();
        let err = create(dir.path(), Some("acme/hello"), Language::Sh).unwrap_err();
        assert!(matches!(err, NewError::NotEmpty { .. }), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("keep.txt")).unwrap(),
            "mine"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn each_language_writes_its_script_and_runs_it_with_its_interpreter() {
        let root = tempfile::tempdir().unwrap();
        for (language, script, interpreter) in [
            (Language::Sh, "bin/greet.sh", r#""sh""#),
            (Language::Python, "bin/greet.py", r#""python3", "-S""#),
            (Language::Node, "bin/greet.js", r#""node""#),
        ] {
            let dir = root.path().join(format!("{language:?}").to_lowercase());
            let created = create(&dir, Some("acme/hello"), language).unwrap();
            assert!(created.files.contains(&script), "{:?}", created.files);
            let tools = std::fs::read_to_string(dir.join("agx/tools.toml")).unwrap();
            assert!(
                tools.contains(&format!(r#"command = [{interpreter}, "{script}"]"#)),
                "{tools}"
            );
            assert!(dir.join(script).is_file());
        }
    }

    #[test]
    fn names_the_package_after_the_folder() {
        let root = tempfile::tempdir().unwrap();
        let created = create(&root.path().join("hello-there"), None, Language::Sh).unwrap();
        assert_eq!(created.package.to_string(), "hello-there");
        assert_eq!(created.tool.to_string(), "hello-there/greet");
        let err = create(&root.path().join("Bad Name"), None, Language::Sh).unwrap_err();
        assert!(matches!(err, NewError::FolderName { .. }), "{err}");
    }
}
