//! Integration tests: `install-server`, `uninstall-server`, `clients` and `doctor` with the
//! real binary, a package installed from a local folder, and client files under a temp HOME.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::TestHome;

fn write(path: &Path, contents: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

/// A package with one server exposing a tool and a prompt.
fn weather_package(dir: &Path) {
    write(
        &dir.join("agx.toml"),
        "[package]\nname = \"acme/weather\"\nversion = \"1.2.0\"\ndescription = \"Weather\"\n\n\
         [extension]\nservers = [\"forecast\"]\ntools = [\"now\"]\nprompts = [\"Search\"]\n",
    );
    write(
        &dir.join("agx/servers/forecast.toml"),
        "name = \"forecast\"\ntools = [\"now\"]\nprompts = [\"Search\"]\n",
    );
    write(
        &dir.join("agx/tools/now.toml"),
        "name = \"now\"\ncommand = [\"sh\", \"bin/now.sh\"]\n",
    );
    write(
        &dir.join("agx/prompts/Search.toml"),
        "name = \"Search\"\ncontent = \"Search the docs\"\n",
    );
    write(&dir.join("bin/now.sh"), "#!/bin/sh\necho '{\"t\": 1}'\n");
}

/// A HOME with acme/weather installed.
fn home_with_package() -> TestHome {
    let home = TestHome::new();
    let src = home.home().join("src/weather");
    weather_package(&src);
    home.agx().arg("install").arg(&src).assert().success();
    home
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn cursor_file(home: &TestHome) -> PathBuf {
    home.home().join(".cursor/mcp.json")
}

fn agx_binary() -> String {
    let bin = assert_cmd::cargo::cargo_bin("agx");
    fs::canonicalize(bin).unwrap().display().to_string()
}

#[test]
fn install_server_writes_an_absolute_entry_with_agx_home_and_records_it() {
    let home = home_with_package();
    let out = home
        .agx()
        .args([
            "install-server",
            "cursor",
            "acme/weather/forecast",
            "--env",
            "UNITS=metric",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("Added"), "{}", stderr(&out));
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
    let out = home
        .agx()
        .args([
            "install-server",
            "cursor",
            "acme/weather/forecast",
            "--env",
            "UNITS=metric",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(stderr(&out).contains("Unchanged"), "{}", stderr(&out));
    assert_eq!(fs::read(cursor_file(&home)).unwrap(), before);
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let home = home_with_package();
    let out = home
        .agx()
        .args([
            "install-server",
            "gemini",
            "acme/weather/forecast",
            "--dry-run",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(
        diff.contains("+++") && diff.contains("+  \"mcpServers\""),
        "{diff}"
    );
    assert!(!home.home().join(".gemini").exists());
    assert!(!home.agx_home().join("clients-v1.toml").exists());
}

#[test]
fn malformed_client_file_is_refused_untouched() {
    let home = home_with_package();
    let file = home.home().join(".claude.json");
    let text = "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"a\": 1,\n  }\n}\n";
    write(&file, text);
    let out = home
        .agx()
        .args(["install-server", "claude-code", "acme/weather/forecast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("line 5, column") && err.contains("untouched"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}

#[cfg(unix)]
#[test]
fn permissions_are_kept_and_new_claude_json_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let home = home_with_package();
    home.agx()
        .args(["install-server", "claude-code", "acme/weather/forecast"])
        .assert()
        .success();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&home.home().join(".claude.json")), 0o600);

    let kiro = home.home().join(".kiro/settings/mcp.json");
    write(&kiro, "{\"mcpServers\": {}}\n");
    fs::set_permissions(&kiro, fs::Permissions::from_mode(0o640)).unwrap();
    let out = home
        .agx()
        .args(["install-server", "kiro", "acme/weather/forecast"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(mode(&kiro), 0o640);
    let backup = home.home().join(".kiro/settings/mcp.json.agx-backup");
    assert!(
        stderr(&out).contains(&backup.display().to_string()),
        "{}",
        stderr(&out)
    );
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
    home.agx()
        .args([
            "install-server",
            "codex",
            "acme/weather/forecast",
            "--name",
            "weather",
        ])
        .assert()
        .success();
    assert!(
        fs::read_to_string(&file)
            .unwrap()
            .contains("[mcp_servers.weather]")
    );
    let out = home
        .agx()
        .args(["uninstall-server", "codex", "acme/weather/forecast"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&file).unwrap(), original);
    let records = fs::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    assert!(!records.contains("weather\""), "{records}");
    // Only agx entries can be removed.
    let out = home
        .agx()
        .args(["uninstall-server", "codex", "docs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not an entry agx wrote"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_key_holding_another_server_is_refused_with_a_hint() {
    let home = home_with_package();
    write(
        &cursor_file(&home),
        "{\"mcpServers\": {\"forecast\": {\"command\": \"npx\"}}}\n",
    );
    let out = home
        .agx()
        .args(["install-server", "cursor", "acme/weather/forecast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--name") && err.contains("--force"), "{err}");
}

#[test]
fn unknown_server_and_client_fail_clearly() {
    let home = home_with_package();
    let out = home
        .agx()
        .args(["install-server", "cursor", "acme/weather/nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("has no server `nope`") && stderr(&out).contains("forecast"),
        "{}",
        stderr(&out)
    );
    let out = home
        .agx()
        .args(["install-server", "cursr", "acme/weather/forecast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("did you mean `cursor`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn clients_lists_paths_and_agx_entries() {
    let home = home_with_package();
    home.agx()
        .args(["install-server", "windsurf", "acme/weather/forecast"])
        .assert()
        .success();
    let out = home.agx().args(["clients", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 21);
    let windsurf = list.iter().find(|c| c["client"] == "windsurf").unwrap();
    let file = &windsurf["files"][0];
    assert_eq!(file["exists"], true);
    assert_eq!(file["entries"][0]["server"], "acme/weather/forecast");
    let cursor = list.iter().find(|c| c["client"] == "cursor").unwrap();
    assert_eq!(cursor["files"][0]["exists"], false);
}

#[test]
fn doctor_finds_drift_and_fixes_what_is_safe() {
    let home = home_with_package();
    home.agx()
        .args(["install-server", "cursor", "acme/weather/forecast"])
        .assert()
        .success();
    home.agx()
        .args(["install-server", "kimi", "acme/weather/forecast"])
        .assert()
        .success();
    home.agx().arg("doctor").assert().success();

    // The cursor entry removed by hand; the kimi entry pointed at another program.
    write(&cursor_file(&home), "{\"mcpServers\": {}}\n");
    let kimi = home.home().join(".kimi/mcp.json");
    let edited = fs::read_to_string(&kimi)
        .unwrap()
        .replace(&agx_binary(), "/usr/bin/other");
    write(&kimi, &edited);

    let out = home.agx().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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

    let out = home.agx().args(["doctor", "--fix"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "the hand-edited entry is left to the user"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fixed: cursor"), "{text}");
    assert_eq!(fs::read_to_string(&kimi).unwrap(), edited);
    let records = fs::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    assert!(!records.contains("cursor"), "{records}");
}

#[test]
fn doctor_reports_an_uninstalled_package() {
    let home = home_with_package();
    home.agx()
        .args(["install-server", "junie", "acme/weather/forecast"])
        .assert()
        .success();
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
    home.agx()
        .args([
            "install-server",
            "claude-code",
            "acme/weather/forecast",
            "--scope",
            "project",
            "--project",
        ])
        .arg(&project)
        .assert()
        .success();
    let mcp: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(project.join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(mcp["mcpServers"]["forecast"]["type"], "stdio");
    home.agx()
        .args([
            "install-server",
            "claude-code",
            "acme/weather/forecast",
            "--scope",
            "local",
            "--project",
        ])
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
    let out = home
        .agx()
        .args([
            "install-server",
            "cursor",
            "acme/weather/forecast",
            "--scope",
            "local",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no local scope"), "{}", stderr(&out));
}

#[test]
fn config_file_with_auto_client_is_guessed_from_its_place_and_contents() {
    let home = home_with_package();
    let file = home.home().join("backup/zed-settings.json");
    write(&file, "{\n  // mine\n  \"context_servers\": {},\n}\n");
    let out = home
        .agx()
        .args([
            "install-server",
            "auto",
            "acme/weather/forecast",
            "--config",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("Zed"), "{}", stderr(&out));
    let text = fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("// mine") && text.contains("\"forecast\""),
        "{text}"
    );
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
    home.agx()
        .args(["install-server", "augment", "acme/weather/forecast"])
        .assert()
        .success();
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
    let out = home.agx().args(["doctor", "--fix"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
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
    home.agx()
        .args(["install-server", "cursor", "acme/weather/forecast"])
        .assert()
        .success();
    let out = home
        .agx()
        .args(["uninstall", "acme/weather"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = stderr(&out);
    assert!(err.contains("still launch"), "{err}");
    assert!(
        err.contains("agx uninstall-server cursor forecast"),
        "{err}"
    );
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
