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
    // The invalid skill alone installs nothing.
    let out = home
        .agx()
        .arg("install")
        .arg(many.join("review"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not valid (1 error)"), "{stderr}");
    assert!(stderr.contains("agx validate"), "{stderr}");
    let list = stdout(home.agx().args(["list", "--json"]));
    assert!(list.contains("\"packages\":[]"), "{list}");
    // In the folder of skills it is left out, named, and the other installs.
    let out = home.agx().arg("install").arg(&many).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("left out") && stderr.contains("review/SKILL.md:2"),
        "{stderr}"
    );
    let skills = stdout(home.agx().args(["list", "--skills"]));
    assert!(
        skills.contains("release-notes") && !skills.contains("/review"),
        "{skills}"
    );

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

/// Every file under `dir`, relative, with its bytes.
fn files_of(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs_err::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, fs_err::read(&path).unwrap());
            }
        }
    }
    out
}

#[test]
fn install_skill_all_writes_two_identical_copies_once() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    let source = files_of(&fixtures().join("packages/acme-dev/skills/review"));
    let out = fixture
        .agx(&home)
        .args(["install-skill", "all", "acme/dev/review"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for folder in [".claude/skills/review", ".agents/skills/review"] {
        assert_eq!(files_of(&home.home().join(folder)), source, "{folder}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = home
            .home()
            .join(".agents/skills/review/scripts/diff-stat.sh");
        assert_eq!(
            fs_err::metadata(script).unwrap().permissions().mode() & 0o111,
            0o111
        );
    }
    // A second install changes nothing, not even the records.
    let records = fs_err::read(home.agx_home().join("clients-v1.toml")).unwrap();
    let again = fixture
        .agx(&home)
        .args(["install-skill", "all", "acme/dev/review"])
        .output()
        .unwrap();
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("Unchanged"));
    assert_eq!(
        fs_err::read(home.agx_home().join("clients-v1.toml")).unwrap(),
        records
    );
}

#[test]
fn each_client_gets_its_folder_in_the_project_and_own_folders_on_request() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    let project = home.home().join("site");
    fs_err::create_dir_all(&project).unwrap();
    let cases = [
        ("claude-code", "shared", ".claude/skills"),
        ("codex", "shared", ".agents/skills"),
        ("gemini", "own", ".gemini/skills"),
        ("vscode", "own", ".github/skills"),
        ("cursor", "own", ".cursor/skills"),
        ("opencode", "own", ".opencode/skills"),
    ];
    for (client, folder, expected) in cases {
        fixture
            .agx(&home)
            .args([
                "install-skill",
                client,
                "acme/dev/release-notes",
                "--scope",
                "project",
            ])
            .args(["--folder", folder])
            .arg("--project")
            .arg(&project)
            .assert()
            .success();
        assert!(
            project
                .join(expected)
                .join("release-notes/SKILL.md")
                .is_file(),
            "{client}: {expected}"
        );
    }
}

#[test]
fn a_foreign_folder_is_untouched_and_uninstall_removes_only_agx_copies() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    let foreign = home.home().join(".claude/skills/review");
    crate::support::write_file(&foreign.join("SKILL.md"), "my own review skill");
    let out = fixture
        .agx(&home)
        .args(["install-skill", "all", "acme/dev/review"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("agx did not write it"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(
        fs_err::read_to_string(foreign.join("SKILL.md")).unwrap(),
        "my own review skill"
    );

    // --client, repeated, in place of the positional client; not both.
    let out = fixture
        .agx(&home)
        .args(["install-skill", "--client", "codex", "--client", "gemini"])
        .args(["--folder", "own", "acme/dev/review"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(home.home().join(".agents/skills/review/SKILL.md").is_file());
    assert!(home.home().join(".gemini/skills/review/SKILL.md").is_file());
    fixture
        .agx(&home)
        .args(["uninstall-skill", "--client", "codex", "--client", "gemini"])
        .args(["--folder", "own", "acme/dev/review"])
        .assert()
        .success();
    assert!(!home.home().join(".gemini/skills/review").exists());
    let out = fixture
        .agx(&home)
        .args([
            "install-skill",
            "codex",
            "--client",
            "gemini",
            "acme/dev/review",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the client is given twice"));

    // Into the shared folder only, then uninstall from all: the foreign one stays. The
    // report names every client that reads the folder it wrote, and only those.
    let out = fixture
        .agx(&home)
        .args(["install-skill", "codex", "acme/dev/review"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(".agents/skills/review (read by codex, gemini, vscode, cursor, opencode)"),
        "{said}"
    );
    let out = fixture
        .agx(&home)
        .args(["uninstall-skill", "codex", "acme/dev/review"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!home.home().join(".agents/skills/review").exists());
    assert_eq!(
        fs_err::read_to_string(foreign.join("SKILL.md")).unwrap(),
        "my own review skill"
    );
    let out = fixture
        .agx(&home)
        .args(["uninstall-skill", "claude-code", "acme/dev/review"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(foreign.join("SKILL.md").is_file());
}

#[test]
fn a_hand_edited_copy_is_kept_unless_forced() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    fixture
        .agx(&home)
        .args(["install-skill", "codex", "acme/dev/review"])
        .assert()
        .success();
    let skill_md = home.home().join(".agents/skills/review/SKILL.md");
    fs_err::write(&skill_md, "edited by hand").unwrap();
    let out = fixture
        .agx(&home)
        .args(["uninstall-skill", "codex", "acme/dev/review"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("edited since agx wrote it"));
    assert_eq!(fs_err::read_to_string(&skill_md).unwrap(), "edited by hand");
    fixture
        .agx(&home)
        .args(["install-skill", "codex", "acme/dev/review", "--force"])
        .assert()
        .success();
    assert_eq!(
        fs_err::read(&skill_md).unwrap(),
        fs_err::read(fixtures().join("packages/acme-dev/skills/review/SKILL.md")).unwrap()
    );
}

#[test]
fn install_skill_names_a_missing_package_or_skill() {
    let fixture = Fixture::new();
    let home = TestHome::new();
    let out = fixture
        .agx(&home)
        .args(["install-skill", "all", "acme/dev/review"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("agx install acme/dev"));
    let home = fixture.home_with(&["acme/dev"]);
    let out = fixture
        .agx(&home)
        .args(["install-skill", "all", "acme/dev/reveiw"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("its skills: acme/dev/review, acme/dev/release-notes"),
        "{stderr}"
    );
}

#[test]
fn clients_and_doctor_report_edited_missing_and_orphaned_copies_and_fix_restores() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    // Codex is set up here, so its copies are read (doctor_notes_a_copy_no_client_here_reads).
    fs_err::create_dir_all(home.home().join(".codex")).unwrap();
    for skill in ["acme/dev/review", "acme/dev/release-notes"] {
        fixture
            .agx(&home)
            .args(["install-skill", "codex", skill])
            .assert()
            .success();
    }
    let shared = home.home().join(".agents/skills");
    fixture.agx(&home).arg("doctor").assert().success();

    fs_err::write(shared.join("review/SKILL.md"), "edited").unwrap();
    fs_err::remove_dir_all(shared.join("release-notes")).unwrap();
    let clients = stdout(fixture.agx(&home).arg("clients"));
    assert!(clients.contains("acme/dev/review 1.0.0"), "{clients}");
    assert!(clients.contains("[edited by hand]"), "{clients}");
    assert!(clients.contains("[missing]"), "{clients}");

    let out = fixture
        .agx(&home)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems: Vec<&str> = doc["skill_findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["problem"].as_str().unwrap())
        .collect();
    assert_eq!(problems, ["hand-edited", "copy-missing"], "{doc:#}");

    // --fix restores the missing copy and leaves the edited one.
    let out = fixture
        .agx(&home)
        .args(["doctor", "--fix"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        files_of(&shared.join("release-notes")),
        files_of(&fixtures().join("packages/acme-dev/skills/release-notes"))
    );
    assert_eq!(
        fs_err::read_to_string(shared.join("review/SKILL.md")).unwrap(),
        "edited"
    );

    // An edited copy outlives its package's uninstall; once its edit is undone it is an
    // orphan, which --fix removes.
    fixture
        .agx(&home)
        .args(["uninstall", "acme/dev"])
        .assert()
        .success();
    assert!(!shared.join("release-notes").exists());
    crate::support::copy_tree(
        &fixtures().join("packages/acme-dev/skills/review"),
        &home.home().join("original"),
    );
    fs_err::remove_dir_all(shared.join("review")).unwrap();
    fs_err::rename(home.home().join("original"), shared.join("review")).unwrap();
    let out = stdout_any(fixture.agx(&home).arg("doctor"));
    assert!(out.contains("package acme/dev is not installed"), "{out}");
    fixture
        .agx(&home)
        .args(["doctor", "--fix"])
        .assert()
        .success();
    assert!(!shared.join("review").exists());
    assert!(!shared.join("release-notes").exists());
    fixture.agx(&home).arg("doctor").assert().success();
}

#[test]
fn uninstall_removes_the_packages_unedited_copies_and_names_an_edited_one() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    for (client, skill) in [
        ("all", "acme/dev/review"),
        ("codex", "acme/dev/release-notes"),
    ] {
        fixture
            .agx(&home)
            .args(["install-skill", client, skill])
            .assert()
            .success();
    }
    let shared = home.home().join(".agents/skills");
    fs_err::write(shared.join("release-notes/SKILL.md"), "edited").unwrap();
    let out = fixture
        .agx(&home)
        .args(["uninstall", "acme/dev"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let review = home.home().join(".claude/skills/review");
    assert!(
        stderr.contains(&format!(
            "Removed skill acme/dev/review from {}",
            review.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "kept {}: edited by hand since agx copied acme/dev/release-notes",
            shared.join("release-notes").display()
        )),
        "{stderr}"
    );
    assert!(!review.exists());
    assert!(!shared.join("review").exists());
    assert_eq!(
        fs_err::read_to_string(shared.join("release-notes/SKILL.md")).unwrap(),
        "edited"
    );
    // Only the edited copy stays recorded, so `agx clients` and `doctor` still name it.
    let records = fs_err::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    assert_eq!(records.matches("[[skill]]").count(), 1, "{records}");
    assert!(records.contains("release-notes"), "{records}");
}

fn stdout_any(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8(cmd.output().unwrap().stdout).unwrap()
}

#[cfg(unix)]
#[test]
fn a_project_link_leading_out_of_the_project_is_refused() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    let project = home.home().join("cloned");
    let outside = home.home().join("elsewhere");
    fs_err::create_dir_all(&project).unwrap();
    fs_err::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, project.join(".agents")).unwrap();
    let out = fixture
        .agx(&home)
        .args([
            "install-skill",
            "codex",
            "acme/dev/review",
            "--scope",
            "project",
        ])
        .arg("--project")
        .arg(&project)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(".agents"), "{stderr}");
    assert_eq!(fs_err::read_dir(&outside).unwrap().count(), 0);
}

fn skill_package(root: &std::path::Path, version: &str, body: &str) -> std::path::PathBuf {
    let dir = root.join(format!("sk-{version}"));
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"acme/sk\"\nversion = \"{version}\"\ndescription = \"d\"\n\n[extension]\nskills = [\"review\"]\n"
                ),
            ),
            (
                "skills/review/SKILL.md",
                &format!("---\nname: review\ndescription: Reviews.\n---\n{body}\n"),
            ),
        ],
    );
    dir
}

/// Publish the package folder `dir` into the test's own `registry`.
fn publish(home: &TestHome, registry: &std::path::Path, dir: std::path::PathBuf) {
    home.agx()
        .args(["registry", "add"])
        .arg(registry)
        .arg(dir)
        .assert()
        .success();
}

/// `agx` reading the test's own `registry`.
fn agx_using(home: &TestHome, registry: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = home.agx();
    cmd.env("AGX_REGISTRY", registry);
    cmd
}

/// A registry of the test's own holding `acme/sk` 1.0.0 (see [`skill_package`]), installed,
/// with its skill copied into every client (`install-skill all`); returns the registry.
fn copies_of_a_published_skill(home: &TestHome) -> std::path::PathBuf {
    let registry = home.home().join("registry");
    home.agx()
        .args(["registry", "init"])
        .arg(&registry)
        .args(["--name", "t"])
        .assert()
        .success();
    publish(
        home,
        &registry,
        skill_package(&home.home().join("src"), "1.0.0", "First."),
    );
    let agx = || agx_using(home, &registry);
    agx().args(["install", "acme/sk"]).assert().success();
    agx()
        .args(["install-skill", "all", "acme/sk/review"])
        .assert()
        .success();
    registry
}

#[test]
fn update_refreshes_every_unedited_copy_and_leaves_an_edited_one() {
    let home = TestHome::new();
    let registry = copies_of_a_published_skill(&home);
    let add = |dir: std::path::PathBuf| publish(&home, &registry, dir);
    let sources = home.home().join("src");
    let agx = || agx_using(&home, &registry);
    let edited = home.home().join(".claude/skills/review/SKILL.md");
    fs_err::write(&edited, "mine").unwrap();

    add(skill_package(&sources, "1.1.0", "Second."));
    let out = agx().arg("update").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Refreshed"), "{stderr}");
    assert!(stderr.contains("edited by hand"), "{stderr}");

    let shared = home.home().join(".agents/skills/review/SKILL.md");
    assert!(fs_err::read_to_string(&shared).unwrap().contains("Second."));
    assert_eq!(fs_err::read_to_string(&edited).unwrap(), "mine");
    let records = fs_err::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    assert!(records.contains("version = \"1.1.0\""), "{records}");
    assert!(records.contains("version = \"1.0.0\""), "{records}");
}

#[cfg(unix)]
#[test]
fn a_huge_file_or_a_link_in_a_copys_place_is_reported_without_reading_it() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    fixture
        .agx(&home)
        .args(["install-skill", "codex", "acme/dev/review"])
        .assert()
        .success();
    // A recorded copy that grew a 2 GiB file (sparse: nothing is written to disk). Before,
    // it was read whole: "memory allocation failed", exit 134.
    let shared = home.home().join(".agents/skills/review");
    fs_err::File::create(shared.join("huge.bin"))
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let clients = stdout(fixture.agx(&home).arg("clients"));
    assert!(clients.contains("[edited by hand]"), "{clients}");
    let out = fixture.agx(&home).arg("doctor").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");

    // A foreign folder with such a file is refused as foreign, not read.
    let foreign = home.home().join(".claude/skills/review");
    fs_err::create_dir_all(&foreign).unwrap();
    fs_err::File::create(foreign.join("huge.bin"))
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let out = fixture
        .agx(&home)
        .args(["install-skill", "claude-code", "acme/dev/review"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("agx did not write it"));

    // A link in the copy's place (to a whole tree) is refused and left, never followed.
    fs_err::remove_dir_all(&foreign).unwrap();
    let elsewhere = home.home().join("elsewhere");
    crate::support::write_file(&elsewhere.join("notes.txt"), "mine");
    std::os::unix::fs::symlink(&elsewhere, &foreign).unwrap();
    for force in [false, true] {
        let mut cmd = fixture.agx(&home);
        cmd.args(["install-skill", "claude-code", "acme/dev/review"]);
        if force {
            cmd.arg("--force");
        }
        let out = cmd.output().unwrap();
        if force {
            // Replaced: the link goes, what it pointed to stays.
            assert!(out.status.success(), "{out:?}");
            assert!(foreign.join("SKILL.md").is_file());
        } else {
            assert_eq!(out.status.code(), Some(1));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("agx did not write it"), "{stderr}");
            assert!(foreign.is_symlink());
        }
    }
    assert_eq!(
        fs_err::read_to_string(elsewhere.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(!elsewhere.join("SKILL.md").exists());
}

#[test]
fn update_reports_a_copy_replaced_by_a_file_and_refreshes_the_others() {
    let home = TestHome::new();
    let registry = copies_of_a_published_skill(&home);
    let add = |dir: std::path::PathBuf| publish(&home, &registry, dir);
    let sources = home.home().join("src");
    let agx = || agx_using(&home, &registry);
    // Claude Code's copy (the first one recorded) is now a file.
    let replaced = home.home().join(".claude/skills/review");
    fs_err::remove_dir_all(&replaced).unwrap();
    fs_err::write(&replaced, "a file now").unwrap();

    add(skill_package(&sources, "1.1.0", "Second."));
    let out = agx().arg("update").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains(".claude/skills/review"), "{stderr}");
    assert!(stderr.contains("left at 1.0.0"), "{stderr}");
    let shared = home.home().join(".agents/skills/review/SKILL.md");
    assert!(fs_err::read_to_string(&shared).unwrap().contains("Second."));
    assert_eq!(fs_err::read_to_string(&replaced).unwrap(), "a file now");
}

#[test]
fn terminal_escapes_in_a_skills_description_are_not_printed() {
    let home = TestHome::new();
    let dir = home.home().join("src/evil");
    crate::support::write_file(
        &dir.join("SKILL.md"),
        "---\nname: evil\ndescription: \"Reviews.\\e]52;c;ZXZpbA==\\a\\e[2J\\e[8mhidden\\u202e\"\n---\nBody.\n",
    );
    home.agx().arg("install").arg(&dir).assert().success();
    for args in [&["list", "--skills"][..], &["info", "evil"]] {
        let out = home.agx().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Reviews."), "{args:?}: {text}");
        assert!(
            !text.contains('\x1b') && !text.contains('\x07') && !text.contains('\u{202e}'),
            "{args:?}: {text:?}"
        );
    }
}

#[test]
fn reference_style_links_and_links_in_a_skill_folder_are_findings() {
    let home = TestHome::new();
    let dir = home.home().join("src/peek");
    crate::support::write_file(
        &dir.join("SKILL.md"),
        "---\nname: peek\ndescription: Peeks.\n---\nRead [the key][1].\n\n[1]: ../../etc/passwd\n",
    );
    // A warning (someone else's skill still installs); an error for its author's --strict.
    let out = home.agx().arg("validate").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("warning[W302]"), "{text}");
    assert!(text.contains("SKILL.md:7:6"), "{text}");
    let out = home
        .agx()
        .args(["validate", "--strict"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");

    #[cfg(unix)]
    {
        let dir = home.home().join("src/linked");
        crate::support::write_file(
            &dir.join("SKILL.md"),
            "---\nname: linked\ndescription: Links.\n---\nBody.\n",
        );
        std::os::unix::fs::symlink("/etc/hostname", dir.join("secret")).unwrap();
        let out = home.agx().arg("validate").arg(&dir).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(text.contains("error[E033]"), "{text}");
        assert!(text.contains("--> secret"), "{text}");
    }
}

/// Real skills (trailofbits, anthropics) name their own folder with Claude Code's
/// placeholders and write patterns and stand-ins in their bodies: none of that is a broken
/// reference, and a broken one does not stop someone else's skill from installing.
#[test]
fn placeholders_patterns_and_broken_references_do_not_refuse_a_skill() {
    let home = TestHome::new();
    let dir = home.home().join("src/fp-check");
    write_files(
        &dir,
        &[
            (
                "SKILL.md",
                "---\nname: fp-check\ndescription: Checks findings.\n---\n\
                 Read [the guide]({baseDir}/references/guide.md) and `${CLAUDE_SKILL_DIR}/jobs/run.md`.\n\
                 Load `references/*.md`, `references/[domain].md`, `./receipts/<timestamp>.json`.\n\
                 Run `${CLAUDE_PLUGIN_ROOT}/scripts/check.sh`.\n",
            ),
            ("references/guide.md", "guide"),
            ("jobs/run.md", "job"),
        ],
    );
    let out = home.agx().arg("validate").arg(&dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("W30"), "{text}");

    // A reference that is broken for real: a warning, and the skill installs.
    crate::support::write_file(
        &dir.join("SKILL.md"),
        "---\nname: fp-check\ndescription: Checks findings.\n---\nSee `../../CONNECTORS.md` and [gone](references/gone.md).\n",
    );
    let out = home.agx().arg("install").arg(&dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("W302") || text.contains("W303") || !text.contains("error"),
        "{text}"
    );
    let skills = stdout(home.agx().args(["list", "--skills"]));
    assert!(skills.contains("fp-check"), "{skills}");
}

/// A clone of a skills repository with one broken skill installed nothing; openai/skills'
/// grouped layout (`skills/.curated/NAME`) was not found. The valid skills install, each
/// one left out is named with its reason.
#[test]
fn a_folder_of_skills_installs_the_valid_ones_and_names_the_rest() {
    let home = TestHome::new();
    let dir = home.home().join("src/skills");
    write_files(
        &dir,
        &[
            (
                "skills/.curated/review/SKILL.md",
                "---\nname: review\ndescription: Reviews.\n---\nBody.\n",
            ),
            (
                "skills/.curated/notes/SKILL.md",
                "---\nname: notes\ndescription: Notes.\n---\nBody.\n",
            ),
            (
                "skills/.experimental/broken/SKILL.md",
                "---\nname: broken\n---\nNo description.\n",
            ),
        ],
    );
    let out = home.agx().arg("install").arg(&dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("left out") && stderr.contains("skills/.experimental/broken"),
        "{stderr}"
    );
    let skills = stdout(home.agx().args(["list", "--skills"]));
    assert!(
        skills.contains("review") && skills.contains("notes"),
        "{skills}"
    );
    assert!(!skills.contains("broken"), "{skills}");
    // Validating it is still strict: the broken skill is an error there.
    let out = home.agx().arg("validate").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// Two folders of skills with one name: the second replaced the first's package without a
/// word, while the client copies stayed the first's skill.
#[test]
fn a_second_folder_of_skills_with_an_installed_name_is_refused() {
    let home = TestHome::new();
    let body = |text: &str| format!("---\nname: review\ndescription: {text}\n---\nBody.\n");
    let first = home.home().join("a/review");
    let second = home.home().join("b/review");
    crate::support::write_file(&first.join("SKILL.md"), body("First."));
    crate::support::write_file(&second.join("SKILL.md"), body("Second."));
    home.agx().arg("install").arg(&first).assert().success();
    // Installing the same folder again is fine.
    home.agx().arg("install").arg(&first).assert().success();
    let out = home.agx().arg("install").arg(&second).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("would replace it"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    let info = stdout(home.agx().args(["info", "review"]));
    assert!(info.contains("First."), "{info}");
    home.agx()
        .arg("install")
        .arg(&second)
        .arg("--force")
        .assert()
        .success();
    let info = stdout(home.agx().args(["info", "review"]));
    assert!(info.contains("Second."), "{info}");
    // `agx outdated` says why it cannot check a package from a folder, and how to update it.
    let out = home.agx().arg("outdated").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("review: installed from") && stderr.contains("agx install"),
        "{stderr}"
    );
}

/// A copy agx placed where no client set up on this machine looks (`~/.agents/skills` with
/// only Claude Code here) is noted by doctor, with where to put it instead; it is not a
/// problem (the client may come later), and the note goes once a reader is set up.
#[test]
fn doctor_notes_a_copy_no_client_here_reads() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    fixture
        .agx(&home)
        .args(["install-skill", "codex", "acme/dev/review"])
        .assert()
        .success();
    fs_err::create_dir_all(home.home().join(".claude")).unwrap();
    let out = fixture.agx(&home).arg("doctor").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("note: skill acme/dev/review at")
            && stdout.contains("no client set up on this machine reads")
            && stdout.contains("`agx install-skill claude-code acme/dev/review`"),
        "{stdout}"
    );
    let out = fixture
        .agx(&home)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["skill_findings"][0]["problem"], "no-reader", "{doc:#}");

    // Codex is set up: it reads the folder, nothing to note.
    fs_err::create_dir_all(home.home().join(".codex")).unwrap();
    let out = fixture.agx(&home).arg("doctor").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && !stdout.contains("note:"),
        "{stdout}"
    );
}
