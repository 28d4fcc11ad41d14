//! Signed registries (docs/registry.md, "Signed registries"): `agx registry keys generate | sign |
//! refresh-timestamp | rotate`, sources pinned with `--root`, and every failure cause a
//! client must refuse, each leaving the store as it was.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::support::http::HttpServer;
use crate::support::{TestHome, copy_tree, fixtures, tree, write_package};

/// The fixture registry copied into `home`, with keys beside it, signed.
struct Signed {
    registry: PathBuf,
    keys: PathBuf,
}

fn signed_registry(home: &TestHome) -> Signed {
    signed_registry_in(home, "registry")
}

fn pin(home: &TestHome, name: &str, location: &str, root: &Path) {
    home.agx()
        .args(["registry", "add-source", name, location, "--root"])
        .arg(root)
        .assert()
        .success()
        .stderr(predicate::str::contains("signed: TUF root v1"));
}

fn pinned(home: &TestHome) -> Signed {
    let signed = signed_registry(home);
    pin(
        home,
        "corp",
        signed.registry.to_str().unwrap(),
        &signed.registry.join("metadata/1.root.json"),
    );
    signed
}

fn store(home: &TestHome) -> PathBuf {
    home.agx_home().join("store-v1")
}

/// The store's packages and receipts (not its lock file and empty staging folder, which
/// any run creates).
fn store_tree(home: &TestHome) -> std::collections::BTreeMap<String, String> {
    let store = store(home);
    let mut listing = if store.exists() {
        tree(&store)
    } else {
        Default::default()
    };
    listing.retain(|path, _| !path.starts_with('.'));
    listing
}

/// Change one byte of a registry file behind its signature's back.
fn flip_byte(path: &Path, at: usize) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[at] ^= 1;
    std::fs::write(path, bytes).unwrap();
}

/// Change acme/weather's index file (its description) behind its signature's back.
fn tamper_weather_index(registry: &Path) {
    let index = registry.join("packages/acme/weather.json");
    let text = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, text.replace("Weather", "Weathr")).unwrap();
}

/// Install from `corp` and expect a refusal naming `cause`, with nothing installed.
fn refused(home: &TestHome, cause: &str) {
    let before = store_tree(home);
    home.agx()
        .args(["--registry", "corp", "install", "acme/weather"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("registry corp refused"))
        .stderr(predicate::str::contains(cause));
    assert_eq!(
        store_tree(home),
        before,
        "a refused install changes nothing"
    );
}

#[test]
fn a_signed_registry_installs_verified_and_says_so() {
    let home = TestHome::new();
    pinned(&home);
    home.agx()
        .args(["--registry", "corp", "install", "acme/weather"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Verified what was installed, against tuf: corp, root v1",
        ));
    home.agx()
        .args(["info", "acme/weather"])
        .assert()
        .success()
        .stdout(predicate::str::contains("verified (tuf: corp, root v1)"));
    let list = home.agx().args(["list", "--json"]).output().unwrap();
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    for package in list["packages"].as_array().unwrap() {
        assert_eq!(package["signature"], "verified (tuf: corp, root v1)");
    }
    let found = home
        .agx()
        .args(["--registry", "corp", "search", "weather", "--json"])
        .output()
        .unwrap();
    let found: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert_eq!(
        found["results"][0]["signature"],
        "verified (tuf: corp, root v1)"
    );
    home.agx()
        .args(["--registry", "corp", "search", "weather"])
        .assert()
        .success()
        .stdout(predicate::str::contains("from corp (signed, verified)"));
}

#[test]
fn an_unsigned_registry_is_installed_from_as_unsigned() {
    let home = TestHome::new();
    let registry = home.home().join("registry");
    copy_tree(&fixtures().join("registry"), &registry);
    home.agx()
        .arg("--registry")
        .arg(&registry)
        .args(["install", "acme/geo"])
        .assert()
        .success()
        .stderr(predicate::str::contains("Verified").not());
    home.agx()
        .args(["info", "acme/geo"])
        .assert()
        .success()
        .stdout(predicate::str::contains(", unsigned)"));
}

#[test]
fn a_tampered_archive_is_refused() {
    let home = TestHome::new();
    let signed = pinned(&home);
    flip_byte(&signed.registry.join("dl/acme/geo/1.0.0.tar.gz"), 100);
    refused(&home, "dl/acme/geo/1.0.0.tar.gz");
    refused(&home, "tampered");
}

#[test]
fn a_tampered_index_file_is_refused() {
    let home = TestHome::new();
    let signed = pinned(&home);
    tamper_weather_index(&signed.registry);
    refused(&home, "packages/acme/weather.json: its length");
}

#[test]
fn an_older_timestamp_is_a_rollback() {
    let home = TestHome::new();
    let signed = pinned(&home);
    let timestamp = signed.registry.join("metadata/timestamp.json");
    let old = std::fs::read(&timestamp).unwrap();
    refresh_timestamp(&home, &signed, &[]);
    home.agx()
        .args(["--registry", "corp", "search", "weather"])
        .assert()
        .success();
    std::fs::write(&timestamp, old).unwrap();
    refused(
        &home,
        "version 1 is older than the trusted version 2 (a rollback",
    );
}

fn refresh_timestamp(home: &TestHome, signed: &Signed, extra: &[&str]) {
    home.agx()
        .args(["registry", "refresh-timestamp"])
        .arg(&signed.registry)
        .arg("--keys")
        .arg(&signed.keys)
        .args(extra)
        .assert()
        .success();
}

#[test]
fn an_expired_timestamp_is_a_freeze() {
    let home = TestHome::new();
    let signed = pinned(&home);
    refresh_timestamp(&home, &signed, &["--expires", "timestamp=1s"]);
    std::thread::sleep(std::time::Duration::from_millis(2100));
    refused(&home, "timestamp.json: expired on");
}

#[test]
fn a_signed_source_without_metadata_is_a_downgrade() {
    let home = TestHome::new();
    let signed = pinned(&home);
    std::fs::remove_dir_all(signed.registry.join("metadata")).unwrap();
    refused(&home, "corp was signed, but serves no TUF metadata now");
}

#[test]
fn a_root_signed_by_other_keys_is_refused_when_pinning() {
    let home = TestHome::new();
    let signed = signed_registry(&home);
    let other = signed_registry_in(&home, "other");
    let config = home.agx_home().join("config.toml");
    home.agx()
        .args(["registry", "add-source", "corp"])
        .arg(&signed.registry)
        .arg("--root")
        .arg(other.registry.join("metadata/1.root.json"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "signed by 0 of the 1 trusted keys",
        ));
    assert!(
        !config.exists() || !std::fs::read_to_string(&config).unwrap().contains("corp"),
        "a source that fails its root is not configured"
    );
    assert!(!home.agx_home().join("trust/corp").exists());
}

fn signed_registry_in(home: &TestHome, name: &str) -> Signed {
    let registry = home.home().join(name);
    let keys = home.home().join(format!("{name}-keys"));
    copy_tree(&fixtures().join("registry"), &registry);
    home.agx()
        .args(["registry", "keys", "generate"])
        .arg(&keys)
        .assert()
        .success();
    home.agx()
        .args(["registry", "sign"])
        .arg(&registry)
        .arg("--keys")
        .arg(&keys)
        .assert()
        .success()
        .stderr(predicate::str::contains("hashed bins"));
    Signed { registry, keys }
}

#[test]
fn publishing_into_a_signed_registry_needs_its_keys_and_resigns() {
    let home = TestHome::new();
    let signed = pinned(&home);
    let package = write_package(home.home(), "acme/geo", "2.0.0", &[], "locate");
    let before = tree(&signed.registry);
    home.agx()
        .args(["registry", "add"])
        .arg(&signed.registry)
        .arg(&package)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "is a signed registry and changing it needs its keys",
        ));
    assert_eq!(tree(&signed.registry), before, "nothing was published");
    home.agx()
        .args(["registry", "add"])
        .arg(&signed.registry)
        .arg(&package)
        .arg("--keys")
        .arg(&signed.keys)
        .assert()
        .success()
        .stderr(predicate::str::contains("Signed"));
    home.agx()
        .args(["--registry", "corp", "install", "acme/geo@2"])
        .assert()
        .success()
        .stderr(predicate::str::contains("Installed acme/geo v2.0.0"));
    home.agx()
        .args(["registry", "yank"])
        .arg(&signed.registry)
        .arg("acme/geo@2.0.0")
        .arg("--keys")
        .arg(&signed.keys)
        .assert()
        .success();
    home.agx()
        .args(["--registry", "corp", "info", "acme/geo"])
        .assert()
        .success();
}

#[cfg(unix)]
#[test]
fn private_keys_are_written_for_their_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let home = TestHome::new();
    let signed = signed_registry(&home);
    for role in ["root", "targets", "snapshot", "timestamp"] {
        let mode = std::fs::metadata(signed.keys.join(format!("{role}-1.key")))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{role}");
    }
    home.agx()
        .args(["registry", "keys", "generate"])
        .arg(&signed.keys)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("already holds keys"));
}

#[test]
fn a_rotated_root_is_followed_from_the_pinned_one() {
    let home = TestHome::new();
    let signed = pinned(&home);
    home.agx()
        .args(["--registry", "corp", "search", "weather"])
        .assert()
        .success();
    home.agx()
        .args(["registry", "rotate", "root"])
        .arg(&signed.registry)
        .arg("--keys")
        .arg(&signed.keys)
        .assert()
        .success()
        .stderr(predicate::str::contains("root v2 names the new keys"));
    assert!(signed.registry.join("metadata/2.root.json").is_file());
    home.agx()
        .args(["--registry", "corp", "install", "acme/geo"])
        .assert()
        .success()
        .stderr(predicate::str::contains("tuf: corp, root v2"));
}

#[test]
fn a_signed_source_is_pinned_on_first_use_only_when_asked() {
    let home = TestHome::new();
    let signed = signed_registry(&home);
    home.agx()
        .args(["registry", "add-source", "corp"])
        .arg(&signed.registry)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is signed, and agx cannot ask"))
        .stderr(predicate::str::contains("--root root.json"));
    home.agx()
        .args(["registry", "add-source", "corp", "--yes"])
        .arg(&signed.registry)
        .assert()
        .success()
        .stderr(predicate::str::contains("needs 1 of these keys"))
        .stderr(predicate::str::contains("signed: TUF root v1"));
}

#[test]
fn a_signed_registry_over_http_installs_and_refuses_a_changed_archive() {
    let home = TestHome::new();
    let signed = signed_registry(&home);
    let server = HttpServer::serve(&signed.registry);
    pin(
        &home,
        "corp",
        &server.url(),
        &signed.registry.join("metadata/1.root.json"),
    );
    home.agx()
        .args(["--registry", "corp", "install", "acme/geo"])
        .assert()
        .success()
        .stderr(predicate::str::contains("tuf: corp, root v1"));
    // The signed metadata vouches for the cached index file: no request for it again.
    let before = server.count("/packages/acme/geo.json");
    home.agx()
        .args(["--registry", "corp", "info", "acme/geo"])
        .assert()
        .success();
    assert_eq!(server.count("/packages/acme/geo.json"), before);
    // A new version re-signs its bin: the cached copy no longer matches and is fetched.
    let package = write_package(home.home(), "acme/geo", "3.0.0", &[], "locate");
    home.agx()
        .args(["registry", "add"])
        .arg(&signed.registry)
        .arg(&package)
        .arg("--keys")
        .arg(&signed.keys)
        .assert()
        .success();
    home.agx()
        .args(["--registry", "corp", "install", "acme/geo@3"])
        .assert()
        .success()
        .stderr(predicate::str::contains("acme/geo v1.0.0 -> v3.0.0"));
    assert_eq!(server.count("/packages/acme/geo.json"), before + 1);
    let archive = signed.registry.join("dl/acme/weather/1.2.0.tar.gz");
    flip_byte(
        &archive,
        std::fs::metadata(&archive).unwrap().len() as usize - 1,
    );
    refused(&home, "dl/acme/weather/1.2.0.tar.gz");
}

#[test]
fn a_lock_records_the_root_keys_and_sync_refuses_other_ones() {
    let home = TestHome::new();
    let signed = pinned(&home);
    let project = home.home().join("project");
    std::fs::create_dir_all(&project).unwrap();
    home.agx()
        .current_dir(&project)
        .args(["--registry", "corp", "add", "acme/geo"])
        .assert()
        .success();
    let lock = std::fs::read_to_string(project.join("agx.lock")).unwrap();
    assert!(lock.contains("root_keys = ["), "{lock}");

    // Another machine pins a root signed by other keys for the same location.
    let other = TestHome::new();
    let impostor = signed_registry_in(&other, "impostor");
    copy_tree(&impostor.registry.join("metadata"), &other.home().join("m"));
    std::fs::remove_dir_all(signed.registry.join("metadata")).unwrap();
    copy_tree(&other.home().join("m"), &signed.registry.join("metadata"));
    pin(
        &other,
        "corp",
        signed.registry.to_str().unwrap(),
        &signed.registry.join("metadata/1.root.json"),
    );
    other
        .agx()
        .current_dir(&project)
        .args(["sync", "--locked"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("signed by other keys"));
}

#[test]
fn a_registry_location_given_with_a_root_is_verified_for_that_run() {
    let home = TestHome::new();
    let signed = signed_registry(&home);
    let root = signed.registry.join("metadata/1.root.json");
    home.agx()
        .arg("--registry")
        .arg(&signed.registry)
        .arg("--root")
        .arg(&root)
        .args(["install", "acme/geo"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Verified what was installed, against tuf:",
        ));
    tamper_weather_index(&signed.registry);
    home.agx()
        .arg("--registry")
        .arg(&signed.registry)
        .arg("--root")
        .arg(&root)
        .args(["install", "acme/weather"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("tampered"));
    // Without the root, the same location is read unsigned, as before.
    home.agx()
        .arg("--registry")
        .arg(&signed.registry)
        .args(["info", "acme/weather"])
        .assert()
        .success();
    pin(&home, "corp", signed.registry.to_str().unwrap(), &root);
    home.agx()
        .args(["--registry", "corp", "--root"])
        .arg(&root)
        .args(["search", "weather"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("`corp` is a configured source"));
}
