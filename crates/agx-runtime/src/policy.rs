//! `agx serve` under the organisation's policy (docs/policy.md): a server whose packages
//! come from outside the policy, or whose programs would get more than `permissions.max`,
//! does not start. The reason goes to the server's log and, as the answer to the client's
//! first request, to the client.

use std::io::{BufRead, Write};
use std::path::Path;

use agx_core::paths::AgxPaths;
use agx_model::permissions::{Network, Permissions};
use agx_store::{PolicyGate, Receipt, StoreError, VERSION_RECEIPT};

use crate::assemble::Assembled;
use crate::{Listen, ServeError, log};

/// Check `assembled` against the policy of the project around the current folder.
pub(crate) fn check(paths: &AgxPaths, assembled: &Assembled) -> Result<(), ServeError> {
    let project = agx_project::find_project(None).ok();
    let policy = agx_project::policy::load(paths, project.as_deref())
        .map_err(|e| ServeError::Policy(Box::new(e)))?;
    if policy.is_empty() {
        return Ok(());
    }
    let gate = PolicyGate::new(policy, agx_store::policy_gate::source_names(paths));
    let mut checked: Vec<&Path> = Vec::new();
    let sandbox_on = agx_sandbox::enabled();
    for (what, confinement, package_dir) in assembled.confinements() {
        if !checked.contains(&package_dir) {
            check_origin(&gate, package_dir)?;
            checked.push(package_dir);
        }
        if let Assembled::Wrapped(w) = assembled
            && let Some(url) = &w.url
        {
            // A remote server runs nothing here; what it reaches is its host.
            let host = reqwest::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_string))
                .unwrap_or_else(|| url.clone());
            let remote = Permissions {
                network: Network::Hosts(vec![host]),
                ..Permissions::default()
            };
            refuse_unless(gate.policy.check_declared(&what, Some(&remote)))?;
            continue;
        }
        let confinement = confinement.filter(|c| c.declared && sandbox_on);
        let allowed = |writes: &[String]| {
            let rule = Permissions {
                write: writes.to_vec(),
                ..Permissions::default()
            };
            agx_sandbox::resolve_for(&rule, package_dir).write.clone()
        };
        refuse_unless(gate.policy.check_resolved(&what, confinement, &allowed))?;
    }
    Ok(())
}

fn refuse_unless(result: Result<(), agx_model::policy::Refusal>) -> Result<(), ServeError> {
    result.map_err(|r| ServeError::Store(StoreError::Policy(r)))
}

/// The origin recorded in a version's receipt, against the policy. A version whose receipt
/// cannot be read cannot show where it came from, so it is refused.
fn check_origin(gate: &PolicyGate, package_dir: &Path) -> Result<(), ServeError> {
    let receipt = Receipt::read(&package_dir.join(VERSION_RECEIPT))?;
    let name = receipt.name.to_string();
    gate.check_name(
        &name,
        receipt.name.publisher(),
        &receipt.source,
        receipt.provenance.as_ref(),
    )?;
    Ok(())
}

/// Tell the client why the server does not start: the reason is logged, and on stdio the
/// client's first request is answered with it (then agx exits, as a failed start does).
pub(crate) fn report_refusal(error: &ServeError, log_file: &Path, listen: &Listen) {
    {
        let _log = log::init(Some(log_file));
        tracing::error!("{error}");
    }
    if !matches!(listen, Listen::Stdio) {
        return;
    }
    let message = format!("agx serve: {error}");
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Ok(request) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        // Notifications get no answer; the first request gets the reason.
        let Some(id) = request
            .get("id")
            .filter(|_| request.get("method").is_some())
        else {
            continue;
        };
        let answer = serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": -32603, "message": message },
        });
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{answer}");
        let _ = stdout.flush();
        return;
    }
}
