//! Linux: Landlock rules built in agx and applied in the child between fork and exec, so agx
//! itself stays unconfined (docs/sandbox.md, "What each OS enforces").

use std::path::PathBuf;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, path_beneath_rules,
};

use super::{Network, Resolved};

/// The newest Landlock ABI agx asks for; older kernels get what they support.
const TARGET_ABI: ABI = ABI::V5;

/// Folders every program needs to start: the system's programs, libraries and settings.
const SYSTEM_READ: [&str; 10] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/opt", "/proc", "/sys",
];
/// Devices programs write without asking (and the shared-memory and terminal folders).
const DEVICES: [&str; 9] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
    "/dev/shm",
];

/// The Landlock ABI the kernel offers: `None` when Landlock is missing or disabled.
pub(crate) fn kernel_abi() -> Option<i32> {
    // SAFETY: the version query takes no pointer (NULL, size 0) and only returns a number.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    (v > 0).then_some(v as i32)
}

/// What the kernel enforces of `resolved`, for logs, `info` and `doctor`.
pub(crate) fn enforced(resolved: &Resolved) -> String {
    let Some(abi) = kernel_abi() else {
        return "not confined: this kernel has no Landlock (Linux 5.13 or later with Landlock enabled)".into();
    };
    let network = match &resolved.network {
        Network::Any => "network any".to_string(),
        Network::None if abi >= 4 => "network none: TCP denied".to_string(),
        Network::None => "network not confined (Landlock ABI < 4 has no network rules)".to_string(),
        other if abi >= 4 => format!("network {other}: HTTP(S) through agx's proxy only"),
        other => format!(
            "network {other}: HTTP(S) through agx's proxy, not confined (Landlock ABI < 4 has no network rules)"
        ),
    };
    format!("Landlock ABI {abi}: files confined; {network}")
}

/// Build the Landlock ruleset for one run of `program` (rules are file descriptors opened
/// here, in agx); with `proxy_port`, TCP connections go to that port only and nothing
/// listens. Errors only when the kernel refuses a ruleset it said it supports.
pub(crate) fn ruleset(
    resolved: &Resolved,
    program: &std::path::Path,
    proxy_port: Option<u16>,
) -> Result<RulesetCreated, landlock::RulesetError> {
    let abi = TARGET_ABI;
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))?;
    // `"none"`: no TCP at all; through the proxy: connections to its port only.
    if resolved.network == Network::None || proxy_port.is_some() {
        ruleset = ruleset.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?;
    }
    let mut read: Vec<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
    read.extend(resolved.read.iter().cloned());
    read.extend(super::installations::of_program(program));
    read.extend(super::installations::on_path());
    let mut write: Vec<PathBuf> = DEVICES.iter().map(PathBuf::from).collect();
    write.extend(resolved.write.iter().cloned());
    ruleset
        .create()?
        .add_rules(path_beneath_rules(&read, AccessFs::from_read(abi)))?
        .add_rules(path_beneath_rules(&write, AccessFs::from_all(abi)))?
        .add_rules(proxy_port.map(|port| Ok(NetPort::new(port, AccessNet::ConnectTcp))))
}

/// The hook run in the child before exec: enter the ruleset (and, for `network = "none"`,
/// a network namespace of its own where the kernel lets it, which leaves it no interface
/// but a down loopback). Only system calls: nothing here allocates.
pub(crate) fn pre_exec_hook(
    ruleset: RulesetCreated,
    no_network: bool,
) -> impl FnMut() -> std::io::Result<()> + Send + Sync + 'static {
    let mut ruleset = Some(ruleset);
    move || {
        if no_network {
            // SAFETY: unshare takes flags only; refused (no privilege) it changes nothing,
            // and Landlock's TCP rules still apply.
            unsafe { libc::unshare(libc::CLONE_NEWNET) };
        }
        let Some(ruleset) = ruleset.take() else {
            return Ok(());
        };
        match ruleset.restrict_self() {
            Ok(status) if status.ruleset == RulesetStatus::NotEnforced => Ok(()),
            Ok(_) => Ok(()),
            Err(_) => Err(std::io::Error::from_raw_os_error(libc::EPERM)),
        }
    }
}
