//! MCPB bundles: a real bundle packed by the official `mcpb` CLI (pinned in
//! scripts/ci/mcpb-cli.sh) from `registry-fixtures/mcpb/hello`, installed from a file and
//! from a loopback URL with `--sha256`, served and called, its user_config set through
//! `agx config`; and hostile bundles, each refused with its error and the store unchanged.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::json;
use sha2::Digest;
use zip::write::SimpleFileOptions;

use crate::ecosystem::{Session, agx, stderr, store_files};
use crate::support::http::HttpServer;
use crate::support::{TestHome, copy_tree, repo_root};

const PACKAGE: &str = "mcpb/hello-bundle";
const SERVER: &str = "mcpb/hello-bundle/hello-bundle";

/// The official `mcpb` CLI (scripts/ci/mcpb-cli.sh installs it once).
fn mcpb_cli() -> &'static str {
    static CLI: OnceLock<String> = OnceLock::new();
    CLI.get_or_init(|| {
        let out = Command::new(repo_root().join("scripts/ci/mcpb-cli.sh"))
            .output()
            .expect("scripts/ci/mcpb-cli.sh runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    })
}

/// The fixture bundle, packed once per test run by the official CLI.
pub(crate) fn hello_bundle() -> &'static Path {
    static BUNDLE: OnceLock<PathBuf> = OnceLock::new();
    BUNDLE.get_or_init(|| {
        let cli = mcpb_cli();
        let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mcpb-fixture");
        let _ = std::fs::remove_dir_all(&work);
        copy_tree(
            &repo_root().join("registry-fixtures/mcpb/hello"),
            &work.join("hello"),
        );
        let bundle = work.join("hello-bundle.mcpb");
        let out = Command::new(cli)
            .arg("pack")
            .arg(work.join("hello"))
            .arg(&bundle)
            .output()
            .expect("mcpb pack runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        bundle
    })
}

pub(crate) fn sha256_of(path: &Path) -> String {
    hex::encode(sha2::Sha256::digest(std::fs::read(path).unwrap()))
}

fn greet(home: &TestHome) -> String {
    let mut session = Session::start(home, SERVER);
    let init = session.initialize();
    assert_eq!(
        init["result"]["serverInfo"]["name"], "hello-bundle",
        "{init}"
    );
    let reply = session.request(
        3,
        "tools/call",
        json!({"name": "greet", "arguments": {"name": "agx"}}),
    );
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_bundle_file_installs_serves_with_its_settings_and_uninstalls() {
    let home = TestHome::new();
    let bundle = hello_bundle();
    let out = agx(&home, &["install", bundle.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));

    let list = agx(&home, &["list"]);
    let listed = String::from_utf8_lossy(&list.stdout).into_owned();
    assert!(listed.contains(PACKAGE), "{listed}");
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/mcpb/hello-bundle.toml"))
            .unwrap();
    assert!(
        receipt.contains(&format!("integrity = [\"sha256:{}\"]", sha256_of(bundle))),
        "{receipt}"
    );
    assert!(receipt.contains("version = \"1.2.0\""), "{receipt}");

    // The default of user_config.greeting, then the value `agx config set` gives it.
    assert_eq!(greet(&home), "Hello, agx!");
    let set = agx(&home, &["config", "set", PACKAGE, "greeting", "Howdy"]);
    assert!(set.status.success(), "{}", stderr(&set));
    assert_eq!(greet(&home), "Howdy, agx!");

    // The same bundle again is a no-op.
    let again = agx(&home, &["install", bundle.to_str().unwrap()]);
    assert!(again.status.success(), "{}", stderr(&again));

    let out = agx(&home, &["uninstall", PACKAGE]);
    assert!(out.status.success(), "{}", stderr(&out));
    let left: Vec<String> = store_files(&home)
        .into_iter()
        .filter(|f| !f.starts_with("settings"))
        .collect();
    assert!(left.is_empty(), "uninstall left {left:?}");
}

#[test]
fn a_bundle_url_needs_and_checks_its_sha256() {
    let served = tempfile::tempdir().unwrap();
    std::fs::copy(hello_bundle(), served.path().join("hello.mcpb")).unwrap();
    let server = HttpServer::serve(served.path());
    let url = format!("{}/hello.mcpb", server.url());
    let home = TestHome::new();

    let out = agx(&home, &["install", &url]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!(
            "error: {url}: a bundle from a URL needs its sha256"
        )),
        "{}",
        stderr(&out)
    );

    let wrong = "0".repeat(64);
    let out = agx(&home, &["install", &url, "--sha256", &wrong]);
    assert!(!out.status.success());
    let actual = sha256_of(hello_bundle());
    assert!(
        stderr(&out).contains(&format!(
            "error: {url}: the sha256 is {actual}, not the expected {wrong}"
        )),
        "{}",
        stderr(&out)
    );
    assert!(store_files(&home).is_empty(), "{:?}", store_files(&home));

    let out = agx(&home, &["install", &url, "--sha256", &actual]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(greet(&home), "Hello, agx!");
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/mcpb/hello-bundle.toml"))
            .unwrap();
    assert!(
        receipt.contains(&format!("spec = \"mcpb:{url}\"")),
        "{receipt}"
    );
}

/// A zip written entry by entry.
fn zip_file(
    path: &Path,
    build: impl FnOnce(&mut zip::ZipWriter<File>) -> zip::result::ZipResult<()>,
) {
    let mut writer = zip::ZipWriter::new(File::create(path).unwrap());
    build(&mut writer).unwrap();
    writer.finish().unwrap();
}

fn manifest(server_type: &str) -> String {
    json!({
        "manifest_version": "0.3",
        "name": "hostile",
        "version": "1.0.0",
        "description": "d",
        "author": {"name": "a"},
        "server": {
            "type": server_type,
            "entry_point": "server/index.js",
            "mcp_config": {"command": "node", "args": ["${__dirname}/server/index.js"]}
        }
    })
    .to_string()
}

/// Install `bundle` and return its error output; the store must be as it was.
fn refused(home: &TestHome, bundle: &Path) -> String {
    let before = store_files(home);
    let out = agx(home, &["install", bundle.to_str().unwrap()]);
    assert!(!out.status.success(), "{} was accepted", bundle.display());
    assert_eq!(
        store_files(home),
        before,
        "{} changed the store",
        bundle.display()
    );
    let staging = home.agx_home().join("store-v1/.staging");
    let leftovers: Vec<_> = std::fs::read_dir(&staging)
        .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(leftovers.is_empty(), "staging keeps {leftovers:?}");
    stderr(&out)
}

#[test]
fn hostile_bundles_are_refused_and_leave_the_store_unchanged() {
    let home = TestHome::new();
    let dir = home.home().join("bundles");
    std::fs::create_dir_all(&dir).unwrap();
    let file = SimpleFileOptions::default();
    let with_manifest =
        |name: &str,
         server_type: &str,
         extra: &dyn Fn(&mut zip::ZipWriter<File>) -> zip::result::ZipResult<()>| {
            let path = dir.join(name);
            zip_file(&path, |w| {
                w.start_file("manifest.json", file)?;
                w.write_all(manifest(server_type).as_bytes())?;
                extra(w)
            });
            path
        };

    let slip = with_manifest("slip.mcpb", "node", &|w| {
        w.start_file("../../evil.js", file)?;
        Ok(w.write_all(b"boom")?)
    });
    let err = refused(&home, &slip);
    assert!(
        err.contains(&format!("error: refusing to unpack {}", slip.display())),
        "{err}"
    );
    assert!(
        err.contains("entry `../../evil.js` climbs out of its folder with `..`"),
        "{err}"
    );

    let link = with_manifest("link.mcpb", "node", &|w| {
        w.add_symlink("server/index.js", "/etc/passwd", file)
    });
    let err = refused(&home, &link);
    assert!(
        err.contains("entry `server/index.js` is a symbolic link"),
        "{err}"
    );

    // 600 MiB of zeros compress to well under a megabyte: past the 512 MiB cap.
    let bomb = with_manifest("bomb.mcpb", "node", &|w| {
        w.start_file("server/index.js", file.large_file(true))?;
        let chunk = vec![0u8; 1024 * 1024];
        for _ in 0..600 {
            w.write_all(&chunk)?;
        }
        Ok(())
    });
    assert!(std::fs::metadata(&bomb).unwrap().len() < 2 * 1024 * 1024);
    let err = refused(&home, &bomb);
    assert!(
        err.contains("the archive expands past the limit of 512 MiB"),
        "{err}"
    );

    let unknown = with_manifest("unknown.mcpb", "java", &|w| {
        w.start_file("server/index.js", file)?;
        Ok(w.write_all(b"")?)
    });
    let err = refused(&home, &unknown);
    assert!(
        err.contains("manifest.json has server.type `java`; agx knows node, python, binary, uv"),
        "{err}"
    );

    let broken = dir.join("broken.mcpb");
    zip_file(&broken, |w| {
        w.start_file("manifest.json", file)?;
        Ok(w.write_all(b"{\n  \"manifest_version\": \"0.3\",\n  \"name\": \"x\",,\n}")?)
    });
    let err = refused(&home, &broken);
    assert!(err.contains("manifest.json:3:15: "), "{err}");

    let no_manifest = dir.join("none.mcpb");
    zip_file(&no_manifest, |w| {
        w.start_file("server/index.js", file)?;
        Ok(w.write_all(b"")?)
    });
    let err = refused(&home, &no_manifest);
    assert!(err.contains("it has no manifest.json at its top"), "{err}");
}

#[test]
fn a_local_bundle_is_checked_against_a_given_sha256() {
    let home = TestHome::new();
    let bundle = hello_bundle();
    let wrong = "f".repeat(64);
    let out = agx(
        &home,
        &["install", bundle.to_str().unwrap(), "--sha256", &wrong],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!("not the expected {wrong}")),
        "{}",
        stderr(&out)
    );
    assert!(store_files(&home).is_empty());
}

#[test]
fn sha256_without_exactly_one_bundle_is_refused() {
    let home = TestHome::new();
    let out = agx(
        &home,
        &["install", "npm:left-pad@1.3.0", "--sha256", &"a".repeat(64)],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("error: --sha256 checks one MCPB bundle, and 0 were given"),
        "{}",
        stderr(&out)
    );
    assert!(store_files(&home).is_empty());
}

/// A bundle of type `binary` run by `sh` (so no runtime but the shell is needed), with
/// `manifest` merged over a 0.3 manifest.
fn sh_bundle(path: &Path, manifest: serde_json::Value) {
    let mut doc = json!({
        "manifest_version": "0.3",
        "name": "typed",
        "version": "1.0.0",
        "description": "d",
        "author": {"name": "a"},
        "server": {
            "type": "binary",
            "entry_point": "server/run.sh",
            "mcp_config": {"command": "sh", "args": ["${__dirname}/server/run.sh"]}
        }
    });
    for (key, value) in manifest.as_object().unwrap() {
        if value.is_null() {
            doc.as_object_mut().unwrap().remove(key);
        } else {
            doc[key] = value.clone();
        }
    }
    zip_file(path, |w| {
        let file = SimpleFileOptions::default();
        w.start_file("manifest.json", file)?;
        w.write_all(doc.to_string().as_bytes())?;
        w.start_file("server/run.sh", file)?;
        Ok(w.write_all(b"exit 0\n")?)
    });
}

#[test]
fn string_defaults_are_read_as_their_declared_type_with_a_warning() {
    let home = TestHome::new();
    let bundle = home.home().join("typed.mcpb");
    // As the current `mcpb` CLI packs its own hello-world-node example.
    sh_bundle(
        &bundle,
        json!({"user_config": {
            "max_results": {"type": "number", "title": "Max", "default": "10"},
            "debug": {"type": "boolean", "title": "Debug", "default": "true"}
        }}),
    );
    let out = agx(&home, &["install", bundle.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "user_config.max_results: the default \"10\" is a string; agx reads it as the number 10"
        ),
        "{err}"
    );
    assert!(
        err.contains("user_config.debug: the default \"true\""),
        "{err}"
    );
    let out = agx(&home, &["config", "get", "mcpb/typed", "max_results"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "10");
}

#[test]
fn manifest_version_0_1_bundles_install_with_their_field_names() {
    let home = TestHome::new();
    // As the official examples write 0.1: `dxt_version`, alone or beside `manifest_version`.
    for (name, versions) in [
        (
            "old",
            json!({"manifest_version": null, "dxt_version": "0.1"}),
        ),
        (
            "both",
            json!({"manifest_version": "0.1", "dxt_version": "0.1"}),
        ),
    ] {
        let bundle = home.home().join(format!("{name}.mcpb"));
        let mut manifest = versions;
        manifest["name"] = json!(name);
        sh_bundle(&bundle, manifest);
        let out = agx(&home, &["install", bundle.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
    }
    let bundle = home.home().join("none.mcpb");
    sh_bundle(&bundle, json!({"manifest_version": null, "name": "none"}));
    let err = refused(&home, &bundle);
    assert!(
        err.contains("manifest.json has no manifest_version (nor the older dxt_version)"),
        "{err}"
    );
}

/// A bundle's `directory` and `file` options are what its confined server may write and
/// read (docs/sandbox.md, "MCPB folders and files").
#[test]
fn a_confined_bundle_writes_its_configured_folder_and_reads_its_configured_file() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    let bundle = home.home().join("dirs.mcpb");
    let manifest = json!({
        "manifest_version": "0.3",
        "name": "dirs",
        "version": "1.0.0",
        "description": "d",
        "author": {"name": "a"},
        "server": {
            "type": "binary",
            "entry_point": "server/run.sh",
            "mcp_config": {
                "command": "sh",
                "args": ["${__dirname}/server/run.sh"],
                "env": {"OUT_DIR": "${user_config.out_dir}", "NOTES": "${user_config.notes}"}
            }
        },
        "user_config": {
            "out_dir": {"type": "directory", "title": "Output folder"},
            "notes": {"type": "file", "title": "Notes"}
        }
    });
    // The server tries what its options name, and the same beside them.
    let script = r#"try() { label=$1; shift; if "$@" 2>/dev/null; then echo "$label: allowed"; else echo "$label: denied"; fi; }
try write-configured sh -c 'echo x > "$OUT_DIR/ok.txt"'
try write-beside sh -c 'echo x > "$HOME/beside.txt"'
try read-configured sh -c 'cat "$NOTES" >/dev/null'
try read-beside sh -c 'cat "$HOME/secret.txt" >/dev/null'
"#;
    zip_file(&bundle, |w| {
        let file = SimpleFileOptions::default();
        w.start_file("manifest.json", file)?;
        w.write_all(manifest.to_string().as_bytes())?;
        w.start_file("server/run.sh", file)?;
        Ok(w.write_all(script.as_bytes())?)
    });
    let out_dir = home.home().join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let notes = home.home().join("notes.txt");
    std::fs::write(&notes, "notes\n").unwrap();
    std::fs::write(home.home().join("secret.txt"), "secret\n").unwrap();
    for args in [
        vec!["install", bundle.to_str().unwrap()],
        vec![
            "config",
            "set",
            "mcpb/dirs",
            "out_dir",
            out_dir.to_str().unwrap(),
        ],
        vec![
            "config",
            "set",
            "mcpb/dirs",
            "notes",
            notes.to_str().unwrap(),
        ],
        vec!["permissions", "set", "mcpb/dirs/dirs", "--network", "any"],
    ] {
        let out = agx(&home, &args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    // The test home is in the system's temporary folder, which `{tmp}` grants: the server
    // gets a temporary folder of its own, outside the home.
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = home
        .agx()
        .args(["serve", "mcpb/dirs/dirs"])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "write-configured: allowed",
        "write-beside: denied",
        "read-configured: allowed",
        "read-beside: denied",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
    assert!(out_dir.join("ok.txt").exists());
}

/// A copy of the fixture bundle at `path`, signed by `mcpb sign` with a new self-signed
/// certificate (RSA 2048, made by openssl) for `subject`.
fn signed_copy(path: &Path, subject: &str) {
    let dir = path.parent().unwrap();
    let (cert, key) = (path.with_extension("crt"), path.with_extension("key"));
    let out = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj", subject,
        ])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::copy(hello_bundle(), path).unwrap();
    let out = Command::new(mcpb_cli())
        .arg("sign")
        .arg(path)
        .arg("--cert")
        .arg(&cert)
        .arg("--key")
        .arg(&key)
        .output()
        .expect("mcpb sign runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_signed_bundle_names_its_signer_and_a_changed_or_resigned_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let acme = dir.path().join("acme.mcpb");
    signed_copy(&acme, "/CN=Acme Tools/O=Acme");
    let home = TestHome::new();
    let out = agx(&home, &["install", acme.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stderr(&out);
    assert!(
        shown.contains("Provenance mcpb/hello-bundle v1.2.0: O=Acme,CN=Acme Tools, key sha256:")
            && shown.contains("(MCPB signature, a self-signed certificate)"),
        "{shown}"
    );
    assert_eq!(greet(&home), "Hello, agx!");
    let out = agx(&home, &["verify", PACKAGE]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("signature verified at install (not kept)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // The same bundle signed with another key: refused, both named, nothing changed.
    let mallory = dir.path().join("mallory.mcpb");
    signed_copy(&mallory, "/CN=Acme Tools/O=Acme");
    let before = store_files(&home);
    let out = agx(&home, &["install", mallory.to_str().unwrap()]);
    assert!(!out.status.success(), "another key's signature installed");
    let error = stderr(&out);
    assert!(
        error.contains("but its installed version was signed by O=Acme,CN=Acme Tools"),
        "{error}"
    );
    assert!(error.contains("--allow-signer-change"), "{error}");
    assert_eq!(store_files(&home), before);

    // A byte of the zip changed after signing (a local header's time, which unzipping does
    // not read): the signature no longer covers it.
    let mut changed = std::fs::read(&acme).unwrap();
    assert_eq!(&changed[..4], b"PK\x03\x04");
    changed[10] ^= 1;
    let changed_path = dir.path().join("changed.mcpb");
    std::fs::write(&changed_path, changed).unwrap();
    let fresh = TestHome::new();
    let out = agx(&fresh, &["install", changed_path.to_str().unwrap()]);
    assert!(!out.status.success(), "a changed bundle installed");
    let error = stderr(&out);
    assert!(
        error.contains("the bundle changed after it was signed"),
        "{error}"
    );
    assert!(store_files(&fresh).is_empty());

    // An MCPB signature is not what `require = "signed"` asks for: any key can make one.
    let strict = TestHome::new();
    std::fs::create_dir_all(strict.agx_home()).unwrap();
    std::fs::write(
        strict.agx_home().join("policy.toml"),
        "require = \"signed\"\n",
    )
    .unwrap();
    let out = agx(&strict, &["install", acme.to_str().unwrap()]);
    assert!(
        !out.status.success(),
        "a self-signed bundle passed require = signed"
    );
    assert!(stderr(&out).contains("is not signed"), "{}", stderr(&out));

    // An unsigned bundle is unsigned.
    let out = agx(&fresh, &["install", hello_bundle().to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("Provenance mcpb/hello-bundle v1.2.0: unsigned"),
        "{}",
        stderr(&out)
    );
}
