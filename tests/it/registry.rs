//! Integration tests: registry sources, HTTP caching and faults, publishing, search.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use agx_core::name::{PackageName, PackageSpec};
use agx_core::paths::AgxPaths;
use agx_sources::index::{HttpSettings, IndexError, Registry, Source};
use insta::assert_snapshot;
use predicates::prelude::*;

use crate::support::http::{Fault, HttpServer, raw_get};
use crate::support::{TestHome, outcome, tree, write_package};

#[test]
fn test_server_serves_files_and_injects_faults() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), b"hello").unwrap();
    let server = HttpServer::serve(dir.path());
    assert_eq!(raw_get(&server.url(), "/a.txt"), (200, b"hello".to_vec()));
    assert_eq!(raw_get(&server.url(), "/missing").0, 404);
    server.fault(
        "/a.txt",
        Fault::Fail {
            status: 500,
            times: 2,
        },
    );
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 500);
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 500);
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 200);
    server.fault("/a.txt", Fault::Truncate { keep: 2 });
    assert_eq!(raw_get(&server.url(), "/a.txt"), (200, b"he".to_vec()));
    server.fault("/a.txt", Fault::WrongBytes);
    assert_ne!(raw_get(&server.url(), "/a.txt").1, b"hello".to_vec());
    server.fault("/a.txt", Fault::NotFound);
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 404);
    assert_eq!(server.count("/a.txt"), 7);
}

/// A folder registry with acme/weather 1.0.0 and 1.1.0 (needing acme/geo ^1) and acme/geo 1.2.0.
fn sample_registry(home: &TestHome) -> PathBuf {
    let reg = home.home().join("reg");
    let src = home.home().join("src");
    home.agx()
        .args(["registry", "init"])
        .arg(&reg)
        .assert()
        .success();
    for (name, version, deps, tool) in [
        ("acme/geo", "1.2.0", vec![], "geocode"),
        (
            "acme/weather",
            "1.0.0",
            vec![("acme/geo", "^1.0")],
            "get_forecast",
        ),
        (
            "acme/weather",
            "1.1.0",
            vec![("acme/geo", "^1.0")],
            "get_forecast",
        ),
    ] {
        let dir = write_package(&src, name, version, &deps, tool);
        home.agx()
            .args(["registry", "add"])
            .arg(&reg)
            .arg(&dir)
            .assert()
            .success();
    }
    reg
}

fn fast_http(home: &TestHome) -> assert_cmd::Command {
    let mut cmd = home.agx();
    cmd.env("AGX_HTTP_BACKOFF_MS", "1")
        .env("AGX_HTTP_RETRIES", "2")
        .env("AGX_HTTP_TIMEOUT", "5");
    cmd
}

/// `agx --registry <registry> search weather`, with quick HTTP retries.
fn search_weather(home: &TestHome, registry: &str) -> assert_cmd::Command {
    let mut cmd = fast_http(home);
    cmd.args(["--registry", registry, "search", "weather"]);
    cmd
}

fn settings() -> HttpSettings {
    HttpSettings {
        timeout: Duration::from_secs(5),
        retries: 2,
        backoff: Duration::from_millis(1),
    }
}

#[test]
fn no_registry_configured_says_how_to_add_one() {
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().args(["search", "weather"])));
}

#[test]
fn sources_folder_file_url_and_loopback_http() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let _filters = home.snapshot_filters();
    let search = |source: &str| outcome(&mut search_weather(&home, source));
    let from_folder = search(&reg.display().to_string());
    assert_snapshot!("search_weather", from_folder);
    assert_eq!(search(&format!("file://{}", reg.display())), from_folder);
    let server = HttpServer::serve(&reg);
    // The same results; each says where it came from.
    assert_eq!(
        search(&server.url()).replace(&server.url(), &reg.display().to_string()),
        from_folder
    );

    assert_snapshot!("plain_http_refused", search("http://registry.example.com"));
    assert_snapshot!("unknown_registry_name", search("nosuchname"));
    let missing = home.home().join("missing");
    assert_snapshot!(
        "missing_registry_folder",
        search(&missing.display().to_string())
    );
}

#[test]
fn config_precedence_flag_over_env_over_file() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let empty = home.home().join("empty");
    home.agx()
        .args(["registry", "init"])
        .arg(&empty)
        .assert()
        .success();
    std::fs::create_dir_all(home.agx_home()).unwrap();
    std::fs::write(
        home.agx_home().join("config.toml"),
        format!(
            "default-registry = \"full\"\n[registries.full]\nurl = \"{}\"\n[registries.empty]\nurl = \"{}\"\n",
            reg.display(),
            empty.display()
        ),
    )
    .unwrap();
    let found = predicate::str::contains("acme/weather");
    // The file's default.
    home.agx()
        .args(["search", "weather"])
        .assert()
        .success()
        .stdout(found.clone());
    // AGX_REGISTRY (a configured name) overrides the file.
    home.agx()
        .env("AGX_REGISTRY", "empty")
        .args(["search", "weather"])
        .assert()
        .success()
        .stdout(found.clone().not());
    // --registry overrides AGX_REGISTRY.
    home.agx()
        .env("AGX_REGISTRY", "empty")
        .args(["--registry", "full", "search", "weather"])
        .assert()
        .success()
        .stdout(found);
    // A broken config file is named, with its line.
    std::fs::write(
        home.agx_home().join("config.toml"),
        "[registries.x]\nurl = 3\n",
    )
    .unwrap();
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "broken_config",
        outcome(home.agx().args(["search", "weather"]))
    );
}

#[test]
fn conditional_requests_reuse_the_cache_on_304() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let server = HttpServer::serve(&reg);
    for _ in 0..2 {
        search_weather(&home, &server.url())
            .assert()
            .success()
            .stdout(predicate::str::contains("acme/weather 1.1.0"));
    }
    let log = server.requests_for("/catalog.json");
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(!log[0].is_conditional());
    assert!(log[1].if_none_match.is_some(), "{log:?}");
    assert_eq!(log[1].status, 304);
}

#[test]
fn last_modified_alone_also_gives_304() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let server = HttpServer::serve(&reg);
    server.disable_etag();
    for _ in 0..2 {
        fast_http(&home)
            .args(["--registry", &server.url(), "search", "geo"])
            .assert()
            .success()
            .stdout(predicate::str::contains("acme/geo"));
    }
    let log = server.requests_for("/catalog.json");
    assert!(
        log[1].if_modified_since.is_some() && log[1].if_none_match.is_none(),
        "{log:?}"
    );
    assert_eq!(log[1].status, 304);
}

#[test]
fn offline_uses_only_the_cache() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let server = HttpServer::serve(&reg);
    let url = server.url();
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "offline_not_cached",
        outcome(fast_http(&home).args(["--offline", "--registry", &url, "search", "weather"]))
    );
    assert_eq!(server.requests().len(), 0);
    search_weather(&home, &url).assert().success();
    server.clear_log();
    fast_http(&home)
        .args(["--offline", "--registry", &url, "search", "weather"])
        .assert()
        .success()
        .stdout(predicate::str::contains("acme/weather 1.1.0"));
    assert_eq!(server.requests().len(), 0);
}

#[test]
fn network_failure_falls_back_to_the_cache_with_a_warning() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let server = HttpServer::serve(&reg);
    let url = server.url();
    search_weather(&home, &url).assert().success();
    drop(server);
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(fast_http(&home).args([
        "--registry",
        &url,
        "search",
        "weather"
    ])));
}

#[test]
fn index_faults_have_clear_errors() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let server = HttpServer::serve(&reg);
    let url = server.url();
    let _filters = home.snapshot_filters();
    let search = |home: &TestHome| outcome(&mut search_weather(home, &url));
    // 404: named, never parsed.
    server.fault("/catalog.json", Fault::NotFound);
    assert_snapshot!("catalog_not_found", search(&home));
    // Two 500s then success: retried.
    server.fault(
        "/catalog.json",
        Fault::Fail {
            status: 500,
            times: 2,
        },
    );
    server.clear_log();
    search_weather(&home, &url)
        .assert()
        .success()
        .stdout(predicate::str::contains("acme/weather"));
    let statuses: Vec<u16> = server
        .requests_for("/catalog.json")
        .iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, [500, 500, 200]);
    // 429 for longer than the retries allow, nothing cached: an error naming URL and status.
    let fresh = TestHome::new();
    server.fault(
        "/catalog.json",
        Fault::Fail {
            status: 429,
            times: 10,
        },
    );
    assert_snapshot!("catalog_too_many_requests", search(&fresh));
    // A body cut short is a network error naming the URL.
    server.fault("/catalog.json", Fault::Truncate { keep: 10 });
    assert_snapshot!("catalog_truncated", search(&fresh));
}

fn open_http(home: &TestHome, url: &str, offline: bool) -> Registry {
    let paths = AgxPaths::under(home.agx_home(), true);
    Registry::with_settings(Source::parse(url).unwrap(), offline, &paths, settings()).unwrap()
}

fn entry_of(registry: &Registry, name: &str, version: &str) -> agx_sources::index::IndexEntry {
    registry
        .versions(&PackageName::parse(name).unwrap())
        .unwrap()
        .into_iter()
        .find(|e| e.vers.to_string() == version)
        .unwrap()
}

#[test]
fn downloads_are_verified_and_stream_into_the_file() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let server = HttpServer::serve(&reg);
    let registry = open_http(&home, &server.url(), false);
    let entry = entry_of(&registry, "acme/weather", "1.1.0");
    let path = "/dl/acme/weather/1.1.0.tar.gz";
    let dest = home.home().join("download.tar.gz");
    let url = format!("{}{path}", server.url());

    let mut seen = Vec::new();
    registry
        .download(&entry, &dest, &mut |n| seen.push(n))
        .unwrap();
    assert_eq!(
        std::fs::read(&dest).unwrap(),
        std::fs::read(reg.join(&path[1..])).unwrap()
    );
    assert_eq!(*seen.last().unwrap(), entry.size);

    // Transient failures are retried.
    server.fault(
        path,
        Fault::Fail {
            status: 503,
            times: 2,
        },
    );
    registry.download(&entry, &dest, &mut |_| {}).unwrap();

    // Wrong bytes: expected and actual hash, byte count, URL; the file is removed.
    server.fault(path, Fault::WrongBytes);
    let err = registry.download(&entry, &dest, &mut |_| {}).unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, IndexError::ChecksumMismatch { .. }),
        "{err:?}"
    );
    assert!(text.contains(&url) && text.contains(&entry.cksum), "{text}");
    assert!(text.contains(&format!("({} bytes)", entry.size)), "{text}");
    let hint = agx_core::error::CliError::from(err).hint.unwrap();
    assert!(
        hint.contains("proxy") && hint.contains("re-uploaded"),
        "{hint}"
    );
    assert!(!dest.exists());

    // Truncated: retried, then an error saying how much arrived.
    server.fault(path, Fault::Truncate { keep: 100 });
    let err = registry.download(&entry, &dest, &mut |_| {}).unwrap_err();
    let full = agx_core::error::CliError::from(err);
    assert!(full.message.contains(&url), "{full:?}");
    assert!(
        full.causes
            .iter()
            .any(|c| c.contains(&format!("after 100 of {} bytes", entry.size))),
        "{full:?}"
    );
    assert!(!dest.exists());

    // 404: "not found", never hashed.
    server.fault(path, Fault::NotFound);
    let err = registry.download(&entry, &dest, &mut |_| {}).unwrap_err();
    assert_eq!(err.to_string(), format!("not found: {url}"));

    // The index says another size: refused before reading the body.
    server.clear_faults();
    let mut wrong = entry.clone();
    wrong.size += 1;
    let err = registry.download(&wrong, &dest, &mut |_| {}).unwrap_err();
    assert!(matches!(err, IndexError::SizeMismatch { .. }), "{err:?}");

    // Slow bodies still arrive whole.
    server.fault(
        path,
        Fault::Trickle {
            chunk: 64,
            delay: Duration::from_millis(1),
        },
    );
    registry.download(&entry, &dest, &mut |_| {}).unwrap();
    assert_eq!(std::fs::metadata(&dest).unwrap().len(), entry.size);

    // Offline never downloads.
    let offline = open_http(&home, &server.url(), true);
    assert!(matches!(
        offline.download(&entry, &dest, &mut |_| {}),
        Err(IndexError::Offline { .. })
    ));
}

#[test]
fn folder_registry_downloads_are_verified_too() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let paths = AgxPaths::under(home.agx_home(), true);
    let registry =
        agx_sources::index::open(Some(reg.to_str().unwrap()), None, false, &paths).unwrap();
    let entry = entry_of(&registry, "acme/geo", "1.2.0");
    let dest = home.home().join("geo.tar.gz");
    registry.download(&entry, &dest, &mut |_| {}).unwrap();
    let mut bad = entry.clone();
    bad.cksum = "0".repeat(64);
    let err = registry.download(&bad, &dest, &mut |_| {}).unwrap_err();
    assert!(
        matches!(err, IndexError::ChecksumMismatch { .. }),
        "{err:?}"
    );
}

#[test]
fn resolution_reads_the_registry() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let server = HttpServer::serve(&reg);
    let registry = open_http(&home, &server.url(), false);
    let roots = [PackageSpec::parse("acme/weather@^1").unwrap()];
    let resolution =
        agx_sources::resolve::resolve(&roots, &BTreeMap::new(), &|n| registry.versions(n)).unwrap();
    let picked: Vec<String> = resolution
        .packages
        .iter()
        .map(|p| format!("{}@{}", p.name, p.version))
        .collect();
    assert_eq!(picked, ["acme/geo@1.2.0", "acme/weather@1.1.0"]);
    let err = agx_sources::resolve::resolve(
        &[PackageSpec::parse("acme/nope").unwrap()],
        &BTreeMap::new(),
        &|n| registry.versions(n),
    )
    .unwrap_err();
    assert!(err.to_string().contains("acme/nope"), "{err}");
}

#[test]
fn registry_add_is_idempotent_and_immutable() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let src = home.home().join("src");
    let dir = src.join("acme-geo-1.2.0");
    let _filters = home.snapshot_filters();
    let add = |registry: &Path, package: &Path| {
        outcome(
            home.agx()
                .args(["registry", "add"])
                .arg(registry)
                .arg(package),
        )
    };
    assert_snapshot!("add_same_again", add(&reg, &dir));
    let before = std::fs::read(reg.join("packages/acme/geo.json")).unwrap();
    std::fs::write(dir.join("README.md"), "changed\n").unwrap();
    assert_snapshot!("add_changed_bytes", add(&reg, &dir));
    assert_eq!(
        std::fs::read(reg.join("packages/acme/geo.json")).unwrap(),
        before
    );

    // A tarball made by `agx pack` publishes the same bytes.
    let other = home.home().join("other");
    home.agx()
        .args(["registry", "init", "--name", "other"])
        .arg(&other)
        .assert()
        .success();
    let out = home.home().join("packed");
    std::fs::create_dir_all(&out).unwrap();
    let weather = src.join("acme-weather-1.1.0");
    home.agx()
        .arg("pack")
        .arg(&weather)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let tarball = std::fs::read_dir(&out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    home.agx()
        .args(["registry", "add"])
        .arg(&other)
        .arg(&tarball)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(other.join("packages/acme/weather.json")).unwrap(),
        std::fs::read(reg.join("packages/acme/weather.json"))
            .unwrap()
            .split(|b| *b == b'\n')
            .nth(1)
            .unwrap()
            .iter()
            .chain(b"\n")
            .copied()
            .collect::<Vec<u8>>()
    );

    // Packages without a description or a publisher are refused.
    let bare = write_package(&src, "loner", "1.0.0", &[], "t");
    assert_snapshot!("add_no_publisher", add(&reg, &bare));
    assert_snapshot!(
        "add_to_missing_registry",
        add(&home.home().join("nothing"), &bare)
    );
}

#[test]
fn yank_hides_a_version_from_ranges_and_undo_restores_it() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let _filters = home.snapshot_filters();
    let yank = |flags: &[&str], version: &str| {
        outcome(
            home.agx()
                .args(["registry", "yank"])
                .args(flags)
                .arg(&reg)
                .arg(version),
        )
    };
    let search = || {
        outcome(
            home.agx()
                .arg("--registry")
                .arg(&reg)
                .args(["search", "weather"]),
        )
    };
    assert_snapshot!("yank", yank(&[], "acme/weather@1.1.0"));
    let lines = std::fs::read_to_string(reg.join("packages/acme/weather.json")).unwrap();
    assert!(
        lines.lines().nth(1).unwrap().contains("\"yanked\":true"),
        "{lines}"
    );
    assert_snapshot!("search_while_yanked", search());
    assert_snapshot!("yank_again", yank(&[], "acme/weather@1.1.0"));
    assert_snapshot!("yank_undo", yank(&["--undo"], "acme/weather@1.1.0"));
    assert_snapshot!("search_after_undo", search());
    assert_snapshot!("yank_range", yank(&[], "acme/weather@^1"));
    assert_snapshot!("yank_not_published", yank(&[], "acme/weather@9.9.9"));
}

#[test]
fn search_ranks_and_prints_json() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let out = home
        .agx()
        .args(["--registry"])
        .arg(&reg)
        .args(["search", "geocode", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["query"], "geocode");
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["name"], "acme/geo");
    assert_eq!(results[0]["version"], "1.2.0");
    assert_eq!(results[0]["matched"][0], "tool:geocode");
    assert_eq!(results[0]["extension"]["tools"][0]["name"], "geocode");
    let _filters = home.snapshot_filters();
    let search = |query: &str| {
        outcome(
            home.agx()
                .arg("--registry")
                .arg(&reg)
                .args(["search", query]),
        )
    };
    assert_snapshot!("search_acme", search("acme"));
    assert_snapshot!("search_no_match", search("zebra"));
}

#[test]
fn fixture_registry_is_up_to_date() {
    let home = TestHome::new();
    let rebuilt = home.home().join("rebuilt");
    let status = home
        .command("sh")
        .arg(crate::support::repo_root().join("scripts/build-fixture-registry.sh"))
        .arg(&rebuilt)
        .env("AGX", crate::support::AGX)
        .status()
        .unwrap();
    assert!(status.success());
    let committed = crate::support::fixtures().join("registry");
    let (fresh, old) = (tree(&rebuilt), tree(&committed));
    assert!(
        fresh.len() > 2,
        "no fixture packages were published: {:?}",
        fresh.keys()
    );
    let stale: Vec<&String> = fresh
        .keys()
        .chain(old.keys())
        .filter(|k| fresh.get(*k) != old.get(*k))
        .collect();
    assert!(
        stale.is_empty(),
        "registry-fixtures/registry is stale ({stale:?}); run scripts/build-fixture-registry.sh"
    );
}

#[test]
fn concurrent_publishing_loses_no_update() {
    let home = TestHome::new();
    let reg = home.home().join("reg");
    home.agx()
        .args(["registry", "init"])
        .arg(&reg)
        .assert()
        .success();
    let src = home.home().join("src");
    let dirs: Vec<PathBuf> = (0..6)
        .map(|i| write_package(&src, &format!("acme/p{i}"), "1.0.0", &[], "t"))
        .collect();
    std::thread::scope(|scope| {
        for dir in &dirs {
            let (home, reg) = (&home, &reg);
            scope.spawn(move || {
                home.agx()
                    .args(["registry", "add"])
                    .arg(reg)
                    .arg(dir)
                    .assert()
                    .success();
            });
        }
    });
    let catalog: serde_json::Value =
        serde_json::from_slice(&std::fs::read(reg.join("catalog.json")).unwrap()).unwrap();
    assert_eq!(
        catalog["packages"].as_array().unwrap().len(),
        6,
        "{catalog}"
    );
}

#[test]
fn redirects_are_followed_but_never_to_plain_http_elsewhere() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    std::fs::copy(reg.join("catalog.json"), reg.join("moved.json")).unwrap();
    let server = HttpServer::serve(&reg);
    let url = server.url();
    server.fault(
        "/catalog.json",
        Fault::Redirect {
            location: format!("{url}/moved.json"),
        },
    );
    search_weather(&home, &url)
        .assert()
        .success()
        .stdout(predicate::str::contains("acme/weather"));
    assert_eq!(server.count("/moved.json"), 1);
    server.fault(
        "/catalog.json",
        Fault::Redirect {
            location: "http://registry.example.com/catalog.json".into(),
        },
    );
    let fresh = TestHome::new();
    let _filters = fresh.snapshot_filters();
    assert_snapshot!(outcome(fast_http(&fresh).args([
        "--registry",
        &url,
        "search",
        "weather"
    ])));
    // Refused once, not retried.
    assert_eq!(server.count("/catalog.json"), 2);
}

#[test]
fn bad_http_settings_are_named() {
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().env("AGX_HTTP_TIMEOUT", "soon").args([
        "--registry",
        "https://registry.example.com",
        "search",
        "x"
    ])));
    // Folder registries need no HTTP settings.
    let reg = sample_registry(&home);
    home.agx()
        .env("AGX_HTTP_TIMEOUT", "soon")
        .arg("--registry")
        .arg(&reg)
        .args(["search", "geo"])
        .assert()
        .success();
}

/// Every file `agx registry init/add` wrote was 0600, so the web server that should serve
/// the registry could read none of them: they follow the umask, as `touch` would (0644
/// under 022), even when the published tarball itself was private.
#[cfg(unix)]
#[test]
fn registry_files_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let home = TestHome::new();
    let probe = home.home().join("probe");
    std::fs::File::create(&probe).unwrap();
    let expected = mode(&probe);
    let reg = sample_registry(&home);
    let folder = write_package(
        &home.home().join("private"),
        "acme/private",
        "1.0.0",
        &[],
        "t",
    );
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
    std::fs::set_permissions(&tarball, std::fs::Permissions::from_mode(0o600)).unwrap();
    home.agx()
        .args(["registry", "add"])
        .arg(&reg)
        .arg(&tarball)
        .assert()
        .success();
    let files: Vec<String> = tree(&reg)
        .into_keys()
        .filter(|f| !f.ends_with('/'))
        .collect();
    assert!(files.iter().any(|f| f == "config.json"), "{files:?}");
    assert!(files.iter().any(|f| f.contains("private")), "{files:?}");
    for rel in &files {
        assert_eq!(mode(&reg.join(rel)), expected, "{rel}");
    }
}

#[test]
fn a_registry_that_asks_for_credentials_gets_them_and_no_other_host_does() {
    const TOKEN: &str = "canary-token-5b1e08";
    let fixture = crate::support::Fixture::new();
    fixture
        .server
        .require_authorization(&format!("Bearer {TOKEN}"));
    // The archives are served by another host (`localhost`, another port: a blob store),
    // which asks for nothing.
    let store = crate::support::http::HttpServer::serve(fixture.server.root());
    let store_port = store.url().rsplit(':').next().unwrap().to_string();
    let tarball = "/dl/acme/geo/1.0.0.tar.gz";
    fixture.server.fault(
        tarball,
        Fault::Redirect {
            location: format!("http://localhost:{store_port}{tarball}"),
        },
    );
    let url = fixture.server.url();

    // No credential anywhere: refused, saying how to give one.
    let home = TestHome::new();
    let out = home
        .agx()
        .args(["--registry", &url, "install", "acme/geo"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && err.contains("answered 401 Unauthorized (no credential was found for it)")
            && err.contains("agx login 127.0.0.1:"),
        "{err}"
    );

    // A configured source with AGX_TOKEN__MAIN: asked after the 401, sent to its host only.
    let run = |args: &[&str]| {
        let out = home
            .agx()
            .args(args)
            .env("AGX_TOKEN__MAIN", TOKEN)
            .env("AGX_KEYRING", "file")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "agx {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    run(&["registry", "add-source", "main", &url]);
    let out = run(&["-v", "install", "acme/geo"]);
    for stream in [&out.stdout, &out.stderr] {
        assert!(!String::from_utf8_lossy(stream).contains(TOKEN));
    }
    let answered: Vec<_> = fixture
        .server
        .requests()
        .into_iter()
        .filter(|r| r.status != 401)
        .collect();
    assert!(!answered.is_empty());
    assert!(
        answered
            .iter()
            .all(|r| r.authorization.as_deref() == Some(&format!("Bearer {TOKEN}"))),
        "{answered:?}"
    );
    let redirected = store.requests();
    assert_eq!(redirected.len(), 1, "{redirected:?}");
    assert_eq!(
        redirected[0].authorization, None,
        "the blob store saw the token"
    );
    assert_eq!(
        crate::support::files_holding(home.home(), TOKEN),
        Vec::<PathBuf>::new()
    );

    // `agx login HOST --token-stdin` for another home.
    let other = TestHome::new();
    let host = url.trim_start_matches("http://").to_string();
    let out = other
        .agx()
        .args(["login", &host, "--token-stdin"])
        .env("AGX_KEYRING", "file")
        .write_stdin(format!("{TOKEN}\n"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = other
        .agx()
        .args(["--registry", &url, "install", "acme/geo"])
        .env("AGX_KEYRING", "file")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A real TLS server on 127.0.0.1 (`openssl s_server -WWW`, serving `root`'s files), its
/// certificate signed by a CA made for the test; stopped when dropped.
struct TlsFiles {
    child: std::process::Child,
    port: u16,
    certs: tempfile::TempDir,
}

impl TlsFiles {
    fn serve(root: &Path) -> TlsFiles {
        use crate::support::oci_registry::{make_certificates, tool};
        let certs = tempfile::tempdir().unwrap();
        make_certificates(certs.path());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = std::process::Command::new(tool("openssl"))
            .args(["s_server", "-quiet", "-WWW", "-accept"])
            .arg(format!("127.0.0.1:{port}"))
            .arg("-cert")
            .arg(certs.path().join("server.crt"))
            .arg("-key")
            .arg(certs.path().join("server.key"))
            .current_dir(root)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "s_server did not start"
            );
            assert!(child.try_wait().unwrap().is_none(), "s_server exited");
            std::thread::sleep(Duration::from_millis(20));
        }
        TlsFiles { child, port, certs }
    }

    fn url(&self) -> String {
        format!("https://127.0.0.1:{}", self.port)
    }

    fn ca_file(&self) -> PathBuf {
        self.certs.path().join("ca.crt")
    }
}

impl Drop for TlsFiles {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The system's roots are read at the first HTTPS handshake (not when agx starts), and they
/// still decide: a certificate they do not vouch for is refused, one they do is accepted.
#[test]
fn an_https_registry_is_checked_against_the_system_roots() {
    let home = TestHome::new();
    let reg = sample_registry(&home);
    let from_folder = outcome(&mut search_weather(&home, &reg.display().to_string()));
    let server = TlsFiles::serve(&reg);

    // The test's CA is not among the machine's roots: refused at once (a retry would be
    // refused too), with a hint about trust, not about the connection.
    let mut cmd = search_weather(&home, &server.url());
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("invalid peer certificate"), "{stderr}");
    assert!(!stderr.contains("attempts)"), "{stderr}");
    assert!(
        stderr.contains("hint: the server's certificate is not one this machine trusts"),
        "{stderr}"
    );

    // The system's roots as the test says (rustls-native-certs reads SSL_CERT_FILE): found.
    let mut cmd = search_weather(&home, &server.url());
    cmd.env("SSL_CERT_FILE", server.ca_file());
    let trusted = outcome(&mut cmd);
    assert_eq!(
        trusted.replace(&server.url(), &reg.display().to_string()),
        from_folder
    );
}
