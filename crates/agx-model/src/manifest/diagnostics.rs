//! Findings produced while loading and validating a package: stable codes, severities,
//! locations, messages and hints (rendered by `agx validate`, see docs/validate.md).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde::Serialize;

use super::model::SourceLocation;
use super::spanned::SourceFile;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One finding. `code` is stable (e.g. `E012`), `name` a short kebab-case name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub location: SourceLocation,
    /// Characters of the offending text on its line (0 when the finding is about a whole
    /// file or folder).
    pub length: usize,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Further findings of the same code, file and message shape folded into this one
    /// (see [`Findings::push`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Finding {
    /// How many findings this one stands for (itself and the folded ones).
    pub fn count(&self) -> usize {
        1 + self.more
    }
}

/// A kind of finding: its stable code, short name, severity and what it means (the table in
/// docs/validate.md lists the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
}

macro_rules! codes {
    ($($ident:ident = $code:literal $name:literal $sev:ident $summary:literal;)*) => {
        $(pub const $ident: Code = Code {
            code: $code,
            name: $name,
            severity: Severity::$sev,
            summary: $summary,
        };)*
        /// Every code, in order.
        pub const ALL_CODES: &[Code] = &[$($ident),*];
    };
}

codes! {
    MANIFEST_MISSING = "E001" "manifest-missing" Error "the folder has no agx.toml";
    SYNTAX_ERROR = "E002" "syntax-error" Error "a file is not valid TOML or JSON, or a SKILL.md front matter is not valid YAML";
    UNKNOWN_KEY = "E003" "unknown-key" Error "a key that the format does not define";
    MISSING_KEY = "E004" "missing-key" Error "a required key is absent";
    WRONG_TYPE = "E005" "wrong-type" Error "a value has the wrong type";
    INVALID_PACKAGE_NAME = "E006" "invalid-package-name" Error "a package name (own or dependency) is not `publisher/name`";
    INVALID_VERSION = "E007" "invalid-version" Error "a version is not semver";
    INVALID_REQUIREMENT = "E008" "invalid-requirement" Error "a version requirement does not parse";
    INVALID_DECLARATION = "E009" "invalid-declaration" Error "a declaration is not a name, a [name, description] pair or a table with `name`";
    INVALID_ITEM_NAME = "E010" "invalid-item-name" Error "an item name or item reference is malformed";
    DUPLICATE_DECLARATION = "E011" "duplicate-declaration" Error "an item is declared twice";
    ROOT_MISSING = "E012" "root-missing" Error "the definition root folder does not exist";
    DEFINITION_MISSING = "E013" "definition-missing" Error "a declared item has no definition file";
    NAME_MISMATCH = "E014" "name-mismatch" Error "the name inside a definition differs from its declaration";
    PROGRAM_MISSING = "E015" "program-missing" Error "a command's relative program is not in the package";
    EMPTY_COMMAND = "E016" "empty-command" Error "a command array is empty";
    INVALID_PARAMETER_TYPE = "E017" "invalid-parameter-type" Error "a parameter's type is not one of the six JSON types";
    DUPLICATE_NAME = "E018" "duplicate-name" Error "two parameters, prompt arguments or template variables share a name";
    INVALID_INPUT_SCHEMA = "E019" "invalid-input-schema" Error "`input_schema` is not a valid JSON Schema for an object";
    TEMPLATE_ERROR = "E020" "template-error" Error "a prompt template does not compile";
    UNDECLARED_VARIABLE = "E021" "undeclared-variable" Error "a template uses a variable that is not a declared argument";
    PROMPT_WITHOUT_BODY = "E022" "prompt-without-body" Error "a prompt has neither content, content_file nor command (as its type needs)";
    CONTENT_FILE_MISSING = "E023" "content-file-missing" Error "a prompt's content_file does not exist in the package";
    UNKNOWN_REFERENCE = "E024" "unknown-reference" Error "a server names a tool, prompt or resource that the package does not declare";
    UNDECLARED_DEPENDENCY = "E025" "undeclared-dependency" Error "a server names an item of a package missing from [dependencies]";
    INVALID_VALUE = "E026" "invalid-value" Error "a value is outside what the key allows";
    CONFLICTING_KEYS = "E027" "conflicting-keys" Error "two keys that exclude each other are both present";
    EMPTY_SERVER = "E028" "empty-server" Error "a server has no tools, no prompts, no resources and no command";
    UNREADABLE_FILE = "E029" "unreadable-file" Error "a file cannot be read or is not UTF-8";
    PROBE_TIMEOUT = "E030" "probe-timeout" Error "--probe: a tool did not answer its self-test in time";
    PROBE_FAILED = "E031" "probe-failed" Error "--probe: a tool could not start or exited with an error";
    PROBE_BAD_OUTPUT = "E032" "probe-bad-output" Error "--probe: a tool's self-test answer is not a JSON object";
    LINK_IN_PACKAGE = "E033" "link-in-package" Error "a file or folder of the package is a symbolic link (pack refuses it; validate never follows it)";
    NOT_PACKABLE = "E034" "not-packable" Error "pack would refuse the folder: a FIFO, socket or device, a name that is not UTF-8, or an .agxignore that does not parse or excludes agx.toml";
    INVALID_SETTING_KEY = "E035" "invalid-setting-key" Error "a setting key is not letters, digits and single `_` starting with a letter";
    INVALID_SETTING_TYPE = "E036" "invalid-setting-type" Error "a setting's type is not string, number, boolean or path";
    INVALID_SETTING_VALUE = "E037" "invalid-setting-value" Error "a setting's default or enum value does not fit its type, or the default is outside its enum";
    SECRET_WITH_DEFAULT = "E038" "secret-with-default" Error "a secret setting has a default";
    DUPLICATE_SETTING_ENV = "E039" "duplicate-setting-env" Error "two settings use one `env` name";
    RESERVED_SETTING_ENV = "E040" "reserved-setting-env" Error "a setting's `env` name starts with AGX_, which agx reserves";
    INVALID_PERMISSION = "E041" "invalid-permission" Error "a permission path is relative, has an unknown placeholder or `..`, or an `env` entry is not a variable name";
    INVALID_NETWORK = "E042" "invalid-network" Error "`network` is not none, loopback, any or a list of hosts";
    INVALID_RESOURCE_URI = "E100" "invalid-resource-uri" Error "a resource's `uri` (or the URIs its `uri_template` makes) is not an absolute URI";
    INVALID_URI_TEMPLATE = "E101" "invalid-uri-template" Error "a `uri_template` does not parse (`{name}` and `{+name}` variables)";
    TEMPLATE_VARIABLE_MISMATCH = "E102" "template-variable-mismatch" Error "the variables of a `uri_template` differ from its declared `[[variables]]`";
    RESOURCE_FILE_MISSING = "E103" "resource-file-missing" Error "a resource's `path` is outside the package, missing, a link, not a regular file or over the size cap";
    RESOURCE_WITHOUT_CONTENT = "E104" "resource-without-content" Error "a resource has no `uri`/`uri_template`, or nothing to produce its content (`path` or `command`)";
    DUPLICATE_RESOURCE_URI = "E105" "duplicate-resource-uri" Error "two resources of a package have the same `uri` or `uri_template`";
    UNKNOWN_CLIENT = "E200" "unknown-client" Error "[project].clients names a client agx does not know";
    INVALID_SERVER_KEY = "E201" "invalid-server-key" Error "a [servers] or [skills] key is not a valid entry name (lowercase letters, digits, `-`)";
    INVALID_SERVER_TARGET = "E202" "invalid-server-target" Error "a [servers] entry's `server` is neither a qualified server nor a package";
    PROJECT_SECRET_VALUE = "E203" "project-secret-value" Error "a project file gives a secret setting a value";
    UNDECLARED_PROJECT_SETTING = "E204" "undeclared-project-setting" Error "a project file sets a setting the installed package does not declare";
    INVALID_PROJECT_SETTING_VALUE = "E205" "invalid-project-setting-value" Error "a project setting's value does not fit its declaration (type, enum)";
    CONFLICTING_PROJECT_SETTINGS = "E206" "conflicting-project-settings" Error "two [servers] keys launch one server with different settings";
    INVALID_SKILL_TARGET = "E207" "invalid-skill-target" Error "a [skills] entry's `skill` is not `publisher/package/skill`, or its `path` is not a skill folder inside the project";
    SKILL_FOLDER_CLASH = "E208" "skill-folder-clash" Error "two [skills] entries name skills of one name, which would share one folder";
    INVALID_FILTER = "E209" "invalid-filter" Error "a [servers] entry's `tools`, `prompts` or `resources` filter has a bad glob or renames two items to one name";
    INVALID_PROFILE = "E210" "invalid-profile" Error "a [profiles] entry has a bad name, lists no server, names a server twice or a key [servers] lacks, or its `namespace` is neither \"key\" nor \"none\"";
    INVALID_ON_CHANGE = "E211" "invalid-on-change" Error "a [servers] entry's `on-change` is not \"allow\", \"hide\" or \"stop\"";
    FRONT_MATTER_MISSING = "E300" "front-matter-missing" Error "a SKILL.md does not start with YAML front matter between two `---` lines";
    REFERENCE_OUTSIDE_SKILL = "W302" "reference-outside-skill" Warning "a file reference in a SKILL.md body is absolute or leaves the skill's folder";
    REFERENCE_MISSING = "W303" "reference-missing" Warning "a file reference in a SKILL.md body names no file or folder of the skill";
    DUPLICATE_DEFINITION = "W001" "duplicate-definition" Warning "an item has two definition files; one is ignored";
    UNDECLARED_DEFINITION = "W002" "undeclared-definition" Warning "a definition that no declaration names";
    MISSING_DESCRIPTION = "W003" "missing-description" Warning "the package has no description (required to publish)";
    CLIENT_SPECIFIC_KEY = "W300" "client-specific-key" Warning "a SKILL.md front-matter key that only some clients read";
    SKILL_TOO_LONG = "W301" "skill-too-long" Warning "a SKILL.md is longer than the 500 lines the specification recommends";
}

impl Code {
    pub fn lookup(code: &str) -> Option<Code> {
        ALL_CODES.iter().copied().find(|c| c.code == code)
    }
}

/// The result of checking a package folder: every finding, and the package when it loaded
/// without errors.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub package: Option<super::model::Package>,
}

impl Report {
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Errors, counting folded ones.
    pub fn error_count(&self) -> usize {
        self.errors().map(Finding::count).sum()
    }

    /// Warnings, counting folded ones.
    pub fn warning_count(&self) -> usize {
        self.warnings().map(Finding::count).sum()
    }

    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
    }
}

/// Findings of one code, file and message shape shown before the rest are folded into the
/// last one shown ("and 9,998 more"): a file that repeats one mistake thousands of times
/// gives a few findings, not thousands.
pub const SHOWN_PER_SHAPE: usize = 3;

/// Collects findings while a package is checked.
#[derive(Debug, Default)]
pub struct Findings {
    pub list: Vec<Finding>,
    /// Per (code, file, message shape): how many are shown and the index of the last one.
    shapes: HashMap<(&'static str, String, String), (usize, usize)>,
    /// Exact repeats (two checks that find the same thing) are dropped.
    seen: HashSet<(&'static str, SourceLocation, String)>,
}

/// A message with every `quoted` part blanked: "unknown key `a`" and "unknown key `b`" have
/// one shape.
fn message_shape(message: &str) -> String {
    message
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "…" } else { part })
        .collect::<Vec<_>>()
        .join("`")
}

impl Findings {
    /// A finding at a span of a file.
    pub fn at(
        &mut self,
        code: Code,
        file: &SourceFile,
        span: &Range<usize>,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        let (location, length) = file.span_location(span);
        self.push(code, location, length.max(1), message, hint);
    }

    /// A finding about a whole file or folder (no line to point at).
    pub fn whole(
        &mut self,
        code: Code,
        rel: &str,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        let location = SourceLocation {
            file: rel.to_string(),
            line: 0,
            column: 0,
        };
        self.push(code, location, 0, message, hint);
    }

    pub fn push(
        &mut self,
        code: Code,
        location: SourceLocation,
        length: usize,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        let message = message.into();
        if !self
            .seen
            .insert((code.code, location.clone(), message.clone()))
        {
            return;
        }
        let key = (code.code, location.file.clone(), message_shape(&message));
        let (shown, last) = self.shapes.entry(key).or_insert((0, 0));
        if *shown == SHOWN_PER_SHAPE {
            self.list[*last].more += 1;
            return;
        }
        *shown += 1;
        *last = self.list.len();
        self.list.push(Finding {
            code: code.code,
            name: code.name,
            severity: code.severity,
            location,
            length,
            message,
            hint,
            more: 0,
        });
    }

    pub fn error_count(&self) -> usize {
        self.list
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(Finding::count)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_line(line: usize) -> SourceLocation {
        SourceLocation {
            file: "agx.toml".into(),
            line,
            column: 1,
        }
    }

    #[test]
    fn repeats_of_one_shape_fold_into_the_last_shown() {
        let mut f = Findings::default();
        for line in 1..=10_000 {
            f.push(
                DUPLICATE_DECLARATION,
                at_line(line),
                3,
                format!("tool `t{line}` is declared twice"),
                None,
            );
        }
        f.push(UNKNOWN_KEY, at_line(1), 3, "unknown key `x`", None);
        assert_eq!(f.list.len(), SHOWN_PER_SHAPE + 1);
        assert_eq!(f.list[SHOWN_PER_SHAPE - 1].more, 10_000 - SHOWN_PER_SHAPE);
        assert_eq!(f.error_count(), 10_001);
    }

    #[test]
    fn an_exact_repeat_is_dropped() {
        let mut f = Findings::default();
        f.whole(LINK_IN_PACKAGE, "agx", "link", None);
        f.whole(LINK_IN_PACKAGE, "agx", "link", None);
        assert_eq!(f.error_count(), 1);
    }

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for c in ALL_CODES {
            assert!(seen.insert(c.code), "duplicate code {}", c.code);
            assert!(seen.insert(c.name), "duplicate name {}", c.name);
            let prefix = if c.severity == Severity::Error {
                'E'
            } else {
                'W'
            };
            assert!(
                c.code.starts_with(prefix),
                "{} has the wrong prefix",
                c.code
            );
            assert!(
                c.name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch == '-')
            );
        }
    }
}
