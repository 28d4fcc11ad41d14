//! `agx discover`: tools found in a folder of scripts (registry-fixtures/scripts, the shapes of
//! the Fractalic contract), written as a package that validates, installs and runs in every
//! input style; existing declarations left alone; probes confined.

use std::path::Path;

use serde_json::Value;

use crate::support::{TestHome, copy_tree, fixtures, tree, write_file, write_files};

/// Generous for a shared CI machine: the scripts answer in well under 200 ms alone.
const TIMEOUT_MS: &str = "2000";

fn scripts_copy(home: &TestHome) -> std::path::PathBuf {
    let dir = home.home().join("scripts");
    copy_tree(&fixtures().join("scripts"), &dir);
    dir
}

fn discover_json(home: &TestHome, dir: &Path, extra: &[&str]) -> Value {
    let out = home
        .agx()
        .args(["discover", "--json", "--timeout", TIMEOUT_MS])
        .args(extra)
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn tool<'a>(found: &'a Value, name: &str) -> &'a Value {
    found["discovery"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name} in {found:#}"))
}

fn skipped<'a>(found: &'a Value, script: &str) -> &'a str {
    found["discovery"]["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["script"] == script)
        .unwrap_or_else(|| panic!("{script} not skipped in {found:#}"))["reason"]
        .as_str()
        .unwrap()
}

#[test]
fn every_shape_of_script_is_found_or_skipped_with_its_reason() {
    let home = TestHome::new();
    let dir = scripts_copy(&home);
    let found = discover_json(&home, &dir, &[]);

    for (name, script, via, input) in [
        ("weather", "weather.py", "schema", "argv-json"),
        ("upper", "textops.py", "multi-schema", "argv-json"),
        ("count_words", "textops.py", "multi-schema", "argv-json"),
        ("stamp", "stamp.sh", "self-test", "argv-json"),
        ("forecast", "forecast.py", "argparse", "argv-flags"),
        ("convert", "convert.sh", "help", "argv-flags"),
    ] {
        let t = tool(&found, name);
        assert_eq!(
            (t["script"].as_str(), t["via"].as_str(), t["input"].as_str()),
            (Some(script), Some(via), Some(input)),
            "{t:#}"
        );
    }
    assert_eq!(found["discovery"]["tools"].as_array().unwrap().len(), 6);
    // The multi-schema script is told which tool runs by its first argument.
    assert_eq!(
        tool(&found, "upper")["command"],
        serde_json::json!(["python3", "textops.py", "upper"])
    );
    // argparse: required flags, help texts, choices; the description is argparse's own.
    let forecast = &tool(&found, "forecast")["schema"]["parameters"];
    let param = |name: &str| {
        forecast
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(param("lat")["required"], true);
    assert_eq!(param("lon")["required"], true);
    assert_eq!(param("units")["required"], false);
    assert_eq!(
        param("units")["enum"],
        serde_json::json!(["metric", "imperial"])
    );
    assert_eq!(param("verbose")["type"], "boolean");
    // Types and repeats that --help does not show, from the parser itself.
    assert_eq!(param("lat")["type"], "number");
    assert_eq!(param("hours")["type"], "integer");
    assert_eq!(param("hours")["default"], 24);
    assert_eq!(param("day")["type"], "array");
    assert_eq!(
        param("lat")["description"],
        "Latitude of the location (e.g., 48.8566)"
    );
    assert_eq!(
        tool(&found, "forecast")["description"],
        "Daily forecast for a location (simulated data)"
    );
    let convert = &tool(&found, "convert")["schema"]["parameters"];
    assert_eq!(convert[0]["name"], "value");
    assert_eq!(convert[0]["required"], true);

    assert!(
        skipped(&found, "helpers.py").starts_with("not a tool"),
        "{found:#}"
    );
    let slow = skipped(&found, "slow.py");
    assert!(
        slow.contains("did not answer") && slow.contains("2000 ms"),
        "{slow}"
    );
    let noisy = skipped(&found, "noisy.py");
    assert!(noisy.contains("loading configuration..."), "{noisy}");
    assert!(noisy.contains("print logs on stderr"), "{noisy}");
    // Nothing was written without --write.
    assert!(!dir.join("agx.toml").exists());
    assert!(found["written"].is_null());
}

#[test]
fn a_written_package_validates_installs_and_runs_every_input_style() {
    let home = TestHome::new();
    let dir = scripts_copy(&home);
    let found = discover_json(&home, &dir, &["--write", "--name", "fixture/scripts"]);
    assert_eq!(found["written"]["package"], "fixture/scripts");
    assert_eq!(found["written"]["server"], "fixture/scripts/scripts");

    home.agx()
        .env("AGX_PROBE_TIMEOUT_MS", TIMEOUT_MS)
        .args(["validate", "--probe"])
        .arg(&dir)
        .assert()
        .success();
    home.agx().arg("install").arg(&dir).assert().success();

    let call = |tool: &str, args: &[&str]| {
        let out = home
            .agx()
            .args(["call", &format!("fixture/scripts/{tool}")])
            .args(args.iter().flat_map(|a| ["--arg", a]))
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    // argv-json, with the schema the script dumped.
    let (ok, text) = call("weather", &["city=Oslo", "units=metric"]);
    assert!(ok && text.contains(r#""city":"Oslo""#), "{text}");
    // `{"error": …}` and a failed exit: the tool's own words.
    let (ok, text) = call("weather", &["city=Atlantis"]);
    assert!(!ok && text.contains("no such city: Atlantis"), "{text}");
    // argv-json through a multi-schema script.
    let (ok, text) = call("upper", &["text=quiet words"]);
    assert!(ok && text.contains("QUIET WORDS"), "{text}");
    let (ok, text) = call("count_words", &["text=one two three"]);
    assert!(ok && text.contains(r#""words":3"#), "{text}");
    // A self-test-only script takes any object.
    let (ok, text) = call("stamp", &["anything=1"]);
    assert!(
        ok && text.contains(r#""received""#) && text.contains("anything"),
        "{text}"
    );
    // argv-flags: values, a bare boolean flag, a flag left out when false.
    let (ok, text) = call("forecast", &["lat=59.9", "lon=10.7", "verbose=true"]);
    assert!(
        ok && text.contains(r#""lat":59.9"#) && text.contains("summary"),
        "{text}"
    );
    let (ok, text) = call("convert", &["value=100", "round=true"]);
    assert!(ok && text.contains(r#""value":212"#), "{text}");
    let (ok, text) = call("convert", &["value=100", "round=false", "to=C"]);
    assert!(ok && text.contains(r#""unit":"C""#), "{text}");

    // Run again: every script has its definition now, and --write changes nothing.
    let before = tree(&dir);
    let again = discover_json(&home, &dir, &["--write"]);
    assert_eq!(again["discovery"]["tools"], serde_json::json!([]));
    assert_eq!(
        again["discovery"]["declared"].as_array().unwrap().len(),
        5,
        "{again:#}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn an_existing_package_gains_only_what_it_does_not_declare() {
    let home = TestHome::new();
    let dir = home.home().join("pkg");
    let manifest = "# my package\n[package]\nname = \"acme/mine\"\nversion = \"1.0.0\"\n\n[extension]\nservers = [\"main\"]\ntools = [\"old\"]  # kept\n";
    write_files(
        &dir,
        &[
            ("agx.toml", manifest),
            (
                "agx/servers.toml",
                "[main]\ndescription = \"Mine\"\ntools = [\"old\"]\n",
            ),
            (
                "agx/tools.toml",
                "[old]\ndescription = \"Declared by hand\"\ncommand = [\"sh\", \"old.sh\"]\n",
            ),
            ("old.sh", "#!/bin/sh\necho '{\"old\": true}'\n"),
            (
                "fresh.sh",
                "#!/bin/sh\n# fresh: says hello\necho '{\"hello\": true}'\n",
            ),
        ],
    );
    // A definition file that exists is never overwritten.
    write_file(&dir.join("agx/tools/taken.toml"), "# mine\n");
    write_file(&dir.join("taken.sh"), "#!/bin/sh\necho '{}'\n");

    let found = discover_json(&home, &dir, &["--write"]);
    assert_eq!(
        found["discovery"]["declared"],
        serde_json::json!(["old.sh"])
    );
    assert_eq!(found["written"]["new_package"], false);
    assert_eq!(
        found["written"]["left_alone"],
        serde_json::json!(["agx/tools/taken.toml"])
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("agx/tools/taken.toml")).unwrap(),
        "# mine\n"
    );
    let updated = std::fs::read_to_string(dir.join("agx.toml")).unwrap();
    assert_eq!(
        updated,
        manifest.replace(r#"tools = ["old"]"#, r#"tools = ["old", "fresh"]"#)
    );
    let fresh = std::fs::read_to_string(dir.join("agx/tools/fresh.toml")).unwrap();
    assert!(
        fresh.contains(r#"description = "fresh: says hello""#),
        "{fresh}"
    );
}

#[test]
fn a_folder_with_a_broken_agx_toml_is_refused_with_the_fix() {
    let home = TestHome::new();
    let dir = home.home().join("broken");
    write_files(&dir, &[("agx.toml", "[package\n"), ("a.sh", "echo '{}'\n")]);
    let out = home.agx().arg("discover").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("does not load"), "{err}");
    assert!(err.contains("agx validate"), "{err}");
}

#[cfg(unix)]
#[test]
fn probes_run_confined() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let home = TestHome::new();
    let dir = home.home().join("hostile");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let outside = home.home().join("escaped.txt");
    let script = format!(
        r#"#!/usr/bin/env python3
"""Tries to escape while probed."""
import json, os, socket, sys
tried = {{}}
for name, path in [("outside", {outside:?}), ("folder", "planted.txt"),
                   ("scratch", os.path.join(os.environ.get("TMPDIR", "/tmp"), "ok.txt"))]:
    try:
        with open(path, "w") as f:
            f.write("x")
        tried[name] = "written"
    except OSError as e:
        tried[name] = "denied"
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=1).close()
    tried["socket"] = "connected"
except OSError:
    tried["socket"] = "denied"
print(json.dumps(tried))
"#
    );
    write_file(&dir.join("escape.py"), script);
    let found = discover_json(&home, &dir, &[]);
    // It ran (and answered the self-test), so it tried everything below.
    assert_eq!(
        found["discovery"]["tools"][0]["name"], "escape",
        "{found:#}"
    );
    assert!(!outside.exists(), "a probe wrote outside its folder");
    assert!(
        !dir.join("planted.txt").exists(),
        "a probe wrote into its folder"
    );
    assert!(
        listener.accept().is_err(),
        "a probe reached a loopback socket"
    );
}
