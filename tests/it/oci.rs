//! OCI images: spec parsing errors, the launch line agx writes, a missing container
//! runtime, and a runtime whose daemon does not answer (the install records the tag and
//! says so). No test reaches a container registry or fakes a daemon: with a daemon on the
//! machine, `docker pull` would be real, so the no-daemon test only runs without one.

use std::path::{Path, PathBuf};

use crate::ecosystem::{agx, stderr, store_files};
use crate::support::{TestHome, tree};

/// The server definition file agx wrote for `server` of an installed package.
pub(crate) fn server_definition(home: &TestHome, server: &str) -> String {
    let suffix = format!("agx/servers/{server}.toml");
    let root = home.agx_home();
    let path = tree(&root)
        .into_keys()
        .find(|p| p.ends_with(&suffix) && !p.contains(".staging"))
        .unwrap_or_else(|| panic!("no {suffix} in {}", root.display()));
    std::fs::read_to_string(root.join(path)).unwrap()
}

pub(crate) fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

pub(crate) fn daemon_answers(docker: &Path) -> bool {
    std::process::Command::new(docker)
        .arg("info")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn bad_image_references_are_refused_before_anything_runs() {
    let home = TestHome::new();
    for (spec, message) in [
        ("oci:Acme/X", "`Acme` is not an image name part"),
        ("oci:x@sha256:abc", "is not an image digest"),
        ("oci:x:-bad", "is not an image tag"),
        // Each would reach `docker run` as a flag, or climb out of the name.
        (
            "oci:--privileged",
            "`--privileged` is not an image name part",
        ),
        ("oci:-e", "`-e` is not an image name part"),
        ("oci:../../x", "`..` is not a registry host"),
        (
            "oci:acme/--privileged",
            "`--privileged` is not an image name part",
        ),
    ] {
        let out = agx(&home, &["install", spec]);
        assert!(!out.status.success(), "{spec} was accepted");
        assert!(stderr(&out).contains(message), "{spec}: {}", stderr(&out));
    }
    assert!(store_files(&home).is_empty());
}

#[test]
fn without_docker_or_podman_the_install_names_what_to_install() {
    let home = TestHome::new();
    let empty = home.home().join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let out = crate::ecosystem::command(&home, crate::support::AGX)
        .env("PATH", &empty)
        .args(["install", "oci:mcp/time:1.0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("error: docker (or podman) is needed to install oci:mcp/time:1.0 but was not found on PATH"),
        "{err}"
    );
    assert!(err.contains("hint: install Docker"), "{err}");
    assert!(store_files(&home).is_empty(), "{:?}", store_files(&home));
}

#[test]
fn with_no_daemon_the_tag_is_recorded_and_the_server_runs_docker() {
    let Some(docker) = on_path("docker") else {
        eprintln!("skipped: docker is not on PATH");
        return;
    };
    if daemon_answers(&docker) {
        eprintln!("skipped: a docker daemon answers, and this test must not pull images");
        return;
    }
    let home = TestHome::new();
    let out = agx(&home, &["install", "oci:mcp/time:1.0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "oci:mcp/time:1.0: no docker daemon answered, so the image's digest is not resolved"
        ),
        "{err}"
    );
    let definition = server_definition(&home, "time");
    assert!(
        definition.contains(r#"command = ["docker", "run", "--rm", "-i", "mcp/time:1.0"]"#),
        "{definition}"
    );
    let receipt =
        std::fs::read_to_string(home.agx_home().join("receipts-v1/oci/mcp+time.toml")).unwrap();
    assert!(receipt.contains("spec = \"oci:mcp/time:1.0\""), "{receipt}");

    // `agx serve` runs that line: the real docker, which reports the missing daemon.
    let out = crate::ecosystem::command(&home, crate::support::AGX)
        .args(["serve", "oci/mcp/time/time"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Cannot connect to the Docker daemon"),
        "{}",
        stderr(&out)
    );

    let out = agx(&home, &["uninstall", "oci/mcp/time"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
