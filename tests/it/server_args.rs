//! Integration tests: arguments for wrapped servers (docs/serve.md, "Arguments") —
//! `agx serve REF -- ARG…`, `agx install-server CLIENT REF -- ARG…` and a project's
//! `[servers] KEY = { …, args = [...] }`, with a wrapped server whose command prints the
//! arguments it was started with; and the refusal for an agx server.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::support::{Fixture, TestHome, outcome_of, write_files};

/// A package `acme/argv` 1.0.0 whose only server wraps a command that prints its own
/// arguments as a JSON array and exits.
fn argv_package(root: &Path) -> PathBuf {
    let dir = root.join("acme-argv");
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                "[package]\nname = \"acme/argv\"\nversion = \"1.0.0\"\ndescription = \"Prints its arguments\"\n\n[extension]\nservers = [\"main\"]\n",
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\ncommand = [\"python3\", \"bin/argv.py\", \"--own\"]\n",
            ),
            (
                "bin/argv.py",
                "import json, sys\nprint(json.dumps(sys.argv[1:]))\n",
            ),
        ],
    );
    dir
}

/// The arguments the wrapped server printed.
fn printed(out: &Output) -> Value {
    assert!(out.status.success(), "{}", outcome_of(out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", outcome_of(out)))
}

const ARGS: [&str; 4] = ["--db-path", "a b", "--", "-x"];

#[test]
fn serve_appends_arguments_to_a_wrapped_server_command() {
    let home = TestHome::new();
    let package = argv_package(home.home());
    home.agx().arg("install").arg(&package).assert().success();
    // Handed off to agx-serve before clap, and served by agx itself.
    for no_handoff in [false, true] {
        let mut cmd = home.command(crate::support::AGX);
        if no_handoff {
            cmd.env("AGX_NO_SERVE_HANDOFF", "1");
        }
        let out = cmd
            .args(["serve", "acme/argv", "--"])
            .args(ARGS)
            .output()
            .unwrap();
        assert_eq!(
            printed(&out),
            json!(["--own", "--db-path", "a b", "--", "-x"])
        );
    }
    let out = home
        .command(crate::support::AGX)
        .args(["serve", "acme/argv"])
        .output()
        .unwrap();
    assert_eq!(printed(&out), json!(["--own"]));
}

#[test]
fn an_agx_server_refuses_arguments() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    for no_handoff in [false, true] {
        let mut cmd = home.command(crate::support::AGX);
        if no_handoff {
            cmd.env("AGX_NO_SERVE_HANDOFF", "1");
        }
        let out = cmd
            .args(["serve", "acme/weather/forecast", "--", "x"])
            .output()
            .unwrap();
        let text = outcome_of(&out);
        assert!(!out.status.success(), "{text}");
        assert!(
            text.contains(
                "acme/weather/forecast takes no arguments after `--`: it is an agx server"
            ),
            "{text}"
        );
        assert!(text.contains("agx config list acme/weather"), "{text}");
    }
}

#[test]
fn install_server_writes_the_arguments_into_the_entry() {
    let fixture = Fixture::new();
    let home = fixture.home_with(&["acme/weather"]);
    let package = argv_package(home.home());
    home.agx().arg("install").arg(&package).assert().success();
    let config = home.home().join(".claude.json");
    let install = |server: &str, args: &[&str]| {
        home.agx()
            .args(["install-server", "claude-code", server, "--"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = install("acme/weather/forecast", &["x"]);
    assert!(!out.status.success(), "{}", outcome_of(&out));
    assert!(
        outcome_of(&out).contains("takes no arguments after `--`"),
        "{}",
        outcome_of(&out)
    );
    assert!(!config.exists(), "nothing written");

    let out = install("acme/argv", &ARGS);
    assert!(out.status.success(), "{}", outcome_of(&out));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    let entry = &written["mcpServers"]["main"];
    assert_eq!(
        entry["args"],
        json!([
            "serve",
            "acme/argv/main",
            "--",
            "--db-path",
            "a b",
            "--",
            "-x"
        ])
    );
    // What the client runs: the entry's command and arguments.
    let args: Vec<String> = serde_json::from_value(entry["args"].clone()).unwrap();
    let out = home
        .command(entry["command"].as_str().unwrap())
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(
        printed(&out),
        json!(["--own", "--db-path", "a b", "--", "-x"])
    );

    // It is still agx's entry: uninstall-server finds it by the server it launches.
    home.agx()
        .args(["uninstall-server", "claude-code", "acme/argv/main"])
        .assert()
        .success();
    assert!(
        !std::fs::read_to_string(&config)
            .unwrap()
            .contains("acme/argv")
    );
}

fn entry_hash(args: &[&str]) -> String {
    let canonical = json!({ "command": "agx", "args": args, "env": {} });
    format!(
        "sha256:{}",
        hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
    )
}

#[test]
fn project_args_are_locked_hashed_and_written() {
    let home = TestHome::new();
    let registry = home.home().join("reg");
    home.agx()
        .args(["registry", "init"])
        .arg(&registry)
        .assert()
        .success();
    let package = argv_package(&home.home().join("src"));
    home.agx()
        .args(["registry", "add"])
        .arg(&registry)
        .arg(&package)
        .assert()
        .success();
    let project = home.home().join("repo");
    write_files(
        &project,
        &[(
            "agx.toml",
            "[project]\nclients = [\"claude-code\"]\n[servers]\nargv = { server = \"acme/argv/main\", version = \"^1\", args = [\"--db-path\", \"a b\"] }\n",
        )],
    );
    let agx = |args: &[&str]| {
        home.agx()
            .env("AGX_REGISTRY", &registry)
            .current_dir(&project)
            .args(args)
            .output()
            .unwrap()
    };
    let out = agx(&["sync"]);
    assert!(out.status.success(), "{}", outcome_of(&out));
    let entry_args = ["serve", "acme/argv/main@=1.0.0", "--", "--db-path", "a b"];
    let lock = std::fs::read_to_string(project.join("agx.lock")).unwrap();
    assert!(lock.contains("args = [\"--db-path\", \"a b\"]"), "{lock}");
    assert!(
        lock.contains(&format!("entry = \"{}\"", entry_hash(&entry_args))),
        "{lock}"
    );
    let mcp: Value =
        serde_json::from_str(&std::fs::read_to_string(project.join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(mcp["mcpServers"]["argv"]["args"], json!(entry_args));
    // The committed entry, run in the project as a client would.
    let out = home
        .command(crate::support::AGX)
        .current_dir(&project)
        .args(entry_args)
        .output()
        .unwrap();
    assert_eq!(printed(&out), json!(["--own", "--db-path", "a b"]));
    for mode in ["--locked", "--frozen", "--check"] {
        let out = agx(&["sync", mode]);
        assert!(out.status.success(), "{mode}: {}", outcome_of(&out));
    }

    // The lock's args edited (with a matching entry hash) launch another command: refused.
    let evil = ["serve", "acme/argv/main@=1.0.0", "--", "--db-path", "/etc"];
    let poisoned = lock
        .replace(
            "args = [\"--db-path\", \"a b\"]",
            "args = [\"--db-path\", \"/etc\"]",
        )
        .replace(&entry_hash(&entry_args), &entry_hash(&evil));
    assert_ne!(poisoned, lock);
    std::fs::write(project.join("agx.lock"), &poisoned).unwrap();
    for (mode, message) in [
        ("--locked", "`argv` changed in agx.toml"),
        ("--check", "lock stale: `argv` changed in agx.toml"),
        ("--frozen", "`args` of server `argv`"),
    ] {
        let out = agx(&["sync", mode]);
        assert!(!out.status.success(), "{mode}: {}", outcome_of(&out));
        assert!(
            outcome_of(&out).contains(message),
            "{mode}: {}",
            outcome_of(&out)
        );
    }
    assert!(
        !std::fs::read_to_string(project.join(".mcp.json"))
            .unwrap()
            .contains("/etc")
    );

    // New args in agx.toml: a plain sync relocks and rewrites the entry.
    std::fs::write(
        project.join("agx.toml"),
        "[project]\nclients = [\"claude-code\"]\n[servers]\nargv = { server = \"acme/argv/main\", version = \"^1\", args = [\"stdio\"] }\n",
    )
    .unwrap();
    let out = agx(&["sync"]);
    assert!(out.status.success(), "{}", outcome_of(&out));
    let mcp: Value =
        serde_json::from_str(&std::fs::read_to_string(project.join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(
        mcp["mcpServers"]["argv"]["args"],
        json!(["serve", "acme/argv/main@=1.0.0", "--", "stdio"])
    );
}
