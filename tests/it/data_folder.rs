//! Each package's data folder outside the store (docs/store.md, "Data folders"): tools and
//! wrapped servers get it as `AGX_DATA_DIR`, it survives updates and uninstalls unless
//! `--purge`, installed versions are read-only, and the real npm
//! `@modelcontextprotocol/server-memory` keeps its graph there (`MEMORY_FILE_PATH`).

use serde_json::json;

use crate::ecosystem::{Session, agx, stderr};
use crate::support::{TestHome, tree, write_files};

const MEMORY: &str = "@modelcontextprotocol/server-memory";
const MEMORY_SERVER: &str = "npm/@modelcontextprotocol/server-memory/mcp-server-memory";
/// Two published versions: installing the second is the update.
const MEMORY_OLD: &str = "2025.9.25";
const MEMORY_NEW: &str = "2025.11.25";

/// A local package `local/keeper` whose tool writes a file in its data folder and tries to
/// write one beside its code, and prints what happened.
fn keeper(home: &TestHome) -> std::path::PathBuf {
    let dir = home.home().join("keeper");
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"keeper\"\nversion = \"1.0.0\"\ndescription = \"Keeps\"\n\n[extension]\nservers = [\"main\"]\ntools = [\"keep\"]\n",
            ),
            (
                "agx/tools/keep.toml",
                "name = \"keep\"\ndescription = \"Keeps a note\"\ncommand = [\"sh\", \"bin/keep.sh\"]\n",
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\ntools = [\"keep\"]\n",
            ),
            (
                "bin/keep.sh",
                "cat >/dev/null\necho kept >> \"$AGX_DATA_DIR/notes.txt\" && echo \"data: $AGX_DATA_DIR\"\n",
            ),
        ],
    );
    dir
}

#[test]
fn a_tool_writes_in_its_data_folder_which_survives_reinstall_and_uninstall_until_purged() {
    let home = TestHome::new();
    let dir = keeper(&home);
    let data = home.agx_home().join("data/_local/keeper");
    home.agx().arg("install").arg(&dir).assert().success();
    let out = home.agx().args(["call", "keeper/keep"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!("data: {}", data.display())),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    home.agx()
        .args(["install", "--force"])
        .arg(&dir)
        .assert()
        .success();
    home.agx().args(["uninstall", "keeper"]).assert().success();
    assert_eq!(
        std::fs::read_to_string(data.join("notes.txt")).unwrap(),
        "kept\n"
    );
    home.agx().arg("install").arg(&dir).assert().success();
    let out = home
        .agx()
        .args(["uninstall", "--purge", "keeper"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Purged"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!data.exists(), "--purge left {}", data.display());
}

#[cfg(unix)]
#[test]
fn installed_versions_are_read_only_and_uninstall_still_removes_them() {
    use std::os::unix::fs::PermissionsExt;
    let home = TestHome::new();
    let dir = keeper(&home);
    home.agx().arg("install").arg(&dir).assert().success();
    let version = home.agx_home().join("store-v1/_local/keeper/1.0.0");
    for path in [
        version.clone(),
        version.join("bin"),
        version.join("bin/keep.sh"),
    ] {
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o222, 0, "{} is writable", path.display());
    }
    // A reinstall of the same version exchanges the read-only folder.
    home.agx()
        .args(["install", "--force"])
        .arg(&dir)
        .assert()
        .success();
    home.agx().args(["uninstall", "keeper"]).assert().success();
    assert!(!version.exists(), "uninstall left {}", version.display());
}

/// `create_entities` on one version, then an update to the next: `read_graph` still has the
/// entity, kept in the data folder, and the store's files never changed while serving.
#[test]
fn server_memory_keeps_its_graph_in_the_data_folder_across_an_update() {
    let home = TestHome::new();
    let out = agx(&home, &["install", &format!("npm:{MEMORY}@{MEMORY_OLD}")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let store = home.agx_home().join("store-v1");
    let before = tree(&store);
    {
        let mut session = Session::start(&home, MEMORY_SERVER);
        session.initialize();
        let created = session.request(
            2,
            "tools/call",
            json!({"name": "create_entities", "arguments": {"entities": [
                {"name": "agx", "entityType": "tool", "observations": ["keeps data outside the store"]}
            ]}}),
        );
        assert!(
            created["result"]["isError"] != json!(true) && created["result"].is_object(),
            "{created}"
        );
    }
    let after = tree(&store);
    let changed: Vec<&String> = after
        .iter()
        .filter(|(path, entry)| before.get(*path) != Some(entry))
        .map(|(path, _)| path)
        .collect();
    assert!(changed.is_empty(), "serving changed the store: {changed:?}");
    let graph = home
        .agx_home()
        .join("data/npm/@modelcontextprotocol+server-memory/memory.jsonl");
    assert!(
        std::fs::read_to_string(&graph).unwrap().contains("agx"),
        "no graph at {}",
        graph.display()
    );

    let out = agx(&home, &["install", &format!("npm:{MEMORY}@{MEMORY_NEW}")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut session = Session::start(&home, MEMORY_SERVER);
    session.initialize();
    let read = session.request(
        2,
        "tools/call",
        json!({"name": "read_graph", "arguments": {}}),
    );
    assert!(
        read["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("keeps data outside the store")),
        "{read}"
    );
}

/// A skill copied out of the read-only store is the user's: its files are writable.
#[cfg(unix)]
#[test]
fn a_skill_copy_from_the_read_only_store_is_writable() {
    use std::os::unix::fs::PermissionsExt;
    let home = TestHome::new();
    let dir = home.home().join("sk");
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"sk\"\nversion = \"1.0.0\"\ndescription = \"d\"\n\n[extension]\nskills = [\"review\"]\n",
            ),
            (
                "skills/review/SKILL.md",
                "---\nname: review\ndescription: Reviews.\n---\nReview.\n",
            ),
        ],
    );
    home.agx().arg("install").arg(&dir).assert().success();
    home.agx()
        .args(["install-skill", "claude-code", "sk/review"])
        .assert()
        .success();
    let copy = home.home().join(".claude/skills/review/SKILL.md");
    let mode = std::fs::metadata(&copy).unwrap().permissions().mode();
    assert_ne!(mode & 0o200, 0, "{} is read-only", copy.display());
}
