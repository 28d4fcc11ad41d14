//! Linux: the seccomp filter of a program whose network is not `"any"` (docs/sandbox.md,
//! "Unix sockets"). Landlock (before ABI 9) has no rule for connecting to a Unix socket by
//! its path, and its abstract-socket scope needs ABI 6; so the program may not create a
//! Unix socket at all: `socket(AF_UNIX, …)` fails with `EACCES`, and `io_uring_setup`, whose
//! rings create sockets past the filter, with `ENOSYS` (programs fall back to plain system
//! calls). `socketpair` still works: its two ends reach nothing but each other.

/// The values of `AUDIT_ARCH_*` (linux/audit.h) for the architectures handled.
#[cfg(target_arch = "x86_64")]
mod arch {
    pub(super) const X86_64: u32 = 0xC000_003E;
    pub(super) const I386: u32 = 0x4000_0003;
    /// x32 system calls are x86-64's with this bit set.
    pub(super) const X32_BIT: u32 = 0x4000_0000;
}
#[cfg(target_arch = "aarch64")]
mod arch {
    pub(super) const AARCH64: u32 = 0xC000_00B7;
    pub(super) const ARM: u32 = 0x4000_0028;
}

/// The calls to filter on one architecture a process of this one may run as.
struct Calls {
    arch: u32,
    socket: &'static [u32],
    /// i386's `socketcall`, whose first argument says which socket call it is.
    socketcall: Option<u32>,
    io_uring_setup: &'static [u32],
}

#[cfg(target_arch = "x86_64")]
const ARCHES: &[Calls] = &[
    Calls {
        arch: arch::X86_64,
        socket: &[41, arch::X32_BIT | 41],
        socketcall: None,
        io_uring_setup: &[425, arch::X32_BIT | 425],
    },
    Calls {
        arch: arch::I386,
        socket: &[359],
        socketcall: Some(102),
        io_uring_setup: &[425],
    },
];
#[cfg(target_arch = "aarch64")]
const ARCHES: &[Calls] = &[
    Calls {
        arch: arch::AARCH64,
        socket: &[198],
        socketcall: None,
        io_uring_setup: &[425],
    },
    Calls {
        arch: arch::ARM,
        socket: &[281],
        socketcall: None,
        io_uring_setup: &[425],
    },
];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const ARCHES: &[Calls] = &[];

/// `socketcall`'s number for `socket` (linux/net.h).
const SYS_SOCKET: u32 = 1;

/// Offsets in `struct seccomp_data`: the call's number, the architecture, the low half of
/// the first argument.
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0: u32 = if cfg!(target_endian = "little") {
    16
} else {
    20
};

/// A compiled filter, built in agx and installed in the child before exec.
pub(crate) struct Filter(Vec<libc::sock_filter>);

/// Whether this kernel and architecture take the filter: `None` when not (unknown
/// architecture, a kernel without seccomp), and Unix sockets are then not confined.
pub(crate) fn unix_sockets_denied() -> Option<Filter> {
    // SAFETY: PR_GET_SECCOMP takes no pointer; it fails with EINVAL without seccomp.
    let supported = unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) } >= 0;
    (supported && !ARCHES.is_empty()).then(build)
}

/// What the kernel enforces of Unix sockets for a program not allowed `"any"` network,
/// for the log and `agx info`.
pub(crate) fn enforced() -> &'static str {
    if unix_sockets_denied().is_some() {
        "Unix sockets denied"
    } else {
        "Unix sockets not confined (no seccomp filter on this kernel or architecture)"
    }
}

/// One instruction before the jumps are resolved.
enum Op {
    Load(u32),
    /// Jump to the label when the accumulator equals the value, else fall through.
    JumpIfEqual(u32, usize),
    Return(u32),
    Label(usize),
}

fn build() -> Filter {
    const FAMILY: usize = 0;
    const SOCKETCALL: usize = 1;
    const DENY: usize = 2;
    const NO_SYSCALL: usize = 3;
    let block = |i: usize| 10 + i;
    let allow = libc::SECCOMP_RET_ALLOW;
    let mut ops = vec![Op::Load(ARCH)];
    for (i, calls) in ARCHES.iter().enumerate() {
        ops.push(Op::JumpIfEqual(calls.arch, block(i)));
    }
    // No process of this architecture runs another: it is ended rather than let through.
    ops.push(Op::Return(libc::SECCOMP_RET_KILL_PROCESS));
    for (i, calls) in ARCHES.iter().enumerate() {
        ops.push(Op::Label(block(i)));
        ops.push(Op::Load(NR));
        for nr in calls.socket {
            ops.push(Op::JumpIfEqual(*nr, FAMILY));
        }
        for nr in calls.io_uring_setup {
            ops.push(Op::JumpIfEqual(*nr, NO_SYSCALL));
        }
        if let Some(nr) = calls.socketcall {
            ops.push(Op::JumpIfEqual(nr, SOCKETCALL));
        }
        ops.push(Op::Return(allow));
    }
    ops.extend([
        Op::Label(FAMILY),
        Op::Load(ARG0),
        Op::JumpIfEqual(libc::AF_UNIX as u32, DENY),
        Op::Return(allow),
        Op::Label(SOCKETCALL),
        Op::Load(ARG0),
        Op::JumpIfEqual(SYS_SOCKET, DENY),
        Op::Return(allow),
        Op::Label(DENY),
        Op::Return(libc::SECCOMP_RET_ERRNO | libc::EACCES as u32),
        Op::Label(NO_SYSCALL),
        Op::Return(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
    ]);
    Filter(assemble(&ops))
}

/// The instructions of `ops`, every jump resolved to its label (forward only).
fn assemble(ops: &[Op]) -> Vec<libc::sock_filter> {
    let mut at = std::collections::HashMap::new();
    let mut pc = 0;
    for op in ops {
        match op {
            Op::Label(label) => {
                at.insert(*label, pc);
            }
            _ => pc += 1,
        }
    }
    let instruction = |code: u32, jt: u8, k: u32| libc::sock_filter {
        code: code as u16,
        jt,
        jf: 0,
        k,
    };
    let mut out = Vec::with_capacity(pc);
    for op in ops {
        let pc = out.len();
        match op {
            Op::Label(_) => {}
            Op::Load(offset) => out.push(instruction(
                libc::BPF_LD | libc::BPF_W | libc::BPF_ABS,
                0,
                *offset,
            )),
            Op::JumpIfEqual(value, label) => {
                let skip = at[label] - pc - 1;
                let skip = u8::try_from(skip).expect("a filter short enough for BPF's jumps");
                out.push(instruction(
                    libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
                    skip,
                    *value,
                ));
            }
            Op::Return(value) => out.push(instruction(libc::BPF_RET | libc::BPF_K, 0, *value)),
        }
    }
    out
}

impl Filter {
    /// Install the filter in this process (the child, between fork and exec; no_new_privs
    /// must be set). System calls only: nothing here allocates.
    pub(crate) fn install(&self) -> std::io::Result<()> {
        let program = libc::sock_fprog {
            len: self.0.len() as libc::c_ushort,
            filter: self.0.as_ptr().cast_mut(),
        };
        // SAFETY: the program points into `self.0`, alive for the call; the kernel copies it.
        let rc = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &program as *const libc::sock_fprog,
            )
        };
        if rc == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a forked child (system calls only until `_exit`): with the filter, a Unix
    /// socket is refused with EACCES, a TCP socket and a socketpair are not.
    #[test]
    fn unix_sockets_are_refused_and_the_rest_allowed() {
        // A kernel without seccomp, or another architecture, has nothing to test here
        // (tests/it/sandbox_escapes.rs says so when it skips).
        let Some(filter) = unix_sockets_denied() else {
            return;
        };
        // SAFETY: the child makes system calls only and ends with _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            let code = unsafe {
                libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                if filter.install().is_err() {
                    libc::_exit(10);
                }
                let unix = libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0);
                let errno = *libc::__errno_location();
                let tcp = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
                let mut pair = [0; 2];
                let paired =
                    libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr());
                let ring = libc::syscall(libc::SYS_io_uring_setup, 1, std::ptr::null_mut::<u8>());
                let ring_errno = *libc::__errno_location();
                if unix != -1 || errno != libc::EACCES {
                    11
                } else if tcp < 0 {
                    12
                } else if paired != 0 {
                    13
                } else if ring != -1 || ring_errno != libc::ENOSYS {
                    14
                } else {
                    0
                }
            };
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "status {status}");
        assert_eq!(libc::WEXITSTATUS(status), 0);
    }
}
