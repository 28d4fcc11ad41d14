//! Integration tests: the local store and the package commands (install, uninstall, update,
//! outdated, list, info), against a registry built with `agx registry` and served over HTTP
//! on 127.0.0.1 by the test server.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use insta::assert_snapshot;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::http::{Fault, HttpServer};
use crate::support::{
    AGX, Fixture, TestHome, copy_tree, fixtures, outcome, outcome_of, tree, write_package,
};

impl Fixture {
    fn registry_dir(&self) -> &Path {
        self.server.root()
    }

    /// How many tarball downloads the server has answered.
    fn downloads(&self) -> usize {
        self.server
            .requests()
            .iter()
            .filter(|r| r.path.starts_with("/dl/"))
            .count()
    }
}

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

fn json(cmd: &mut assert_cmd::Command) -> Value {
    serde_json::from_str(&stdout(cmd)).unwrap()
}

/// `name@version` of every installed package, from `agx list --json`.
fn installed(fx: &Fixture, home: &TestHome) -> Vec<String> {
    let list = json(fx.agx(home).args(["list", "--json"]));
    list["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{}@{}",
                p["name"].as_str().unwrap(),
                p["version"].as_str().unwrap()
            )
        })
        .collect()
}

/// Every file and folder under AGX_HOME (see [`tree`]) except the index cache, which a
/// failed install may legitimately refresh.
fn home_state(home: &TestHome) -> BTreeMap<String, String> {
    tree(&home.agx_home())
        .into_iter()
        .filter(|(path, _)| !path.starts_with("cache/"))
        .collect()
}

#[test]
fn install_with_dependencies_then_reinstall_is_a_no_op() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "install_from_registry",
        outcome(fx.agx(&home).args(["install", "acme/weather"]))
    );
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.2.0"]
    );

    let store = home.agx_home().join("store-v1/acme/weather/1.2.0");
    assert!(store.join("agx.toml").is_file());
    assert!(store.join("bin/forecast.py").is_file());
    assert!(store.join(".agx-complete").is_file());
    // The checked model, which `agx serve` loads instead of re-parsing the definitions.
    let snapshot: serde_json::Value =
        serde_json::from_slice(&std::fs::read(store.join(".agx-package.json")).unwrap()).unwrap();
    assert_eq!(
        snapshot["package"]["manifest"]["package"]["name"],
        "acme/weather"
    );
    assert_eq!(snapshot["package"]["tools"][0]["name"], "get_forecast");
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/acme/weather.toml")).unwrap();
    assert!(receipt.contains("explicit = true"), "{receipt}");
    assert!(receipt.contains(&fx.server.url()), "{receipt}");
    let geo = std::fs::read_to_string(home.agx_home().join("receipts-v1/acme/geo.toml")).unwrap();
    assert!(
        geo.contains("explicit = false") && geo.contains("requested = \"^1.0\""),
        "{geo}"
    );

    // Same requirement again: no network at all.
    let before = fx.server.requests().len();
    assert_snapshot!(
        "install_same_requirement_again",
        outcome(fx.agx(&home).args(["install", "acme/weather@^1.2"]))
    );
    assert_eq!(fx.server.requests().len(), before);

    // --force downloads and replaces it.
    let downloads = fx.downloads();
    assert_snapshot!(
        "install_forced",
        outcome(fx.agx(&home).args(["install", "--force", "acme/weather"]))
    );
    assert_eq!(fx.downloads(), downloads + 1);
    assert!(store.join(".agx-complete").is_file());
}

#[test]
fn installs_local_folders_and_tarballs() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let notes = home.home().join("notes");
    copy_tree(&fixtures().join("packages/notes"), &notes);
    let _filters = home.snapshot_filters();
    let install = |package: &Path| outcome(fx.agx(&home).arg("install").arg(package));
    assert_snapshot!("install_folder", install(Path::new("./notes")));
    assert!(
        home.agx_home()
            .join("store-v1/_local/notes/0.1.0/agx.toml")
            .is_file()
    );
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/_local/notes.toml")).unwrap();
    assert!(receipt.contains("kind = \"local\""), "{receipt}");

    // Same bytes: a no-op; changed files: installed again.
    assert_snapshot!("install_same_folder_again", install(Path::new("./notes")));
    let manifest = notes.join("agx.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("Local note helpers", "Edited notes"),
    )
    .unwrap();
    assert_snapshot!("install_changed_folder", install(Path::new("./notes")));
    assert!(stdout(fx.agx(&home).arg("list")).contains("Edited notes"));

    // A local package's dependencies come from the registry.
    let app = write_package(
        home.home(),
        "local/app",
        "0.1.0",
        &[("acme/geo", "^1")],
        "ask",
    );
    fx.agx(&home).arg("install").arg(&app).assert().success();
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "local/app@0.1.0", "notes@0.1.0"]
    );

    // A tarball (the registry's own file, used as a local archive).
    let tarball = fx.registry_dir().join("dl/acme/docs/1.0.0.tar.gz");
    assert_snapshot!("install_tarball", install(&tarball));
    let info = json(fx.agx(&home).args(["info", "acme/docs", "--json"]));
    assert_eq!(info["installed"]["source"]["kind"], "local");

    // Invalid packages and missing paths are refused and change nothing.
    let before = home_state(&home);
    assert_snapshot!(
        "install_invalid",
        install(&fixtures().join("invalid/missing-key"))
    );
    assert_snapshot!("install_missing", install(Path::new("./missing")));
    assert_eq!(home_state(&home), before);
}

#[test]
fn uninstall_refuses_dependents_then_cleans_dependencies() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather", "acme/research"]);
    assert_eq!(installed(&fx, &home).len(), 5);
    let _filters = home.snapshot_filters();
    let uninstall = |args: &[&str]| outcome(fx.agx(&home).arg("uninstall").args(args));
    assert_snapshot!("uninstall_needed", uninstall(&["acme/docs"]));
    assert_eq!(installed(&fx, &home).len(), 5);

    // Dependencies installed only for research go with it; geo stays for weather.
    assert_snapshot!("uninstall_with_dependencies", uninstall(&["acme/research"]));
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.2.0"]
    );
    assert!(!home.agx_home().join("store-v1/acme/research").exists());
    assert!(
        !home
            .agx_home()
            .join("receipts-v1/acme/research.toml")
            .exists()
    );
    fx.agx(&home)
        .args(["uninstall", "acme/weather"])
        .assert()
        .success();
    assert!(installed(&fx, &home).is_empty());

    // An explicitly installed dependency stays; --force removes a needed package.
    fx.agx(&home)
        .args(["install", "acme/geo", "acme/weather"])
        .assert()
        .success();
    fx.agx(&home)
        .args(["uninstall", "acme/weather"])
        .assert()
        .success();
    assert_eq!(installed(&fx, &home), ["acme/geo@1.0.0"]);
    fx.agx(&home)
        .args(["install", "acme/weather"])
        .assert()
        .success();
    assert_snapshot!("uninstall_forced", uninstall(&["--force", "acme/geo"]));
    assert_eq!(installed(&fx, &home), ["acme/weather@1.2.0"]);
    assert_snapshot!("uninstall_not_installed", uninstall(&["acme/geo"]));
}

#[test]
fn outdated_and_update_swap_to_the_newest_wanted_version() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather@1.1.0"]);
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.1.0"]
    );

    let outdated = json(fx.agx(&home).args(["outdated", "--json"]));
    let rows = outdated["packages"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{outdated}");
    assert_eq!(rows[0]["name"], "acme/weather");
    assert_eq!(rows[0]["current"], "1.1.0");
    assert_eq!(rows[0]["wanted"], "1.2.0");
    assert_eq!(rows[0]["latest"], "1.2.0");
    let _filters = home.snapshot_filters();
    assert_snapshot!("outdated", outcome(fx.agx(&home).arg("outdated")));

    assert_snapshot!(
        "update_one",
        outcome(fx.agx(&home).args(["update", "acme/weather"]))
    );
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.2.0"]
    );
    assert!(!home.agx_home().join("store-v1/acme/weather/1.1.0").exists());
    let new = home.agx_home().join("store-v1/acme/weather/1.2.0");
    assert!(new.join(".agx-complete").is_file());
    assert!(
        new.join("agx/tools.toml").is_file(),
        "1.2.0 brings the sunrise tool"
    );

    assert_snapshot!("update_nothing", outcome(fx.agx(&home).arg("update")));
    let outdated = json(fx.agx(&home).args(["outdated", "--json"]));
    assert_eq!(outdated["packages"].as_array().unwrap().len(), 0);
    assert_snapshot!(
        "update_not_installed",
        outcome(fx.agx(&home).args(["update", "acme/docs"]))
    );
}

#[test]
fn list_variants_and_json() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    let list = |args: &[&str]| outcome(fx.agx(&home).arg("list").args(args));
    assert_snapshot!("list_nothing_installed", list(&[]));
    fx.agx(&home)
        .args(["install", "acme/weather"])
        .assert()
        .success();

    assert_snapshot!("list_packages", list(&[]));
    assert_snapshot!("list_tools", list(&["--tools"]));
    assert_snapshot!("list_servers", list(&["--servers"]));
    let prompts = json(fx.agx(&home).args(["list", "--prompts", "--json"]));
    assert_eq!(prompts["prompts"][0]["name"], "acme/weather/weather_report");
    assert_eq!(prompts["prompts"][0]["package"], "acme/weather");
    assert_eq!(prompts["prompts"][0]["installed"], true);
    assert_eq!(prompts["prompts"][1]["arguments"][0], "destination");
    // Who holds each item's version, and the folder whose changes mean installs changed
    // (the VS Code extension watches it: editors/vscode).
    let servers = json(fx.agx(&home).args(["list", "--servers", "--json"]));
    assert_eq!(servers["servers"][1]["name"], "acme/weather/forecast");
    assert_eq!(servers["servers"][1]["roots"], serde_json::json!(["user"]));
    let receipts = home.agx_home().join("receipts-v1");
    assert_eq!(servers["receipts"], receipts.display().to_string());
    assert!(receipts.join("acme/weather.toml").is_file());

    let list_json = json(fx.agx(&home).args(["list", "--json"]));
    let weather = &list_json["packages"][1];
    assert_eq!(weather["name"], "acme/weather");
    assert_eq!(weather["version"], "1.2.0");
    assert_eq!(weather["installed"], true);
    assert_eq!(weather["explicit"], true);
    assert_eq!(list_json["packages"][0]["explicit"], false);
    assert_eq!(weather["servers"][0]["tools"][3], "acme/geo/geocode");
    assert_eq!(weather["tools"][0]["parameters"][0]["name"], "lat");
    assert_eq!(list_json["receipts"], receipts.display().to_string());

    // The catalog adds what is not installed, once, and downloads nothing.
    let downloads = fx.downloads();
    let remote = json(fx.agx(&home).args(["list", "--include-remote", "--json"]));
    let names: Vec<(&str, bool)> = remote["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap(),
                p["installed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("acme/dev", false),
            ("acme/docs", false),
            ("acme/geo", true),
            ("acme/quotes", false),
            ("acme/research", false),
            ("acme/weather", true),
            ("agx/conformance", false),
            ("agx/edge", false),
            ("contoso/web", false)
        ]
    );
    assert_snapshot!("list_with_remote", list(&["--include-remote"]));
    assert_snapshot!(
        "list_tools_with_remote",
        list(&["--include-remote", "--tools"])
    );
    assert_eq!(fx.downloads(), downloads);
}

#[test]
fn info_of_installed_and_remote_packages_and_servers() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather@1.1.0"]);
    let _filters = home.snapshot_filters();
    let info = |name: &str| outcome(fx.agx(&home).args(["info", name]));

    assert_snapshot!("info_installed_package", info("acme/weather"));
    let package = json(fx.agx(&home).args(["info", "acme/weather", "--json"]));
    assert_eq!(package["installed"]["version"], "1.1.0");
    assert_eq!(package["installed"]["requested"], "=1.1.0");
    assert_eq!(package["dependencies"][0]["installed"], "1.0.0");
    assert_eq!(package["servers"][0]["name"], "forecast");
    assert_eq!(package["versions"][1]["version"], "1.2.0");

    let server = json(
        fx.agx(&home)
            .args(["info", "acme/weather/forecast", "--json"]),
    );
    assert_eq!(server["name"], "acme/weather/forecast");
    assert_eq!(server["installed"], true);
    assert!(server["instructions"].is_string(), "{server}");
    let tools: Vec<&str> = server["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "acme/weather/get_forecast",
            "acme/weather/alerts",
            "acme/geo/geocode"
        ]
    );
    assert!(
        server["tools"][2]["description"]
            .as_str()
            .unwrap()
            .contains("coordinates")
    );
    assert_snapshot!("info_installed_server", info("acme/weather/forecast"));
    assert_snapshot!("info_unknown_server", info("acme/weather/nope"));

    // Not installed: registry metadata only, nothing downloaded.
    let downloads = fx.downloads();
    let package = json(fx.agx(&home).args(["info", "acme/research", "--json"]));
    assert_eq!(package["installed"], Value::Null);
    assert_eq!(package["version"], "0.9.0");
    assert_eq!(package["dependencies"][0]["name"], "acme/docs");
    assert_eq!(package["dependencies"][0]["installed"], Value::Null);
    assert_eq!(package["tools"][0]["name"], "cite");
    assert_snapshot!("info_remote_package", info("acme/research"));
    let server = json(
        fx.agx(&home)
            .args(["info", "acme/research/research", "--json"]),
    );
    assert_eq!(server["installed"], false);
    assert_eq!(server["tools"][0]["name"], "acme/docs/search");
    assert_eq!(fx.downloads(), downloads);
    assert!(!home.agx_home().join("store-v1/acme/research").exists());
    assert_snapshot!("info_unknown_package", info("acme/nothing"));
}

#[test]
fn failed_installs_leave_the_home_unchanged() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather@1.1.0"]);
    let before = home_state(&home);
    assert!(before.contains_key("receipts-v1/acme/weather.toml"));
    let tarball = "/dl/acme/weather/1.2.0.tar.gz";
    let _filters = home.snapshot_filters();
    let mut failures = String::new();
    for fault in [
        Fault::NotFound,
        Fault::WrongBytes,
        Fault::Truncate { keep: 100 },
    ] {
        fx.server.fault(tarball, fault.clone());
        for args in [&["install", "acme/weather@1.2.0"][..], &["update"]] {
            let text = outcome(fx.agx(&home).args(args));
            failures.push_str(&format!("=== {fault:?}: agx {}\n{text}", args.join(" ")));
            assert_eq!(
                home_state(&home),
                before,
                "{fault:?} {args:?} changed the home"
            );
        }
    }
    assert_snapshot!(failures);
    fx.server.clear_faults();
    fx.agx(&home).arg("update").assert().success();
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.2.0"]
    );
}

/// Wait until the server has seen a request for `path`.
fn wait_for_request(server: &HttpServer, path: &str) {
    let start = Instant::now();
    while server.count(path) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no request for {path}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn spawn(fx: &Fixture, home: &TestHome, args: &[&str]) -> std::process::Child {
    home.command(AGX)
        .env("AGX_REGISTRY", fx.server.url())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn killed_install_leaves_the_previous_state_and_a_rerun_succeeds() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/weather@1.1.0"]);
    let before = home_state(&home);
    let tarball = "/dl/acme/weather/1.2.0.tar.gz";
    fx.server.fault(
        tarball,
        Fault::Trickle {
            chunk: 256,
            delay: Duration::from_millis(100),
        },
    );
    let mut child = spawn(&fx, &home, &["update"]);
    wait_for_request(&fx.server, tarball);
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let staging = home.agx_home().join("store-v1/.staging");
    assert_ne!(
        std::fs::read_dir(&staging).unwrap().count(),
        0,
        "killed while downloading into staging"
    );

    // Readers see the previous state, intact.
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.1.0"]
    );
    let info = json(fx.agx(&home).args(["info", "acme/weather", "--json"]));
    assert_eq!(info["installed"]["version"], "1.1.0");

    // The next writer cleans the leftovers and succeeds.
    fx.server.clear_faults();
    fx.agx(&home).arg("update").assert().success();
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.2.0"]
    );
    assert_eq!(
        std::fs::read_dir(&staging).unwrap().count(),
        0,
        "leftovers cleaned"
    );
    assert_ne!(home_state(&home), before);
}

#[test]
fn concurrent_installs_both_finish_and_the_second_does_not_wait_for_the_first_download() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let tarball = "/dl/acme/weather/1.2.0.tar.gz";
    fx.server.fault(
        tarball,
        Fault::Trickle {
            chunk: 64,
            delay: Duration::from_millis(50),
        },
    );
    let first = spawn(&fx, &home, &["install", "acme/weather"]);
    wait_for_request(&fx.server, tarball);
    let second = spawn(&fx, &home, &["install", "acme/docs"]);
    let first = outcome_of(&first.wait_with_output().unwrap());
    let second = outcome_of(&second.wait_with_output().unwrap());
    let _filters = home.snapshot_filters();
    assert_snapshot!(format!("=== first\n{first}=== second\n{second}"));
    assert_eq!(
        installed(&fx, &home),
        ["acme/docs@1.0.0", "acme/geo@1.0.0", "acme/weather@1.2.0"]
    );
    for name in ["docs/1.0.0", "geo/1.0.0", "weather/1.2.0"] {
        let dir = home.agx_home().join("store-v1/acme").join(name);
        assert!(dir.join(".agx-complete").is_file(), "{name}");
    }
}

/// Publish `tarball` bytes as acme/evil 1.0.0 by writing its index line directly.
fn publish_raw(registry: &Path, bytes: &[u8]) {
    let dl = registry.join("dl/acme/evil");
    std::fs::create_dir_all(&dl).unwrap();
    std::fs::write(dl.join("1.0.0.tar.gz"), bytes).unwrap();
    let line = serde_json::json!({
        "v": 1, "name": "acme/evil", "vers": "1.0.0",
        "cksum": hex::encode(Sha256::digest(bytes)), "size": bytes.len(),
        "deps": {}, "yanked": false, "extension": {},
    });
    std::fs::write(
        registry.join("packages/acme/evil.json"),
        format!("{line}\n"),
    )
    .unwrap();
}

/// A gzipped tar whose second entry's path is written raw (bypassing the tar crate's checks).
fn hostile_tarball(raw_path: &str) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    let manifest = b"[package]\nname = \"acme/evil\"\nversion = \"1.0.0\"\n";
    let mut header = tar::Header::new_gnu();
    header.set_size(manifest.len() as u64);
    header.set_mode(0o644);
    header.set_path("evil-1.0.0/agx.toml").unwrap();
    header.set_cksum();
    builder.append(&header, &manifest[..]).unwrap();
    let payload = b"owned";
    let mut header = tar::Header::new_old();
    header.set_size(payload.len() as u64);
    header.set_mode(0o644);
    let name = &mut header.as_old_mut().name;
    name[..raw_path.len()].copy_from_slice(raw_path.as_bytes());
    header.set_cksum();
    builder.append(&header, &payload[..]).unwrap();
    let tar = builder.into_inner().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

#[test]
fn hostile_archive_from_the_registry_is_rejected() {
    let fx = Fixture::new();
    let home = fx.home_with(&["acme/geo"]);
    let before = home_state(&home);
    publish_raw(
        fx.registry_dir(),
        &hostile_tarball("evil-1.0.0/../../../escaped"),
    );
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(fx.agx(&home).args(["install", "acme/evil"])));
    assert_eq!(home_state(&home), before);
    assert!(!home.agx_home().join("escaped").exists());
    assert!(!home.agx_home().join("store-v1/escaped").exists());
    assert!(!home.home().join("escaped").exists());
}
