//! `--warm` (`agx install`, `agx sync`): start each newly installed server that keeps a
//! compile cache once, as a client would (`agx serve`), answer `initialize`, and stop it, so
//! that its first real start already finds the cache (docs/ecosystem.md, "Compiled-code
//! caches"). Warming runs the package's code, which is why it is asked for.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::Context;
use agx_core::name::PackageName;
use agx_model::manifest::Package;

/// How long a server may take to answer `initialize` while warming; one that takes longer
/// is stopped, and its first real start warms its cache instead.
const WARM_DEADLINE: Duration = Duration::from_secs(60);

/// A server to warm: `package/server@=version`.
#[derive(Debug, Clone)]
pub struct WarmTarget {
    pub package: PackageName,
    pub version: semver::Version,
    pub server: String,
}

/// The servers of `package` that keep a compile cache (those run by `node`).
pub fn targets_of(package: &Package) -> Vec<WarmTarget> {
    package
        .servers
        .iter()
        .filter(|s| {
            s.url.is_none()
                && s.command
                    .as_deref()
                    .is_some_and(agx_runtime::code_cache::runs_node)
        })
        .map(|s| WarmTarget {
            package: package.name().clone(),
            version: package.version().clone(),
            server: s.name.to_string(),
        })
        .collect()
}

/// Warm every target; a server that fails to start or answer is a warning (its first real
/// start warms it), never an error: the install itself succeeded.
pub fn warm(ctx: &Context, targets: &[WarmTarget]) {
    for target in targets {
        let reference = format!("{}/{}@={}", target.package, target.server, target.version);
        ctx.reporter.status("Warming", &reference);
        if let Err(why) = warm_one(ctx, &reference) {
            ctx.reporter.warn(&format!(
                "could not warm {reference}: {why}; its first start fills its cache instead"
            ));
        }
    }
}

/// `agx serve REFERENCE`, `initialize` sent, stopped once it is answered.
fn warm_one(ctx: &Context, reference: &str) -> Result<(), String> {
    let agx = agx_clients::agx_binary().map_err(|e| format!("cannot find agx itself: {e}"))?;
    let mut command = Command::new(agx);
    command
        .args(["serve", reference])
        .env("AGX_HOME", &ctx.paths.home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // Its own process group (Job Object on Windows), so stopping it stops what it started.
    let (mut child, tree) =
        agx_core::process_tree::spawn_tree(&mut command).map_err(|e| e.to_string())?;
    let answered = (|| {
        let mut stdin = child.stdin.take().ok_or("no stdin")?;
        let request = serde_json::json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "agx-warm", "version": env!("CARGO_PKG_VERSION")}},
        });
        writeln!(stdin, "{request}").map_err(|e| e.to_string())?;
        stdin.flush().map_err(|e| e.to_string())?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let answered = BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .any(|line| {
                    serde_json::from_str::<serde_json::Value>(&line)
                        .is_ok_and(|message| message["id"] == 1)
                });
            let _ = tx.send(answered);
        });
        match rx.recv_timeout(WARM_DEADLINE) {
            Ok(true) => Ok(()),
            Ok(false) => Err("it ended without answering `initialize`".to_string()),
            Err(_) => Err(format!(
                "it did not answer `initialize` within {} s",
                WARM_DEADLINE.as_secs()
            )),
        }
    })();
    tree.kill(&mut child);
    let _ = child.wait();
    answered
}
