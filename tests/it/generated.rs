//! The committed completions and man pages match the clap definitions.

use std::collections::BTreeSet;

use crate::support::repo_root;

#[path = "../../examples/generate/files.rs"]
mod files;

#[test]
fn completions_and_man_pages_are_fresh() {
    let root = repo_root();
    let expected = files::all_files();
    let mut stale = Vec::new();
    for (path, contents) in &expected {
        match std::fs::read(root.join(path)) {
            Ok(actual) if &actual == contents => {}
            Ok(_) => stale.push(format!("{} differs", path.display())),
            Err(_) => stale.push(format!("{} is missing", path.display())),
        }
    }
    let wanted: BTreeSet<_> = expected.iter().map(|(p, _)| p.clone()).collect();
    for dir in files::DIRS {
        for entry in std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            let rel = std::path::Path::new(dir).join(entry.file_name());
            if !wanted.contains(&rel) {
                stale.push(format!("{} is no longer generated", rel.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated files are stale; run `cargo run --example generate`:\n{}",
        stale.join("\n")
    );
}
