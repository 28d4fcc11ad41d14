//! Integration tests: `agx validate`, on the invalid fixtures (one per finding code) and on
//! small valid packages written into temp dirs.

use std::fs;
use std::path::{Path, PathBuf};

use insta::assert_snapshot;
use serde_json::Value;

use crate::support::{TestHome, fixtures, outcome, write_files};

fn invalid_fixtures() -> PathBuf {
    fixtures().join("invalid")
}

/// `expected.toml` beside each invalid fixture.
#[derive(Debug, serde::Deserialize)]
struct Expected {
    code: String,
    file: String,
    line: usize,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: std::collections::BTreeMap<String, String>,
}

fn validate_json(home: &TestHome, dir: &Path, args: &[&str]) -> (Value, i32) {
    let out = home
        .agx()
        .arg("validate")
        .arg(dir)
        .args(["--format", "json"])
        .args(args)
        .output()
        .expect("agx runs");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (doc, out.status.code().unwrap_or(-1))
}

fn codes_of(doc: &Value) -> Vec<String> {
    doc["findings"]
        .as_array()
        .expect("findings array")
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_code_has_a_fixture_that_reports_exactly_that_code_at_its_line() {
    let home = TestHome::new();
    let mut failures = Vec::new();
    for code in agx_model::manifest::ALL_CODES {
        let dir = invalid_fixtures().join(code.name);
        let expected_file = dir.join("expected.toml");
        let Ok(text) = fs::read_to_string(&expected_file) else {
            failures.push(format!(
                "{}: no fixture at {}",
                code.code,
                expected_file.display()
            ));
            continue;
        };
        let expected: Expected = toml::from_str(&text).expect("expected.toml parses");
        assert_eq!(
            expected.code,
            code.code,
            "{} is the fixture of another code",
            dir.display()
        );
        let mut cmd = home.agx();
        cmd.arg("validate")
            .arg(&dir)
            .args(["--format", "json"])
            .args(&expected.args);
        cmd.envs(&expected.env);
        let out = cmd.output().expect("agx runs");
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        let found: Vec<(String, String, u64)> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_string(),
                    f["location"]["file"].as_str().unwrap().to_string(),
                    f["location"]["line"].as_u64().unwrap(),
                )
            })
            .collect();
        let want = vec![(
            expected.code.clone(),
            expected.file.clone(),
            expected.line as u64,
        )];
        if found != want {
            failures.push(format!("{}: expected {want:?}, got {found:?}", code.name));
        }
        let want_exit = if code.code.starts_with('E') { 1 } else { 0 };
        if out.status.code() != Some(want_exit) {
            failures.push(format!(
                "{}: exit {:?}, expected {want_exit}",
                code.name,
                out.status.code()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_invalid_fixture_belongs_to_a_code() {
    for entry in fs::read_dir(invalid_fixtures()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            agx_model::manifest::ALL_CODES
                .iter()
                .any(|c| c.name == name),
            "registry-fixtures/invalid/{name} matches no finding code"
        );
    }
}

/// Human output of an invalid fixture, run from the fixtures folder so paths are stable.
fn human(name: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let home = TestHome::new();
    let out = home
        .agx()
        .current_dir(invalid_fixtures())
        .args(["validate", name])
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{name} fails validation");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn human_output_unknown_key() {
    assert_snapshot!(human("unknown-key", &[], &[]));
}

#[test]
fn human_output_undeclared_template_variable() {
    assert_snapshot!(human("undeclared-variable", &[], &[]));
}

#[test]
fn human_output_syntax_error() {
    assert_snapshot!(human("syntax-error", &[], &[]));
}

#[test]
fn human_output_unknown_reference() {
    assert_snapshot!(human("unknown-reference", &[], &[]));
}

#[test]
fn human_output_probe_failure() {
    assert_snapshot!(human(
        "probe-failed",
        &["--probe"],
        &[("AGX_PROBE_TIMEOUT_MS", "5000")]
    ));
}

/// Write files (path → content) under a fresh temp dir.
fn write_package(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), files);
    dir
}

const WEATHER_MANIFEST: &str = r#"
[package]
name = "acme/weather"
version = "1.2.0"
description = "Weather forecasts"
license = "MIT"
keywords = ["weather"]
agx = ">=0.1"

[dependencies]
"acme/geo" = "^1.0"

[extension]
servers = ["forecast"]
tools = ["get_forecast", ["alerts", "Weather alerts"], { name = "echo_args", description = "Echo" }]
prompts = ["Search", "Report"]
"#;

/// A valid package using every declaration form, per-item and combined files, JSON with
/// capitalised keys, both input modes and both prompt kinds.
fn weather_package() -> tempfile::TempDir {
    write_package(&[
        ("agx.toml", WEATHER_MANIFEST),
        (
            "agx/tools/get_forecast.toml",
            r#"
name = "get_forecast"
description = "Forecast for a place"
command = ["sh", "bin/tool.sh"]
timeout = 5
env = { UNITS = "metric" }
annotations = { read_only = true }

[[parameters]]
name = "lat"
type = "number"
required = true

[[parameters]]
name = "days"
type = "array"
items = { type = "integer" }
"#,
        ),
        (
            "agx/tools.toml",
            r#"
[alerts]
command = ["sh", "bin/tool.sh"]
input_schema = { type = "object", properties = { region = { type = "string" } } }

[echo_args]
command = ["sh", "bin/tool.sh"]
input = "argv"
"#,
        ),
        (
            "agx/servers/forecast.json",
            r#"{
  // JSON with comments and capitalised keys
  "Name": "forecast",
  "Instructions": "Use get_forecast",
  "Tools": ["get_forecast", "alerts", "echo_args", "acme/geo/geocode"],
  "Prompts": ["Search"]
}"#,
        ),
        (
            "agx/prompts/Search.toml",
            r#"
name = "Search"
content_file = "prompts/search.md"

[[arguments]]
name = "query"
required = true

[[arguments]]
name = "lang"
"#,
        ),
        (
            "agx/prompts/search.md",
            "Context for {{ query }}{% if lang %} in {{ lang }}{% endif %}\n",
        ),
        (
            "agx/prompts/Report.toml",
            "name = \"Report\"\ncommand = [\"sh\", \"bin/tool.sh\"]\n",
        ),
        // Answers the self-test only when the contract holds: env, cwd and input mode.
        (
            "bin/tool.sh",
            r#"#!/bin/sh
if [ "$AGX_TOOL" = echo_args ]; then input="$1"; else input="$(cat)"; fi
[ -f agx.toml ] || { echo "cwd is not the package folder" >&2; exit 2; }
[ "$AGX_PACKAGE" = acme/weather ] || { echo "AGX_PACKAGE=$AGX_PACKAGE" >&2; exit 2; }
[ -d "$AGX_PACKAGE_DIR" ] || { echo "no AGX_PACKAGE_DIR" >&2; exit 2; }
case "$input" in *__test__*) printf '{"ok": true, "tool": "%s"}\n' "$AGX_TOOL" ;; *) echo "bad input: $input" ;; esac
"#,
        ),
    ])
}

#[test]
fn a_valid_package_passes_with_every_declaration_form() {
    let home = TestHome::new();
    let pkg = weather_package();
    let (doc, code) = validate_json(&home, pkg.path(), &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(codes_of(&doc), Vec::<String>::new());
    assert_eq!(doc["valid"], true);
    assert_eq!(doc["package"]["name"], "acme/weather");
    assert_eq!(doc["package"]["tools"], 3);
    assert_eq!(doc["package"]["prompts"], 2);
    assert_eq!(doc["probed"], false);

    let out = home.agx().arg("validate").arg(pkg.path()).output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "ok: acme/weather 1.2.0 (1 server, 3 tools, 2 prompts) is valid\n"
    );
}

#[test]
fn the_loaded_model_has_every_field() {
    let pkg = weather_package();
    let package = agx_model::manifest::load_package(pkg.path()).expect("loads");
    let forecast = package.tool("get_forecast").unwrap();
    assert_eq!(forecast.timeout_secs, 5);
    assert_eq!(forecast.env["UNITS"], "metric");
    assert_eq!(forecast.annotations.read_only, Some(true));
    assert_eq!(
        forecast.input_schema()["required"],
        serde_json::json!(["lat"])
    );
    assert_eq!(
        forecast.input_schema()["properties"]["days"]["items"]["type"],
        "integer"
    );
    let echo = package.tool("echo_args").unwrap();
    assert_eq!(echo.input, agx_model::manifest::InputMode::Argv);
    assert_eq!(
        echo.timeout_secs,
        agx_model::manifest::DEFAULT_TOOL_TIMEOUT_SECS
    );
    assert_eq!(
        package.tool("alerts").unwrap().input_schema()["properties"]["region"]["type"],
        "string"
    );
    let server = package.server("forecast").unwrap();
    assert_eq!(server.instructions.as_deref(), Some("Use get_forecast"));
    let refs: Vec<String> = server.tools.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        refs,
        ["get_forecast", "alerts", "echo_args", "acme/geo/geocode"]
    );
    let search = package.prompt("Search").unwrap();
    assert_eq!(search.kind, agx_model::manifest::PromptKind::Text);
    assert!(
        search
            .content
            .as_deref()
            .unwrap()
            .starts_with("Context for {{ query }}")
    );
    assert_eq!(
        package.prompt("Report").unwrap().kind,
        agx_model::manifest::PromptKind::Command
    );
    assert_eq!(
        package.manifest.extension.tools[1].description.as_deref(),
        Some("Weather alerts")
    );
    assert_eq!(package.manifest.dependencies.len(), 1);
}

#[test]
fn probe_runs_each_tool_by_the_contract() {
    let home = TestHome::new();
    let pkg = weather_package();
    let mut cmd = home.agx();
    cmd.env("AGX_PROBE_TIMEOUT_MS", "5000");
    let out = cmd
        .arg("validate")
        .arg(pkg.path())
        .args(["--probe", "--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(codes_of(&doc), Vec::<String>::new(), "{doc:#}");
    assert_eq!(doc["probed"], true);
    assert!(out.status.success());
}

#[test]
fn probe_reports_a_tool_that_breaks_the_contract() {
    let home = TestHome::new();
    let pkg = weather_package();
    // The script checks AGX_PACKAGE; a wrong package name makes every tool fail.
    let manifest = WEATHER_MANIFEST.replace("acme/weather", "acme/other");
    fs::write(pkg.path().join("agx.toml"), manifest).unwrap();
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(
        home.agx()
            .env("AGX_PROBE_TIMEOUT_MS", "5000")
            .arg("validate")
            .arg(pkg.path())
            .arg("--probe")
    ));
}

#[test]
fn probe_is_skipped_when_the_package_has_errors() {
    let home = TestHome::new();
    let dir = invalid_fixtures().join("unknown-key");
    let out = home
        .agx()
        .arg("validate")
        .arg(&dir)
        .args(["--probe", "--format", "json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["probed"], false);
    let _filters = home.snapshot_filters();
    assert_snapshot!(outcome(home.agx().arg("validate").arg(&dir).arg("--probe")));
}

#[test]
fn all_findings_are_reported_not_only_the_first() {
    let home = TestHome::new();
    let pkg = weather_package();
    fs::write(
        pkg.path().join("agx/tools/get_forecast.toml"),
        "name = \"get_forecast\"\ncomand = [\"x\"]\ntimeout = 0\n[[parameters]]\nname = \"a\"\ntype = \"float\"\n",
    )
    .unwrap();
    fs::write(
        pkg.path().join("agx/prompts/search.md"),
        "{{ query }} {{ topic }}",
    )
    .unwrap();
    fs::write(pkg.path().join("agx/tools/spare.json"), "{}").unwrap();
    let (doc, code) = validate_json(&home, pkg.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        codes_of(&doc),
        ["W002", "E003", "E004", "E026", "E017", "E021"],
        "{doc:#}"
    );
    assert_eq!(doc["errors"], 5);
    assert_eq!(doc["warnings"], 1);
    assert_eq!(doc["package"], Value::Null);
}

#[test]
fn a_per_item_file_wins_over_the_combined_file() {
    let home = TestHome::new();
    let pkg = weather_package();
    fs::write(
        pkg.path().join("agx/tools/alerts.json"),
        r#"{"Name": "alerts", "Command": ["sh", "bin/tool.sh"], "Timeout": 7}"#,
    )
    .unwrap();
    let (doc, code) = validate_json(&home, pkg.path(), &[]);
    assert_eq!(code, 0);
    assert_eq!(codes_of(&doc), ["W001"]);
    assert_eq!(doc["findings"][0]["location"]["file"], "agx/tools.toml");
    let package = agx_model::manifest::load_package(pkg.path()).unwrap();
    assert_eq!(package.tool("alerts").unwrap().timeout_secs, 7);
}

#[test]
fn a_missing_folder_is_one_clear_finding() {
    let home = TestHome::new();
    let (doc, code) = validate_json(&home, &home.home().join("nope"), &[]);
    assert_eq!(code, 1);
    assert_eq!(codes_of(&doc), ["E001"]);
    assert!(
        doc["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("nope")
    );
}

#[test]
fn validate_defaults_to_the_current_directory() {
    let home = TestHome::new();
    let pkg = weather_package();
    let out = home
        .agx()
        .current_dir(pkg.path())
        .arg("validate")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn docs_list_every_code() {
    let docs = fs::read_to_string(crate::support::repo_root().join("docs/validate.md")).unwrap();
    for code in agx_model::manifest::ALL_CODES {
        let row = format!("| `{}` | `{}` |", code.code, code.name);
        assert!(
            docs.contains(&row),
            "docs/validate.md has no row for {} {}",
            code.code,
            code.name
        );
    }
}
