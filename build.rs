//! Sets `AGX_BUILD_ID`, a hash of every source of the workspace. `agx serve` hands off to the
//! `agx-serve` binary beside it only when both carry the same id, so a helper built from
//! other code (for example after `cargo run`, which rebuilds only `agx`) is never used.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

fn main() {
    // SipHash with fixed keys: deterministic within one build, which is all both binaries
    // need, since they read the id from this one script's output.
    let mut hasher = DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    for file in ["Cargo.toml", "Cargo.lock"] {
        std::fs::read(file).unwrap_or_default().hash(&mut hasher);
        println!("cargo:rerun-if-changed={file}");
    }
    // The binaries' own code and every crate of the workspace.
    for dir in ["src", "crates"] {
        hash_tree(Path::new(dir), &mut hasher);
        println!("cargo:rerun-if-changed={dir}");
    }
    println!("cargo:rustc-env=AGX_BUILD_ID={:016x}", hasher.finish());
}

/// Every file under `dir`, in name order: its path and contents.
fn hash_tree(dir: &Path, hasher: &mut DefaultHasher) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            hash_tree(&path, hasher);
        } else {
            path.hash(hasher);
            std::fs::read(&path).unwrap_or_default().hash(hasher);
        }
    }
}
