//! `.well-known` skills (docs/registry.md, "Skills from a web site"): a loopback web server
//! serves `/.well-known/agent-skills/index.json` (plain, versioned, the legacy path), skills
//! of both types and both archive formats; agx installs, verifies, locks and syncs them, and
//! refuses a wrong digest, an unknown `$schema`, a redirect loop and an oversized archive
//! with nothing written.

use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};

use crate::support::http::{Fault, HttpServer, Odd, OddServer};
use crate::support::{TestHome, write_file, write_files};

const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

fn skill_md(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill, from a web site.\n---\n{body}\n")
}

/// A `.tar.gz` of `files` at its root, as the specification lays an archive out.
fn tar_gz(files: &[(&str, &str, u32)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (path, text, mode) in files {
        let mut header = tar::Header::new_ustar();
        header.set_size(text.len() as u64);
        header.set_mode(*mode);
        header.set_cksum();
        tar.append_data(&mut header, path, text.as_bytes()).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

fn zip(files: &[(&str, &str)]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    for (path, text) in files {
        zip.start_file(*path, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

/// Write `artifact` under the site's `dir` at `rel` and return its index entry.
fn publish(dir: &Path, rel: &str, artifact: &[u8], entry: Value) -> Value {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, artifact).unwrap();
    let mut entry = entry;
    entry["url"] = json!(rel);
    entry["digest"] = json!(sha256(artifact));
    entry
}

fn write_index(path: &Path, skills: &[Value]) {
    write_file(
        path,
        serde_json::to_string_pretty(&json!({"$schema": SCHEMA, "skills": skills})).unwrap(),
    );
}

fn ok(home: &TestHome, args: &[&str]) -> (String, String) {
    let out = home.agx().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "agx {args:?}: {stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

fn fails(home: &TestHome, args: &[&str]) -> String {
    let out = home.agx().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "agx {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn nothing_installed(home: &TestHome) -> bool {
    let receipts = home.agx_home().join("receipts-v1");
    !receipts.exists() || crate::support::tree(&receipts).is_empty()
}

/// A site with a `skill-md` skill, a `.tar.gz` one (versioned, with a script) and a `.zip`
/// one, plus an entry of a type agx does not know.
fn site() -> (tempfile::TempDir, HttpServer) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join(".well-known/agent-skills");
    let review = publish(
        &dir,
        "review/SKILL.md",
        skill_md("review", "Read the diff first.").as_bytes(),
        json!({"name": "review", "type": "skill-md",
               "description": "The review skill, from a web site."}),
    );
    let deploy = publish(
        &dir,
        "deploy.tar.gz",
        &tar_gz(&[
            (
                "SKILL.md",
                &skill_md("deploy", "Run [the script](scripts/deploy.sh)."),
                0o644,
            ),
            ("scripts/deploy.sh", "#!/bin/sh\necho deployed\n", 0o755),
        ]),
        json!({"name": "deploy", "type": "archive", "version": "1.2.0",
               "description": "The deploy skill, from a web site."}),
    );
    let mut notes = publish(
        &dir,
        "notes.zip",
        &zip(&[
            ("SKILL.md", &skill_md("notes", "See [the guide](guide.md).")),
            ("guide.md", "Write it down.\n"),
        ]),
        json!({"name": "notes", "type": "archive",
               "description": "The notes skill, from a web site."}),
    );
    // The `sha256` spelling some sites write.
    let digest = notes["digest"].as_str().unwrap().to_string();
    notes.as_object_mut().unwrap().remove("digest");
    notes["sha256"] = json!(digest.trim_start_matches("sha256:"));
    let movie = json!({"name": "movie", "type": "video", "description": "x",
                       "url": "movie.mp4", "digest": sha256(b"x")});
    write_index(&dir.join("index.json"), &[review, deploy, notes, movie]);
    let server = HttpServer::serve(root.path());
    (root, server)
}

#[test]
fn a_sites_skills_install_into_the_clients_lock_and_sync_elsewhere() {
    let (_root, server) = site();
    let home = TestHome::new();
    let (_, added) = ok(&home, &["registry", "add-source", "docs", &server.url()]);
    assert!(added.contains("registry `docs` (well-known)"), "{added}");
    assert!(
        added.contains("skipped skills[3]: `movie` has type `video`"),
        "{added}"
    );
    let (found, _) = ok(&home, &["search", "deploy"]);
    assert!(found.contains("docs/deploy 1.2.0"), "{found}");

    ok(
        &home,
        &["install", "docs/review", "docs/deploy", "docs/notes"],
    );
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/docs/deploy.toml")).unwrap();
    let tarball =
        std::fs::read(_root.path().join(".well-known/agent-skills/deploy.tar.gz")).unwrap();
    assert!(
        receipt.contains(&format!(
            "sha256 = \"{}\"",
            sha256(&tarball).trim_start_matches("sha256:")
        )),
        "{receipt}"
    );
    assert!(
        receipt.contains(&format!("registry = \"{}\"", server.url())),
        "{receipt}"
    );
    ok(&home, &["install-skill", "all", "docs/deploy/deploy"]);
    ok(&home, &["install-skill", "claude-code", "docs/notes/notes"]);
    ok(
        &home,
        &["install-skill", "claude-code", "docs/review/review"],
    );
    let claude = home.home().join(".claude/skills");
    let script = claude.join("deploy/scripts/deploy.sh");
    assert_eq!(
        std::fs::read_to_string(&script).unwrap(),
        "#!/bin/sh\necho deployed\n"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&script).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "the script keeps its executable bit");
    }
    assert!(home.home().join(".agents/skills/deploy/SKILL.md").is_file());
    assert_eq!(
        std::fs::read_to_string(claude.join("notes/guide.md")).unwrap(),
        "Write it down.\n"
    );
    assert!(
        std::fs::read_to_string(claude.join("review/SKILL.md"))
            .unwrap()
            .contains("Read the diff first.")
    );

    // A project locks the skills (version, digest, the site) and syncs them on a machine
    // that has never configured the site.
    let project = tempfile::tempdir().unwrap();
    write_file(
        &project.path().join("agx.toml"),
        "[project]\nclients = [\"claude-code\"]\n",
    );
    let in_project = |home: &TestHome, args: &[&str]| {
        let out = home
            .agx()
            .args(args)
            .current_dir(project.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "agx {args:?}: {stderr}");
    };
    in_project(&home, &["add", "--skill", "docs/deploy/deploy"]);
    let lock = std::fs::read_to_string(project.path().join("agx.lock")).unwrap();
    assert!(
        lock.contains("name = \"docs/deploy\"\nversion = \"1.2.0\"")
            && lock.contains(&format!("source = \"{}\"", server.url())),
        "{lock}"
    );
    std::fs::remove_dir_all(project.path().join(".claude")).unwrap();
    let elsewhere = TestHome::new();
    in_project(&elsewhere, &["sync", "--locked"]);
    assert!(
        project
            .path()
            .join(".claude/skills/deploy/scripts/deploy.sh")
            .is_file()
    );
}

#[test]
fn versioned_indexes_give_ranges_and_the_legacy_path_is_read() {
    let root = tempfile::tempdir().unwrap();
    let base = root.path().join(".well-known/agent-skills");
    for version in ["1.0.0", "2.0.0"] {
        let dir = base.join(format!("v{version}"));
        let entry = publish(
            &dir,
            "guide/SKILL.md",
            skill_md("guide", &format!("Version {version}.")).as_bytes(),
            json!({"name": "guide", "type": "skill-md", "version": version,
                   "description": "The guide skill, from a web site."}),
        );
        write_index(&dir.join("index.json"), &[entry]);
    }
    // The current index points into the newest snapshot.
    let current: Value =
        serde_json::from_str(&std::fs::read_to_string(base.join("v2.0.0/index.json")).unwrap())
            .unwrap();
    let mut latest = current["skills"][0].clone();
    latest["url"] = json!("v2.0.0/guide/SKILL.md");
    write_index(&base.join("index.json"), &[latest]);
    write_file(
        &base.join("versions.json"),
        r#"{"latest": "2.0.0", "versions": ["1.0.0", "2.0.0"]}"#,
    );
    let server = HttpServer::serve(root.path());
    let home = TestHome::new();
    ok(&home, &["registry", "add-source", "docs", &server.url()]);
    ok(&home, &["install", "docs/guide@^1"]);
    ok(&home, &["install-skill", "claude-code", "docs/guide/guide"]);
    let copy = home.home().join(".claude/skills/guide/SKILL.md");
    assert!(
        std::fs::read_to_string(&copy)
            .unwrap()
            .contains("Version 1.0.0.")
    );
    // `^1` holds at 1.0.0; the newer snapshot is named.
    let (_, updated) = ok(&home, &["update"]);
    assert!(
        updated.contains("docs/guide 2.0.0 is available"),
        "{updated}"
    );
    ok(&home, &["install", "docs/guide@^2"]);
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/docs/guide.toml")).unwrap();
    assert!(receipt.contains("version = \"2.0.0\""), "{receipt}");

    // A site that still serves only the older path.
    let legacy = tempfile::tempdir().unwrap();
    let dir = legacy.path().join(".well-known/skills");
    let entry = publish(
        &dir,
        "review/SKILL.md",
        skill_md("review", "Old path.").as_bytes(),
        json!({"name": "review", "type": "skill-md",
               "description": "The review skill, from a web site."}),
    );
    write_index(&dir.join("index.json"), &[entry]);
    let old = HttpServer::serve(legacy.path());
    // It refuses the newer path as object stores do (403), not with a 404.
    old.fault(
        "/.well-known/agent-skills/index.json",
        Fault::Fail {
            status: 403,
            times: 1000,
        },
    );
    ok(&home, &["registry", "add-source", "old", &old.url()]);
    ok(&home, &["install", "old/review"]);
}

#[test]
fn a_wrong_digest_an_unknown_schema_a_loop_and_a_huge_archive_write_nothing() {
    let (root, server) = site();
    let home = TestHome::new();
    ok(&home, &["registry", "add-source", "docs", &server.url()]);

    server.fault("/.well-known/agent-skills/deploy.tar.gz", Fault::WrongBytes);
    let err = fails(&home, &["install", "docs/deploy"]);
    assert!(err.contains("checksum mismatch"), "{err}");
    assert!(nothing_installed(&home));

    server.fault(
        "/.well-known/agent-skills/review/SKILL.md",
        Fault::Redirect {
            location: "/.well-known/agent-skills/review/SKILL.md".into(),
        },
    );
    let err = fails(&home, &["install", "docs/review"]);
    assert!(err.contains("redirect"), "{err}");
    assert!(nothing_installed(&home));

    // More than the 64 MiB a skill may be, sent without a length.
    let odd = OddServer::serve(root.path());
    odd.odd(
        "/.well-known/agent-skills/notes.zip",
        Odd::Chunked {
            size: 64 * 1024 * 1024 + 1,
        },
    );
    let other = TestHome::new();
    ok(&other, &["registry", "add-source", "docs", &odd.url()]);
    let err = fails(&other, &["install", "docs/notes"]);
    assert!(err.contains("larger than 64 MiB"), "{err}");
    assert!(nothing_installed(&other));

    // An index of a schema agx does not know: the source is not added.
    let unknown = tempfile::tempdir().unwrap();
    write_files(
        unknown.path(),
        &[(
            ".well-known/agent-skills/index.json",
            r#"{"$schema": "https://schemas.agentskills.io/discovery/9.0.0/schema.json", "skills": []}"#,
        )],
    );
    let future = HttpServer::serve(unknown.path());
    let err = fails(&home, &["registry", "add-source", "future", &future.url()]);
    assert!(err.contains("9.0.0") && err.contains(SCHEMA), "{err}");
    let config = std::fs::read_to_string(home.agx_home().join("config.toml")).unwrap_or_default();
    assert!(!config.contains("future"), "{config}");
}
