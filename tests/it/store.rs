//! Integration tests: the local store and the package commands (install, uninstall, update,
//! outdated, list, info), against a registry built with `agx registry` and served over HTTP
//! on 127.0.0.1 by the test server.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::http::{Fault, HttpServer};
use crate::support::{TestHome, copy_tree, fixtures};

/// Write a package source folder: `deps` as `("acme/geo", "^1.0")`, one tool, and with
/// `server` a server using the tool and a prompt.
fn write_package(dir: &Path, name: &str, version: &str, deps: &[(&str, &str)], server: bool) {
    let short = name.rsplit('/').next().unwrap();
    let tool = format!("{}_tool", short.replace('-', "_"));
    let root = dir.join("agx");
    std::fs::create_dir_all(root.join("tools")).unwrap();
    let mut manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"{version}\"\ndescription = \"The {short} package\"\nlicense = \"MIT\"\n\n"
    );
    if !deps.is_empty() {
        manifest.push_str("[dependencies]\n");
        for (d, r) in deps {
            manifest.push_str(&format!("\"{d}\" = \"{r}\"\n"));
        }
    }
    manifest.push_str(&format!("\n[extension]\ntools = [\"{tool}\"]\n"));
    if server {
        manifest.push_str("servers = [\"main\"]\nprompts = [\"Ask\"]\n");
        std::fs::create_dir_all(root.join("servers")).unwrap();
        std::fs::create_dir_all(root.join("prompts")).unwrap();
        std::fs::write(
            root.join("servers/main.toml"),
            format!(
                "name = \"main\"\ndescription = \"Main server of {short}\"\ninstructions = \"Call {tool}\"\ntools = [\"{tool}\"]\nprompts = [\"Ask\"]\n"
            ),
        )
        .unwrap();
        std::fs::write(
            root.join("prompts/Ask.toml"),
            "name = \"Ask\"\ndescription = \"Ask a question\"\ncontent = \"Q: {{ q }}\"\n[[arguments]]\nname = \"q\"\nrequired = true\n",
        )
        .unwrap();
    }
    std::fs::write(dir.join("agx.toml"), manifest).unwrap();
    std::fs::write(
        root.join(format!("tools/{tool}.toml")),
        format!(
            "name = \"{tool}\"\ndescription = \"Tool of {short}\"\ncommand = [\"python3\", \"bin/run.py\"]\n[[parameters]]\nname = \"place\"\ntype = \"string\"\nrequired = true\n"
        ),
    )
    .unwrap();
}

/// The fixture registry (registry-fixtures/registry: acme/geo 1.0.0, acme/weather 1.1.0 and
/// 1.2.0, acme/docs, contoso/web, acme/research), copied to a temp folder and served over
/// HTTP on 127.0.0.1.
struct Fixture {
    _copy: tempfile::TempDir,
    server: HttpServer,
}

impl Fixture {
    fn new() -> Fixture {
        let copy = tempfile::tempdir().unwrap();
        copy_tree(&fixtures().join("registry"), copy.path());
        Fixture {
            server: HttpServer::serve(copy.path()),
            _copy: copy,
        }
    }

    fn registry_dir(&self) -> &Path {
        self.server.root()
    }

    /// `agx` in `home` using this registry over HTTP.
    fn agx(&self, home: &TestHome) -> assert_cmd::Command {
        let mut cmd = home.agx();
        cmd.env("AGX_REGISTRY", self.server.url());
        cmd
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

fn stderr_of_failure(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().failure().get_output().stderr.clone();
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

/// Every file and folder under AGX_HOME with its size and sha256, except the index cache
/// (which a failed install may legitimately refresh).
fn snapshot(home: &TestHome) -> BTreeMap<String, (u64, String)> {
    let root = home.agx_home();
    let mut out = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .to_string();
            if rel == "cache" {
                continue;
            }
            if path.is_dir() {
                out.insert(rel + "/", (0, String::new()));
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.insert(
                    rel,
                    (bytes.len() as u64, hex::encode(Sha256::digest(&bytes))),
                );
            }
        }
    }
    out
}

#[test]
fn install_with_dependencies_then_reinstall_is_a_no_op() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let out = fx
        .agx(&home)
        .args(["install", "acme/weather"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("Installed acme/geo v1.0.0"), "{err}");
    assert!(err.contains("Installed acme/weather v1.2.0"), "{err}");
    assert!(out.get_output().stdout.is_empty(), "results only on stdout");
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
    let out = fx
        .agx(&home)
        .args(["install", "acme/weather@^1.2"])
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("already installed"));
    assert_eq!(fx.server.requests().len(), before);

    // --force downloads and replaces it.
    let downloads = fx.downloads();
    fx.agx(&home)
        .args(["install", "--force", "acme/weather"])
        .assert()
        .success()
        .stderr(predicates::str::contains("Reinstalled acme/weather v1.2.0"));
    assert_eq!(fx.downloads(), downloads + 1);
    assert!(store.join(".agx-complete").is_file());
}

#[test]
fn installs_local_folders_and_tarballs() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let notes = home.home().join("notes");
    copy_tree(&fixtures().join("packages/notes"), &notes);
    fx.agx(&home)
        .args(["install", "./notes"])
        .assert()
        .success()
        .stderr(predicates::str::contains("Installed notes v0.1.0"));
    assert!(
        home.agx_home()
            .join("store-v1/_local/notes/0.1.0/agx.toml")
            .is_file()
    );
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/_local/notes.toml")).unwrap();
    assert!(receipt.contains("kind = \"local\""), "{receipt}");

    // Same bytes: a no-op; changed files: installed again.
    fx.agx(&home)
        .args(["install", "./notes"])
        .assert()
        .success()
        .stderr(predicates::str::contains("already installed"));
    let manifest = notes.join("agx.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("Local note helpers", "Edited notes"),
    )
    .unwrap();
    fx.agx(&home)
        .args(["install", "./notes"])
        .assert()
        .success()
        .stderr(predicates::str::contains("Reinstalled notes v0.1.0"));
    assert!(stdout(fx.agx(&home).arg("list")).contains("Edited notes"));

    // A local package's dependencies come from the registry.
    let app = home.home().join("app");
    write_package(&app, "local/app", "0.1.0", &[("acme/geo", "^1")], true);
    fx.agx(&home).arg("install").arg(&app).assert().success();
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "local/app@0.1.0", "notes@0.1.0"]
    );

    // A tarball (the registry's own file, used as a local archive).
    let tarball = fx.registry_dir().join("dl/acme/docs/1.0.0.tar.gz");
    fx.agx(&home)
        .arg("install")
        .arg(&tarball)
        .assert()
        .success()
        .stderr(predicates::str::contains("Installed acme/docs v1.0.0"));
    let info = json(fx.agx(&home).args(["info", "acme/docs", "--json"]));
    assert_eq!(info["installed"]["source"]["kind"], "local");

    // Invalid packages and missing paths are refused and change nothing.
    let before = snapshot(&home);
    let invalid = fixtures().join("invalid/missing-key");
    let err = stderr_of_failure(fx.agx(&home).arg("install").arg(&invalid));
    assert!(
        err.contains("not valid") && err.contains("agx validate"),
        "{err}"
    );
    let err = stderr_of_failure(fx.agx(&home).args(["install", "./missing"]));
    assert!(err.contains("cannot install `./missing`"), "{err}");
    assert_eq!(snapshot(&home), before);
}

#[test]
fn uninstall_refuses_dependents_then_cleans_dependencies() {
    let fx = Fixture::new();
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/weather", "acme/research"])
        .assert()
        .success();
    assert_eq!(installed(&fx, &home).len(), 5);
    let err = stderr_of_failure(fx.agx(&home).args(["uninstall", "acme/docs"]));
    assert!(
        err.contains("cannot uninstall acme/docs: acme/research 0.9.0 depends on it"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    assert_eq!(installed(&fx, &home).len(), 5);

    // Dependencies installed only for research go with it; geo stays for weather.
    let out = fx
        .agx(&home)
        .args(["uninstall", "acme/research"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("Removed acme/docs v1.0.0 (no longer needed)"),
        "{err}"
    );
    assert!(
        err.contains("Removed contoso/web v2.1.0 (no longer needed)"),
        "{err}"
    );
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
    fx.agx(&home)
        .args(["uninstall", "--force", "acme/geo"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "acme/weather 1.2.0 needs acme/geo",
        ));
    assert_eq!(installed(&fx, &home), ["acme/weather@1.2.0"]);
    let err = stderr_of_failure(fx.agx(&home).args(["uninstall", "acme/geo"]));
    assert!(err.contains("acme/geo is not installed"), "{err}");
}

#[test]
fn outdated_and_update_swap_to_the_newest_wanted_version() {
    let fx = Fixture::new();
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/weather@1.1.0"])
        .assert()
        .success();
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
    let text = stdout(fx.agx(&home).arg("outdated"));
    assert!(
        text.contains("acme/weather  1.1.0      1.2.0      1.2.0"),
        "{text}"
    );

    fx.agx(&home)
        .args(["update", "acme/weather"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "Updated acme/weather v1.1.0 -> v1.2.0",
        ));
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

    fx.agx(&home)
        .arg("update")
        .assert()
        .success()
        .stderr(predicates::str::contains("nothing"));
    let outdated = json(fx.agx(&home).args(["outdated", "--json"]));
    assert_eq!(outdated["packages"].as_array().unwrap().len(), 0);
    let err = stderr_of_failure(fx.agx(&home).args(["update", "acme/docs"]));
    assert!(err.contains("acme/docs is not installed"), "{err}");
}

#[test]
fn list_variants_and_json() {
    let fx = Fixture::new();
    let home = TestHome::new();
    let empty = fx.agx(&home).arg("list").assert().success();
    assert!(empty.get_output().stdout.is_empty());
    fx.agx(&home)
        .args(["install", "acme/weather"])
        .assert()
        .success();

    let text = stdout(fx.agx(&home).arg("list"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[1].starts_with("acme/weather  1.2.0  Weather forecasts"),
        "{text}"
    );
    assert!(
        lines[1].ends_with("[servers: forecast; tools: get_forecast, alerts, sunrise; prompts: weather_report, packing_list]"),
        "{text}"
    );

    let tools = stdout(fx.agx(&home).args(["list", "--tools"]));
    let names: Vec<&str> = tools
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "acme/geo/geocode",
            "acme/weather/get_forecast",
            "acme/weather/alerts",
            "acme/weather/sunrise"
        ]
    );
    assert!(
        tools.contains("Active weather alerts for a region"),
        "{tools}"
    );
    let servers = stdout(fx.agx(&home).args(["list", "--servers"]));
    assert!(
        servers
            .lines()
            .any(|l| l.starts_with("acme/weather/forecast ")),
        "{servers}"
    );
    let prompts = json(fx.agx(&home).args(["list", "--prompts", "--json"]));
    assert_eq!(prompts["prompts"][0]["name"], "acme/weather/weather_report");
    assert_eq!(prompts["prompts"][0]["package"], "acme/weather");
    assert_eq!(prompts["prompts"][0]["installed"], true);
    assert_eq!(prompts["prompts"][1]["arguments"][0], "destination");

    let list = json(fx.agx(&home).args(["list", "--json"]));
    let weather = &list["packages"][1];
    assert_eq!(weather["name"], "acme/weather");
    assert_eq!(weather["version"], "1.2.0");
    assert_eq!(weather["installed"], true);
    assert_eq!(weather["explicit"], true);
    assert_eq!(list["packages"][0]["explicit"], false);
    assert_eq!(weather["servers"][0]["tools"][3], "acme/geo/geocode");
    assert_eq!(weather["tools"][0]["parameters"][0]["name"], "lat");

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
            ("acme/docs", false),
            ("acme/geo", true),
            ("acme/research", false),
            ("acme/weather", true),
            ("agx/conformance", false),
            ("agx/edge", false),
            ("contoso/web", false)
        ]
    );
    let text = stdout(fx.agx(&home).args(["list", "--include-remote"]));
    let docs = text.lines().find(|l| l.starts_with("acme/docs ")).unwrap();
    assert!(
        docs.contains("  not installed  Search Acme's product documentation"),
        "{text}"
    );
    let tools = stdout(fx.agx(&home).args(["list", "--include-remote", "--tools"]));
    let web = tools
        .lines()
        .find(|l| l.starts_with("contoso/web/search "))
        .unwrap();
    assert!(web.ends_with("(not installed)"), "{tools}");
    assert_eq!(fx.downloads(), downloads);
}

#[test]
fn info_of_installed_and_remote_packages_and_servers() {
    let fx = Fixture::new();
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/weather@1.1.0"])
        .assert()
        .success();

    let text = stdout(fx.agx(&home).args(["info", "acme/weather"]));
    assert!(
        text.starts_with("acme/weather 1.1.0 (installed from registry"),
        "{text}"
    );
    assert!(text.contains("versions: 1.1.0, 1.2.0"), "{text}");
    assert!(text.contains("acme/geo ^1.0 (installed 1.0.0)"), "{text}");
    assert!(text.contains("  acme/weather/forecast — "), "{text}");
    assert!(text.contains("alerts(region: string"), "{text}");
    let info = json(fx.agx(&home).args(["info", "acme/weather", "--json"]));
    assert_eq!(info["installed"]["version"], "1.1.0");
    assert_eq!(info["installed"]["requested"], "=1.1.0");
    assert_eq!(info["dependencies"][0]["installed"], "1.0.0");
    assert_eq!(info["servers"][0]["name"], "forecast");
    assert_eq!(info["versions"][1]["version"], "1.2.0");

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
    let text = stdout(fx.agx(&home).args(["info", "acme/weather/forecast"]));
    assert!(
        text.contains("agx install-server <client> acme/weather/forecast"),
        "{text}"
    );
    let err = stderr_of_failure(fx.agx(&home).args(["info", "acme/weather/nope"]));
    assert!(
        err.contains("has no server `nope`") && err.contains("acme/weather/forecast"),
        "{err}"
    );

    // Not installed: registry metadata only, nothing downloaded.
    let downloads = fx.downloads();
    let info = json(fx.agx(&home).args(["info", "acme/research", "--json"]));
    assert_eq!(info["installed"], Value::Null);
    assert_eq!(info["version"], "0.9.0");
    assert_eq!(info["dependencies"][0]["name"], "acme/docs");
    assert_eq!(info["dependencies"][0]["installed"], Value::Null);
    assert_eq!(info["tools"][0]["name"], "cite");
    let text = stdout(fx.agx(&home).args(["info", "acme/research"]));
    assert!(
        text.contains("(not installed)") && text.contains("agx install acme/research"),
        "{text}"
    );
    let server = json(
        fx.agx(&home)
            .args(["info", "acme/research/research", "--json"]),
    );
    assert_eq!(server["installed"], false);
    assert_eq!(server["tools"][0]["name"], "acme/docs/search");
    assert_eq!(fx.downloads(), downloads);
    assert!(!home.agx_home().join("store-v1/acme/research").exists());
    let err = stderr_of_failure(fx.agx(&home).args(["info", "acme/nothing"]));
    assert!(err.contains("acme/nothing"), "{err}");
}

#[test]
fn failed_installs_leave_the_home_unchanged() {
    let fx = Fixture::new();
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/weather@1.1.0"])
        .assert()
        .success();
    let before = snapshot(&home);
    assert!(before.contains_key("receipts-v1/acme/weather.toml"));
    let tarball = "/dl/acme/weather/1.2.0.tar.gz";
    for (fault, needle) in [
        (Fault::NotFound, "not found"),
        (Fault::WrongBytes, "sha256"),
        (Fault::Truncate { keep: 100 }, "acme/weather"),
    ] {
        fx.server.fault(tarball, fault.clone());
        for args in [&["install", "acme/weather@1.2.0"][..], &["update"]] {
            let err = stderr_of_failure(fx.agx(&home).args(args));
            assert!(err.contains(needle), "{fault:?}: {err}");
            assert_eq!(
                snapshot(&home),
                before,
                "{fault:?} {args:?} changed the home"
            );
        }
    }
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
    // The same environment as `TestHome::agx`, as a std Command that can be killed.
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("agx"));
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.home())
        .env("AGX_HOME", home.agx_home())
        .env("NO_COLOR", "1")
        .env("AGX_NO_PROGRESS", "1")
        .env("AGX_REGISTRY", fx.server.url())
        .current_dir(home.home())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn killed_install_leaves_the_previous_state_and_a_rerun_succeeds() {
    let fx = Fixture::new();
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/weather@1.1.0"])
        .assert()
        .success();
    let before = snapshot(&home);
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
    assert_ne!(snapshot(&home), before);
}

#[test]
fn concurrent_installs_wait_for_each_other_and_both_finish() {
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
    let first = first.wait_with_output().unwrap();
    let second = second.wait_with_output().unwrap();
    let second_err = String::from_utf8_lossy(&second.stderr);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(second.status.success(), "{second_err}");
    assert!(
        second_err.contains("waiting for another agx process to finish (lock:"),
        "{second_err}"
    );
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
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/geo"])
        .assert()
        .success();
    let before = snapshot(&home);
    publish_raw(
        fx.registry_dir(),
        &hostile_tarball("evil-1.0.0/../../../escaped"),
    );
    let err = stderr_of_failure(fx.agx(&home).args(["install", "acme/evil"]));
    assert!(err.contains("cannot unpack acme/evil"), "{err}");
    assert!(err.contains("`..`"), "the cause names the bad entry: {err}");
    assert_eq!(snapshot(&home), before);
    assert!(!home.agx_home().join("escaped").exists());
    assert!(!home.agx_home().join("store-v1/escaped").exists());
    assert!(!home.home().join("escaped").exists());
}
