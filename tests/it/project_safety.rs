//! Integration tests: a project's files as a hostile repository could commit them — client
//! files that are links out of the project, FIFOs or devices, an agx.toml that does not
//! parse — and several agx processes editing one project at once (docs/projects.md).

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use crate::support::{Fixture, TestHome, outcome_of, write_file};

const WEATHER: &str = "[project]\nclients = [\"claude-code\", \"cursor\"]\n\n[servers]\nforecast = { server = \"acme/weather/forecast\" }\n";

/// A home, the fixture registry, and a project folder inside the home.
struct Project {
    fixture: Fixture,
    home: TestHome,
    dir: PathBuf,
}

impl Project {
    fn new(agx_toml: &str) -> Project {
        let home = TestHome::new();
        let dir = home.home().join("repo");
        write_file(&dir.join("agx.toml"), agx_toml);
        Project {
            fixture: Fixture::new(),
            home,
            dir,
        }
    }

    /// `agx args…` in `cwd`; (success, stdout + stderr).
    fn agx_in(&self, cwd: &Path, args: &[&str]) -> (bool, String) {
        let out = self
            .fixture
            .agx(&self.home)
            .current_dir(cwd)
            .args(args)
            .output()
            .unwrap();
        (out.status.success(), outcome_of(&out))
    }

    fn fails(&self, args: &[&str]) -> String {
        let (ok, text) = self.agx_in(&self.dir, args);
        assert!(!ok, "agx {args:?} succeeded:\n{text}");
        text
    }

    fn ok(&self, args: &[&str]) -> String {
        let (ok, text) = self.agx_in(&self.dir, args);
        assert!(ok, "agx {args:?} failed:\n{text}");
        text
    }

    /// A folder outside the project.
    #[cfg(unix)]
    fn outside(&self) -> PathBuf {
        let dir = self.home.home().join("elsewhere");
        fs::create_dir_all(&dir).unwrap();
        dir
    }
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// A committed `.mcp.json` that is a FIFO hung `agx sync` forever, and a link to
/// `/dev/zero` grew it without limit: both are refused, naming the file.
#[test]
fn sync_refuses_a_client_file_that_is_a_fifo() {
    let p = Project::new(WEATHER);
    mkfifo(&p.dir.join(".mcp.json"));
    let text = p.fails(&["sync"]);
    assert!(text.contains(".mcp.json"), "{text}");
    assert!(text.contains("not a regular file (a FIFO"), "{text}");
}

/// A dangling `.mcp.json` link created a file outside the project, and a linked `.cursor/`
/// wrote into an outside `mcp.json`: in project scope, links leaving the project are refused.
#[cfg(unix)]
#[test]
fn sync_refuses_links_that_leave_the_project() {
    let p = Project::new(WEATHER);
    let outside = p.outside();
    symlink(outside.join("created.json"), p.dir.join(".mcp.json")).unwrap();
    let text = p.fails(&["sync"]);
    assert!(text.contains(".mcp.json is a symbolic link to"), "{text}");
    assert!(text.contains("outside the project"), "{text}");
    assert!(text.contains("replace"), "{text}");
    assert!(!outside.join("created.json").exists());

    fs::remove_file(p.dir.join(".mcp.json")).unwrap();
    let theirs = "{ \"mcpServers\": {} }\n";
    write_file(&outside.join("mcp.json"), theirs);
    symlink(&outside, p.dir.join(".cursor")).unwrap();
    let text = p.fails(&["sync"]);
    assert!(text.contains(".cursor is a symbolic link to"), "{text}");
    assert_eq!(
        fs::read_to_string(outside.join("mcp.json")).unwrap(),
        theirs
    );
    assert_eq!(
        fs::read_dir(&outside).unwrap().count(),
        1,
        "nothing else written outside"
    );

    // A link that stays inside the project is written through.
    fs::remove_file(p.dir.join(".cursor")).unwrap();
    fs::create_dir_all(p.dir.join("shared")).unwrap();
    symlink("shared", p.dir.join(".cursor")).unwrap();
    p.ok(&["sync"]);
    assert!(
        fs::read_to_string(p.dir.join("shared/mcp.json"))
            .unwrap()
            .contains("acme/weather/forecast@=")
    );
}

/// An agx.toml that does not parse was skipped, and the commands acted on the project
/// above it: discovery stops at it and reports its error with line and column.
#[test]
fn an_unparsable_agx_toml_stops_discovery_with_its_place() {
    let p = Project::new(WEATHER);
    let inner = p.dir.join("tools");
    write_file(&inner.join("agx.toml"), "# broken\n[servers\nx = 1\n");
    let (ok, text) = p.agx_in(&inner, &["sync"]);
    assert!(!ok, "{text}");
    assert!(text.contains("tools/agx.toml:2:"), "{text}");
    assert!(text.contains("not valid TOML"), "{text}");
    assert!(
        !p.dir.join("agx.lock").exists(),
        "the outer project was synced"
    );
}

/// Four concurrent `agx add` all printed "Added", and some entries were missing from
/// agx.toml: each read the file before the others wrote it. Under the project's lock every
/// entry lands in agx.toml, agx.lock and the client file, and no lock file stays behind.
#[test]
fn concurrent_adds_keep_every_entry() {
    let p = Project::new("[project]\nclients = [\"claude-code\"]\n");
    let keys: Vec<String> = (0..6).map(|i| format!("forecast-{i}")).collect();
    let results: Vec<(bool, String)> = std::thread::scope(|s| {
        let runs: Vec<_> = keys
            .iter()
            .map(|key| {
                let p = &p;
                s.spawn(move || p.agx_in(&p.dir, &["add", "acme/weather/forecast", "--name", key]))
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (ok, text) in &results {
        assert!(ok, "{text}");
    }
    let manifest = fs::read_to_string(p.dir.join("agx.toml")).unwrap();
    let lock = fs::read_to_string(p.dir.join("agx.lock")).unwrap();
    let mcp = fs::read_to_string(p.dir.join(".mcp.json")).unwrap();
    for key in &keys {
        assert!(
            manifest.contains(&format!("{key} = {{")),
            "{key}:\n{manifest}"
        );
        assert!(lock.contains(&format!("key = \"{key}\"")), "{key}:\n{lock}");
        assert!(mcp.contains(&format!("\"{key}\"")), "{key}:\n{mcp}");
    }
    let mut names: Vec<String> = fs::read_dir(&p.dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [".mcp.json", ".mcp.json.agx-backup", "agx.lock", "agx.toml"]
    );
}

/// agx.toml, agx.lock and the project's client files were created 0600 in a repository meant
/// to be shared: new files follow the umask (0644 under 022), and a file its owner made
/// private stays so when agx rewrites it.
#[cfg(unix)]
#[test]
fn project_files_follow_the_umask_and_private_ones_stay_private() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let home = TestHome::new();
    let dir = home.home().join("repo");
    fs::create_dir_all(&dir).unwrap();
    let probe = home.home().join("probe");
    fs::File::create(&probe).unwrap();
    let expected = mode(&probe);
    let fixture = Fixture::new();
    let add = |key: &str| {
        let out = fixture
            .agx(&home)
            .current_dir(&dir)
            .args(["add", "acme/weather/forecast", "--name", key])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", outcome_of(&out));
    };
    add("forecast");
    for name in ["agx.toml", "agx.lock"] {
        assert_eq!(mode(&dir.join(name)), expected, "{name}");
    }
    fs::write(
        dir.join("agx.toml"),
        fs::read_to_string(dir.join("agx.toml"))
            .unwrap()
            .replace("clients = []", "clients = [\"claude-code\"]"),
    )
    .unwrap();
    fs::set_permissions(dir.join("agx.toml"), fs::Permissions::from_mode(0o600)).unwrap();
    add("forecast-2");
    assert_eq!(mode(&dir.join(".mcp.json")), expected, ".mcp.json");
    assert_eq!(
        mode(&dir.join("agx.toml")),
        0o600,
        "a private file stays private"
    );
    assert!(
        fs::read_to_string(dir.join("agx.toml"))
            .unwrap()
            .contains("forecast-2")
    );
}

/// A secret value, an undeclared setting and a wrong-typed value in agx.toml or
/// agx.local.toml stopped `validate` but not `sync`, `lock` or `sync --check`: all four run
/// the same check, and stop at the first error with its place.
#[test]
fn setting_values_are_checked_by_sync_lock_and_check_as_by_validate() {
    let quotes = |settings: &str| {
        format!(
            "[project]\nclients = [\"claude-code\"]\n\n[servers]\nquotes = {{ server = \"acme/quotes/quotes\", settings = {{ {settings} }} }}\n"
        )
    };
    let p = Project::new(&quotes("currency = \"EUR\""));
    p.ok(&["sync"]);
    let mcp = fs::read_to_string(p.dir.join(".mcp.json")).unwrap();
    for (settings, code, expected) in [
        ("api_key = \"sk-live\"", "E203", "is a secret"),
        ("curency = \"EUR\"", "E204", "declares no setting `curency`"),
        (
            "precision = \"two\"",
            "E205",
            "setting `precision` of server `quotes`",
        ),
    ] {
        fs::write(p.dir.join("agx.toml"), quotes(settings)).unwrap();
        let validated = p.fails(&["validate"]);
        assert!(validated.contains(code), "{code}: {validated}");
        for args in [&["sync"][..], &["sync", "--check"], &["lock"]] {
            let text = p.fails(args);
            assert!(text.contains(expected), "{args:?} {code}: {text}");
            assert!(text.contains("repo/agx.toml:5:"), "{args:?} {code}: {text}");
        }
        assert_eq!(
            fs::read_to_string(p.dir.join(".mcp.json")).unwrap(),
            mcp,
            "nothing written"
        );
    }
    // agx.local.toml is checked the same way.
    fs::write(p.dir.join("agx.toml"), quotes("currency = \"EUR\"")).unwrap();
    p.ok(&["sync"]);
    fs::write(
        p.dir.join("agx.local.toml"),
        "[servers]\nmine = { server = \"acme/quotes/quotes\", settings = { api_key = \"sk\" } }\n",
    )
    .unwrap();
    let text = p.fails(&["sync"]);
    assert!(text.contains("repo/agx.local.toml:2:"), "{text}");
    assert!(text.contains("is a secret"), "{text}");
}

/// `sync --frozen` with a key in agx.lock that agx.toml could not hold dropped the entry
/// without a word and exited 0: the lock is refused, naming the key and its line.
#[test]
fn frozen_sync_refuses_a_lock_with_an_invalid_key() {
    let p = Project::new(WEATHER);
    p.ok(&["sync"]);
    let lock = fs::read_to_string(p.dir.join("agx.lock")).unwrap();
    let edited = lock.replace("key = \"forecast\"", "key = \"Forecast!\"");
    assert_ne!(edited, lock);
    fs::write(p.dir.join("agx.lock"), &edited).unwrap();
    let line = edited
        .lines()
        .position(|l| l.contains("Forecast!"))
        .unwrap()
        + 1;
    let text = p.fails(&["sync", "--frozen"]);
    assert!(text.contains(&format!("agx.lock:{line}:")), "{text}");
    assert!(text.contains("`Forecast!` is not a server key"), "{text}");
    assert!(text.contains("agx lock"), "{text}");
}

/// A committed agx.lock that is a FIFO would hang every project command: it is refused.
#[test]
fn a_lock_that_is_a_fifo_is_refused() {
    let p = Project::new(WEATHER);
    mkfifo(&p.dir.join("agx.lock"));
    let text = p.fails(&["sync", "--locked"]);
    assert!(text.contains("agx.lock"), "{text}");
    assert!(text.contains("FIFO"), "{text}");
}

/// Files under `roots-v1/` of the store and their bytes.
fn roots(home: &TestHome) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = home.agx_home().join("roots-v1");
    let mut found: Vec<_> = fs::read_dir(&dir)
        .map(|entries| {
            entries
                .map(|e| {
                    let path = e.unwrap().path();
                    let bytes = fs::read(&path).unwrap();
                    (path, bytes)
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// A sync refused for a setting value wrote agx.lock and the project's root first: it now
/// leaves both as they were, for a new project and for a new server of a synced one.
#[test]
fn a_sync_refused_for_a_setting_value_writes_no_lock_and_no_root() {
    let quotes = |settings: &str| {
        format!(
            "[project]\nclients = [\"claude-code\"]\n\n[servers]\nquotes = {{ server = \"acme/quotes/quotes\", settings = {{ {settings} }} }}\n"
        )
    };
    let p = Project::new(&quotes("api_key = \"sk-live\""));
    let text = p.fails(&["sync"]);
    assert!(text.contains("is a secret"), "{text}");
    assert!(!p.dir.join("agx.lock").exists());
    assert_eq!(roots(&p.home), []);

    fs::write(p.dir.join("agx.toml"), quotes("currency = \"EUR\"")).unwrap();
    p.ok(&["sync"]);
    let lock = fs::read(p.dir.join("agx.lock")).unwrap();
    let root = roots(&p.home);
    assert_eq!(root.len(), 1);
    for settings in ["curency = \"EUR\"", "precision = \"two\""] {
        fs::write(
            p.dir.join("agx.toml"),
            format!(
                "{}weather = {{ server = \"acme/weather/forecast\" }}\n",
                quotes(settings)
            ),
        )
        .unwrap();
        p.fails(&["sync"]);
        assert_eq!(
            fs::read(p.dir.join("agx.lock")).unwrap(),
            lock,
            "{settings}"
        );
        assert_eq!(roots(&p.home), root, "{settings}");
    }
}
