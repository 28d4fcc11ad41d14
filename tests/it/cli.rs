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
            "list",
            "search",
            "info",
            "validate",
            "pack",
            "registry",
            "install-server",
            "uninstall-server",
            "clients",
            "doctor",
            "serve",
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
