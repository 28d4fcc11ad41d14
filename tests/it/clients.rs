//! Integration tests: `install-server`, `uninstall-server`, `clients` and `doctor` with the
//! real binary, a package installed from a local folder, and client files under a temp HOME.

use std::fs;
use std::path::{Path, PathBuf};

use insta::assert_snapshot;

use crate::support::{AGX, TestHome, outcome, write_file as write, write_files};

/// A package with one server exposing a tool and a prompt.
fn weather_package(dir: &Path) {
    write_files(
        dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"acme/weather\"\nversion = \"1.2.0\"\ndescription = \"Weather\"\n\n\
                 [extension]\nservers = [\"forecast\"]\ntools = [\"now\"]\nprompts = [\"Search\"]\n",
            ),
            (
                "agx/servers/forecast.toml",
                "name = \"forecast\"\ntools = [\"now\"]\nprompts = [\"Search\"]\n",
            ),
            (
                "agx/tools/now.toml",
                "name = \"now\"\ncommand = [\"sh\", \"bin/now.sh\"]\n",
            ),
            (
                "agx/prompts/Search.toml",
                "name = \"Search\"\ncontent = \"Search the docs\"\n",
            ),
            ("bin/now.sh", "#!/bin/sh\necho '{\"t\": 1}'\n"),
        ],
    );
}

/// A HOME with acme/weather installed.
fn home_with_package() -> TestHome {
    let home = TestHome::new();
    let src = home.home().join("src/weather");
    weather_package(&src);
    home.agx().arg("install").arg(&src).assert().success();
    home
}

/// `agx install-server <client> acme/weather/forecast <options…>`.
fn install_server(home: &TestHome, client: &str, options: &[&str]) -> assert_cmd::Command {
    let mut cmd = home.agx();
    cmd.args(["install-server", client, "acme/weather/forecast"])
        .args(options);
    cmd
}

fn cursor_file(home: &TestHome) -> PathBuf {
    home.home().join(".cursor/mcp.json")
}

fn agx_binary() -> String {
    fs::canonicalize(AGX).unwrap().display().to_string()
}

#[test]
fn install_server_writes_an_absolute_entry_with_agx_home_and_records_it() {
    let home = home_with_package();
    let _filters = home.snapshot_filters();
    let install = || {
        outcome(&mut install_server(
            &home,
            "cursor",
            &["--env", "UNITS=metric"],
        ))
    };
    assert_snapshot!("install_server_added", install());
    let v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(cursor_file(&home)).unwrap()).unwrap();
    let entry = &v["mcpServers"]["forecast"];
    assert_eq!(entry["command"], agx_binary().as_str());
    assert_eq!(
        entry["args"],
        serde_json::json!(["serve", "acme/weather/forecast"])
    );
    assert_eq!(
        entry["env"]["AGX_HOME"],
        home.agx_home().display().to_string().as_str()
    );
    assert_eq!(entry["env"]["UNITS"], "metric");
    let records = fs::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    assert!(
        records.contains("client = \"cursor\"") && records.contains("key = \"forecast\""),
        "{records}"
    );

    // The same entry again changes nothing and says so.
    let before = fs::read(cursor_file(&home)).unwrap();
    assert_snapshot!("install_server_unchanged", install());
    assert_eq!(fs::read(cursor_file(&home)).unwrap(), before);
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let home = home_with_package();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(&mut install_server(
        &home,
        "gemini",
        &["--dry-run"]
    )));
    assert!(!home.home().join(".gemini").exists());
    assert!(!home.agx_home().join("clients-v1.toml").exists());
}

#[test]
fn malformed_client_file_is_refused_untouched() {
    let home = home_with_package();
    let file = home.home().join(".claude.json");
    let text = "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"a\": 1,\n  }\n}\n";
    write(&file, text);
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(&mut install_server(&home, "claude-code", &[])));
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}

#[cfg(unix)]
#[test]
fn permissions_are_kept_and_new_claude_json_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let home = home_with_package();
    install_server(&home, "claude-code", &[]).assert().success();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&home.home().join(".claude.json")), 0o600);

    let kiro = home.home().join(".kiro/settings/mcp.json");
    write(&kiro, "{\"mcpServers\": {}}\n");
    fs::set_permissions(&kiro, fs::Permissions::from_mode(0o640)).unwrap();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(&mut install_server(&home, "kiro", &[])));
    assert_eq!(mode(&kiro), 0o640);
    let backup = home.home().join(".kiro/settings/mcp.json.agx-backup");
    assert_eq!(
        fs::read_to_string(backup).unwrap(),
        "{\"mcpServers\": {}}\n"
    );
}

#[test]
fn uninstall_server_restores_every_other_byte() {
    let home = home_with_package();
    let file = home.home().join(".codex/config.toml");
    let original = "# mine\nmodel = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"docs\"]  # keep\nodd_key = 1\n";
    write(&file, original);
    install_server(&home, "codex", &["--name", "weather"])
        .assert()
        .success();
    assert!(
        fs::read_to_string(&file)
            .unwrap()
            .contains("[mcp_servers.weather]")
    );
    let _filters = home.snapshot_filters();
    let uninstall = |server: &str| outcome(home.agx().args(["uninstall-server", "codex", server]));
    assert_snapshot!(
        "uninstall_server_removed",
        uninstall("acme/weather/forecast")
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), original);
    let records = fs::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    assert!(!records.contains("weather\""), "{records}");
    // Only agx entries can be removed.
    assert_snapshot!("uninstall_server_not_ours", uninstall("docs"));
}

#[test]
fn a_key_holding_another_server_is_refused_with_a_hint() {
    let home = home_with_package();
    write(
        &cursor_file(&home),
        "{\"mcpServers\": {\"forecast\": {\"command\": \"npx\"}}}\n",
    );
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(&mut install_server(&home, "cursor", &[])));
}

#[test]
fn unknown_server_and_client_fail_clearly() {
    let home = home_with_package();
    let _filters = home.snapshot_filters();
    let install =
        |client: &str, server: &str| outcome(home.agx().args(["install-server", client, server]));
    assert_snapshot!("unknown_server", install("cursor", "acme/weather/nope"));
    assert_snapshot!("unknown_client", install("cursr", "acme/weather/forecast"));
}

#[test]
fn clients_lists_paths_and_agx_entries() {
    let home = home_with_package();
    install_server(&home, "windsurf", &[]).assert().success();
    let out = home.agx().args(["clients", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 21);
    let windsurf = list.iter().find(|c| c["client"] == "windsurf").unwrap();
    let file = &windsurf["files"][0];
    assert_eq!(file["exists"], true);
    assert_eq!(file["entries"][0]["server"], "acme/weather/forecast");
    let cursor = list.iter().find(|c| c["client"] == "cursor").unwrap();
    assert_eq!(cursor["files"][0]["exists"], false);
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().arg("clients")));
}

#[test]
fn doctor_finds_drift_and_fixes_what_is_safe() {
    let home = home_with_package();
    install_server(&home, "cursor", &[]).assert().success();
    install_server(&home, "kimi", &[]).assert().success();
    let _filters = home.snapshot_filters();
    assert_snapshot!("doctor_no_drift", outcome(home.agx().arg("doctor")));

    // The cursor entry removed by hand; the kimi entry pointed at another program.
    write(&cursor_file(&home), "{\"mcpServers\": {}}\n");
    let kimi = home.home().join(".kimi/mcp.json");
    let edited = fs::read_to_string(&kimi)
        .unwrap()
        .replace(&agx_binary(), "/usr/bin/other");
    write(&kimi, &edited);

    let out = home.agx().args(["doctor", "--json"]).assert().code(1);
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let problems: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["problem"].as_str().unwrap())
        .collect();
    assert!(
        problems.contains(&"entry-missing") && problems.contains(&"changed-by-hand"),
        "{problems:?}"
    );
    assert_snapshot!("doctor_drift", outcome(home.agx().arg("doctor")));

    // The hand-edited entry is left to the user, so doctor still fails.
    assert_snapshot!("doctor_fix", outcome(home.agx().args(["doctor", "--fix"])));
    assert_eq!(fs::read_to_string(&kimi).unwrap(), edited);
    let records = fs::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    assert!(!records.contains("cursor"), "{records}");
}

#[test]
fn doctor_reports_an_uninstalled_package() {
    let home = home_with_package();
    install_server(&home, "junie", &[]).assert().success();
    home.agx()
        .args(["uninstall", "acme/weather", "--force"])
        .assert()
        .success();
    let out = home.agx().args(["doctor", "--json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["findings"][0]["problem"], "package-missing");
}

#[test]
fn project_and_local_scopes_write_their_files() {
    let home = home_with_package();
    let project = home.home().join("proj");
    fs::create_dir_all(&project).unwrap();
    install_server(&home, "claude-code", &["--scope", "project", "--project"])
        .arg(&project)
        .assert()
        .success();
    let mcp: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(project.join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(mcp["mcpServers"]["forecast"]["type"], "stdio");
    install_server(&home, "claude-code", &["--scope", "local", "--project"])
        .arg(&project)
        .assert()
        .success();
    let claude: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(home.home().join(".claude.json")).unwrap())
            .unwrap();
    let key = fs::canonicalize(&project).unwrap().display().to_string();
    assert_eq!(
        claude["projects"][key.as_str()]["mcpServers"]["forecast"]["args"][1],
        "acme/weather/forecast"
    );
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "no_local_scope",
        outcome(&mut install_server(&home, "cursor", &["--scope", "local"]))
    );
}

#[test]
fn config_file_with_auto_client_is_guessed_from_its_place_and_contents() {
    let home = home_with_package();
    let file = home.home().join("backup/zed-settings.json");
    write(&file, "{\n  // mine\n  \"context_servers\": {},\n}\n");
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "auto_client_guessed",
        outcome(install_server(&home, "auto", &["--config"]).arg(&file))
    );
    assert_snapshot!("auto_client_file", fs::read_to_string(&file).unwrap());
    // uninstall-server edits the same file.
    home.agx()
        .args(["uninstall-server", "zed", "forecast", "--config"])
        .arg(&file)
        .assert()
        .success();
    assert!(!fs::read_to_string(&file).unwrap().contains("forecast"));
}

#[test]
fn doctor_fix_points_entries_at_this_agx_when_theirs_is_gone() {
    let home = home_with_package();
    install_server(&home, "augment", &[]).assert().success();
    // As if agx had been installed elsewhere and the old binary removed.
    let gone = "/nonexistent/old/agx";
    let file = home.home().join(".augment/settings.json");
    let records_file = home.agx_home().join("clients-v1.toml");
    for path in [&file, &records_file] {
        let text = fs::read_to_string(path)
            .unwrap()
            .replace(&agx_binary(), gone);
        write(path, &text);
    }
    let out = home.agx().args(["doctor", "--json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["findings"][0]["problem"], "binary-missing");
    let _filters = home.snapshot_filters();
    assert_snapshot!(
        "doctor_fix_binary",
        outcome(home.agx().args(["doctor", "--fix"]))
    );
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        v["mcpServers"]["forecast"]["command"],
        agx_binary().as_str()
    );
    home.agx().arg("doctor").assert().success();
}

#[test]
fn uninstall_refuses_while_a_client_entry_launches_the_package() {
    let home = home_with_package();
    install_server(&home, "cursor", &[]).assert().success();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().args(["uninstall", "acme/weather"])));
    assert!(
        home.agx_home()
            .join("receipts-v1/acme/weather.toml")
            .exists()
    );
    home.agx()
        .args(["uninstall", "--force", "acme/weather"])
        .assert()
        .success();
    assert!(
        !home
            .agx_home()
            .join("receipts-v1/acme/weather.toml")
            .exists()
    );
}

#[test]
fn install_server_takes_several_clients_with_client_flags() {
    let home = home_with_package();
    let out = home
        .agx()
        .args([
            "install-server",
            "--client",
            "claude-code",
            "--client",
            "codex",
        ])
        .arg("acme/weather/forecast")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("(claude-code, user scope)"), "{said}");
    assert!(said.contains("(codex, user scope)"), "{said}");
    let claude = fs::read_to_string(home.home().join(".claude.json")).unwrap();
    assert!(claude.contains("\"forecast\""), "{claude}");
    let codex = fs::read_to_string(home.home().join(".codex/config.toml")).unwrap();
    assert!(codex.contains("[mcp_servers.forecast]"), "{codex}");
    // Not both ways at once, and not without a client; a file belongs to one client.
    for args in [
        &[
            "install-server",
            "codex",
            "--client",
            "gemini",
            "acme/weather/forecast",
        ][..],
        &["install-server", "acme/weather/forecast"],
        &[
            "install-server",
            "--client",
            "codex",
            "--config",
            "x.json",
            "acme/weather/forecast",
        ],
    ] {
        let out = home.agx().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// `agx clients` shows, per client, everything it will load: agx's entries and copies, and
/// the servers and skills someone else put where it reads (the user's own, another tool's).
#[test]
fn clients_lists_the_entries_and_skills_agx_did_not_write() {
    let home = TestHome::new();
    let write = |relative: &str, text: &str| {
        let path = home.home().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        ".cursor/mcp.json",
        r#"{"mcpServers": {"mine": {"command": "node", "args": ["server.js"]}}}"#,
    );
    write(
        ".agents/skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Mine.\n---\nBody\n",
    );
    write(".agents/skills/not-a-skill/README.md", "no SKILL.md here");
    let out = home.agx().args(["clients", "--json"]).output().unwrap();
    assert!(out.status.success());
    let clients: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let client = |id: &str| {
        clients
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["client"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(
        client("cursor")["files"][0]["other_entries"],
        serde_json::json!(["mine"])
    );
    let notes = home.home().join(".agents/skills/notes");
    for reader in ["codex", "cursor", "gemini"] {
        assert_eq!(
            client(reader)["other_skills"],
            serde_json::json!([notes.display().to_string()]),
            "{reader}"
        );
    }
    // Claude Code does not read the shared folder.
    assert!(client("claude-code").get("other_skills").is_none());

    let text = String::from_utf8(home.agx().arg("clients").output().unwrap().stdout).unwrap();
    assert!(text.contains("mine (not agx's)"), "{text}");
    assert!(
        text.contains(&format!("skill    {}  (not agx's)", notes.display())),
        "{text}"
    );
}
