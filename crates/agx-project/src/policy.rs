//! Reading the policy's layers (docs/policy.md): the system file, the user's `policy.toml`
//! and the `[policy]` table of the project's `agx.toml`. A missing file is no layer; a file
//! that cannot be read or parsed is an error, which stops every command the policy governs.

use std::path::Path;

use agx_core::paths::AgxPaths;
use agx_core::regular_file::{ReadProblem, read_text};
use agx_model::manifest::spanned::{SourceFile, parse_toml};
use agx_model::policy::{
    Layer, Location, Policy, PolicyError, PolicyLayer, parse_file, parse_project,
};

/// No policy file is anywhere near this size; the cap keeps a hostile one from filling memory.
const MAX_POLICY_BYTES: u64 = 1 << 20;

/// The effective policy for a command run in `project` (the project folder, when there is one).
pub fn load(paths: &AgxPaths, project: Option<&Path>) -> Result<Policy, PolicyError> {
    let mut layers = Vec::new();
    for (layer, path) in [
        (Layer::System, agx_core::paths::system_policy_file()),
        (Layer::User, paths.policy_file()),
    ] {
        if let Some(text) = read(&path)? {
            layers.push(parse_file(&path, text, layer)?);
        }
    }
    if let Some(dir) = project
        && let Some(layer) = project_layer(&dir.join(crate::PROJECT_FILE))?
    {
        layers.push(layer);
    }
    Policy::from_layers(layers)
}

/// The project's `[policy]` table. An `agx.toml` that is not valid TOML counts as a broken
/// policy only when it may hold one (a line opens `[policy`); otherwise the project
/// commands report it, and the commands it does not govern (`agx install` of a package
/// whose own agx.toml is being written) go on.
fn project_layer(path: &Path) -> Result<Option<PolicyLayer>, PolicyError> {
    let Some(text) = read(path)? else {
        return Ok(None);
    };
    if !text.contains("policy") {
        return Ok(None);
    }
    let file = SourceFile::new(path.display().to_string(), text);
    let root = match parse_toml(&file.text) {
        Ok(root) => root,
        Err(e)
            if file
                .text
                .lines()
                .any(|l| l.trim_start().starts_with("[policy")) =>
        {
            let (line, column) = file.line_col(e.span.start);
            return Err(PolicyError::Invalid {
                at: Location {
                    file: path.to_path_buf(),
                    line,
                    column,
                },
                message: format!("not valid TOML: {}", e.message),
                hint: None,
            });
        }
        Err(_) => return Ok(None),
    };
    let Some(node) = root
        .as_table()
        .and_then(|t| t.iter().find(|e| e.key == "policy"))
    else {
        return Ok(None);
    };
    parse_project(path, &file, &node.value).map(Some)
}

fn read(path: &Path) -> Result<Option<String>, PolicyError> {
    match read_text(path, MAX_POLICY_BYTES) {
        Ok(text) => Ok(Some(text)),
        Err(ReadProblem::NotFound) => Ok(None),
        Err(problem) => Err(PolicyError::Read {
            path: path.to_path_buf(),
            source: problem.into_io(),
        }),
    }
}
