//! Integration tests: the command-line face (help, errors, exit codes).

use crate::support::{TestHome, outcome};

/// The first word of each line in the `Commands:` section of `agx --help`.
fn help_commands(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .collect()
}

/// A doc comment on a struct that commands flatten in would replace their titles: each
/// command's own help starts with the summary `agx --help` gives it.
#[test]
fn each_commands_help_starts_with_its_summary() {
    let home = TestHome::new();
    let out = home.agx().arg("--help").assert().success();
    let help = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let rows = help
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "));
    for row in rows {
        let (command, summary) = row.trim().split_once(' ').unwrap();
        if command == "help" {
            continue;
        }
        let out = home.agx().args([command, "--help"]).assert().success();
        let own = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        let title = own.lines().next().unwrap_or_default();
        let summary = summary.trim();
        assert!(
            title.starts_with(summary) || summary.starts_with(title),
            "`agx {command} --help` starts with {title:?}, not its summary {summary:?}"
        );
    }
}

#[test]
fn help_lists_every_command() {
    let home = TestHome::new();
    let out = home.agx().arg("--help").assert().success();
    let help = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(
        help_commands(&help),
        [
            "install",
            "uninstall",
            "update",
            "outdated",
            "gc",
            "list",
            "search",
            "info",
            "tools",
            "trust",
            "new",
            "discover",
            "validate",
            "audit",
            "verify",
            "pack",
            "publish",
            "sbom",
            "login",
            "logout",
            "auth",
            "export",
            "registry",
            "install-server",
            "uninstall-server",
            "install-skill",
            "uninstall-skill",
            "clients",
            "doctor",
            "config",
            "permissions",
            "policy",
            "serve",
            "call",
            "prompt",
            "add",
            "remove",
            "lock",
            "sync",
            "tree",
            "completions",
            "help",
        ],
        "{help}"
    );
}

#[test]
fn usage_error_exits_2() {
    let home = TestHome::new();
    let _filters = home.snapshot_filters();
    insta::assert_snapshot!(outcome(home.agx().arg("frobnicate")));
}

/// `agx … | head -1`: a reader that goes away early. Every command that writes results ends
/// quietly with success, never an error or a panic.
#[test]
fn a_closed_stdout_pipe_ends_commands_quietly() {
    let home = TestHome::new();
    let registry = crate::support::fixtures().join("registry");
    home.agx()
        .args(["--registry"])
        .arg(&registry)
        .args(["install", "acme/weather"])
        .assert()
        .success();
    let commands: [&[&str]; 6] = [
        &["completions", "bash"],
        &["list"],
        &["list", "--json"],
        &["info", "acme/weather"],
        &["search", "weather"],
        &["clients"],
    ];
    for args in commands {
        let mut command = home.command(crate::support::AGX);
        command
            .arg("--registry")
            .arg(&registry)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = command.spawn().expect("agx starts");
        // Close the reading end before agx writes: its first write meets a closed pipe.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("agx ends");
        assert!(
            out.status.success(),
            "agx {args:?} exited {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "",
            "agx {args:?} said something on stderr"
        );
    }
}
