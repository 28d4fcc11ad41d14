//! Compiled-code caches of wrapped servers, kept in each version's data folder outside the
//! store (`data-v1/<publisher>/<name>/<version>/`, see [`agx_store::Store::data_dir_of`]):
//! Node's V8 compile cache for servers run by `node`. Python's bytecode is compiled into
//! the venv at install instead ([`super::pypi`]). See docs/ecosystem.md, "Compiled-code
//! caches".

use std::path::{Path, PathBuf};

/// The Node version and the `node` binary it was read from, recorded at install so a start
/// never spawns `node --version`: only a different binary (an upgrade, another PATH) is
/// asked again.
const NODE_RECORD: &str = "node.toml";
/// The folder of the compile cache; `<node version>/` inside it is the cache of that
/// version (the preload adds it, from the version that actually runs).
const NODE_CACHE: &str = "node-compile-cache";
/// The preload that turns the cache on, written beside it.
const NODE_PRELOAD: &str = "node-compile-cache.cjs";
const NODE_PRELOAD_SOURCE: &str = include_str!("node_compile_cache.cjs");
/// The variable that tells the preload where the cache is.
const NODE_CACHE_ENV: &str = "AGX_NODE_COMPILE_CACHE";
/// `module.enableCompileCache` first shipped in Node 22.1.
const NODE_WITH_COMPILE_CACHE: (u64, u64) = (22, 1);

#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct NodeRecord {
    /// `node --version`, as `v22.23.3`.
    version: String,
    /// The binary (links resolved), its size and modification time (ns since the epoch).
    program: PathBuf,
    bytes: u64,
    modified_ns: u64,
}

/// The `node` a server's command runs (the first on PATH, links resolved) and what
/// identifies that build of it.
fn node_binary() -> Option<(PathBuf, u64, u64)> {
    let found = agx_core::paths::find_on_path("node")?;
    let program = fs_err::canonicalize(found).ok()?;
    let meta = fs_err::metadata(&program).ok()?;
    let modified_ns = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos()
        .try_into()
        .ok()?;
    Some((program, meta.len(), modified_ns))
}

/// Ask the `node` on PATH its version and record it in `data_dir` (at install, and at the
/// first start after `node` changed). `None` when there is no `node` to ask.
pub fn record_node(data_dir: &Path) -> std::io::Result<Option<String>> {
    let Some((program, bytes, modified_ns)) = node_binary() else {
        return Ok(None);
    };
    let output = std::process::Command::new(&program)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()?;
    let version = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if !output.status.success() || version.is_empty() {
        return Ok(None);
    }
    let record = NodeRecord {
        version: version.clone(),
        program,
        bytes,
        modified_ns,
    };
    fs_err::create_dir_all(data_dir)?;
    let text = toml::to_string(&record).map_err(std::io::Error::other)?;
    agx_core::atomic::write_file(&data_dir.join(NODE_RECORD), text.as_bytes(), None)?;
    Ok(Some(version))
}

/// The recorded Node version, while the `node` on PATH is the binary it was read from.
fn recorded_node(data_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(data_dir.join(NODE_RECORD)).ok()?;
    let record: NodeRecord = toml::from_str(&text).ok()?;
    let (program, bytes, modified_ns) = node_binary()?;
    (record.program == program && record.bytes == bytes && record.modified_ns == modified_ns)
        .then_some(record.version)
}

/// Whether `version` (`v22.1.0`) has `module.enableCompileCache`.
fn has_compile_cache(version: &str) -> bool {
    let mut parts = version
        .trim_start_matches('v')
        .split('.')
        .map(|p| p.parse::<u64>().unwrap_or(0));
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    (major, minor) >= NODE_WITH_COMPILE_CACHE
}

/// What a start of a `node` server adds for its compile cache: arguments for `node`
/// (before the script) and environment variables.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct NodeCacheLaunch {
    pub node_args: Vec<String>,
    pub env: Vec<(String, String)>,
}

/// The compile cache of a `node` server whose version's data folder is `data_dir`: nothing
/// on a Node without one (before 22.1); `Err` with the line to log when the cache cannot
/// be used (the server then starts without it).
pub fn node_launch(data_dir: &Path) -> Result<Option<NodeCacheLaunch>, String> {
    let version = match recorded_node(data_dir) {
        Some(version) => Some(version),
        // Installed by an older agx, or `node` changed since: ask once, and record.
        None => record_node(data_dir).map_err(|e| {
            format!(
                "cannot record the Node version in {}: {e}; starting without the compile cache",
                data_dir.display()
            )
        })?,
    };
    if !version.as_deref().is_some_and(has_compile_cache) {
        return Ok(None);
    }
    let cache = data_dir.join(NODE_CACHE);
    let preload = data_dir.join(NODE_PRELOAD);
    let unusable = |e: std::io::Error| {
        format!(
            "the compile cache {} cannot be used ({e}); starting without it (delete it to \
             start afresh)",
            cache.display()
        )
    };
    fs_err::create_dir_all(&cache).map_err(unusable)?;
    if std::fs::read(&preload).ok().as_deref() != Some(NODE_PRELOAD_SOURCE.as_bytes()) {
        agx_core::atomic::write_file(&preload, NODE_PRELOAD_SOURCE.as_bytes(), None)
            .map_err(unusable)?;
    }
    Ok(Some(NodeCacheLaunch {
        node_args: vec!["--require".into(), preload.display().to_string()],
        env: vec![(NODE_CACHE_ENV.into(), cache.display().to_string())],
    }))
}

/// Whether a command runs `node` itself (an npm package, or a registry entry run by `node`).
pub fn runs_node(command: &[String]) -> bool {
    command.first().is_some_and(|program| program == "node")
}

/// Whether a command runs the Python of a PyPI package's venv (its bytecode compiled at
/// install, see `super::pypi`).
pub fn runs_venv_python(command: &[String]) -> bool {
    command
        .first()
        .is_some_and(|program| program == agx_model::manifest::VENV_PYTHON)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_cache_needs_node_22_1() {
        assert!(!has_compile_cache("v20.20.2"));
        assert!(!has_compile_cache("v22.0.0"));
        assert!(has_compile_cache("v22.1.0"));
        assert!(has_compile_cache("v22.23.3"));
        assert!(has_compile_cache("v24.0.0"));
        assert!(!has_compile_cache("garbage"));
    }
}
