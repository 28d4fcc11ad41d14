//! Integration tests: deterministic packing (`agx_archive::pack_dir` and `agx pack`).

use std::fs;
use std::io::Read;
use std::path::Path;

use agx_archive::{ArchiveError, PACK_MTIME, pack_dir, unpack};
use agx_core::name::PackageName;
use insta::assert_snapshot;
use sha2::Digest;

use crate::support::{TestHome, copy_tree, fixtures, outcome, write_file as write, write_files};

fn name(s: &str) -> PackageName {
    PackageName::parse(s).unwrap()
}

fn version(s: &str) -> semver::Version {
    semver::Version::parse(s).unwrap()
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// A small package folder: manifest, a definition file, an executable tool, an empty folder.
fn sample_package(dir: &Path) {
    write_files(
        dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"acme/weather\"\nversion = \"1.2.0\"\n\n[extension]\ntools = [\"now\"]\n",
            ),
            (
                "agx/tools/now.toml",
                "name = \"now\"\ncommand = [\"bin/now.sh\"]\n",
            ),
            ("bin/now.sh", "#!/bin/sh\necho '{}'\n"),
            ("README.md", "# weather\n"),
        ],
    );
    #[cfg(unix)]
    set_mode(&dir.join("bin/now.sh"), 0o750);
    fs::create_dir_all(dir.join("data/empty")).unwrap();
}

fn pack_sample(dir: &Path, out: &Path) -> agx_archive::PackedArchive {
    pack_dir(dir, &name("acme/weather"), &version("1.2.0"), out).expect("pack")
}

/// Every entry of a .tar.gz: (path, header) in archive order.
fn entries(archive: &Path) -> Vec<(String, tar::Header)> {
    let file = fs::File::open(archive).unwrap();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    tar.entries()
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let path = String::from_utf8(e.path_bytes().into_owned()).unwrap();
            (path, e.header().clone())
        })
        .collect()
}

fn paths(archive: &Path) -> Vec<String> {
    entries(archive)
        .into_iter()
        .map(|(p, _)| p.trim_end_matches('/').to_string())
        .collect()
}

#[test]
fn packing_twice_gives_identical_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    let first = pack_sample(&pkg, &tmp.path().join("out1"));
    let second = pack_sample(&pkg, &tmp.path().join("out2"));
    let a = fs::read(&first.path).unwrap();
    let b = fs::read(&second.path).unwrap();
    assert_eq!(a, b);
    assert_eq!(first.sha256, second.sha256);
    assert_eq!(first.sha256, hex::encode(sha2::Sha256::digest(&a)));
    assert_eq!(first.size, a.len() as u64);
    assert_eq!(first.path.file_name().unwrap(), "acme-weather-1.2.0.tar.gz");
}

#[test]
fn timestamps_creation_order_and_modes_do_not_change_the_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    sample_package(&one);
    let reference = pack_sample(&one, &tmp.path().join("out1"));

    // The same files created in another order, with other timestamps and permissions.
    let two = tmp.path().join("two");
    fs::create_dir_all(two.join("data/empty")).unwrap();
    write(&two.join("README.md"), "# weather\n");
    write(&two.join("bin/now.sh"), "#!/bin/sh\necho '{}'\n");
    write(
        &two.join("agx/tools/now.toml"),
        "name = \"now\"\ncommand = [\"bin/now.sh\"]\n",
    );
    fs::copy(one.join("agx.toml"), two.join("agx.toml")).unwrap();
    #[cfg(unix)]
    {
        set_mode(&two.join("bin/now.sh"), 0o700); // still executable
        set_mode(&two.join("README.md"), 0o600);
    }
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    fs::File::options()
        .write(true)
        .open(two.join("README.md"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let other = pack_sample(&two, &tmp.path().join("out2"));
    assert_eq!(reference.sha256, other.sha256);
}

#[test]
fn archive_has_sorted_entries_fixed_metadata_and_one_top_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    let packed = pack_sample(&pkg, tmp.path());
    let entries = entries(&packed.path);
    let names: Vec<String> = entries
        .iter()
        .map(|(p, _)| p.trim_end_matches('/').to_string())
        .collect();
    assert_eq!(
        names,
        [
            "weather-1.2.0",
            "weather-1.2.0/README.md",
            "weather-1.2.0/agx",
            "weather-1.2.0/agx.toml",
            "weather-1.2.0/agx/tools",
            "weather-1.2.0/agx/tools/now.toml",
            "weather-1.2.0/bin",
            "weather-1.2.0/bin/now.sh",
            "weather-1.2.0/data",
            "weather-1.2.0/data/empty",
        ]
    );
    for (path, header) in &entries {
        assert_eq!(header.mtime().unwrap(), PACK_MTIME, "{path}");
        assert_eq!(header.uid().unwrap(), 0, "{path}");
        assert_eq!(header.gid().unwrap(), 0, "{path}");
        assert_eq!(header.username().unwrap(), Some(""), "{path}");
        assert_eq!(header.groupname().unwrap(), Some(""), "{path}");
        let expected_mode = if header.entry_type().is_dir() || path.ends_with("now.sh") {
            0o755
        } else {
            0o644
        };
        assert_eq!(header.mode().unwrap(), expected_mode, "{path}");
    }
    // gzip header: no flags (so no file name), mtime 0.
    let bytes = fs::read(&packed.path).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    assert_eq!(bytes[3], 0, "gzip flags");
    assert_eq!(&bytes[4..8], &[0, 0, 0, 0], "gzip mtime");
}

#[test]
fn git_target_ignored_patterns_and_own_archives_are_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    write(&pkg.join(".git/HEAD"), "ref: refs/heads/main\n");
    write(&pkg.join("target/debug/junk"), "x");
    write(
        &pkg.join("src/target/kept.txt"),
        "a nested target/ folder is content",
    );
    write(&pkg.join("notes.log"), "log");
    write(&pkg.join("cache/big.bin"), "cache");
    write(&pkg.join("cache/keep.txt"), "keep");
    write(&pkg.join("data/secret.env"), "TOKEN=1");
    write(
        &pkg.join(".agxignore"),
        "# build leftovers\n*.log\ncache/*\n!cache/keep.txt\n/data/*.env\n",
    );
    // Packing into the package folder itself: the first archive must not end up in the
    // second one, so both runs give the same bytes.
    let first = pack_sample(&pkg, &pkg);
    let first_bytes = fs::read(&first.path).unwrap();
    let second = pack_sample(&pkg, &pkg);
    assert_eq!(first_bytes, fs::read(&second.path).unwrap());

    let names = paths(&second.path);
    for absent in [
        ".git",
        "target",
        "notes.log",
        "cache/big.bin",
        "data/secret.env",
        "acme-weather-1.2.0.tar.gz",
    ] {
        let full = format!("weather-1.2.0/{absent}");
        assert!(
            !names
                .iter()
                .any(|n| n == &full || n.starts_with(&format!("{full}/"))),
            "{absent} should be excluded: {names:?}"
        );
    }
    for present in [
        ".agxignore",
        "cache/keep.txt",
        "src/target/kept.txt",
        "data/empty",
    ] {
        let full = format!("weather-1.2.0/{present}");
        assert!(
            names.contains(&full),
            "{present} should be packed: {names:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn symlinks_are_refused_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    std::os::unix::fs::symlink("../README.md", pkg.join("bin/readme-link")).unwrap();
    let out = tmp.path().join("out");
    let err = pack_dir(&pkg, &name("acme/weather"), &version("1.2.0"), &out).unwrap_err();
    assert!(
        matches!(&err, ArchiveError::SymlinkInPackage { path } if path.ends_with("bin/readme-link")),
        "{err:?}"
    );
    assert!(err.to_string().contains("readme-link"), "{err}");
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert_eq!(
        fs::read_dir(&out).unwrap().count(),
        0,
        "no archive, no temp file"
    );

    // Listing the link in .agxignore makes the package packable.
    write(&pkg.join(".agxignore"), "bin/readme-link\n");
    pack_sample(&pkg, &out);
}

#[test]
fn ignoring_agx_toml_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    write(&pkg.join(".agxignore"), "*.toml\n");
    let err = pack_dir(&pkg, &name("acme/weather"), &version("1.2.0"), tmp.path()).unwrap_err();
    assert!(
        matches!(err, ArchiveError::ManifestIgnored { .. }),
        "{err:?}"
    );
}

#[test]
fn a_package_without_publisher_is_named_name_version() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    let packed = pack_dir(&pkg, &name("notes"), &version("0.3.1"), tmp.path()).unwrap();
    assert_eq!(packed.path.file_name().unwrap(), "notes-0.3.1.tar.gz");
    assert_eq!(paths(&packed.path)[0], "notes-0.3.1");
}

#[test]
fn pack_then_unpack_gives_back_the_files_and_executable_bits() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    let packed = pack_sample(&pkg, &tmp.path().join("out"));
    let dest = tmp.path().join("store/acme/weather/1.2.0");
    unpack(&packed.path, &dest).unwrap();
    for file in ["agx.toml", "agx/tools/now.toml", "bin/now.sh", "README.md"] {
        assert_eq!(
            fs::read(pkg.join(file)).unwrap(),
            fs::read(dest.join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(dest.join("data/empty").is_dir());
    #[cfg(unix)]
    {
        assert_eq!(mode_of(&dest.join("bin/now.sh")) & 0o111, 0o111);
        assert_eq!(mode_of(&dest.join("README.md")) & 0o111, 0);
    }
}

#[test]
fn large_files_stream_through() {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    sample_package(&pkg);
    // 3 MiB of varied bytes, more than any single buffer.
    let data: Vec<u8> = (0..3 * 1024 * 1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    fs::write(pkg.join("data/blob.bin"), &data).unwrap();
    let packed = pack_sample(&pkg, &tmp.path().join("out"));
    let dest = tmp.path().join("unpacked");
    unpack(&packed.path, &dest).unwrap();
    let mut back = Vec::new();
    fs::File::open(dest.join("data/blob.bin"))
        .unwrap()
        .read_to_end(&mut back)
        .unwrap();
    assert!(back == data);
}

/// Every fixture package folder under `registry-fixtures/packages/`.
fn fixture_packages() -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = fs::read_dir(fixtures().join("packages"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("agx.toml").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// `path:`, `sha256:` and `size:` from `agx pack`'s stdout.
fn pack_output(stdout: &[u8]) -> (std::path::PathBuf, String, u64) {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("no `{key}` line in {text:?}"))
            .trim()
            .to_string()
    };
    (
        field("path:").into(),
        field("sha256:"),
        field("size:").parse().unwrap(),
    )
}

#[test]
fn every_fixture_package_loads_and_packs_reproducibly_with_the_cli() {
    let home = TestHome::new();
    let packages = fixture_packages();
    assert!(packages.len() >= 7, "{packages:?}");
    for dir in packages {
        let package = agx_model::manifest::load_package(&dir)
            .unwrap_or_else(|e| panic!("{} does not load: {e:?}", dir.display()));
        let mut outputs = Vec::new();
        for out_dir in ["out1", "out2"] {
            let out = home
                .agx()
                .arg("pack")
                .arg(&dir)
                .arg("-o")
                .arg(home.home().join(out_dir))
                .assert()
                .success();
            let (path, sha256, size) = pack_output(&out.get_output().stdout);
            let bytes = fs::read(&path).unwrap();
            assert_eq!(sha256, hex::encode(sha2::Sha256::digest(&bytes)));
            assert_eq!(size, bytes.len() as u64);
            assert_eq!(
                path.file_name().unwrap().to_str().unwrap(),
                agx_archive::archive_file_name(package.name(), package.version())
            );
            outputs.push(bytes);
        }
        assert!(
            outputs[0] == outputs[1],
            "{} packs differently",
            dir.display()
        );

        // Unpacked, it is the same package, and its tool scripts are still executable.
        let dest = home.home().join("unpacked").join(dir.file_name().unwrap());
        let archive = home
            .home()
            .join("out1")
            .join(agx_archive::archive_file_name(
                package.name(),
                package.version(),
            ));
        unpack(&archive, &dest).unwrap();
        let again = agx_model::manifest::load_package(&dest).unwrap();
        assert_eq!(again.name(), package.name());
        assert_eq!(again.tools.len(), package.tools.len());
        assert_eq!(again.skills, package.skills);
        // Tool programs and skill scripts.
        #[cfg(unix)]
        let script_folders = std::iter::once("bin".to_string()).chain(
            package
                .skills
                .iter()
                .map(|s| format!("{}/scripts", s.folder)),
        );
        #[cfg(unix)]
        for folder in script_folders {
            let Ok(scripts) = fs::read_dir(dir.join(&folder)) else {
                continue;
            };
            for script in scripts {
                let script = script.unwrap().path();
                let name = script.file_name().unwrap();
                assert_eq!(
                    mode_of(&script) & 0o111,
                    0o111,
                    "{} is not executable",
                    script.display()
                );
                assert_eq!(mode_of(&dest.join(&folder).join(name)) & 0o111, 0o111);
            }
        }
    }
}

/// The tool contract's self-test, without a clock: every fixture tool, run as `agx serve`
/// would run it (cwd, input mode, env), answers `{"__test__": true}` with a JSON object.
#[test]
fn every_fixture_tool_answers_the_self_test_with_a_json_object() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    for dir in fixture_packages() {
        let package = agx_model::manifest::load_package(&dir).unwrap();
        for tool in &package.tools {
            let program = agx_model::manifest::resolve_program(&package.dir, &tool.command[0]);
            let mut cmd = Command::new(program);
            cmd.args(&tool.command[1..])
                .current_dir(&package.dir)
                .envs(&tool.env)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped());
            let request = r#"{"__test__": true}"#;
            if tool.input == agx_model::manifest::InputMode::Argv {
                cmd.arg(request);
            }
            let mut child = cmd.spawn().unwrap();
            let mut stdin = child.stdin.take().unwrap();
            if tool.input == agx_model::manifest::InputMode::Stdin {
                stdin.write_all(request.as_bytes()).unwrap();
            }
            drop(stdin);
            let out = child.wait_with_output().unwrap();
            let what = format!("{} tool {}", package.name(), tool.name);
            assert!(out.status.success(), "{what} failed");
            let answer: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{what} did not print JSON: {e}"));
            assert!(answer.is_object(), "{what} printed {answer}");
            assert!(answer.get("error").is_none(), "{what} printed {answer}");
        }
    }
}

#[test]
fn pack_defaults_to_the_current_folder_and_skips_its_own_archives() {
    let home = TestHome::new();
    let pkg = home.home().join("notes");
    copy_tree(&fixtures().join("packages/notes"), &pkg);
    let run = || {
        let out = home.agx().current_dir(&pkg).arg("pack").assert().success();
        pack_output(&out.get_output().stdout)
    };
    let (path, first, _) = run();
    assert_eq!(
        path,
        fs::canonicalize(pkg.join("notes-0.1.0.tar.gz")).unwrap()
    );
    let (_, second, _) = run();
    assert_eq!(
        first, second,
        "the first archive was packed into the second"
    );
}

#[test]
fn pack_command_shows_the_findings_of_an_invalid_package_and_writes_nothing() {
    let home = TestHome::new();
    let invalid = fixtures().join("invalid/unknown-key");
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(
        home.agx()
            .arg("pack")
            .arg(&invalid)
            .arg("-o")
            .arg(home.home().join("out"))
    ));
    assert!(!home.home().join("out").exists());
}

#[test]
fn pack_command_refuses_a_folder_without_a_valid_package() {
    let home = TestHome::new();
    let empty = home.home().join("not-a-package");
    fs::create_dir_all(&empty).unwrap();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(
        home.agx()
            .arg("pack")
            .arg(&empty)
            .arg("-o")
            .arg(home.home().join("out"))
    ));
    assert!(!home.home().join("out").exists());
}
