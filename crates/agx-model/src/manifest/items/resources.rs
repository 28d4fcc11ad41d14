//! A resource definition (`resources/<name>.toml`): a static resource (`uri`) backed by a file
//! of the package (`path`) or a `command`, or a template (`uri_template`) whose `command`
//! receives the template variables as JSON; the variables may be declared in `[[variables]]`
//! (with completions).

use super::completion::{COMPLETION_KEYS, read_completion};
use super::named_tables::{Named, NamedTables};
use super::source::{DefinitionSource, invalid_value};
use crate::manifest::agx_toml::{Kind, is_inside_package};
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::Table;
use crate::manifest::model::{
    DEFAULT_TOOL_TIMEOUT_SECS, RESOURCE_FILE_CAP, ResourceAddress, ResourceDef, ResourceSource,
    TemplateVariable,
};
use crate::manifest::package_file::{self, ReadProblem};
use crate::manifest::spanned::Node;
use crate::manifest::uri_template::UriTemplate;

const RESOURCE_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "uri",
    "uri_template",
    "mime_type",
    "path",
    "command",
    "timeout",
    "env",
    "variables",
];
const VARIABLES: NamedTables = NamedTables {
    key: "variables",
    noun: "variable",
    a_noun: "a variable",
    allowed_keys: &[
        "name",
        "description",
        COMPLETION_KEYS[0],
        COMPLETION_KEYS[1],
    ],
};

pub fn check_resource(f: &mut Findings, src: &DefinitionSource<'_>) -> Option<ResourceDef> {
    let head = src.head(f, Kind::Resource, RESOURCE_KEYS)?;
    let t = &head.table;
    let what = src.describe(Kind::Resource);
    let uri = t.string(f, "uri");
    let uri_template = t.string(f, "uri_template");
    let mime_type = t.string(f, "mime_type").and_then(|(m, node)| {
        if is_mime_type(&m) {
            Some(m)
        } else {
            invalid_value(
                f,
                src.file,
                node,
                "mime_type",
                &m,
                "a media type such as \"text/markdown\" or \"image/png\"",
            );
            None
        }
    });
    let path = t.string(f, "path");
    let command = src.command(f, t, "command");
    let timeout_secs = read_timeout(f, src, t);
    let env = t.string_map(f, "env").unwrap_or_default();
    let variables = match t.get("variables") {
        Some(e) => VARIABLES.read(f, src.file, &e.value, &what, |f, t| {
            read_variable(f, src, t)
        }),
        None => Vec::new(),
    };
    for (a, b) in [
        ("uri", "uri_template"),
        ("path", "command"),
        ("uri_template", "path"),
        ("uri", "variables"),
    ] {
        conflict(f, src, t, &what, a, b);
    }

    let address = match (&uri, &uri_template) {
        (Some((uri, node)), _) => {
            check_uri(f, src, node, uri, "uri");
            Some(ResourceAddress::Uri(uri.clone()))
        }
        (None, Some((text, node))) => check_template(f, src, node, text, t, &variables)
            .map(|_| ResourceAddress::UriTemplate(text.clone())),
        (None, None) => {
            if !t.has("uri") && !t.has("uri_template") {
                f.at(
                    codes::RESOURCE_WITHOUT_CONTENT,
                    src.file,
                    &src.anchor,
                    format!("{what} has neither `uri` nor `uri_template`"),
                    Some("give `uri = \"scheme://…\"`, or `uri_template = \"scheme://{name}\"` with a `command`".into()),
                );
            }
            None
        }
    };
    let source = match (&path, &command) {
        (Some((path, node)), _) => {
            check_path(f, src, node, path);
            Some(ResourceSource::Path(path.clone()))
        }
        (None, Some(command)) => Some(ResourceSource::Command(command.clone())),
        (None, None) => {
            if !t.has("path") && !t.has("command") {
                let needs = if t.has("uri_template") {
                    "a template needs `command = [\"…\"]`, which receives the variables as JSON on stdin"
                } else {
                    "give `path = \"…\"` (a file in the package) or `command = [\"…\"]` that prints the content"
                };
                f.at(
                    codes::RESOURCE_WITHOUT_CONTENT,
                    src.file,
                    &src.anchor,
                    format!("{what} has nothing to produce its content"),
                    Some(needs.into()),
                );
            }
            None
        }
    };
    if head.found_errors(f) {
        return None;
    }
    Some(ResourceDef {
        name: src.declared.clone(),
        title: head.title,
        description: head.description,
        address: address?,
        mime_type,
        source: source?,
        timeout_secs,
        env,
        variables,
        location: src.location.clone(),
    })
}

/// Two resources of one package with the same URI or template: a client could reach only one.
pub fn check_unique_addresses(f: &mut Findings, resources: &[ResourceDef]) {
    for (i, later) in resources.iter().enumerate() {
        let same = resources[..i].iter().find(|r| r.address == later.address);
        if let Some(earlier) = same {
            let (ResourceAddress::Uri(a) | ResourceAddress::UriTemplate(a)) = &later.address;
            f.push(
                codes::DUPLICATE_RESOURCE_URI,
                later.location.clone(),
                1,
                format!(
                    "resources `{}` and `{}` both have the URI `{a}`",
                    earlier.name, later.name
                ),
                Some("give each resource its own URI".into()),
            );
        }
    }
}

impl Named for TemplateVariable {
    fn name(&self) -> &str {
        &self.name
    }
}

fn read_variable<'a>(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    t: &Table<'a>,
) -> Option<(TemplateVariable, &'a Node)> {
    let description = t.opt_string(f, "description");
    let complete = read_completion(f, src, t);
    let (name, node) = t.string(f, "name")?;
    Some((
        TemplateVariable {
            name,
            description,
            complete,
        },
        node,
    ))
}

/// `a` and `b` exclude each other; the later one is pointed at.
fn conflict(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    t: &Table<'_>,
    what: &str,
    a: &str,
    b: &str,
) {
    let (Some(first), Some(second)) = (t.get(a), t.get(b)) else {
        return;
    };
    let later = if first.key_span.start > second.key_span.start {
        first
    } else {
        second
    };
    let why = match (a, b) {
        ("uri", "uri_template") => "a resource is either static (`uri`) or a template",
        ("path", "command") => "the content comes from a file or from a command",
        ("uri_template", "path") => "a template's content comes from its `command`",
        _ => "`variables` describe a `uri_template`",
    };
    f.at(
        codes::CONFLICTING_KEYS,
        src.file,
        &later.key_span,
        format!("{what} has both `{a}` and `{b}`"),
        Some(format!("keep one: {why}")),
    );
}

/// `type/subtype`, without parameters checking beyond that.
fn is_mime_type(text: &str) -> bool {
    let essence = text.split(';').next().unwrap_or_default().trim();
    let token = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c))
    };
    matches!(essence.split_once('/'), Some((ty, sub)) if token(ty) && token(sub))
}

fn check_uri(f: &mut Findings, src: &DefinitionSource<'_>, node: &Node, uri: &str, key: &str) {
    let problem = if uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("it contains spaces or control characters".to_string())
    } else {
        url::Url::parse(uri).err().map(|e| e.to_string())
    };
    if let Some(problem) = problem {
        f.at(
            codes::INVALID_RESOURCE_URI,
            src.file,
            &node.span,
            format!("`{key}` `{uri}` is not an absolute URI: {problem}"),
            Some(
                "write a scheme and a path, e.g. \"docs://readme\" or \"file:///guide.md\"".into(),
            ),
        );
    }
}

/// Parse a template, check the URIs it makes, and compare its variables with the declared ones.
fn check_template(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    node: &Node,
    text: &str,
    t: &Table<'_>,
    declared: &[TemplateVariable],
) -> Option<UriTemplate> {
    let template = match UriTemplate::parse(text) {
        Ok(template) => template,
        Err(e) => {
            f.at(
                codes::INVALID_URI_TEMPLATE,
                src.file,
                &node.span,
                format!("`uri_template` `{text}` does not parse: {e}"),
                Some(
                    "write variables as `{name}` (one path segment) or `{+name}` (may hold `/`)"
                        .into(),
                ),
            );
            return None;
        }
    };
    if template.variables().next().is_none() {
        f.at(
            codes::INVALID_URI_TEMPLATE,
            src.file,
            &node.span,
            format!("`uri_template` `{text}` has no variables"),
            Some("a URI without variables is a static resource: write `uri = …`".into()),
        );
        return None;
    }
    check_uri(f, src, node, &template.expand_with("x"), "uri_template");
    if t.has("variables") {
        let used: Vec<&str> = template.variables().collect();
        for name in &used {
            if !declared.iter().any(|v| v.name == *name) {
                f.at(
                    codes::TEMPLATE_VARIABLE_MISMATCH,
                    src.file,
                    &node.span,
                    format!("`uri_template` uses `{{{name}}}`, which is not in `[[variables]]`"),
                    Some(format!("declare it: [[variables]] name = \"{name}\"")),
                );
            }
        }
        for v in declared {
            if !used.contains(&v.name.as_str()) {
                f.at(
                    codes::TEMPLATE_VARIABLE_MISMATCH,
                    src.file,
                    &node.span,
                    format!(
                        "variable `{}` is declared but `uri_template` does not use it",
                        v.name
                    ),
                    Some(format!(
                        "add `{{{}}}` to the template, or remove the variable",
                        v.name
                    )),
                );
            }
        }
    }
    Some(template)
}

/// `path` is relative to the package folder and must be a regular file in it, within the cap.
fn check_path(f: &mut Findings, src: &DefinitionSource<'_>, node: &Node, path: &str) {
    let problem = if !is_inside_package(path) {
        "points outside the package".to_string()
    } else {
        match package_file::read_bytes(src.package_dir, path, RESOURCE_FILE_CAP) {
            Ok(_) => return,
            Err(ReadProblem::NotFound) => format!("`{path}` does not exist"),
            Err(problem) => format!("`{path}` {}", problem.describe()),
        }
    };
    f.at(
        codes::RESOURCE_FILE_MISSING,
        src.file,
        &node.span,
        format!("path of resource `{}`: {problem}", src.declared),
        Some("`path` is a file of the package, relative to the folder holding agx.toml (no links, no `..`)".into()),
    );
}

fn read_timeout(f: &mut Findings, src: &DefinitionSource<'_>, t: &Table<'_>) -> u64 {
    match t.integer(f, "timeout") {
        None => DEFAULT_TOOL_TIMEOUT_SECS,
        Some((n, _)) if n > 0 => n as u64,
        Some((n, node)) => {
            invalid_value(
                f,
                src.file,
                node,
                "timeout",
                &n.to_string(),
                "a positive number of seconds",
            );
            DEFAULT_TOOL_TIMEOUT_SECS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::spanned::SourceFile;
    use agx_core::name::ItemName;

    /// Check `text` as `agx/resources/r.toml` in a package holding `files`; the resource and
    /// the findings as "CODE line:col message".
    fn check(text: &str, files: &[(&str, &[u8])]) -> (Option<ResourceDef>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        for (rel, content) in files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, content).unwrap();
        }
        let file = SourceFile::new("agx/resources/r.toml", text.into());
        let node = file.parse().unwrap();
        let declared = ItemName::parse("r").unwrap();
        let src = DefinitionSource {
            package_dir: dir.path(),
            root: "agx",
            file: &file,
            node: &node,
            anchor: 0..0,
            declared: &declared,
            combined: false,
            location: file.location(0),
            settings: &[],
        };
        let mut f = Findings::default();
        let resource = check_resource(&mut f, &src);
        let findings = f
            .list
            .iter()
            .map(|x| {
                format!(
                    "{} {}:{} {}",
                    x.code, x.location.line, x.location.column, x.message
                )
            })
            .collect();
        (resource, findings)
    }

    #[test]
    fn a_file_backed_resource_is_read() {
        let (r, findings) = check(
            "name = \"r\"\nuri = \"docs://readme\"\nmime_type = \"text/markdown\"\npath = \"docs/README.md\"\n",
            &[("docs/README.md", b"# hi")],
        );
        assert!(findings.is_empty(), "{findings:?}");
        let r = r.unwrap();
        assert_eq!(r.address, ResourceAddress::Uri("docs://readme".into()));
        assert_eq!(r.source, ResourceSource::Path("docs/README.md".into()));
        assert_eq!(r.mime_type.as_deref(), Some("text/markdown"));
    }

    #[test]
    fn a_template_with_declared_variables_and_completions() {
        let (r, findings) = check(
            r#"name = "r"
uri_template = "weather://{city}/{day}"
command = ["python3", "bin/w.py"]
[[variables]]
name = "city"
complete = ["python3", "bin/cities.py"]
[[variables]]
name = "day"
enum = ["today", "tomorrow"]
"#,
            &[("bin/w.py", b""), ("bin/cities.py", b"")],
        );
        assert!(findings.is_empty(), "{findings:?}");
        let r = r.unwrap();
        assert_eq!(r.variables.len(), 2);
        assert_eq!(
            r.variables[1].complete,
            Some(crate::manifest::model::CompletionSource::Enum(vec![
                "today".into(),
                "tomorrow".into()
            ]))
        );
    }

    #[test]
    fn bad_uris_and_templates_are_reported_where_they_are() {
        let (_, findings) = check(
            "name = \"r\"\nuri = \"readme\"\npath = \"a.txt\"\n",
            &[("a.txt", b"")],
        );
        assert_eq!(findings.len(), 1);
        assert!(
            findings[0].starts_with("E100 2:7 `uri` `readme` is not an absolute URI"),
            "{findings:?}"
        );

        let (_, findings) = check(
            "name = \"r\"\nuri_template = \"w://{city\"\ncommand = [\"x\"]\n",
            &[],
        );
        assert_eq!(findings.len(), 1);
        assert!(
            findings[0].starts_with("E101 2:16 `uri_template` `w://{city` does not parse"),
            "{findings:?}"
        );
    }

    #[test]
    fn template_variables_must_match_the_declared_ones() {
        let (r, findings) = check(
            "name = \"r\"\nuri_template = \"w://{city}\"\ncommand = [\"x\"]\n[[variables]]\nname = \"town\"\n",
            &[],
        );
        assert!(r.is_none());
        assert_eq!(
            findings,
            [
                "E102 2:16 `uri_template` uses `{city}`, which is not in `[[variables]]`",
                "E102 2:16 variable `town` is declared but `uri_template` does not use it",
            ]
        );
    }

    #[test]
    fn a_path_outside_the_package_or_missing_is_an_error() {
        for (path, expected) in [
            ("../secret", "points outside the package"),
            ("nope.txt", "`nope.txt` does not exist"),
        ] {
            let (r, findings) = check(
                &format!("name = \"r\"\nuri = \"a://b\"\npath = \"{path}\"\n"),
                &[],
            );
            assert!(r.is_none());
            assert_eq!(
                findings,
                [format!("E103 3:8 path of resource `r`: {expected}")]
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_path_through_a_link_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("link")).unwrap();
        let file = SourceFile::new(
            "r.toml",
            "name = \"r\"\nuri = \"a://b\"\npath = \"link\"\n".into(),
        );
        let node = file.parse().unwrap();
        let declared = ItemName::parse("r").unwrap();
        let src = DefinitionSource {
            package_dir: dir.path(),
            root: "agx",
            file: &file,
            node: &node,
            anchor: 0..0,
            declared: &declared,
            combined: false,
            location: file.location(0),
            settings: &[],
        };
        let mut f = Findings::default();
        assert!(check_resource(&mut f, &src).is_none());
        assert_eq!(f.list[0].code, "E103");
        assert!(
            f.list[0].message.contains("symbolic link"),
            "{}",
            f.list[0].message
        );
    }

    #[test]
    fn conflicting_and_missing_keys() {
        let (_, findings) = check(
            "name = \"r\"\nuri = \"a://b\"\nuri_template = \"a://{x}\"\npath = \"a.txt\"\ncommand = [\"x\"]\n",
            &[("a.txt", b"")],
        );
        assert_eq!(
            findings,
            [
                "E027 3:1 resource `r` has both `uri` and `uri_template`",
                "E027 5:1 resource `r` has both `path` and `command`",
                "E027 4:1 resource `r` has both `uri_template` and `path`",
            ]
        );
        let (_, findings) = check("name = \"r\"\n", &[]);
        assert_eq!(
            findings,
            [
                "E104 1:1 resource `r` has neither `uri` nor `uri_template`",
                "E104 1:1 resource `r` has nothing to produce its content",
            ]
        );
    }

    #[test]
    fn completion_keys_exclude_each_other_and_an_enum_is_not_empty() {
        let (_, findings) = check(
            "name = \"r\"\nuri_template = \"a://{x}/{y}\"\ncommand = [\"c\"]\n[[variables]]\nname = \"x\"\nenum = []\n[[variables]]\nname = \"y\"\nenum = [\"a\"]\ncomplete = [\"c\"]\n",
            &[],
        );
        assert_eq!(
            findings,
            [
                "E026 6:8 `enum` of a variable of resource `r` is empty",
                "E027 10:1 a variable of resource `r` has both `enum` and `complete`",
            ]
        );
    }

    #[test]
    fn a_bad_mime_type_is_reported() {
        let (_, findings) = check(
            "name = \"r\"\nuri = \"a://b\"\nmime_type = \"text\"\ncommand = [\"c\"]\n",
            &[],
        );
        assert_eq!(findings, ["E026 3:13 `mime_type` cannot be `text`"]);
    }

    #[test]
    fn two_resources_with_one_uri_are_reported() {
        let (r, _) = check("name = \"r\"\nuri = \"a://b\"\ncommand = [\"c\"]\n", &[]);
        let r = r.unwrap();
        let mut other = r.clone();
        other.name = ItemName::parse("s").unwrap();
        let mut f = Findings::default();
        check_unique_addresses(&mut f, &[r, other]);
        assert_eq!(f.list.len(), 1);
        assert_eq!(
            f.list[0].message,
            "resources `r` and `s` both have the URI `a://b`"
        );
    }
}
