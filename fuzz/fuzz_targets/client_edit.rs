//! The lossless client config editors (JSON, JSONC, TOML, YAML). The first byte picks a
//! client from agx's table (and so the format, the container and the entry's shape); the rest
//! is the client's config file.
//!
//! Properties, for a file that parses: it prints back byte for byte; adding an entry leaves
//! every other entry as it was and reads back after a reparse; removing it from that reparsed
//! file (as `uninstall-server` does) restores the file byte for byte (when the container
//! already existed) and is stable after that.
#![no_main]

use std::collections::BTreeMap;

use agx_edit as edit;
use agx_clients::shape::{ServerEntry, render};
use agx_clients::table::Shape;
use agx_clients::{CLIENTS, Container};
use libfuzzer_sys::fuzz_target;

const KEY: &str = "fuzz-entry";

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let Ok(original) = std::str::from_utf8(body) else {
        return;
    };
    let client = &CLIENTS[pick as usize % CLIENTS.len()];
    let at = Container {
        path: client.container.iter().map(|s| s.to_string()).collect(),
        list_by_name: client.shape == Shape::NamedListItem,
    };
    let entry = ServerEntry {
        command: "/usr/local/bin/agx".into(),
        args: vec!["serve".into(), "acme/weather".into()],
        env: BTreeMap::from([("API_KEY".to_string(), "${API_KEY}".to_string())]),
    };
    let value = render(client.shape, KEY, &entry);

    let Ok(mut doc) = edit::parse(client.format, original) else {
        return;
    };
    assert_eq!(doc.text(), original, "a parsed file prints back unchanged");
    let before = doc.entries(&at);
    if before.iter().any(|(k, _)| k == KEY) {
        return;
    }
    if doc.set(&at, KEY, &value).is_err() {
        return;
    }
    let added = doc.text();
    let mut reparsed = edit::parse(client.format, &added)
        .unwrap_or_else(|e| panic!("the edited file does not parse ({e}):\n{added}"));
    assert_eq!(reparsed.get(&at, KEY).as_ref(), Some(&value), "\n{added}");
    let others: Vec<_> = reparsed
        .entries(&at)
        .into_iter()
        .filter(|(k, _)| k != KEY)
        .collect();
    assert_eq!(others, before, "other entries changed:\n{added}");

    // `install-server` and `uninstall-server` are two runs: the removal reads the file anew.
    assert_eq!(reparsed.remove(&at, KEY), Ok(true));
    let removed = reparsed.text();
    if !before.is_empty() {
        assert_eq!(removed, original, "add then remove changed the file");
    }
    let mut again = edit::parse(client.format, &removed)
        .unwrap_or_else(|e| panic!("the file after removal does not parse ({e}):\n{removed}"));
    if again.set(&at, KEY, &value).is_ok() {
        assert_eq!(again.remove(&at, KEY), Ok(true));
        assert_eq!(
            again.text(),
            removed,
            "a second add and remove changed the file"
        );
    }
});
