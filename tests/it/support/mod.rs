//! Shared test support: temporary homes, the agx command, files and trees, snapshots, the
//! fixture HTTP server.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub(crate) mod http;
pub(crate) mod oci_registry;
pub(crate) mod serve_lines;
pub(crate) mod snapshot;

pub(crate) use snapshot::{outcome, outcome_of, snapshot_filters};

/// The agx binary under test.
pub(crate) const AGX: &str = env!("CARGO_BIN_EXE_agx");

/// The agx-serve binary under test (the runtime `agx serve` hands off to).
pub(crate) const AGX_SERVE: &str = env!("CARGO_BIN_EXE_agx-serve");

/// A temporary HOME with AGX_HOME inside it; dropped at the end of the test.
pub(crate) struct TestHome {
    pub dir: tempfile::TempDir,
}

impl TestHome {
    pub(crate) fn new() -> Self {
        TestHome {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub(crate) fn home(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn agx_home(&self) -> PathBuf {
        self.dir.path().join("agx-home")
    }

    /// Where this home's agx reads the system policy (absent unless a test writes it).
    pub(crate) fn system_policy(&self) -> PathBuf {
        self.dir.path().join("system-policy.toml")
    }

    /// `agx` with this home's environment (see [`TestHome::command`]).
    pub(crate) fn agx(&self) -> assert_cmd::Command {
        assert_cmd::Command::from_std(self.command(AGX))
    }

    /// `program` with HOME, AGX_HOME and XDG folders pointing into this temp dir, no colour,
    /// no progress bars, no registry inherited from the environment, and the built-in
    /// `official` source off (`AGX_OFFICIAL_REGISTRY=off`: no test reaches the real MCP
    /// Registry; the test of the default unsets it). A std command, for processes a test
    /// pipes, kills or hands to tokio.
    pub(crate) fn command(&self, program: impl AsRef<OsStr>) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home())
            .env("AGX_HOME", self.agx_home())
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env("XDG_DATA_HOME", self.home().join(".local/share"))
            .env("XDG_CACHE_HOME", self.home().join(".cache"))
            .env("NO_COLOR", "1")
            .env("AGX_NO_PROGRESS", "1")
            .env("AGX_OFFICIAL_REGISTRY", "off")
            // Never the machine's own system policy (a debug build reads this instead).
            .env("AGX_SYSTEM_POLICY", self.system_policy())
            .current_dir(self.home());
        cmd
    }
}

/// agx makes installed versions read-only: make the home writable again, so the temp dir
/// can be removed.
impl Drop for TestHome {
    fn drop(&mut self) {
        make_writable(self.home());
    }
}

/// Give the owner write permission on every file and folder of `root` (links untouched).
pub(crate) fn make_writable(root: &Path) {
    let Ok(meta) = fs::symlink_metadata(root) else {
        return;
    };
    if meta.file_type().is_symlink() {
        return;
    }
    let mut permissions = meta.permissions();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        permissions.set_mode(permissions.mode() | 0o200);
    }
    #[cfg(windows)]
    #[allow(clippy::permissions_set_readonly_false)] // Windows: clears the attribute only.
    permissions.set_readonly(false);
    let _ = fs::set_permissions(root, permissions);
    if meta.is_dir()
        && let Ok(entries) = fs::read_dir(root)
    {
        for entry in entries.flatten() {
            make_writable(&entry.path());
        }
    }
}

/// The repository's root (where Cargo.toml is).
pub(crate) fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `registry-fixtures/` in the repository.
pub(crate) fn fixtures() -> PathBuf {
    repo_root().join("registry-fixtures")
}

/// Copy a folder tree (files keep their permissions).
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Write a file, creating its folders.
pub(crate) fn write_file(path: &Path, contents: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

/// Write files (path relative to `dir`, contents) under `dir`.
pub(crate) fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (rel, contents) in files {
        write_file(&dir.join(rel), contents);
    }
}

/// Every path below `root`, relative and with `/` after folders, mapped to `dir` for a
/// folder and `<size> <sha256>` for anything else (links are not followed): compare two
/// listings to prove that nothing changed.
pub(crate) fn tree(root: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                out.insert(rel + "/", "dir".to_string());
                stack.push(path);
            } else {
                let hash = hex::encode(Sha256::digest(fs::read(&path).unwrap()));
                out.insert(rel, format!("{} {hash}", meta.len()));
            }
        }
    }
    out
}

/// Write a small valid package `<root>/<publisher>-<name>-<version>/` (one tool, one
/// server `main` offering it; `deps` as `("acme/geo", "^1.0")`) and return its folder.
pub(crate) fn write_package(
    root: &Path,
    name: &str,
    version: &str,
    deps: &[(&str, &str)],
    tool: &str,
) -> PathBuf {
    let dir = root.join(format!("{}-{version}", name.replace('/', "-")));
    let deps: String = deps
        .iter()
        .map(|(d, r)| format!("\"{d}\" = \"{r}\"\n"))
        .collect();
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"{name}\"\nversion = \"{version}\"\ndescription = \"The {name} package\"\n\n[dependencies]\n{deps}\n[extension]\nservers = [\"main\"]\ntools = [\"{tool}\"]\n"
                ),
            ),
            (
                &format!("agx/tools/{tool}.toml"),
                &format!(
                    "name = \"{tool}\"\ndescription = \"Does {tool}\"\ncommand = [\"python3\", \"bin/{tool}.py\"]\n"
                ),
            ),
            (
                "agx/servers/main.toml",
                &format!("name = \"main\"\ntools = [\"{tool}\"]\n"),
            ),
        ],
    );
    dir
}

/// The fixture registry (registry-fixtures/registry: acme/geo 1.0.0, acme/weather 1.1.0 and
/// 1.2.0, acme/docs, contoso/web, acme/research), copied to a temp folder and served over
/// HTTP on 127.0.0.1.
pub(crate) struct Fixture {
    _copy: tempfile::TempDir,
    pub server: http::HttpServer,
}

impl Fixture {
    pub(crate) fn new() -> Fixture {
        let copy = tempfile::tempdir().unwrap();
        copy_tree(&fixtures().join("registry"), copy.path());
        Fixture {
            server: http::HttpServer::serve(copy.path()),
            _copy: copy,
        }
    }

    /// `agx` in `home` using this registry over HTTP.
    pub(crate) fn agx(&self, home: &TestHome) -> assert_cmd::Command {
        let mut cmd = home.agx();
        cmd.env("AGX_REGISTRY", self.server.url());
        cmd
    }

    /// A new home with `packages` installed from this registry.
    pub(crate) fn home_with(&self, packages: &[&str]) -> TestHome {
        let home = TestHome::new();
        self.agx(&home)
            .arg("install")
            .args(packages)
            .assert()
            .success();
        home
    }
}

/// Every file under `root` that holds `needle`.
pub(crate) fn files_holding(root: &std::path::Path, needle: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && std::fs::read(&path)
                    .is_ok_and(|b| b.windows(needle.len()).any(|w| w == needle.as_bytes()))
            {
                found.push(path);
            }
        }
    }
    found
}
