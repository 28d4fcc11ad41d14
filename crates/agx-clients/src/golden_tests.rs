//! Golden before/after files for every client (tests/golden/clients/). Each `<client>.before.*`
//! gets the same agx entry; the result must equal `<client>.after.*` byte for byte, a second
//! install must change nothing, and uninstalling must give back the before file exactly.
//! `AGX_UPDATE_GOLDEN=1 cargo test --lib clients::golden_tests` rewrites the after files.

use std::path::{Path, PathBuf};

use super::*;
use agx_edit as edit;

fn golden_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/golden/clients")
}

fn before_file(id: &str) -> PathBuf {
    std::fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{id}.before.")))
        })
        .unwrap_or_else(|| panic!("no golden before file for {id}"))
}

pub(crate) fn fixture_entry() -> ServerEntry {
    ServerEntry {
        command: "/opt/agx/bin/agx".into(),
        args: vec!["serve".into(), "acme/weather/forecast".into()],
        env: [("AGX_HOME".to_string(), "/home/u/.agx".to_string())].into(),
    }
}

fn host() -> HostEnv {
    HostEnv {
        home: "/home/u".into(),
        os: table::Os::Linux,
        vars: Default::default(),
    }
}

fn temp_target(
    client: &'static Client,
    scope: Scope,
    text: &str,
    ext: &str,
) -> (tempfile::TempDir, Target) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("config.{ext}"));
    std::fs::write(&file, text).unwrap();
    let project = Path::new("/home/u/work/site");
    let t = Target::new(
        client,
        scope,
        Some(project),
        Some(&file),
        "forecast",
        &host(),
    )
    .unwrap();
    (dir, t)
}

fn check_client(client: &'static Client, scope: Scope, before_path: &Path, after_name: &str) {
    let before = std::fs::read_to_string(before_path).unwrap();
    let ext = before_path.extension().unwrap().to_str().unwrap();
    let (_dir, t) = temp_target(client, scope, &before, ext);
    let change = plan_install(&t, "forecast", &fixture_entry(), false).unwrap();
    assert_eq!(change.outcome, Outcome::Added, "{}", client.id);
    let after_path = golden_dir().join(format!("{after_name}.{ext}"));
    if std::env::var_os("AGX_UPDATE_GOLDEN").is_some() {
        std::fs::write(&after_path, &change.after).unwrap();
    }
    let expected = std::fs::read_to_string(&after_path)
        .unwrap_or_else(|_| panic!("missing {}", after_path.display()));
    assert_eq!(
        change.after, expected,
        "{}: after differs from golden",
        client.id
    );
    // It still parses, and reads back as the entry agx wrote.
    let reparsed = edit::parse(client.format, &change.after).unwrap();
    let value = reparsed.get(&t.container, "forecast").unwrap();
    assert_eq!(
        shape::parse(client.shape, &value),
        Some(fixture_entry()),
        "{}",
        client.id
    );

    change.apply().unwrap();
    let again = plan_install(&t, "forecast", &fixture_entry(), false).unwrap();
    assert_eq!(again.outcome, Outcome::Unchanged, "{}", client.id);
    assert_eq!(again.after, expected);

    for name in ["forecast", "acme/weather/forecast"] {
        let removal = plan_uninstall(&t, name).unwrap();
        assert_eq!(removal.outcome, Outcome::Removed, "{}", client.id);
        assert_eq!(
            removal.after, before,
            "{}: uninstall did not restore every byte",
            client.id
        );
    }
}

#[test]
fn every_client_round_trips_its_golden_file() {
    for client in CLIENTS {
        let before = before_file(client.id);
        check_client(
            client,
            Scope::User,
            &before,
            &format!("{}.after", client.id),
        );
    }
}

#[test]
fn claude_code_local_scope_goes_into_the_project_entry() {
    let client = table::find("claude-code").unwrap();
    check_client(
        client,
        Scope::Local,
        &before_file("claude-code"),
        "claude-code.after-local",
    );
}

#[test]
fn malformed_files_are_refused_with_line_and_column() {
    let cases = [
        ("claude-code", "{\n  \"a\": 1\n  // comment\n}\n", 3),
        (
            "vscode",
            "{\n  \"servers\": {\n    \"x\": [1 2\n  }\n}\n",
            3,
        ),
        ("codex", "model = \"x\"\n[mcp_servers.a\ncommand = 1\n", 2),
        ("goose", "extensions:\n  a: [1, 2\nb: c\n", 4),
    ];
    for (id, text, line) in cases {
        let client = table::find(id).unwrap();
        let ext = client.format.as_str();
        let (_dir, t) = temp_target(client, Scope::User, text, ext);
        let err = plan_install(&t, "forecast", &fixture_entry(), false).unwrap_err();
        match &err {
            ClientError::Syntax { source, .. } => {
                assert_eq!(source.line, line, "{id}: {source}");
                assert!(source.column >= 1);
            }
            other => panic!("{id}: expected a syntax error, got {other}"),
        }
        assert_eq!(
            std::fs::read_to_string(&t.file).unwrap(),
            text,
            "{id}: file touched"
        );
    }
}

#[test]
fn a_new_continue_block_file_gets_its_header() {
    let client = table::find("continue").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let t = Target::new(
        client,
        Scope::Project,
        Some(dir.path()),
        None,
        "forecast",
        &host(),
    )
    .unwrap();
    assert!(t.file.ends_with(".continue/mcpServers/forecast.yaml"));
    let change = plan_install(&t, "forecast", &fixture_entry(), false).unwrap();
    assert!(
        change
            .after
            .starts_with("name: forecast\nversion: 0.0.1\nschema: v1\nmcpServers:\n"),
        "{}",
        change.after
    );
}

#[test]
fn minified_json_keeps_other_entries_on_uninstall() {
    let client = table::find("amazon-q").unwrap();
    let text = "{\"mcpServers\":{\"aws\":{\"command\":\"uvx\",\"args\":[\"a\"]}},\"x\":1}";
    let (_dir, t) = temp_target(client, Scope::User, text, "json");
    plan_install(&t, "forecast", &fixture_entry(), false)
        .unwrap()
        .apply()
        .unwrap();
    let removal = plan_uninstall(&t, "forecast").unwrap();
    let after: serde_json::Value = serde_json::from_str(&removal.after).unwrap();
    let before: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(after, before);
}

#[test]
fn a_key_holding_another_server_needs_force() {
    let client = table::find("cursor").unwrap();
    let text = "{\"mcpServers\": {\"forecast\": {\"command\": \"npx\", \"args\": [\"x\"]}}}\n";
    let (_dir, t) = temp_target(client, Scope::User, text, "json");
    let err = plan_install(&t, "forecast", &fixture_entry(), false).unwrap_err();
    assert!(matches!(err, ClientError::KeyTaken { .. }), "{err}");
    let hint = agx_core::error::Hint::hint(&err).unwrap();
    assert!(
        hint.contains("--name") && hint.contains("--force"),
        "{hint}"
    );
    let forced = plan_install(&t, "forecast", &fixture_entry(), true).unwrap();
    assert_eq!(forced.outcome, Outcome::Updated);
    assert!(forced.after.contains("/opt/agx/bin/agx"));
}

#[test]
fn updating_an_agx_entry_keeps_user_keys() {
    let client = table::find("cline").unwrap();
    let text = "{\"mcpServers\": {\"forecast\": {\"command\": \"/old/agx\", \"args\": [\"serve\", \"acme/weather/forecast\"], \"autoApprove\": [\"x\"]}}}\n";
    let (_dir, t) = temp_target(client, Scope::User, text, "json");
    let change = plan_install(&t, "forecast", &fixture_entry(), false).unwrap();
    assert_eq!(change.outcome, Outcome::Updated);
    let v: serde_json::Value = serde_json::from_str(&change.after).unwrap();
    assert_eq!(v["mcpServers"]["forecast"]["autoApprove"][0], "x");
    assert_eq!(v["mcpServers"]["forecast"]["command"], "/opt/agx/bin/agx");
}

#[test]
fn missing_files_are_created_and_dry_run_writes_nothing() {
    for client in CLIENTS {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("nested/dir/config");
        let t = Target::new(client, Scope::User, None, Some(&file), "forecast", &host()).unwrap();
        let change = plan_install(&t, "forecast", &fixture_entry(), false).unwrap();
        assert_eq!(change.outcome, Outcome::Added);
        assert!(change.diff().contains("+"), "{}", client.id);
        assert!(!file.exists(), "planning wrote {}", client.id);
        change.apply().unwrap();
        let reparsed =
            edit::parse(client.format, &std::fs::read_to_string(&file).unwrap()).unwrap();
        let value = reparsed.get(&t.container, "forecast").unwrap();
        assert_eq!(
            shape::parse(client.shape, &value),
            Some(fixture_entry()),
            "{}",
            client.id
        );
    }
}
