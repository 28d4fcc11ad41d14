//! The stdio JSON-RPC transport of `agx serve`: newline-delimited messages, with malformed
//! ones answered by agx itself. The input is what a client writes to agx's stdin.
//!
//! Property: reading ends at end of input (no panic, no hang), and every reply the transport
//! writes on its own is one JSON-RPC error object per line.
#![no_main]

use std::io::Cursor;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};

use agx_runtime::stdio::LineTransport;
use libfuzzer_sys::fuzz_target;
use rmcp::transport::Transport;
use tokio::io::AsyncWrite;

/// What the transport writes, kept for inspection.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl AsyncWrite for Captured {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a tokio runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let written = Captured::default();
    let mut transport = LineTransport::new(Cursor::new(data.to_vec()), written.clone());
    runtime().block_on(async {
        while transport.receive().await.is_some() {}
        // Replies are written by spawned tasks: let them run.
        for _ in 0..4 {
            tokio::task::yield_now().await;
        }
    });
    let out = written.0.lock().expect("not poisoned").clone();
    for line in out.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let reply: serde_json::Value = serde_json::from_slice(line).expect("a reply is JSON");
        assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
        assert!(reply["error"]["code"].is_i64(), "{reply}");
    }
});
