//! `agx.toml` and definition files: parsing and validation of a whole package folder.
//!
//! The input is a package written as text: everything before the first `@@ <path>` line is
//! `agx.toml`; each `@@ <path>` line starts another file at that relative path (for example
//! `@@ agx/tools/search.toml`). Property: `check_package` returns (no panic, no hang, bounded
//! memory) and a report whose package, when present, comes with no error findings.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

const MAX_FILES: usize = 16;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let dir = tempfile::tempdir().expect("create a temp folder");
    let mut files = vec![("agx.toml".to_string(), String::new())];
    for line in text.split_inclusive('\n') {
        match line.strip_prefix("@@ ") {
            Some(path) if files.len() < MAX_FILES => {
                files.push((path.trim().to_string(), String::new()))
            }
            _ => files.last_mut().expect("agx.toml").1.push_str(line),
        }
    }
    for (rel, content) in &files {
        if is_plain_relative(rel) {
            let path = dir.path().join(rel);
            // A path under one that is already a file, or that is already a folder, is
            // simply not written: the input names it twice, which no package can.
            if std::fs::create_dir_all(path.parent().expect("inside the temp folder")).is_ok() {
                let _ = std::fs::write(&path, content);
            }
        }
    }
    let report = agx_model::manifest::check_package(dir.path());
    if report.package.is_some() {
        // A loaded package may carry warnings, never errors: load_package relies on it.
        assert_eq!(
            agx_model::manifest::load_package(dir.path()).is_ok(),
            !report.has_errors()
        );
    }
});

/// A short relative path of plain names, so nothing is written outside the temp folder.
fn is_plain_relative(rel: &str) -> bool {
    let path = Path::new(rel);
    !rel.is_empty()
        && rel.len() < 128
        && path.components().count() <= 4
        && path
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
        && rel
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-/".contains(&b))
}
