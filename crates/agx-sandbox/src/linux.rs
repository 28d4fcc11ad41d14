//! Linux: Landlock rules built in agx and applied in the child between fork and exec, so agx
//! itself stays unconfined (docs/sandbox.md, "What each OS enforces"). The child also drops
//! every capability (a confined root program is root without root's powers) and, unless its
//! network is `"any"`, gets the seccomp filter that denies it Unix sockets (`seccomp.rs`).

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, PathBeneath, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetError, RulesetStatus, Scope,
    path_beneath_rules,
};

use super::beneath;
use super::installations::{self, Context};
use super::seccomp::{self, Filter};
use super::{Network, Resolved};

/// The newest Landlock ABI agx asks for; older kernels get what they support. ABI 6 adds
/// the scopes: no signal to a process outside the sandbox (agx itself), no connection to
/// an abstract Unix socket made outside it.
const TARGET_ABI: ABI = ABI::V6;

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
    let sockets = if resolved.network == Network::Any {
        String::new()
    } else {
        format!("; {}", seccomp::enforced())
    };
    let Some(abi) = kernel_abi() else {
        return format!(
            "not confined: this kernel has no Landlock (Linux 5.13 or later with Landlock enabled){sockets}"
        );
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
    format!("Landlock ABI {abi}: files confined; {network}{sockets}")
}

/// Build the Landlock ruleset for one run of `program` (rules are file descriptors opened
/// here, in agx); with `proxy_port`, TCP connections go to that port only and nothing
/// listens. Errors only when the kernel refuses a ruleset it said it supports.
pub(crate) fn ruleset(
    resolved: &Resolved,
    program: &Path,
    proxy_port: Option<u16>,
) -> Result<RulesetCreated, RulesetError> {
    let abi = TARGET_ABI;
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))?;
    // `"none"`: no TCP at all; through the proxy: connections to its port only.
    if resolved.network == Network::None || proxy_port.is_some() {
        ruleset = ruleset.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?;
    }
    // Signals stay inside the sandbox always; abstract Unix sockets unless the network is
    // "any" (which reaches every socket).
    ruleset = if resolved.network == Network::Any {
        ruleset.scope(Scope::Signal)?
    } else {
        ruleset.scope(Scope::Signal | Scope::AbstractUnixSocket)?
    };
    let cx = Context::of(resolved);
    let mut read = beneath::real_paths(&resolved.read, cx.anchors());
    read.extend(installations::of_program(&cx, program));
    read.extend(installations::on_path(&cx));
    let write = beneath::real_paths(&resolved.write, cx.anchors());
    ruleset
        .create()?
        .add_rules(path_beneath_rules(SYSTEM_READ, AccessFs::from_read(abi)))?
        .add_rules(path_beneath_rules(DEVICES, AccessFs::from_all(abi)))?
        .add_rules(exact_rules(&read, AccessFs::from_read(abi)))?
        .add_rules(exact_rules(&write, AccessFs::from_all(abi)))?
        .add_rules(proxy_port.map(|port| Ok(NetPort::new(port, AccessNet::ConnectTcp))))
}

/// Rules for `paths`, real paths ([`beneath::real_path`]) opened without following any
/// link, so that a link put in their place since they were resolved fails the open instead
/// of granting its target; a path that cannot be opened so is left out.
fn exact_rules(
    paths: &[PathBuf],
    access: landlock::BitFlags<AccessFs>,
) -> impl Iterator<Item = Result<PathBeneath<OwnedFd>, RulesetError>> {
    paths.iter().filter_map(move |path| {
        let fd = open_exact(path)?;
        // SAFETY: fstat writes into the zeroed stat buffer only.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        let is_dir = unsafe { libc::fstat(std::os::fd::AsRawFd::as_raw_fd(&fd), &mut stat) } == 0
            && stat.st_mode & libc::S_IFMT == libc::S_IFDIR;
        let access = if is_dir {
            access
        } else {
            access & AccessFs::from_file(TARGET_ABI)
        };
        Some(Ok(PathBeneath::new(fd, access)))
    })
}

/// `path` opened as `O_PATH` with no link followed anywhere in it (`openat2`'s
/// `RESOLVE_NO_SYMLINKS`, Linux 5.6; older kernels, which have no Landlock either, open it
/// with `O_NOFOLLOW`).
fn open_exact(path: &Path) -> Option<OwnedFd> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = (libc::O_PATH | libc::O_CLOEXEC) as u64;
    how.resolve = libc::RESOLVE_NO_SYMLINKS;
    // SAFETY: the path is a NUL-terminated string and `how` a valid open_how of the size given.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            libc::AT_FDCWD,
            c_path.as_ptr(),
            &how as *const libc::open_how,
            std::mem::size_of::<libc::open_how>(),
        )
    };
    let fd = if fd < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOSYS) {
        // SAFETY: as above, with open's flags.
        unsafe {
            libc::open(
                c_path.as_ptr(),
                libc::O_PATH | libc::O_CLOEXEC | libc::O_NOFOLLOW,
            )
        }
        .into()
    } else {
        fd
    };
    // SAFETY: a descriptor the kernel just returned, owned by nobody else.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// The hook run in the child before exec: enter the ruleset (and, for `network = "none"`,
/// a network namespace of its own where the kernel lets it, which leaves it no interface
/// but a down loopback), install `filter`, and drop every capability. Only system calls:
/// nothing here allocates.
pub(crate) fn pre_exec_hook(
    ruleset: RulesetCreated,
    no_network: bool,
    filter: Option<Filter>,
) -> impl FnMut() -> std::io::Result<()> + Send + Sync + 'static {
    let mut ruleset = Some(ruleset);
    move || {
        if no_network {
            // SAFETY: unshare takes flags only; refused (no privilege) it changes nothing,
            // and Landlock's TCP rules still apply.
            unsafe { libc::unshare(libc::CLONE_NEWNET) };
        }
        if let Some(ruleset) = ruleset.take() {
            match ruleset.restrict_self() {
                Ok(status) if status.ruleset == RulesetStatus::NotEnforced => {}
                Ok(_) => {}
                Err(_) => return Err(std::io::Error::from_raw_os_error(libc::EPERM)),
            }
        }
        // SAFETY: prctl takes numbers only. Landlock set it already where the kernel has
        // Landlock; the filter needs it everywhere.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if let Some(filter) = &filter {
            filter.install()?;
        }
        drop_capabilities()
    }
}

/// `_LINUX_CAPABILITY_VERSION_3` and its header and data (linux/capability.h).
const CAPABILITY_VERSION_3: u32 = 0x2008_0522;
#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}
#[repr(C)]
#[derive(Clone, Copy)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// `SECBIT_NOROOT` and the locks of it, of `KEEP_CAPS` and of `NO_CAP_AMBIENT_RAISE`
/// (linux/securebits.h): uid 0 gains no capability at exec, and that cannot be undone.
const SECURE_BITS: libc::c_ulong = (1 << 0) | (1 << 1) | (1 << 5) | (1 << 6) | (1 << 7);

/// Drop every capability of this process and of what it execs: the bounding set, the
/// ambient, inheritable, permitted and effective sets; for root also `SECBIT_NOROOT`.
/// Without this, a program run as root keeps powers Landlock does not govern (reading any
/// process's `/proc/PID/environ`, loading kernel modules). System calls only.
fn drop_capabilities() -> std::io::Result<()> {
    // SAFETY: prctl and capset take numbers and pointers to the local structs below.
    unsafe {
        // Refused without CAP_SETPCAP, which a process that has no capability needs not.
        libc::prctl(libc::PR_SET_SECUREBITS, SECURE_BITS, 0, 0, 0);
        for cap in 0..64 {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        let header = CapHeader {
            version: CAPABILITY_VERSION_3,
            pid: 0,
        };
        let data = [CapData {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        }; 2];
        // With no_new_privs set, exec grants nothing beyond the permitted set emptied here,
        // even to uid 0 whose bounding set could not be emptied (no CAP_SETPCAP).
        if libc::syscall(libc::SYS_capset, &header as *const CapHeader, data.as_ptr()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
