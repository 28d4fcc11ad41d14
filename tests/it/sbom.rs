//! `agx sbom`: the installed packages and a project's lock as CycloneDX 1.6 and SPDX 2.3,
//! valid against the official JSON schemas (tests/data/sbom-schemas/, copied with their
//! sources named), with each package's version, digest, license, source and dependencies.

use serde_json::Value;

use crate::support::{TestHome, fixtures, repo_root};

fn fixture_registry() -> std::path::PathBuf {
    fixtures().join("registry")
}

fn schemas() -> std::path::PathBuf {
    repo_root().join("tests/data/sbom-schemas")
}

fn read_json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Validate `document` against the CycloneDX 1.6 schema (with the two it refers to) or the
/// SPDX 2.3 one; the failures as text.
fn schema_errors(document: &Value, cyclonedx: bool) -> Vec<String> {
    let (main, others): (Value, Vec<(&str, Value)>) = if cyclonedx {
        let dir = schemas().join("cyclonedx-1.6");
        (
            read_json(&dir.join("bom-1.6.schema.json")),
            vec![
                (
                    "http://cyclonedx.org/schema/spdx.schema.json",
                    read_json(&dir.join("spdx.schema.json")),
                ),
                (
                    "http://cyclonedx.org/schema/jsf-0.82.schema.json",
                    read_json(&dir.join("jsf-0.82.schema.json")),
                ),
            ],
        )
    } else {
        (
            read_json(&schemas().join("spdx-2.3/spdx-schema.json")),
            Vec::new(),
        )
    };
    let mut registry = jsonschema::Registry::new();
    for (uri, schema) in others {
        registry = registry.add(uri, schema).unwrap();
    }
    let registry = registry.prepare().unwrap();
    let validator = jsonschema::options()
        .with_registry(&registry)
        .should_validate_formats(true)
        .build(&main)
        .unwrap();
    validator
        .iter_errors(document)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn sbom(home: &TestHome, args: &[&str]) -> Value {
    let out = home.agx().args(["sbom"]).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "agx sbom {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_installed_packages_as_cyclonedx_and_spdx_pass_the_official_schemas() {
    let home = TestHome::new();
    let registry = fixture_registry();
    let registry = registry.to_str().unwrap();
    let out = home
        .agx()
        .args(["--registry", registry, "install", "acme/weather@1.2.0"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let geo_sha = {
        let receipt =
            std::fs::read_to_string(home.agx_home().join("receipts-v1/acme/geo.toml")).unwrap();
        receipt
            .lines()
            .find_map(|l| l.strip_prefix("sha256 = \""))
            .unwrap()
            .trim_end_matches('"')
            .to_string()
    };

    let bom = sbom(&home, &["--format", "cyclonedx"]);
    let errors = schema_errors(&bom, true);
    assert!(errors.is_empty(), "{errors:#?}");
    let components = bom["components"].as_array().unwrap();
    assert_eq!(components.len(), 2);
    let geo = &components[0];
    assert_eq!(geo["purl"], "pkg:generic/acme/geo@1.0.0");
    assert_eq!(geo["group"], "acme");
    assert_eq!(geo["version"], "1.0.0");
    assert_eq!(geo["hashes"][0]["content"], geo_sha.as_str());
    assert_eq!(geo["licenses"][0]["expression"], "MIT");
    let weather = &components[1];
    assert_eq!(weather["version"], "1.2.0");
    let source = weather["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "agx:source")
        .unwrap();
    assert_eq!(source["value"], registry);
    let edge = bom["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["ref"] == "pkg:generic/acme/weather@1.2.0")
        .unwrap();
    assert_eq!(
        edge["dependsOn"],
        serde_json::json!(["pkg:generic/acme/geo@1.0.0"])
    );

    let spdx = sbom(&home, &["--format", "spdx"]);
    let errors = schema_errors(&spdx, false);
    assert!(errors.is_empty(), "{errors:#?}");
    let packages = spdx["packages"].as_array().unwrap();
    assert_eq!(packages[0]["name"], "acme/geo");
    assert_eq!(
        packages[0]["checksums"][0]["checksumValue"],
        geo_sha.as_str()
    );
    assert_eq!(packages[0]["licenseDeclared"], "MIT");
    let relationships = spdx["relationships"].as_array().unwrap();
    // The document describes what the user asked for; weather depends on geo.
    assert!(
        relationships
            .iter()
            .any(|r| r["relationshipType"] == "DESCRIBES"
                && r["relatedSpdxElement"] == "SPDXRef-Package-acme-weather-1.2.0")
    );
    assert!(
        !relationships
            .iter()
            .any(|r| r["relationshipType"] == "DESCRIBES"
                && r["relatedSpdxElement"] == "SPDXRef-Package-acme-geo-1.0.0")
    );
    assert!(
        relationships
            .iter()
            .any(|r| r["relationshipType"] == "DEPENDS_ON"
                && r["spdxElementId"] == "SPDXRef-Package-acme-weather-1.2.0"
                && r["relatedSpdxElement"] == "SPDXRef-Package-acme-geo-1.0.0")
    );
    // Two runs are two documents.
    assert_ne!(
        spdx["documentNamespace"],
        sbom(&home, &["--format", "spdx"])["documentNamespace"]
    );

    // -o writes the file; a schema-invalid change is caught by the validator (it can fail).
    let file = home.home().join("bom.json");
    let out = home
        .agx()
        .args([
            "sbom",
            "--format",
            "cyclonedx",
            "-o",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut written = read_json(&file);
    assert!(schema_errors(&written, true).is_empty());
    written["components"][0]["hashes"][0]["alg"] = "SHA-257".into();
    assert!(!schema_errors(&written, true).is_empty());
}

#[test]
fn a_projects_lock_as_an_sbom_names_the_locked_sources_and_digests() {
    let home = TestHome::new();
    let registry = fixture_registry();
    let registry = registry.to_str().unwrap();
    let project = tempfile::tempdir().unwrap();
    let out = home
        .agx()
        .args(["--registry", registry, "add", "acme/weather/forecast@~1.1"])
        .current_dir(project.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lock = std::fs::read_to_string(project.path().join("agx.lock")).unwrap();
    let project_dir = project.path().to_str().unwrap();
    for (format, cyclonedx) in [("cyclonedx", true), ("spdx", false)] {
        let document = sbom(&home, &["--project", project_dir, "--format", format]);
        let errors = schema_errors(&document, cyclonedx);
        assert!(errors.is_empty(), "{format}: {errors:#?}");
        let text = document.to_string();
        assert!(text.contains("1.1.0") && text.contains("acme"), "{text}");
        // Every locked digest is in the bill.
        for sha in lock.lines().filter_map(|l| l.strip_prefix("sha256 = \"")) {
            assert!(text.contains(sha.trim_end_matches('"')), "{format}: {sha}");
        }
    }
    // Without a lock: refused, saying how to make one.
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("agx.toml"), "[project]\nclients = []\n").unwrap();
    let out = home
        .agx()
        .args([
            "sbom",
            "--format",
            "spdx",
            "--project",
            empty.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
