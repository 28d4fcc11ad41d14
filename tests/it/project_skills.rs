//! Integration tests: a project's skills (docs/projects.md, "Skills") — `[skills]` in
//! agx.toml, `agx add --skill`, the locked content hash, `agx sync` writing the copies into
//! the project's skills folders, `sync --check` naming drift, `agx remove` leaving an edited
//! copy, a poisoned lock refused, and an upgrade refreshing the copies.

use std::path::Path;

use crate::project::Setup;
use crate::support::{TestHome, fixtures, tree, write_files};

const CLIENTS: &str = "[project]\nclients = [\"claude-code\", \"cursor\", \"codex\"]\n";

fn review_source() -> std::collections::BTreeMap<String, String> {
    tree(&fixtures().join("packages/acme-dev/skills/review"))
}

/// A project with the fixture's `review` skill added and synced.
fn with_review() -> Setup {
    let setup = Setup::new(CLIENTS);
    setup.ok(&["add", "--skill", "acme/dev/review"]);
    setup
}

#[test]
fn add_skill_locks_it_and_sync_copies_it_once_into_each_folder() {
    let setup = Setup::new(CLIENTS);
    let out = setup.ok(&["add", "--skill", "acme/dev/review"]);
    assert!(out.contains("Added skill acme/dev/review"), "{out}");
    let toml = setup.read("agx.toml");
    assert!(
        toml.contains("[skills]\nreview = { skill = \"acme/dev/review\", version = \"^1.0.0\" }"),
        "{toml}"
    );
    let lock = setup.read("agx.lock");
    assert!(lock.contains("[[skill]]\nkey = \"review\""), "{lock}");
    assert!(lock.contains("content = \"sha256:"), "{lock}");
    assert!(lock.contains("name = \"acme/dev\""), "{lock}");
    // Claude Code's folder and the shared one (Cursor and Codex read it): real copies.
    for folder in [".claude/skills/review", ".agents/skills/review"] {
        assert_eq!(
            tree(&setup.project.join(folder)),
            review_source(),
            "{folder}"
        );
    }
    assert!(!setup.project.join(".cursor").exists());

    // `agx tree` shows the skill key under the package that holds it.
    let shown = setup.ok(&["tree"]);
    assert!(
        shown.contains("review (skill acme/dev/review)\n└── acme/dev 1."),
        "{shown}"
    );
    let (ok, json) = setup.json(&["tree"]);
    assert!(ok, "{json}");
    let skill = &json.as_array().unwrap().last().unwrap();
    assert_eq!(skill["key"], "review");
    assert_eq!(skill["skill"], "acme/dev/review");
    assert_eq!(skill["package"]["name"], "acme/dev");

    let again = setup.ok(&["sync"]);
    assert!(again.contains("nothing to change"), "{again}");
    setup.ok(&["sync", "--check"]);
    setup.ok(&["sync", "--locked"]);
    // The copies are recorded as the project's.
    let records = std::fs::read_to_string(setup.home.agx_home().join("clients-v1.toml")).unwrap();
    assert_eq!(records.matches("[[skill]]").count(), 2, "{records}");
    assert!(records.contains("project = "), "{records}");
}

#[test]
fn check_names_an_edited_and_a_missing_copy_and_sync_keeps_the_edit_without_force() {
    let setup = with_review();
    let claude = setup.project.join(".claude/skills/review");
    let shared = setup.project.join(".agents/skills/review");
    std::fs::write(claude.join("SKILL.md"), "mine").unwrap();
    std::fs::remove_dir_all(&shared).unwrap();
    let out = setup.fails(&["sync", "--check"]);
    assert!(
        out.contains(&format!(
            "{}: skill copy of acme/dev/review was edited by hand",
            claude.display()
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{}: skill copy of acme/dev/review is missing",
            shared.display()
        )),
        "{out}"
    );
    assert!(!shared.exists(), "--check wrote nothing");

    let out = setup.fails(&["sync"]);
    assert!(out.contains("was edited since agx wrote it"), "{out}");
    assert!(out.contains("--force"), "{out}");
    assert_eq!(
        std::fs::read_to_string(claude.join("SKILL.md")).unwrap(),
        "mine"
    );

    setup.ok(&["sync", "--force"]);
    assert_eq!(tree(&claude), review_source());
    assert_eq!(tree(&shared), review_source());
    setup.ok(&["sync", "--check"]);
}

#[test]
fn add_skill_refuses_a_ref_without_its_package_and_a_missing_skill() {
    let setup = Setup::new(CLIENTS);
    let out = setup.fails(&["add", "--skill", "acme/review"]);
    assert!(
        out.contains("`acme/review` is not `<skill>[@requirement]`"),
        "{out}"
    );
    assert!(out.contains("publisher/package/skill"), "{out}");
    let out = setup.fails(&["add", "--skill", "acme/dev/reveiw"]);
    assert!(
        out.contains("its skills: acme/dev/review, acme/dev/release-notes"),
        "{out}"
    );
    assert_eq!(setup.read("agx.toml"), CLIENTS);
    assert!(!setup.project.join("agx.lock").exists());
}

#[test]
fn check_without_the_locked_package_names_it_and_keeps_the_copies_wanted() {
    let setup = with_review();
    // The store lost the version (a damaged or pruned store): sync --check must say so, not
    // call the copies it cannot compare unwanted.
    std::fs::remove_dir_all(setup.home.agx_home().join("store-v1/acme/dev/1.0.0")).unwrap();
    let out = setup.fails(&["sync", "--check"]);
    assert!(out.contains("package missing: acme/dev 1.0.0"), "{out}");
    assert!(!out.contains("no longer in the project"), "{out}");
    setup.ok(&["sync"]);
    setup.ok(&["sync", "--check"]);
    assert_eq!(
        tree(&setup.project.join(".agents/skills/review")),
        review_source()
    );
}

#[test]
fn a_foreign_folder_of_the_skills_name_is_never_replaced() {
    let setup = Setup::new(CLIENTS);
    let foreign = setup.project.join(".agents/skills/review");
    write_files(&foreign, &[("SKILL.md", "my own review skill")]);
    let out = setup.fails(&["add", "--skill", "acme/dev/review"]);
    assert!(out.contains("agx did not write it"), "{out}");
    assert_eq!(
        std::fs::read_to_string(foreign.join("SKILL.md")).unwrap(),
        "my own review skill"
    );
    let out = setup.fails(&["sync", "--check"]);
    assert!(out.contains("was not written by agx"), "{out}");
}

#[test]
fn remove_deletes_agx_copies_and_leaves_an_edited_one_with_a_message() {
    let setup = with_review();
    setup.ok(&["add", "--skill", "acme/dev/release-notes@^1"]);
    let edited = setup.project.join(".claude/skills/review");
    std::fs::write(edited.join("SKILL.md"), "mine").unwrap();

    let out = setup.ok(&["remove", "review"]);
    assert!(
        out.contains(&format!(
            "Kept edited skill (no longer managed by agx) acme/dev/review in {}",
            edited.display()
        )),
        "{out}"
    );
    assert!(!setup.project.join(".agents/skills/review").exists());
    assert_eq!(
        std::fs::read_to_string(edited.join("SKILL.md")).unwrap(),
        "mine"
    );
    // The other skill stays, and so does its package in the lock.
    assert!(setup.project.join(".agents/skills/release-notes").is_dir());
    let toml = setup.read("agx.toml");
    assert!(!toml.contains("review ="), "{toml}");
    let lock = setup.read("agx.lock");
    assert!(!lock.contains("key = \"review\""), "{lock}");
    assert!(lock.contains("name = \"acme/dev\""), "{lock}");
    // The kept folder is the user's now: a later sync neither reports nor touches it.
    setup.ok(&["sync", "--check"]);

    setup.ok(&["remove", "release-notes"]);
    assert!(!setup.project.join(".agents/skills/release-notes").exists());
    let lock = setup.read("agx.lock");
    assert!(!lock.contains("acme/dev"), "{lock}");
    assert_eq!(
        std::fs::read_to_string(edited.join("SKILL.md")).unwrap(),
        "mine"
    );
}

#[test]
fn a_poisoned_skill_entry_is_refused_and_nothing_is_written() {
    let setup = with_review();
    let lock = setup.read("agx.lock");
    let content = lock
        .lines()
        .find(|l| l.starts_with("content = "))
        .unwrap()
        .to_string();
    let line = lock.lines().position(|l| l == content).unwrap() + 1;
    let poisoned = lock.replace(
        &content,
        &format!("content = \"sha256:{}\"", "0".repeat(64)),
    );
    std::fs::write(setup.project.join("agx.lock"), &poisoned).unwrap();
    std::fs::remove_dir_all(setup.project.join(".agents/skills/review")).unwrap();
    let place = format!("{}:{line}:1", setup.project.join("agx.lock").display());
    for mode in ["--locked", "--frozen", "--check"] {
        let out = setup.fails(&["sync", mode]);
        assert!(
            out.contains(&format!(
                "{place}: `content` of skill `review` is `sha256:000"
            )),
            "{mode}: {out}"
        );
    }
    assert!(!setup.project.join(".agents/skills/review").exists());

    // A skill entry that disagrees with agx.toml.
    let other = lock.replace(
        "skill = \"acme/dev/review\"",
        "skill = \"acme/dev/release-notes\"",
    );
    std::fs::write(setup.project.join("agx.lock"), &other).unwrap();
    let out = setup.fails(&["sync", "--frozen"]);
    assert!(
        out.contains("`skill` of skill `review` is `acme/dev/release-notes`, but agx.toml declares `acme/dev/review`"),
        "{out}"
    );
    let out = setup.fails(&["sync", "--locked"]);
    assert!(out.contains("skill `review` changed in agx.toml"), "{out}");
    // --check finds the lock stale, and refuses to compare copies with a content that is not
    // release-notes'.
    let out = setup.fails(&["sync", "--check"]);
    assert!(out.contains("`content` of skill `review`"), "{out}");
    assert!(!setup.project.join(".agents/skills/review").exists());
}

fn skill_package(root: &Path, version: &str, body: &str) -> std::path::PathBuf {
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

#[test]
fn an_upgrade_refreshes_the_project_copies_and_update_leaves_them_to_the_lock() {
    let home = TestHome::new();
    let registry = home.home().join("registry");
    let sources = home.home().join("src");
    let project = home.home().join("repo");
    write_files(&project, &[("agx.toml", CLIENTS)]);
    home.agx()
        .args(["registry", "init"])
        .arg(&registry)
        .args(["--name", "t"])
        .assert()
        .success();
    let publish = |dir: std::path::PathBuf| {
        home.agx()
            .args(["registry", "add"])
            .arg(&registry)
            .arg(dir)
            .assert()
            .success();
    };
    let agx = || {
        let mut cmd = home.agx();
        cmd.env("AGX_REGISTRY", &registry).current_dir(&project);
        cmd
    };
    publish(skill_package(&sources, "1.0.0", "First."));
    agx()
        .args(["add", "--skill", "acme/sk/review"])
        .assert()
        .success();
    let copy = project.join(".agents/skills/review/SKILL.md");
    assert!(std::fs::read_to_string(&copy).unwrap().contains("First."));

    publish(skill_package(&sources, "1.1.0", "Second."));
    // A newer publication does not move the lock, and `agx update` leaves the project's
    // copies to it.
    agx().arg("sync").assert().success();
    agx().args(["install", "acme/sk"]).assert().success();
    agx().arg("update").assert().success();
    assert!(std::fs::read_to_string(&copy).unwrap().contains("First."));

    agx().args(["lock", "--upgrade"]).assert().success();
    let out = agx().args(["sync", "--check"]).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("the lock wants acme/sk/review 1.1.0"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = agx().arg("sync").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("Updated skill acme/sk/review"), "{stderr}");
    for folder in [".agents", ".claude"] {
        let text =
            std::fs::read_to_string(project.join(folder).join("skills/review/SKILL.md")).unwrap();
        assert!(text.contains("Second."), "{folder}: {text}");
    }
    agx().args(["sync", "--check"]).assert().success();
}

#[test]
fn clients_json_lists_each_copy_under_the_clients_that_read_it() {
    let setup = with_review();
    setup
        .fixture
        .agx(&setup.home)
        .args(["install", "acme/dev"])
        .assert()
        .success();
    setup
        .fixture
        .agx(&setup.home)
        .args(["install-skill", "claude-code", "acme/dev/release-notes"])
        .assert()
        .success();
    std::fs::write(setup.project.join(".agents/skills/review/SKILL.md"), "mine").unwrap();
    let (ok, doc) = setup.json(&["clients"]);
    assert!(ok);
    let skills_of = |client: &str| -> Vec<serde_json::Value> {
        doc.as_array()
            .unwrap()
            .iter()
            .find(|c| c["client"] == client)
            .unwrap()["skills"]
            .as_array()
            .unwrap()
            .clone()
    };
    let claude = skills_of("claude-code");
    let home = setup.home.home();
    let project = std::fs::canonicalize(&setup.project).unwrap();
    assert_eq!(
        claude,
        [
            serde_json::json!({
                "scope": "project",
                "folder": project.join(".claude/skills"),
                "path": project.join(".claude/skills/review"),
                "skill": "acme/dev/review",
                "package": "acme/dev",
                "version": "1.0.0",
                "state": "ok",
                "project": project,
            }),
            serde_json::json!({
                "scope": "user",
                "folder": home.join(".claude/skills"),
                "path": home.join(".claude/skills/release-notes"),
                "skill": "acme/dev/release-notes",
                "package": "acme/dev",
                "version": "1.0.0",
                "state": "ok",
            }),
        ]
    );
    for client in ["codex", "cursor", "gemini", "vscode", "opencode"] {
        let copies = skills_of(client);
        assert_eq!(copies.len(), 1, "{client}: {copies:?}");
        assert_eq!(copies[0]["state"], "hand-edited", "{client}");
        assert_eq!(copies[0]["scope"], "project", "{client}");
    }
    assert_eq!(skills_of("zed"), Vec::<serde_json::Value>::new());
}

/// A project's `[skills]` from an imported plugin (a marketplace's package, not the agx
/// registry's): locked at the plugin's revision, copied by sync, and provisioned again from
/// the marketplace by sync on a machine that never installed it.
#[test]
fn a_skill_of_an_imported_plugin_is_locked_and_synced_from_its_marketplace() {
    let setup = Setup::new(&format!(
        "{CLIENTS}\n[skills]\numbrella = {{ skill = \"acme/weather-tools/umbrella-advice\" }}\n"
    ));
    let market = setup.project.join("market");
    crate::support::copy_tree(&fixtures().join("marketplace"), &market);
    setup.ok(&["registry", "add-source", "acme", "./market"]);
    setup.ok(&["install", "weather-tools@acme"]);
    setup.ok(&["sync"]);
    let lock = setup.read("agx.lock");
    assert!(
        lock.contains("name = \"acme/weather-tools\"")
            && lock.contains("source = \"plugin:weather-tools@./market\""),
        "{lock}"
    );
    let copy = setup
        .project
        .join(".claude/skills/umbrella-advice/SKILL.md");
    assert!(copy.is_file(), "{}", copy.display());

    // Another machine: a fresh home with the project (and its marketplace folder) only.
    let elsewhere = Setup::new("");
    crate::support::copy_tree(&setup.project, &elsewhere.project);
    for folder in [".claude", ".agents"] {
        std::fs::remove_dir_all(elsewhere.project.join(folder)).unwrap();
    }
    elsewhere.ok(&["sync", "--locked"]);
    assert!(
        elsewhere
            .project
            .join(".agents/skills/umbrella-advice/SKILL.md")
            .is_file()
    );
}

const TEAM_REVIEW: &str = "---\nname: review\ndescription: Review a change the way this team does. Use when asked for a review.\n---\n\nRead [the checklist](references/checklist.md).\n";

/// A project whose `[skills]` names a skill folder of its own (`path`).
fn with_team_review() -> Setup {
    let setup = Setup::new(&format!(
        "{CLIENTS}\n[skills]\nreview = {{ path = \"tools/skills/review\" }}\n"
    ));
    write_files(
        &setup.project.join("tools/skills/review"),
        &[
            ("SKILL.md", TEAM_REVIEW),
            ("references/checklist.md", "- tests pass\n"),
        ],
    );
    setup
}

#[test]
fn a_skill_folder_of_the_project_is_locked_by_content_and_copied() {
    let setup = with_team_review();
    setup.ok(&["sync"]);
    let lock = setup.read("agx.lock");
    assert!(
        lock.contains("[[skill-folder]]\nkey = \"review\"\npath = \"tools/skills/review\"\ncontent = \"sha256:"),
        "{lock}"
    );
    let source = tree(&setup.project.join("tools/skills/review"));
    for folder in [".claude/skills/review", ".agents/skills/review"] {
        assert_eq!(tree(&setup.project.join(folder)), source, "{folder}");
    }
    setup.ok(&["sync", "--check"]);
    let shown = setup.ok(&["tree"]);
    assert!(
        shown.contains("review (skill folder tools/skills/review)"),
        "{shown}"
    );
    // `agx clients` lists the copies, their source present.
    let (ok, json) = setup.json(&["clients"]);
    assert!(ok, "{json}");
    let claude = json
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["client"] == "claude-code")
        .unwrap();
    let copy = claude["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["skill"] == "project/review")
        .unwrap_or_else(|| panic!("{claude}"));
    assert_eq!(copy["state"], "ok", "{copy}");
    // Nothing for doctor to report about them.
    let doctor = setup.ok(&["doctor"]);
    assert!(!doctor.contains("project/review"), "{doctor}");

    // The team edits its skill: the lock is stale (CI's --locked says so), and a plain sync
    // relocks and refreshes every copy.
    write_files(
        &setup.project.join("tools/skills/review"),
        &[("references/checklist.md", "- tests pass\n- docs updated\n")],
    );
    let error = setup.fails(&["sync", "--locked"]);
    assert!(
        error.contains("skill folder tools/skills/review of `review` changed"),
        "{error}"
    );
    let error = setup.fails(&["sync", "--check"]);
    assert!(error.contains("tools/skills/review"), "{error}");
    setup.ok(&["sync"]);
    assert_eq!(
        std::fs::read_to_string(
            setup
                .project
                .join(".agents/skills/review/references/checklist.md")
        )
        .unwrap(),
        "- tests pass\n- docs updated\n"
    );
    setup.ok(&["sync", "--check"]);

    // Removed from the project: the copies go, the folder stays.
    setup.ok(&["remove", "review"]);
    assert!(!setup.project.join(".claude/skills/review").exists());
    assert!(setup.project.join("tools/skills/review/SKILL.md").is_file());
    assert!(!setup.read("agx.lock").contains("skill-folder"));
}

#[test]
fn a_skill_folder_that_is_not_a_skill_of_the_project_is_refused() {
    // Outside the project, absolute, with a version, a name no skill has: agx.toml's own
    // findings, at their place.
    for (entry, says) in [
        (
            "{ path = \"../elsewhere/review\" }",
            "is not a folder inside the project",
        ),
        (
            "{ path = \"/etc/review\" }",
            "is not a folder inside the project",
        ),
        (
            "{ path = \"tools/review\", version = \"^1\" }",
            "has both `path` and `version`",
        ),
        ("{ path = \"tools/Review Skill\" }", "cannot name a skill"),
    ] {
        let setup = Setup::new(&format!("{CLIENTS}\n[skills]\nreview = {entry}\n"));
        let error = setup.fails(&["sync"]);
        assert!(error.contains("agx.toml:5:"), "{entry}: {error}");
        assert!(error.contains(says), "{entry}: {error}");
        assert!(!setup.project.join("agx.lock").exists(), "{entry}");
        let report = setup.fails(&["validate", "."]);
        assert!(report.contains("E207"), "{entry}: {report}");
    }

    // A folder without SKILL.md, and one whose skill does not check: refused, nothing copied.
    let setup = with_team_review();
    std::fs::remove_file(setup.project.join("tools/skills/review/SKILL.md")).unwrap();
    let error = setup.fails(&["sync"]);
    assert!(
        error.contains("tools/skills/review/SKILL.md is not there"),
        "{error}"
    );
    write_files(
        &setup.project.join("tools/skills/review"),
        &[("SKILL.md", "---\nname: other\ndescription: x\n---\n")],
    );
    let error = setup.fails(&["sync"]);
    assert!(error.contains("holds no skill agx can copy"), "{error}");
    assert!(error.contains("other"), "{error}");
    assert!(!setup.project.join(".claude/skills/review").exists());
    assert!(!setup.project.join("agx.lock").exists());

    // A link on the way out of the project is not the project's folder.
    #[cfg(unix)]
    {
        let setup = Setup::new(&format!(
            "{CLIENTS}\n[skills]\nreview = {{ path = \"tools/review\" }}\n"
        ));
        let outside = setup.home.home().join("outside/review");
        write_files(&outside, &[("SKILL.md", TEAM_REVIEW)]);
        std::fs::create_dir_all(setup.project.join("tools")).unwrap();
        std::os::unix::fs::symlink(&outside, setup.project.join("tools/review")).unwrap();
        let error = setup.fails(&["sync"]);
        assert!(error.contains("link"), "{error}");
        assert!(!setup.project.join(".claude/skills/review").exists());
    }
}

#[test]
fn add_skill_takes_a_folder_of_the_project() {
    let setup = Setup::new(CLIENTS);
    write_files(
        &setup.project.join("tools/skills/review"),
        &[("SKILL.md", TEAM_REVIEW)],
    );
    let out = setup.ok(&["add", "--skill", "./tools/skills/review"]);
    assert!(
        out.contains("Added `review` = the skill folder tools/skills/review"),
        "{out}"
    );
    let toml = setup.read("agx.toml");
    assert!(
        toml.contains("[skills]\nreview = { path = \"tools/skills/review\" }"),
        "{toml}"
    );
    assert!(
        setup
            .project
            .join(".claude/skills/review/SKILL.md")
            .is_file()
    );
    let (ok, json) = setup.json(&["add", "--skill", "./tools/skills/review"]);
    assert!(ok, "{json}");
    assert_eq!(json["path"], "tools/skills/review");
    assert!(json.get("version").is_none(), "{json}");

    // Another key for a skill of the same name would share its copies' folder.
    let error = setup.fails(&["add", "--skill", "./tools/skills/review", "--name", "again"]);
    assert!(
        error.contains("`review` already names a skill `review`"),
        "{error}"
    );
    assert_eq!(setup.read("agx.toml"), toml);

    // A folder outside the project is refused.
    let outside = setup.home.home().join("elsewhere/review");
    write_files(&outside, &[("SKILL.md", TEAM_REVIEW)]);
    let error = setup.fails(&[
        "add",
        "--skill",
        outside.to_str().unwrap(),
        "--name",
        "other",
    ]);
    assert!(error.contains("must be inside it"), "{error}");
    assert_eq!(setup.read("agx.toml"), toml);

    // The folder gone: doctor names it, not a package called `project`.
    std::fs::rename(
        setup.project.join("tools"),
        setup.home.home().join("tools-moved"),
    )
    .unwrap();
    let (_, doctor) = setup.agx(&["doctor"]);
    assert!(
        doctor.contains("the project's skill folder") && doctor.contains("is gone"),
        "{doctor}"
    );
    assert!(!doctor.contains("agx install project"), "{doctor}");
}

#[test]
fn a_key_moved_from_a_package_skill_to_a_folder_of_the_project_replaces_its_copies() {
    let setup = with_review();
    assert_eq!(
        tree(&setup.project.join(".claude/skills/review")),
        review_source()
    );
    // The team vendors the skill into the repository and edits it there.
    write_files(
        &setup.project.join("tools/skills/review"),
        &[("SKILL.md", TEAM_REVIEW)],
    );
    std::fs::write(
        setup.project.join("agx.toml"),
        format!("{CLIENTS}\n[skills]\nreview = {{ path = \"tools/skills/review\" }}\n"),
    )
    .unwrap();
    setup.ok(&["sync"]);
    let source = tree(&setup.project.join("tools/skills/review"));
    for folder in [".claude/skills/review", ".agents/skills/review"] {
        assert_eq!(tree(&setup.project.join(folder)), source, "{folder}");
    }
    setup.ok(&["sync", "--check"]);
    let lock = setup.read("agx.lock");
    assert!(!lock.contains("[[skill]]"), "{lock}");
}

#[test]
fn an_edited_skill_folder_is_relocked_without_the_registry() {
    let setup = with_review();
    write_files(
        &setup.project.join("tools/skills/house-style"),
        &[(
            "SKILL.md",
            "---\nname: house-style\ndescription: Write as this team writes. Use for docs.\n---\n\nShort sentences.\n",
        )],
    );
    setup.ok(&["add", "--skill", "./tools/skills/house-style"]);
    let before = setup.read("agx.lock");
    write_files(
        &setup.project.join("tools/skills/house-style"),
        &[("notes.md", "- no jargon\n")],
    );
    // The registry is unreachable: only the folder's hash is relocked.
    let out = setup
        .fixture
        .agx(&setup.home)
        .env("AGX_REGISTRY", "http://127.0.0.1:9/")
        .env("AGX_HTTP_RETRIES", "0")
        .current_dir(&setup.project)
        .arg("sync")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(setup.project.join(".agents/skills/house-style/notes.md")).unwrap(),
        "- no jargon\n"
    );
    let after = setup.read("agx.lock");
    assert_ne!(before, after);
    // Everything but the folder's hash is as it was.
    let without_hashes = |lock: &str| -> String {
        lock.lines()
            .filter(|l| !l.starts_with("content = \"sha256:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_hashes(&before), without_hashes(&after));
    setup.ok(&["sync", "--check"]);
}
