//! Snapshot support: a command's whole outcome (exit code, stdout, stderr) as one text, and
//! the insta filters that replace what differs between runs and machines.
//!
//! ```ignore
//! let _filters = home.snapshot_filters();
//! insta::assert_snapshot!("unknown_client", outcome(home.agx().args(["install-server", "cursr", "x"])));
//! ```

use std::path::Path;
use std::process::Output;

use super::{AGX, AGX_SERVE, TestHome, repo_root};

/// Run `cmd` and render its outcome.
pub(crate) fn outcome(cmd: &mut assert_cmd::Command) -> String {
    outcome_of(&cmd.output().expect("the command runs"))
}

/// `exit: N`, then stdout and stderr under their own headers.
pub(crate) fn outcome_of(out: &Output) -> String {
    let exit = match out.status.code() {
        Some(code) => code.to_string(),
        None => out.status.to_string(),
    };
    let mut text = format!("exit: {exit}\n");
    for (name, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        text.push_str(&format!("----- {name} -----\n"));
        text.push_str(&String::from_utf8_lossy(bytes));
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

/// Filters for text that names temp folders, the binaries under test, the repository,
/// loopback ports and process ids; active until the returned guard is dropped.
pub(crate) fn snapshot_filters() -> insta::internals::SettingsBindDropGuard {
    filters(&[]).bind_to_scope()
}

impl TestHome {
    /// [`snapshot_filters`], with this home's folder shown as `[HOME]`.
    pub(crate) fn snapshot_filters(&self) -> insta::internals::SettingsBindDropGuard {
        filters(&[(self.home(), "[HOME]")]).bind_to_scope()
    }
}

/// `named` paths first, then the generic ones, most specific first: the binaries live
/// inside the repository, and any other temp folder is replaced as a whole (`[TMP]`) so
/// that its random name never reaches a snapshot.
fn filters(named: &[(&Path, &str)]) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let mut add = |path: &Path, suffix: &str, replacement: &str| {
        for pattern in path_patterns(path) {
            settings.add_filter(&format!("{pattern}{suffix}"), replacement);
        }
    };
    for (path, replacement) in named {
        add(path, "", replacement);
    }
    add(Path::new(AGX_SERVE), "", "[AGX_SERVE]");
    add(Path::new(AGX), "", "[AGX]");
    // tempfile names its folders `.tmp` and six random characters.
    add(&std::env::temp_dir(), r"/\.tmp[A-Za-z0-9]{6}", "[TMP]");
    add(&repo_root(), "", "[REPO]");
    settings.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]");
    // The store's unique names for staging files: `install-<pid>-<counter>-<nanoseconds>`.
    settings.add_filter(r"-\d+-\d+-[0-9a-f]{8}\b", "-[PID]-[N]-[NANOS]");
    // What the machine's kernel enforces (`agx doctor`): differs from machine to machine.
    settings.add_filter(r"(?m)^( *)Sandbox .*$", "${1}Sandbox [MACHINE]");
    settings
}

/// Regexes matching `path` as written and as canonicalized (they differ when a parent is a
/// symbolic link), longest first.
fn path_patterns(path: &Path) -> Vec<String> {
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut forms: Vec<String> = [canonical.as_path(), path]
        .iter()
        .map(|p| p.display().to_string().trim_end_matches('/').to_string())
        .collect();
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms.dedup();
    forms.iter().map(|f| regex::escape(f)).collect()
}
