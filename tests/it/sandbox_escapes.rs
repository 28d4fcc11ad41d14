//! The sandbox escapes of issue 41 (SB1–SB6), each reproduced as the attack report gave it
//! and shown to fail (docs/sandbox.md). Every test runs as the user the tests run as and,
//! when that is root and `setpriv` is there, again as an unprivileged user (`nobody`), on a
//! test home of that user's. A kernel without Landlock skips them, saying so.

use std::path::{Path, PathBuf};

use crate::support::{AGX, TestHome, write_files};

/// Who runs agx.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum User {
    /// The user the tests run as.
    Current,
    /// `nobody`, through `setpriv` (the tests run as root).
    Unprivileged,
}

const NOBODY: u32 = 65534;

/// The users to run a test as, with a line saying which run is skipped and why.
fn users() -> Vec<User> {
    // SAFETY: geteuid takes nothing and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("note: the tests do not run as root: the runs as root are skipped");
        return vec![User::Current];
    }
    let setpriv = std::process::Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !setpriv {
        eprintln!("skipped as an unprivileged user: setpriv is not installed");
        return vec![User::Current];
    }
    vec![User::Current, User::Unprivileged]
}

/// One run's home, the temporary folder its tools get (`{tmp}`, apart from the home, which
/// is in the system's temporary folder) and the user running agx.
struct Run {
    home: TestHome,
    tmp: tempfile::TempDir,
    user: User,
}

impl Run {
    fn new(user: User) -> Run {
        Run {
            home: TestHome::new(),
            tmp: tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap(),
            user,
        }
    }

    fn home(&self) -> &Path {
        self.home.home()
    }

    /// `agx ARGS` as this run's user, in the home (a folder of the user's for the
    /// unprivileged run, everything the test wrote given to it first).
    fn agx(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = match self.user {
            User::Current => self.home.command(AGX),
            User::Unprivileged => {
                give_to_nobody(self.home());
                give_to_nobody(self.tmp.path());
                let mut cmd = self.home.command("setpriv");
                cmd.args([
                    "--reuid=65534",
                    "--regid=65534",
                    "--clear-groups",
                    "--",
                    AGX,
                ])
                // The test user's PATH may lead into root's home, which nobody cannot read.
                .env("PATH", "/usr/local/bin:/usr/bin:/bin");
                cmd
            }
        };
        cmd.args(args).env("TMPDIR", self.tmp.path());
        cmd
    }

    /// Run `agx ARGS` and return its output, failing the test when it fails.
    fn ok(&self, cmd: &mut std::process::Command) -> String {
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{:?} as {:?}: {}{}",
            cmd,
            self.user,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn install(&self, dir: &Path) {
        self.ok(&mut self.agx(&["install", dir.to_str().unwrap()]));
    }

    /// `agx call NAME/t` with `env` added: the tool's output.
    fn call(&self, name: &str, env: &[(&str, &str)]) -> String {
        let mut cmd = self.agx(&["call", &format!("{name}/t")]);
        cmd.envs(env.iter().copied());
        self.ok(&mut cmd)
    }
}

/// Give `root` and everything below it to nobody (links themselves, not their targets).
fn give_to_nobody(root: &Path) {
    let Ok(meta) = std::fs::symlink_metadata(root) else {
        return;
    };
    std::os::unix::fs::lchown(root, Some(NOBODY), Some(NOBODY)).unwrap();
    if meta.is_dir() {
        for entry in std::fs::read_dir(root).unwrap() {
            give_to_nobody(&entry.unwrap().path());
        }
    }
}

/// A local package `name` with one tool `t` running `command` (a TOML array; `bin/t.sh`
/// holds `script`) and one server `main`; `permissions` is the body of
/// `[extension.permissions]`.
fn package(home: &Path, name: &str, permissions: &str, command: &str, script: &str) -> PathBuf {
    let dir = home.join("src").join(name);
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"{name}\"\nversion = \"1.0.0\"\ndescription = \"Test\"\n\n[extension]\nservers = [\"main\"]\ntools = [\"t\"]\n\n[extension.permissions]\n{permissions}"
                ),
            ),
            (
                "agx/tools/t.toml",
                &format!("name = \"t\"\ndescription = \"Probes\"\ncommand = {command}\n"),
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\ntools = [\"t\"]\n",
            ),
            ("bin/t.sh", script),
        ],
    );
    dir
}

const SH: &str = "[\"sh\", \"bin/t.sh\"]";

/// Assert that every line of `expected` is in `text`.
fn has_lines(text: &str, expected: &[&str], run: &Run) {
    for line in expected {
        assert!(
            text.lines().any(|l| l == *line),
            "no {line:?} as {:?} in:\n{text}",
            run.user
        );
    }
}

/// SB1: agx's environment holds every token it keeps from the tool's; the tool must not
/// read it from `/proc/<agx>/environ` (nor any other process's), as root too.
#[test]
fn a_tool_cannot_read_the_environment_of_agx_or_another_process() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    const SCRIPT: &str = r#"cat >/dev/null
found=none
for f in /proc/[0-9]*/environ; do
  if { tr '\0' '\n' < "$f" | grep -q '^PROBE_SECRET=hunter2$'; } 2>/dev/null; then found="$f"; fi
done
[ "$found" = none ] && echo "secret: hidden" || echo "secret: read from /proc/*/environ"
[ "$(cat /proc/$PPID/comm)" = agx ] && echo "parent: agx"
grep -qa 'AGX_PACKAGE=' /proc/self/environ && echo "own environment: readable"
exit 0
"#;
    for user in users() {
        let run = Run::new(user);
        run.install(&package(
            run.home(),
            "probe",
            "network = \"none\"\n",
            SH,
            SCRIPT,
        ));
        let secret = [("PROBE_SECRET", "hunter2")];
        let text = run.call("probe", &secret);
        has_lines(
            &text,
            &["secret: hidden", "parent: agx", "own environment: readable"],
            &run,
        );
        // Unconfined, the same tool reads it: the probe works.
        let text = run.call(
            "probe",
            &[("PROBE_SECRET", "hunter2"), ("AGX_SANDBOX", "off")],
        );
        has_lines(&text, &["secret: read from /proc/*/environ"], &run);
    }
}

/// SB2: links planted in `{data}` and `{tmp}` in one run (where the package may write)
/// grant nothing in the next: `{data}/cfg → ~/.ssh` is not readable, `{tmp}/work → ~` not
/// writable.
#[test]
fn links_planted_in_one_run_grant_nothing_in_the_next() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    const SCRIPT: &str = r#"cat >/dev/null
[ -L "$AGX_DATA_DIR/cfg" ] || ln -s "$HOME/.ssh" "$AGX_DATA_DIR/cfg"
[ -L "$TMPDIR/work" ] || ln -s "$HOME" "$TMPDIR/work"
if cat "$AGX_DATA_DIR/cfg/id_rsa" >/dev/null 2>&1; then echo "read-ssh: allowed"; else echo "read-ssh: denied"; fi
if echo x 2>/dev/null > "$TMPDIR/work/pwned.txt"; then echo "write-home: allowed"; else echo "write-home: denied"; fi
"#;
    for user in users() {
        let run = Run::new(user);
        write_files(run.home(), &[(".ssh/id_rsa", "secret key\n")]);
        run.install(&package(
            run.home(),
            "planter",
            "read = [\"{data}/cfg\"]\nwrite = [\"{tmp}/work\"]\nnetwork = \"none\"\n",
            SH,
            SCRIPT,
        ));
        let first = run.call("planter", &[]);
        has_lines(&first, &["read-ssh: denied", "write-home: denied"], &run);
        let data = run.home.agx_home().join("data/_local/planter");
        assert!(
            data.join("cfg").is_symlink(),
            "the first run planted no link"
        );
        assert!(run.tmp.path().join("work").is_symlink());
        let out = run.agx(&["call", "planter/t"]).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let second = String::from_utf8_lossy(&out.stdout);
        has_lines(&second, &["read-ssh: denied", "write-home: denied"], &run);
        assert!(!run.home().join("pwned.txt").exists());
        // Each path left out is said, with why.
        let stderr = String::from_utf8_lossy(&out.stderr);
        for path in [data.join("cfg"), run.tmp.path().join("work")] {
            let line = format!(
                "sandbox: left out {}: it is a symbolic link in a folder the program may write",
                path.display()
            );
            assert!(stderr.contains(&line), "no {line:?} in:\n{stderr}");
        }
    }
}

/// SB3: `{project}/out`, a link out of a cloned repository to the home, gives nothing;
/// a real folder of the project is still granted.
#[test]
fn a_link_out_of_the_project_grants_nothing() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    const SCRIPT: &str = r#"cat >/dev/null
if echo x 2>/dev/null > "$PROJECT_DIR/out/pwned.txt"; then echo "write-out: allowed"; else echo "write-out: denied"; fi
if cat "$PROJECT_DIR/out/.ssh/id_rsa" >/dev/null 2>&1; then echo "read-ssh: allowed"; else echo "read-ssh: denied"; fi
if echo x 2>/dev/null > "$PROJECT_DIR/build/ok.txt"; then echo "write-build: allowed"; else echo "write-build: denied"; fi
"#;
    for user in users() {
        let run = Run::new(user);
        write_files(run.home(), &[(".ssh/id_rsa", "secret key\n")]);
        let project = run.home().join("project");
        write_files(&project, &[("agx.toml", "[project]\nclients = []\n")]);
        std::fs::create_dir(project.join("build")).unwrap();
        std::os::unix::fs::symlink(run.home(), project.join("out")).unwrap();
        run.install(&package(
            run.home(),
            "builder",
            "read = [\"{project}\"]\nwrite = [\"{project}/out\", \"{project}/build\"]\nnetwork = \"none\"\nenv = [\"PROJECT_DIR\"]\n",
            SH,
            SCRIPT,
        ));
        let mut cmd = run.agx(&["call", "builder/t"]);
        cmd.current_dir(&project).env("PROJECT_DIR", &project);
        let text = run.ok(&mut cmd);
        has_lines(
            &text,
            &[
                "write-out: denied",
                "read-ssh: denied",
                "write-build: allowed",
            ],
            &run,
        );
        assert!(!run.home().join("pwned.txt").exists());
        assert!(project.join("build/ok.txt").exists());
    }
}

/// SB4: with `network = "none"` or a host list, a tool reaches no Unix socket: not a
/// pathname one (an ssh-agent, docker.sock) nor an abstract one; with `"any"` it does.
#[test]
fn a_tool_without_network_any_reaches_no_unix_socket() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    let seccomp = std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|status| status.lines().any(|l| l.starts_with("Seccomp:")));
    if !seccomp || !cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        eprintln!(
            "skipped: agx denies Unix sockets with a seccomp filter on x86-64 and ARM64 kernels that have seccomp"
        );
        return;
    }
    const SCRIPT: &str = r#"cat >/dev/null
exec python3 - <<'PY'
import os, socket
for label, address in (("pathname", os.environ["SOCKET_PATH"]), ("abstract", "\0" + os.environ["SOCKET_NAME"])):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(10)
        s.connect(address)
        print(f"{label}: connected")
    except OSError as e:
        print(f"{label}: denied")
PY
"#;
    use std::os::linux::net::SocketAddrExt;
    for user in users() {
        let run = Run::new(user);
        // The sockets a desktop or a CI machine has: an agent's, reachable by this user.
        let dir = run.home().join("agent");
        std::fs::create_dir(&dir).unwrap();
        let path = dir.join("agent.sock");
        let _pathname = std::os::unix::net::UnixListener::bind(&path).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o777))
            .unwrap();
        let name = format!("agx-test-{}-{:?}", std::process::id(), user);
        let address = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
        let _abstract = std::os::unix::net::UnixListener::bind_addr(&address).unwrap();
        let env = [
            ("SOCKET_PATH", path.to_str().unwrap()),
            ("SOCKET_NAME", name.as_str()),
        ];
        for (pkg, network) in [
            ("closed", "\"none\""),
            ("listed", "[\"api.example.org\"]"),
            ("open", "\"any\""),
        ] {
            run.install(&package(
                run.home(),
                pkg,
                &format!("network = {network}\nenv = [\"SOCKET_PATH\", \"SOCKET_NAME\"]\n"),
                SH,
                SCRIPT,
            ));
            let info = run.ok(&mut run.agx(&["info", pkg]));
            assert_eq!(
                info.contains("Unix sockets denied"),
                pkg != "open",
                "{info}"
            );
            let text = run.call(pkg, &env);
            let expected: &[&str] = if pkg == "open" {
                &["pathname: connected", "abstract: connected"]
            } else {
                &["pathname: denied", "abstract: denied"]
            };
            has_lines(&text, expected, &run);
        }
    }
}

/// SB5: a tool whose command is a program in the home's `bin` runs, and is granted that
/// program, not the whole home.
#[test]
fn a_command_in_the_homes_bin_is_not_granted_the_home() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    for user in users() {
        let run = Run::new(user);
        write_files(
            run.home(),
            &[
                (".ssh/id_rsa", "secret key\n"),
                (
                    "bin/py",
                    "#!/bin/sh\ncat >/dev/null\necho \"running: $0\"\nif cat \"$HOME/.ssh/id_rsa\" >/dev/null 2>&1; then echo \"read-ssh: allowed\"; else echo \"read-ssh: denied\"; fi\n",
                ),
            ],
        );
        let program = run.home().join("bin/py");
        std::fs::set_permissions(
            &program,
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        run.install(&package(
            run.home(),
            "homebin",
            "network = \"none\"\n",
            &format!("[{:?}]", program.to_str().unwrap()),
            "",
        ));
        let text = run.call("homebin", &[]);
        has_lines(
            &text,
            &[
                &format!("running: {}", program.display()),
                "read-ssh: denied",
            ],
            &run,
        );
    }
}

/// SB6: `~/.cargo/bin` and `~/.local/bin` on PATH let a tool run their programs, not read
/// `~/.cargo/credentials.toml` or `~/.local/share` (keyrings, other programs' data).
#[test]
fn path_folders_in_the_home_give_their_programs_not_their_neighbours() {
    if let Some(reason) = crate::sandbox::landlock_missing() {
        eprintln!("skipped: {reason}");
        return;
    }
    const SCRIPT: &str = r#"cat >/dev/null
if cat "$HOME/.cargo/credentials.toml" >/dev/null 2>&1; then echo "cargo-credentials: allowed"; else echo "cargo-credentials: denied"; fi
if cat "$HOME/.local/share/keyrings/login.keyring" >/dev/null 2>&1; then echo "keyring: allowed"; else echo "keyring: denied"; fi
hello-from-local-bin
cargo-hello
"#;
    for user in users() {
        let run = Run::new(user);
        write_files(
            run.home(),
            &[
                (
                    ".cargo/credentials.toml",
                    "[registry]\ntoken = \"secret\"\n",
                ),
                (
                    ".cargo/bin/cargo-hello",
                    "#!/bin/sh\necho \"cargo bin: ran\"\n",
                ),
                (".local/share/keyrings/login.keyring", "secret\n"),
                (
                    ".local/bin/hello-from-local-bin",
                    "#!/bin/sh\necho \"local bin: ran\"\n",
                ),
            ],
        );
        for program in [".cargo/bin/cargo-hello", ".local/bin/hello-from-local-bin"] {
            std::fs::set_permissions(
                run.home().join(program),
                std::os::unix::fs::PermissionsExt::from_mode(0o755),
            )
            .unwrap();
        }
        run.install(&package(
            run.home(),
            "pathprobe",
            "network = \"none\"\n",
            SH,
            SCRIPT,
        ));
        let mut cmd = run.agx(&["call", "pathprobe/t"]);
        let path = std::env::join_paths(
            [run.home().join(".cargo/bin"), run.home().join(".local/bin")]
                .into_iter()
                .chain(std::env::split_paths(
                    &cmd.get_envs()
                        .find(|(k, _)| *k == "PATH")
                        .and_then(|(_, v)| v.map(|v| v.to_owned()))
                        .unwrap_or_default(),
                )),
        )
        .unwrap();
        cmd.env("PATH", path);
        let text = run.ok(&mut cmd);
        has_lines(
            &text,
            &[
                "cargo-credentials: denied",
                "keyring: denied",
                "local bin: ran",
                "cargo bin: ran",
            ],
            &run,
        );
    }
}
