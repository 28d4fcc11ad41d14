//! npm packages: the exact version from `npm view`, installed with `npm install
//! --ignore-scripts` into the package folder, launched with `node` on the package's `bin`;
//! the skills it ships in `skills/<name>/SKILL.md` come along.

use std::path::Path;

use super::{
    EcosystemError, EcosystemSpec, Launch, output_within_deadline, run, server_name, tail,
    to_semver,
};

const INSTALL_NODE: &str = "install Node.js (which brings npm), e.g. from https://nodejs.org or your package manager, and make sure `node` and `npm` are on PATH";

pub(super) fn provision(spec: &EcosystemSpec, dir: &Path) -> Result<Launch, EcosystemError> {
    let missing = |what: &'static str| {
        move || EcosystemError::MissingRuntime {
            what,
            spec: spec.to_string(),
            install: INSTALL_NODE,
        }
    };
    // npm is a node script: check node itself first, so a missing node is named as such.
    run(spec, "node", &["--version"], dir, missing("node"))?;
    let name = spec.native_name();
    let exact = resolve(spec, dir)?;
    let version = to_semver(spec, &exact)?;
    let pinned = format!("{name}@{exact}");
    // Never the package's scripts here, even with --allow-scripts: those run only once
    // the installer has accepted what npm fetched (its provenance, the signer trust on
    // first use holds it to, the policy), by [`run_install_scripts`].
    let args = [
        "install",
        "--no-audit",
        "--no-fund",
        "--save-exact",
        "--ignore-scripts",
        "--prefix",
        ".",
        "--",
        &pinned,
    ];
    run(spec, "npm", &args, dir, missing("npm"))?;

    let (integrity, resolved) = lock_entry(dir, &name)?;
    // Before anything of the package is read: a provenance attestation that does not
    // verify refuses the version here.
    let built_by = match (
        &integrity,
        resolved
            .as_deref()
            .and_then(|url| super::npm_provenance::registry_of(url, &name)),
    ) {
        (Some(integrity), Some(registry)) => {
            let verified = super::npm_provenance::signer(
                &spec.to_string(),
                &registry,
                &name,
                &exact,
                integrity,
            )?;
            match verified {
                None => super::BuiltBy::NotChecked,
                Some(verified) => {
                    if let Some(verified) = &verified {
                        fs_err::write(dir.join(agx_store::PROVENANCE_BUNDLE), &verified.bundle)?;
                    }
                    super::BuiltBy::Checked(verified.map(|v| v.signer))
                }
            }
        }
        _ => super::BuiltBy::NotChecked,
    };
    let package_dir = Path::new("node_modules").join(&name);
    let manifest: serde_json::Value =
        serde_json::from_slice(&fs_err::read(dir.join(&package_dir).join("package.json"))?)
            .map_err(|e| no_launch(spec, format!("its package.json is not JSON: {e}")))?;
    let server = pick_bin(spec, &manifest).and_then(|bin| {
        let Some((bin_name, bin_path)) = bin else {
            return Ok(None);
        };
        let script = package_dir.join(bin_path.trim_start_matches("./"));
        if !dir.join(&script).is_file() {
            return Err(no_launch(
                spec,
                format!("its bin `{bin_name}` points to {bin_path}, which is not in the package"),
            ));
        }
        Ok(Some(super::WrappedServer {
            name: server_name(spec, &bin_name)?,
            command: vec!["node".into(), script.to_string_lossy().into_owned()],
        }))
    });
    let base = dir.join(&package_dir);
    let folders = agx_model::skills::wrap::shipped_skills(&base);
    Ok(Launch {
        version,
        exact: format!("npm:{pinned}"),
        integrity: integrity.into_iter().collect(),
        served_by: resolved.and_then(|url| super::served_by(&url)),
        built_by,
        description: manifest["description"].as_str().map(str::to_string),
        server,
        skills: Some(super::ShippedSkills { base, folders }),
    })
}

/// The install scripts (`preinstall`, `install`, `postinstall`) of every package npm put in
/// `dir`, run by `npm rebuild` once the installer has accepted the version (`--allow-scripts`).
pub(super) fn run_install_scripts(spec: &EcosystemSpec, dir: &Path) -> Result<(), EcosystemError> {
    let missing = || EcosystemError::MissingRuntime {
        what: "npm",
        spec: spec.to_string(),
        install: INSTALL_NODE,
    };
    let args = ["rebuild", "--no-audit", "--no-fund", "--prefix", "."];
    // npm 11.19 and later run a dependency's install scripts only when `allowScripts`
    // approves it; `--allow-scripts` is that approval, for this install. (Earlier npm ignores
    // the setting.)
    let output = output_within_deadline(
        spec,
        std::process::Command::new("npm")
            .args(args)
            .env("npm_config_dangerously_allow_all_scripts", "true")
            .current_dir(dir),
    )?
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => missing(),
        _ => e.into(),
    })?;
    match output.status.success() {
        true => Ok(()),
        false => Err(EcosystemError::Failed {
            spec: spec.to_string(),
            command: format!("npm {}", args.join(" ")),
            detail: tail(&output.stderr),
        }),
    }
}

/// The exact version `npm view` picks for the requested version or range (`latest` when
/// none).
fn resolve(spec: &EcosystemSpec, dir: &Path) -> Result<String, EcosystemError> {
    let wanted = format!(
        "{}@{}",
        spec.native_name(),
        spec.version.as_deref().unwrap_or("latest")
    );
    // `--` ends npm's options: nothing after it is read as a flag.
    let output = output_within_deadline(
        spec,
        std::process::Command::new("npm")
            .args(["view", "--json", "--", &wanted, "version"])
            .current_dir(dir),
    )?
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => EcosystemError::MissingRuntime {
            what: "npm",
            spec: spec.to_string(),
            install: INSTALL_NODE,
        },
        _ => e.into(),
    })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        if stderr.contains("E404") || stdout.contains("E404") {
            // npm answers E404 for a missing version too, saying "No match found".
            let detail = if stderr.contains("No match found") {
                no_such_version(spec)
            } else {
                format!("the npm registry has no package `{}`", spec.native_name())
            };
            return Err(EcosystemError::NotFound {
                spec: spec.to_string(),
                detail,
            });
        }
        return Err(EcosystemError::Failed {
            spec: spec.to_string(),
            command: format!("npm view --json -- {wanted} version"),
            detail: tail(&output.stderr),
        });
    }
    // One match prints a string, several print an array (ascending), none print nothing.
    let versions: Vec<String> = match serde_json::from_str::<serde_json::Value>(stdout.trim()) {
        Ok(serde_json::Value::String(v)) => vec![v],
        Ok(serde_json::Value::Array(vs)) => vs
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    versions
        .last()
        .cloned()
        .ok_or_else(|| EcosystemError::NotFound {
            spec: spec.to_string(),
            detail: no_such_version(spec),
        })
}

fn no_such_version(spec: &EcosystemSpec) -> String {
    format!(
        "`{}` has no version matching `{}`",
        spec.native_name(),
        spec.version.as_deref().unwrap_or("latest")
    )
}

/// The `integrity` package-lock.json records for the package itself.
fn lock_entry(dir: &Path, name: &str) -> Result<(Option<String>, Option<String>), EcosystemError> {
    let lock: serde_json::Value =
        serde_json::from_slice(&fs_err::read(dir.join("package-lock.json"))?).unwrap_or_default();
    let entry = &lock["packages"][format!("node_modules/{name}")];
    let field = |key: &str| entry[key].as_str().map(str::to_string);
    Ok((field("integrity"), field("resolved")))
}

/// The `bin` entry to run: the only one, or the one named like the package (without scope).
/// The `bin` to run: `None` when the package declares none.
fn pick_bin(
    spec: &EcosystemSpec,
    manifest: &serde_json::Value,
) -> Result<Option<(String, String)>, EcosystemError> {
    let name = spec.native_name();
    let short = name.rsplit('/').next().unwrap_or(&name);
    match &manifest["bin"] {
        serde_json::Value::String(path) => Ok(Some((short.to_string(), path.clone()))),
        serde_json::Value::Object(bins) => {
            let entries: Vec<(String, String)> = bins
                .iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                .collect();
            if let [only] = entries.as_slice() {
                return Ok(Some(only.clone()));
            }
            if entries.is_empty() {
                return Ok(None);
            }
            entries
                .iter()
                .find(|(k, _)| k == short)
                .cloned()
                .map(Some)
                .ok_or_else(|| {
                    let names: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
                    no_launch(
                        spec,
                        format!(
                            "it has several bin entries ({}) and none is named `{short}`",
                            names.join(", ")
                        ),
                    )
                })
        }
        _ => Ok(None),
    }
}

fn no_launch(spec: &EcosystemSpec, detail: String) -> EcosystemError {
    EcosystemError::NoLaunch {
        spec: spec.to_string(),
        detail,
    }
}

/// A package tarball `npm pack` downloaded, as npm describes it.
#[derive(Debug)]
pub(crate) struct Packed {
    /// The `.tgz` (its top folder is `package/`).
    pub tarball: std::path::PathBuf,
    /// The exact version npm picked for the spec's version or range.
    pub version: String,
    /// npm's integrity of the tarball (`sha512-…`), checked here against its bytes.
    pub integrity: String,
}

/// Download the tarball of `spec` into `dest` with `npm pack --ignore-scripts` (nothing of
/// the package runs; npm checks the tarball against the registry's `dist.integrity`), from
/// `registry` when given. The tarball's sha512 is checked against the integrity npm prints.
pub(crate) fn pack(
    spec: &EcosystemSpec,
    registry: Option<&str>,
    dest: &Path,
) -> Result<Packed, EcosystemError> {
    let missing = |what: &'static str| {
        move || EcosystemError::MissingRuntime {
            what,
            spec: spec.to_string(),
            install: INSTALL_NODE,
        }
    };
    run(spec, "node", &["--version"], dest, missing("node"))?;
    let wanted = format!(
        "{}@{}",
        spec.native_name(),
        spec.version.as_deref().unwrap_or("latest")
    );
    let destination = dest.display().to_string();
    let mut args = vec![
        "pack",
        "--json",
        "--ignore-scripts",
        "--pack-destination",
        &destination,
    ];
    if let Some(registry) = registry {
        args.extend(["--registry", registry]);
    }
    args.extend(["--", &wanted]);
    let output = run(spec, "npm", &args, dest, missing("npm"))?;
    let bad = |detail: String| EcosystemError::Failed {
        spec: spec.to_string(),
        command: format!("npm {}", args.join(" ")),
        detail,
    };
    // `npm pack --json` prints an array with one object per package packed.
    let described: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| bad(format!("its output is not JSON: {e}")))?;
    let field = |key: &str| {
        described[0][key]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| bad(format!("its output names no `{key}`")))
    };
    let (filename, version, integrity) =
        (field("filename")?, field("version")?, field("integrity")?);
    if filename.contains(['/', '\\']) {
        return Err(bad(format!("it wrote `{filename}`, not a file name")));
    }
    let tarball = dest.join(&filename);
    let actual = sha512_integrity(&tarball)?;
    if actual != integrity {
        return Err(bad(format!(
            "{filename} has the integrity {actual}, not the {integrity} npm reported"
        )));
    }
    Ok(Packed {
        tarball,
        version,
        integrity,
    })
}

/// `sha512-<base64>`: a file's integrity as npm writes it (Subresource Integrity).
fn sha512_integrity(path: &Path) -> std::io::Result<String> {
    use base64::Engine as _;
    use sha2::{Digest, Sha512};
    let digest = Sha512::digest(fs_err::read(path)?);
    Ok(format!(
        "sha512-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrity_is_npm_s_sha512_in_base64() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x");
        std::fs::write(&file, "hello\n").unwrap();
        // `printf 'hello\n' | openssl dgst -sha512 -binary | base64`
        assert_eq!(
            sha512_integrity(&file).unwrap(),
            "sha512-58IrmUxZ2c8rSOVJseJGZmNgRZMNPafBrLKZ0cO3+TH5Sq5B7dosKyB6NuEPi8uNRSI+VIePWzFufOO2vAGWKQ=="
        );
    }
}
