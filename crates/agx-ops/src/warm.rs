//! `--warm` (`agx install`, `agx sync`): start each newly installed wrapped or remote server
//! once, as a client would (`agx serve`), read its lists, and stop it, so that its first real
//! start already finds its compile cache (docs/ecosystem.md, "Compiled-code caches") and its
//! definitions are pinned before a client sees them (docs/security.md, "Pinned
//! definitions"). Warming runs the package's code, which is why it is asked for.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Context;
use agx_core::name::PackageName;
use agx_model::manifest::Package;
use agx_store::pins::PinnedList;

/// How long a server may take to answer while warming; one that takes longer is stopped, and
/// its first real start warms its cache and pins its definitions instead.
const WARM_DEADLINE: Duration = Duration::from_secs(60);

/// A server to warm: `package/server@=version`.
#[derive(Debug, Clone)]
pub struct WarmTarget {
    pub package: PackageName,
    pub version: semver::Version,
    pub server: String,
}

/// The servers of `package` that run a program or bridge a remote: their caches fill and
/// their definitions are pinned when first started.
pub fn targets_of(package: &Package) -> Vec<WarmTarget> {
    package
        .servers
        .iter()
        .filter(|s| s.url.is_some() || s.command.is_some())
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

/// `agx serve REFERENCE`, `initialize` sent, then every list it offers read to its last page
/// (which pins the server's definitions, docs/security.md), stopped once answered.
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
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(message) = serde_json::from_str::<Value>(&line)
                    && message.get("method").is_none()
                    && tx.send(message).is_err()
                {
                    return;
                }
            }
        });
        let deadline = Instant::now() + WARM_DEADLINE;
        let mut ask = |id: u64, method: &str, params: Value| -> Result<Value, String> {
            let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            writeln!(stdin, "{request}").map_err(|e| e.to_string())?;
            stdin.flush().map_err(|e| e.to_string())?;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                match rx.recv_timeout(left) {
                    Ok(message) if message["id"] == id => {
                        return Ok(message.get("result").cloned().unwrap_or(Value::Null));
                    }
                    Ok(_) => continue,
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(format!("it ended without answering `{method}`"));
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        return Err(format!(
                            "it did not answer `{method}` within {} s",
                            WARM_DEADLINE.as_secs()
                        ));
                    }
                }
            }
        };
        let initialized = ask(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "agx-warm", "version": env!("CARGO_PKG_VERSION")}}),
        )?;
        let mut id = 1;
        for list in PinnedList::ALL {
            if initialized
                .pointer(&format!("/capabilities/{}", list.capability()))
                .is_none()
            {
                continue;
            }
            let mut cursor: Option<String> = None;
            loop {
                id += 1;
                let params = cursor.map_or(json!({}), |c| json!({"cursor": c}));
                let page = ask(id, list.method(), params)?;
                cursor = page["nextCursor"].as_str().map(str::to_string);
                if cursor.is_none() {
                    break;
                }
            }
        }
        Ok(())
    })();
    tree.kill(&mut child);
    let _ = child.wait();
    answered
}
