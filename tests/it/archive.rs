//! Integration tests: safe unpacking. Hostile archives are built here, byte by byte where the
//! tar crate would refuse to write them, and each must be refused with its own error while
//! leaving nothing behind.

use std::fs;
use std::io::Write;

use agx_archive::{
    ArchiveError, MIN_EXPANSION_CAP, UnsafeEntry, expansion_cap, read_manifest, unpack,
};
use insta::assert_snapshot;

use crate::support::{snapshot_filters, tree as listing};

/// One entry of a hand-built archive.
struct Raw {
    name: &'static str,
    kind: tar::EntryType,
    data: Vec<u8>,
    link: &'static str,
    mode: u32,
    /// Declared size, when it should differ from `data.len()`.
    size: Option<u64>,
}

fn file(name: &'static str, data: &str) -> Raw {
    Raw {
        name,
        kind: tar::EntryType::Regular,
        data: data.as_bytes().to_vec(),
        link: "",
        mode: 0o644,
        size: None,
    }
}

fn dir(name: &'static str) -> Raw {
    Raw {
        kind: tar::EntryType::Directory,
        mode: 0o755,
        ..file(name, "")
    }
}

fn link(name: &'static str, kind: tar::EntryType, target: &'static str) -> Raw {
    Raw {
        kind,
        link: target,
        ..file(name, "")
    }
}

fn special(name: &'static str, kind: tar::EntryType) -> Raw {
    Raw {
        kind,
        ..file(name, "")
    }
}

/// The tar bytes of `entries`, headers written directly so that any name is possible.
fn tar_bytes(entries: &[Raw]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for e in entries {
        let mut header = tar::Header::new_old();
        let name = e.name.as_bytes();
        header.as_old_mut().name[..name.len()].copy_from_slice(name);
        let target = e.link.as_bytes();
        header.as_old_mut().linkname[..target.len()].copy_from_slice(target);
        header.set_entry_type(e.kind);
        header.set_mode(e.mode);
        header.set_size(e.size.unwrap_or(e.data.len() as u64));
        header.set_cksum();
        builder.append(&header, e.data.as_slice()).unwrap();
    }
    builder.into_inner().unwrap()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// A sandbox: `work/` holds the archive and the destination's parent; everything in it is
/// listed (path, size, sha256) before and after to prove that nothing was left behind.
struct Sandbox {
    tmp: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("work/store")).unwrap();
        fs::write(tmp.path().join("work/store/existing.txt"), "keep me").unwrap();
        Sandbox { tmp }
    }

    fn work(&self) -> std::path::PathBuf {
        self.tmp.path().join("work")
    }

    fn dest(&self) -> std::path::PathBuf {
        self.work().join("store/pkg")
    }

    fn write_archive(&self, bytes: &[u8]) -> std::path::PathBuf {
        let path = self.work().join("package.tar.gz");
        fs::write(&path, bytes).unwrap();
        path
    }

    /// Unpack `bytes` into `dest()` and expect a refusal; checks that the sandbox (and the
    /// folder around it) is unchanged.
    fn refuse(&self, bytes: &[u8]) -> ArchiveError {
        let archive = self.write_archive(bytes);
        let before = listing(self.tmp.path());
        let err = unpack(&archive, &self.dest()).expect_err("the archive must be refused");
        assert_eq!(
            before,
            listing(self.tmp.path()),
            "unpack left something behind"
        );
        err
    }
}

/// The problem inside an `Unsafe` refusal.
fn problem(err: &ArchiveError) -> &UnsafeEntry {
    match err {
        ArchiveError::Unsafe { problem, .. } => problem,
        other => panic!("expected an unsafe-archive refusal, got {other:?}"),
    }
}

/// The full text a person sees: the error and its causes.
fn full_message(err: &ArchiveError) -> String {
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Good entries first, so that a refusal also has to clean up files it already wrote.
fn with_good_entries(bad: Vec<Raw>) -> Vec<u8> {
    let mut entries = vec![
        dir("pkg-1.0.0/"),
        file("pkg-1.0.0/agx.toml", "[package]\n"),
        dir("pkg-1.0.0/bin/"),
        file("pkg-1.0.0/bin/tool.sh", "#!/bin/sh\n"),
    ];
    entries.extend(bad);
    gzip(&tar_bytes(&entries))
}

#[test]
fn a_good_archive_unpacks_without_its_top_folder() {
    let sandbox = Sandbox::new();
    let mut exe = file("pkg-1.0.0/bin/run", "#!/bin/sh\necho hi\n");
    exe.mode = 0o755;
    let bytes = with_good_entries(vec![
        exe,
        // A file whose folder has no entry of its own.
        file("pkg-1.0.0/deep/er/data.txt", "data"),
    ]);
    let archive = sandbox.write_archive(&bytes);
    unpack(&archive, &sandbox.dest()).unwrap();
    let dest = sandbox.dest();
    assert_eq!(
        fs::read_to_string(dest.join("agx.toml")).unwrap(),
        "[package]\n"
    );
    assert_eq!(
        fs::read_to_string(dest.join("deep/er/data.txt")).unwrap(),
        "data"
    );
    assert!(!dest.join("pkg-1.0.0").exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &str| fs::metadata(dest.join(p)).unwrap().permissions().mode();
        assert_eq!(mode("bin/run") & 0o111, 0o111, "executable bit kept");
        assert_eq!(mode("bin/tool.sh") & 0o111, 0, "no executable bit added");
    }
}

#[test]
fn parent_dir_paths_are_refused() {
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&with_good_entries(vec![file(
        "pkg-1.0.0/../../escaped.txt",
        "gotcha",
    )]));
    assert!(
        matches!(problem(&err), UnsafeEntry::ParentDir { entry } if entry == "pkg-1.0.0/../../escaped.txt"),
        "{err:?}"
    );
    let _filters = snapshot_filters();
    assert_snapshot!(full_message(&err));
    assert!(!sandbox.work().join("escaped.txt").exists());
}

#[test]
fn absolute_paths_are_refused() {
    let sandbox = Sandbox::new();
    let target = sandbox.tmp.path().join("absolute.txt");
    let name: &'static str = Box::leak(target.display().to_string().into_boxed_str());
    let err = sandbox.refuse(&with_good_entries(vec![file(name, "gotcha")]));
    assert!(
        matches!(problem(&err), UnsafeEntry::AbsolutePath { entry } if entry == name),
        "{err:?}"
    );
    let _filters = snapshot_filters();
    assert_snapshot!(full_message(&err));
    assert!(!target.exists());
}

#[test]
fn symlinks_are_refused() {
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&with_good_entries(vec![link(
        "pkg-1.0.0/bin/passwd",
        tar::EntryType::Symlink,
        "/etc/passwd",
    )]));
    assert!(
        matches!(problem(&err), UnsafeEntry::Symlink { entry, target }
            if entry == "pkg-1.0.0/bin/passwd" && target == "/etc/passwd"),
        "{err:?}"
    );
    let _filters = snapshot_filters();
    assert_snapshot!(full_message(&err));
}

#[test]
fn hardlinks_are_refused() {
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&with_good_entries(vec![link(
        "pkg-1.0.0/bin/again",
        tar::EntryType::Link,
        "pkg-1.0.0/bin/tool.sh",
    )]));
    assert!(
        matches!(problem(&err), UnsafeEntry::Hardlink { entry, target }
            if entry == "pkg-1.0.0/bin/again" && target == "pkg-1.0.0/bin/tool.sh"),
        "{err:?}"
    );
    let _filters = snapshot_filters();
    assert_snapshot!(full_message(&err));
}

#[test]
fn devices_and_fifos_are_refused() {
    let mut messages = Vec::new();
    for (kind, word) in [
        (tar::EntryType::Char, "character device"),
        (tar::EntryType::Block, "block device"),
        (tar::EntryType::Fifo, "fifo"),
    ] {
        let sandbox = Sandbox::new();
        let err = sandbox.refuse(&with_good_entries(vec![special("pkg-1.0.0/dev", kind)]));
        assert!(
            matches!(problem(&err), UnsafeEntry::SpecialFile { entry, kind }
                if entry == "pkg-1.0.0/dev" && *kind == word),
            "{err:?}"
        );
        messages.push(full_message(&err));
    }
    let _filters = snapshot_filters();
    assert_snapshot!(messages.join("\n"));
}

#[test]
fn duplicate_entries_are_refused() {
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&with_good_entries(vec![file(
        "pkg-1.0.0/agx.toml",
        "[package]\nname = \"evil\"\n",
    )]));
    assert!(
        matches!(problem(&err), UnsafeEntry::Duplicate { entry } if entry == "pkg-1.0.0/agx.toml"),
        "{err:?}"
    );
    let _filters = snapshot_filters();
    assert_snapshot!(full_message(&err));

    // `./` prefixes do not hide a duplicate.
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&with_good_entries(vec![file(
        "./pkg-1.0.0/bin/tool.sh",
        "x",
    )]));
    assert!(
        matches!(problem(&err), UnsafeEntry::Duplicate { .. }),
        "{err:?}"
    );
}

#[test]
fn entries_outside_the_one_top_folder_are_refused() {
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&with_good_entries(vec![file("other-1.0.0/x.txt", "x")]));
    assert!(
        matches!(problem(&err), UnsafeEntry::MultipleTopFolders { first, second }
            if first == "pkg-1.0.0" && second == "other-1.0.0"),
        "{err:?}"
    );

    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&with_good_entries(vec![file("README.md", "x")]));
    assert!(
        matches!(problem(&err), UnsafeEntry::OutsideTopFolder { entry, top }
            if entry == "README.md" && top == "pkg-1.0.0"),
        "{err:?}"
    );

    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&gzip(&tar_bytes(&[file("agx.toml", "x")])));
    assert!(
        matches!(problem(&err), UnsafeEntry::NoTopFolder { entry } if entry == "agx.toml"),
        "{err:?}"
    );
}

#[test]
fn folders_created_above_the_destination_are_removed_on_failure() {
    let sandbox = Sandbox::new();
    let archive = sandbox.write_archive(&with_good_entries(vec![dir("other-1.0.0/")]));
    let before = listing(sandbox.tmp.path());
    let dest = sandbox.work().join("store/acme/weather/1.2.0");
    let err = unpack(&archive, &dest).unwrap_err();
    assert!(
        matches!(problem(&err), UnsafeEntry::MultipleTopFolders { .. }),
        "{err:?}"
    );
    assert_eq!(before, listing(sandbox.tmp.path()));
}

#[test]
fn an_empty_archive_is_refused() {
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&gzip(&tar_bytes(&[])));
    assert!(matches!(problem(&err), UnsafeEntry::Empty), "{err:?}");
}

#[test]
fn corrupt_and_truncated_archives_are_refused() {
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(b"this is not gzip data at all");
    assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");

    let good = with_good_entries(vec![file("pkg-1.0.0/more.txt", &"x".repeat(10_000))]);
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&good[..good.len() - 20]);
    assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");

    // A flipped byte inside the compressed data: the gzip checksum catches it.
    let mut flipped = good.clone();
    let at = flipped.len() - 12;
    flipped[at] ^= 0x55;
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&flipped);
    assert!(matches!(err, ArchiveError::Corrupt { .. }), "{err:?}");
}

#[test]
fn an_existing_destination_is_refused_and_left_alone() {
    let sandbox = Sandbox::new();
    let archive = sandbox.write_archive(&with_good_entries(vec![]));
    let existing = sandbox.work().join("store");
    let before = listing(sandbox.tmp.path());
    let err = unpack(&archive, &existing).unwrap_err();
    assert!(
        matches!(err, ArchiveError::DestinationExists { .. }),
        "{err:?}"
    );
    assert_eq!(before, listing(sandbox.tmp.path()));
}

#[test]
fn the_cap_is_512_mib_or_twenty_times_the_compressed_size() {
    assert_eq!(MIN_EXPANSION_CAP, 512 * 1024 * 1024);
    assert_eq!(expansion_cap(1000), MIN_EXPANSION_CAP);
    assert_eq!(expansion_cap(100 * 1024 * 1024), 2000 * 1024 * 1024);
    assert_eq!(expansion_cap(u64::MAX), u64::MAX);
}

/// A real gzip bomb: `header` followed by `zeros` zero bytes, compressed ~1000:1 without
/// compressing them all. Each 1 MiB chunk of zeros is deflated once by a fresh compressor and
/// flushed to a byte boundary, so copies of it can be concatenated into one valid stream.
fn gzip_bomb(header: &[u8], zeros: u64) -> Vec<u8> {
    const CHUNK: usize = 1024 * 1024;
    fn deflate_block(data: &[u8]) -> Vec<u8> {
        let mut compress = flate2::Compress::new(flate2::Compression::best(), false);
        let mut out = Vec::with_capacity(data.len() / 100 + 1024);
        compress
            .compress_vec(data, &mut out, flate2::FlushCompress::Full)
            .unwrap();
        assert_eq!(
            compress.total_in(),
            data.len() as u64,
            "output buffer too small"
        );
        out
    }
    let mut bytes = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    let mut crc = flate2::Crc::new();
    bytes.extend(deflate_block(header));
    crc.update(header);

    let chunk = vec![0u8; CHUNK];
    let block = deflate_block(&chunk);
    let mut chunk_crc = flate2::Crc::new();
    chunk_crc.update(&chunk);
    for _ in 0..zeros / CHUNK as u64 {
        bytes.extend_from_slice(&block);
        crc.combine(&chunk_crc);
    }
    let rest = vec![0u8; (zeros % CHUNK as u64) as usize];
    bytes.extend(deflate_block(&rest));
    crc.update(&rest);
    bytes.extend([0x01, 0x00, 0x00, 0xff, 0xff]); // final, empty stored block
    bytes.extend(crc.sum().to_le_bytes());
    bytes.extend(crc.amount().to_le_bytes());
    bytes
}

#[test]
fn the_gzip_bomb_helper_builds_a_valid_stream() {
    let bomb = gzip_bomb(b"header", 3 * 1024 * 1024 + 5);
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bomb[..]), &mut decoded).unwrap();
    assert_eq!(decoded.len(), 6 + 3 * 1024 * 1024 + 5);
    assert!(decoded.starts_with(b"header"));
    assert!(bomb.len() < 20_000, "{} bytes", bomb.len());
}

#[test]
fn a_gzip_bomb_declaring_a_huge_file_is_refused() {
    // One 600 MiB file of zeros: about 600 KB compressed, so the cap is 512 MiB.
    let size = 600 * 1024 * 1024;
    let mut header = tar_bytes(&[
        dir("pkg-1.0.0/"),
        Raw {
            size: Some(size),
            ..file("pkg-1.0.0/zeros.bin", "")
        },
    ]);
    header.truncate(2 * 512); // keep the two headers, drop the end-of-archive blocks
    let bomb = gzip_bomb(&header, size + 1024);
    assert!(bomb.len() < 1024 * 1024);
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&bomb);
    assert!(
        matches!(problem(&err), UnsafeEntry::TooLarge { entry, cap }
            if entry == "pkg-1.0.0/zeros.bin" && *cap == MIN_EXPANSION_CAP),
        "{err:?}"
    );
    let _filters = snapshot_filters();
    assert_snapshot!(full_message(&err));
}

#[test]
fn a_gzip_bomb_hidden_after_the_end_of_the_archive_is_refused() {
    // A small valid tar, then 600 MiB of zeros that no entry declares.
    let tar = tar_bytes(&[dir("pkg-1.0.0/"), file("pkg-1.0.0/agx.toml", "[package]\n")]);
    let bomb = gzip_bomb(&tar, 600 * 1024 * 1024);
    let sandbox = Sandbox::new();
    let err = sandbox.refuse(&bomb);
    assert!(
        matches!(problem(&err), UnsafeEntry::StreamTooLarge { cap } if *cap == MIN_EXPANSION_CAP),
        "{err:?}"
    );
}

#[test]
fn read_manifest_returns_agx_toml_without_unpacking() {
    let sandbox = Sandbox::new();
    let archive = sandbox.write_archive(&with_good_entries(vec![file("pkg-1.0.0/z.txt", "z")]));
    let before = listing(sandbox.tmp.path());
    assert_eq!(read_manifest(&archive).unwrap(), "[package]\n");
    assert_eq!(
        before,
        listing(sandbox.tmp.path()),
        "read_manifest wrote something"
    );
}

#[test]
fn read_manifest_checks_the_entries_before_it() {
    let sandbox = Sandbox::new();
    let bytes = gzip(&tar_bytes(&[
        dir("pkg-1.0.0/"),
        link("pkg-1.0.0/evil", tar::EntryType::Symlink, "/etc"),
        file("pkg-1.0.0/agx.toml", "[package]\n"),
    ]));
    let err = read_manifest(&sandbox.write_archive(&bytes)).unwrap_err();
    assert!(
        matches!(problem(&err), UnsafeEntry::Symlink { .. }),
        "{err:?}"
    );

    let bytes = gzip(&tar_bytes(&[
        dir("pkg-1.0.0/"),
        file("pkg-1.0.0/README.md", "x"),
    ]));
    let err = read_manifest(&sandbox.write_archive(&bytes)).unwrap_err();
    assert!(matches!(err, ArchiveError::NoManifest { .. }), "{err:?}");
    assert!(err.to_string().contains("no agx.toml"), "{err}");

    // A nested agx.toml is not the package's manifest.
    let bytes = gzip(&tar_bytes(&[file("pkg-1.0.0/sub/agx.toml", "[package]\n")]));
    let err = read_manifest(&sandbox.write_archive(&bytes)).unwrap_err();
    assert!(matches!(err, ArchiveError::NoManifest { .. }), "{err:?}");
}
