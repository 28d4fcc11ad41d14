//! `agx doctor`: the client entries agx recorded and the skill copies it wrote
//! (`agx_clients::doctor`), and the entries that serve a profile (`agx serve @NAME`), which
//! have no record: each must name a profile that exists, every member of which resolves as
//! `agx serve` would start it (docs/profiles.md). An entry of a remote server whose sign-in
//! can no longer be used is a finding too (docs/auth.md).

use agx_clients::doctor::{DoctorReport, Finding, Problem};
use agx_clients::{self as clients, CLIENTS, ClientError, HostEnv, Scope, Target};
use agx_core::name::PinnedServer;

use crate::{Context, OpsResult};

/// The report of `agx doctor [--fix]`; profile entries are checked, never changed.
pub fn run(ctx: &Context, fix: bool) -> OpsResult<DoctorReport> {
    let mut report = clients::doctor::run(ctx.paths, fix)?;
    let host = HostEnv::current().ok_or(ClientError::NoHome)?;
    for client in CLIENTS {
        let target = Target::new(client, Scope::User, None, None, "KEY", &host)?;
        if !target.file.is_file() {
            continue;
        }
        // A file that does not parse is the recorded entries' finding, not this one's.
        let Ok(entries) = clients::agx_entries(&target) else {
            continue;
        };
        for (key, server, _) in entries {
            let finding = |problem, detail: String, action: String| Finding {
                client: client.id.to_string(),
                scope: Scope::User.as_str().to_string(),
                file: target.file.display().to_string(),
                key: key.clone(),
                server: server.clone(),
                problem,
                detail,
                action,
                fixed: false,
            };
            let Some(name) = server.strip_prefix('@') else {
                if let Some((state, resource)) = unusable_sign_in(ctx, &server) {
                    report.findings.push(finding(
                        Problem::SignInNeeded,
                        format!("the sign-in to {resource} is {state}"),
                        format!("sign in again: `agx auth login {server}` (docs/auth.md)"),
                    ));
                }
                continue;
            };
            report.checked += 1;
            let profile = match agx_project::profile::find_profile(ctx.paths, name) {
                Ok(profile) => profile,
                Err(e) => {
                    report.findings.push(finding(
                        Problem::ProfileMissing,
                        e.to_string(),
                        format!(
                            "define the profile again (docs/profiles.md), or remove the entry: `agx uninstall-server {} {key}`",
                            client.id
                        ),
                    ));
                    continue;
                }
            };
            for member in &profile.members {
                if let Err(detail) = member_resolves(ctx, &member.reference) {
                    report.findings.push(finding(
                        Problem::ProfileMemberBroken,
                        format!("member `{}` ({}): {detail}", member.key, member.reference),
                        format!(
                            "install its package, or change the profile: `agx serve @{name}` starts without it"
                        ),
                    ));
                }
            }
        }
    }
    Ok(report)
}

/// The state of the sign-in to the remote `server` serves, and its URL, when there is one
/// that `agx serve` can no longer use. Asks no server: only what agx keeps.
fn unusable_sign_in(ctx: &Context, server: &str) -> Option<(&'static str, String)> {
    let target = crate::auth::target(ctx, server).ok()?;
    let status = crate::auth::status(ctx, Some(&target))
        .ok()?
        .into_iter()
        .next()?;
    matches!(status.state, "needs-login" | "signed-out").then(|| (status.state, status.resource))
}

/// Why `agx serve` could not start the member `reference`, if it could not.
fn member_resolves(ctx: &Context, reference: &str) -> Result<(), String> {
    let pinned = PinnedServer::parse(reference).map_err(|e| e.to_string())?;
    let server = clients::resolve::server_reference(ctx.paths, &pinned.reference)
        .map_err(|e| e.to_string())?;
    clients::resolve::resolve_server(ctx.paths, &server)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
