//! PyPI packages: a venv in the package folder (`python3 -m venv --copies`, so the folder
//! holds no links and can be renamed into the store), pip installing wheels only unless
//! sdists are allowed, launched with the venv's python on the package's console script.

use std::path::Path;

use agx_core::name::normalize_pypi_name;

use super::{
    EcosystemError, EcosystemSpec, Launch, ProvisionOptions, ShippedSkills, output_within_deadline,
    run, server_name, tail, to_semver,
};

const INSTALL_PYTHON: &str = "install Python 3 with its venv module (e.g. `apt install python3 python3-venv`, or https://www.python.org) and make sure `python3` is on PATH";

use agx_model::manifest::VENV_PYTHON;

pub(super) fn provision(
    spec: &EcosystemSpec,
    dir: &Path,
    options: &ProvisionOptions,
) -> Result<Launch, EcosystemError> {
    let missing = || EcosystemError::MissingRuntime {
        what: "python3",
        spec: spec.to_string(),
        install: INSTALL_PYTHON,
    };
    run(
        spec,
        "python3",
        &["-m", "venv", "--copies", "venv"],
        dir,
        missing,
    )?;
    let python = dir.join(VENV_PYTHON);
    let python = python.to_string_lossy();
    let name = spec.native_name();
    let requirement = match &spec.version {
        Some(v) => format!("{name}=={v}"),
        None => name.to_string(),
    };
    let mut args = vec![
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--no-input",
        "--report",
        "pip-report.json",
    ];
    if !options.allow_sdist {
        args.extend(["--only-binary", ":all:"]);
    }
    // `--` ends pip's options: nothing after it is read as a flag.
    args.extend(["--", &requirement]);
    let output = output_within_deadline(
        spec,
        std::process::Command::new(&*python)
            .args(&args)
            .current_dir(dir),
    )??;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("No matching distribution found") {
            let wheels = if options.allow_sdist {
                ""
            } else {
                " with wheels (agx installs wheels only unless --allow-sdist)"
            };
            let detail = if stderr.contains("(from versions: none)") {
                // pip lists no version: the name, or the pinned version, may not exist at
                // all; or only source archives may.
                match spec.version.as_deref() {
                    Some(version) => format!(
                        "PyPI has no `{name}` version `{version}`{wheels}: check the name and the version (`pip index versions {name}` lists them)"
                    ),
                    None => format!("PyPI has no package `{name}`{wheels}"),
                }
            } else {
                format!(
                    "`{name}` has no version `{}`",
                    spec.version.as_deref().unwrap_or("?")
                )
            };
            return Err(EcosystemError::NotFound {
                spec: spec.to_string(),
                detail: format!("{detail}\n{}", tail(&output.stderr)),
            });
        }
        return Err(EcosystemError::Failed {
            spec: spec.to_string(),
            command: format!("pip install {requirement}"),
            detail: tail(&output.stderr),
        });
    }

    let report: serde_json::Value =
        serde_json::from_slice(&fs_err::read(dir.join("pip-report.json"))?).unwrap_or_default();
    let installs = report["install"].as_array().cloned().unwrap_or_default();
    let integrity = installs
        .iter()
        .map(|item| {
            let meta = &item["metadata"];
            let hash = item["download_info"]["archive_info"]["hashes"]["sha256"]
                .as_str()
                .unwrap_or("unknown");
            format!(
                "{}=={} sha256:{hash}",
                meta["name"].as_str().unwrap_or("?"),
                meta["version"].as_str().unwrap_or("?")
            )
        })
        .collect();
    let ours = installs
        .iter()
        .map(|item| &item["metadata"])
        .find(|meta| {
            meta["name"]
                .as_str()
                .map(|n| normalize_pypi_name(n).unwrap_or_default())
                == Some(name.to_string())
        })
        .ok_or_else(|| EcosystemError::Failed {
            spec: spec.to_string(),
            command: format!("pip install {requirement}"),
            detail: "pip's report does not list the package".into(),
        })?;
    let download = installs
        .iter()
        .find(|item| std::ptr::eq(&item["metadata"], ours))
        .map(|item| &item["download_info"]);
    let download_url = download.and_then(|d| d["url"].as_str());
    let served_by = download_url.and_then(super::served_by);
    let exact = ours["version"].as_str().unwrap_or_default().to_string();
    let version = to_semver(spec, &exact)?;
    let built_by = built_by(spec, dir, &name, &exact, download)?;

    let (script, shipped) = read_distribution(spec, dir)?;
    compile_bytecode(spec, dir, &[0])?;
    let server = script.and_then(|script| {
        let Some(script) = script else {
            return Ok(None);
        };
        Ok(Some(super::WrappedServer {
            name: server_name(spec, &script)?,
            command: vec![VENV_PYTHON.into(), format!("venv/bin/{script}")],
        }))
    });
    Ok(Launch {
        version,
        exact: format!("pypi:{name}=={exact}"),
        integrity,
        served_by,
        built_by,
        description: ours["summary"].as_str().map(str::to_string),
        server,
        skills: Some(shipped),
    })
}

/// Who built the package's own distribution, from the PEP 740 provenance of the index it
/// came from (docs/ecosystem.md, "Provenance by source kind"); the verified bundle is kept in
/// the package folder for `agx verify`. Not checked for a file from another index, or one
/// pip did not download (a local path).
fn built_by(
    spec: &EcosystemSpec,
    dir: &Path,
    project: &str,
    version: &str,
    download: Option<&serde_json::Value>,
) -> Result<super::BuiltBy, EcosystemError> {
    let Some(download) = download else {
        return Ok(super::BuiltBy::NotChecked);
    };
    let url = download["url"].as_str().unwrap_or_default();
    let sha256: Option<[u8; 32]> = download["archive_info"]["hashes"]["sha256"]
        .as_str()
        .and_then(|hex| hex::decode(hex).ok())
        .and_then(|bytes| bytes.try_into().ok());
    let filename = url
        .rsplit('/')
        .next()
        .and_then(|last| last.split(['#', '?']).next())
        .unwrap_or_default();
    let (Some(base), Some(sha256)) = (super::pypi_provenance::integrity_base(url), sha256) else {
        return Ok(super::BuiltBy::NotChecked);
    };
    if filename.is_empty() {
        return Ok(super::BuiltBy::NotChecked);
    }
    let verified = super::pypi_provenance::signer(
        &spec.to_string(),
        &base,
        project,
        version,
        filename,
        sha256,
    )?;
    let Some(verified) = verified else {
        return Ok(super::BuiltBy::NotChecked);
    };
    if let Some(verified) = &verified {
        fs_err::write(dir.join(agx_store::PROVENANCE_BUNDLE), &verified.bundle)?;
    }
    Ok(super::BuiltBy::Checked(verified.map(|v| v.signer)))
}

/// Compile every Python file of the venv to bytecode at each optimization `level` the
/// server's interpreter will ask for (0 plain, 1 for `-O`, 2 for `-OO`), so that no start
/// compiles them. pip compiles what it installs at level 0 unless its configuration says
/// otherwise (`PIP_NO_COMPILE`, `no-compile` in pip.conf); compileall checks each file and
/// writes only what is missing or out of date. A file that does not compile is left to the
/// interpreter (it fails only if imported), so its exit status is not an error.
pub(super) fn compile_bytecode(
    spec: &EcosystemSpec,
    dir: &Path,
    levels: &[u8],
) -> Result<(), EcosystemError> {
    let mut args = vec!["-m", "compileall", "-q", "-j", "0"];
    let levels: Vec<String> = levels.iter().map(u8::to_string).collect();
    for level in &levels {
        args.extend(["-o", level]);
    }
    args.push("venv/lib");
    output_within_deadline(
        spec,
        std::process::Command::new(dir.join(VENV_PYTHON))
            .args(&args)
            .current_dir(dir),
    )??;
    Ok(())
}

/// The optimization levels a server's interpreter asks for besides 0: those of `-O` and
/// `-OO` among the interpreter's arguments `python_args`, and of `PYTHONOPTIMIZE` in its
/// environment.
pub(super) fn optimization_levels<'a>(
    python_args: impl IntoIterator<Item = &'a str>,
    env: &std::collections::BTreeMap<String, String>,
) -> Vec<u8> {
    let mut level: u8 = 0;
    for arg in python_args {
        // `-O`, `-OO` and short flags run together with them (`-BO`).
        if let Some(flags) = arg.strip_prefix('-').filter(|f| !f.starts_with('-')) {
            let count = flags.chars().filter(|&c| c == 'O').count();
            level = level.saturating_add(u8::try_from(count).unwrap_or(u8::MAX));
        }
    }
    // Like the interpreter: a number is the level, any other non-empty value is 1.
    if let Some(value) = env.get("PYTHONOPTIMIZE").filter(|v| !v.is_empty()) {
        level = level.max(value.parse::<u8>().unwrap_or(1));
    }
    (1..=level.min(2)).collect()
}

/// The console script to run: the one named like the package, or the only one. Read from
/// the installed metadata by the standard library, without importing the package.
/// What the installed distribution offers: its console script (`None` when it declares
/// none, an error when none of several can be picked)
/// and the skills it ships, `TOP/skills/<name>/SKILL.md` among its files (a wheel's
/// package data, the place of npm's `skills/` in a Python package). One interpreter start.
fn read_distribution(
    spec: &EcosystemSpec,
    dir: &Path,
) -> Result<(Result<Option<String>, EcosystemError>, ShippedSkills), EcosystemError> {
    const READ: &str = "import importlib.metadata as m, json, sys\n\
        d = m.distribution(sys.argv[1])\n\
        scripts = sorted(e.name for e in d.entry_points if e.group == 'console_scripts')\n\
        skills = sorted({'/'.join(f.parts[:3]) for f in (d.files or []) if len(f.parts) == 4 and not f.is_absolute() and chr(92) not in str(f) and ':' not in str(f) and f.parts[0] != '..' and not f.parts[0].endswith('.dist-info') and f.parts[1] == 'skills' and f.parts[3] == 'SKILL.md'})\n\
        print(json.dumps({'scripts': scripts, 'base': str(d.locate_file('')), 'skills': skills}))";
    let name = spec.native_name();
    let output = run(spec, VENV_PYTHON, &["-c", READ, &name], dir, || {
        EcosystemError::Io(std::io::Error::other("the venv has no python"))
    })?;
    let read: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    let strings = |key: &str| -> Vec<String> {
        read[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let scripts = strings("scripts");
    let shipped = ShippedSkills {
        base: read["base"].as_str().unwrap_or_default().into(),
        folders: strings("skills"),
    };
    let script = match scripts.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(only.clone())),
        _ => scripts
            .iter()
            .find(|s| normalize_pypi_name(s).is_ok_and(|s| s == name))
            .cloned()
            .map(Some)
            .ok_or_else(|| EcosystemError::NoLaunch {
                spec: spec.to_string(),
                detail: format!(
                    "it has several console scripts ({}) and none is named `{name}`",
                    scripts.join(", ")
                ),
            }),
    };
    Ok((script, shipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optimization_levels_follow_the_interpreter() {
        let none = std::collections::BTreeMap::new();
        assert!(optimization_levels([], &none).is_empty());
        assert!(optimization_levels(["-u", "--check-hash-based-pycs"], &none).is_empty());
        assert_eq!(optimization_levels(["-O"], &none), [1]);
        assert_eq!(optimization_levels(["-OO"], &none), [1, 2]);
        assert_eq!(optimization_levels(["-BO", "-O"], &none), [1, 2]);
        let env = |v: &str| [("PYTHONOPTIMIZE".to_string(), v.to_string())].into();
        assert_eq!(optimization_levels([], &env("1")), [1]);
        assert_eq!(optimization_levels([], &env("2")), [1, 2]);
        assert_eq!(optimization_levels([], &env("yes")), [1]);
        assert!(optimization_levels([], &env("")).is_empty());
    }
}
