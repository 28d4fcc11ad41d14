//! Integration tests: the local store and the package commands (install, uninstall, update,
//! outdated, list, info), against a registry built with `agx registry` and served over HTTP
//! on 127.0.0.1 by the test server.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::TestHome;
use crate::support::http::{Fault, HttpServer};

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

/// A registry with acme/geo 1.0.0 and 1.4.0, acme/weather 1.1.0 and 1.2.0 (needs geo ^1.0,
/// has a server), and acme/maps 1.0.0 (needs geo ^1.0). Built and served over HTTP.
struct Fixture {
    _build: TestHome,
    sources: PathBuf,
    server: HttpServer,
}

impl Fixture {
    fn new() -> Fixture {
        let build = TestHome::new();
        let sources = build.home().join("src");
        let registry = build.home().join("registry");
        build
            .agx()
            .args(["registry", "init"])
            .arg(&registry)
            .assert()
            .success();
        for (name, version, deps, server) in [
            ("acme/geo", "1.0.0", &[][..], false),
            ("acme/geo", "1.4.0", &[], false),
            ("acme/weather", "1.1.0", &[("acme/geo", "^1.0")], true),
            ("acme/weather", "1.2.0", &[("acme/geo", "^1.0")], true),
            ("acme/maps", "1.0.0", &[("acme/geo", "^1.0")], false),
        ] {
            let dir = sources.join(format!("{}-{version}", name.replace('/', "-")));
            write_package(&dir, name, version, deps, server);
            build
                .agx()
                .args(["registry", "add"])
                .arg(&registry)
                .arg(&dir)
                .assert()
                .success();
        }
        Fixture {
            server: HttpServer::serve(registry),
            sources,
            _build: build,
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
    assert!(err.contains("Installed acme/geo v1.4.0"), "{err}");
    assert!(err.contains("Installed acme/weather v1.2.0"), "{err}");
    assert!(out.get_output().stdout.is_empty(), "results only on stdout");
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.4.0", "acme/weather@1.2.0"]
    );

    let store = home.agx_home().join("store-v1/acme/weather/1.2.0");
    assert!(store.join("agx.toml").is_file());
    assert!(store.join(".agx-complete").is_file());
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/acme/weather.toml")).unwrap();
    assert!(receipt.contains("explicit = true"), "{receipt}");
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
    let dir = home.home().join("notes");
    write_package(&dir, "notes", "0.1.0", &[("acme/geo", "^1")], true);
    fx.agx(&home)
        .args(["install", "./notes"])
        .assert()
        .success()
        .stderr(predicates::str::contains("Installed notes v0.1.0"));
    assert_eq!(installed(&fx, &home), ["acme/geo@1.4.0", "notes@0.1.0"]);
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
    let manifest = dir.join("agx.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("The notes package", "Edited notes")).unwrap();
    fx.agx(&home)
        .args(["install", "./notes"])
        .assert()
        .success()
        .stderr(predicates::str::contains("Reinstalled notes v0.1.0"));
    assert!(stdout(fx.agx(&home).arg("list")).contains("Edited notes"));

    // A tarball made by `agx pack`.
    let pkg = fx.sources.join("acme-maps-1.0.0");
    home.agx()
        .args(["pack"])
        .arg(&pkg)
        .arg("-o")
        .arg(home.home())
        .assert()
        .success();
    let tarball = home.home().join("acme-maps-1.0.0.tar.gz");
    fx.agx(&home)
        .arg("install")
        .arg(&tarball)
        .assert()
        .success()
        .stderr(predicates::str::contains("Installed acme/maps v1.0.0"));
    let info = json(fx.agx(&home).args(["info", "acme/maps", "--json"]));
    assert_eq!(info["installed"]["source"]["kind"], "local");

    // A folder that is not a valid package is refused, and changes nothing.
    let before = snapshot(&home);
    std::fs::create_dir_all(home.home().join("broken")).unwrap();
    std::fs::write(
        home.home().join("broken/agx.toml"),
        "[package]\nname = \"x\"\n",
    )
    .unwrap();
    let err = stderr_of_failure(fx.agx(&home).args(["install", "./broken"]));
    assert!(err.contains("not valid"), "{err}");
    let err = stderr_of_failure(fx.agx(&home).args(["install", "./missing"]));
    assert!(err.contains("cannot install `./missing`"), "{err}");
    assert_eq!(snapshot(&home), before);
}

#[test]
fn uninstall_refuses_dependents_then_cleans_dependencies() {
    let fx = Fixture::new();
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/weather", "acme/maps"])
        .assert()
        .success();
    let err = stderr_of_failure(fx.agx(&home).args(["uninstall", "acme/geo"]));
    assert!(
        err.contains("acme/maps 1.0.0, acme/weather 1.2.0 depend on it"),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    assert_eq!(installed(&fx, &home).len(), 3);

    // geo stays while maps needs it, and goes with the last package that needed it.
    fx.agx(&home)
        .args(["uninstall", "acme/weather"])
        .assert()
        .success();
    assert_eq!(installed(&fx, &home), ["acme/geo@1.4.0", "acme/maps@1.0.0"]);
    assert!(!home.agx_home().join("store-v1/acme/weather").exists());
    fx.agx(&home)
        .args(["uninstall", "acme/maps"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "Removed acme/geo v1.4.0 (no longer needed)",
        ));
    assert!(installed(&fx, &home).is_empty());

    // An explicitly installed dependency stays; --force removes a needed package.
    fx.agx(&home)
        .args(["install", "acme/geo", "acme/maps"])
        .assert()
        .success();
    fx.agx(&home)
        .args(["uninstall", "--force", "acme/geo"])
        .assert()
        .success()
        .stderr(predicates::str::contains("acme/maps 1.0.0 needs acme/geo"));
    assert_eq!(installed(&fx, &home), ["acme/maps@1.0.0"]);
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
    fx.agx(&home)
        .args(["install", "acme/geo@1.0.0"])
        .assert()
        .success();
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.0.0", "acme/weather@1.1.0"]
    );

    let outdated = json(fx.agx(&home).args(["outdated", "--json"]));
    let rows = outdated["packages"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{outdated}");
    let weather = rows.iter().find(|r| r["name"] == "acme/weather").unwrap();
    assert_eq!(weather["current"], "1.1.0");
    assert_eq!(weather["wanted"], "1.2.0");
    assert_eq!(weather["latest"], "1.2.0");
    let text = stdout(fx.agx(&home).arg("outdated"));
    assert!(
        text.contains("acme/weather") && text.contains("1.2.0"),
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
    assert!(
        home.agx_home()
            .join("store-v1/acme/weather/1.2.0/.agx-complete")
            .is_file()
    );

    fx.agx(&home).arg("update").assert().success();
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.4.0", "acme/weather@1.2.0"]
    );
    let outdated = json(fx.agx(&home).args(["outdated", "--json"]));
    assert_eq!(outdated["packages"].as_array().unwrap().len(), 0);
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
    assert!(text.contains("acme/weather  1.2.0  The weather package [servers: main; tools: weather_tool; prompts: Ask]"), "{text}");
    assert_eq!(text.lines().count(), 2);

    let tools = stdout(fx.agx(&home).args(["list", "--tools"]));
    assert!(
        tools.contains("acme/geo/geo_tool") && tools.contains("Tool of weather"),
        "{tools}"
    );
    let servers = stdout(fx.agx(&home).args(["list", "--servers"]));
    assert_eq!(servers.trim(), "acme/weather/main  Main server of weather");
    let prompts = json(fx.agx(&home).args(["list", "--prompts", "--json"]));
    assert_eq!(prompts["prompts"][0]["name"], "acme/weather/Ask");
    assert_eq!(prompts["prompts"][0]["arguments"][0], "q");
    assert_eq!(prompts["prompts"][0]["installed"], true);

    let list = json(fx.agx(&home).args(["list", "--json"]));
    let weather = &list["packages"][1];
    assert_eq!(weather["name"], "acme/weather");
    assert_eq!(weather["explicit"], true);
    assert_eq!(weather["servers"][0]["tools"][0], "weather_tool");
    assert_eq!(weather["tools"][0]["parameters"][0]["name"], "place");

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
            ("acme/geo", true),
            ("acme/maps", false),
            ("acme/weather", true)
        ]
    );
    let text = stdout(fx.agx(&home).args(["list", "--include-remote"]));
    assert!(
        text.contains("acme/maps     1.0.0  not installed"),
        "{text}"
    );
    let tools = stdout(fx.agx(&home).args(["list", "--include-remote", "--tools"]));
    let maps = tools
        .lines()
        .find(|l| l.starts_with("acme/maps/maps_tool "))
        .unwrap();
    assert!(maps.ends_with(" Tool of maps (not installed)"), "{tools}");
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
    assert!(text.contains("acme/geo ^1.0 (installed 1.4.0)"), "{text}");
    assert!(
        text.contains("weather_tool(place: string) — Tool of weather"),
        "{text}"
    );
    let info = json(fx.agx(&home).args(["info", "acme/weather", "--json"]));
    assert_eq!(info["installed"]["version"], "1.1.0");
    assert_eq!(info["license"], "MIT");
    assert_eq!(info["dependencies"][0]["installed"], "1.4.0");
    assert_eq!(info["servers"][0]["name"], "main");

    let server = json(fx.agx(&home).args(["info", "acme/weather/main", "--json"]));
    assert_eq!(server["name"], "acme/weather/main");
    assert_eq!(server["instructions"], "Call weather_tool");
    assert_eq!(server["tools"][0]["name"], "acme/weather/weather_tool");
    assert_eq!(server["tools"][0]["description"], "Tool of weather");
    assert_eq!(server["prompts"][0]["arguments"][0], "q");
    let err = stderr_of_failure(fx.agx(&home).args(["info", "acme/weather/nope"]));
    assert!(
        err.contains("has no server `nope`") && err.contains("acme/weather/main"),
        "{err}"
    );

    // Not installed: registry metadata only, nothing downloaded.
    let downloads = fx.downloads();
    let info = json(fx.agx(&home).args(["info", "acme/maps", "--json"]));
    assert_eq!(info["installed"], Value::Null);
    assert_eq!(info["version"], "1.0.0");
    assert_eq!(info["dependencies"][0]["name"], "acme/geo");
    assert_eq!(info["tools"][0]["name"], "maps_tool");
    let text = stdout(fx.agx(&home).args(["info", "acme/maps"]));
    assert!(
        text.contains("(not installed)") && text.contains("agx install acme/maps"),
        "{text}"
    );
    assert_eq!(fx.downloads(), downloads);
    assert!(!home.agx_home().join("store-v1/acme/maps").exists());
    let err = stderr_of_failure(fx.agx(&home).args(["info", "acme/nothing"]));
    assert!(err.contains("acme/nothing"), "{err}");
}

#[test]
fn failed_installs_leave_the_home_unchanged() {
    let fx = Fixture::new();
    let home = TestHome::new();
    fx.agx(&home)
        .args(["install", "acme/geo@1.0.0"])
        .assert()
        .success();
    let before = snapshot(&home);
    assert!(before.contains_key("receipts-v1/acme/geo.toml"));
    let tarball = "/dl/acme/weather/1.2.0.tar.gz";
    for (fault, needle) in [
        (Fault::NotFound, "not found"),
        (Fault::WrongBytes, "sha256"),
        (Fault::Truncate { keep: 100 }, "acme/weather"),
    ] {
        fx.server.fault(tarball, fault.clone());
        let err = stderr_of_failure(fx.agx(&home).args(["install", "acme/weather"]));
        assert!(err.contains(needle), "{fault:?}: {err}");
        assert_eq!(snapshot(&home), before, "{fault:?} changed the home");
    }
    fx.server.clear_faults();
    fx.agx(&home)
        .args(["install", "acme/weather"])
        .assert()
        .success();
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
        .args(["install", "acme/geo"])
        .assert()
        .success();
    let before = installed(&fx, &home);
    let tarball = "/dl/acme/weather/1.2.0.tar.gz";
    fx.server.fault(
        tarball,
        Fault::Trickle {
            chunk: 16,
            delay: Duration::from_millis(100),
        },
    );
    let mut child = spawn(&fx, &home, &["install", "acme/weather"]);
    wait_for_request(&fx.server, tarball);
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();

    assert_eq!(installed(&fx, &home), before);
    assert!(
        !home
            .agx_home()
            .join("receipts-v1/acme/weather.toml")
            .exists()
    );
    fx.server.clear_faults();
    fx.agx(&home)
        .args(["install", "acme/weather"])
        .assert()
        .success();
    assert_eq!(
        installed(&fx, &home),
        ["acme/geo@1.4.0", "acme/weather@1.2.0"]
    );
    let staging = home.agx_home().join("store-v1/.staging");
    assert_eq!(
        std::fs::read_dir(staging).unwrap().count(),
        0,
        "leftovers cleaned"
    );
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
    let second = spawn(&fx, &home, &["install", "acme/maps"]);
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
        ["acme/geo@1.4.0", "acme/maps@1.0.0", "acme/weather@1.2.0"]
    );
    for name in ["geo/1.4.0", "maps/1.0.0", "weather/1.2.0"] {
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
    assert_eq!(snapshot(&home), before);
    assert!(!home.agx_home().join("escaped").exists());
    assert!(!home.agx_home().join("store-v1/escaped").exists());
    assert!(!home.home().join("escaped").exists());
}
