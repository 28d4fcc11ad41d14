//! Provenance (docs/registry.md, "Provenance"): a registry package published with a
//! Sigstore bundle is verified before it is unpacked, its signer is pinned on first use, and
//! a change of signer or a version without a bundle is refused unless allowed. The bundles
//! come from the private Sigstore test instance in registry-fixtures/sigstore (its trusted
//! root, given as AGX_TRUSTED_ROOT or `add-source --trusted-root`).

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::support::http::HttpServer;
use crate::support::{TestHome, repo_root, tree};

const ACME: &str = "github.com/acme/geo, workflow release.yml@refs/tags/v";
const MALLORY: &str = "github.com/mallory/geo, workflow release.yml@refs/tags/v1.2.0";

fn instance() -> PathBuf {
    repo_root().join("registry-fixtures/sigstore")
}

fn trusted_root() -> PathBuf {
    instance().join("trusted_root.json")
}

fn archive(version: &str) -> PathBuf {
    instance().join(format!("packages/acme-geo-{version}.tar.gz"))
}

fn bundle(version: &str) -> PathBuf {
    instance().join(format!("packages/acme-geo-{version}.tar.gz.sigstore.json"))
}

/// agx with the test instance's trusted root for every source.
fn agx(home: &TestHome) -> assert_cmd::Command {
    let mut cmd = home.agx();
    cmd.env("AGX_TRUSTED_ROOT", trusted_root());
    cmd
}

/// A folder registry holding acme/geo 1.0.0 to 1.3.0: the first three with their bundles
/// (1.0.0 and 1.1.0 by acme's release workflow, 1.2.0 by mallory's), 1.3.0 without.
fn registry(home: &TestHome) -> PathBuf {
    let registry = home.home().join("registry");
    home.agx()
        .args(["registry", "init"])
        .arg(&registry)
        .assert()
        .success();
    for version in ["1.0.0", "1.1.0", "1.2.0"] {
        agx(home)
            .args(["registry", "add"])
            .arg(&registry)
            .arg(archive(version))
            .arg("--bundle")
            .arg(bundle(version))
            .assert()
            .success()
            .stderr(predicate::str::contains("; provenance: github.com/"));
    }
    agx(home)
        .args(["registry", "add"])
        .arg(&registry)
        .arg(archive("1.3.0"))
        .assert()
        .success();
    registry
}

fn install(home: &TestHome, registry: &Path, version: &str) -> assert_cmd::Command {
    let mut cmd = agx(home);
    cmd.arg("--registry")
        .arg(registry)
        .args(["install", &format!("acme/geo@={version}")]);
    cmd
}

/// The store's packages and the receipts (not the store's lock and staging folder).
fn store_tree(home: &TestHome) -> std::collections::BTreeMap<String, String> {
    let agx_home = home.agx_home();
    let mut listing = if agx_home.exists() {
        tree(&agx_home)
    } else {
        Default::default()
    };
    listing.retain(|path, _| {
        (path.starts_with("store-v1/") && path != "store-v1/" && !path.starts_with("store-v1/."))
            || path.starts_with("receipts-v1/")
    });
    listing
}

fn receipt(home: &TestHome) -> toml::Value {
    let path = home.agx_home().join("receipts-v1/acme/geo.toml");
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_signed_package_is_verified_and_its_signer_recorded_and_shown() {
    let home = TestHome::new();
    let registry = registry(&home);
    // The entry names the bundle, which sits beside the archive.
    let index = std::fs::read_to_string(registry.join("packages/acme/geo.json")).unwrap();
    assert!(
        index.contains(r#""provenance":{"sigstore":{"sha256":""#),
        "{index}"
    );
    assert!(
        registry
            .join("dl/acme/geo/1.0.0.tar.gz.sigstore.json")
            .is_file()
    );

    install(&home, &registry, "1.0.0")
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "Provenance acme/geo v1.0.0: {ACME}1.0.0"
        )));
    let signer = &receipt(&home)["provenance"]["signer"];
    assert_eq!(
        signer["identity"].as_str(),
        Some("https://github.com/acme/geo/.github/workflows/release.yml@refs/tags/v1.0.0")
    );
    assert_eq!(
        signer["issuer"].as_str(),
        Some("https://token.actions.githubusercontent.com")
    );
    assert_eq!(
        signer["repository"].as_str(),
        Some("https://github.com/acme/geo")
    );

    // The same workflow at the next tag, signing a DSSE statement this time: the same signer.
    install(&home, &registry, "1.1.0")
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "Provenance acme/geo v1.1.0: {ACME}1.1.0"
        )));
    agx(&home)
        .args(["info", "acme/geo"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "provenance: {ACME}1.1.0\n"
        )));
    let json = agx(&home)
        .args(["info", "acme/geo", "--json"])
        .output()
        .unwrap();
    let info: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        info["installed"]["provenance"]["signer"]["ref"],
        "refs/tags/v1.1.0"
    );
}

#[test]
fn another_signer_is_refused_with_both_named_until_allowed() {
    let home = TestHome::new();
    let registry = registry(&home);
    install(&home, &registry, "1.0.0").assert().success();
    let before = store_tree(&home);

    install(&home, &registry, "1.2.0")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "acme/geo 1.2.0 is signed by {MALLORY}, but its installed version was signed by {ACME}1.0.0"
        )))
        .stderr(predicate::str::contains("--allow-signer-change"));
    assert_eq!(store_tree(&home), before, "the store is as it was");

    install(&home, &registry, "1.2.0")
        .arg("--allow-signer-change")
        .assert()
        .success();
    assert_eq!(
        receipt(&home)["provenance"]["allowed"].as_str(),
        Some("signer-change")
    );
    agx(&home)
        .args(["info", "acme/geo"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "provenance: {MALLORY} (a new signer, allowed with --allow-signer-change)"
        )));
    // The new signer is the one trusted now: acme's next release is the change.
    install(&home, &registry, "1.1.0")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "but its installed version was signed by github.com/mallory/geo",
        ));
}

#[test]
fn a_version_without_a_bundle_after_signed_ones_is_refused_unless_allowed() {
    let home = TestHome::new();
    let registry = registry(&home);
    install(&home, &registry, "1.0.0").assert().success();
    let before = store_tree(&home);
    install(&home, &registry, "1.3.0")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "acme/geo 1.3.0 is not signed, but its installed version was signed by {ACME}1.0.0"
        )))
        .stderr(predicate::str::contains("--allow-unsigned"));
    assert_eq!(store_tree(&home), before);

    install(&home, &registry, "1.3.0")
        .arg("--allow-unsigned")
        .assert()
        .success()
        .stderr(predicate::str::contains("Provenance acme/geo v1.3.0: unsigned (allowed with --allow-unsigned; earlier versions were signed by"));
    // The earlier signer is still expected: mallory's 1.2.0 is refused, acme's 1.1.0 is not.
    install(&home, &registry, "1.2.0").assert().code(1);
    install(&home, &registry, "1.1.0").assert().success();
}

#[test]
fn an_unsigned_package_installs_as_unsigned_from_the_start() {
    let home = TestHome::new();
    let registry = registry(&home);
    install(&home, &registry, "1.3.0")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Provenance acme/geo v1.3.0: unsigned\n",
        ));
    // Nothing was trusted yet, so the first signed version is simply recorded.
    install(&home, &registry, "1.0.0").assert().success();
}

#[test]
fn an_archive_changed_with_its_index_is_refused_by_its_bundle_over_http() {
    let home = TestHome::new();
    let registry = registry(&home);
    // Whoever controls the registry swaps 1.0.0's archive for other bytes (one changed byte)
    // and fixes the index's size and sha256 to match: only the bundle can tell.
    let tampered = instance().join("negative/acme-geo-1.0.0.tar.gz");
    let bytes = std::fs::read(&tampered).unwrap();
    let old = std::fs::read(archive("1.0.0")).unwrap();
    assert_ne!(bytes, old);
    std::fs::write(registry.join("dl/acme/geo/1.0.0.tar.gz"), &bytes).unwrap();
    let index_path = registry.join("packages/acme/geo.json");
    let index = std::fs::read_to_string(&index_path).unwrap();
    let sha = |b: &[u8]| hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b));
    std::fs::write(&index_path, index.replace(&sha(&old), &sha(&bytes))).unwrap();

    let server = HttpServer::serve(&registry);
    agx(&home)
        .arg("--registry")
        .arg(server.url())
        .args(["install", "acme/geo@=1.0.0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "acme/geo 1.0.0: provenance refused: the bundle does not verify",
        ))
        .stderr(predicate::str::contains("do not install it"));
    assert!(
        store_tree(&home).is_empty(),
        "nothing installed: {:?}",
        store_tree(&home)
    );
    assert!(
        !server
            .requests_for("/dl/acme/geo/1.0.0.tar.gz.sigstore.json")
            .is_empty(),
        "the bundle was fetched from the registry"
    );
}

#[test]
fn a_bundle_is_checked_against_the_sources_trusted_root() {
    let home = TestHome::new();
    let registry = registry(&home);
    // Without the test instance's root, the public-good one refuses its bundles.
    home.agx()
        .arg("--registry")
        .arg(&registry)
        .args(["install", "acme/geo@=1.0.0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("provenance refused"));
    assert!(store_tree(&home).is_empty(), "{:?}", store_tree(&home));

    // A source configured with the root keeps a copy of it and verifies against it.
    home.agx()
        .args(["registry", "add-source", "corp"])
        .arg(&registry)
        .arg("--trusted-root")
        .arg(trusted_root())
        .assert()
        .success();
    let config = std::fs::read_to_string(home.agx_home().join("config.toml")).unwrap();
    assert!(config.contains("trusted-root = "), "{config}");
    home.agx()
        .args(["--registry", "corp", "install", "acme/geo@=1.0.0"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!("{ACME}1.0.0")));

    // A file that is not a trusted root is refused, and nothing is configured.
    let bogus = home.home().join("bogus.json");
    std::fs::write(&bogus, "{}").unwrap();
    home.agx()
        .args(["registry", "add-source", "other"])
        .arg(&registry)
        .arg("--trusted-root")
        .arg(&bogus)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the trusted root is not usable"));
    let config = std::fs::read_to_string(home.agx_home().join("config.toml")).unwrap();
    assert!(!config.contains("[registries.other]"), "{config}");
}

#[test]
fn publishing_a_bundle_that_does_not_match_the_archive_is_refused_and_writes_nothing() {
    let home = TestHome::new();
    let registry = home.home().join("registry");
    home.agx()
        .args(["registry", "init"])
        .arg(&registry)
        .assert()
        .success();
    let before = tree(&registry);
    agx(&home)
        .args(["registry", "add"])
        .arg(&registry)
        .arg(archive("1.3.0"))
        .arg("--bundle")
        .arg(bundle("1.0.0"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "cannot publish acme/geo 1.3.0 with the bundle",
        ))
        .stderr(predicate::str::contains("the bundle does not verify"));
    assert_eq!(tree(&registry), before, "nothing written");

    // A bundle given later for an archive already published is added to its entry.
    agx(&home)
        .args(["registry", "add"])
        .arg(&registry)
        .arg(archive("1.0.0"))
        .assert()
        .success();
    agx(&home)
        .args(["registry", "add"])
        .arg(&registry)
        .arg(archive("1.0.0"))
        .arg("--bundle")
        .arg(bundle("1.0.0"))
        .assert()
        .success()
        .stderr(predicate::str::contains("Published"));
    assert!(
        registry
            .join("dl/acme/geo/1.0.0.tar.gz.sigstore.json")
            .is_file()
    );
}

#[test]
fn a_project_lock_records_the_signer_and_sync_holds_every_machine_to_it() {
    let home = TestHome::new();
    let registry = registry(&home);
    let project = home.home().join("repo");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("agx.toml"),
        "[project]\nclients = [\"claude-code\"]\n",
    )
    .unwrap();
    let in_project = |args: &[&str]| {
        let mut cmd = agx(&home);
        cmd.current_dir(&project)
            .arg("--registry")
            .arg(&registry)
            .args(args);
        cmd
    };
    in_project(&["add", "acme/geo/geo@=1.0.0", "--name", "geo"])
        .assert()
        .success();
    let lock_path = project.join("agx.lock");
    let lock = std::fs::read_to_string(&lock_path).unwrap();
    assert!(lock.contains("[package.provenance.signer]"), "{lock}");
    assert!(
        lock.contains(
            "identity = \"https://github.com/acme/geo/.github/workflows/release.yml@refs/tags/v1.0.0\""
        ),
        "{lock}"
    );

    // Moving to mallory's 1.2.0 is a change of signer: refused until allowed, then recorded.
    let manifest = std::fs::read_to_string(project.join("agx.toml")).unwrap();
    std::fs::write(
        project.join("agx.toml"),
        manifest.replace("=1.0.0", "=1.2.0"),
    )
    .unwrap();
    in_project(&["lock"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "acme/geo 1.2.0 is signed by {MALLORY}"
        )));
    assert_eq!(
        std::fs::read_to_string(&lock_path).unwrap(),
        lock,
        "the lock is as it was"
    );
    in_project(&["lock", "--allow-signer-change"])
        .assert()
        .success();
    let relocked = std::fs::read_to_string(&lock_path).unwrap();
    assert!(
        relocked.contains("allowed = \"signer-change\""),
        "{relocked}"
    );

    // A teammate's machine: the lock says who signed 1.2.0. A lock edited to name another
    // signer than the bundle's is refused before anything is installed.
    let teammate = TestHome::new();
    let forged = relocked.replace("github.com/mallory/geo", "github.com/acme/geo");
    std::fs::write(&lock_path, &forged).unwrap();
    let mut sync = agx(&teammate);
    sync.current_dir(&project)
        .args(["sync", "--frozen"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "acme/geo 1.2.0 is signed by {MALLORY}, but agx.lock records github.com/acme/geo, workflow release.yml@refs/tags/v1.2.0 as its signer"
        )))
        .stderr(predicate::str::contains("if agx.lock was edited, restore it"));
    assert!(
        store_tree(&teammate).is_empty(),
        "{:?}",
        store_tree(&teammate)
    );
    std::fs::write(&lock_path, &relocked).unwrap();
    let mut sync = agx(&teammate);
    sync.current_dir(&project)
        .args(["sync", "--frozen"])
        .assert()
        .success();
}

#[test]
fn verify_rechecks_the_files_and_the_bundle_of_what_is_installed() {
    let home = TestHome::new();
    let registry = registry(&home);
    install(&home, &registry, "1.0.0").assert().success();
    agx(&home)
        .args(["verify"])
        .assert()
        .success()
        .stdout(format!(
            "acme/geo 1.0.0: files unchanged; provenance verified: {ACME}1.0.0\n"
        ));
    let json = agx(&home).args(["verify", "--json"]).output().unwrap();
    let checked: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(checked[0]["files"]["state"], "unchanged", "{checked}");
    assert_eq!(checked[0]["provenance"]["state"], "verified", "{checked}");

    // The bundle kept with the version is swapped for another archive's.
    let dir = home.agx_home().join("store-v1/acme/geo/1.0.0");
    crate::support::make_writable(&dir);
    let kept = dir.join(".agx-provenance.sigstore.json");
    std::fs::copy(bundle("1.2.0"), &kept).unwrap();
    agx(&home)
        .args(["verify", "acme/geo"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "provenance FAILED: the bundle is signed by https://github.com/mallory/geo/",
        ))
        .stderr(predicate::str::contains(
            "1 package differs from what was installed: acme/geo",
        ));
    std::fs::copy(bundle("1.0.0"), &kept).unwrap();

    // A file of the package is edited in the store.
    let manifest = dir.join("agx.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("Geocoding", "Geocodin")).unwrap();
    agx(&home)
        .args(["verify"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "acme/geo 1.0.0: files CHANGED since install",
        ))
        .stderr(predicate::str::contains("agx install --force acme/geo"));

    // Reinstalled, it verifies again.
    install(&home, &registry, "1.0.0")
        .arg("--force")
        .assert()
        .success();
    agx(&home).args(["verify"]).assert().success();
    agx(&home)
        .args(["verify", "acme/nothing"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("acme/nothing is not installed"));
}

#[test]
fn verify_says_unsigned_for_a_package_without_a_bundle() {
    let home = TestHome::new();
    let registry = registry(&home);
    install(&home, &registry, "1.3.0").assert().success();
    agx(&home)
        .args(["verify"])
        .assert()
        .success()
        .stdout("acme/geo 1.3.0: files unchanged; unsigned\n");
}

#[test]
fn the_bill_of_materials_names_who_built_each_package() {
    let home = TestHome::new();
    let registry = registry(&home);
    install(&home, &registry, "1.0.0").assert().success();
    let out = agx(&home)
        .args(["sbom", "--format", "cyclonedx"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bom: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let properties = bom["components"][0]["properties"].as_array().unwrap();
    assert!(
        properties.iter().any(|p| p["name"] == "agx:provenance"
            && p["value"] == format!("{ACME}1.0.0").as_str()),
        "{properties:?}"
    );
}

#[test]
fn a_policy_that_requires_signed_packages_accepts_a_verified_bundle() {
    let home = TestHome::new();
    let registry = registry(&home);
    std::fs::create_dir_all(home.agx_home()).unwrap();
    std::fs::write(
        home.agx_home().join("policy.toml"),
        "require = \"signed\"\n",
    )
    .unwrap();
    install(&home, &registry, "1.3.0")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not signed"))
        .stderr(predicate::str::contains(
            "no TUF metadata, no Sigstore bundle",
        ));
    assert!(store_tree(&home).is_empty(), "{:?}", store_tree(&home));
    install(&home, &registry, "1.0.0").assert().success();
    // What is installed keeps meeting it: a later command checks the receipt's provenance.
    agx(&home)
        .args(["--registry"])
        .arg(&registry)
        .args(["install", "acme/geo@=1.0.0"])
        .assert()
        .success();
}

/// A plain-HTTP client for the loopback registry (reqwest's TLS wants a provider chosen).
fn http_client() -> reqwest::blocking::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::new()
}

/// Push `bytes` as a blob of `repository` (a monolithic upload); its digest.
fn push_blob(base: &str, repository: &str, bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)));
    let http = http_client();
    let started = http
        .post(format!("{base}/v2/{repository}/blobs/uploads/"))
        .send()
        .unwrap();
    assert_eq!(started.status().as_u16(), 202, "{repository}");
    let location = started.headers()["location"].to_str().unwrap().to_string();
    let location = match location.starts_with("http") {
        true => location,
        false => format!("{base}{location}"),
    };
    let separator = if location.contains('?') { '&' } else { '?' };
    let put = http
        .put(format!("{location}{separator}digest={digest}"))
        .header("content-type", "application/octet-stream")
        .body(bytes.to_vec())
        .send()
        .unwrap();
    assert_eq!(put.status().as_u16(), 201, "{:?}", put.text());
    digest
}

/// Put a manifest (or index) of `media_type` at `reference` (a tag or digest); its digest.
fn push_manifest(
    base: &str,
    repository: &str,
    reference: &str,
    media_type: &str,
    bytes: &[u8],
) -> String {
    use sha2::Digest;
    let put = http_client()
        .put(format!("{base}/v2/{repository}/manifests/{reference}"))
        .header("content-type", media_type)
        .body(bytes.to_vec())
        .send()
        .unwrap();
    assert_eq!(put.status().as_u16(), 201, "{:?}", put.text());
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

const OCI_MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
const BUNDLE_TYPE: &str = "application/vnd.dev.sigstore.bundle.v0.3+json";

/// Push acme/geo `version` into `namespace` as another tool would (the test instance's
/// manifest, its archive and the empty config), then attach `bundle` to it as a Sigstore
/// referrer: the referrer manifest (artifactType and layer of a bundle, `subject` the
/// version's manifest) and, since `docker-registry` 2.8 has no referrers API, the referrers
/// tag `sha256-HEX` listing it (OCI distribution-spec 1.1's fallback), as cosign and oras do.
fn push_signed_version(base: &str, namespace: &str, version: &str, bundle: Option<&Path>) {
    let repository = format!("{namespace}/acme/geo");
    push_blob(base, &repository, &std::fs::read(archive(version)).unwrap());
    push_blob(base, &repository, b"{}");
    let manifest =
        std::fs::read(instance().join(format!("oci/acme-geo-{version}.manifest.json"))).unwrap();
    let digest = push_manifest(base, &repository, version, OCI_MANIFEST, &manifest);
    let Some(bundle) = bundle else {
        return;
    };
    let bundle = std::fs::read(bundle).unwrap();
    let bundle_digest = push_blob(base, &repository, &bundle);
    let referrer = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": OCI_MANIFEST,
        "artifactType": BUNDLE_TYPE,
        "config": {"mediaType": "application/vnd.oci.empty.v1+json",
                   "digest": "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
                   "size": 2},
        "layers": [{"mediaType": BUNDLE_TYPE, "digest": bundle_digest, "size": bundle.len()}],
        "subject": {"mediaType": OCI_MANIFEST, "digest": digest, "size": manifest.len()},
    })
    .to_string();
    let referrer_digest = {
        use sha2::Digest;
        format!(
            "sha256:{}",
            hex::encode(sha2::Sha256::digest(referrer.as_bytes()))
        )
    };
    push_manifest(
        base,
        &repository,
        &referrer_digest,
        OCI_MANIFEST,
        referrer.as_bytes(),
    );
    let index = serde_json::json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": [{"mediaType": OCI_MANIFEST, "digest": referrer_digest,
                       "size": referrer.len(), "artifactType": BUNDLE_TYPE}],
    })
    .to_string();
    push_manifest(
        base,
        &repository,
        &digest.replace(':', "-"),
        "application/vnd.oci.image.index.v1+json",
        index.as_bytes(),
    );
}

fn oci_bundle(version: &str) -> PathBuf {
    instance().join(format!(
        "oci/acme-geo-{version}.manifest.json.sigstore.json"
    ))
}

#[test]
fn an_oci_version_is_verified_by_its_sigstore_referrer_and_its_signer_pinned() {
    let registry = crate::support::oci_registry::OciRegistry::start();
    let base = format!("http://{}", registry.host());
    push_signed_version(&base, "corp", "1.0.0", Some(&oci_bundle("1.0.0")));
    push_signed_version(&base, "corp", "1.1.0", Some(&oci_bundle("1.1.0")));
    let home = TestHome::new();
    agx(&home)
        .args(["registry", "add-source", "corp", &registry.source("corp")])
        .assert()
        .success();
    agx(&home)
        .args(["install", "acme/geo@=1.0.0"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "Provenance acme/geo v1.0.0: {ACME}1.0.0"
        )));
    // The bundle and the manifest it signs are kept; `agx verify` ties them to the archive.
    agx(&home)
        .args(["verify", "acme/geo"])
        .assert()
        .success()
        .stdout(predicate::str::contains("provenance verified"));

    // 1.1.0's manifest is signed by mallory's workflow: refused with both named.
    let before = store_tree(&home);
    agx(&home)
        .args(["install", "acme/geo@=1.1.0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "acme/geo 1.1.0 is signed by github.com/mallory/geo",
        ))
        .stderr(predicate::str::contains(format!("{ACME}1.0.0")));
    assert_eq!(store_tree(&home), before);
}

#[test]
fn a_referrer_that_signs_another_manifest_refuses_the_version() {
    // 1.0.0 carrying the bundle made for 1.1.0's manifest: the signature is valid, over
    // other bytes.
    let registry = crate::support::oci_registry::OciRegistry::start();
    let base = format!("http://{}", registry.host());
    push_signed_version(&base, "corp", "1.0.0", Some(&oci_bundle("1.1.0")));
    // A version without a referrer is unsigned.
    push_signed_version(&base, "corp", "1.1.0", None);
    let home = TestHome::new();
    agx(&home)
        .args(["registry", "add-source", "corp", &registry.source("corp")])
        .assert()
        .success();
    agx(&home)
        .args(["install", "acme/geo@=1.0.0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "acme/geo 1.0.0: provenance refused: the bundle does not verify: artifact mismatch",
        ))
        .stderr(predicate::str::contains("hint:"));
    assert!(store_tree(&home).is_empty(), "{:?}", store_tree(&home));
    agx(&home)
        .args(["install", "acme/geo@=1.1.0"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "Provenance acme/geo v1.1.0: unsigned",
        ));
}

#[test]
fn a_container_image_pinned_by_digest_is_checked_by_its_sigstore_referrer() {
    // The test instance's acme/geo 1.0.0 manifest stands for an image (what runs is never
    // started here); a `docker` that is only a name on PATH, since a digest needs no daemon.
    let registry = crate::support::oci_registry::OciRegistry::start();
    let base = format!("http://{}", registry.host());
    push_signed_version(&base, "images", "1.0.0", Some(&oci_bundle("1.0.0")));
    push_signed_version(&base, "images", "1.1.0", None);
    let digest = |version: &str| {
        use sha2::Digest;
        let manifest =
            std::fs::read(instance().join(format!("oci/acme-geo-{version}.manifest.json")))
                .unwrap();
        format!("sha256:{}", hex::encode(sha2::Sha256::digest(manifest)))
    };
    let (_bin, path) = docker_stand_in();
    let home = TestHome::new();
    let image = format!("{}/images/acme/geo", registry.host());
    agx(&home)
        .env("PATH", &path)
        .args(["install", &format!("oci:{image}@{}", digest("1.0.0"))])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!("{ACME}1.0.0")));
    agx(&home)
        .args(["verify", "--json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("\"verified\""));
    // The unsigned image of the same repository is another package (its own digest):
    // unsigned, not refused.
    let other = TestHome::new();
    agx(&other)
        .env("PATH", &path)
        .args(["install", &format!("oci:{image}@{}", digest("1.1.0"))])
        .assert()
        .success()
        .stderr(predicate::str::contains(": unsigned"));
    // A bundle made for another digest attached to this one: refused.
    push_signed_version(&base, "forged", "1.0.0", Some(&oci_bundle("1.1.0")));
    let forged = TestHome::new();
    agx(&forged)
        .env("PATH", &path)
        .args([
            "install",
            &format!(
                "oci:{}/forged/acme/geo@{}",
                registry.host(),
                digest("1.0.0")
            ),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "provenance refused: the bundle does not verify: artifact mismatch",
        ));
    assert!(store_tree(&forged).is_empty(), "{:?}", store_tree(&forged));
}

#[test]
fn an_image_registry_refusing_its_referrers_tag_is_not_read_as_unsigned() {
    // A registry without the referrers API (404), whose referrers tag answers with an OCI
    // error envelope: a rate limit fails the install, a refusal is "not checked"; neither
    // passes for unsigned.
    use crate::support::http::{Fault, HttpServer};
    let root = tempfile::tempdir().unwrap();
    let server = HttpServer::serve(root.path());
    let host = server.url().trim_start_matches("http://").to_string();
    let digest = format!("sha256:{}", "ab".repeat(32));
    let tag = format!("/v2/acme/geo/manifests/{}", digest.replace(':', "-"));
    let (_bin, path) = docker_stand_in();
    let spec = format!("oci:{host}/acme/geo@{digest}");
    let envelope = |code: &str| {
        format!(r#"{{"errors":[{{"code":"{code}","message":"{code} from the test registry"}}]}}"#)
    };

    server.fault(
        &tag,
        Fault::Json {
            status: 429,
            body: envelope("TOOMANYREQUESTS"),
        },
    );
    let limited = TestHome::new();
    agx(&limited)
        .env("PATH", &path)
        .args(["install", &spec])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("TOOMANYREQUESTS"));
    assert!(
        store_tree(&limited).is_empty(),
        "{:?}",
        store_tree(&limited)
    );

    server.fault(
        &tag,
        Fault::Json {
            status: 403,
            body: envelope("DENIED"),
        },
    );
    let denied = TestHome::new();
    agx(&denied)
        .env("PATH", &path)
        .args(["install", &spec])
        .assert()
        .success()
        .stderr(predicate::str::contains("unsigned").not());

    // No tag at all: unsigned.
    server.clear_faults();
    let none = TestHome::new();
    agx(&none)
        .env("PATH", &path)
        .args(["install", &spec])
        .assert()
        .success()
        .stderr(predicate::str::contains(": unsigned"));
}

/// A `docker` that is only a name on PATH (it answers `--version`): an image pinned by digest
/// needs no daemon at install. The folder, and PATH with it first.
fn docker_stand_in() -> (tempfile::TempDir, String) {
    let bin = tempfile::tempdir().unwrap();
    crate::support::write_file(
        &bin.path().join("docker"),
        "#!/bin/sh\n[ \"$1\" = --version ] && echo 'Docker version 0 (a test stand-in)' && exit 0\nexit 1\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            bin.path().join("docker"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (bin, path)
}
