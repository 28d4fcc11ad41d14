//! Integration tests: the command-line face (help, errors, exit codes).

use crate::support::TestHome;

#[test]
fn help_lists_every_command() {
    let home = TestHome::new();
    let out = home.agx().arg("--help").assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    for cmd in [
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
    ] {
        assert!(text.contains(cmd), "--help does not mention {cmd}");
    }
}

#[test]
fn usage_error_exits_2() {
    let home = TestHome::new();
    home.agx().arg("frobnicate").assert().code(2);
}
