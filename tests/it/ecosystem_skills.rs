//! Skills shipped inside npm and PyPI packages (docs/skills.md, "Skills in npm and PyPI
//! packages"): the real `npm` installs from a loopback registry, the real `pip` from a
//! loopback links page; the packages are built here. Their skills (`skills/<name>/SKILL.md`
//! in an npm package, `TOP/skills/<name>/SKILL.md` in a wheel) come along with the server,
//! or make a package on their own; one that does not check is left out with a warning.
//! A project's `[skills]` names them as it names a registry package's.

use std::io::Write;

use base64::Engine as _;
use serde_json::json;
use sha2::{Digest, Sha256, Sha512};

use crate::ecosystem::{command, stderr};
use crate::support::http::HttpServer;
use crate::support::{TestHome, write_file};

const REVIEW: &str = "---\nname: review\ndescription: Review a change for correctness and tests. Use when asked for a review.\n---\n\n# Review\n\nRead [the checklist](references/checklist.md).\n";
const BROKEN: &str =
    "---\nname: not-broken\ndescription: Its name is not its folder's.\n---\n\nBody.\n";

/// An npm tarball (`package/…`) of `files`.
fn tarball(files: &[(&str, &str)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    ));
    for (path, text) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, format!("package/{path}"), text.as_bytes())
            .unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// A package for [`NpmRegistry::serve`]: its name, its `package.json`, its other files.
type NpmPackage = (
    &'static str,
    serde_json::Value,
    Vec<(&'static str, &'static str)>,
);

/// A loopback npm registry serving version 1.0.0 of each package.
struct NpmRegistry {
    server: HttpServer,
    _root: tempfile::TempDir,
}

impl NpmRegistry {
    fn serve(packages: &[NpmPackage]) -> NpmRegistry {
        let root = tempfile::tempdir().unwrap();
        let server = HttpServer::serve(root.path());
        let url = server.url();
        for (name, manifest, files) in packages {
            let manifest_text = manifest.to_string();
            let mut all = vec![("package.json", manifest_text.as_str())];
            all.extend(files.iter().copied());
            let bytes = tarball(&all);
            let short = name.rsplit('/').next().unwrap();
            let file = format!("{short}-1.0.0.tgz");
            write_file(&root.path().join("tarballs").join(&file), &bytes);
            let integrity = format!(
                "sha512-{}",
                base64::engine::general_purpose::STANDARD.encode(Sha512::digest(&bytes))
            );
            let mut entry = manifest.clone();
            entry["dist"] =
                json!({"tarball": format!("{url}/tarballs/{file}"), "integrity": integrity});
            write_file(
                &root.path().join(name.replace('/', "%2f")),
                json!({"name": name, "dist-tags": {"latest": "1.0.0"},
                       "versions": {"1.0.0": entry}})
                .to_string(),
            );
        }
        NpmRegistry {
            server,
            _root: root,
        }
    }
}

fn agx_npm(
    home: &TestHome,
    registry: &NpmRegistry,
    dir: &std::path::Path,
    args: &[&str],
) -> std::process::Output {
    command(home, crate::support::AGX)
        .env("npm_config_registry", registry.server.url())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn dev_tools() -> (
    &'static str,
    serde_json::Value,
    Vec<(&'static str, &'static str)>,
) {
    (
        "@acme/dev-tools",
        json!({"name": "@acme/dev-tools", "version": "1.0.0",
               "description": "Acme's dev server and its skills",
               "bin": {"dev-tools": "index.js"}}),
        vec![
            ("index.js", "#!/usr/bin/env node\n"),
            ("skills/review/SKILL.md", REVIEW),
            ("skills/review/references/checklist.md", "- tests\n"),
            ("skills/broken/SKILL.md", BROKEN),
        ],
    )
}

#[test]
fn an_npm_package_brings_its_skills_and_leaves_out_a_broken_one() {
    let registry = NpmRegistry::serve(&[
        dev_tools(),
        (
            "review-skills",
            json!({"name": "review-skills", "version": "1.0.0"}),
            vec![("skills/review/SKILL.md", REVIEW)],
        ),
        (
            "plain-lib",
            json!({"name": "plain-lib", "version": "1.0.0"}),
            vec![("index.js", "module.exports = 1;\n")],
        ),
        (
            "broken-bin",
            json!({"name": "broken-bin", "version": "1.0.0", "bin": {"broken-bin": "missing.js"}}),
            vec![("skills/review/SKILL.md", REVIEW)],
        ),
        (
            "broken-skills",
            json!({"name": "broken-skills", "version": "1.0.0"}),
            vec![("skills/broken/SKILL.md", BROKEN)],
        ),
    ]);
    let home = TestHome::new();
    let out = agx_npm(
        &home,
        &registry,
        home.home(),
        &["install", "npm:@acme/dev-tools"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let error = stderr(&out);
    assert!(
        error.contains("left out the skill skills/broken of npm:@acme/dev-tools")
            && error.contains("not-broken"),
        "{error}"
    );

    let out = agx_npm(
        &home,
        &registry,
        home.home(),
        &["list", "--skills", "--json"],
    );
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.contains("npm/@acme/dev-tools/review"), "{listed}");
    assert!(!listed.contains("broken"), "{listed}");

    let out = agx_npm(
        &home,
        &registry,
        home.home(),
        &["install-skill", "claude-code", "npm/@acme/dev-tools/review"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let copy = home.home().join(".claude/skills/review");
    assert_eq!(
        std::fs::read_to_string(copy.join("SKILL.md")).unwrap(),
        REVIEW
    );
    assert!(copy.join("references/checklist.md").is_file());

    // A package of skills only: no bin, and still a package.
    let out = agx_npm(
        &home,
        &registry,
        home.home(),
        &["install", "npm:review-skills"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = agx_npm(
        &home,
        &registry,
        home.home(),
        &["info", "npm/review-skills"],
    );
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(info.contains("review"), "{info}");

    // Neither a bin nor a skill: refused, saying both, and nothing installed.
    let out = agx_npm(&home, &registry, home.home(), &["install", "npm:plain-lib"]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("declares no `bin`"), "{error}");
    assert!(error.contains("skills/<name>/SKILL.md"), "{error}");
    assert!(
        !home
            .agx_home()
            .join("receipts-v1/npm/plain-lib.toml")
            .exists(),
        "{error}"
    );

    // A bin that cannot run is an error, not a quiet package of skills.
    let out = agx_npm(
        &home,
        &registry,
        home.home(),
        &["install", "npm:broken-bin"],
    );
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("points to missing.js"), "{error}");

    // No bin, and every skill it ships left out: the refusal says why each was.
    let out = agx_npm(
        &home,
        &registry,
        home.home(),
        &["install", "npm:broken-skills"],
    );
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(
        error.contains("none of its skills could be carried") && error.contains("not-broken"),
        "{error}"
    );
}

#[test]
fn a_project_locks_and_syncs_a_skill_of_an_npm_package() {
    let registry = NpmRegistry::serve(&[dev_tools()]);
    let home = TestHome::new();
    let project = home.home().join("repo");
    write_file(
        &project.join("agx.toml"),
        "[project]\nclients = [\"claude-code\", \"codex\"]\n\n[skills]\nreview = { skill = \"npm/@acme/dev-tools/review\", version = \"^1\" }\n",
    );
    let out = agx_npm(&home, &registry, &project, &["sync"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for folder in [".claude/skills/review", ".agents/skills/review"] {
        assert_eq!(
            std::fs::read_to_string(project.join(folder).join("SKILL.md")).unwrap(),
            REVIEW,
            "{folder}"
        );
    }
    let lock = std::fs::read_to_string(project.join("agx.lock")).unwrap();
    assert!(lock.contains("package = \"npm/@acme/dev-tools\""), "{lock}");
    assert!(
        lock.contains("source = \"npm:@acme/dev-tools@1.0.0\""),
        "{lock}"
    );
    let out = agx_npm(&home, &registry, &project, &["sync", "--check"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // A skill the package does not ship is named as such.
    write_file(
        &project.join("agx.toml"),
        "[project]\nclients = [\"codex\"]\n\n[skills]\nbroken = { skill = \"npm/@acme/dev-tools/broken\" }\n",
    );
    let out = agx_npm(&home, &registry, &project, &["sync"]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert!(error.contains("broken"), "{error}");
    assert!(!project.join(".agents/skills/broken").exists());
}

/// A wheel of `files` (path, text) with its metadata, RECORD and, for `script`, a console
/// script.
fn wheel(name: &str, files: &[(&str, &str)], script: Option<&str>) -> Vec<u8> {
    let dist = format!("{}-1.0.0.dist-info", name.replace('-', "_"));
    let mut all: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    all.push((
        format!("{dist}/METADATA"),
        format!("Metadata-Version: 2.1\nName: {name}\nVersion: 1.0.0\nSummary: {name} for tests\n"),
    ));
    all.push((
        format!("{dist}/WHEEL"),
        "Wheel-Version: 1.0\nGenerator: agx-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
            .into(),
    ));
    if let Some(script) = script {
        all.push((
            format!("{dist}/entry_points.txt"),
            format!("[console_scripts]\n{script}\n"),
        ));
    }
    let mut record = String::new();
    for (path, text) in &all {
        let digest = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(text));
        record.push_str(&format!("{path},sha256={digest},{}\n", text.len()));
    }
    record.push_str(&format!("{dist}/RECORD,,\n"));
    all.push((format!("{dist}/RECORD"), record));
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, text) in &all {
        zip.start_file(path.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn a_pypi_wheel_brings_the_skills_of_its_package_data() {
    let root = tempfile::tempdir().unwrap();
    let wheels = [
        (
            "helper-tools",
            wheel(
                "helper-tools",
                &[
                    ("helper_tools/__init__.py", "def main():\n    pass\n"),
                    ("helper_tools/skills/review/SKILL.md", REVIEW),
                    (
                        "helper_tools/skills/review/references/checklist.md",
                        "- tests\n",
                    ),
                    ("helper_tools/skills/review/scripts/count.py", "print(1)\n"),
                    ("helper_tools/skills/broken/SKILL.md", BROKEN),
                ],
                Some("helper-tools = helper_tools:main"),
            ),
        ),
        (
            "review-only",
            wheel(
                "review-only",
                &[
                    ("review_only/__init__.py", ""),
                    ("review_only/skills/review/SKILL.md", REVIEW),
                ],
                None,
            ),
        ),
    ];
    let mut links = String::from("<html><body>\n");
    for (name, bytes) in &wheels {
        let file = format!("{}-1.0.0-py3-none-any.whl", name.replace('-', "_"));
        write_file(&root.path().join(&file), bytes);
        let sha256 = hex::encode(Sha256::digest(bytes));
        links.push_str(&format!("<a href=\"{file}#sha256={sha256}\">{file}</a>\n"));
    }
    write_file(&root.path().join("links.html"), links);
    let index = HttpServer::serve(root.path());
    let home = TestHome::new();
    let pip = |args: &[&str]| {
        command(&home, crate::support::AGX)
            .env("PIP_NO_INDEX", "1")
            .env("PIP_FIND_LINKS", format!("{}/links.html", index.url()))
            .env("AGX_PYPI_URL", format!("{}/pypi", index.url()))
            .args(args)
            .output()
            .unwrap()
    };
    let out = pip(&["install", "pypi:helper-tools==1.0.0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let error = stderr(&out);
    assert!(
        error.contains("left out the skill helper_tools/skills/broken"),
        "{error}"
    );
    let out = pip(&["install-skill", "codex", "pypi/helper-tools/review"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(home.home().join(".agents/skills/review/SKILL.md")).unwrap(),
        REVIEW
    );
    assert!(
        home.home()
            .join(".agents/skills/review/references/checklist.md")
            .is_file()
    );
    // pip compiled the skill's script where it installed it; the bytecode is no part of
    // the skill (it would change the skill's hash with every install and Python).
    let scripts = home.home().join(".agents/skills/review/scripts");
    assert!(scripts.join("count.py").is_file());
    assert!(!scripts.join("__pycache__").exists());
    let carried = home
        .agx_home()
        .join("store-v1/pypi/helper-tools/1.0.0/skills/review/scripts");
    assert!(carried.join("count.py").is_file());
    assert!(!carried.join("__pycache__").exists());

    // Skills and no console script: a package of skills.
    let out = pip(&["install", "pypi:review-only==1.0.0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = pip(&["list", "--skills"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.contains("pypi/review-only/review"), "{listed}");
}
