//! A proxied wrapped server that keeps agx's process (Linux): agx forks, the original
//! process becomes the server (exec, as on the direct path) and the forked one runs the
//! proxy between the client and it.
//!
//! Why not the other way round, a child server under a proxy: Linux runs a server started
//! as a new process measurably slower than one exec'd in a process that was already
//! running. Measured on the npm `server-everything` (node, 2 cores): spawned as a child it
//! answers `initialize` 13–18 ms later than exec'd, whoever spawns it (Python's
//! `posix_spawn` shows the same gap), while agx itself spends under 1 ms of CPU in the
//! proxy. With the server in agx's process the proxy costs what its own work costs.
//!
//! What the client sees is the direct path's: its child is the server, signals sent to it
//! reach the server, and its exit status is the server's. The proxy passes the messages
//! until the server closes its output, or until the client closes its input and the grace
//! after it ends (then it stops the server, as the child proxy does).

use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::sync::Arc;

use agx_model::filter::Filter;

use super::ServeError;
use super::assemble::WrappedServer;
use super::filtered::{self, ProxyEnd};
use super::pinning::Pinning;

/// Whether this process may fork and go on in the child: only while it runs one thread (a
/// fork copies the calling thread alone, so another's locks would stay held forever).
pub(crate) fn can_fork() -> bool {
    std::fs::read_dir("/proc/self/task").is_ok_and(|tasks| tasks.count() == 1)
}

/// Serve `w` through `filter` and `pinning`: fork the proxy, then become the server.
/// Returns only when the server could not be started (the proxy is stopped first).
pub(crate) fn serve(
    w: &WrappedServer,
    filter: Arc<Filter>,
    pinning: Option<Pinning>,
    log_file: Option<&std::path::Path>,
) -> ServeError {
    let (program, mut command) = match super::wrapped::command(w) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let failed = |source| ServeError::Wrapped {
        server: w.server.clone(),
        program: program.clone(),
        source,
    };
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
    // SAFETY: this process runs one thread (`can_fork`), so the child starts with no lock
    // held by a thread it lacks; it builds its own runtime and never returns here.
    match unsafe { libc::fork() } {
        -1 => failed(std::io::Error::last_os_error()),
        0 => {
            drop((server_in, server_out));
            let rewriter = filtered::rewriter_of(w, filter, pinning);
            proxy_and_exit(rewriter, from_server, to_server, server_pid, w, log_file)
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

/// The forked proxy: pass messages between the client (this process's stdin and stdout)
/// and the server, then exit.
fn proxy_and_exit(
    rewriter: filtered::Rewriter,
    from_server: OwnedFd,
    to_server: OwnedFd,
    server_pid: libc::pid_t,
    w: &WrappedServer,
    log_file: Option<&std::path::Path>,
) -> ! {
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
        let from_server = pipe::Receiver::from_owned_fd(from_server).map_err(ServeError::Runtime)?;
        let to_server = pipe::Sender::from_owned_fd(to_server).map_err(ServeError::Runtime)?;
        let (client_in, client_out) = super::std_streams::open();
        Ok(filtered::proxy(rewriter, client_in, client_out, from_server, to_server).await)
    });
    let stop = match ended {
        Ok(end) => end == ProxyEnd::ClientLeft,
        Err(e) => {
            tracing::error!("{e}");
            true
        }
    };
    // The client left it running (or no proxy could run): stop it, unless it already
    // ended (this process then has another parent, so the pid cannot be a stranger's).
    // SAFETY: getppid and kill take and return numbers only.
    if stop && unsafe { libc::getppid() } == server_pid {
        unsafe { libc::kill(server_pid, libc::SIGKILL) };
    }
    drop(log);
    std::process::exit(0)
}
