//! Files generated from the clap definitions: shell completions (`completions/`) and man
//! pages (`man/`). `cargo run --example generate` writes them; `tests/it/generated.rs`
//! includes this file too and fails when the committed copies are stale.

use std::path::PathBuf;

use clap::CommandFactory;
use clap_complete::Shell;

use agx::cli::Cli;

/// The folders that hold nothing but generated files.
pub(super) const DIRS: [&str; 2] = ["completions", "man"];

/// Every generated file: path relative to the repository root, and its contents.
pub(super) fn all_files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = completions();
    files.extend(man_pages());
    files
}

/// Completion scripts for every supported shell.
pub(super) fn completions() -> Vec<(PathBuf, Vec<u8>)> {
    let shells = [
        (Shell::Bash, "agx.bash"),
        (Shell::Zsh, "_agx"),
        (Shell::Fish, "agx.fish"),
        (Shell::PowerShell, "_agx.ps1"),
        (Shell::Elvish, "agx.elv"),
    ];
    shells
        .into_iter()
        .map(|(shell, file)| {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "agx", &mut out);
            (PathBuf::from("completions").join(file), out)
        })
        .collect()
}

/// `agx.1` and one page per subcommand (`agx-install.1`, `agx-registry-add.1`, …).
pub(super) fn man_pages() -> Vec<(PathBuf, Vec<u8>)> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut pages = Vec::new();
    collect_pages(&cmd, "agx", &mut pages);
    pages
}

fn collect_pages(cmd: &clap::Command, name: &str, pages: &mut Vec<(PathBuf, Vec<u8>)>) {
    let page_cmd = cmd.clone().name(name.to_string());
    let mut out = Vec::new();
    clap_mangen::Man::new(page_cmd)
        .render(&mut out)
        .expect("rendering a man page into memory cannot fail");
    pages.push((PathBuf::from("man").join(format!("{name}.1")), out));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        collect_pages(sub, &format!("{name}-{}", sub.get_name()), pages);
    }
}
