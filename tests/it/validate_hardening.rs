//! `agx validate` on hostile packages: links out of the package, special files, runaway
//! findings; and its agreement with `pack` and `install` over every fixture package.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use serde_json::Value;

use crate::support::{TestHome, fixtures, write_files};

/// A generous guard so a regression shows up as a failure, never as a hung test run.
const HANG_GUARD: Duration = Duration::from_secs(120);

#[cfg(unix)]
const SECRET: &str = "s3cret-outside-the-package";

fn validate(home: &TestHome, dir: &Path, json: bool) -> Output {
    let mut cmd = home.agx();
    cmd.arg("validate").arg(dir).timeout(HANG_GUARD);
    if json {
        cmd.args(["--format", "json"]);
    }
    cmd.output().expect("agx runs")
}

fn findings(out: &Output) -> Vec<Value> {
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    doc["findings"].as_array().unwrap().clone()
}

fn code_and_file(out: &Output) -> Vec<(String, String)> {
    findings(out)
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["location"]["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn all_output(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A file outside any package whose text is invalid TOML quoting a secret (so a reader that
/// followed a link would echo it in the syntax-error snippet).
#[cfg(unix)]
fn outside_secret(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("shadow");
    fs::write(&path, format!("root = \"{SECRET}\n")).unwrap();
    path
}

const PROMPT_PACKAGE: &str = "[package]\nname = \"acme/hostile\"\nversion = \"1.0.0\"\ndescription = \"d\"\n\n[extension]\nprompts = [\"hello\"]\n";

fn prompt_package(dir: &Path) {
    write_files(
        dir,
        &[
            ("agx.toml", PROMPT_PACKAGE),
            (
                "agx/prompts/hello.toml",
                "name = \"hello\"\ncontent_file = \"hello.md\"\n",
            ),
        ],
    );
}

#[cfg(unix)]
#[test]
fn a_linked_manifest_is_refused_and_its_target_never_shown() {
    let home = TestHome::new();
    let outside = tempfile::tempdir().unwrap();
    let pkg = tempfile::tempdir().unwrap();
    symlink(outside_secret(outside.path()), pkg.path().join("agx.toml")).unwrap();

    let human = validate(&home, pkg.path(), false);
    assert_eq!(human.status.code(), Some(1));
    let text = all_output(&human);
    assert!(text.contains("error[E033]"), "{text}");
    assert!(!text.contains(SECRET), "{text}");
    let json = validate(&home, pkg.path(), true);
    assert_eq!(code_and_file(&json), [("E033".into(), "agx.toml".into())]);
    assert!(!all_output(&json).contains(SECRET));
}

#[cfg(unix)]
#[test]
fn a_linked_definition_file_or_folder_is_refused_and_never_read() {
    let home = TestHome::new();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside_secret(outside.path());
    let pkg = tempfile::tempdir().unwrap();
    prompt_package(pkg.path());
    fs::remove_file(pkg.path().join("agx/prompts/hello.toml")).unwrap();
    symlink(&secret, pkg.path().join("agx/prompts/hello.toml")).unwrap();

    let out = validate(&home, pkg.path(), false);
    assert_eq!(out.status.code(), Some(1));
    let text = all_output(&out);
    assert!(
        text.contains("`agx/prompts/hello.toml` is a symbolic link"),
        "{text}"
    );
    assert!(!text.contains(SECRET), "{text}");

    // The whole definition folder linked out of the package.
    fs::remove_dir_all(pkg.path().join("agx/prompts")).unwrap();
    fs::write(
        outside.path().join("hello.toml"),
        fs::read(&secret).unwrap(),
    )
    .unwrap();
    symlink(outside.path(), pkg.path().join("agx/prompts")).unwrap();
    let out = validate(&home, pkg.path(), true);
    assert_eq!(code_and_file(&out), [("E033".into(), "agx/prompts".into())]);
    assert!(!all_output(&validate(&home, pkg.path(), false)).contains(SECRET));
}

#[cfg(unix)]
#[test]
fn a_content_file_linked_to_a_device_is_refused_without_reading_it() {
    let home = TestHome::new();
    for device in ["/dev/zero", "/dev/urandom"] {
        let pkg = tempfile::tempdir().unwrap();
        prompt_package(pkg.path());
        symlink(device, pkg.path().join("agx/hello.md")).unwrap();
        let out = validate(&home, pkg.path(), true);
        assert_eq!(out.status.code(), Some(1), "{device}");
        assert_eq!(
            code_and_file(&out),
            [("E033".into(), "agx/hello.md".into())],
            "{device}"
        );
    }
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[test]
fn a_fifo_manifest_or_content_file_is_refused_without_waiting() {
    let home = TestHome::new();
    let pkg = tempfile::tempdir().unwrap();
    mkfifo(&pkg.path().join("agx.toml"));
    let out = validate(&home, pkg.path(), true);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(code_and_file(&out), [("E034".into(), "agx.toml".into())]);

    let pkg = tempfile::tempdir().unwrap();
    prompt_package(pkg.path());
    mkfifo(&pkg.path().join("agx/hello.md"));
    let out = validate(&home, pkg.path(), false);
    assert_eq!(out.status.code(), Some(1));
    let text = all_output(&out);
    assert!(
        text.contains("error[E034]: `agx/hello.md` is not a regular file"),
        "{text}"
    );
}

#[test]
fn a_content_file_over_the_size_cap_is_a_clear_error() {
    let home = TestHome::new();
    let pkg = tempfile::tempdir().unwrap();
    prompt_package(pkg.path());
    let big = fs::File::create(pkg.path().join("agx/hello.md")).unwrap();
    big.set_len(agx_model::manifest::package_file::MAX_FILE_BYTES + 1)
        .unwrap();
    let out = validate(&home, pkg.path(), false);
    assert_eq!(out.status.code(), Some(1));
    let text = all_output(&out);
    assert!(text.contains("error[E029]"), "{text}");
    assert!(text.contains("are read up to 4 MiB"), "{text}");
}

#[test]
fn one_mistake_repeated_ten_thousand_times_gives_a_few_short_findings() {
    let home = TestHome::new();
    let pkg = tempfile::tempdir().unwrap();
    let tools = vec!["\"t\""; 10_000].join(", ");
    write_files(
        pkg.path(),
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"acme/dup\"\nversion = \"1.0.0\"\ndescription = \"d\"\n\n[extension]\ntools = [{tools}]\n"
                ),
            ),
            ("agx/tools/t.toml", "name = \"t\"\ncommand = [\"echo\"]\n"),
        ],
    );

    let human = validate(&home, pkg.path(), false);
    assert_eq!(human.status.code(), Some(1));
    let text = String::from_utf8(human.stderr).unwrap();
    assert!(text.len() < 4_000, "{} bytes:\n{text}", text.len());
    assert_eq!(text.matches("error[E011]").count(), 3, "{text}");
    assert!(
        text.contains("= note: and 9,996 more like this in agx.toml"),
        "{text}"
    );
    assert!(text.contains("9,999 errors"), "{text}");
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 110, "a line of {widest} characters:\n{text}");

    let json = validate(&home, pkg.path(), true);
    let doc: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["errors"], 9_999);
    let listed = doc["findings"].as_array().unwrap();
    assert_eq!(listed.len(), 3);
    assert_eq!(listed[2]["more"], 9_996);
    assert!(listed[0].get("more").is_none());
}

#[test]
fn a_finding_on_a_long_line_shows_the_columns_around_it() {
    let home = TestHome::new();
    let pkg = tempfile::tempdir().unwrap();
    let padding = "x".repeat(20_000);
    write_files(
        pkg.path(),
        &[(
            "agx.toml",
            &format!(
                "[package]\nname = \"acme/long\"\nversion = \"1.0.0\"\ndescription = \"{padding}\", nmae = 1 }}\n"
            ),
        )],
    );
    // `description = "…", nmae` is a TOML syntax error far along one line.
    let out = validate(&home, pkg.path(), false);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(text.len() < 2_000, "{} bytes:\n{text}", text.len());
    let snippet = text
        .lines()
        .find(|l| l.starts_with("4 | "))
        .unwrap_or_else(|| panic!("no snippet line:\n{text}"));
    assert!(snippet.starts_with("4 | …"), "{snippet}");
    let carets = text.lines().find(|l| l.contains('^')).unwrap();
    let at = carets.find('^').unwrap();
    // The carets point at the place after the closing quote, inside the shown window.
    assert!(at < snippet.len(), "{carets}\n{snippet}");
}

/// Every fixture package, valid or not (and one that declares nothing): `validate` passes exactly when `pack` writes an
/// archive, and every archive packed installs.
#[test]
fn validate_pack_and_install_agree_on_every_fixture() {
    let home = TestHome::new();
    let out_dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    write_files(
        empty.path(),
        &[(
            "agx.toml",
            "[package]\nname = \"acme/empty\"\nversion = \"1.0.0\"\ndescription = \"declares nothing\"\n",
        )],
    );
    let mut dirs = vec![empty.path().to_path_buf()];
    for group in ["packages", "invalid"] {
        let mut listed: Vec<_> = fs::read_dir(fixtures().join(group))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("agx.toml").exists() || p.join("agx.toml").is_symlink())
            .collect();
        listed.sort();
        dirs.extend(listed);
    }
    assert!(dirs.len() > 30, "fixtures not found: {dirs:?}");

    let mut disagreements = Vec::new();
    let mut installed = 0;
    for dir in &dirs {
        let valid = validate(&home, dir, true).status.success();
        let pack = home
            .agx()
            .arg("pack")
            .arg(dir)
            .arg("--output")
            .arg(out_dir.path())
            .timeout(HANG_GUARD)
            .output()
            .unwrap();
        if valid != pack.status.success() {
            disagreements.push(format!(
                "{}: validate {}, pack {}",
                dir.display(),
                if valid { "passes" } else { "fails" },
                all_output(&pack)
            ));
            continue;
        }
        if !valid {
            continue;
        }
        let archive = fs::read_dir(out_dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
            .expect("pack wrote an archive");
        let install = home
            .agx()
            .arg("install")
            .arg(&archive)
            // Dependencies come from the fixture registry.
            .arg("--registry")
            .arg(fixtures().join("registry"))
            .timeout(HANG_GUARD)
            .output()
            .unwrap();
        if !install.status.success() {
            disagreements.push(format!(
                "{}: validates and packs, but install fails: {}",
                dir.display(),
                all_output(&install)
            ));
        }
        installed += 1;
        fs::remove_file(&archive).unwrap();
    }
    assert!(installed > 5, "only {installed} fixtures installed");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
