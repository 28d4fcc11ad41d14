//! One definition being checked, and the checks every kind shares: its table and keys, the
//! `name` inside against the declaration, `title` and `description`, and commands.

use std::ops::Range;
use std::path::Path;

use crate::manifest::agx_toml::{Kind, is_inside_package};
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::Table;
use crate::manifest::model::SourceLocation;
use crate::manifest::spanned::{Node, SourceFile};
use agx_core::name::ItemName;

/// One definition to check: where it is and what declared it.
pub struct DefinitionSource<'a> {
    pub package_dir: &'a Path,
    /// The definition root, relative to the package (`[extension] root`).
    pub root: &'a str,
    pub file: &'a SourceFile,
    pub node: &'a Node,
    /// Where to point for missing keys: the item's key in a combined file, else the file start.
    pub anchor: Range<usize>,
    pub declared: &'a ItemName,
    /// The package's settings (`{{ settings.<key> }}` in templates).
    pub settings: &'a [crate::settings::Setting],
    /// In a combined file the table key names the item, so `name` may be left out.
    pub combined: bool,
    pub location: SourceLocation,
}

/// What every definition starts with, read in this order: its table (keys checked), `name`,
/// `title` and `description`.
pub(super) struct Head<'a> {
    pub table: Table<'a>,
    pub title: Option<String>,
    pub description: Option<String>,
    errors_before: usize,
}

impl Head<'_> {
    /// Whether checking this definition found an error (then no model is built from it).
    pub(super) fn found_errors(&self, f: &Findings) -> bool {
        f.error_count() > self.errors_before
    }
}

impl<'a> DefinitionSource<'a> {
    /// Read the parts every kind has; `None` when the definition is not a table at all.
    pub(super) fn head(&self, f: &mut Findings, kind: Kind, allowed: &[&str]) -> Option<Head<'a>> {
        let errors_before = f.error_count();
        let table = Table::read(
            f,
            self.file,
            self.node,
            self.anchor.clone(),
            self.describe(kind),
            allowed,
        )?;
        self.check_name(f, &table, kind);
        let title = table.opt_string(f, "title");
        let description = table.opt_string(f, "description");
        Some(Head {
            table,
            title,
            description,
            errors_before,
        })
    }

    /// How findings name this definition: "tool `get_forecast`".
    pub(super) fn describe(&self, kind: Kind) -> String {
        format!("{} `{}`", kind.singular(), self.declared)
    }

    /// The `name` inside must be the declared one.
    fn check_name(&self, f: &mut Findings, t: &Table<'_>, kind: Kind) {
        if !self.combined
            && t.require(f, "name", &format!("\"{}\"", self.declared))
                .is_none()
        {
            return;
        }
        let Some((name, node)) = t.string(f, "name") else {
            return;
        };
        if name != self.declared.as_str() {
            f.at(
                codes::NAME_MISMATCH,
                self.file,
                &node.span,
                format!(
                    "this {} is named `{name}` but is declared as `{}`",
                    kind.singular(),
                    self.declared
                ),
                Some(format!(
                    "make `name` and the declaration in agx.toml the same (`{}`)",
                    self.declared
                )),
            );
        }
    }

    /// A command (argv) whose relative program, if any, is a file in the package.
    pub(super) fn command(
        &self,
        f: &mut Findings,
        t: &Table<'_>,
        key: &str,
    ) -> Option<Vec<String>> {
        let (command, node) = t.command(f, key)?;
        self.check_program(f, key, &command, node);
        Some(command)
    }

    /// A relative program (one with a `/`) must be a file in the package.
    fn check_program(&self, f: &mut Findings, key: &str, command: &[String], node: &Node) {
        let Some(program) = command.first() else {
            return;
        };
        if !program.contains('/') || Path::new(program).is_absolute() {
            return;
        }
        let span = node
            .as_array()
            .and_then(|a| a.first())
            .map_or(node.span.clone(), |n| n.span.clone());
        let problem = if !is_inside_package(program) {
            Some("points outside the package")
        } else if !self.package_dir.join(program).is_file() {
            Some("is not a file in the package")
        } else {
            None
        };
        if let Some(problem) = problem {
            f.at(
                codes::PROGRAM_MISSING,
                self.file,
                &span,
                format!("the program `{program}` of `{key}` {problem}"),
                Some(
                    "relative programs are relative to the package folder (where agx.toml is); \
                     a bare name such as `python3` is looked up on PATH"
                        .into(),
                ),
            );
        }
    }
}

/// A value the key's type allows but its meaning does not (`input = "pipe"`).
pub(super) fn invalid_value(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    key: &str,
    value: &str,
    allowed: &str,
) {
    f.at(
        codes::INVALID_VALUE,
        file,
        &node.span,
        format!("`{key}` cannot be `{value}`"),
        Some(format!("use {allowed}")),
    );
}
