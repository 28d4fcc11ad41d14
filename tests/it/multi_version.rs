//! Integration tests: several versions of a package side by side in the store, held by the
//! user and by projects (`agx_ops::install_locked`, which `agx sync` calls), served pinned
//! with `agx serve NAME@=VERSION`, and collected by `agx gc`.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use agx_core::name::PackageName;
use agx_core::paths::AgxPaths;
use agx_core::report::Silent;
use agx_ops::{self as ops, LockedPackage};
use insta::assert_snapshot;
use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::Value;

use crate::support::http::Fault;
use crate::support::{AGX, Fixture, TestHome, outcome, tree, write_package};

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(cmd: &mut assert_cmd::Command) -> Value {
    serde_json::from_str(&stdout(cmd)).unwrap()
}

/// `name@version held by roots` of every installed version, from `agx list --json`, with
/// project folders shown by their last segment.
fn holdings(fx: &Fixture, home: &TestHome) -> Vec<String> {
    let list = json(fx.agx(home).args(["list", "--json"]));
    list["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let roots: Vec<&str> = p["roots"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().rsplit('/').next().unwrap())
                .collect();
            format!(
                "{}@{} {}",
                p["name"].as_str().unwrap(),
                p["version"].as_str().unwrap(),
                roots.join(",")
            )
        })
        .collect()
}

/// A project folder with a lock file (what gc checks for), under the test's home.
fn project(home: &TestHome, name: &str) -> PathBuf {
    let dir = home.home().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("agx.lock"), "version = 1\n").unwrap();
    dir
}

/// The fixture registry's sha256 of `name` `version`.
fn cksum(fx: &Fixture, name: &str, version: &str) -> String {
    let index = fx.server.root().join(format!("packages/{name}.json"));
    std::fs::read_to_string(index)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|entry| entry["vers"] == version)
        .map(|entry| entry["cksum"].as_str().unwrap().to_string())
        .unwrap()
}

/// What a project's lock names: acme/weather at `weather` with acme/geo 1.0.0.
fn weather_lock(fx: &Fixture, weather: &str) -> Vec<LockedPackage> {
    let geo = PackageName::parse("acme/geo").unwrap();
    let geo_version = semver::Version::new(1, 0, 0);
    vec![
        LockedPackage {
            name: geo.clone(),
            version: geo_version.clone(),
            source: fx.server.url(),
            sha256: cksum(fx, "acme/geo", "1.0.0"),
            integrity: Vec::new(),
            root_keys: Vec::new(),
            dependencies: Vec::new(),
            provenance: None,
        },
        LockedPackage {
            name: PackageName::parse("acme/weather").unwrap(),
            version: semver::Version::parse(weather).unwrap(),
            source: fx.server.url(),
            sha256: cksum(fx, "acme/weather", weather),
            integrity: Vec::new(),
            root_keys: Vec::new(),
            dependencies: vec![(geo, geo_version)],
            provenance: None,
        },
    ]
}

/// Install a project's lock in `home`, as `agx sync` does.
fn sync(home: &TestHome, project: &Path, packages: &[LockedPackage]) -> ops::LockedInstallReport {
    try_sync(home, project, packages).unwrap()
}

fn try_sync(
    home: &TestHome,
    project: &Path,
    packages: &[LockedPackage],
) -> Result<ops::LockedInstallReport, ops::OpsError> {
    let paths = AgxPaths::under(home.agx_home(), true);
    let ctx = ops::Context {
        paths: &paths,
        registry: None,
        registry_root: None,
        offline: false,
        reporter: &Silent,
        accept_findings: &[],
        signer_changes: Default::default(),
    };
    // Blocking HTTP inside the async tests: off the runtime's worker.
    tokio::task::block_in_place(|| ops::install_locked(&ctx, project, packages, &|_| Ok(())))
}

/// The agx home's files (the registry cache aside), with sizes and hashes.
fn home_state(home: &TestHome) -> std::collections::BTreeMap<String, String> {
    tree(&home.agx_home())
        .into_iter()
        .filter(|(path, _)| !path.starts_with("cache/"))
        .collect()
}

#[test]
fn a_lock_that_disagrees_with_its_source_changes_nothing() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let a = project(&home, "a");
    sync(&home, &a, &weather_lock(&fx, "1.1.0"));
    let before = home_state(&home);

    let mut tampered = weather_lock(&fx, "1.2.0");
    tampered[1].sha256 = "00".repeat(32);
    let err = try_sync(&home, &a, &tampered).unwrap_err();
    let text = format!(
        "{err}; {}",
        agx_core::error::Hint::hint(&err).unwrap_or_default()
    );
    assert!(
        text.contains("acme/weather 1.2.0 from http://127.0.0.1:"),
        "{text}"
    );
    assert!(
        text.contains(&format!("but the lock records {}", "00".repeat(32))),
        "{text}"
    );
    assert!(text.contains("`agx lock`"), "{text}");

    let mut gone = weather_lock(&fx, "1.2.0");
    gone[1].version = semver::Version::new(9, 9, 9);
    let err = try_sync(&home, &a, &gone).unwrap_err().to_string();
    assert!(
        err.ends_with("has no acme/weather 9.9.9, which the lock records"),
        "{err}"
    );
    assert_eq!(home_state(&home), before, "a refused sync changes nothing");
}

#[test]
fn a_local_package_in_a_lock_is_packed_and_checked() {
    let home = TestHome::new();
    let a = project(&home, "a");
    let folder = write_package(&a.join("vendor"), "acme/notes", "0.1.0", &[], "note");
    let packed = home.home().join("packed");
    home.agx()
        .arg("pack")
        .arg(&folder)
        .arg("-o")
        .arg(&packed)
        .assert()
        .success();
    let tarball = std::fs::read_dir(&packed)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let sha256 = hex(&std::fs::read(tarball).unwrap());
    let notes = LockedPackage {
        name: PackageName::parse("acme/notes").unwrap(),
        version: semver::Version::new(0, 1, 0),
        // Relative to the project, as a committed lock writes it.
        source: "vendor/acme-notes-0.1.0".into(),
        sha256,
        integrity: Vec::new(),
        root_keys: Vec::new(),
        dependencies: Vec::new(),
        provenance: None,
    };
    let report = sync(&home, &a, std::slice::from_ref(&notes));
    assert_eq!(report.installed.len(), 1, "{report:?}");
    let list = json(home.agx().args(["list", "--json"]));
    assert_eq!(list["packages"][0]["name"], "acme/notes", "{list}");
    assert_eq!(list["packages"][0]["description"], "The acme/notes package");

    // Edited after locking: refused, naming both hashes.
    std::fs::write(folder.join("README.md"), "changed\n").unwrap();
    let other = project(&home, "b");
    let moved = LockedPackage {
        source: folder.display().to_string(),
        ..notes
    };
    // Present already (held by a): nothing is packed again.
    assert!(
        sync(&home, &other, std::slice::from_ref(&moved))
            .installed
            .is_empty()
    );
    std::fs::remove_dir_all(home.agx_home().join("store-v1/acme/notes")).unwrap();
    let err = try_sync(&home, &other, &[moved]).unwrap_err().to_string();
    assert!(err.contains("but the lock records"), "{err}");
}

fn hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The version `agx serve <server>` reports in `initialize`.
async fn served_version(home: &TestHome, server: &str) -> String {
    let mut cmd = home.command(AGX);
    cmd.args(["serve", server]).env("AGX_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(tokio::process::Command::from(cmd))
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn agx serve");
    let client = ().serve(transport).await.expect("initialize");
    let info = serde_json::to_value(&*client.peer_info().expect("server info")).unwrap();
    let version = info["serverInfo"]["version"].as_str().unwrap().to_string();
    client.cancel().await.unwrap();
    version
}

#[tokio::test(flavor = "multi_thread")]
async fn projects_and_the_user_hold_versions_side_by_side_until_gc() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let (a, b) = (project(&home, "a"), project(&home, "b"));
    let first = sync(&home, &a, &weather_lock(&fx, "1.1.0"));
    assert_eq!(first.installed.len(), 2, "{first:?}");
    sync(&home, &b, &weather_lock(&fx, "1.2.0"));
    fx.agx(&home)
        .args(["install", "acme/weather@1.1.0"])
        .assert()
        .success();
    assert_eq!(
        holdings(&fx, &home),
        [
            "acme/geo@1.0.0 user,a,b",
            "acme/weather@1.1.0 user,a",
            "acme/weather@1.2.0 b"
        ]
    );

    // Each pin serves its own version; unpinned serves the user's.
    assert_eq!(
        served_version(&home, "acme/weather/forecast@=1.1.0").await,
        "1.1.0"
    );
    assert_eq!(
        served_version(&home, "acme/weather/forecast@=1.2.0").await,
        "1.2.0"
    );
    assert_eq!(
        served_version(&home, "acme/weather/forecast").await,
        "1.1.0"
    );

    // Syncing again needs nothing from the registry.
    let requests = fx.server.requests().len();
    let again = sync(&home, &a, &weather_lock(&fx, "1.1.0"));
    assert!(
        again.installed.is_empty() && again.present.len() == 2,
        "{again:?}"
    );
    assert_eq!(fx.server.requests().len(), requests);

    // The user lets go of 1.1.0; project a keeps its files.
    let out = fx
        .agx(&home)
        .args(["uninstall", "acme/weather"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "kept: held by project {}",
            a.canonicalize().unwrap().display()
        )),
        "{stderr}"
    );
    assert_eq!(
        served_version(&home, "acme/weather/forecast@=1.1.0").await,
        "1.1.0"
    );
    // Only project versions left: unpinned serves the newest of them.
    assert_eq!(
        served_version(&home, "acme/weather/forecast").await,
        "1.2.0"
    );

    // Nothing is unheld yet.
    let nothing = json(fx.agx(&home).args(["gc", "--dry-run", "--json"]));
    assert_eq!(nothing["versions"], Value::Array(vec![]), "{nothing}");

    // Project b moves to 1.1.0: 1.2.0 is held by nobody and goes at gc, not before.
    let moved = sync(&home, &b, &weather_lock(&fx, "1.1.0"));
    assert_eq!(moved.released.len(), 1, "{moved:?}");
    let weather_12 = home.agx_home().join("store-v1/acme/weather/1.2.0");
    assert!(weather_12.is_dir());
    {
        let _filters = home.snapshot_filters();
        // Sizes vary with the agx build (a version folder keeps its checked model as JSON).
        let mut settings = insta::Settings::clone_current();
        settings.add_filter(r"\d+(\.\d+)? (B|KiB|MiB)\b", "[SIZE]");
        settings.bind(|| {
            assert_snapshot!(
                "gc_dry_run",
                outcome(fx.agx(&home).args(["gc", "--dry-run"]))
            );
        });
    }
    assert!(weather_12.is_dir(), "--dry-run removes nothing");
    let done = json(fx.agx(&home).args(["gc", "--json"]));
    assert_eq!(done["versions"][0]["version"], "1.2.0", "{done}");
    assert!(done["versions"][0]["bytes"].as_u64().unwrap() > 0);
    assert!(!weather_12.exists());
    assert_eq!(
        holdings(&fx, &home),
        ["acme/geo@1.0.0 a,b", "acme/weather@1.1.0 a,b"]
    );

    // A deleted project is forgotten; what it alone held goes with it.
    std::fs::remove_dir_all(&b).unwrap();
    let done = json(fx.agx(&home).args(["gc", "--json"]));
    assert_eq!(done["projects"][0]["missing"], "folder", "{done}");
    assert_eq!(
        done["versions"],
        Value::Array(vec![]),
        "a still holds them: {done}"
    );
    assert_eq!(
        holdings(&fx, &home),
        ["acme/geo@1.0.0 a", "acme/weather@1.1.0 a"]
    );
    let released = {
        let paths = AgxPaths::under(home.agx_home(), true);
        let ctx = ops::Context {
            paths: &paths,
            registry: None,
            registry_root: None,
            offline: false,
            reporter: &Silent,
            accept_findings: &[],
            signer_changes: Default::default(),
        };
        tokio::task::block_in_place(|| ops::release_project(&ctx, &a).unwrap())
    };
    assert_eq!(released.len(), 2);
    fx.agx(&home).args(["gc"]).assert().success();
    assert!(holdings(&fx, &home).is_empty());
    assert!(!home.agx_home().join("store-v1/acme").exists());
}

#[test]
fn a_pinned_version_that_is_not_installed_names_the_fix() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather@1.2.0"]);
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "serve_pinned_missing",
        outcome(
            fx.agx(&home)
                .args(["serve", "acme/weather/forecast@=1.1.0"])
        )
    );
    assert_snapshot!(
        "serve_pinned_range",
        outcome(fx.agx(&home).args(["serve", "acme/weather/forecast@^1"]))
    );
}

/// A store as agx wrote it before versions could sit side by side: no receipt inside the
/// version folders and no `roots-v1/`.
fn make_single_version(home: &TestHome) {
    let store = home.agx_home().join("store-v1");
    for receipt in walk(&store)
        .into_iter()
        .filter(|p| p.ends_with(".agx-receipt.toml"))
    {
        std::fs::remove_file(receipt).unwrap();
    }
    let _ = std::fs::remove_dir_all(home.agx_home().join("roots-v1"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread")]
async fn an_old_single_version_store_lists_serves_and_uninstalls() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather@1.1.0"]);
    make_single_version(&home);
    assert_eq!(
        holdings(&fx, &home),
        ["acme/geo@1.0.0 user", "acme/weather@1.1.0 user"]
    );
    assert_eq!(
        served_version(&home, "acme/weather/forecast").await,
        "1.1.0"
    );
    assert_eq!(
        served_version(&home, "acme/weather/forecast@=1.1.0").await,
        "1.1.0"
    );

    // A project holding the user's versions finds them present, by their hashes.
    let a = project(&home, "a");
    let report = sync(&home, &a, &weather_lock(&fx, "1.1.0"));
    assert!(report.installed.is_empty(), "{report:?}");

    // The user's update keeps 1.1.0 for the project, with its description.
    fx.agx(&home).arg("update").assert().success();
    let list = json(fx.agx(&home).args(["list", "--json"]));
    let kept = list["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "acme/weather" && p["version"] == "1.1.0")
        .expect("1.1.0 kept for the project")
        .clone();
    assert!(
        kept["description"].as_str().is_some_and(|d| !d.is_empty()),
        "{kept}"
    );

    fx.agx(&home)
        .args(["uninstall", "acme/weather"])
        .assert()
        .success();
    assert_eq!(
        holdings(&fx, &home),
        ["acme/geo@1.0.0 a", "acme/weather@1.1.0 a"]
    );
    let again = outcome(fx.agx(&home).args(["uninstall", "acme/weather"]));
    assert!(
        again.contains("acme/weather is not installed for the user; only projects hold it"),
        "{again}"
    );
    assert!(again.contains("`agx gc`"), "{again}");
    let dry = json(fx.agx(&home).args(["gc", "--dry-run", "--json"]));
    assert_eq!(dry["versions"], Value::Array(vec![]), "{dry}");
}

/// Wait until the server has seen a request for `path`.
fn wait_for_request(fx: &Fixture, path: &str) {
    let start = Instant::now();
    while fx.server.count(path) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no request for {path}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_install_leaves_every_root_valid() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather@1.1.0"]);
    let a = project(&home, "a");
    sync(&home, &a, &weather_lock(&fx, "1.1.0"));
    let tarball = "/dl/acme/weather/1.2.0.tar.gz";
    fx.server.fault(
        tarball,
        Fault::Trickle {
            chunk: 256,
            delay: Duration::from_millis(100),
        },
    );
    let mut child = home
        .command(AGX)
        .env("AGX_REGISTRY", fx.server.url())
        .arg("update")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_request(&fx, tarball);
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();

    assert_eq!(
        holdings(&fx, &home),
        ["acme/geo@1.0.0 user,a", "acme/weather@1.1.0 user,a"]
    );
    assert_eq!(
        served_version(&home, "acme/weather/forecast@=1.1.0").await,
        "1.1.0"
    );
    let dry = json(fx.agx(&home).args(["gc", "--dry-run", "--json"]));
    assert_eq!(dry["versions"], Value::Array(vec![]), "{dry}");
    assert!(
        !dry["staging"].as_array().unwrap().is_empty(),
        "the killed download: {dry}"
    );

    fx.server.clear_faults();
    fx.agx(&home).arg("update").assert().success();
    assert_eq!(
        holdings(&fx, &home),
        [
            "acme/geo@1.0.0 user,a",
            "acme/weather@1.1.0 a",
            "acme/weather@1.2.0 user"
        ]
    );
    let staging = home.agx_home().join("store-v1/.staging");
    assert_eq!(
        std::fs::read_dir(&staging).unwrap().count(),
        0,
        "leftovers cleaned"
    );
}
