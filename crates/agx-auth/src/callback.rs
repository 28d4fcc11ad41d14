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
/// How long one connection to the listener may take to send its request.
const CONNECTION_DEADLINE: std::time::Duration = std::time::Duration::from_secs(5);

pub(crate) struct Listener {
    listener: TcpListener,
    port: u16,
}

/// What the authorization server sent back: the whole redirect URL (for rmcp's parser) or its
/// error (with the `state` it came back with; control characters removed, as the text is
/// printed).
#[derive(Debug, PartialEq, Eq)]
pub enum Redirect {
    Code {
        url: String,
    },
    Error {
        error: String,
        description: Option<String>,
        state: Option<String>,
    },
}

/// The `state` a redirect came back with.
fn redirect_state(redirect: &Redirect) -> Option<String> {
    match redirect {
        Redirect::Error { state, .. } => state.clone(),
        Redirect::Code { url } => query_param(url, "state"),
    }
}

/// The value of the query parameter `name` in `url`, decoded.
pub(crate) fn query_param(url: &str, name: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// `text` without control characters (a terminal's escape sequences).
fn printable(text: String) -> String {
    text.chars().filter(|c| !c.is_control()).collect()
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

    /// Wait for the browser's redirect: the first to `/callback` that carries `state` (the
    /// one agx sent), so that no other local program or web page can end the sign-in.
    pub(crate) async fn wait(&self, state: &str) -> Redirect {
        loop {
            let Ok((stream, _)) = self.listener.accept().await else {
                continue;
            };
            // A connection that sends nothing (a browser's preconnect) must not hold the
            // redirect up.
            let answered = tokio::time::timeout(CONNECTION_DEADLINE, self.answer(stream, state));
            if let Ok(Some(redirect)) = answered.await {
                return redirect;
            }
        }
    }

    async fn answer(&self, mut stream: TcpStream, state: &str) -> Option<Redirect> {
        let head = read_head(&mut stream).await?;
        match parse_callback(&head, self.port) {
            Callback::Redirect(redirect) if redirect_state(&redirect).as_deref() != Some(state) => {
                respond(&mut stream, "400 Bad Request", "Not this sign-in.").await;
                None
            }
            Callback::NotFound => {
                respond(&mut stream, "404 Not Found", "Not found.").await;
                None
            }
            Callback::BadRequest => {
                respond(&mut stream, "400 Bad Request", "No authorization code.").await;
                None
            }
            Callback::Redirect(redirect) => {
                let page = match &redirect {
                    Redirect::Code { .. } => {
                        "Signed in. You can close this tab and return to the terminal."
                    }
                    Redirect::Error { .. } => {
                        "The sign-in was refused. Return to the terminal for details."
                    }
                };
                respond(&mut stream, "200 OK", page).await;
                Some(redirect)
            }
        }
    }
}

/// What one request to the loopback listener is.
#[derive(Debug, PartialEq, Eq)]
pub enum Callback {
    /// Not a GET of `/callback`.
    NotFound,
    /// `/callback` without a code or an error.
    BadRequest,
    Redirect(Redirect),
}

/// Read a request head (`head`: its bytes up to the blank line) sent to the listener on
/// `port`. Public for the fuzz target `oauth_callback`: any local program can connect.
pub fn parse_callback(head: &[u8], port: u16) -> Callback {
    let Some(target) = request_target(head) else {
        return Callback::NotFound;
    };
    let Ok(url) = url::Url::parse(&format!("http://127.0.0.1:{port}{target}")) else {
        return Callback::NotFound;
    };
    if url.path() != CALLBACK_PATH {
        return Callback::NotFound;
    }
    let param = |name: &str| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    if let Some(error) = param("error") {
        return Callback::Redirect(Redirect::Error {
            error: printable(error),
            description: param("error_description").map(printable),
            state: param("state"),
        });
    }
    if param("code").is_none() {
        return Callback::BadRequest;
    }
    Callback::Redirect(Redirect::Code {
        url: url.to_string(),
    })
}

/// The request target of an HTTP/1 GET head.
fn request_target(head: &[u8]) -> Option<&str> {
    let line = head.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?.trim_end();
    let mut words = line.split(' ');
    let (method, target) = (words.next()?, words.next()?);
    (method == "GET" && target.starts_with('/')).then_some(target)
}

/// A request's head, up to its blank line; `None` for a connection that sends none.
async fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 || head.len() + n > HEAD_CAP {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    Some(head)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_get_of_the_callback_with_a_code_or_an_error_counts() {
        let code = parse_callback(
            b"GET /callback?code=abc&state=xyz HTTP/1.1\r\nHost: x\r\n\r\n",
            4242,
        );
        assert_eq!(
            code,
            Callback::Redirect(Redirect::Code {
                url: "http://127.0.0.1:4242/callback?code=abc&state=xyz".into()
            })
        );
        let refused = parse_callback(
            b"GET /callback?error=access_denied&error_description=no HTTP/1.1\r\n\r\n",
            1,
        );
        assert_eq!(
            refused,
            Callback::Redirect(Redirect::Error {
                error: "access_denied".into(),
                description: Some("no".into()),
                state: None,
            })
        );
        assert_eq!(
            parse_callback(b"GET /callback HTTP/1.1\r\n\r\n", 1),
            Callback::BadRequest
        );
        for other in [
            &b"GET /favicon.ico HTTP/1.1\r\n\r\n"[..],
            b"POST /callback?code=a HTTP/1.1\r\n\r\n",
            b"GET http://evil.example/callback?code=a HTTP/1.1\r\n\r\n",
            b"\xff\xfe",
            b"",
        ] {
            assert_eq!(parse_callback(other, 1), Callback::NotFound);
        }
    }
}
