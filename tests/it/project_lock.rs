//! Integration tests: agx.lock integrity (docs/projects.md, "The lock"). A lock edited to
//! launch another package, another version or another command is refused by `sync
//! --locked`, `--frozen` and `--check`, naming the entry, the field and its line, and no
//! client file changes; an untouched lock still works.

use std::fs;

use serde_json::json;
use sha2::{Digest, Sha256};

use crate::project::{Setup, TEAM};

/// The fixture registry's sha256 of acme/weather 1.2.0 and contoso/web 2.1.0.
const WEATHER_1_2_0: &str = "4e99a1cf0c6e80495cb4c297e394d72111f5e606415926547fb7621dd1ccba19";
const WEB_2_1_0: &str = "a2d7ed9066ebca0ea3687fd92c37be365a417fd4b3e04e54c3f0f62ce75a9577";

/// The `entry` hash a lock records for a committed entry, computed as an attacker would to
/// make an edited lock look consistent.
fn entry_hash(launches: &str, version: &str, extra: &[&str]) -> String {
    let mut args = vec!["serve".to_string(), format!("{launches}@={version}")];
    if !extra.is_empty() {
        args.push("--".into());
        args.extend(extra.iter().map(|a| a.to_string()));
    }
    let canonical = json!({ "command": "agx", "args": args, "env": {} });
    format!(
        "sha256:{}",
        hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
    )
}

/// A project with `weather` locked at acme/weather 1.1.0 and synced.
fn locked() -> (Setup, String) {
    let s = Setup::new(TEAM);
    s.ok(&["add", "acme/weather/forecast@~1.1", "--name", "weather"]);
    let lock = s.read("agx.lock");
    assert!(
        lock.contains(&format!(
            "entry = \"{}\"",
            entry_hash("acme/weather/forecast", "1.1.0", &[])
        )),
        "the test computes the lock's entry hash as agx does:\n{lock}"
    );
    (s, lock)
}

/// The 1-based line of the first line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no `{start}` in\n{text}"))
        + 1
}

/// Write `poisoned` as agx.lock and check that every mode refuses it, naming `weather`,
/// `field` and the line that starts with `line_start`, and changes no client file.
fn refused_everywhere(s: &Setup, poisoned: &str, field: &str, line_start: &str) {
    fs::write(s.project.join("agx.lock"), poisoned).unwrap();
    let mcp = s.read(".mcp.json");
    let line = line_of(poisoned, line_start);
    for mode in ["--locked", "--frozen", "--check"] {
        let text = s.fails(&["sync", mode]);
        assert!(
            text.contains(&format!("agx.lock:{line}:")),
            "sync {mode}: no line {line}:\n{text}"
        );
        assert!(
            text.contains(&format!("`{field}` of server `weather`")),
            "sync {mode}: field `{field}` not named:\n{text}"
        );
        assert!(text.contains("agx lock"), "sync {mode}: no hint:\n{text}");
        assert_eq!(s.read(".mcp.json"), mcp, "sync {mode} changed .mcp.json");
        assert_eq!(s.read("agx.lock"), poisoned, "sync {mode} changed agx.lock");
    }
}

#[test]
fn a_lock_edited_to_launch_another_package_is_refused() {
    let (s, good) = locked();
    let poisoned = good
        .replace(
            "launches = \"acme/weather/forecast\"\npackage = \"acme/weather\"\nversion = \"1.1.0\"",
            "launches = \"contoso/web/web\"\npackage = \"contoso/web\"\nversion = \"2.1.0\"",
        )
        .replace(
            &entry_hash("acme/weather/forecast", "1.1.0", &[]),
            &entry_hash("contoso/web/web", "2.1.0", &[]),
        );
    let source = good
        .lines()
        .find(|l| l.starts_with("source = "))
        .unwrap()
        .to_string();
    let poisoned = format!(
        "{poisoned}\n[[package]]\nname = \"contoso/web\"\nversion = \"2.1.0\"\n{source}\nsha256 = \"{WEB_2_1_0}\"\n"
    );
    assert_ne!(poisoned, good);
    refused_everywhere(&s, &poisoned, "package", "package = \"contoso/web\"");
    assert!(!s.read(".mcp.json").contains("contoso"));
}

#[test]
fn a_lock_edited_to_launch_another_version_is_refused() {
    let (s, good) = locked();
    // The server's version alone: the lock's package stays 1.1.0.
    let server_only = good
        .replacen("version = \"1.1.0\"", "version = \"1.2.0\"", 1)
        .replace(
            &entry_hash("acme/weather/forecast", "1.1.0", &[]),
            &entry_hash("acme/weather/forecast", "1.2.0", &[]),
        );
    assert!(server_only.contains("sha256 = \"14380e49"), "{server_only}");
    refused_everywhere(&s, &server_only, "version", "version = \"1.2.0\"");

    // Server and package both moved to 1.2.0 with its real hash: outside `~1.1`.
    let both = server_only
        .replace(
            "name = \"acme/weather\"\nversion = \"1.1.0\"",
            "name = \"acme/weather\"\nversion = \"1.2.0\"",
        )
        .replace(
            "14380e49690729179d6b65d616c06d37b14a87427bd1c45ea29eb132a95dd97c",
            WEATHER_1_2_0,
        );
    assert_ne!(both, server_only);
    refused_everywhere(&s, &both, "version", "version = \"1.2.0\"");
    assert!(s.read(".mcp.json").contains("@=1.1.0"));
}

#[test]
fn a_lock_edited_to_launch_another_command_is_refused() {
    let (s, good) = locked();
    // Another item of the same package, with the entry hash made to match.
    let launches = good
        .replace(
            "launches = \"acme/weather/forecast\"",
            "launches = \"acme/weather/alerts\"",
        )
        .replace(
            &entry_hash("acme/weather/forecast", "1.1.0", &[]),
            &entry_hash("acme/weather/alerts", "1.1.0", &[]),
        );
    refused_everywhere(&s, &launches, "launches", "launches = ");

    // The entry hash alone: it no longer describes the locked fields.
    let entry = good.replace(
        &entry_hash("acme/weather/forecast", "1.1.0", &[]),
        &entry_hash("acme/weather/forecast", "1.1.0", &["--evil"]),
    );
    refused_everywhere(&s, &entry, "entry", "entry = ");

    // Put back, the untouched lock works in every mode again.
    fs::write(s.project.join("agx.lock"), &good).unwrap();
    for mode in ["--locked", "--frozen", "--check"] {
        s.ok(&["sync", mode]);
    }
    s.ok(&["sync"]);
    assert_eq!(s.read("agx.lock"), good);
}

#[test]
fn a_package_target_launches_only_the_server_its_locked_version_offers() {
    let s = Setup::new(TEAM);
    s.ok(&["add", "acme/weather", "--name", "weather"]);
    let good = s.read("agx.lock");
    assert!(
        good.contains("launches = \"acme/weather/forecast\""),
        "{good}"
    );
    // `acme/weather/alerts` is in the package the lock names, but no server of it.
    let poisoned = good
        .replace(
            "launches = \"acme/weather/forecast\"",
            "launches = \"acme/weather/alerts\"",
        )
        .replace(
            &entry_hash("acme/weather/forecast", "1.2.0", &[]),
            &entry_hash("acme/weather/alerts", "1.2.0", &[]),
        );
    assert_ne!(poisoned, good);
    refused_everywhere(&s, &poisoned, "launches", "launches = ");
    fs::write(s.project.join("agx.lock"), &good).unwrap();
    s.ok(&["sync", "--check"]);
}
