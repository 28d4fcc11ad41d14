//! Least privilege for the programs agx starts for a server (docs/sandbox.md): the
//! permissions a package declares, resolved for a run, and how each OS enforces them.

pub mod env;
pub mod growth;
pub mod permissions;
pub mod user;

pub use permissions::{Network, Permissions, Resolved};

/// What the programs of `package` run for `server` (its own permissions, else the
/// package's) may touch, resolved for this run; `None` when neither declares permissions:
/// such a package runs unconfined, as before (docs/sandbox.md).
pub fn for_package(
    package: &crate::manifest::Package,
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
        data: crate::paths::package_data_of(package_dir),
        project: crate::project::discover::find_project(None).ok(),
        home: directories::BaseDirs::new().map(|d| d.home_dir().to_path_buf()),
        tmp: std::env::temp_dir(),
    };
    std::sync::Arc::new(Permissions::resolve(Some(declared), &places))
}

#[cfg(target_os = "linux")]
pub mod linux;

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
                "Landlock ABI {abi}: files confined; network \"none\" confined (TCP)"
            ),
            Some(abi) => format!(
                "Landlock ABI {abi}: files confined; network not confined (needs ABI 4, Linux 6.7)"
            ),
            None => "not available: this kernel has no Landlock (Linux 5.13 or later with Landlock enabled); programs run unconfined".into(),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        "not confined: agx enforces permissions on Linux only (docs/sandbox.md)".into()
    }
}

/// One line on what this machine enforces of `resolved` (`agx info`, `agx doctor`, the log).
pub fn enforcement(resolved: &Resolved) -> String {
    if !enabled() {
        return "not confined: the sandbox is off (--no-sandbox or AGX_SANDBOX=off)".into();
    }
    #[cfg(target_os = "linux")]
    {
        linux::enforced(resolved)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = resolved;
        "environment restricted; files and network not confined: agx enforces them on Linux only (docs/sandbox.md)".into()
    }
}

/// Confine the program `command` will start to `resolved` (Linux: Landlock, applied in the
/// child before exec). A no-op where the sandbox is off or the OS has none.
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
        let hook = hook(resolved, std::path::Path::new(command.get_program()))?;
        // SAFETY: the hook makes system calls only (see `linux::pre_exec_hook`).
        unsafe { command.pre_exec(hook) };
    }
    #[cfg(not(target_os = "linux"))]
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
        let program = std::path::PathBuf::from(command.as_std().get_program());
        let hook = hook(resolved, &program)?;
        // SAFETY: the hook makes system calls only (see `linux::pre_exec_hook`).
        unsafe { command.pre_exec(hook) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (command, resolved);
    Ok(())
}

#[cfg(target_os = "linux")]
fn hook(
    resolved: &Resolved,
    program: &std::path::Path,
) -> std::io::Result<impl FnMut() -> std::io::Result<()> + Send + Sync + 'static> {
    let ruleset = linux::ruleset(resolved, program).map_err(std::io::Error::other)?;
    Ok(linux::pre_exec_hook(
        ruleset,
        resolved.network == Network::None,
    ))
}
