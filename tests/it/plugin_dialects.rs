//! Every plugin dialect agx imports (docs/plugins.md, "Dialects"): an Agent Plugins 1.0
//! plugin and a Gemini CLI extension installed from their folders, a Codex plugin from a
//! Codex marketplace (`.agents/plugins/marketplace.json`, `{"source": "local"}`) and a Cursor
//! plugin from a Cursor marketplace (`.cursor-plugin/marketplace.json`). Each becomes a
//! package whose forecast server runs under `agx serve`, called by rmcp's client (its folder
//! and data placeholders translated), and whose skill installs; what agx does not carry is
//! named. Fixtures: `registry-fixtures/plugin-dialects/`.

use std::path::PathBuf;

use crate::hostile_marketplace::{add_source, run};
use crate::marketplace::call_forecast_of;
use crate::support::{TestHome, fixtures};

const CLAUDE_CODE: (&str, &str) = ("claude-code", ".claude/skills");
const CODEX: (&str, &str) = ("codex", ".agents/skills");

fn dialects() -> PathBuf {
    fixtures().join("plugin-dialects")
}

fn succeeds(cmd: &mut assert_cmd::Command) -> String {
    let (ok, stdout, stderr) = run(cmd);
    assert!(ok, "{stdout}\n{stderr}");
    stderr
}

fn info_of(home: &TestHome, package: &str) -> serde_json::Value {
    let (ok, stdout, stderr) = run(home.agx().args(["info", package, "--json"]));
    assert!(ok, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// The names under `info[key]`.
fn names(info: &serde_json::Value, key: &str) -> Vec<String> {
    info[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key}: {info}"))
        .iter()
        .map(|v| {
            v["name"]
                .as_str()
                .unwrap_or_else(|| v.as_str().unwrap())
                .to_string()
        })
        .collect()
}

/// The package's server and skill, its version, and its skill placed for `client`, whose
/// skills folder (under HOME) is `folder`.
fn check_carried(
    home: &TestHome,
    package: &str,
    version: &str,
    (client, folder): (&str, &str),
) -> serde_json::Value {
    let info = info_of(home, package);
    assert_eq!(names(&info, "servers"), ["forecast"], "{info}");
    assert_eq!(names(&info, "skills"), ["umbrella-advice"], "{info}");
    assert_eq!(info["version"], version, "{info}");
    succeeds(home.agx().args([
        "install-skill",
        client,
        &format!("{package}/umbrella-advice"),
    ]));
    let copy = home.home().join(folder).join("umbrella-advice/SKILL.md");
    assert!(copy.is_file(), "{}", copy.display());
    info
}

#[test]
fn an_agent_plugins_folder_installs_with_its_placeholders_translated() {
    let home = TestHome::new();
    succeeds(
        home.agx()
            .arg("install")
            .arg(dialects().join("agent-plugin/weather-agent")),
    );
    let info = check_carried(&home, "weather-agent", "1.3.0", CLAUDE_CODE);
    assert_eq!(info["license"], "MIT", "{info}");
    // ${PLUGIN_ROOT} is the package folder (the script ran), ${PLUGIN_DATA} a folder
    // outside the store.
    let answer = call_forecast_of(&home, "weather-agent", &[]);
    assert_eq!(answer["units"], "metric", "{answer}");
    assert_eq!(
        PathBuf::from(answer["data_dir"].as_str().unwrap()),
        home.agx_home().join("data/_local/weather-agent")
    );
}

#[test]
fn a_gemini_extension_installs_with_its_settings_as_settings() {
    let home = TestHome::new();
    let (ok, _, stderr) = run(home
        .agx()
        .arg("install")
        .arg(dialects().join("gemini/weather-gemini")));
    assert!(ok, "{stderr}");
    // Gemini's tool exclusions are named, not dropped in silence.
    assert!(
        stderr.contains("not carried: excludeTools (run_shell_command(rm -rf)) (gemini-extension.json: agx hides no tool"),
        "{stderr}"
    );
    let info = check_carried(&home, "weather-gemini", "1.4.0", CLAUDE_CODE);
    // The setting is a secret keyed by its variable, and reaches the server as that
    // variable when it has a value; without one the variable is left out.
    let settings = info["settings"].as_array().unwrap();
    let key = settings.iter().find(|s| s["key"] == "forecast_api_key");
    assert_eq!(
        key.map(|k| &k["secret"]),
        Some(&serde_json::json!(true)),
        "{info}"
    );
    // The setting's variable in the extension's own arguments is the setting.
    let dir = PathBuf::from(info["installed"]["dir"].as_str().unwrap());
    let server = std::fs::read_to_string(dir.join("agx/servers/forecast.toml")).unwrap();
    assert!(
        server.contains("\"--key=${settings.forecast_api_key}\"")
            && server.contains("${package.dir}/server/forecast.py"),
        "{server}"
    );
    let answer = call_forecast_of(&home, "weather-gemini", &[]);
    assert_eq!(answer["has_api_key"], false, "{answer}");
    assert_eq!(answer["units"], "imperial", "{answer}");
    let answer = call_forecast_of(
        &home,
        "weather-gemini",
        &[("AGX_SETTING__WEATHER_GEMINI__FORECAST_API_KEY", "k-1")],
    );
    assert_eq!(answer["has_api_key"], true, "{answer}");
}

#[test]
fn codex_and_cursor_marketplaces_list_and_install_their_plugins() {
    let home = TestHome::new();
    add_source(&home, "codexmkt", &dialects().join("codex-marketplace"));
    add_source(&home, "cursormkt", &dialects().join("cursor-marketplace"));

    let (ok, found, stderr) = run(home.agx().args(["search", "weather"]));
    assert!(ok, "{stderr}");
    assert!(found.contains("weather-codex@codexmkt 1.1.0"), "{found}");
    assert!(found.contains("weather-cursor@cursormkt 1.2.0"), "{found}");

    succeeds(home.agx().args(["install", "weather-codex@codexmkt"]));
    let info = check_carried(&home, "codexmkt/weather-codex", "1.1.0", CODEX);
    assert_eq!(info["not_carried"], serde_json::json!(["apps"]), "{info}");
    let answer = call_forecast_of(&home, "codexmkt/weather-codex", &[]);
    assert_eq!(answer["units"], "metric", "{answer}");

    succeeds(home.agx().args(["install", "weather-cursor@cursormkt"]));
    let info = check_carried(&home, "cursormkt/weather-cursor", "1.2.0", CLAUDE_CODE);
    assert_eq!(info["not_carried"], serde_json::json!(["rules"]), "{info}");
    let answer = call_forecast_of(&home, "cursormkt/weather-cursor", &[]);
    assert_eq!(
        PathBuf::from(answer["data_dir"].as_str().unwrap()),
        home.agx_home().join("data/cursormkt/weather-cursor")
    );
    // Cursor's `variables` are settings; one named for a credential is a secret, and
    // `${FORECAST_API_KEY}` in the plugin's MCP file is the setting.
    let settings = info["settings"].as_array().unwrap();
    let key = settings.iter().find(|s| s["key"] == "forecast_api_key");
    assert_eq!(
        key.map(|k| (&k["secret"], &k["description"])),
        Some((
            &serde_json::json!(true),
            &serde_json::json!(
                "Forecast API key: The key the forecast server sends to its (imaginary) backend"
            )
        )),
        "{info}"
    );
    assert_eq!(answer["has_api_key"], false, "{answer}");
    let answer = call_forecast_of(
        &home,
        "cursormkt/weather-cursor",
        &[(
            "AGX_SETTING__CURSORMKT__WEATHER_CURSOR__FORECAST_API_KEY",
            "k-2",
        )],
    );
    assert_eq!(answer["has_api_key"], true, "{answer}");
}

#[test]
fn a_codex_plugin_its_catalog_marks_not_available_is_not_installed() {
    let home = TestHome::new();
    let market = home.home().join("codex-marketplace");
    crate::support::copy_tree(&dialects().join("codex-marketplace"), &market);
    let catalog = market.join(".agents/plugins/marketplace.json");
    let text = std::fs::read_to_string(&catalog).unwrap();
    let withheld = text.replace("\"AVAILABLE\"", "\"NOT_AVAILABLE\"");
    assert_ne!(text, withheld);
    std::fs::write(&catalog, withheld).unwrap();
    add_source(&home, "codexmkt", &market);

    let (ok, _, stderr) = run(home.agx().args(["install", "weather-codex@codexmkt"]));
    assert!(!ok);
    assert!(
        stderr.contains("plugin `weather-codex`")
            && stderr.contains("is not available for install")
            && stderr.contains("NOT_AVAILABLE"),
        "{stderr}"
    );
    assert!(stderr.contains("hint:"), "{stderr}");
    assert!(!home.agx_home().join("receipts-v1").exists(), "{stderr}");
}
