//! `agx tools SERVER --diff` and `agx trust SERVER [ITEM…]` (docs/security.md, "Pinned
//! definitions"): what a wrapped or remote server lists now against what was pinned, and
//! accepting it. The server is started (and stopped) to ask it, as `agx tools` does.

use serde::Serialize;
use serde_json::Value;

use super::{Context, OpsError, OpsResult};
use agx_core::name::PinnedServer;
use agx_runtime::assemble::Assembled;
use agx_runtime::{self as runtime, listing};
use agx_store::pins::{Pin, PinnedList, Pins};

/// How one item differs from its pin.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "lowercase", tag = "change")]
pub enum Change {
    /// Listed with another definition; `fields` are the members that differ.
    Changed { fields: Vec<&'static str> },
    /// Listed, not pinned.
    New,
    /// Pinned, no longer listed.
    Removed,
}

/// One item that differs from its pin.
#[derive(Debug, Clone, Serialize)]
pub struct ItemDiff {
    /// `tool`, `prompt` or `resource template`.
    pub kind: &'static str,
    pub name: String,
    #[serde(flatten)]
    pub change: Change,
    /// The definition as pinned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<Value>,
    /// The definition as listed now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listed: Option<Value>,
    #[serde(skip)]
    list: PinnedList,
}

/// A server's definitions against its pins.
#[derive(Debug, Clone, Serialize)]
pub struct PinReport {
    pub server: String,
    /// The pins file.
    pub file: String,
    /// Items that match their pins.
    pub unchanged: usize,
    pub changes: Vec<ItemDiff>,
    /// Lists the server offers that have no pins yet (their first serve pins them).
    pub unpinned: Vec<&'static str>,
    /// For `agx trust`: the items whose listed definition is now pinned (or pin removed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accepted: Vec<String>,
    /// An agx package's server: its definitions are its installed files, pinned by version.
    pub static_definitions: bool,
}

/// What `reference` lists now against its pins.
pub fn diff(ctx: &Context, reference: &str) -> OpsResult<PinReport> {
    Ok(compare(ctx, reference)?.0)
}

/// Pin what `reference` lists now: every item, or only `items` (each a changed, new or
/// removed one). A named item with no change is an error, and then nothing is written.
pub fn trust(ctx: &Context, reference: &str, items: &[String]) -> OpsResult<PinReport> {
    let (mut report, current, path) = compare(ctx, reference)?;
    if report.static_definitions {
        return Ok(report);
    }
    let mut pins = Pins::read(&path)?.unwrap_or_else(Pins::new);
    if items.is_empty() {
        let mut fresh = Pins::new();
        for (list, listed) in &current {
            fresh.mark_seen(*list);
            for item in listed {
                if let Some(name) = item.get(list.key()).and_then(Value::as_str) {
                    fresh.insert(*list, name.to_string(), Pin::of(*list, item));
                }
            }
        }
        // A list the server does not offer now keeps its pins: offered later, it is checked.
        for list in PinnedList::ALL {
            if !current.contains_key(&list)
                && let Some(kept) = pins.list(list)
            {
                fresh.mark_seen(list);
                for (name, pin) in kept {
                    fresh.insert(list, name.clone(), pin.clone());
                }
            }
        }
        report.accepted = report.changes.iter().map(|c| c.name.clone()).collect();
        pins = fresh;
    } else {
        for name in items {
            let matching: Vec<&ItemDiff> =
                report.changes.iter().filter(|c| &c.name == name).collect();
            if matching.is_empty() {
                return Err(OpsError::NothingToTrust {
                    server: report.server.clone(),
                    item: name.clone(),
                    changed: report.changes.iter().map(|c| c.name.clone()).collect(),
                });
            }
            for change in matching {
                match &change.listed {
                    Some(listed) => {
                        pins.insert(change.list, name.clone(), Pin::of(change.list, listed))
                    }
                    None => {
                        pins.remove(change.list, name);
                    }
                }
            }
            report.accepted.push(name.clone());
        }
    }
    pins.write(&path)?;
    Ok(report)
}

/// The report, the definitions listed now, and the pins file.
fn compare(
    ctx: &Context,
    reference: &str,
) -> OpsResult<(PinReport, listing::Definitions, std::path::PathBuf)> {
    if agx_project::profile::profile_name(reference).is_some() {
        return Err(OpsError::ProfilePins {
            profile: reference.to_string(),
        });
    }
    let pinned_server = PinnedServer::parse(reference)?;
    let loaded = runtime::load_installed(ctx.paths, &pinned_server, &[])?;
    let server = loaded.server.to_string();
    let path = match &loaded.assembled {
        Assembled::Wrapped(w) => w.pins_file.clone(),
        Assembled::Native(_) => None,
    };
    let Some(path) = path else {
        // An agx package's server: what it lists is its version's files.
        let report = PinReport {
            server,
            file: String::new(),
            unchanged: 0,
            changes: Vec::new(),
            unpinned: Vec::new(),
            accepted: Vec::new(),
            static_definitions: true,
        };
        return Ok((
            report,
            listing::Definitions::new(),
            std::path::PathBuf::new(),
        ));
    };
    let pins = Pins::read(&path)?.unwrap_or_else(Pins::new);
    let current = listing::list_definitions(loaded.assembled, &PinnedList::ALL)?;
    let mut report = PinReport {
        server,
        file: path.display().to_string(),
        unchanged: 0,
        changes: Vec::new(),
        unpinned: Vec::new(),
        accepted: Vec::new(),
        static_definitions: false,
    };
    for (list, listed) in &current {
        let Some(pinned) = pins.list(*list) else {
            report.unpinned.push(list.plural());
            continue;
        };
        let mut seen = std::collections::HashSet::new();
        for item in listed {
            let Some(name) = item.get(list.key()).and_then(Value::as_str) else {
                continue;
            };
            seen.insert(name);
            let pin = Pin::of(*list, item);
            let change = match pinned.get(name) {
                Some(old) if old.sha256 == pin.sha256 => {
                    report.unchanged += 1;
                    continue;
                }
                Some(old) => Change::Changed {
                    fields: old.changed_fields(&pin, *list),
                },
                None => Change::New,
            };
            report.changes.push(ItemDiff {
                kind: list.noun(),
                name: name.to_string(),
                // None for an item pinned by its hash alone (from agx.lock).
                pinned: pinned
                    .get(name)
                    .map(|p| p.definition.clone())
                    .filter(|d| !d.is_null()),
                listed: Some(pin.definition),
                change,
                list: *list,
            });
        }
        for (name, old) in pinned {
            if !seen.contains(name.as_str()) {
                report.changes.push(ItemDiff {
                    kind: list.noun(),
                    name: name.clone(),
                    change: Change::Removed,
                    pinned: Some(old.definition.clone()).filter(|d| !d.is_null()),
                    listed: None,
                    list: *list,
                });
            }
        }
    }
    Ok((report, current, path))
}
