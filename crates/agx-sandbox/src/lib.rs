//! Least privilege for the programs agx starts for a server (docs/sandbox.md): the
//! permissions a package declares, resolved for a run, and how each OS enforces them.

// Paths are a third larger on Windows (32 bytes, not 24), which puts a few error enums
// past the lint's 128 bytes there; other targets keep the lint and hold the sizes.
#![cfg_attr(windows, allow(clippy::result_large_err))]

#[cfg(unix)]
mod beneath;
mod env;
pub mod growth;
#[cfg(unix)]
mod installations;
pub use agx_model::permissions;
pub mod proxy;
pub mod seatbelt;
pub mod user;

pub use permissions::{Network, Permissions, Resolved};

/// What the programs of `package` run for `server` (its own permissions, else the
/// package's) may touch, resolved for this run; `None` when neither declares permissions:
/// such a package runs unconfined, as before (docs/sandbox.md).
pub fn for_package(
    package: &agx_model::manifest::Package,
    server: Option<&str>,
) -> Option<std::sync::Arc<Resolved>> {
    Some(resolve_for(package.permissions_of(server)?, &package.dir))
}

/// `declared` resolved for a program of the installed package in `package_dir`.
pub fn resolve_for(
    declared: &Permissions,
    package_dir: &std::path::Path,
) -> std::sync::Arc<Resolved> {
    let places = permissions::Places {
        package: package_dir.to_path_buf(),
        data: agx_core::paths::package_data_of(package_dir),
        project: agx_project::discover::find_project(None).ok(),
        home: directories::BaseDirs::new().map(|d| d.home_dir().to_path_buf()),
        tmp: std::env::temp_dir(),
    };
    std::sync::Arc::new(Permissions::resolve(Some(declared), &places))
}

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
mod seccomp;

/// The variable that turns the sandbox off (`off`); `agx serve --no-sandbox` sets it.
pub const OFF_ENV: &str = "AGX_SANDBOX";

/// Whether programs are confined in this process: not with `AGX_SANDBOX=off` in the
/// environment (what `agx serve --no-sandbox` sets).
pub fn enabled() -> bool {
    std::env::var_os(OFF_ENV).is_none_or(|v| v != "off")
}

/// What this machine can enforce, for `agx doctor`.
pub fn machine_summary() -> String {
    #[cfg(target_os = "linux")]
    {
        match linux::kernel_abi() {
            Some(abi) if abi >= 4 => format!(
                "Landlock ABI {abi}: files confined; network confined (TCP; \"loopback\" and host lists through agx's proxy; {} but under network \"any\"){}; capabilities dropped",
                seccomp::enforced(),
                if abi >= 6 { "; signals and abstract sockets scoped" } else { "" }
            ),
            Some(abi) => format!(
                "Landlock ABI {abi}: files confined; network not confined (needs ABI 4, Linux 6.7)"
            ),
            None => "not available: this kernel has no Landlock (Linux 5.13 or later with Landlock enabled); programs run unconfined".into(),
        }
    }
    #[cfg(target_os = "macos")]
    {
        if std::path::Path::new(seatbelt::SANDBOX_EXEC).exists() {
            "Seatbelt (sandbox-exec): files and network confined".into()
        } else {
            format!(
                "not available: {} is missing; programs run unconfined",
                seatbelt::SANDBOX_EXEC
            )
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        NOT_ON_THIS_OS.into()
    }
}

/// What Windows (and any OS but Linux and macOS) enforces.
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
const NOT_ON_THIS_OS: &str = "environment restricted; files and network not confined: agx enforces them on Linux and macOS only (docs/sandbox.md)";

/// One line on what this machine enforces of `resolved` (`agx info`, `agx doctor`, the log).
pub fn enforcement(resolved: &Resolved) -> String {
    if !enabled() {
        return "not confined: the sandbox is off (--no-sandbox or AGX_SANDBOX=off)".into();
    }
    #[cfg(target_os = "linux")]
    {
        linux::enforced(resolved)
    }
    #[cfg(target_os = "macos")]
    {
        if !std::path::Path::new(seatbelt::SANDBOX_EXEC).exists() {
            return machine_summary();
        }
        let sockets = if resolved.network == Network::Any {
            ""
        } else {
            "; Unix sockets denied"
        };
        format!(
            "Seatbelt (sandbox-exec): files confined; network {}{sockets}",
            resolved.network
        )
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        let _ = resolved;
        NOT_ON_THIS_OS.into()
    }
}

/// The program to start for `program` under `sandbox`, and the arguments that go before
/// the program's own. On macOS with the sandbox on that is `sandbox-exec -p PROFILE
/// PROGRAM`; elsewhere the program itself (Linux confines it in the child: [`confine_std`]).
pub fn launch_line(
    program: &std::path::Path,
    sandbox: Option<&Resolved>,
) -> (std::path::PathBuf, Vec<std::ffi::OsString>) {
    #[cfg(target_os = "macos")]
    if let Some(resolved) = sandbox.filter(|_| enabled())
        && std::path::Path::new(seatbelt::SANDBOX_EXEC).exists()
    {
        let cx = installations::Context::of(resolved);
        let mut extra = installations::of_program(&cx, program);
        extra.extend(installations::on_path(&cx));
        // A proxy that cannot start leaves the program no network; confine_std says why.
        let proxy = proxy_for(resolved).ok().flatten().map(|a| a.port());
        let profile = seatbelt::profile(&seatbelt::real_paths(resolved), &extra, proxy);
        return seatbelt::launcher(program, profile);
    }
    #[cfg(not(target_os = "macos"))]
    let _ = sandbox;
    (program.to_path_buf(), Vec::new())
}

/// Confine the program `command` will start to `resolved`: its environment on every OS;
/// on Linux, Landlock rules applied in the child before exec; on macOS, whose profile is in
/// the command line already ([`launch_line`]), the proxy's variables. A no-op with the
/// sandbox off.
pub fn confine_std(
    command: &mut std::process::Command,
    resolved: &Resolved,
) -> std::io::Result<()> {
    if enabled() {
        env::restrict(command, &resolved.env);
    }
    #[cfg(target_os = "linux")]
    if enabled() {
        use std::os::unix::process::CommandExt;
        let proxy = proxy_for(resolved)?;
        command.envs(proxy.iter().flat_map(|a| proxy::environment(*a)));
        let hook = hook(resolved, std::path::Path::new(command.get_program()), proxy)?;
        // SAFETY: the hook makes system calls only (see `linux::pre_exec_hook`).
        unsafe { command.pre_exec(hook) };
    }
    #[cfg(target_os = "macos")]
    if enabled() {
        let proxy = proxy_for(resolved)?;
        command.envs(proxy.iter().flat_map(|a| proxy::environment(*a)));
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    let _ = (command, resolved);
    Ok(())
}

/// [`confine_std`] for a tokio command.
pub fn confine_tokio(
    command: &mut tokio::process::Command,
    resolved: &Resolved,
) -> std::io::Result<()> {
    if enabled() {
        env::restrict(command.as_std_mut(), &resolved.env);
    }
    #[cfg(target_os = "linux")]
    if enabled() {
        let proxy = proxy_for(resolved)?;
        command.envs(proxy.iter().flat_map(|a| proxy::environment(*a)));
        let program = std::path::PathBuf::from(command.as_std().get_program());
        let hook = hook(resolved, &program, proxy)?;
        // SAFETY: the hook makes system calls only (see `linux::pre_exec_hook`).
        unsafe { command.pre_exec(hook) };
    }
    #[cfg(target_os = "macos")]
    if enabled() {
        let proxy = proxy_for(resolved)?;
        command.envs(proxy.iter().flat_map(|a| proxy::environment(*a)));
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    let _ = (command, resolved);
    Ok(())
}

/// Whether programs confined to `resolved` go through agx's network proxy (with the
/// sandbox on: on Linux for `"loopback"` and host lists, on macOS, whose profile can name
/// loopback itself, for host lists): a wrapped server then runs as a child of `agx serve`,
/// which stays to run the proxy, instead of replacing it.
pub fn needs_proxy(resolved: &Resolved) -> bool {
    enabled() && proxied(&resolved.network)
}

/// Whether this OS sends `network` through the proxy.
fn proxied(network: &Network) -> bool {
    if cfg!(target_os = "linux") {
        proxy::Policy::of(network).is_some()
    } else {
        cfg!(target_os = "macos") && matches!(network, Network::Hosts(_))
    }
}

/// The proxy a program confined to `resolved` must use, started on first need.
#[cfg(any(target_os = "linux", target_os = "macos"))]
fn proxy_for(resolved: &Resolved) -> std::io::Result<Option<std::net::SocketAddr>> {
    if !proxied(&resolved.network) {
        return Ok(None);
    }
    proxy::address_for(&resolved.network)
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot start the network proxy: {e}")))
}

#[cfg(target_os = "linux")]
fn hook(
    resolved: &Resolved,
    program: &std::path::Path,
    proxy: Option<std::net::SocketAddr>,
) -> std::io::Result<impl FnMut() -> std::io::Result<()> + Send + Sync + 'static> {
    let ruleset = linux::ruleset(resolved, program, proxy.map(|a| a.port()))
        .map_err(std::io::Error::other)?;
    let filter = if resolved.network == Network::Any {
        None
    } else {
        seccomp::unix_sockets_denied()
    };
    Ok(linux::pre_exec_hook(
        ruleset,
        resolved.network == Network::None,
        filter,
    ))
}
