//! The loopback redirect (RFC 8252 §7.3): agx listens on 127.0.0.1 at a free port (or the one
//! asked for), the authorization server sends the browser back to
//! `http://127.0.0.1:PORT/callback?code=…&state=…`, and agx answers with a page that says the
//! sign-in is done. Only the first request to `/callback` counts; anything else gets a 404.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::AuthError;

/// The path the browser is sent back to.
const CALLBACK_PATH: &str = "/callback";
/// A request head larger than this is not a browser's redirect.
const HEAD_CAP: usize = 16 * 1024;

pub(crate) struct Listener {
    listener: TcpListener,
    port: u16,
}

/// What the authorization server sent back: the whole redirect URL (for rmcp's parser) or its
/// error.
pub(crate) enum Redirect {
    Code {
        url: String,
    },
    Error {
        error: String,
        description: Option<String>,
    },
}

impl Listener {
    pub(crate) async fn bind(port: u16) -> Result<Listener, AuthError> {
        let listener =
            TcpListener::bind(("127.0.0.1", port))
                .await
                .map_err(|e| AuthError::Callback {
                    port,
                    detail: e.to_string(),
                })?;
        let port = listener
            .local_addr()
            .map_err(|e| AuthError::Callback {
                port,
                detail: e.to_string(),
            })?
            .port();
        Ok(Listener { listener, port })
    }

    pub(crate) fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}{CALLBACK_PATH}", self.port)
    }

    /// Wait for the browser's redirect.
    pub(crate) async fn wait(&self) -> Redirect {
        loop {
            let Ok((stream, _)) = self.listener.accept().await else {
                continue;
            };
            if let Some(redirect) = self.answer(stream).await {
                return redirect;
            }
        }
    }

    async fn answer(&self, mut stream: TcpStream) -> Option<Redirect> {
        let target = read_target(&mut stream).await?;
        let url = url::Url::parse(&format!("http://127.0.0.1:{}{target}", self.port)).ok()?;
        if url.path() != CALLBACK_PATH {
            respond(&mut stream, "404 Not Found", "Not found.").await;
            return None;
        }
        let param = |name: &str| {
            url.query_pairs()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.into_owned())
        };
        if let Some(error) = param("error") {
            respond(
                &mut stream,
                "200 OK",
                "The sign-in was refused. Return to the terminal for details.",
            )
            .await;
            return Some(Redirect::Error {
                error,
                description: param("error_description"),
            });
        }
        if param("code").is_none() {
            respond(&mut stream, "400 Bad Request", "No authorization code.").await;
            return None;
        }
        respond(
            &mut stream,
            "200 OK",
            "Signed in. You can close this tab and return to the terminal.",
        )
        .await;
        Some(Redirect::Code {
            url: url.to_string(),
        })
    }
}

/// The request target of an HTTP/1 GET, read from its head.
async fn read_target(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 || head.len() + n > HEAD_CAP {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = head.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?.trim_end();
    let mut words = line.split(' ');
    let (method, target) = (words.next()?, words.next()?);
    (method == "GET" && target.starts_with('/')).then(|| target.to_string())
}

async fn respond(stream: &mut TcpStream, status: &str, message: &str) {
    let body = format!(
        "<!doctype html><meta charset=utf-8><title>agx</title><p style=\"font-family:sans-serif\">{message}</p>\n"
    );
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}
