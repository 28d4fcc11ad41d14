//! The registry index parsers: `packages/<publisher>/<name>.json` (one JSON object per
//! line) and `catalog.json`, plus search over the catalog.
//!
//! The first byte picks the parser: even, the rest is an NDJSON versions file; odd, the
//! rest's first line is a search query and what follows is `catalog.json`. Property: no
//! panic, and whatever parses survives serialisation unchanged.
#![no_main]

use agx_sources::index::{Catalog, IndexEntry};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, body)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        if let Ok(entries) = agx_sources::index::parse_version_lines(body, "fuzz.json") {
            for entry in entries {
                let line = serde_json::to_string(&entry).expect("an entry serialises");
                let back: IndexEntry = serde_json::from_str(&line).expect("its line parses");
                assert_eq!(back, entry);
            }
        }
        return;
    }
    let split = body.iter().position(|b| *b == b'\n').unwrap_or(body.len());
    let (query, catalog) = body.split_at(split);
    let Ok(catalog) = serde_json::from_slice::<Catalog>(catalog) else {
        return;
    };
    let bytes = serde_json::to_vec(&catalog).expect("a catalog serialises");
    let back: Catalog = serde_json::from_slice(&bytes).expect("its JSON parses");
    assert_eq!(back, catalog);
    let query = String::from_utf8_lossy(query);
    let hits = agx_sources::index::search::search(&catalog.packages, &query);
    assert!(
        hits.len() <= catalog.packages.len(),
        "a package found twice"
    );
});
