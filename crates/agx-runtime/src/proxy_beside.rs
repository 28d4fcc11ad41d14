//! A proxied wrapped server that keeps agx's process (Linux): agx forks, the original
//! process becomes the server (exec, as on the direct path) and the forked one runs the
//! proxy between the client and it.
//!
//! Why not the other way round, a child server under a proxy: this way what the client
//! sees is the direct path's: its child is the server, signals sent to it reach the
//! server, and its exit status is the server's. (It was first chosen for speed, from
//! start-ups that seemed 13–18 ms slower as a child; taken in a random order, a child and
//! an exec'd node differ by less than their noise, so that reason did not hold.)
//!
//! The proxy passes the messages until the server closes its output, or until the client
//! closes its input and the grace after it ends (then it stops the server, as the child
//! proxy does).

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::sync::Arc;
use std::time::Duration;

use agx_model::filter::Filter;

use super::ServeError;
use super::assemble::WrappedServer;
use super::filtered::{self, GRACE_AFTER_CLIENT, ProxyEnd};
use super::pinning::Pinning;

/// Why the server was not given agx's process: the caller runs it as a child instead.
pub(crate) enum NotForked {
    /// This process runs `threads` threads; the pins come back for the caller to check.
    Threads {
        threads: usize,
        pinning: Box<Option<Pinning>>,
    },
    /// The server could not be started (the proxy was stopped first).
    Failed(ServeError),
}

/// Serve `w` through `filter` and `pinning`: fork the proxy, then become the server.
/// Returns only when it did not (this process runs threads, or the server failed to start).
pub(crate) fn serve(
    w: &WrappedServer,
    filter: Arc<Filter>,
    pinning: Option<Pinning>,
    log_file: Option<&std::path::Path>,
) -> NotForked {
    let (program, mut command) = match super::wrapped::command(w) {
        Ok(c) => c,
        Err(e) => return NotForked::Failed(e),
    };
    let failed = |source| {
        NotForked::Failed(ServeError::Wrapped {
            server: w.server.clone(),
            program: program.clone(),
            source,
        })
    };
    // A fork copies the calling thread alone, so another's locks would stay held forever.
    if let Err(threads) = single_threaded() {
        return NotForked::Threads {
            threads,
            pinning: Box::new(pinning),
        };
    }
    // Both pipes are close-on-exec: the server gets its ends as its stdin and stdout only.
    let (to_server, server_in) = match std::io::pipe() {
        Ok((reader, writer)) => (OwnedFd::from(writer), OwnedFd::from(reader)),
        Err(e) => return failed(e),
    };
    let (server_out, from_server) = match std::io::pipe() {
        Ok((reader, writer)) => (OwnedFd::from(writer), OwnedFd::from(reader)),
        Err(e) => return failed(e),
    };
    let server_pid = std::process::id() as libc::pid_t;
    // SAFETY: this process runs one thread (checked above), so the child starts with no
    // lock held by a thread it lacks; it builds its own runtime and never returns here.
    match unsafe { libc::fork() } {
        -1 => failed(std::io::Error::last_os_error()),
        0 => {
            drop((server_in, server_out));
            let server = Server::of(server_pid);
            // A panic must not unwind into the frames the server's process left behind.
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let rewriter = filtered::rewriter_of(w, filter, pinning);
                proxy(rewriter, from_server, to_server, &server, w, log_file)
            }));
            if run.is_err() {
                server.stop();
            }
            // SAFETY: _exit ends this process without running anything else.
            unsafe { libc::_exit(if run.is_ok() { 0 } else { 101 }) }
        }
        proxy_pid => {
            drop((to_server, from_server));
            command.stdin(server_in).stdout(server_out);
            let error = command.exec();
            // SAFETY: kill and waitpid take numbers and a null status pointer.
            unsafe {
                libc::kill(proxy_pid, libc::SIGKILL);
                libc::waitpid(proxy_pid, std::ptr::null_mut(), 0);
            }
            failed(error)
        }
    }
}

/// `Ok` when this process runs one thread, else the count. A thread that was just joined
/// may still be listed for a moment, so a few short waits are allowed.
fn single_threaded() -> Result<(), usize> {
    let count = || std::fs::read_dir("/proc/self/task").map_or(usize::MAX, Iterator::count);
    let mut threads = count();
    for _ in 0..5 {
        if threads == 1 {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(1));
        threads = count();
    }
    if threads == 1 { Ok(()) } else { Err(threads) }
}

/// The forked proxy: pass messages between the client (this process's stdin and stdout)
/// and the server, then see the server end.
fn proxy(
    rewriter: filtered::Rewriter,
    from_server: OwnedFd,
    to_server: OwnedFd,
    server: &Server,
    w: &WrappedServer,
    log_file: Option<&std::path::Path>,
) {
    // A Ctrl-C or SIGTERM for the whole group reaches the server too: the proxy passes its
    // last answers and ends when it closes its output, as the server decides.
    // SAFETY: signal takes a signal number and a disposition.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
    let log = super::log::init(log_file);
    if let Some(problem) = &w.code_cache_problem {
        tracing::warn!("{problem}");
    }
    let ended = super::block_on_current_thread(async move {
        use tokio::net::unix::pipe;
        let from_server =
            pipe::Receiver::from_owned_fd(from_server).map_err(ServeError::Runtime)?;
        let to_server = pipe::Sender::from_owned_fd(to_server).map_err(ServeError::Runtime)?;
        let (client_in, client_out) = super::std_streams::open();
        Ok(filtered::proxy(rewriter, client_in, client_out, from_server, to_server).await)
    });
    match ended {
        // It closed its output: it is ending by itself, and gets the grace to do so.
        Ok(ProxyEnd::ServerClosed) => {
            if !server.ends_within(GRACE_AFTER_CLIENT) {
                server.stop();
            }
        }
        // The client left it running after the grace.
        Ok(ProxyEnd::ClientLeft) => server.stop(),
        Err(e) => {
            tracing::error!("{e}");
            server.stop();
        }
    }
    drop(log);
}

/// The server's process, seen from the proxy it forked: a pidfd where the kernel has them
/// (Linux 5.3), so neither waiting nor signalling can reach another process that took its
/// pid; else its pid, signalled only while this process is still its child.
struct Server {
    pid: libc::pid_t,
    pidfd: Option<OwnedFd>,
}

impl Server {
    fn of(pid: libc::pid_t) -> Server {
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        let pidfd = (fd >= 0).then(|| {
            // SAFETY: the descriptor was just opened and is owned by nothing else.
            unsafe { OwnedFd::from_raw_fd(fd as i32) }
        });
        Server { pid, pidfd }
    }

    /// Whether it has ended (this process then has another parent).
    fn ended(&self) -> bool {
        // SAFETY: getppid takes nothing and returns a number.
        unsafe { libc::getppid() != self.pid }
    }

    /// Whether it ends within `time`.
    fn ends_within(&self, time: Duration) -> bool {
        if let Some(pidfd) = &self.pidfd {
            let mut poll = libc::pollfd {
                fd: pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, a timeout in milliseconds.
            let ready = unsafe { libc::poll(&mut poll, 1, time.as_millis() as libc::c_int) };
            return ready > 0;
        }
        let deadline = std::time::Instant::now() + time;
        while !self.ended() {
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    /// Stop it: SIGTERM, and SIGKILL when it is still running a moment later.
    fn stop(&self) {
        if self.signal(libc::SIGTERM) && !self.ends_within(STOP_GRACE) {
            self.signal(libc::SIGKILL);
        }
    }

    /// Send `signal`; false when the server has already ended.
    fn signal(&self, signal: libc::c_int) -> bool {
        if let Some(pidfd) = &self.pidfd {
            // SAFETY: pidfd_send_signal takes a descriptor, a signal, a null info, flags.
            let sent = unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    pidfd.as_raw_fd(),
                    signal,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                )
            };
            return sent == 0;
        }
        // SAFETY: kill takes a pid and a signal number.
        !self.ended() && unsafe { libc::kill(self.pid, signal) } == 0
    }
}

/// How long a server may take to end on SIGTERM before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(1);

#[cfg(test)]
mod tests {
    use super::*;

    /// A process that ignores SIGTERM, as a server busy elsewhere may.
    fn stubborn() -> std::process::Child {
        std::process::Command::new("sh")
            .args(["-c", "trap '' TERM; echo ready; exec sleep 30"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }

    #[test]
    fn a_server_is_stopped_with_sigterm_and_killed_when_it_ignores_it() {
        let mut sleeper = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let server = Server::of(sleeper.id() as libc::pid_t);
        if server.pidfd.is_none() {
            // Without pidfds (Linux before 5.3, or a seccomp profile that refuses them) a
            // server is signalled only while it is this process's parent: nothing to test.
            let _ = sleeper.kill();
            let _ = sleeper.wait();
            return;
        }
        assert!(!server.ends_within(Duration::from_millis(50)));
        server.stop();
        let status = sleeper.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(libc::SIGTERM)
        );

        let mut stubborn = stubborn();
        // Its trap is set once it has spoken.
        let mut ready = [0; 6];
        std::io::Read::read_exact(stubborn.stdout.as_mut().unwrap(), &mut ready).unwrap();
        let server = Server::of(stubborn.id() as libc::pid_t);
        server.stop();
        let status = stubborn.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(libc::SIGKILL)
        );
    }
}
