//! Stdin and stdout as async streams for the stdio transport.
//!
//! MCP clients connect a server through pipes (Python, Rust) or Unix sockets (Node's libuv).
//! Those are polled by the runtime like any socket, so a message costs one system call and
//! no thread hand-off, and the server runs no helper threads. A terminal or a regular file
//! cannot be polled; it falls back to tokio's stdio, which reads and writes on a helper
//! thread.

use tokio::io::{AsyncRead, AsyncWrite};

pub(crate) type Reader = Box<dyn AsyncRead + Unpin + Send>;
pub(crate) type Writer = Box<dyn AsyncWrite + Unpin + Send>;

/// Stdin and stdout. Must be called inside the runtime.
pub(crate) fn open() -> (Reader, Writer) {
    #[cfg(unix)]
    {
        let reader = polled::reader().unwrap_or_else(|| Box::new(tokio::io::stdin()));
        let writer = polled::writer().unwrap_or_else(|| Box::new(tokio::io::stdout()));
        (reader, writer)
    }
    #[cfg(not(unix))]
    {
        (Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout()))
    }
}

#[cfg(unix)]
mod polled {
    use std::fs::File;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::fs::FileTypeExt;

    use tokio::net::UnixStream;
    use tokio::net::unix::pipe;

    use super::{Reader, Writer};

    enum Kind {
        Pipe,
        Socket,
    }

    /// A duplicate of `fd` when it is a pipe or a socket. The duplicate shares the open
    /// file description, so making it non-blocking affects only this process's end (tools
    /// run with their own pipes and never inherit it).
    fn pollable(fd: BorrowedFd<'_>) -> Option<(Kind, OwnedFd)> {
        let file = File::from(fd.try_clone_to_owned().ok()?);
        let kind = file.metadata().ok()?.file_type();
        let kind = if kind.is_fifo() {
            Kind::Pipe
        } else if kind.is_socket() {
            Kind::Socket
        } else {
            return None;
        };
        Some((kind, file.into()))
    }

    fn socket(fd: OwnedFd) -> Option<UnixStream> {
        let socket = std::os::unix::net::UnixStream::from(fd);
        socket.set_nonblocking(true).ok()?;
        UnixStream::from_std(socket).ok()
    }

    /// Bytes a pipe to the client may hold. Linux's default of 64 KiB makes a large answer
    /// (a 1 MiB resource) a ping-pong of sixteen writes and wake-ups; 1 MiB is the most an
    /// unprivileged process may ask for (`/proc/sys/fs/pipe-max-size`).
    #[cfg(target_os = "linux")]
    const PIPE_BYTES: libc::c_int = 1 << 20;

    /// Grow the pipe's buffer; on failure (a lower system limit) it keeps the default size.
    fn grow_pipe(fd: BorrowedFd<'_>) {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: F_SETPIPE_SZ only resizes the pipe's kernel buffer; `fd` is open.
            unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETPIPE_SZ, PIPE_BYTES) };
        }
        #[cfg(not(target_os = "linux"))]
        let _ = fd;
    }

    pub(super) fn reader() -> Option<Reader> {
        match pollable(std::io::stdin().as_fd())? {
            (Kind::Pipe, fd) => Some(Box::new(pipe::Receiver::from_owned_fd(fd).ok()?)),
            (Kind::Socket, fd) => Some(Box::new(socket(fd)?)),
        }
    }

    pub(super) fn writer() -> Option<Writer> {
        match pollable(std::io::stdout().as_fd())? {
            (Kind::Pipe, fd) => {
                grow_pipe(fd.as_fd());
                Some(Box::new(pipe::Sender::from_owned_fd(fd).ok()?))
            }
            (Kind::Socket, fd) => Some(Box::new(socket(fd)?)),
        }
    }
}
