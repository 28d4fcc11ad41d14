//! `.tar.gz` unpacking. The first byte picks the input's form: even, the rest is a tar stream
//! that this target gzips (so the fuzzer mutates tar headers, not compressed bits); odd, the
//! rest is handed over as the `.tar.gz` itself. Its second bit picks the unpack: clear, a
//! package's (one top folder stripped); set, a skill artifact's layer (files at the root,
//! `unpack_flat`).
//!
//! Property: nothing is written outside the destination; a failed unpack leaves no
//! destination; a successful one holds only regular files and folders.
#![no_main]

use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;
use libfuzzer_sys::fuzz_target;

/// Small, so an archive that claims huge entries is refused quickly.
const CAP: u64 = 1024 * 1024;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, body)) = data.split_first() else {
        return;
    };
    let gz = if mode % 2 == 0 {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(body).expect("gzip into memory");
        encoder.finish().expect("gzip into memory")
    } else {
        body.to_vec()
    };
    let root = tempfile::tempdir().expect("create a temp folder");
    // Two levels below the root, so `../x` and `../../x` escapes would land where the walk
    // below sees them.
    let dest = root.path().join("store").join("pkg");
    let result = if mode & 2 == 0 {
        agx_archive::unpack_reader(gz.as_slice(), "fuzz.tar.gz", CAP, &dest)
    } else {
        let input = tempfile::NamedTempFile::new().expect("create a temp file");
        std::fs::write(input.path(), &gz).expect("write the archive");
        agx_archive::unpack_flat(input.path(), &dest)
    };
    if result.is_err() {
        assert!(!dest.exists(), "a failed unpack left {}", dest.display());
    }
    check_tree(root.path(), &dest);
});

/// Every path under `root` is `root/store`, the destination, or inside the destination; and
/// the destination holds only regular files and folders.
fn check_tree(root: &Path, dest: &Path) {
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("list a folder") {
            let path = entry.expect("read a folder entry").path();
            let allowed = path == root.join("store") || path.starts_with(dest);
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
