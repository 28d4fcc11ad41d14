//! The organisation's policy for one command (docs/policy.md): loaded from its three layers,
//! with the configured source names it may refer to, and shown by `agx policy show`.

use std::path::Path;

use super::{Context, OpsResult};
use agx_store::PolicyGate;

/// The policy that governs a command run in `project` (`None`: the project around the
/// current folder, if any). A policy that cannot be read stops the command.
pub fn gate(
    ctx: &Context,
    project: Option<&Path>,
) -> Result<PolicyGate, agx_model::policy::PolicyError> {
    let found;
    let project = match project {
        Some(p) => Some(p),
        None => {
            found = agx_project::find_project(None).ok();
            found.as_deref()
        }
    };
    let policy = agx_project::policy::load(ctx.paths, project)?;
    if policy.is_empty() {
        return Ok(PolicyGate::default());
    }
    Ok(PolicyGate::new(
        policy,
        agx_store::policy_gate::source_names(ctx.paths),
    ))
}

/// One rule of the effective policy, as `agx policy show` prints it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ShownRule {
    pub rule: &'static str,
    pub value: String,
    pub layer: String,
    /// `file:line:column`.
    pub at: String,
}

/// The effective policy: each layer's file and its rules.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PolicyView {
    /// The files agx reads, in order, and whether each exists.
    pub files: Vec<PolicyFileView>,
    pub rules: Vec<ShownRule>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct PolicyFileView {
    pub layer: String,
    pub path: String,
    pub present: bool,
}

/// What `agx policy show` prints: for `project` given, that project (which must exist),
/// else the one around the current folder.
pub fn show(ctx: &Context, project: Option<&Path>) -> OpsResult<PolicyView> {
    let found = match project {
        Some(dir) => Some(agx_project::find_project(Some(dir))?),
        None => agx_project::find_project(None).ok(),
    };
    let policy = agx_project::policy::load(ctx.paths, found.as_deref())?;
    let files = agx_project::policy::layer_files(ctx.paths, found.as_deref())
        .into_iter()
        .map(|(layer, path)| PolicyFileView {
            layer: layer.to_string(),
            present: policy
                .layers
                .iter()
                .any(|l| l.layer == layer && l.file == path),
            path: path.display().to_string(),
        })
        .collect();
    let rules = policy
        .layers
        .iter()
        .flat_map(|l| {
            l.rules
                .shown()
                .into_iter()
                .map(|(rule, value, at)| ShownRule {
                    rule,
                    value,
                    layer: l.layer.to_string(),
                    at: at.to_string(),
                })
        })
        .collect();
    Ok(PolicyView { files, rules })
}
