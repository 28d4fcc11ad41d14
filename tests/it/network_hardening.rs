//! Integration tests: a registry that stalls, trickles, answers too much or answers `304`
//! out of turn, and a dependency chain deeper than a hundred packages. Each runs the real
//! `agx` against servers on 127.0.0.1.

use std::path::{Path, PathBuf};
use std::time::Duration;

use predicates::prelude::*;

use crate::support::http::{HttpServer, Odd, OddServer};
use crate::support::{TestHome, copy_tree, fixtures};

const INDEX: &str = "/packages/acme/geo.json";
const ARCHIVE: &str = "/dl/acme/geo/1.0.0.tar.gz";

/// Long enough for any run that works; a run that hangs fails here instead of freezing
/// the test suite.
const HANG_GUARD: Duration = Duration::from_secs(90);

/// The fixture registry, copied to a temp folder and served by an [`OddServer`].
fn fixture_server() -> (tempfile::TempDir, OddServer) {
    let copy = tempfile::tempdir().unwrap();
    copy_tree(&fixtures().join("registry"), copy.path());
    let server = OddServer::serve(copy.path());
    (copy, server)
}

/// `agx install acme/geo` from `server`, with no retry waits.
fn install_geo(home: &TestHome, server: &OddServer) -> assert_cmd::Command {
    let mut cmd = home.agx();
    cmd.env("AGX_REGISTRY", server.url())
        .env("AGX_HTTP_BACKOFF_MS", "1")
        .args(["install", "acme/geo"])
        .timeout(HANG_GUARD);
    cmd
}

/// Cached copies of `packages/acme/geo.json` under the home's index cache.
fn cached_copies(home: &TestHome) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.ends_with("files/packages/acme/geo.json") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&home.agx_home().join("cache"), &mut out);
    out
}

/// After a failed transfer of `path`: no cached copy of the index file, nothing installed.
fn assert_nothing_kept(home: &TestHome, path: &str) {
    if path == INDEX {
        assert!(cached_copies(home).is_empty());
    }
    let out = home.agx().args(["list", "--json"]).output().unwrap();
    assert!(out.status.success());
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(!listed.contains("acme/geo"), "{listed}");
}

#[test]
fn a_trickle_of_one_byte_every_two_seconds_is_cut_off() {
    // The read timeout restarts with every byte; the minimum rate (its default, 10 bytes per
    // second, judged over each AGX_HTTP_TIMEOUT window) ends such a transfer.
    for path in [INDEX, ARCHIVE] {
        let (_copy, server) = fixture_server();
        let home = TestHome::new();
        server.odd(
            path,
            Odd::Drip {
                interval: Duration::from_secs(2),
            },
        );
        let url = format!("{}{path}", server.url());
        install_geo(&home, &server)
            .env("AGX_HTTP_TIMEOUT", "3")
            .env("AGX_HTTP_RETRIES", "1")
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!(
                "{url} is too slow (2 attempts): "
            )))
            .stderr(predicate::str::contains(
                "below the minimum of 10 bytes per second",
            ))
            .stderr(predicate::str::contains("AGX_HTTP_MIN_RATE"));
        assert_eq!(server.odd_requests_for(path).len(), 2);
        assert_nothing_kept(&home, path);
    }
}

#[test]
fn a_transfer_that_outlasts_the_deadline_is_cut_off() {
    for path in [INDEX, ARCHIVE] {
        let (_copy, server) = fixture_server();
        let home = TestHome::new();
        server.odd(
            path,
            Odd::Drip {
                interval: Duration::from_millis(200),
            },
        );
        let url = format!("{}{path}", server.url());
        install_geo(&home, &server)
            .env("AGX_HTTP_DEADLINE", "1.5")
            .env("AGX_HTTP_MIN_RATE", "0")
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!(
                "{url} did not arrive within 1.5 s: "
            )))
            .stderr(predicate::str::contains("AGX_HTTP_DEADLINE"));
        // The deadline covers every attempt: none is made once it has passed.
        assert_eq!(server.odd_requests_for(path).len(), 1);
        assert_nothing_kept(&home, path);
    }
}

#[test]
fn transfer_limits_that_are_not_numbers_are_named() {
    let (_copy, server) = fixture_server();
    let home = TestHome::new();
    for (var, value, expected) in [
        ("AGX_HTTP_DEADLINE", "soon", "expected a number of seconds"),
        (
            "AGX_HTTP_DEADLINE",
            "0",
            "expected a positive number of seconds",
        ),
        (
            "AGX_HTTP_MIN_RATE",
            "-1",
            "expected a whole number of bytes per second",
        ),
        (
            "AGX_HTTP_MAX_INDEX_SIZE",
            "0",
            "expected a positive number of bytes",
        ),
    ] {
        install_geo(&home, &server)
            .env(var, value)
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!(
                "invalid setting {var}={value}: {expected}"
            )));
    }
}

#[test]
fn an_oversized_chunked_index_file_is_refused_and_never_cached() {
    let (_copy, server) = fixture_server();
    let home = TestHome::new();
    let url = format!("{}{INDEX}", server.url());
    // The default cap (64 MiB), then one set by AGX_HTTP_MAX_INDEX_SIZE.
    server.odd(
        INDEX,
        Odd::Chunked {
            size: 65 * 1024 * 1024,
        },
    );
    install_geo(&home, &server)
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "{url} is larger than 64 MiB, the limit for an index file"
        )))
        .stderr(predicate::str::contains("AGX_HTTP_MAX_INDEX_SIZE"));
    server.odd(INDEX, Odd::Chunked { size: 4096 });
    install_geo(&home, &server)
        .env("AGX_HTTP_MAX_INDEX_SIZE", "4000")
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "{url} is larger than 3.9 KiB, the limit for an index file"
        )));
    assert!(cached_copies(&home).is_empty());
    // Nothing was kept: once the registry is sane, the install works.
    server.normal(INDEX);
    install_geo(&home, &server).assert().success();
    assert_eq!(cached_copies(&home).len(), 1);
}

#[test]
fn not_modified_with_nothing_cached_is_an_error_that_says_so() {
    let (_copy, server) = fixture_server();
    let home = TestHome::new();
    let url = format!("{}{INDEX}", server.url());
    server.odd(INDEX, Odd::NotModified);
    install_geo(&home, &server)
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "{url} answered 304 Not Modified to a request for the whole file, and no copy is cached"
        )))
        .stderr(predicate::str::contains("report it to the registry"));
    let log = server.odd_requests_for(INDEX);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(!log[0].is_conditional());
    assert!(cached_copies(&home).is_empty());
}

#[test]
fn a_damaged_cached_copy_is_fetched_again_without_conditions() {
    let (_copy, server) = fixture_server();
    let home = TestHome::new();
    let url = format!("{}{INDEX}", server.url());
    install_geo(&home, &server).assert().success();
    home.agx()
        .env("AGX_REGISTRY", server.url())
        .args(["uninstall", "acme/geo"])
        .assert()
        .success();
    let [cached] = cached_copies(&home).try_into().unwrap();
    let good = std::fs::read(&cached).unwrap();

    // The server vouches for the copy (304), which is damaged: agx asks again for the whole
    // file and repairs the cache.
    std::fs::write(&cached, "{damaged").unwrap();
    let backend = server.backend();
    backend.clear_log();
    install_geo(&home, &server).assert().success();
    let log = backend.requests_for(INDEX);
    let seen: Vec<(bool, u16)> = log.iter().map(|r| (r.is_conditional(), r.status)).collect();
    assert_eq!(seen, [(true, 304), (false, 200)], "{log:?}");
    assert_eq!(std::fs::read(&cached).unwrap(), good);

    // A server that answers 304 even then: one unconditional retry, then a clear error.
    home.agx()
        .env("AGX_REGISTRY", server.url())
        .args(["uninstall", "acme/geo"])
        .assert()
        .success();
    std::fs::write(&cached, "{damaged").unwrap();
    server.odd(INDEX, Odd::NotModified);
    install_geo(&home, &server)
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "{url} answered 304 Not Modified to a request for the whole file"
        )));
    let log = server.odd_requests_for(INDEX);
    let conditional: Vec<bool> = log.iter().map(|r| r.is_conditional()).collect();
    assert_eq!(conditional, [true, false], "{log:?}");
}

/// A package `deep/c<i>` at 1.0.0 that depends on `deep/c<i+1>` (the last on nothing),
/// published into the folder registry `registry` through the library.
fn publish_link(registry: &Path, sources: &Path, i: usize, depth: usize) {
    let dir = sources.join(format!("c{i}"));
    std::fs::create_dir_all(dir.join("agx/prompts")).unwrap();
    let deps = if i + 1 < depth {
        format!("[dependencies]\n\"deep/c{}\" = \"^1\"\n\n", i + 1)
    } else {
        String::new()
    };
    std::fs::write(
        dir.join("agx.toml"),
        format!(
            "[package]\nname = \"deep/c{i}\"\nversion = \"1.0.0\"\ndescription = \"Link {i} of a chain\"\n\n{deps}[extension]\nprompts = [\"Next\"]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("agx/prompts/Next.toml"),
        "name = \"Next\"\ndescription = \"The next link\"\ncontent = \"next\"\n",
    )
    .unwrap();
    agx_sources::index::publish::add(registry, &dir, None).unwrap();
}

#[test]
fn a_chain_of_150_dependencies_installs_from_a_loopback_registry() {
    const DEPTH: usize = 150;
    let work = tempfile::tempdir().unwrap();
    let registry = work.path().join("registry");
    agx_sources::index::publish::init(&registry, Some("deep")).unwrap();
    for i in 0..DEPTH {
        publish_link(&registry, &work.path().join("src"), i, DEPTH);
    }
    let server = HttpServer::serve(&registry);
    let home = TestHome::new();
    home.agx()
        .env("AGX_REGISTRY", server.url())
        .args(["install", "deep/c0"])
        .timeout(HANG_GUARD)
        .assert()
        .success();
    let out = home.agx().args(["list", "--json"]).output().unwrap();
    assert!(out.status.success());
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = listed.to_string();
    for i in [0, 100, DEPTH - 1] {
        assert!(
            text.contains(&format!("\"deep/c{i}\"")),
            "deep/c{i}: {text}"
        );
    }
    assert_eq!(
        server.count(&format!("/dl/deep/c{}/1.0.0.tar.gz", DEPTH - 1)),
        1
    );
    assert_eq!(
        server
            .requests()
            .iter()
            .filter(|r| r.path.starts_with("/dl/"))
            .count(),
        DEPTH
    );
}

/// `agx install` held the exclusive store lock while it resolved and downloaded: a stalled
/// archive blocked `list`, `info` and `serve` of installed packages on the whole machine.
/// Now it downloads into its own staging folder and locks only to commit.
#[test]
fn readers_of_the_store_go_on_while_an_install_is_downloading() {
    let (_copy, server) = fixture_server();
    let home = TestHome::new();
    home.agx()
        .env("AGX_REGISTRY", server.url())
        .args(["install", "acme/docs"])
        .timeout(HANG_GUARD)
        .assert()
        .success();

    // The archive's headers, then one byte an hour: the download cannot end during the test.
    server.odd(
        ARCHIVE,
        Odd::Drip {
            interval: Duration::from_secs(3600),
        },
    );
    let mut install = KillOnDrop(
        home.command(crate::support::AGX)
            .env("AGX_REGISTRY", server.url())
            .env("AGX_HTTP_TIMEOUT", "7200")
            .env("AGX_HTTP_MIN_RATE", "0")
            .env("AGX_HTTP_DEADLINE", "7200")
            .args(["install", "acme/geo"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    while server.odd_requests_for(ARCHIVE).is_empty() {
        assert!(
            install.0.try_wait().unwrap().is_none(),
            "the install ended before it asked for the archive"
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    home.agx()
        .args(["list"])
        .timeout(HANG_GUARD)
        .assert()
        .success()
        .stdout(predicate::str::contains("acme/docs"));
    home.agx()
        .env("AGX_REGISTRY", server.url())
        .args(["info", "acme/docs"])
        .timeout(HANG_GUARD)
        .assert()
        .success()
        .stdout(predicate::str::contains("acme/docs"));
    // Both ended while the download was still in flight: the server has sent at most the
    // first byte of the archive, and the install is still waiting for the rest.
    assert!(install.0.try_wait().unwrap().is_none());
    assert_eq!(server.odd_requests_for(ARCHIVE).len(), 1);

    // An install killed mid-download changed nothing; the next one cleans its staging folder.
    install.0.kill().unwrap();
    install.0.wait().unwrap();
    assert_nothing_kept(&home, ARCHIVE);
    server.normal(ARCHIVE);
    install_geo(&home, &server).assert().success();
    let staging = home.agx_home().join("store-v1/.staging");
    let left: Vec<_> = std::fs::read_dir(&staging)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A child process that a failing test must not leave running.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
