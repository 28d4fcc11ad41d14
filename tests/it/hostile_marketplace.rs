//! A marketplace is somebody else's folder or URL (issue 41): its catalog and plugins must not
//! reach past it (links, `../`, absolute paths), hang or exhaust agx (FIFOs, `/dev/zero`,
//! huge files), learn the hash of a file it names, or take over a package of another source;
//! and one source that does not answer must not hide what the others offer.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::http::HttpServer;
use crate::support::{Fixture, TestHome, copy_tree, fixtures, write_file};

/// Long enough for any honest command; a hang fails the test instead of blocking CI.
const DEADLINE: Duration = Duration::from_secs(120);

fn plugin_fixture() -> PathBuf {
    fixtures().join("marketplace/plugins/weather-tools")
}

/// Write into `market` a catalog named `catalog_name` listing `plugins` (name, source).
fn write_catalog(market: &Path, catalog_name: &str, plugins: &[(&str, serde_json::Value)]) {
    let plugins: Vec<serde_json::Value> = plugins
        .iter()
        .map(|(name, source)| serde_json::json!({"name": name, "source": source}))
        .collect();
    let catalog = serde_json::json!({"name": catalog_name, "plugins": plugins});
    write_file(
        &market.join(".claude-plugin/marketplace.json"),
        catalog.to_string(),
    );
}

/// The fixture plugin copied to `folder`, at `version`.
fn write_plugin(folder: &Path, version: &str) {
    copy_tree(&plugin_fixture(), folder);
    let manifest = folder.join(".claude-plugin/plugin.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("\"1.0.0\"", &format!("\"{version}\"")),
    )
    .unwrap();
}

/// (success, stdout, stderr) of a command that may not hang past the deadline.
pub(crate) fn run(cmd: &mut assert_cmd::Command) -> (bool, String, String) {
    let out = cmd.timeout(DEADLINE).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn succeeds(cmd: &mut assert_cmd::Command) -> String {
    let (ok, stdout, stderr) = run(cmd);
    assert!(ok, "{stderr}");
    stdout
}

fn fails(cmd: &mut assert_cmd::Command) -> String {
    let (ok, stdout, stderr) = run(cmd);
    assert!(!ok, "expected a failure:\n{stdout}\n{stderr}");
    stderr
}

pub(crate) fn add_source(home: &TestHome, name: &str, market: &Path) {
    succeeds(
        home.agx()
            .args(["registry", "add-source", name])
            .arg(market),
    );
}

/// No receipt, and nothing but staging leftovers (hidden) in the store.
fn assert_nothing_installed(home: &TestHome) {
    assert!(!home.agx_home().join("receipts-v1").exists());
    let left: Vec<_> = std::fs::read_dir(home.agx_home().join("store-v1"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        left.iter().all(|n| n.to_string_lossy().starts_with('.')),
        "{left:?}"
    );
}

fn receipt(home: &TestHome, package: &str) -> toml::Table {
    let path = home.agx_home().join(format!("receipts-v1/{package}.toml"));
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(std::fs::read(path).unwrap()))
}

/// The fixture plugin as a `.tar.gz` with one top folder, at `path`.
fn write_tar_gz(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        std::fs::File::create(path).unwrap(),
        flate2::Compression::default(),
    ));
    tar.append_dir_all("weather-tools", plugin_fixture())
        .unwrap();
    tar.into_inner().unwrap().finish().unwrap();
}

#[cfg(unix)]
#[test]
fn a_plugin_folder_linked_out_of_the_marketplace_is_not_followed() {
    let home = TestHome::new();
    // What the link points at: a private key in the user's home.
    let ssh = home.home().join("dot-ssh");
    write_file(
        &ssh.join("id_rsa"),
        "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n",
    );
    write_file(&ssh.join(".claude-plugin/plugin.json"), r#"{"name": "x"}"#);
    let market = home.home().join("market");
    write_catalog(&market, "evil", &[("x", "./plugins/x".into())]);
    std::fs::create_dir_all(market.join("plugins")).unwrap();
    std::os::unix::fs::symlink(&ssh, market.join("plugins/x")).unwrap();
    add_source(&home, "evil", &market);

    let err = fails(home.agx().args(["install", "x@evil"]));
    assert!(err.contains("symbolic link `plugins/x`"), "{err}");
    assert_nothing_installed(&home);
    let err = fails(home.agx().args(["info", "x@evil"]));
    assert!(err.contains("symbolic link `plugins/x`"), "{err}");
    // Nothing of the key was copied anywhere under agx's home.
    let copied = crate::support::tree(&home.agx_home());
    assert!(
        copied.keys().all(|path| !path.ends_with("id_rsa")),
        "{copied:?}"
    );
}

#[test]
fn a_catalog_cannot_take_over_another_sources_package() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    let registry_receipt = receipt(&home, "acme/weather");
    assert_eq!(registry_receipt["version"].as_str(), Some("1.2.0"));

    // A catalog that calls itself `acme`, offering `weather` 9.9.9.
    let market = home.home().join("market");
    write_catalog(&market, "acme", &[("weather", "./plugins/weather".into())]);
    write_plugin(&market.join("plugins/weather"), "9.9.9");
    add_source(&home, "evil", &market);

    // Its publisher is the name the user gave the source, not the one it gives itself.
    let (ok, _, said) = run(home.agx().args(["install", "weather@evil"]));
    assert!(ok, "{said}");
    assert!(said.contains("evil/weather"), "{said}");
    assert_eq!(
        receipt(&home, "evil/weather")["version"].as_str(),
        Some("9.9.9")
    );
    assert_eq!(receipt(&home, "acme/weather"), registry_receipt);

    // Added under the registry publisher's name, it may not replace the registry's package.
    add_source(&home, "acme", &market);
    let err = fails(home.agx().args(["install", "weather@acme"]));
    assert!(
        err.contains("it would replace acme/weather, which comes from the registry"),
        "{err}"
    );
    assert!(err.contains("agx uninstall acme/weather"), "{err}");
    assert_eq!(receipt(&home, "acme/weather"), registry_receipt);

    // Nor may another marketplace replace this one's import (`evil_` is publisher `evil`).
    let other = home.home().join("other");
    write_catalog(&other, "evil", &[("weather", "./plugins/weather".into())]);
    write_plugin(&other.join("plugins/weather"), "10.0.0");
    add_source(&home, "evil_", &other);
    let err = fails(home.agx().args(["install", "weather@evil_"]));
    assert!(
        err.contains(&format!(
            "which comes from the plugin `weather` of the marketplace {}",
            market.display()
        )),
        "{err}"
    );
    assert_eq!(
        receipt(&home, "evil/weather")["version"].as_str(),
        Some("9.9.9")
    );

    // A source whose name is an ecosystem's publisher cannot import at all.
    add_source(&home, "npm", &market);
    let err = fails(home.agx().args(["install", "weather@npm"]));
    assert!(
        err.contains("cannot publish the packages it imports"),
        "{err}"
    );
}

#[test]
fn an_archive_path_leaving_the_marketplace_is_refused_and_its_hash_not_told() {
    let home = TestHome::new();
    let outside = home.home().join("outside.tar.gz");
    write_tar_gz(&outside);
    let actual = sha256_of(&outside);
    let market = home.home().join("market");
    let archive = |url: &str, sha256: &str| serde_json::json!({"source": "archive", "url": url, "sha256": sha256});
    let wrong = "0".repeat(64);
    write_catalog(
        &market,
        "m",
        &[
            ("up", archive("../outside.tar.gz", &actual)),
            ("absolute", archive(outside.to_str().unwrap(), &actual)),
            ("probe", archive("../outside.tar.gz", &wrong)),
        ],
    );
    add_source(&home, "m", &market);
    for plugin in ["up@m", "absolute@m", "probe@m"] {
        let err = fails(home.agx().args(["install", plugin]));
        assert!(
            err.contains("is outside the marketplace"),
            "{plugin}: {err}"
        );
        // The catalog learns nothing of the file it named.
        assert!(!err.contains(&actual), "{plugin}: {err}");
    }
    assert_nothing_installed(&home);

    // Inside the marketplace, a wrong sha256 is said to differ, without the file's own.
    let inside = market.join("archives/weather.tar.gz");
    write_tar_gz(&inside);
    write_catalog(
        &market,
        "m",
        &[("weather", archive("archives/weather.tar.gz", &wrong))],
    );
    let err = fails(home.agx().args(["install", "weather@m"]));
    assert!(
        err.contains(&format!(
            "does not match the sha256 {wrong} in marketplace.json"
        )),
        "{err}"
    );
    assert!(!err.contains(&sha256_of(&inside)), "{err}");
    assert_nothing_installed(&home);
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_huge_files_in_a_marketplace_are_refused_without_hanging() {
    let mkfifo = |path: &Path| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success());
    };
    let home = TestHome::new();
    let market = home.home().join("market");
    write_catalog(
        &market,
        "m",
        &[
            (
                "fifo-archive",
                serde_json::json!({"source": "archive", "url": "p.tar.gz", "sha256": "0".repeat(64)}),
            ),
            ("weather", "./plugins/weather".into()),
        ],
    );
    mkfifo(&market.join("p.tar.gz"));
    write_plugin(&market.join("plugins/weather"), "1.0.0");
    add_source(&home, "m", &market);

    // An archive that is a FIFO.
    let err = fails(home.agx().args(["install", "fifo-archive@m"]));
    assert!(err.contains("FIFO"), "{err}");

    // A plugin file over the cap (sparse: nothing is written or read).
    let big = market.join("plugins/weather/server/big.bin");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(513 * 1024 * 1024)
        .unwrap();
    let err = fails(home.agx().args(["install", "weather@m"]));
    assert!(err.contains("takes the plugin past 512 MiB"), "{err}");
    std::fs::remove_file(&big).unwrap();
    assert_nothing_installed(&home);

    // plugin.json a FIFO, .mcp.json a link to /dev/zero: search and info refuse them.
    let manifest = market.join("plugins/weather/.claude-plugin/plugin.json");
    std::fs::remove_file(&manifest).unwrap();
    mkfifo(&manifest);
    let err = fails(home.agx().args(["info", "weather@m"]));
    assert!(err.contains("FIFO"), "{err}");
    let err = fails(home.agx().args(["search", "weather"]));
    assert!(err.contains("FIFO"), "{err}");
    std::fs::remove_file(&manifest).unwrap();
    write_plugin(&market.join("plugins/weather"), "1.0.0");
    let servers = market.join("plugins/weather/.mcp.json");
    std::fs::remove_file(&servers).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &servers).unwrap();
    let err = fails(home.agx().args(["info", "weather@m"]));
    assert!(err.contains("symbolic link `.mcp.json`"), "{err}");

    // The catalog itself linked to /dev/zero.
    let catalog = market.join(".claude-plugin/marketplace.json");
    std::fs::remove_file(&catalog).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &catalog).unwrap();
    let err = fails(home.agx().args(["search", "weather"]));
    assert!(
        err.contains("symbolic link `.claude-plugin/marketplace.json`"),
        "{err}"
    );
    assert_nothing_installed(&home);
}

#[test]
fn plugins_alike_but_for_case_or_punctuation_are_not_one_package() {
    let home = TestHome::new();
    let market = home.home().join("market");
    write_catalog(
        &market,
        "m",
        &[
            ("Weather", "./plugins/a".into()),
            ("weather_", "./plugins/b".into()),
        ],
    );
    write_plugin(&market.join("plugins/a"), "1.0.0");
    write_plugin(&market.join("plugins/b"), "2.0.0");
    add_source(&home, "m", &market);
    for plugin in ["Weather@m", "weather_@m"] {
        let err = fails(home.agx().args(["install", plugin]));
        assert!(
            err.contains("would all be the package m/weather (`Weather`, `weather_`)"),
            "{err}"
        );
    }
    assert_nothing_installed(&home);
}

#[test]
fn a_source_that_does_not_answer_leaves_the_others_results() {
    let home = TestHome::new();
    let good = home.home().join("good");
    write_catalog(&good, "good", &[("weather", "./plugins/weather".into())]);
    write_plugin(&good.join("plugins/weather"), "1.0.0");
    add_source(&home, "good", &good);
    let gone = home.home().join("gone");
    write_catalog(&gone, "gone", &[]);
    add_source(&home, "gone", &gone);
    std::fs::remove_dir_all(&gone).unwrap();
    // A web marketplace whose server went away, with nothing cached.
    let served = tempfile::tempdir().unwrap();
    write_catalog(served.path(), "web", &[]);
    let server = HttpServer::serve(served.path());
    succeeds(
        home.agx()
            .args(["registry", "add-source", "web", &server.url()]),
    );
    drop(server);
    let _ = std::fs::remove_dir_all(home.agx_home().join("cache"));

    let (ok, stdout, stderr) = run(home.agx().args(["search", "weather"]));
    assert!(ok, "{stderr}");
    assert!(stdout.contains("weather@good 1.0.0"), "{stdout}");
    assert!(
        stderr.contains("warning: the registry `gone`") && stderr.contains("did not answer"),
        "{stderr}"
    );
    assert!(stderr.contains("warning: the registry `web`"), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(&succeeds(home.agx().args(["search", "weather", "--json"]))).unwrap();
    let unanswered: Vec<&str> = json["unanswered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["source"].as_str().unwrap())
        .collect();
    assert_eq!(unanswered, ["gone", "web"], "{json}");
    assert_eq!(json["results"][0]["install"], "weather@good", "{json}");

    // With nothing answering, the search fails.
    succeeds(home.agx().args(["registry", "remove-source", "good"]));
    let err = fails(home.agx().args(["search", "weather"]));
    assert!(
        err.contains("no registry answered the search (gone, web)"),
        "{err}"
    );
}

/// `files` (path, contents) as a zip at `path`.
fn write_zip(path: &Path, files: &[(String, Vec<u8>)]) {
    use std::io::Write;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in files {
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
}

/// The fixture plugin's files, relative and `/`-separated, under `prefix`.
fn plugin_files(prefix: &str) -> Vec<(String, Vec<u8>)> {
    crate::support::tree(&plugin_fixture())
        .into_keys()
        .filter(|rel| !rel.ends_with('/'))
        .map(|rel| {
            let bytes = std::fs::read(plugin_fixture().join(&rel)).unwrap();
            (format!("{prefix}{}", rel.replace('\\', "/")), bytes)
        })
        .collect()
}

#[test]
fn zip_archive_sources_are_told_by_their_content() {
    let home = TestHome::new();
    let market = home.home().join("market");
    // Named .tar.gz, but a zip with one top folder; and a zip with the files at its root.
    let topped = market.join("archives/topped.tar.gz");
    write_zip(&topped, &plugin_files("weather-tools-main/"));
    let flat = market.join("archives/flat.zip");
    write_zip(&flat, &plugin_files(""));
    let archive = |url: &str, file: &Path| serde_json::json!({"source": "archive", "url": url, "sha256": sha256_of(file)});
    write_catalog(
        &market,
        "m",
        &[
            ("topped", archive("archives/topped.tar.gz", &topped)),
            ("flat", archive("archives/flat.zip", &flat)),
        ],
    );
    let server = HttpServer::serve(&market);
    succeeds(
        home.agx()
            .args(["registry", "add-source", "web", &server.url()]),
    );
    add_source(&home, "m", &market);
    succeeds(home.agx().args(["install", "topped@web", "flat@m"]));
    for package in ["web/topped", "m/flat"] {
        let info: serde_json::Value =
            serde_json::from_str(&succeeds(home.agx().args(["info", package, "--json"]))).unwrap();
        assert_eq!(info["version"], "1.0.0", "{info}");
        let servers = info["servers"].to_string();
        assert!(servers.contains("forecast"), "{package}: {info}");
    }
}
