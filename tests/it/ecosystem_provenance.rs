//! Provenance of npm and PyPI packages (docs/ecosystem.md, "Provenance by source kind"). The
//! real `npm` installs from a loopback registry that serves packuments, tarballs and the
//! attestations endpoint (`/-/npm/v1/attestations/NAME@VERSION`); the real `pip` from a
//! loopback links page beside PyPI's Integrity API (`/integrity/…/provenance`). agx
//! verifies what they installed and pins its signer on first use. The attestations come
//! from the private Sigstore test instance (registry-fixtures/sigstore/{npm,pypi},
//! AGX_TRUSTED_ROOT).

use base64::Engine as _;
use serde_json::{Value, json};
use sha2::{Digest, Sha512};

use crate::ecosystem::{Session, command, stderr, store_files};
use crate::support::http::HttpServer;
use crate::support::{TestHome, repo_root};

const NAME: &str = "@acme/hello-mcp";
const PACKAGE: &str = "npm/@acme/hello-mcp";
const ACME: &str = "github.com/acme/hello-mcp, workflow release.yml@refs/tags/v";
const MALLORY: &str = "github.com/mallory/hello-mcp, workflow release.yml@refs/tags/v1.2.0";

fn fixture(file: &str) -> Vec<u8> {
    std::fs::read(
        repo_root()
            .join("registry-fixtures/sigstore/npm")
            .join(file),
    )
    .unwrap()
}

/// The `package/package.json` of an npm tarball.
fn package_json(tarball: &[u8]) -> Value {
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(tarball));
    let mut entries = archive.entries().unwrap();
    let entry = entries
        .find(|e| e.as_ref().unwrap().path().unwrap().to_str() == Some("package/package.json"))
        .unwrap()
        .unwrap();
    serde_json::from_reader(entry).unwrap()
}

/// A loopback npm registry serving @acme/hello-mcp: each version's tarball (as given), its
/// packument entry with the tarball's integrity, and, for the versions in `attested`, the
/// attestations document the test instance signed.
struct Registry {
    server: HttpServer,
    _root: tempfile::TempDir,
}

impl Registry {
    fn serve(tarballs: &[(&str, Vec<u8>)], attested: &[&str]) -> Registry {
        let root = tempfile::tempdir().unwrap();
        let server = HttpServer::serve(root.path());
        let url = server.url();
        let mut versions = serde_json::Map::new();
        for (version, tarball) in tarballs {
            let file = format!("hello-mcp-{version}.tgz");
            crate::support::write_file(&root.path().join(NAME).join("-").join(&file), tarball);
            let integrity = format!(
                "sha512-{}",
                base64::engine::general_purpose::STANDARD.encode(Sha512::digest(tarball))
            );
            // As a registry serves it: the manifest's own fields, `hasInstallScript` (which
            // npm reads to know there is a postinstall to run) and `dist`.
            let mut entry = package_json(tarball);
            entry["hasInstallScript"] = json!(entry["scripts"]["postinstall"].is_string());
            entry["dist"] =
                json!({"tarball": format!("{url}/{NAME}/-/{file}"), "integrity": integrity});
            versions.insert(version.to_string(), entry);
        }
        let latest = tarballs.last().unwrap().0;
        crate::support::write_file(
            &root.path().join("@acme%2fhello-mcp"),
            json!({"name": NAME, "dist-tags": {"latest": latest}, "versions": versions})
                .to_string(),
        );
        for version in attested {
            let document = format!("@acme%2fhello-mcp@{version}.json");
            crate::support::write_file(
                &root
                    .path()
                    .join("-/npm/v1/attestations")
                    .join(document.trim_end_matches(".json")),
                fixture(&document),
            );
        }
        Registry {
            server,
            _root: root,
        }
    }

    fn all() -> Registry {
        let versions = ["1.0.0", "1.1.0", "1.2.0"];
        let tarballs: Vec<_> = versions
            .iter()
            .map(|v| (*v, fixture(&format!("hello-mcp-{v}.tgz"))))
            .collect();
        Registry::serve(&tarballs, &versions)
    }
}

fn agx(home: &TestHome, registry: &Registry, args: &[&str]) -> std::process::Output {
    command(home, crate::support::AGX)
        .env("npm_config_registry", registry.server.url())
        .env(
            "AGX_TRUSTED_ROOT",
            repo_root().join("registry-fixtures/sigstore/trusted_root.json"),
        )
        .env("AGX_TEST_SCRIPT_RAN", scripts_marker(home))
        .args(args)
        .output()
        .unwrap()
}

fn install(
    home: &TestHome,
    registry: &Registry,
    version: &str,
    more: &[&str],
) -> std::process::Output {
    let spec = format!("npm:{NAME}@{version}");
    let mut args = vec!["install", spec.as_str()];
    args.extend(more);
    agx(home, registry, &args)
}

/// Where each fixture version's postinstall appends its version when it runs.
fn scripts_marker(home: &TestHome) -> std::path::PathBuf {
    home.home().join("scripts-ran")
}

fn receipt(home: &TestHome) -> toml::Value {
    let text =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/npm/@acme+hello-mcp.toml"))
            .unwrap();
    toml::from_str(&text).unwrap()
}

fn installed_files(home: &TestHome) -> Vec<String> {
    store_files(home)
        .into_iter()
        .filter(|p| !p.starts_with("cache") && !p.starts_with("staging"))
        .collect()
}

#[test]
fn an_npm_package_with_provenance_is_verified_pinned_and_checked_again() {
    let registry = Registry::all();
    let home = TestHome::new();
    let out = install(&home, &registry, "1.0.0", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{PACKAGE} v1.0.0: {ACME}1.0.0")),
        "{}",
        stderr(&out)
    );
    let recorded = receipt(&home);
    assert_eq!(
        recorded["provenance"]["signer"]["identity"].as_str(),
        Some("https://github.com/acme/hello-mcp/.github/workflows/release.yml@refs/tags/v1.0.0")
    );
    // The server it installed runs.
    let mut session = Session::start(&home, &format!("{PACKAGE}/hello-mcp"));
    session.initialize();
    assert_eq!(session.tool_names(), ["greet", "whoami"]);
    drop(session);

    // `agx verify` checks the kept bundle against the recorded integrity and signer.
    let out = agx(&home, &registry, &["verify", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let verified: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verified[0]["provenance"]["state"], "verified", "{verified}");
    assert_eq!(
        verified[0]["provenance"]["signer"].as_str(),
        Some(format!("{ACME}1.0.0").as_str())
    );

    // The same workflow at the next tag is the same signer.
    let out = install(&home, &registry, "1.1.0", &[]);
    assert!(out.status.success(), "{}", stderr(&out));

    // Another repository's workflow is refused with both named, and nothing changes.
    let before = installed_files(&home);
    let out = install(&home, &registry, "1.2.0", &[]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains(MALLORY), "{error}");
    assert!(error.contains(&format!("{ACME}1.1.0")), "{error}");
    assert!(error.contains("--allow-signer-change"), "{error}");
    assert_eq!(installed_files(&home), before);

    let out = install(&home, &registry, "1.2.0", &["--allow-signer-change"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        receipt(&home)["provenance"]["allowed"].as_str(),
        Some("signer-change")
    );
    let out = agx(&home, &registry, &["info", PACKAGE]);
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(info.contains(MALLORY), "{info}");
    assert!(
        info.contains("allowed with --allow-signer-change"),
        "{info}"
    );
}

#[test]
fn install_scripts_run_only_once_the_version_is_accepted() {
    // Each fixture version's postinstall appends its version to AGX_TEST_SCRIPT_RAN.
    let registry = Registry::all();
    let home = TestHome::new();
    let install = |version: &str, more: &[&str]| install(&home, &registry, version, more);
    let ran = || std::fs::read_to_string(scripts_marker(&home)).unwrap_or_default();

    // By default nothing of the package runs.
    let out = install("1.0.0", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ran(), "");

    // Allowed, the script runs once the version is verified and its signer accepted.
    let out = install("1.1.0", &["--allow-scripts"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ran(), "1.1.0\n");

    // Another signer's version is refused before its script could run.
    let before = installed_files(&home);
    let out = install("1.2.0", &["--allow-scripts"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains(MALLORY), "{}", stderr(&out));
    assert_eq!(ran(), "1.1.0\n");
    assert_eq!(installed_files(&home), before);
}

#[test]
fn a_package_the_policy_refuses_runs_no_install_script() {
    // The policy is part of the one gate every kind passes, before anything of the package
    // runs: `--allow-scripts` does not get a refused package's postinstall run.
    let registry = Registry::all();
    let home = TestHome::new();
    std::fs::create_dir_all(home.agx_home()).unwrap();
    std::fs::write(
        home.agx_home().join("policy.toml"),
        "[sources]\nallow = [\"pypi\"]\n",
    )
    .unwrap();
    let before = installed_files(&home);
    let out = install(&home, &registry, "1.1.0", &["--allow-scripts"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("refused by policy"),
        "{}",
        stderr(&out)
    );
    assert!(!scripts_marker(&home).exists(), "the install script ran");
    assert_eq!(installed_files(&home), before);
}

#[test]
fn a_tarball_changed_with_its_packument_is_refused_by_its_provenance() {
    // Whoever controls the registry can change a tarball and its integrity together, so npm
    // installs it; the attestation was made for the original.
    let mut tarball = fixture("hello-mcp-1.0.0.tgz");
    assert_eq!(tarball[..2], [0x1f, 0x8b]);
    tarball[4] ^= 1; // the gzip header's time: the same files
    let registry = Registry::serve(&[("1.0.0", tarball)], &["1.0.0"]);
    let home = TestHome::new();
    let out = install(&home, &registry, "1.0.0", &[]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("provenance refused"), "{error}");
    assert!(error.contains("hint:"), "{error}");
    assert_eq!(installed_files(&home), Vec::<String>::new());
}

#[test]
fn without_attestations_a_package_is_unsigned_and_a_later_unsigned_version_is_refused() {
    let tarballs: Vec<_> = ["1.0.0", "1.1.0"]
        .iter()
        .map(|v| (*v, fixture(&format!("hello-mcp-{v}.tgz"))))
        .collect();
    // Attestations for 1.0.0 only: the registry answers 404 for 1.1.0's.
    let registry = Registry::serve(&tarballs, &["1.0.0"]);
    let unsigned_first = TestHome::new();
    let out = install(&unsigned_first, &registry, "1.1.0", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{PACKAGE} v1.1.0: unsigned")),
        "{}",
        stderr(&out)
    );

    // A policy that requires signed packages takes verified provenance as a signature, and
    // refuses the version without it before anything is in place.
    let strict = TestHome::new();
    std::fs::create_dir_all(strict.agx_home()).unwrap();
    std::fs::write(
        strict.agx_home().join("policy.toml"),
        "require = \"signed\"\n",
    )
    .unwrap();
    let out = install(&strict, &registry, "1.1.0", &[]);
    assert!(
        !out.status.success(),
        "an unsigned npm package passed the policy"
    );
    assert!(stderr(&out).contains("is not signed"), "{}", stderr(&out));
    let out = install(&strict, &registry, "1.0.0", &[]);
    assert!(out.status.success(), "{}", stderr(&out));

    let home = TestHome::new();
    assert!(install(&home, &registry, "1.0.0", &[]).status.success());
    let out = install(&home, &registry, "1.1.0", &[]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("1.1.0 is not signed"), "{error}");
    assert!(error.contains("--allow-unsigned"), "{error}");
    let out = install(&home, &registry, "1.1.0", &["--allow-unsigned"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let recorded = receipt(&home);
    assert_eq!(recorded["provenance"]["allowed"].as_str(), Some("unsigned"));
    assert!(
        recorded["provenance"]["trusted"]["identity"]
            .as_str()
            .is_some_and(|i| i.contains("acme/hello-mcp")),
        "{recorded:?}"
    );
}

const WHEEL: &str = "hello_mcp_py-1.0.0-py3-none-any.whl";

/// A loopback index for pip (a links page, PIP_FIND_LINKS) serving `wheel` as hello-mcp-py
/// 1.0.0, and PyPI's Integrity API beside it (AGX_PYPI_URL) with the test instance's
/// provenance when `attested`.
fn pypi_index(wheel: &[u8], attested: bool) -> (HttpServer, tempfile::TempDir) {
    let root = tempfile::tempdir().unwrap();
    crate::support::write_file(&root.path().join("wheels").join(WHEEL), wheel);
    let sha256 = hex::encode(sha2::Sha256::digest(wheel));
    crate::support::write_file(
        &root.path().join("links.html"),
        format!("<html><body><a href=\"wheels/{WHEEL}#sha256={sha256}\">{WHEEL}</a></body></html>"),
    );
    if attested {
        crate::support::write_file(
            &root
                .path()
                .join(format!("integrity/hello-mcp-py/1.0.0/{WHEEL}/provenance")),
            std::fs::read(
                repo_root()
                    .join("registry-fixtures/sigstore/pypi")
                    .join(format!("{WHEEL}.provenance")),
            )
            .unwrap(),
        );
    }
    (HttpServer::serve(root.path()), root)
}

fn pip_install(home: &TestHome, index: &HttpServer) -> std::process::Output {
    command(home, crate::support::AGX)
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", format!("{}/links.html", index.url()))
        .env("AGX_PYPI_URL", format!("{}/pypi", index.url()))
        .env(
            "AGX_TRUSTED_ROOT",
            repo_root().join("registry-fixtures/sigstore/trusted_root.json"),
        )
        .args(["install", "pypi:hello-mcp-py==1.0.0"])
        .output()
        .unwrap()
}

#[test]
fn a_pypi_wheel_with_pep_740_provenance_is_verified_and_a_changed_one_refused() {
    let wheel = std::fs::read(
        repo_root()
            .join("registry-fixtures/sigstore/pypi")
            .join(WHEEL),
    )
    .unwrap();
    let (index, _root) = pypi_index(&wheel, true);
    let home = TestHome::new();
    let out = pip_install(&home, &index);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "pypi/hello-mcp-py v1.0.0: github.com/acme/hello-mcp-py, workflow release.yml@refs/tags/v1.0.0"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        index.count(&format!("/integrity/hello-mcp-py/1.0.0/{WHEEL}/provenance")),
        1
    );
    let mut session = Session::start(&home, "pypi/hello-mcp-py/hello-mcp-py");
    session.initialize();
    assert_eq!(session.tool_names(), ["greet"]);
    drop(session);
    let out = command(&home, crate::support::AGX)
        .env(
            "AGX_TRUSTED_ROOT",
            repo_root().join("registry-fixtures/sigstore/trusted_root.json"),
        )
        .args(["verify", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let verified: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verified[0]["provenance"]["state"], "verified", "{verified}");

    // The same wheel with a zip comment added: pip installs it (its own hash is served
    // with it), the provenance was made for the original.
    let mut changed = wheel.clone();
    let comment_length = changed.len() - 2;
    changed[comment_length..].copy_from_slice(&4u16.to_le_bytes());
    changed.extend_from_slice(b"evil");
    let (index, _root) = pypi_index(&changed, true);
    let home = TestHome::new();
    let out = pip_install(&home, &index);
    assert!(!out.status.success(), "a changed wheel installed");
    let error = stderr(&out);
    assert!(error.contains("provenance refused"), "{error}");
    assert_eq!(installed_files(&home), Vec::<String>::new());

    // An index without the Integrity API: unsigned.
    let (index, _root) = pypi_index(&wheel, false);
    let home = TestHome::new();
    let out = pip_install(&home, &index);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("pypi/hello-mcp-py v1.0.0: unsigned"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_project_lock_records_an_npm_packages_signer_and_sync_holds_other_machines_to_it() {
    let registry = Registry::all();
    let author = TestHome::new();
    let project = author.home().join("repo");
    std::fs::create_dir_all(&project).unwrap();
    let in_project =
        |home: &TestHome, dir: &std::path::Path, registry: &Registry, args: &[&str]| {
            command(home, crate::support::AGX)
                .env("npm_config_registry", registry.server.url())
                .env(
                    "AGX_TRUSTED_ROOT",
                    repo_root().join("registry-fixtures/sigstore/trusted_root.json"),
                )
                .current_dir(dir)
                .args(args)
                .output()
                .unwrap()
        };
    let out = in_project(
        &author,
        &project,
        &registry,
        &["install", &format!("npm:{NAME}@1.0.0")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = in_project(&author, &project, &registry, &["add", PACKAGE]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lock = std::fs::read_to_string(project.join("agx.lock")).unwrap();
    assert!(
        lock.contains("identity = \"https://github.com/acme/hello-mcp/.github/workflows/release.yml@refs/tags/v1.0.0\""),
        "{lock}"
    );

    // A teammate syncs from the same registry: the attestation matches the lock.
    let clone_of = |home: &TestHome| {
        let clone = home.home().join("repo");
        std::fs::create_dir_all(&clone).unwrap();
        for file in ["agx.toml", "agx.lock"] {
            std::fs::copy(project.join(file), clone.join(file)).unwrap();
        }
        clone
    };
    let teammate = TestHome::new();
    let out = in_project(&teammate, &clone_of(&teammate), &registry, &["sync"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // Another machine whose registry serves the same tarball without its attestation: the
    // lock's signer is missing, and nothing is installed.
    let tarballs = [("1.0.0", fixture("hello-mcp-1.0.0.tgz"))];
    let stripped = Registry::serve(&tarballs, &[]);
    let other = TestHome::new();
    let out = in_project(&other, &clone_of(&other), &stripped, &["sync"]);
    assert!(
        !out.status.success(),
        "a sync without the locked signer passed"
    );
    let error = stderr(&out);
    assert!(
        error.contains("is not signed, but agx.lock records"),
        "{error}"
    );
    assert_eq!(installed_files(&other), Vec::<String>::new());
}
