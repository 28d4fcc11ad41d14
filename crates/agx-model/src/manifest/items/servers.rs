//! A server definition (`servers/<name>.toml`): the tools, prompts and resources it serves, or an MCP
//! server the package ships that it wraps. Its references are parsed here and resolved by the
//! loader once every declaration is known.

use std::collections::BTreeMap;

use super::source::{DefinitionSource, invalid_value};
use crate::manifest::agx_toml::{Kind, is_inside_package};
use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::{Table, did_you_mean};
use crate::manifest::model::{OAuthHints, ServerDef, SourceLocation};
use crate::settings::placeholders;
use agx_core::name::{ItemRef, NameError};

const SERVER_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "version",
    "instructions",
    "tools",
    "prompts",
    "resources",
    "initialization",
    "command",
    "env",
    "cwd",
    "url",
    "headers",
    "oauth",
    "permissions",
];
const OAUTH_KEYS: &[&str] = &["client_id", "callback_port", "scopes"];

/// A server's reference to a tool or prompt, kept with its place for cross-checking.
pub struct Reference {
    pub kind: Kind,
    pub item: ItemRef,
    pub location: SourceLocation,
    pub length: usize,
}

/// The server, when it has no error, and every reference it makes (even when it has).
pub fn check_server(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
) -> (Option<ServerDef>, Vec<Reference>) {
    let Some(head) = src.head(f, Kind::Server, SERVER_KEYS) else {
        return (None, Vec::new());
    };
    let t = &head.table;
    let version = t.string(f, "version").and_then(|(v, node)| match semver::Version::parse(&v) {
        Ok(v) => Some(v),
        Err(e) => {
            f.at(
                codes::INVALID_VERSION,
                src.file,
                &node.span,
                format!("version `{v}` is not semver: {e}"),
                Some("write MAJOR.MINOR.PATCH, or leave `version` out to use the package version".into()),
            );
            None
        }
    });
    let instructions = t.opt_string(f, "instructions");
    let mut references = Vec::new();
    let tools = read_references(f, src, t, Kind::Tool, &mut references);
    let prompts = read_references(f, src, t, Kind::Prompt, &mut references);
    let resources = read_references(f, src, t, Kind::Resource, &mut references);
    let initialization = src.command(f, t, "initialization");
    let command = src.command(f, t, "command");
    let env = t.string_map(f, "env").unwrap_or_default();
    let cwd = t.string(f, "cwd").and_then(|(cwd, node)| {
        if is_inside_package(&cwd) {
            Some(cwd)
        } else {
            invalid_value(
                f,
                src.file,
                node,
                "cwd",
                &cwd,
                "a folder inside the package (relative, no `..`)",
            );
            None
        }
    });
    let (url, headers) = check_remote(f, src, t);
    let oauth = check_oauth(f, src, t);
    check_setting_references(f, src, t);
    let permissions = t.get("permissions").and_then(|entry| {
        super::read_permissions(
            f,
            src.file,
            &entry.value,
            entry.key_span.clone(),
            &format!("the permissions of server `{}`", src.declared),
        )
    });
    if tools.is_empty()
        && prompts.is_empty()
        && resources.is_empty()
        && !t.has("command")
        && !t.has("url")
    {
        f.at(
            codes::EMPTY_SERVER,
            src.file,
            &src.anchor,
            format!("server `{}` has no tools, no prompts, no resources and no command", src.declared),
            Some("list its `tools = [\"…\"]`, `prompts` and/or `resources`, wrap a server with `command = [\"…\"]`, or bridge a remote one with `url = \"https://…\"`".into()),
        );
    }
    if head.found_errors(f) {
        return (None, references);
    }
    let server = ServerDef {
        name: src.declared.clone(),
        title: head.title,
        description: head.description,
        version,
        instructions,
        tools,
        prompts,
        resources,
        initialization,
        command,
        env,
        cwd,
        url,
        headers,
        oauth,
        permissions,
        location: src.location.clone(),
    };
    (Some(server), references)
}

/// `[oauth]`: how `agx auth login` signs in to the remote (docs/auth.md); only beside `url`.
fn check_oauth(f: &mut Findings, src: &DefinitionSource<'_>, t: &Table<'_>) -> Option<OAuthHints> {
    let entry = t.get("oauth")?;
    if !t.has("url") {
        f.at(
            codes::CONFLICTING_KEYS,
            src.file,
            &entry.key_span,
            format!("server `{}` has `oauth` but no `url`", src.declared),
            Some(
                "`oauth` says how to sign in to a remote server: add its `url`, or remove `oauth`"
                    .into(),
            ),
        );
        return None;
    }
    let table = Table::read(
        f,
        src.file,
        &entry.value,
        entry.key_span.clone(),
        format!("the `oauth` table of server `{}`", src.declared),
        OAUTH_KEYS,
    )?;
    let callback_port =
        table
            .integer(f, "callback_port")
            .and_then(|(port, node)| match u16::try_from(port) {
                Ok(port) if port > 0 => Some(port),
                _ => {
                    invalid_value(
                        f,
                        src.file,
                        node,
                        "callback_port",
                        &port.to_string(),
                        "a port from 1 to 65535",
                    );
                    None
                }
            });
    Some(OAuthHints {
        client_id: table.opt_string(f, "client_id"),
        callback_port,
        scopes: table
            .strings(f, "scopes")
            .unwrap_or_default()
            .into_iter()
            .map(|(s, _)| s)
            .collect(),
    })
}

/// A remote server (`url`, `headers`) that `agx serve` bridges: an `http(s)` URL, and
/// neither a `command` nor items beside it, since the remote serves everything itself.
fn check_remote(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    t: &Table<'_>,
) -> (Option<String>, BTreeMap<String, String>) {
    let headers = t.string_map(f, "headers").unwrap_or_default();
    let Some((url, node)) = t.string(f, "url") else {
        if let Some(entry) = t.get("headers") {
            f.at(
                codes::CONFLICTING_KEYS,
                src.file,
                &entry.key_span,
                format!("server `{}` has `headers` but no `url`", src.declared),
                Some(
                    "headers are sent to a remote server: add its `url`, or remove `headers`"
                        .into(),
                ),
            );
        }
        return (None, headers);
    };
    let with_url = [
        "command",
        "tools",
        "prompts",
        "resources",
        "initialization",
        "cwd",
    ];
    for key in with_url {
        if let Some(entry) = t.get(key) {
            f.at(
                codes::CONFLICTING_KEYS,
                src.file,
                &entry.key_span,
                format!("server `{}` has both `url` and `{key}`", src.declared),
                Some("a server with `url` is a remote one that agx bridges; declare local items or a command in another server".into()),
            );
        }
    }
    let parsed = url::Url::parse(&url.replace(['{', '}'], ""));
    if !parsed.is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.has_host()) {
        invalid_value(
            f,
            src.file,
            node,
            "url",
            &url,
            "an absolute http:// or https:// URL (settings may appear as `${settings.KEY}`)",
        );
        return (None, headers);
    }
    (Some(url), headers)
}

/// `${settings.KEY}` in `command`, `env`, `url` and `headers` must name a declared setting:
/// at serve time an unknown one would silently drop its element.
fn check_setting_references(f: &mut Findings, src: &DefinitionSource<'_>, t: &Table<'_>) {
    for key in ["command", "env", "url", "headers"] {
        let Some(entry) = t.get(key) else {
            continue;
        };
        let mut texts = Vec::new();
        collect_strings(&entry.value, &mut texts);
        for text in texts {
            for reference in placeholders::references(&text) {
                if src.settings.iter().any(|s| s.key == reference) {
                    continue;
                }
                let declared = src.settings.iter().map(|s| s.key.as_str());
                let hint = match did_you_mean(reference, declared) {
                    Some(close) => format!("did you mean `${{settings.{close}}}`?"),
                    None => format!("declare it in agx.toml: [extension.settings.{reference}]"),
                };
                f.at(
                    codes::UNDECLARED_VARIABLE,
                    src.file,
                    &entry.key_span,
                    format!(
                        "server `{}` uses `${{settings.{reference}}}` in `{key}`, which the package does not declare",
                        src.declared
                    ),
                    Some(hint),
                );
            }
        }
    }
}

/// Every string inside `node` (an array's items, a table's values).
fn collect_strings(node: &crate::manifest::spanned::Node, out: &mut Vec<String>) {
    if let Some(s) = node.as_str() {
        out.push(s.to_string());
    } else if let Some(items) = node.as_array() {
        items.iter().for_each(|n| collect_strings(n, out));
    } else if let Some(table) = node.as_table() {
        table
            .iter()
            .for_each(|entry| collect_strings(&entry.value, out));
    }
}

/// The `tools` or `prompts` a server lists, each also recorded in `out` with its place.
fn read_references(
    f: &mut Findings,
    src: &DefinitionSource<'_>,
    t: &Table<'_>,
    kind: Kind,
    out: &mut Vec<Reference>,
) -> Vec<ItemRef> {
    let mut refs = Vec::new();
    for (raw, node) in t.strings(f, kind.plural()).unwrap_or_default() {
        match ItemRef::parse(&raw) {
            Ok(item) => {
                refs.push(item.clone());
                let (location, length) = src.file.span_location(&node.span);
                out.push(Reference {
                    kind,
                    item,
                    location,
                    length,
                });
            }
            Err(e) => f.at(
                codes::INVALID_ITEM_NAME,
                src.file,
                &node.span,
                e.to_string(),
                Some(format!(
                    "a server lists {} by bare name (this package) or as {}",
                    kind.plural(),
                    NameError::Qualified {
                        input: String::new(),
                        reason: String::new()
                    }
                    .expected_form()
                )),
            ),
        }
    }
    refs
}
