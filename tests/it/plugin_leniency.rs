//! Claude Code plugins as they are published (issue 42): a plugin whose skill or server agx
//! cannot carry installs the rest and names what it left out in the plugin's own files; a
//! link among files agx does not carry is left out; a plugin with nothing agx carries is
//! refused naming what it has; a plugin folder installs as a plugin; an import exports under
//! a name Claude Code accepts, with its author. The fixture marketplace is
//! `registry-fixtures/lenient-marketplace/`.

use std::path::PathBuf;

use crate::hostile_marketplace::{add_source, run};
use crate::support::{TestHome, copy_tree, fixtures};

fn fixture_marketplace() -> PathBuf {
    fixtures().join("lenient-marketplace")
}

/// stderr of a command that must succeed.
fn succeeds(cmd: &mut assert_cmd::Command) -> String {
    let (ok, stdout, stderr) = run(cmd);
    assert!(ok, "{stdout}\n{stderr}");
    stderr
}

fn fails(cmd: &mut assert_cmd::Command) -> String {
    let (ok, _, stderr) = run(cmd);
    assert!(!ok, "expected a failure: {stderr}");
    stderr
}

fn info_of(home: &TestHome, package: &str) -> serde_json::Value {
    let (ok, stdout, stderr) = run(home.agx().args(["info", package, "--json"]));
    assert!(ok, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// The sorted names of `info[key]`.
fn names(info: &serde_json::Value, key: &str) -> Vec<String> {
    let names = info[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key}: {info}"))
        .iter()
        .map(|v| {
            v["name"]
                .as_str()
                .unwrap_or_else(|| v.as_str().unwrap())
                .to_string()
        });
    let mut names: Vec<String> = names.collect();
    names.sort();
    names
}

/// The installed version's folder in the store.
fn installed_dir(home: &TestHome, package: &str) -> PathBuf {
    let info = info_of(home, package);
    PathBuf::from(info["installed"]["dir"].as_str().unwrap())
}

fn nothing_installed(home: &TestHome) -> bool {
    let receipts = home.agx_home().join("receipts-v1");
    !receipts.exists()
        || crate::support::tree(&receipts)
            .keys()
            .all(|path| !path.ends_with(".toml"))
}

#[test]
fn a_plugin_with_a_bad_skill_and_server_installs_the_rest_and_names_them() {
    let home = TestHome::new();
    add_source(&home, "kwp", &fixture_marketplace());
    // Before install, `info` names the skills as the import will.
    let (ok, listed, stderr) = run(home.agx().args(["info", "productivity@kwp"]));
    assert!(ok, "{stderr}");
    assert!(
        listed.contains("start-here") && !listed.contains("Start Here"),
        "{listed}"
    );
    let stderr = succeeds(home.agx().args(["install", "productivity@kwp"]));

    // What is left out is named in the plugin's own files, never in files agx generated.
    assert!(
        stderr.contains("productivity@kwp: not carried: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("server `google calendar` (.mcp.json: \"url\" is empty)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skill `broken` (skills/broken/SKILL.md: line "),
        "{stderr}"
    );
    assert!(!stderr.contains("agx/servers"), "{stderr}");
    // Skills Claude Code loads are rewritten for the other clients, and the user told so.
    assert!(
        stderr.contains("name `Start Here` → `start-here`"),
        "{stderr}"
    );
    assert!(stderr.contains("left out `tools`"), "{stderr}");
    assert!(stderr.contains("shortened from"), "{stderr}");

    let info = info_of(&home, "kwp/productivity");
    assert_eq!(names(&info, "servers"), ["asana", "slack"], "{info}");
    assert_eq!(
        names(&info, "skills"),
        [
            "memory-management",
            "standup",
            "start-here",
            "task-management"
        ],
        "{info}"
    );
    let dir = installed_dir(&home, "kwp/productivity");
    let memory = std::fs::read_to_string(dir.join("skills/memory-management/SKILL.md")).unwrap();
    // `tools` no client reads is left out; `version` (ToolHive reads it) is kept.
    assert!(
        memory.contains("version: 1.0.0") && !memory.contains("tools:"),
        "{memory}"
    );
    assert!(
        memory.contains("Read `CLAUDE.md` for the hot cache"),
        "{memory}"
    );
    assert!(!dir.join("skills/broken").exists());
    // The author is carried.
    let manifest = std::fs::read_to_string(dir.join("agx.toml")).unwrap();
    assert!(manifest.contains("authors = [\"Anthropic\"]"), "{manifest}");

    // The rewritten skill installs into a client as any skill does.
    succeeds(
        home.agx()
            .args(["install-skill", "codex", "kwp/productivity/start-here"]),
    );
    let copy = home.home().join(".agents/skills/start-here/SKILL.md");
    assert!(
        std::fs::read_to_string(&copy)
            .unwrap()
            .contains("name: \"start-here\"")
    );
}

#[test]
fn a_plugin_with_nothing_agx_carries_is_refused_naming_what_it_has() {
    let home = TestHome::new();
    add_source(&home, "kwp", &fixture_marketplace());
    let stderr = fails(home.agx().args(["install", "rust-analyzer-lsp@kwp"]));
    assert!(
        stderr.contains("rust-analyzer-lsp@kwp: nothing agx can carry: lsp servers"),
        "{stderr}"
    );
    assert!(
        stderr.contains("install this plugin with Claude Code"),
        "{stderr}"
    );
    assert!(!stderr.contains("Installed"), "{stderr}");
    assert!(nothing_installed(&home));
}

/// A copy of the fixture marketplace with the links real plugins hold: superpowers'
/// `AGENTS.md -> CLAUDE.md`, modern-python's `hooks/shims/pip3 -> pip`, and a skill file
/// linked out of the plugin.
#[cfg(unix)]
fn marketplace_with_links(home: &TestHome) -> PathBuf {
    let market = home.home().join("market");
    copy_tree(&fixture_marketplace(), &market);
    std::os::unix::fs::symlink("CLAUDE.md", market.join("superpowers/AGENTS.md")).unwrap();
    std::os::unix::fs::symlink("pip", market.join("modern-python/hooks/shims/pip3")).unwrap();
    let secret = home.home().join("id_rsa");
    std::fs::write(&secret, "-----BEGIN OPENSSH PRIVATE KEY-----\n").unwrap();
    let template = market.join("superpowers/skills/writing-plans/template.md");
    std::fs::remove_file(&template).unwrap();
    std::os::unix::fs::symlink(&secret, &template).unwrap();
    market
}

#[cfg(unix)]
#[test]
fn links_among_files_agx_does_not_carry_are_left_out_and_a_skill_with_one_is_not_carried() {
    let home = TestHome::new();
    let market = marketplace_with_links(&home);
    add_source(&home, "obra", &market);

    let stderr = succeeds(home.agx().args(["install", "modern-python@obra"]));
    assert!(!stderr.contains("symbolic link"), "{stderr}");
    let dir = installed_dir(&home, "obra/modern-python");
    assert!(dir.join("hooks/shims/pip").is_file());
    assert!(!dir.join("hooks/shims/pip3").exists());

    let stderr = succeeds(home.agx().args(["install", "superpowers@obra"]));
    assert!(
        stderr.contains(
            "skill `writing-plans` (skills/writing-plans: `skills/writing-plans/template.md` is a symbolic link"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("AGENTS.md"), "{stderr}");
    let info = info_of(&home, "obra/superpowers");
    assert_eq!(names(&info, "skills"), ["brainstorming"], "{info}");
    // Nothing the link pointed at was copied anywhere under agx's home.
    let copied = crate::support::tree(&home.agx_home());
    assert!(
        copied
            .keys()
            .all(|path| !path.ends_with("template.md") && !path.ends_with("AGENTS.md")),
        "{copied:?}"
    );
    // A link where agx reads the plugin's manifest still refuses the plugin.
    let manifest = market.join("modern-python/.claude-plugin/plugin.json");
    std::fs::rename(&manifest, market.join("modern-python/plugin.json")).unwrap();
    std::os::unix::fs::symlink("../plugin.json", &manifest).unwrap();
    succeeds(home.agx().args(["uninstall", "obra/modern-python"]));
    let stderr = fails(home.agx().args(["install", "modern-python@obra"]));
    assert!(
        stderr.contains("`.claude-plugin/plugin.json` is a symbolic link"),
        "{stderr}"
    );
}

#[test]
fn a_plugin_folder_installs_as_a_plugin() {
    let home = TestHome::new();
    let folders = home.home().join("plugins");
    copy_tree(&fixture_marketplace(), &folders);

    // Servers and no skill: not "a folder of skills", not "no agx.toml".
    succeeds(home.agx().arg("install").arg(folders.join("calendar-only")));
    let info = info_of(&home, "calendar-only");
    assert_eq!(names(&info, "servers"), ["calendar"], "{info}");
    assert_eq!(info["version"], "0.3.0", "{info}");
    assert_eq!(
        info["description"], "A calendar MCP server, no skill",
        "{info}"
    );
    let dir = installed_dir(&home, "calendar-only");
    let server = std::fs::read_to_string(dir.join("agx/servers/calendar.toml")).unwrap();
    // A number among `args` is kept.
    assert!(server.contains("\"--port\", \"8080\""), "{server}");

    // Servers and skills, with the same leniency as from a marketplace.
    let stderr = succeeds(home.agx().arg("install").arg(folders.join("productivity")));
    assert!(
        stderr.contains("server `google calendar` (.mcp.json: \"url\" is empty)"),
        "{stderr}"
    );
    let info = info_of(&home, "productivity");
    assert_eq!(names(&info, "servers"), ["asana", "slack"], "{info}");
    assert_eq!(info["version"], "1.2.0", "{info}");

    // Nothing to carry: refused, nothing installed.
    let stderr = fails(
        home.agx()
            .arg("install")
            .arg(folders.join("rust-analyzer-lsp")),
    );
    assert!(
        stderr.contains("nothing agx can carry: lsp servers"),
        "{stderr}"
    );
}

#[test]
fn an_import_from_anthropics_marketplace_exports_under_a_name_claude_code_accepts() {
    let home = TestHome::new();
    add_source(&home, "claude-plugins-official", &fixture_marketplace());
    succeeds(
        home.agx()
            .args(["install", "superpowers@claude-plugins-official"]),
    );
    let out = home.home().join("exported");
    succeeds(
        home.agx()
            .args(["export", "claude-marketplace"])
            .arg(&out)
            .args(["claude-plugins-official/superpowers", "--name", "my-market"]),
    );
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("plugins/superpowers/.claude-plugin/plugin.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["name"], "superpowers", "{manifest}");
    assert_eq!(
        manifest["author"],
        serde_json::json!({"name": "Jesse Vincent", "email": "jesse@example.com"})
    );
}

/// A plugin's skill that runs `${CLAUDE_PLUGIN_ROOT}/scripts/…` lost its scripts when
/// `install-skill` copied it out alone: it now carries them, named through its own folder.
#[test]
fn a_skill_copied_out_of_its_plugin_keeps_the_plugin_files_it_names() {
    let home = TestHome::new();
    let plugin = home.home().join("src/fp-check");
    crate::support::write_files(
        &plugin,
        &[
            (
                ".claude-plugin/plugin.json",
                r#"{"name": "fp-check", "version": "1.0.0", "description": "Checks findings"}"#,
            ),
            (
                "skills/fp-check/SKILL.md",
                "---\nname: fp-check\ndescription: Checks a finding.\n---\nRun `bash ${CLAUDE_PLUGIN_ROOT}/scripts/check.sh FILE`.\n",
            ),
            ("scripts/check.sh", "echo checked\n"),
        ],
    );
    let stderr = succeeds(home.agx().arg("install").arg(&plugin));
    assert!(stderr.contains("carries `scripts/check.sh`"), "{stderr}");
    succeeds(
        home.agx()
            .args(["install-skill", "claude-code", "fp-check/fp-check"]),
    );
    let copy = home.home().join(".claude/skills/fp-check");
    assert_eq!(
        std::fs::read_to_string(copy.join("plugin-root/scripts/check.sh")).unwrap(),
        "echo checked\n"
    );
    let skill_md = std::fs::read_to_string(copy.join("SKILL.md")).unwrap();
    assert!(
        skill_md.contains("bash ${CLAUDE_SKILL_DIR}/plugin-root/scripts/check.sh FILE"),
        "{skill_md}"
    );
}

/// A `userConfig` key agx cannot name a setting after failed the whole import ("likely a
/// bug in agx's import"): the setting is not carried, a server that uses it neither, and
/// the rest installs.
#[test]
fn a_user_config_key_agx_cannot_hold_leaves_out_only_what_uses_it() {
    let home = TestHome::new();
    let plugin = home.home().join("src/keys");
    crate::support::write_files(
        &plugin,
        &[
            (
                ".claude-plugin/plugin.json",
                r#"{"name": "keys", "version": "1.0.0", "description": "d",
                    "userConfig": {"API Key": {"type": "string", "sensitive": true},
                                   "region": {"type": "string", "default": "eu"}}}"#,
            ),
            (
                ".mcp.json",
                r#"{"mcpServers": {
                    "uses-key": {"command": "node", "args": ["s.js"], "env": {"KEY": "${user_config.API Key}"}},
                    "plain": {"command": "node", "args": ["s.js", "${user_config.region}"]}}}"#,
            ),
        ],
    );
    let stderr = succeeds(home.agx().arg("install").arg(&plugin));
    assert!(stderr.contains("setting `API Key`"), "{stderr}");
    assert!(stderr.contains("server `uses-key`"), "{stderr}");
    let info = info_of(&home, "keys");
    assert_eq!(names(&info, "servers"), ["plain"], "{info}");
}
