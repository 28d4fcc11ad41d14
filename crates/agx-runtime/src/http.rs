//! `agx serve --http`: rmcp's Streamable HTTP service on a loopback address, served with
//! hyper. Requests whose Host or Origin is not local are rejected (DNS rebinding).

use std::net::SocketAddr;
use std::sync::Arc;

use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::ServeError;
use super::handler::{AgxServer, Runtime};

const LOCAL_HOSTS: [&str; 4] = ["localhost", "127.0.0.1", "::1", "[::1]"];
const LOCAL_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

/// Serve until interrupted (Ctrl-C or SIGTERM).
pub(crate) async fn serve(runtime: Arc<Runtime>, addr: SocketAddr) -> Result<(), ServeError> {
    let rounds = Arc::default();
    serve_with(
        move || Ok(AgxServer::new(runtime.clone()).sharing_rounds(Arc::clone(&rounds))),
        addr,
    )
    .await
}

/// Serve each HTTP session by its own run of `command` spoken to on stdio (a profile:
/// `agx serve @NAME`), until interrupted.
pub(crate) async fn serve_command(
    command: Vec<std::ffi::OsString>,
    addr: SocketAddr,
) -> Result<(), ServeError> {
    serve_with(super::line_server::LineServer::sessions(command), addr).await
}

/// Serve the sessions `new_session` makes until interrupted (Ctrl-C or SIGTERM).
async fn serve_with<S, F>(new_session: F, addr: SocketAddr) -> Result<(), ServeError>
where
    S: rmcp::ServerHandler + Send + 'static,
    F: Fn() -> Result<S, std::io::Error> + Send + Sync + 'static,
{
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind { addr, source })?;
    let bound = listener.local_addr().unwrap_or(addr);
    let stop = CancellationToken::new();
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(LOCAL_HOSTS)
        .with_allowed_origins(LOCAL_ORIGINS)
        .enforce_origin_validation()
        .with_cancellation_token(stop.child_token());
    let service = StreamableHttpService::new(
        new_session,
        Arc::new(LocalSessionManager::default()),
        config,
    );
    // Scripts read this line to learn the port when they asked for port 0.
    tracing::info!(target: super::log::ANNOUNCE, "listening on http://{bound}/mcp");

    // SIGTERM on Unix; on Windows the console closing (its window, logoff, shutdown).
    #[cfg(unix)]
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(ServeError::Runtime)?;
    #[cfg(windows)]
    let mut sigterm = tokio::signal::windows::ctrl_close().map_err(ServeError::Runtime)?;
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    continue;
                }
            },
            _ = tokio::signal::ctrl_c() => break,
            _ = sigterm.recv() => break,
        };
        // Responses are written as several small SSE frames: without this, Nagle's
        // algorithm holds one back until the client's delayed ACK (~40 ms per request).
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |req| {
                let service = service.clone();
                async move { Ok::<_, std::convert::Infallible>(service.handle(req).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
    stop.cancel();
    Ok(())
}
