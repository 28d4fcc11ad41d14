//! `agx export` (docs/plugins.md): the plugin formats from the fixture packages
//! acme/dev (skills), acme/quotes (a server, a required secret, settings) and acme/weather
//! (a server with a dependency); their entries start `agx serve` with a cleared environment.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Fixture, TestHome, tree};

const SECRET: &str = "plugins-test-secret-value";
const PACKAGES: [&str; 3] = ["acme/dev", "acme/quotes", "acme/weather"];

fn home_with_secret(fixture: &Fixture) -> TestHome {
    let home = fixture.home_with(&PACKAGES);
    let mut set = fixture.agx(&home);
    set.env("AGX_KEYRING", "file")
        .args(["config", "set", "acme/quotes", "api_key", "--stdin"])
        .write_stdin(SECRET)
        .assert()
        .success();
    home
}

fn export(fixture: &Fixture, home: &TestHome, format: &str, out: &Path) {
    fixture
        .agx(home)
        .args(["export", format])
        .arg(out)
        .args(PACKAGES)
        .assert()
        .success();
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn each_format_is_written_twice_byte_for_byte_and_never_holds_a_secret() {
    let fixture = Fixture::new();
    let home = home_with_secret(&fixture);
    let out = tempfile::tempdir().unwrap();
    for format in [
        "claude-marketplace",
        "agent-plugin",
        "gemini-extension",
        "codex-marketplace",
        "cursor-marketplace",
    ] {
        let (a, b) = (
            out.path().join(format!("{format}-a")),
            out.path().join(format!("{format}-b")),
        );
        export(&fixture, &home, format, &a);
        // Another argument order and another run: the same bytes (the folder name is the
        // marketplace's default name, so give it explicitly).
        let mut second = fixture.agx(&home);
        second.args(["export", format]).arg(&b);
        if format.ends_with("-marketplace") {
            second.args(["--name", &format!("{format}-a")]);
        }
        second.args(PACKAGES.iter().rev()).assert().success();
        assert_eq!(tree(&a), tree(&b), "{format}");
        for (path, _) in tree(&a) {
            let file = a.join(&path);
            if file.is_file() {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                assert!(!text.contains(SECRET), "{format}: {path} holds the secret");
            }
        }
    }
}

#[test]
fn the_claude_marketplace_lists_plugins_with_entries_skills_and_user_config() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&PACKAGES);
    let out = tempfile::tempdir().unwrap();
    let market = out.path().join("acme-market");
    export(&fixture, &home, "claude-marketplace", &market);

    let catalog = read_json(&market.join(".claude-plugin/marketplace.json"));
    assert_eq!(catalog["name"], "acme-market");
    assert_eq!(catalog["owner"], json!({"name": "acme"}));
    let sources: Vec<&str> = catalog["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["source"].as_str().unwrap())
        .collect();
    assert_eq!(
        sources,
        [
            "./plugins/acme-dev",
            "./plugins/acme-quotes",
            "./plugins/acme-weather"
        ]
    );

    let weather = market.join("plugins/acme-weather");
    assert_eq!(
        read_json(&weather.join(".mcp.json")),
        json!({"mcpServers": {"forecast": {"command": "agx", "args": ["serve", "acme/weather/forecast@=1.2.0"]}}})
    );
    let quotes = market.join("plugins/acme-quotes");
    let manifest = read_json(&quotes.join(".claude-plugin/plugin.json"));
    assert_eq!(manifest["userConfig"]["api_key"]["sensitive"], true);
    assert!(
        manifest["description"]
            .as_str()
            .unwrap()
            .contains("api_key (secret)"),
        "{manifest}"
    );
    assert_eq!(
        read_json(&quotes.join(".mcp.json"))["mcpServers"]["quotes"]["env"],
        json!({"AGX_SETTING__ACME__QUOTES__API_KEY": "${user_config.api_key}"})
    );
    let dev = market.join("plugins/acme-dev");
    assert!(dev.join("skills/review/SKILL.md").is_file());
    assert!(dev.join("skills/review/scripts/diff-stat.sh").is_file());
    assert!(
        !dev.join(".mcp.json").exists(),
        "a skills-only plugin has no servers"
    );
}

#[test]
fn agent_plugins_follow_the_specification_rules() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&PACKAGES);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    export(&fixture, &home, "agent-plugin", &out.join("plugins"));
    for name in ["acme-dev", "acme-quotes", "acme-weather"] {
        let root = out.join("plugins").join(name);
        assert_eq!(
            agx_sources::plugins::agent_plugin::check(&root),
            Vec::<String>::new(),
            "{name}"
        );
        let manifest = read_json(&root.join("plugin.json"));
        assert_eq!(
            manifest["$schema"],
            agx_sources::plugins::agent_plugin::PLUGIN_SCHEMA
        );
        assert_eq!(manifest["name"], name);
    }
    let mcp = read_json(&out.join("plugins/acme-quotes/mcp.json"));
    assert_eq!(
        mcp["mcpServers"]["quotes"],
        json!({"type": "stdio", "command": "agx", "args": ["serve", "acme/quotes/quotes@=1.0.0"]})
    );
}

#[test]
fn gemini_extensions_are_named_as_their_folder_with_settings_by_variable() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&PACKAGES);
    let out = tempfile::tempdir().unwrap();
    let ran = fixture
        .agx(&home)
        .args(["export", "gemini-extension", "--json"])
        .arg(out.path())
        .args(PACKAGES)
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let report: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(report["plugins"][1]["name"], "acme-quotes");
    assert_eq!(report["plugins"][1]["package"], "acme/quotes");
    assert_eq!(report["plugins"][1]["version"], "1.0.0");
    assert_eq!(
        Path::new(report["plugins"][1]["path"].as_str().unwrap()),
        out.path().join("acme-quotes")
    );
    let manifest = read_json(&out.path().join("acme-quotes/gemini-extension.json"));
    assert_eq!(manifest["name"], "acme-quotes");
    assert_eq!(
        manifest["settings"][0],
        json!({"name": "api_key", "description": "Acme market API key",
               "envVar": "AGX_SETTING__ACME__QUOTES__API_KEY", "sensitive": true})
    );
    assert!(
        out.path()
            .join("acme-dev/skills/release-notes/SKILL.md")
            .is_file()
    );
}

#[test]
fn a_taken_folder_or_unknown_package_is_refused_and_nothing_is_written() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/dev"]);
    let out = tempfile::tempdir().unwrap();
    std::fs::write(out.path().join("keep.txt"), "mine").unwrap();
    let before = tree(out.path());
    let ran = fixture
        .agx(&home)
        .args(["export", "agent-plugin"])
        .arg(out.path())
        .arg("acme/dev")
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&ran.get_output().stderr).into_owned();
    assert!(stderr.contains("is not an empty folder"), "{stderr}");
    assert!(stderr.contains("hint: choose a new folder"), "{stderr}");
    let fresh = out.path().join("new");
    let ran = fixture
        .agx(&home)
        .args(["export", "agent-plugin"])
        .arg(&fresh)
        .args(["acme/dev", "acme/nope"])
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&ran.get_output().stderr).into_owned();
    assert!(stderr.contains("acme/nope"), "{stderr}");
    assert_eq!(
        tree(out.path()),
        before,
        "nothing written, nothing staged left over"
    );
}

#[test]
fn a_registry_reference_is_installed_then_exported() {
    let fixture = Fixture::new();
    let home = TestHome::new();
    let out = home.home().join("out");
    fixture
        .agx(&home)
        .args(["export", "gemini-extension"])
        .arg(&out)
        .arg("acme/weather@1.1.0")
        .assert()
        .success();
    let manifest = read_json(&out.join("acme-weather/gemini-extension.json"));
    assert_eq!(manifest["version"], "1.1.0");
    assert_eq!(
        manifest["mcpServers"]["forecast"]["args"],
        json!(["serve", "acme/weather/forecast@=1.1.0"])
    );
    let listed = fixture.agx(&home).arg("list").output().unwrap();
    assert!(String::from_utf8_lossy(&listed.stdout).contains("acme/weather"));
}

/// The exported entry as Codex starts it: bare `agx` found on PATH, every other variable
/// cleared (no AGX_HOME, no XDG folders), so agx uses its default home under HOME. Unix
/// only: on Windows the default home is the user's real %APPDATA%, which no test touches.
#[cfg(unix)]
#[test]
fn an_exported_entry_starts_with_a_cleared_environment_from_the_default_home() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    use crate::support::AGX;

    let fixture = Fixture::new();
    let home = TestHome::new();
    let default_home = |cmd: &mut assert_cmd::Command| {
        cmd.env_remove("AGX_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CONFIG_HOME");
    };
    let mut install = fixture.agx(&home);
    default_home(&mut install);
    install.args(["install", "acme/weather"]).assert().success();
    let out = home.home().join("exported");
    let mut run = fixture.agx(&home);
    default_home(&mut run);
    run.args(["export", "claude-marketplace"])
        .arg(&out)
        .arg("acme/weather")
        .assert()
        .success();
    let entry = &read_json(&out.join("plugins/acme-weather/.mcp.json"))["mcpServers"]["forecast"];
    assert_eq!(entry["command"], "agx");

    let bin = home.home().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let agx_dir = Path::new(AGX).parent().unwrap();
    let args: Vec<&str> = entry["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let mut child = std::process::Command::new(agx_dir.join("agx"))
        .args(&args)
        .env_clear()
        .env("HOME", home.home())
        .env("PATH", agx_dir)
        .current_dir(home.home())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "agx-test", "version": "1"}}});
    writeln!(stdin, "{init}").unwrap();
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    .unwrap();
    writeln!(stdin, "{list}").unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut tools = Value::Null;
    for line in lines.by_ref() {
        let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if v["id"] == 2 {
            tools = v;
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{tools} {}", String::from_utf8_lossy(&output.stderr)))
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"get_forecast"), "{names:?}");
}

/// Codex's and Cursor's marketplaces as Codex and Cursor read them, and back: each exported
/// marketplace is a source agx imports, whose plugins carry the same servers and skills.
#[test]
fn codex_and_cursor_marketplaces_round_trip() {
    let fixture = Fixture::new();
    let home = home_with_secret(&fixture);
    let out = tempfile::tempdir().unwrap();
    for (format, catalog, manifest, servers) in [
        (
            "codex-marketplace",
            ".agents/plugins/marketplace.json",
            ".codex-plugin/plugin.json",
            ".mcp.json",
        ),
        (
            "cursor-marketplace",
            ".cursor-plugin/marketplace.json",
            ".cursor-plugin/plugin.json",
            "mcp.json",
        ),
    ] {
        let market = out.path().join(format);
        export(&fixture, &home, format, &market);
        let listed = read_json(&market.join(catalog));
        let names: Vec<&str> = listed["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["acme-dev", "acme-quotes", "acme-weather"],
            "{listed}"
        );
        let quotes = market.join("plugins/acme-quotes");
        assert_eq!(read_json(&quotes.join(manifest))["version"], "1.0.0");
        assert_eq!(
            read_json(&quotes.join(servers))["mcpServers"]["quotes"],
            json!({"command": "agx", "args": ["serve", "acme/quotes/quotes@=1.0.0"]})
        );
        assert!(market.join("plugins/acme-dev/skills").is_dir());

        // Back: the marketplace is a source, each plugin a package with the same parts.
        let source = format.trim_end_matches("-marketplace");
        fixture
            .agx(&home)
            .args(["registry", "add-source", source])
            .arg(&market)
            .assert()
            .success();
        for plugin in ["acme-quotes", "acme-dev"] {
            fixture
                .agx(&home)
                .args(["install", &format!("{plugin}@{source}")])
                .assert()
                .success();
        }
        let info = |package: &str| -> Value {
            let out = fixture
                .agx(&home)
                .args(["info", package, "--json"])
                .output()
                .unwrap();
            serde_json::from_slice(&out.stdout).unwrap()
        };
        let names = |info: &Value, key: &str| -> Vec<String> {
            let mut names: Vec<String> = info[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["name"].as_str().unwrap().to_string())
                .collect();
            names.sort();
            names
        };
        let original = info("acme/dev");
        let imported = info(&format!("{source}/acme-dev"));
        assert_eq!(
            names(&imported, "skills"),
            names(&original, "skills"),
            "{format}"
        );
        let imported = info(&format!("{source}/acme-quotes"));
        assert_eq!(names(&imported, "servers"), ["quotes"], "{format}");
    }
}
