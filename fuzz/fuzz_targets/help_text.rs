//! What a script prints for `--help`, as `agx discover` reads it
//! (`agx_ops::discover::help::parse`): any bytes, read as UTF-8 (lossily).
//!
//! Properties: nothing panics; every parameter has a name that is not empty, starts with no
//! `-` and holds no space, and appears once; `help`, `version` and `--fractalic-*` are never
//! parameters.
#![no_main]

use agx_ops::discover::help;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Some(found) = help::parse(&text) else {
        return;
    };
    let mut seen = std::collections::HashSet::new();
    for p in &found.parameters {
        assert!(!p.name.is_empty() && !p.name.starts_with('-'), "{:?}", p.name);
        assert!(!p.name.contains(char::is_whitespace), "{:?}", p.name);
        assert!(seen.insert(p.name.clone()), "{} twice", p.name);
        assert!(p.name != "help" && p.name != "version" && !p.name.starts_with("fractalic-"));
    }
});
