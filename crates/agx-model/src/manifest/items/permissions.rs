//! `[extension.permissions]` in agx.toml, or `permissions` in a server's definition: what
//! the package's programs may read, write and reach (docs/sandbox.md).

use std::ops::Range;

use crate::manifest::diagnostics::{self as codes, Findings};
use crate::manifest::fields::Table;
use crate::manifest::spanned::{Node, SourceFile};
use crate::permissions::{Network, Permissions, host_problem, path_problem};

const PERMISSION_KEYS: &[&str] = &["read", "write", "network", "env"];

/// Read a permissions table (`what` names it in findings); `None` when it is not a table.
/// Each bad entry is a finding and is left out.
pub fn read_permissions(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    anchor: Range<usize>,
    what: &str,
) -> Option<Permissions> {
    let t = Table::read(f, file, node, anchor, what.to_string(), PERMISSION_KEYS)?;
    let mut permissions = Permissions::default();
    for (key, list) in [
        ("read", &mut permissions.read),
        ("write", &mut permissions.write),
    ] {
        for (path, node) in t.strings(f, key).unwrap_or_default() {
            match path_problem(&path) {
                None => list.push(path),
                Some((problem, fix)) => f.at(
                    codes::INVALID_PERMISSION,
                    file,
                    &node.span,
                    format!("`{key}` in {what}: {problem}"),
                    Some(fix),
                ),
            }
        }
    }
    for (name, node) in t.strings(f, "env").unwrap_or_default() {
        if crate::settings::declaration::is_valid_env_name(&name) {
            permissions.env.push(name);
        } else {
            f.at(
                codes::INVALID_PERMISSION,
                file,
                &node.span,
                format!("`env` in {what}: `{name}` is not a variable name"),
                Some(
                    "use letters, digits and `_`, not starting with a digit, e.g. \"HTTPS_PROXY\""
                        .into(),
                ),
            );
        }
    }
    if let Some(entry) = t.get("network") {
        let bad_network = |f: &mut Findings, span: &Range<usize>, problem: String| {
            f.at(
                codes::INVALID_NETWORK,
                file,
                span,
                format!("`network` in {what}: {problem}"),
                Some(
                    "write \"none\", \"loopback\", \"any\" or a list of hosts, e.g. [\"api.github.com\"]"
                        .into(),
                ),
            )
        };
        if let Some(text) = entry.value.as_str() {
            match text {
                "none" => permissions.network = Network::None,
                "loopback" => permissions.network = Network::Loopback,
                "any" => permissions.network = Network::Any,
                other => bad_network(f, &entry.value.span, format!("`{other}` is not a network")),
            }
        } else if let Some(items) = entry.value.as_array() {
            let mut hosts = Vec::new();
            for item in items {
                match item.as_str() {
                    Some(host) => match host_problem(host) {
                        None => hosts.push(host.to_string()),
                        Some(problem) => bad_network(f, &item.span, problem),
                    },
                    None => bad_network(f, &item.span, format!("found {}", item.type_name())),
                }
            }
            permissions.network = Network::Hosts(hosts);
        } else {
            bad_network(
                f,
                &entry.value.span,
                format!("found {}", entry.value.type_name()),
            );
        }
    }
    Some(permissions)
}
