//! Agent Skills in packages: validate, the fixture package acme/dev (two skills, one with
//! `scripts/` and `references/`) through install, list, info and search (docs/skills.md).

use serde_json::Value;

use crate::support::{Fixture, TestHome, fixtures, write_files};

fn stdout(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().expect("agx runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(cmd: &mut assert_cmd::Command) -> Value {
    serde_json::from_str(&stdout(cmd)).expect("JSON on stdout")
}

#[test]
fn the_fixture_package_validates_with_its_two_skills() {
    let home = TestHome::new();
    let doc = json(
        home.agx()
            .arg("validate")
            .arg(fixtures().join("packages/acme-dev"))
            .args(["--format", "json"]),
    );
    assert_eq!(doc["valid"], true, "{doc:#}");
    assert_eq!(doc["package"]["skills"], 2);
    assert_eq!(doc["findings"], Value::Array(Vec::new()));
}

#[test]
fn validate_points_into_skill_md_with_a_snippet() {
    let home = TestHome::new();
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "agx.toml",
                "[package]\nname = \"acme/s\"\nversion = \"0.1.0\"\ndescription = \"d\"\n\n[extension]\nskills = [\"review\", \"gone\"]\n",
            ),
            (
                "skills/review/SKILL.md",
                "---\nname: Review\ndescription: d\nmodel: opus\n---\nSee [x](../../agx.toml).\n",
            ),
            (
                "skills/stray/SKILL.md",
                "---\nname: stray\ndescription: d\n---\n",
            ),
        ],
    );
    let out = home
        .agx()
        .arg("validate")
        .arg(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stderr).unwrap();
    let _filters = crate::support::snapshot::snapshot_filters();
    insta::assert_snapshot!(text);
}

#[test]
fn a_skill_package_installs_lists_and_shows_its_skills() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);

    // The installed copy holds the skill folders byte for byte.
    let installed = home.agx_home().join("store-v1/acme/dev/1.0.0");
    for rel in [
        "skills/review/SKILL.md",
        "skills/review/scripts/diff-stat.sh",
        "skills/review/references/checklist.md",
        "skills/release-notes/SKILL.md",
    ] {
        assert_eq!(
            fs_err::read(installed.join(rel)).unwrap(),
            fs_err::read(fixtures().join("packages/acme-dev").join(rel)).unwrap(),
            "{rel}"
        );
    }

    let list = stdout(fixture.agx(&home).arg("list"));
    assert!(list.contains("[skills: review, release-notes]"), "{list}");

    let skills = stdout(fixture.agx(&home).args(["list", "--skills"]));
    insta::assert_snapshot!(skills);

    let doc = json(fixture.agx(&home).args(["list", "--skills", "--json"]));
    assert_eq!(doc["skills"][0]["name"], "acme/dev/review");
    assert_eq!(doc["skills"][0]["package"], "acme/dev");

    let doc = json(fixture.agx(&home).args(["list", "--json"]));
    let package = doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "acme/dev")
        .unwrap();
    assert_eq!(package["skills"][1]["name"], "release-notes");

    let info = stdout(fixture.agx(&home).args(["info", "acme/dev"]));
    assert!(
        info.contains("skills:\n  review — Review a code change"),
        "{info}"
    );
    let doc = json(fixture.agx(&home).args(["info", "acme/dev", "--json"]));
    assert_eq!(doc["skills"].as_array().unwrap().len(), 2);
}

#[test]
fn search_and_the_remote_listing_find_skills() {
    let fixture = Fixture::new();
    let home = TestHome::new();
    let doc = json(
        fixture
            .agx(&home)
            .args(["search", "release", "notes", "--json"]),
    );
    let hit = &doc["results"][0];
    assert_eq!(hit["name"], "acme/dev", "{doc:#}");
    assert!(
        hit["matched"]
            .as_array()
            .unwrap()
            .contains(&Value::from("skill:release-notes")),
        "{hit:#}"
    );
    assert_eq!(hit["extension"]["skills"][1]["name"], "release-notes");

    let remote = stdout(
        fixture
            .agx(&home)
            .args(["list", "--include-remote", "--skills"]),
    );
    assert!(
        remote.contains("acme/dev/review") && remote.contains("(not installed)"),
        "{remote}"
    );
}

#[test]
fn a_package_without_skills_keeps_its_index_entry_unchanged() {
    // `skills` is left out when empty, so entries published before skills existed read the same.
    let entry = fs_err::read_to_string(fixtures().join("registry/packages/acme/geo.json")).unwrap();
    assert!(!entry.contains("skills"), "{entry}");
}

#[test]
fn new_skill_makes_a_package_that_validates_and_installs() {
    let home = TestHome::new();
    let dir = home.home().join("code-review");
    home.agx()
        .arg("new")
        .arg(&dir)
        .args(["--name", "acme/code-review", "--skill", "code-review"])
        .assert()
        .success();
    let doc = json(
        home.agx()
            .arg("validate")
            .arg(&dir)
            .args(["--format", "json"]),
    );
    assert_eq!(doc["valid"], true, "{doc:#}");
    assert_eq!(doc["warnings"], 0, "{doc:#}");
    assert_eq!(doc["package"]["skills"], 1);
    home.agx().arg("install").arg(&dir).assert().success();
    let skills = stdout(home.agx().args(["list", "--skills"]));
    assert!(
        skills.starts_with("acme/code-review/code-review  Say what"),
        "{skills}"
    );
}

#[test]
fn new_skill_refuses_a_bad_skill_name_and_writes_nothing() {
    let home = TestHome::new();
    let dir = home.home().join("pkg");
    let out = home
        .agx()
        .arg("new")
        .arg(&dir)
        .args(["--name", "acme/pkg", "--skill", "Code_Review"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`Code_Review` is not a skill name"),
        "{stderr}"
    );
    assert!(stderr.contains("lowercase letters"), "{stderr}");
    assert!(!dir.exists());
}

/// The fixture's skills copied to `<home>/<folder>` without agx.toml.
fn loose_skills(home: &TestHome, folder: &str) -> std::path::PathBuf {
    let dir = home.home().join(folder);
    crate::support::copy_tree(&fixtures().join("packages/acme-dev/skills"), &dir);
    dir
}

#[test]
fn a_skill_folder_and_a_folder_of_skills_install_as_generated_packages() {
    let home = TestHome::new();
    let many = loose_skills(&home, "team-skills");
    home.agx().arg("install").arg(&many).assert().success();
    home.agx()
        .arg("install")
        .arg(many.join("review"))
        .assert()
        .success();

    let skills = stdout(home.agx().args(["list", "--skills"]));
    insta::assert_snapshot!(skills);

    // The store holds each skill byte for byte, scripts still executable.
    let stored = home
        .agx_home()
        .join("store-v1/_local/team-skills/0.0.0/skills");
    for rel in [
        "review/SKILL.md",
        "review/scripts/diff-stat.sh",
        "release-notes/SKILL.md",
    ] {
        assert_eq!(
            fs_err::read(stored.join(rel)).unwrap(),
            fs_err::read(many.join(rel)).unwrap(),
            "{rel}"
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs_err::metadata(stored.join("review/scripts/diff-stat.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111);
    }
    let info = json(home.agx().args(["info", "review", "--json"]));
    assert_eq!(info["skills"][0]["name"], "review");
}

#[test]
fn an_invalid_skill_folder_is_refused_with_findings_in_its_own_files() {
    let home = TestHome::new();
    let many = loose_skills(&home, "team-skills");
    fs_err::write(
        many.join("review/SKILL.md"),
        "---\nname: reviews\ndescription: d\n---\n",
    )
    .unwrap();
    let out = home.agx().arg("install").arg(&many).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not valid (1 error)"), "{stderr}");
    assert!(stderr.contains("agx validate"), "{stderr}");
    // Nothing was installed.
    let list = stdout(home.agx().args(["list", "--json"]));
    assert!(list.contains("\"packages\":[]"), "{list}");

    let doc = json_any(
        home.agx()
            .arg("validate")
            .arg(&many)
            .args(["--format", "json"]),
    );
    assert_eq!(doc["findings"][0]["code"], "E014");
    assert_eq!(doc["findings"][0]["location"]["file"], "review/SKILL.md");
    assert_eq!(doc["findings"][0]["location"]["line"], 2);
}

/// JSON on stdout, whatever the exit status.
fn json_any(cmd: &mut assert_cmd::Command) -> Value {
    serde_json::from_slice(&cmd.output().unwrap().stdout).expect("JSON on stdout")
}
