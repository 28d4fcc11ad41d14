//! The folders a confined program needs besides its permissions: the installation of the
//! program and of the interpreter it runs, and those of the programs on `PATH` (Linux and
//! macOS rules grant them read-only; docs/sandbox.md, "Installations").
//!
//! An installation is the prefix of `<prefix>/bin` (or `sbin`, or a version manager's
//! `shims`). What of it is granted depends on where it is and who chose it:
//!
//! - the home folder itself, or a folder above it, is never granted (`~/bin/py` gives the
//!   program file only, not the home);
//! - inside the home, only the prefix's installation folders are: its subfolders but
//!   `share`, `etc`, `state`, `var` and hidden ones, and none of its files — so `~/.local/bin`
//!   gives `~/.local/bin` and `~/.local/lib`, not `~/.local/share` (keyrings, other
//!   programs' data), and `~/.cargo/bin` gives `~/.cargo/bin` and the crate sources, not
//!   `~/.cargo/credentials.toml`;
//! - a version manager's `shims` folder on `PATH` gives its root whole (`~/.pyenv`), which
//!   the shims run from;
//! - outside the home, a prefix on `PATH` (the user's choice) is granted whole;
//! - a program the package names by path gives an installation only when that path is in
//!   the package's own folder (a venv's `python`, which links to its base interpreter: its
//!   installation folders, as inside the home); a path elsewhere gives the program file
//!   alone, so a command cannot claim the folders around any file it names.
//!
//! Paths are resolved with [`beneath::real_path`], so a link the program planted in a
//! folder it may write is not followed to find an installation either.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::beneath::{self, Anchors};

/// Subfolders of a prefix that hold no installation: data, settings and state (keyrings
/// under `~/.local/share`, tokens in an npm prefix's `etc/npmrc`).
const NOT_INSTALLATION: [&str; 4] = ["share", "etc", "state", "var"];

/// Folders whose programs make an installation of their parent.
const PROGRAM_FOLDERS: [&str; 3] = ["bin", "sbin", "shims"];

/// How many interpreters deep a script is followed (`#!/usr/bin/env python3` → a pyenv
/// shim, a bash script, → bash).
const MAX_INTERPRETERS: usize = 3;

/// What the resolution reads of the environment (a parameter, for the tests).
pub(crate) struct Context {
    /// The home folders, real paths: `$HOME` and the home of the user agx runs as (they
    /// differ under `sudo -E`, in CI, in tests).
    homes: Vec<PathBuf>,
    path: Option<OsString>,
    /// The package's own folder (`{package}`), whose links agx, npm or uv made.
    package: Option<PathBuf>,
    anchors: Anchors,
}

impl Context {
    /// The context of a program confined to `resolved` (its first read path is its package).
    pub(crate) fn of(resolved: &super::Resolved) -> Context {
        Context::current(Anchors::of(resolved), resolved.read.first().cloned())
    }

    pub(crate) fn current(anchors: Anchors, package: Option<PathBuf>) -> Context {
        let mut homes: Vec<PathBuf> = directories::BaseDirs::new()
            .map(|d| d.home_dir().to_path_buf())
            .into_iter()
            .chain(account_home())
            .filter_map(|h| std::fs::canonicalize(h).ok())
            .collect();
        homes.dedup();
        Context {
            homes,
            path: std::env::var_os("PATH"),
            package,
            anchors,
        }
    }

    #[cfg(target_os = "linux")]
    pub(crate) fn anchors(&self) -> &Anchors {
        &self.anchors
    }

    fn in_home(&self, path: &Path) -> bool {
        self.homes.iter().any(|h| path.starts_with(h))
    }

    fn home_or_above(&self, path: &Path) -> bool {
        self.homes.iter().any(|h| h.starts_with(path))
    }

    fn real(&self, path: &Path) -> Option<PathBuf> {
        let path = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir().ok()?.join(path)
        };
        beneath::real_path(&path, &self.anchors).ok().flatten()
    }
}

/// The home of the user this process runs as, from the password database.
fn account_home() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let mut buf = vec![0u8; 4096];
    // SAFETY: passwd is plain data; getpwuid_r writes into `pwd` and `buf` (its length
    // given) and sets `found` to `pwd` or null.
    unsafe {
        let mut pwd: libc::passwd = std::mem::zeroed();
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let rc = libc::getpwuid_r(
            libc::geteuid(),
            &mut pwd,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut found,
        );
        if rc != 0 || found.is_null() || pwd.pw_dir.is_null() {
            return None;
        }
        let dir = std::ffi::CStr::from_ptr(pwd.pw_dir);
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(dir.to_bytes())))
    }
}

/// The installations of the programs on PATH: a tool's script may start any of them
/// (`python3` under pyenv, `node` under nvm).
pub(crate) fn on_path(cx: &Context) -> Vec<PathBuf> {
    let Some(path) = &cx.path else {
        return Vec::new();
    };
    std::env::split_paths(path)
        .filter_map(|dir| cx.real(&dir))
        .flat_map(|dir| folder(cx, &dir, true))
        .collect()
}

/// The installation `program` runs from, and that of the interpreter it names when it is a
/// script (`#!`): a venv's `python` links to one outside the store, `node` lives under its
/// prefix. A program found nowhere gives nothing.
pub(crate) fn of_program(cx: &Context, program: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    program_into(cx, program, 0, &mut out);
    out
}

/// Who chose a program's path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chosen {
    /// Found on the user's PATH.
    Path,
    /// A path in the package's own folder.
    Package,
    /// A path elsewhere, which the package named.
    Elsewhere,
}

fn program_into(cx: &Context, program: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let (found, chosen) = if program.components().count() > 1 {
        let in_package = cx.package.as_ref().is_some_and(|p| program.starts_with(p))
            && !program
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir));
        let chosen = if in_package {
            Chosen::Package
        } else {
            Chosen::Elsewhere
        };
        (program.to_path_buf(), chosen)
    } else {
        let Some(path) = &cx.path else {
            return;
        };
        let Some(found) = std::env::split_paths(path)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())
        else {
            return;
        };
        (found, Chosen::Path)
    };
    let Some(real) = cx.real(&found) else {
        return;
    };
    let installation = match (chosen, real.parent()) {
        (Chosen::Elsewhere, _) | (_, None) => Vec::new(),
        (chosen, Some(dir)) => folder(cx, dir, chosen == Chosen::Path),
    };
    if installation.is_empty() {
        // The program itself, so that it runs, and nothing around it.
        out.push(real.clone());
    }
    out.extend(installation);
    if depth < MAX_INTERPRETERS
        && let Some(interpreter) = interpreter(&real)
    {
        program_into(cx, &interpreter, depth + 1, out);
    }
}

/// What of the installation around the folder `dir` (a real path) holding programs is
/// granted (see the module's comment); `from_path` when the user's `PATH` chose it.
fn folder(cx: &Context, dir: &Path, from_path: bool) -> Vec<PathBuf> {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    match dir.parent() {
        Some(prefix)
            if PROGRAM_FOLDERS.contains(&name)
                && prefix.parent().is_some()
                && !cx.home_or_above(prefix) =>
        {
            if from_path && (!cx.in_home(prefix) || name == "shims") {
                vec![prefix.to_path_buf()]
            } else {
                installation_folders(cx, prefix)
            }
        }
        // A folder of programs that is no installation's: on PATH outside the home, itself.
        _ if from_path && !cx.in_home(dir) && !cx.home_or_above(dir) => vec![dir.to_path_buf()],
        _ => Vec::new(),
    }
}

/// The subfolders of `prefix` but those holding data, settings and state, and hidden ones.
fn installation_folders(cx: &Context, prefix: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(prefix) else {
        return Vec::new();
    };
    let mut folders: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.') && !NOT_INSTALLATION.contains(&&*name)
        })
        .filter_map(|e| cx.real(&e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    folders
}

/// The interpreter a script names on its `#!` line: `#!/usr/bin/env NAME` gives `NAME`
/// (looked up on PATH), `#!/path/prog` that path.
fn interpreter(script: &Path) -> Option<PathBuf> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    if !std::fs::metadata(script).ok()?.is_file() {
        return None;
    }
    let mut head = [0u8; 256];
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(script)
        .ok()?;
    let n = file.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|b| *b == b'\n')?];
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let first = Path::new(words.next()?);
    if first.file_name().is_some_and(|n| n == "env") {
        // `env [-S] [-i] [NAME=VALUE…] PROGRAM`: the first word that is neither.
        words
            .find(|w| !w.starts_with('-') && !w.contains('='))
            .map(PathBuf::from)
    } else {
        Some(first.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    struct Fixture {
        _dir: tempfile::TempDir,
        root: PathBuf,
    }

    impl Fixture {
        fn new() -> Fixture {
            let dir = tempfile::tempdir().unwrap();
            let root = std::fs::canonicalize(dir.path()).unwrap();
            Fixture { _dir: dir, root }
        }
        fn home(&self) -> PathBuf {
            self.root.join("home")
        }
        fn file(&self, rel: &str, text: &str) -> PathBuf {
            let p = self.root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
            p
        }
        fn dir(&self, rel: &str) -> PathBuf {
            let p = self.root.join(rel);
            std::fs::create_dir_all(&p).unwrap();
            p
        }
        fn cx(&self, path: &[&str], anchors: &[&str]) -> Context {
            Context {
                homes: vec![self.home()],
                package: Some(self.root.join("store/pkg")),
                path: Some(std::env::join_paths(path.iter().map(|p| self.root.join(p))).unwrap()),
                anchors: Anchors::from_folders(
                    &anchors
                        .iter()
                        .map(|a| self.root.join(a))
                        .collect::<Vec<_>>(),
                ),
            }
        }
        fn rel(&self, paths: Vec<PathBuf>) -> Vec<String> {
            paths
                .iter()
                .map(|p| p.strip_prefix(&self.root).unwrap().display().to_string())
                .collect()
        }
    }

    /// SB5: a program in the home's own `bin` gives itself, not the home.
    #[test]
    fn a_program_in_the_homes_bin_gives_only_itself() {
        let f = Fixture::new();
        f.file("home/bin/py", "echo hi\n");
        f.file("home/.ssh/id_rsa", "key");
        let cx = f.cx(&["home/bin"], &[]);
        assert_eq!(
            f.rel(of_program(&cx, &f.root.join("home/bin/py"))),
            ["home/bin/py"]
        );
        assert_eq!(f.rel(of_program(&cx, Path::new("py"))), ["home/bin/py"]);
        assert!(on_path(&cx).is_empty());
        // A program right in the home, or in any folder of it: itself.
        f.file("home/tool.sh", "echo hi\n");
        assert_eq!(
            f.rel(of_program(&cx, &f.root.join("home/tool.sh"))),
            ["home/tool.sh"]
        );
    }

    /// SB6: `~/.cargo/bin` and `~/.local/bin` on PATH give their installation folders, not
    /// `~/.cargo/credentials.toml` or `~/.local/share`.
    #[test]
    fn path_folders_in_the_home_give_installation_folders_only() {
        let f = Fixture::new();
        f.file("home/.cargo/bin/rg", "");
        f.file("home/.cargo/credentials.toml", "token");
        f.dir("home/.cargo/registry");
        f.file("home/.local/bin/tool", "");
        f.dir("home/.local/lib/python3.12/site-packages");
        f.dir("home/.local/share/keyrings");
        f.dir("home/.local/state");
        f.dir("home/.npm-global/etc");
        f.file("home/.npm-global/bin/x", "");
        f.dir("home/.npm-global/lib/node_modules");
        let cx = f.cx(
            &["home/.cargo/bin", "home/.local/bin", "home/.npm-global/bin"],
            &[],
        );
        assert_eq!(
            f.rel(on_path(&cx)),
            [
                "home/.cargo/bin",
                "home/.cargo/registry",
                "home/.local/bin",
                "home/.local/lib",
                "home/.npm-global/bin",
                "home/.npm-global/lib"
            ]
        );
    }

    #[test]
    fn shims_give_the_version_managers_root_and_prefixes_outside_the_home_are_whole() {
        let f = Fixture::new();
        f.file(
            "home/.pyenv/shims/python3",
            "#!/usr/bin/env bash\nexec pyenv\n",
        );
        f.file("home/.pyenv/version", "3.12\n");
        f.file("opt/node/bin/node", "");
        f.dir("opt/node/share");
        f.file("games/x", "");
        let cx = f.cx(&["home/.pyenv/shims", "opt/node/bin", "games"], &[]);
        assert_eq!(f.rel(on_path(&cx)), ["home/.pyenv", "opt/node", "games"]);
    }

    /// A venv's python links to its base interpreter; a script's `#!` names another.
    #[test]
    fn links_and_interpreters_are_followed_to_their_installations() {
        let f = Fixture::new();
        let base = f.file(
            "home/.local/share/uv/python/cpython-3.12/bin/python3.12",
            "",
        );
        f.dir("home/.local/share/uv/python/cpython-3.12/lib/python3.12");
        f.dir("home/.local/share/uv/python/cpython-3.12/share/man");
        let venv_python = f.root.join("store/pkg/venv/bin/python");
        std::fs::create_dir_all(venv_python.parent().unwrap()).unwrap();
        symlink(&base, &venv_python).unwrap();
        let cx = f.cx(&[], &[]);
        assert_eq!(
            f.rel(of_program(&cx, &venv_python)),
            [
                "home/.local/share/uv/python/cpython-3.12/bin",
                "home/.local/share/uv/python/cpython-3.12/lib"
            ]
        );
        let script = f.file(
            "store/pkg/bin/tool",
            &format!("#!{}\nprint(1)\n", venv_python.display()),
        );
        let found = of_program(&cx, &script);
        assert!(
            f.rel(found.clone())
                .contains(&"home/.local/share/uv/python/cpython-3.12/lib".to_string()),
            "{found:?}"
        );
        f.file("opt/node/bin/node", "");
        let cx = f.cx(&["opt/node/bin"], &[]);
        let script = f.file("store/pkg/x.js", "#!/usr/bin/env -S node --flag\n");
        assert_eq!(
            f.rel(of_program(&cx, &script)),
            ["store/pkg/x.js", "opt/node"]
        );
    }

    /// A path the package names outside its folder gives the file alone; a link planted in
    /// a folder the program may write is not followed to an installation.
    #[test]
    fn a_named_path_outside_the_package_or_a_planted_link_gives_no_installation() {
        let f = Fixture::new();
        f.file("home/app/bin/rails", "");
        f.dir("home/app/config");
        f.dir("data/bin");
        let cx = f.cx(&[], &["data"]);
        assert_eq!(
            f.rel(of_program(&cx, &f.root.join("home/app/bin/rails"))),
            ["home/app/bin/rails"]
        );
        // Through `..` out of the package: the same.
        f.dir("store/pkg");
        assert_eq!(
            f.rel(of_program(
                &cx,
                &f.root.join("store/pkg/../../home/app/bin/rails")
            )),
            ["home/app/bin/rails"]
        );
        symlink(f.root.join("home/app/bin/rails"), f.root.join("data/bin/x")).unwrap();
        assert!(of_program(&cx, &f.root.join("data/bin/x")).is_empty());
    }
}
