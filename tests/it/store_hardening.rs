//! Integration tests: the store stays usable when it meets what it did not write (invalid
//! archives, damaged receipts, stray files, a read-only home), against the fixture registry
//! served over HTTP on 127.0.0.1.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use insta::assert_snapshot;
use sha2::Digest;

use crate::support::{Fixture, TestHome, outcome, write_file};

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// Files of an archive: path inside the package, then content.
type Files<'a> = &'a [(&'a str, &'a [u8])];

/// A `.tar.gz` holding `files` under one top folder, as `agx pack` lays archives out.
fn tarball(path: &Path, files: Files) {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_path(format!("pkg-1.0.0/{name}")).unwrap();
        header.set_cksum();
        builder.append(&header, *bytes).unwrap();
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&builder.into_inner().unwrap()).unwrap();
    std::fs::write(path, gz.finish().unwrap()).unwrap();
}

#[test]
fn invalid_archives_show_their_findings_inside_the_package() {
    let home = TestHome::new();
    let cases: [(&str, Files); 3] = [
        ("no_manifest", &[("README.md", b"hello\n")]),
        (
            "not_utf8",
            &[("agx.toml", b"[package]\nname = \"acme/x\"\n\xff\xfe\n")],
        ),
        (
            "unpublishable_name",
            &[(
                "agx.toml",
                b"[package]\nname = \"Acme/Bad Name\"\nversion = \"1.0.0\"\n",
            )],
        ),
    ];
    let _filters = home.snapshot_filters();
    for (case, files) in cases {
        let archive = home.home().join(format!("{case}.tar.gz"));
        tarball(&archive, files);
        let out = outcome(home.agx().args(["install", archive.to_str().unwrap()]));
        assert!(!out.contains(".staging"), "{case}: {out}");
        assert!(!home.agx_home().join("receipts-v1").exists(), "{case}");
        assert_snapshot!(format!("invalid_archive_{case}"), out);
        // The hint works: `agx validate` on the unpacked folder finds the same errors.
        let unpacked = home.home().join(case);
        let gz = flate2::read::GzDecoder::new(std::fs::File::open(&archive).unwrap());
        tar::Archive::new(gz).unpack(&unpacked).unwrap();
        let folder = unpacked.join("pkg-1.0.0");
        let validated = outcome(home.agx().args(["validate", folder.to_str().unwrap()]));
        let code = out.lines().find(|l| l.starts_with("error[")).unwrap();
        assert!(validated.starts_with("exit: 1"), "{validated}");
        let code = code.split(':').next().unwrap();
        assert!(validated.contains(code), "{case}: {validated}");
    }
}

#[test]
fn an_invalid_archive_from_the_registry_names_the_package_and_its_findings() {
    let registry = Fixture::new();
    let home = TestHome::new();
    let root = registry.server.root();
    let archive = root.join("dl/acme/broken/1.0.0.tar.gz");
    std::fs::create_dir_all(archive.parent().unwrap()).unwrap();
    tarball(
        &archive,
        &[("agx.toml", b"[package]\nname = \"acme/broken\"\n")],
    );
    let bytes = std::fs::read(&archive).unwrap();
    let line = serde_json::json!({
        "v": 1, "name": "acme/broken", "vers": "1.0.0",
        "cksum": hex::encode(sha2::Sha256::digest(&bytes)), "size": bytes.len(),
        "deps": {}, "yanked": false, "extension": {},
    });
    write_file(&root.join("packages/acme/broken.json"), format!("{line}\n"));
    let _filters = home.snapshot_filters();
    let out = outcome(registry.agx(&home).args(["install", "acme/broken"]));
    assert!(!out.contains(".staging"), "{out}");
    assert_snapshot!(out);
}

#[test]
fn a_damaged_receipt_is_scoped_to_its_package_and_each_hint_repairs_it() {
    let registry = Fixture::new();
    let home = registry.home_with(&["acme/geo"]);
    let receipt = home.agx_home().join("receipts-v1/acme/geo.toml");
    for garbage in ["\u{0}\u{1}not toml at all [[[", ""] {
        write_file(&receipt, garbage);
        // Other packages install, and list shows them with a warning about the damaged one.
        registry
            .agx(&home)
            .args(["install", "acme/docs"])
            .assert()
            .success();
        let listed = registry.agx(&home).arg("list").output().unwrap();
        let (listing, warnings) = (
            String::from_utf8_lossy(&listed.stdout),
            String::from_utf8_lossy(&listed.stderr),
        );
        assert!(listed.status.success(), "{warnings}");
        assert!(listing.contains("acme/docs") && !listing.contains("acme/geo"));
        assert!(warnings.contains("geo.toml is damaged"), "{warnings}");
        // The first hint it gives: reinstall with --force, naming the package.
        assert!(
            warnings.contains("`agx install --force acme/geo`"),
            "{warnings}"
        );
        registry
            .agx(&home)
            .args(["install", "--force", "acme/geo"])
            .assert()
            .success();
        let listed = registry.agx(&home).arg("list").assert().success();
        let out = listed.get_output();
        assert!(String::from_utf8_lossy(&out.stdout).contains("acme/geo"));
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        registry
            .agx(&home)
            .args(["uninstall", "acme/docs"])
            .assert()
            .success();
    }

    // The other hint: delete the receipt; agx then forgets the package and `agx gc` removes
    // its files.
    write_file(&receipt, "garbage");
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(registry.agx(&home).args(["info", "acme/geo"])));
    let refused = outcome(registry.agx(&home).args(["uninstall", "acme/geo"]));
    assert!(refused.contains("geo.toml is damaged"), "{refused}");
    assert!(refused.contains("or delete"), "{refused}");
    std::fs::remove_file(&receipt).unwrap();
    registry
        .agx(&home)
        .args(["install", "acme/docs"])
        .assert()
        .success();
    assert!(
        home.agx_home().join("store-v1/acme/geo").exists(),
        "kept until gc"
    );
    registry.agx(&home).arg("gc").assert().success();
    assert!(!home.agx_home().join("store-v1/acme/geo").exists());
    assert!(
        !stdout(registry.agx(&home).arg("list")).contains("acme/geo"),
        "forgotten"
    );
    // A package that needs the damaged one repairs it by installing it again.
    write_file(&home.agx_home().join("receipts-v1/acme/docs.toml"), "");
    registry
        .agx(&home)
        .args(["install", "acme/docs"])
        .assert()
        .success();
    assert!(stdout(registry.agx(&home).arg("list")).contains("acme/docs"));
}

#[test]
fn stray_files_in_the_store_and_receipts_are_ignored_and_kept() {
    let registry = Fixture::new();
    let home = registry.home_with(&["acme/geo"]);
    let strays = [
        "store-v1/.DS_Store",
        "store-v1/acme/.DS_Store",
        "store-v1/acme/geo/.DS_Store",
        "receipts-v1/.DS_Store",
        "receipts-v1/acme/.DS_Store",
        "receipts-v1/acme/notes.txt",
    ];
    for stray in strays {
        write_file(&home.agx_home().join(stray), "not agx's");
    }
    registry
        .agx(&home)
        .args(["install", "acme/docs"])
        .assert()
        .success();
    registry
        .agx(&home)
        .args(["uninstall", "acme/docs"])
        .assert()
        .success();
    let listing = stdout(registry.agx(&home).arg("list"));
    assert!(listing.contains("acme/geo"), "{listing}");
    for stray in strays {
        assert!(home.agx_home().join(stray).is_file(), "{stray} was removed");
    }
}

/// Run `agx args…` with AGX_HOME mounted read-only, the way a store baked into a container
/// image is. The tests run as root, for whom file modes do not stop writes, so a read-only
/// bind mount in a private user and mount namespace (`unshare -rm`) is what really gives
/// EROFS. `None` when this machine does not allow such namespaces.
fn on_read_only_home(home: &TestHome, args: &[&str]) -> Option<std::process::Output> {
    on_read_only_home_with_input(home, args, "")
}

/// [`on_read_only_home`] with `input` on stdin.
fn on_read_only_home_with_input(
    home: &TestHome,
    args: &[&str],
    input: &str,
) -> Option<std::process::Output> {
    let probe = std::process::Command::new("unshare")
        .args(["-rm", "true"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        return None;
    }
    let mut cmd = home.command("unshare");
    cmd.args([
        "-rm",
        "sh",
        "-c",
        r#"mount --bind -o ro "$AGX_HOME" "$AGX_HOME" && exec "$@""#,
        "sh",
        crate::support::AGX,
    ])
    .args(args)
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    Some(child.wait_with_output().unwrap())
}

#[test]
fn a_read_only_store_can_be_read() {
    let registry = Fixture::new();
    let home = registry.home_with(&["acme/geo"]);
    let Some(proof) = on_read_only_home(&home, &["install", "--force", "acme/geo"]) else {
        eprintln!("skipped: unshare -rm is not allowed here, so no read-only mount");
        return;
    };
    // The mount really is read-only: a writer fails, naming the lock file.
    assert!(!proof.status.success());
    assert!(
        String::from_utf8_lossy(&proof.stderr).contains("Read-only file system"),
        "{}",
        String::from_utf8_lossy(&proof.stderr)
    );
    let listed = on_read_only_home(&home, &["-v", "list"]).unwrap();
    let stderr = String::from_utf8_lossy(&listed.stderr);
    assert!(listed.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&listed.stdout).contains("acme/geo"));
    assert!(stderr.contains("without its lock"), "{stderr}");
    let info = on_read_only_home(&home, &["info", "acme/geo"]).unwrap();
    assert!(
        info.status.success(),
        "{}",
        String::from_utf8_lossy(&info.stderr)
    );
    // A client launching the server: it loads the package and answers until stdin closes.
    let requests = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "\n",
    );
    let served = on_read_only_home_with_input(&home, &["serve", "acme/geo/geo"], requests).unwrap();
    let answers = String::from_utf8_lossy(&served.stdout);
    assert!(
        served.status.success(),
        "{}",
        String::from_utf8_lossy(&served.stderr)
    );
    assert!(answers.contains(r#""name":"geocode""#), "{answers}");
}

/// Installs download into staging folders of their own, without the store lock: run at once,
/// with dependencies in common, each commits what it needs and none undoes another's work.
#[test]
fn concurrent_installs_with_shared_dependencies_all_land() {
    let fixture = Fixture::new();
    let home = TestHome::new();
    let packages = ["acme/weather", "acme/geo", "acme/research", "acme/docs"];
    let outputs: Vec<std::process::Output> = std::thread::scope(|s| {
        let runs: Vec<_> = packages
            .iter()
            .map(|package| {
                let mut cmd = fixture.agx(&home);
                cmd.args(["install", package]);
                s.spawn(move || cmd.output().unwrap())
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (package, out) in packages.iter().zip(&outputs) {
        assert!(
            out.status.success(),
            "{package}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let listed = stdout(home.agx().args(["list", "--json"]));
    for package in packages.iter().chain(&["contoso/web"]) {
        assert!(
            listed.contains(&format!("\"{package}\"")),
            "{package}: {listed}"
        );
    }
    let receipts = home.agx_home().join("receipts-v1/acme/geo.toml");
    let geo = std::fs::read_to_string(receipts).unwrap();
    assert!(geo.contains("explicit = true"), "{geo}");
    let staging = home.agx_home().join("store-v1/.staging");
    let left: Vec<_> = std::fs::read_dir(staging)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
