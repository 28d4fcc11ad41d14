//! `agx.toml` and definition files: parsing and validation of a whole package folder.
//!
//! The input is a package written as text: everything before the first `@@ <path>` line is
//! `agx.toml`; each `@@ <path>` line starts another file at that relative path (for example
//! `@@ agx/tools/search.toml`). Property: `check_package` returns (no panic, no hang, bounded
//! memory) and a report whose package, when present, comes with no error findings; the
//! poisoning scan of that package places every finding inside a file of it.
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
    if let Some(package) = &report.package {
        // The scan points at matches in the files: every place is in one of them.
        for finding in agx_model::scan::scan_package(package) {
            let Some(at) = &finding.location else { continue };
            let text = std::fs::read_to_string(dir.path().join(&at.file)).expect("a package file");
            let line = text.split('\n').nth(at.line - 1).expect("a line of the file");
            assert!(at.column >= 1 && at.column <= line.chars().count() + 1, "{at}");
        }
    }
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
