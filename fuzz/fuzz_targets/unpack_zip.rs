//! Zip unpacking (MCPB bundles): the input is the `.mcpb` file itself.
//!
//! Property: nothing is written outside the destination; a failed unpack leaves no
//! destination; a successful one holds only regular files and folders.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let root = tempfile::tempdir().expect("create a temp folder");
    let bundle = root.path().join("fuzz.mcpb");
    std::fs::write(&bundle, data).expect("write the input");
    // Two levels below the root, so `../x` and `../../x` escapes would land where the walk
    // below sees them.
    let dest = root.path().join("store").join("bundle");
    let result = agx_archive::unpack_zip(&bundle, &dest);
    if result.is_err() {
        assert!(!dest.exists(), "a failed unpack left {}", dest.display());
    }
    check_tree(root.path(), &bundle, &dest);
    // Reading the manifest checks every entry the same way and never writes.
    let _ = agx_archive::read_zip_file(&bundle, "manifest.json", 64 * 1024);
});

/// Every path under `root` is the input, `root/store`, the destination, or inside the
/// destination; and the destination holds only regular files and folders.
fn check_tree(root: &Path, bundle: &Path, dest: &Path) {
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("list a folder") {
            let path = entry.expect("read a folder entry").path();
            let allowed = path == bundle || path == root.join("store") || path.starts_with(dest);
            assert!(allowed, "wrote outside the destination: {}", path.display());
            let kind = std::fs::symlink_metadata(&path).expect("stat").file_type();
            assert!(
                kind.is_file() || kind.is_dir(),
                "unpacked something other than a file or folder: {}",
                path.display()
            );
            if kind.is_dir() {
                pending.push(path);
            }
        }
    }
}
