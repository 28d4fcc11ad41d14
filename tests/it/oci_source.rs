//! OCI registries as package sources, against a real registry (Debian's `docker-registry`)
//! on 127.0.0.1, with `skopeo` as the independent client that reads what agx pushed and
//! pushes what agx installs (docs/organizations.md).

use serde_json::Value;

use crate::support::oci_registry::{OciRegistry, skopeo};
use crate::support::{TestHome, copy_tree, fixtures};

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

fn fixture(name: &str) -> String {
    fixtures().join("packages").join(name).display().to_string()
}

fn ok(home: &TestHome, args: &[&str]) -> String {
    let out = home.agx().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "agx {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fails(home: &TestHome, args: &[&str]) -> String {
    let out = home.agx().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "agx {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Publish `package` to `to`; its `--json` report.
fn publish(home: &TestHome, package: &str, to: &str) -> Value {
    let out = ok(home, &["publish", package, "--to", to, "--json"]);
    serde_json::from_str(&out).unwrap()
}

fn receipt(home: &TestHome, name: &str) -> String {
    std::fs::read_to_string(home.agx_home().join(format!("receipts-v1/{name}.toml"))).unwrap()
}

#[test]
fn a_published_package_installs_from_the_registry_and_skopeo_reads_it() {
    let registry = OciRegistry::start();
    let home = TestHome::new();
    let source = registry.source("corp/agx");
    let added = home
        .agx()
        .args(["registry", "add-source", "corp", &source])
        .output()
        .unwrap();
    assert!(added.status.success());
    assert!(String::from_utf8_lossy(&added.stderr).contains("registry `corp` (oci)"));

    publish(&home, &fixture("acme-geo"), "corp");
    let old = publish(&home, &fixture("acme-weather-1.1.0"), "corp");
    let weather = publish(&home, &fixture("acme-weather"), "corp");
    assert_eq!(weather["published"], true);
    assert_eq!(weather["version"], "1.2.0");
    // Publishing the same bytes again pushes nothing.
    let again = publish(&home, &fixture("acme-weather"), "corp");
    assert_eq!(again["published"], false);
    assert_eq!(again["manifest"], weather["manifest"]);

    // Resolved from the tags (^1 picks 1.2.0 over 1.1.0), the dependency too.
    ok(&home, &["install", "acme/weather@^1"]);
    let installed = receipt(&home, "acme/weather");
    assert!(
        installed.contains("version = \"1.2.0\"")
            && installed.contains(&format!(
                "sha256 = \"{}\"",
                weather["sha256"].as_str().unwrap()
            ))
            && installed.contains(&format!("registry = \"{source}\"")),
        "{installed}"
    );
    assert!(receipt(&home, "acme/geo").contains("version = \"1.0.0\""));
    // The blob was fetched by its digest.
    let log = registry.log();
    let sha = weather["sha256"].as_str().unwrap();
    assert!(
        log.contains(&format!("/v2/corp/agx/acme/weather/blobs/sha256:{sha}")),
        "{log}"
    );
    assert!(!log.contains(&format!("blobs/sha256:{}", old["sha256"].as_str().unwrap())));

    // Search and list --include-remote read the registry's catalog.
    let found = ok(&home, &["search", "forecast"]);
    assert!(found.contains("acme/weather 1.2.0"), "{found}");

    // skopeo reads the artifact agx pushed: plain OCI, its layer the archive.
    let reference = format!("docker://{}/corp/agx/acme/weather:1.2.0", registry.host());
    let raw: Value = serde_json::from_str(&skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--raw",
        &reference,
    ]))
    .unwrap();
    assert_eq!(raw["artifactType"], "application/vnd.agx.package.v1");
    assert_eq!(
        raw["layers"][0]["mediaType"],
        "application/vnd.agx.package.layer.v1.tar+gzip"
    );
    assert_eq!(raw["layers"][0]["digest"], format!("sha256:{sha}"));
    assert_eq!(
        raw["annotations"]["org.opencontainers.image.version"],
        "1.2.0"
    );
    let tags: Value = serde_json::from_str(&skopeo(&[
        "list-tags",
        "--tls-verify=false",
        &format!("docker://{}/corp/agx/acme/weather", registry.host()),
    ]))
    .unwrap();
    assert_eq!(tags["Tags"], serde_json::json!(["1.1.0", "1.2.0"]));
    let copied = tempfile::tempdir().unwrap();
    let dir = copied.path().join("weather");
    skopeo(&[
        "copy",
        "--src-tls-verify=false",
        &reference,
        &format!("dir:{}", dir.display()),
    ]);
    assert_eq!(sha256_hex(&std::fs::read(dir.join(sha)).unwrap()), sha);

    // What skopeo pushes in the same form (under another namespace) installs too.
    for (package, tag) in [("geo", "1.0.0"), ("weather", "1.2.0")] {
        skopeo(&[
            "copy",
            "--src-tls-verify=false",
            "--dest-tls-verify=false",
            &format!("docker://{}/corp/agx/acme/{package}:{tag}", registry.host()),
            &format!("docker://{}/mirror/acme/{package}:{tag}", registry.host()),
        ]);
    }
    let other = TestHome::new();
    let mirror = registry.source("mirror");
    ok(&other, &["--registry", &mirror, "install", "acme/weather"]);
    assert!(receipt(&other, "acme/weather").contains(&format!("registry = \"{mirror}\"")));
}

#[test]
fn a_published_version_is_never_replaced_and_a_tampered_archive_installs_nothing() {
    let registry = OciRegistry::start();
    let home = TestHome::new();
    let source = registry.source("corp");
    ok(&home, &["registry", "add-source", "corp", &source]);
    let geo = publish(&home, &fixture("acme-geo"), "corp");
    let manifest_before = skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--raw",
        &format!("docker://{}/corp/acme/geo:1.0.0", registry.host()),
    ]);

    // The same version with other content: refused, the tag keeps its archive.
    let changed = tempfile::tempdir().unwrap();
    let copy = changed.path().join("geo");
    copy_tree(&fixtures().join("packages/acme-geo"), &copy);
    let manifest = copy.join("agx.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("Geocoding", "Geocoding, changed", 1),
    )
    .unwrap();
    let err = fails(&home, &["publish", copy.to_str().unwrap(), "--to", "corp"]);
    assert!(
        err.contains("acme/geo:1.0.0 already holds another archive")
            && err.contains("raise the version"),
        "{err}"
    );
    let manifest_after = skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--raw",
        &format!("docker://{}/corp/acme/geo:1.0.0", registry.host()),
    ]);
    assert_eq!(manifest_before, manifest_after);

    // The registry's copy of the archive altered (same size): the install is refused and the
    // store stays empty.
    let sha = geo["sha256"].as_str().unwrap();
    let blob = registry.blob_file(sha);
    let mut bytes = std::fs::read(&blob).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&blob, &bytes).unwrap();
    let err = fails(&home, &["install", "acme/geo"]);
    assert!(err.contains("checksum mismatch"), "{err}");
    assert!(!home.agx_home().join("receipts-v1/acme/geo.toml").exists());
    assert!(!home.agx_home().join("store-v1/acme/geo").exists());

    // A package the registry does not have, and a source that is not a registry.
    let err = fails(&home, &["install", "acme/nothing"]);
    assert!(err.contains("acme/nothing is not in the registry"), "{err}");
    let err = fails(
        &home,
        &["registry", "add-source", "bad", "oci://127.0.0.1:1/x"],
    );
    assert!(err.contains("127.0.0.1:1"), "{err}");
    let err = fails(
        &home,
        &["registry", "add-source", "bad", "oci://host/UPPER"],
    );
    assert!(err.contains("not a repository name"), "{err}");
}

#[test]
fn a_projects_lock_records_the_oci_source_and_digest_and_syncs_elsewhere() {
    let registry = OciRegistry::start();
    let home = TestHome::new();
    let source = registry.source("corp");
    ok(&home, &["registry", "add-source", "corp", &source]);
    let geo = publish(&home, &fixture("acme-geo"), "corp");
    let project = tempfile::tempdir().unwrap();
    let run = |home: &TestHome, args: &[&str]| {
        let out = home
            .agx()
            .args(args)
            .current_dir(project.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "agx {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&home, &["add", "acme/geo/geo"]);
    let lock = std::fs::read_to_string(project.path().join("agx.lock")).unwrap();
    assert!(
        lock.contains(&source) && lock.contains(geo["sha256"].as_str().unwrap()),
        "{lock}"
    );
    // Another machine with no source configured syncs from the locked location.
    let other = TestHome::new();
    run(&other, &["sync", "--frozen"]);
    assert!(
        other
            .agx_home()
            .join("store-v1/acme/geo/1.0.0/agx.toml")
            .is_file()
    );
}
