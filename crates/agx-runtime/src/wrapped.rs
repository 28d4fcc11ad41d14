//! Wrapped servers: a package that ships its own MCP server. `agx serve` replaces itself
//! with that program (exec), so stdio passes straight through with no copying. Windows has
//! no exec: there agx starts the program on the same standard streams, waits for it and
//! exits with its exit code.
//! A server with a filter or pins to check still gets this process on Linux, with agx's
//! proxy forked beside it (proxy_beside.rs); elsewhere `agx serve` runs it as a child and
//! proxies it (filtered.rs). One whose network goes through agx's proxy (docs/sandbox.md)
//! runs as agx's child.

use super::ServeError;
use super::assemble::{WrappedServer, package_env};
use agx_model::manifest::resolve_program;
use agx_model::settings::placeholders;

/// Exec the wrapped server. Returns only when it could not be started.
pub(crate) fn exec(w: &WrappedServer) -> ServeError {
    let (program, mut command) = match command(w) {
        Ok(c) => c,
        Err(e) => return e,
    };
    ServeError::Wrapped {
        server: w.server.clone(),
        program,
        source: run_in_place(&mut command),
    }
}

/// Run the wrapped server as a child on this process's standard streams, for a server whose
/// network goes through agx's proxy (which runs in this process, so it cannot exec):
/// SIGINT and SIGTERM sent to agx are passed on, and its exit status is returned.
pub(crate) async fn run_beside_proxy(
    w: &WrappedServer,
) -> Result<std::process::ExitStatus, ServeError> {
    let (program, command) = command(w)?;
    if let Some(sandbox) = &w.sandbox {
        tracing::info!(
            "sandbox for {}: {}",
            w.server.package,
            agx_sandbox::enforcement(sandbox)
        );
    }
    let failed = |source| ServeError::Wrapped {
        server: w.server.clone(),
        program: program.clone(),
        source,
    };
    let mut command = tokio::process::Command::from(command);
    // Should agx die, the server goes too: its network went with agx's proxy.
    #[cfg(target_os = "linux")]
    // SAFETY: prctl takes numbers only.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    let mut child = command.spawn().map_err(failed)?;
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt()).map_err(ServeError::Runtime)?;
        let mut terminate = signal(SignalKind::terminate()).map_err(ServeError::Runtime)?;
        loop {
            let forwarded = tokio::select! {
                status = child.wait() => return status.map_err(failed),
                _ = interrupt.recv() => libc::SIGINT,
                _ = terminate.recv() => libc::SIGTERM,
            };
            if let Some(pid) = child.id() {
                // SAFETY: kill takes a pid and a signal number only.
                unsafe { libc::kill(pid as libc::pid_t, forwarded) };
            }
        }
    }
    #[cfg(not(unix))]
    child.wait().await.map_err(failed)
}

/// The exit code for agx that reports `status` (128 + the signal that ended it, as shells
/// do, on Unix).
pub(crate) fn exit_code(status: std::process::ExitStatus) -> i32 {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return 128 + signal;
    }
    status.code().unwrap_or(1)
}

/// The wrapped server's program (as written, for messages) and the command that starts it
/// as `agx serve` would: package paths and settings substituted, the package's environment,
/// its arguments.
pub(crate) fn command(w: &WrappedServer) -> Result<(String, std::process::Command), ServeError> {
    // `${package.dir}` and `${package.data}` (an imported plugin's `${CLAUDE_PLUGIN_ROOT}`
    // and `${CLAUDE_PLUGIN_DATA}`), then `${settings.KEY}` in the command and env
    // (server.json arguments and variables).
    let located = |text: &String| package_paths(text, w);
    let command: Vec<String> = w.command.iter().map(located).collect();
    let env: std::collections::BTreeMap<String, String> =
        w.env.iter().map(|(k, v)| (k.clone(), located(v))).collect();
    let command = placeholders::expand_all(&command, &w.settings);
    let env = placeholders::expand_pairs(&env, &w.settings);
    let Some((program, args)) = command.split_first() else {
        return Err(ServeError::Wrapped {
            server: w.server.clone(),
            program: String::new(),
            source: std::io::Error::other("the server's command is empty"),
        });
    };
    let (launched, before_args) = agx_sandbox::launch_line(
        &resolve_program(&w.package_dir, program),
        w.sandbox.as_deref(),
    );
    let mut started = std::process::Command::new(launched);
    started.args(before_args);
    if crate::code_cache::runs_venv_python(&w.command) {
        // The venv holds the bytecode compiled at install; let the interpreter write what
        // is missing (a definition's own `env` may still set it).
        started.env_remove("PYTHONDONTWRITEBYTECODE");
    }
    if let Some(cache) = &w.code_cache {
        // `node --require PRELOAD SCRIPT…`: the preload runs before the server's code.
        started
            .args(&cache.node_args)
            .envs(cache.env.iter().cloned());
    }
    started
        .args(args)
        .args(&w.args)
        .current_dir(&w.cwd)
        .envs(package_env(&w.package_dir, &w.server.package));
    if let Some(data) = &w.data_dir {
        started.envs(super::data_vars::defaults(w, data));
    }
    started.envs(env).envs(w.settings.env_vars());
    if let Some(sandbox) = &w.sandbox {
        agx_sandbox::confine_std(&mut started, sandbox).map_err(|source| ServeError::Wrapped {
            server: w.server.clone(),
            program: program.clone(),
            source,
        })?;
    }
    Ok((program.clone(), started))
}

/// `text` with `${package.dir}` and `${package.data}` replaced by the package's folder and
/// its data folder.
fn package_paths(text: &str, w: &WrappedServer) -> String {
    let mut text = text.replace("${package.dir}", &w.package_dir.to_string_lossy());
    if let Some(data) = &w.data_dir {
        text = text.replace("${package.data}", &data.to_string_lossy());
    }
    text
}

/// Become `command`: exec on Unix. On Windows, run it on this process's standard streams
/// (inherited), wait, and exit with its code. Returns only when it could not be started.
pub(super) fn run_in_place(command: &mut std::process::Command) -> std::io::Error {
    #[cfg(unix)]
    {
        std::os::unix::process::CommandExt::exec(command)
    }
    #[cfg(windows)]
    {
        match command.status() {
            Ok(status) => std::process::exit(status.code().unwrap_or(1)),
            Err(e) => e,
        }
    }
}
