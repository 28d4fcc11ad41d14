//! OCI images (`oci:<image>[:tag|@digest]`): a package whose one wrapped server runs
//! `docker run --rm -i <image>@<digest>` (or `podman`, when docker is not on PATH). The
//! digest is resolved at install when a container daemon answers ([`pin`]); otherwise the
//! tag is recorded and the install says so. See docs/ecosystem.md, "OCI images".

use std::path::Path;
use std::process::{Command, Stdio};

use super::{Ecosystem, EcosystemError, EcosystemSpec, Launch, server_name, tail};

const INSTALL_RUNTIME: &str = "install Docker (https://docs.docker.com/engine/install/) or Podman (https://podman.io) and make sure `docker` or `podman` is on PATH";

/// The container runtimes agx launches images with, in order of preference.
pub const RUNTIMES: [&str; 2] = ["docker", "podman"];

/// An image reference split into repository and tag or digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef<'a> {
    /// `ghcr.io/acme/weather`, as typed.
    pub repository: &'a str,
    pub tag: Option<&'a str>,
    /// `sha256:<64 hex>`.
    pub digest: Option<&'a str>,
}

/// Split `<repository>[:tag][@digest]`; the tag's `:` is the last one after the last `/`
/// (a registry host may carry a port, `localhost:5000/x`).
pub fn split_reference(reference: &str) -> ImageRef<'_> {
    let (rest, digest) = match reference.split_once('@') {
        Some((rest, digest)) => (rest, Some(digest)),
        None => (reference, None),
    };
    let last_slash = rest.rfind('/').map_or(0, |i| i + 1);
    let (repository, tag) = match rest[last_slash..].rfind(':') {
        Some(i) => (&rest[..last_slash + i], Some(&rest[last_slash + i + 1..])),
        None => (rest, None),
    };
    ImageRef {
        repository,
        tag,
        digest,
    }
}

/// Check a reference against the OCI reference grammar, `[host[:port]/]path[:tag][@digest]`:
/// the repository by [`agx_core::name::check_image_repository`], a tag
/// (`[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`) and a digest (`sha256:` and 64 lowercase hex
/// digits, the one algorithm agx pins with). Every `oci:` spec and server.json image goes
/// through it, so none reaches `docker run` as a flag.
pub fn check_reference(image: &ImageRef<'_>) -> Result<(), String> {
    agx_core::name::check_image_repository(image.repository)?;
    if let Some(tag) = image.tag {
        let valid = !tag.is_empty()
            && tag.len() <= 128
            && !tag.starts_with(['.', '-'])
            && tag
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if !valid {
            return Err(format!(
                "`{tag}` is not an image tag (letters, digits, `_ . -`, at most 128)"
            ));
        }
    }
    if let Some(digest) = image.digest {
        let hex = digest.strip_prefix("sha256:").unwrap_or("");
        if hex.len() != 64
            || !hex
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        {
            return Err(format!(
                "`{digest}` is not an image digest (`sha256:` and 64 lowercase hex digits)"
            ));
        }
    }
    Ok(())
}

/// The first container runtime on PATH.
pub fn find_runtime(spec: &EcosystemSpec) -> Result<&'static str, EcosystemError> {
    RUNTIMES
        .into_iter()
        .find(|runtime| {
            Command::new(runtime)
                .arg("--version")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .ok_or_else(|| EcosystemError::MissingRuntime {
            what: "docker (or podman)",
            spec: spec.to_string(),
            install: INSTALL_RUNTIME,
        })
}

/// The command line that runs `image` (a pinned reference): `--rm -i` for a stdio server,
/// and `-e NAME` for each setting, so values travel through the environment, never argv.
pub fn run_command(runtime: &str, image: &str, env_names: &[String]) -> Vec<String> {
    let mut command = vec![
        runtime.to_string(),
        "run".into(),
        "--rm".into(),
        "-i".into(),
    ];
    for name in env_names {
        command.push("-e".into());
        command.push(name.clone());
    }
    command.push(image.to_string());
    command
}

/// What [`pin`] found: the spec to install, and a warning when the digest could not be
/// resolved.
pub struct Pinned {
    pub spec: EcosystemSpec,
    pub warning: Option<String>,
}

/// Resolve the digest of a spec given by tag: ask the daemon for the image's repo digest,
/// pulling it first when it is not local. With no daemon reachable, keep the tag and say
/// so. An image the daemon cannot find is an error.
pub fn pin(spec: &EcosystemSpec) -> Result<Pinned, EcosystemError> {
    let runtime = find_runtime(spec)?;
    let reference = spec.native_reference();
    let image = split_reference(&reference);
    if image.digest.is_some() {
        return Ok(Pinned {
            spec: spec.clone(),
            warning: None,
        });
    }
    let digest = match repo_digest(runtime, &reference) {
        Ok(digest) => digest,
        Err(_) => {
            let pull = run_quiet(runtime, &["pull", &reference]);
            match pull {
                Ok(_) => {
                    repo_digest(runtime, &reference).map_err(|detail| EcosystemError::Failed {
                        spec: spec.to_string(),
                        command: format!("{runtime} image inspect {reference}"),
                        detail,
                    })?
                }
                Err(detail) if no_daemon(&detail) => {
                    return Ok(Pinned {
                        spec: spec.clone(),
                        warning: Some(format!(
                            "{spec}: no {runtime} daemon answered, so the image's digest is not \
                             resolved; the server runs the tag `{}`, whatever it points to at \
                             each start (install again with the daemon running to pin it)",
                            image.tag.unwrap_or("latest")
                        )),
                    });
                }
                Err(detail) => {
                    return Err(EcosystemError::NotFound {
                        spec: spec.to_string(),
                        detail: format!("`{runtime} pull {reference}` failed: {detail}"),
                    });
                }
            }
        }
    };
    let mut pinned = spec.clone();
    pinned.version = Some(digest);
    Ok(Pinned {
        spec: pinned,
        warning: None,
    })
}

/// `sha256:…` of a local image, from its repo digests.
fn repo_digest(runtime: &str, reference: &str) -> Result<String, String> {
    let out = run_quiet(
        runtime,
        &[
            "image",
            "inspect",
            "--format",
            "{{json .RepoDigests}}",
            reference,
        ],
    )?;
    let digests: Vec<String> = serde_json::from_slice(&out).map_err(|e| e.to_string())?;
    digests
        .iter()
        .find_map(|d| d.split_once('@').map(|(_, digest)| digest.to_string()))
        .ok_or_else(|| "the image has no repo digest (it was built locally, not pulled)".into())
}

fn run_quiet(program: &str, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(tail(&output.stderr))
    }
}

/// Whether a runtime's error says it could not reach its daemon (docker's and podman's
/// wordings).
fn no_daemon(stderr: &str) -> bool {
    let text = stderr.to_ascii_lowercase();
    [
        "cannot connect to the docker daemon",
        "is the docker daemon running",
        "unable to connect to podman",
        "connect: no such file or directory",
        "error during connect",
    ]
    .iter()
    .any(|needle| text.contains(needle))
}

/// Write nothing but the launch: the image is the server.
/// Who signed the image `reference` (pinned to `digest`), from the Sigstore bundles its
/// registry holds as referrers of that digest (cosign 2.x `--new-bundle-format`, cosign
/// 3): the one [`crate::index::oci::provenance::signer_among`] chooses (`trusted`, the
/// signer recorded before, preferred), kept in `dir` for `agx verify`. Unsigned when none
/// is attached; not checked when the registry wants credentials to list them; refused when
/// bundles are attached and none verifies.
pub(super) fn image_built_by(
    spec: &EcosystemSpec,
    reference: &str,
    digest: &str,
    dir: &Path,
    trusted: Option<&agx_provenance::Signer>,
) -> Result<super::BuiltBy, EcosystemError> {
    let failed = |e| EcosystemError::Download {
        url: reference.to_string(),
        source: Box::new(e),
    };
    let Some(bundles) = crate::index::oci::image_bundle_referrers(reference).map_err(failed)?
    else {
        return Ok(super::BuiltBy::NotChecked);
    };
    let refused = |error| EcosystemError::Provenance {
        spec: spec.to_string(),
        error,
    };
    let subject: [u8; 32] = digest
        .strip_prefix("sha256:")
        .and_then(|hex| hex::decode(hex).ok())
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(|| {
            refused(agx_provenance::ProvenanceError::Rejected {
                reason: format!("the image digest `{digest}` is not a sha256"),
            })
        })?;
    if bundles.is_empty() {
        return Ok(super::BuiltBy::Checked(None));
    }
    let root = super::provenance::trust_root().map_err(refused)?;
    let origin = format!("{reference} (a Sigstore referrer)");
    let signed =
        crate::index::oci::provenance::signer_among(bundles, subject, &root, &origin, trusted)
            .map_err(refused)?;
    if let Some((_, bundle)) = &signed {
        fs_err::write(dir.join(agx_store::PROVENANCE_BUNDLE), bundle)?;
    }
    Ok(super::BuiltBy::Checked(signed.map(|(signer, _)| signer)))
}

pub(super) fn provision(
    spec: &EcosystemSpec,
    dir: &Path,
    trusted: Option<&agx_provenance::Signer>,
) -> Result<Launch, EcosystemError> {
    debug_assert!(matches!(spec.ecosystem, Ecosystem::Oci));
    let runtime = find_runtime(spec)?;
    let reference = spec.native_reference();
    let image = split_reference(&reference);
    let last = image
        .repository
        .rsplit('/')
        .next()
        .unwrap_or(image.repository);
    let (version, integrity) = match (image.digest, image.tag) {
        (Some(digest), _) => (
            semver::Version::parse(&format!("0.0.0+{}", &digest.replace(':', "-")[..19]))
                .expect("a digest prefix is valid build metadata"),
            vec![digest.to_string()],
        ),
        (None, tag) => (tag_version(tag.unwrap_or("latest")), Vec::new()),
    };
    // A tag alone is not what runs (it may move), so only a pinned image is checked.
    let built_by = match image.digest {
        Some(digest) => image_built_by(spec, &reference, digest, dir, trusted)?,
        None => super::BuiltBy::NotChecked,
    };
    Ok(Launch {
        version,
        exact: format!("oci:{reference}"),
        integrity,
        served_by: None,
        built_by,
        description: Some(format!("the container image {}", image.repository)),
        server: Ok(Some(super::WrappedServer {
            name: server_name(spec, last)?,
            command: run_command(runtime, &reference, &[]),
        })),
        skills: None,
    })
}

/// A tag as the package version: a semver-like tag (`v1.2`, `1.2.3`) as itself, any other
/// (`latest`) as `0.0.0+<tag>`.
fn tag_version(tag: &str) -> semver::Version {
    let trimmed = tag.trim_start_matches('v');
    let padded: Vec<&str> = trimmed.split('.').collect();
    if padded
        .iter()
        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        && padded.len() <= 3
    {
        let mut parts: Vec<String> = padded.iter().map(|p| p.to_string()).collect();
        while parts.len() < 3 {
            parts.push("0".into());
        }
        if let Ok(v) = semver::Version::parse(&parts.join(".")) {
            return v;
        }
    }
    let meta: String = tag
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    semver::Version::parse(&format!("0.0.0+{meta}"))
        .unwrap_or_else(|_| semver::Version::new(0, 0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_split_into_repository_tag_and_digest() {
        let r = split_reference("ghcr.io/acme/weather:1.2");
        assert_eq!(
            (r.repository, r.tag, r.digest),
            ("ghcr.io/acme/weather", Some("1.2"), None)
        );
        let r = split_reference("localhost:5000/x");
        assert_eq!((r.repository, r.tag), ("localhost:5000/x", None));
        let digest = format!("sha256:{}", "a".repeat(64));
        let full = format!("localhost:5000/x:v1@{digest}");
        let r = split_reference(&full);
        assert_eq!(
            (r.repository, r.tag, r.digest),
            ("localhost:5000/x", Some("v1"), Some(digest.as_str()))
        );
        assert!(check_reference(&r).is_ok());
        assert!(check_reference(&split_reference("x@sha256:abc")).is_err());
        assert!(check_reference(&split_reference("x:-bad")).is_err());
    }

    #[test]
    fn references_follow_the_oci_grammar() {
        for good in [
            "mcp/time",
            "ghcr.io/acme/weather-mcp:1.2",
            "localhost:5000/a__b/c.d/e---f:v1_2",
            "registry-1.docker.io/library/alpine",
        ] {
            assert!(check_reference(&split_reference(good)).is_ok(), "{good}");
        }
        for bad in [
            "--privileged",
            "-e",
            "../../x",
            "acme/--privileged",
            "acme/-x",
            "acme/x-",
            "acme/a..b",
            "acme/a___b",
            "Acme/x",
            "acme//x",
            "-bad.io/x",
            "ghcr.io:/x",
            "acme/x:tag with space",
        ] {
            assert!(check_reference(&split_reference(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_launch_line_passes_settings_by_name_only() {
        assert_eq!(
            run_command("docker", "mcp/time@sha256:00", &["API_KEY".into()]),
            [
                "docker",
                "run",
                "--rm",
                "-i",
                "-e",
                "API_KEY",
                "mcp/time@sha256:00"
            ]
        );
    }

    #[test]
    fn tags_become_versions() {
        assert_eq!(tag_version("1.2").to_string(), "1.2.0");
        assert_eq!(tag_version("v3.0.1").to_string(), "3.0.1");
        assert_eq!(tag_version("latest").to_string(), "0.0.0+latest");
        assert!(no_daemon(
            "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?"
        ));
    }
}
