//! A real HTTP/1.1 server on 127.0.0.1 for tests: serves a folder (a registry) with
//! `ETag`/`Last-Modified` and `304 Not Modified`, logs every request, and injects faults.
//!
//! ```ignore
//! let server = HttpServer::serve(registry_dir);
//! let url = server.url();                       // "http://127.0.0.1:PORT"
//! server.fault("/dl/acme/weather/1.0.0.tar.gz", Fault::Fail { status: 500, times: 2 });
//! // … run agx with --registry <url> …
//! assert_eq!(server.count("/catalog.json"), 1);
//! let log = server.requests();                  // method, path, conditional headers, status
//! ```
//!
//! Paths are URL paths (`/catalog.json`). Every response closes its connection, so a fault
//! that cuts a body short is seen by the client at once. The server stops when dropped.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

/// A fault served for one path instead of (or on top of) the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Always `404 Not Found` with an HTML body.
    NotFound,
    /// Answer the next `times` requests with `status` (e.g. 500, 503, 429), then serve
    /// normally.
    Fail { status: u16, times: usize },
    /// Announce the full `Content-Length` but send only the first `keep` bytes, then close.
    Truncate { keep: usize },
    /// Serve the right length with different bytes (every byte inverted): a checksum mismatch.
    WrongBytes,
    /// Send the body `chunk` bytes at a time with `delay` between chunks.
    Trickle { chunk: usize, delay: Duration },
    /// `302 Found` to `location` (an absolute URL or a path).
    Redirect { location: String },
    /// Always `status` with a JSON `body` (an OCI registry's error envelope).
    Json { status: u16, body: String },
}

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LoggedRequest {
    pub method: String,
    pub path: String,
    pub if_none_match: Option<String>,
    pub if_modified_since: Option<String>,
    /// The status the server answered.
    pub status: u16,
    /// The `Authorization` header, when the request had one.
    pub authorization: Option<String>,
}

impl LoggedRequest {
    /// True when the client sent a conditional request.
    pub(crate) fn is_conditional(&self) -> bool {
        self.if_none_match.is_some() || self.if_modified_since.is_some()
    }
}

#[derive(Debug, Default)]
struct State {
    faults: HashMap<String, Fault>,
    log: Vec<LoggedRequest>,
    no_etag: bool,
    /// Requests without exactly this `Authorization` header are answered 401.
    authorization: Option<String>,
}

/// The running server. Dropping it stops it.
pub(crate) struct HttpServer {
    addr: SocketAddr,
    root: PathBuf,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

impl HttpServer {
    /// Serve `root` on a free port of 127.0.0.1.
    pub(crate) fn serve(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local addr");
        let state = Arc::new(Mutex::new(State::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let (root, state, stop) = (root.clone(), state.clone(), stop.clone());
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (root, state) = (root.clone(), state.clone());
                    thread::spawn(move || handle(stream, &root, &state));
                }
            })
        };
        HttpServer {
            addr,
            root,
            state,
            stop,
            accept: Some(accept),
        }
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The folder being served.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// Inject a fault for a URL path (replaces an earlier one for that path).
    pub(crate) fn fault(&self, path: &str, fault: Fault) {
        self.state
            .lock()
            .unwrap()
            .faults
            .insert(path.to_string(), fault);
    }

    /// Remove every fault.
    pub(crate) fn clear_faults(&self) {
        self.state.lock().unwrap().faults.clear();
    }

    /// Stop sending `ETag` (so clients must rely on `Last-Modified`).
    pub(crate) fn disable_etag(&self) {
        self.state.lock().unwrap().no_etag = true;
    }

    /// Answer 401 (with a `WWW-Authenticate: Bearer` challenge) to every request that does
    /// not carry `Authorization: <value>`.
    pub(crate) fn require_authorization(&self, value: &str) {
        self.state.lock().unwrap().authorization = Some(value.to_string());
    }

    /// Every request so far, in order.
    pub(crate) fn requests(&self) -> Vec<LoggedRequest> {
        self.state.lock().unwrap().log.clone()
    }

    /// Requests so far for one path.
    pub(crate) fn requests_for(&self, path: &str) -> Vec<LoggedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.path == path)
            .collect()
    }

    /// How many requests were made for one path.
    pub(crate) fn count(&self, path: &str) -> usize {
        self.requests_for(path).len()
    }

    /// Forget the request log.
    pub(crate) fn clear_log(&self) {
        self.state.lock().unwrap().log.clear();
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(handle) = self.accept.take() {
            let _ = handle.join();
        }
    }
}

struct Request {
    method: String,
    path: String,
    headers: HashMap<String, String>,
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?;
    let path = target.split('?').next().unwrap_or(target).to_string();
    let mut headers = HashMap::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            break;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    Some(Request {
        method,
        path,
        headers,
    })
}

fn handle(mut stream: TcpStream, root: &Path, state: &Mutex<State>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(req) = read_request(&stream) else {
        return;
    };
    let (fault, no_etag, required) = {
        let mut st = state.lock().unwrap();
        let fault = st.faults.get(&req.path).cloned();
        // A `Fail` fault counts down and disappears once spent.
        if let Some(Fault::Fail { status, times }) = &fault {
            let (status, times) = (*status, *times);
            if times <= 1 {
                st.faults.remove(&req.path);
            } else {
                st.faults.insert(
                    req.path.clone(),
                    Fault::Fail {
                        status,
                        times: times - 1,
                    },
                );
            }
        }
        (fault, st.no_etag, st.authorization.clone())
    };
    let log = |status: u16| {
        state.lock().unwrap().log.push(LoggedRequest {
            method: req.method.clone(),
            path: req.path.clone(),
            if_none_match: req.headers.get("if-none-match").cloned(),
            if_modified_since: req.headers.get("if-modified-since").cloned(),
            status,
            authorization: req.headers.get("authorization").cloned(),
        });
    };
    if let Some(required) = required
        && req.headers.get("authorization") != Some(&required)
    {
        log(401);
        let body = "<html><body>401</body></html>";
        let _ = write_head(
            &mut stream,
            401,
            body.len(),
            &[("WWW-Authenticate", "Bearer realm=\"agx-test\"".to_string())],
        );
        let _ = stream.write_all(body.as_bytes());
        return;
    }

    match fault {
        Some(Fault::NotFound) => return not_found(&mut stream, log),
        Some(Fault::Redirect { location }) => {
            log(302);
            let _ = write_head(&mut stream, 302, 0, &[("Location", location)]);
            return;
        }
        Some(Fault::Json { status, body }) => {
            log(status);
            let _ = write_head(
                &mut stream,
                status,
                body.len(),
                &[("Content-Type", "application/json".to_string())],
            );
            let _ = stream.write_all(body.as_bytes());
            return;
        }
        Some(Fault::Fail { status, .. }) => {
            log(status);
            let body = format!("<html><body>error {status}</body></html>");
            let _ = write_head(&mut stream, status, body.len(), &[]);
            let _ = stream.write_all(body.as_bytes());
            return;
        }
        _ => {}
    }

    let relative = req.path.trim_start_matches('/');
    if relative.split('/').any(|s| s == ".." || s.is_empty()) {
        return not_found(&mut stream, log);
    }
    let file = root.join(relative);
    let Ok(mut body) = std::fs::read(&file) else {
        return not_found(&mut stream, log);
    };
    let etag = format!("\"{}\"", &hex::encode(Sha256::digest(&body))[..20]);
    let modified = std::fs::metadata(&file)
        .and_then(|m| m.modified())
        .map(http_date)
        .unwrap_or_else(|_| http_date(UNIX_EPOCH));
    let mut validators: Vec<(&str, String)> = vec![("Last-Modified", modified.clone())];
    if !no_etag {
        validators.push(("ETag", etag.clone()));
    }
    // pip reads a links page only when it says it is HTML.
    if relative.ends_with(".html") {
        validators.push(("Content-Type", "text/html".to_string()));
    }
    let not_modified = match req.headers.get("if-none-match") {
        Some(tag) if !no_etag => tag.split(',').any(|t| t.trim() == etag),
        _ => req.headers.get("if-modified-since") == Some(&modified),
    };
    if not_modified {
        log(304);
        let _ = write_head(&mut stream, 304, 0, &validators);
        return;
    }
    log(200);
    let head_only = req.method == "HEAD";
    match fault {
        Some(Fault::Truncate { keep }) => {
            let _ = write_head(&mut stream, 200, body.len(), &validators);
            if !head_only {
                let _ = stream.write_all(&body[..keep.min(body.len())]);
            }
            let _ = stream.flush();
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        Some(Fault::Trickle { chunk, delay }) => {
            let _ = write_head(&mut stream, 200, body.len(), &validators);
            if !head_only {
                for piece in body.chunks(chunk.max(1)) {
                    if stream
                        .write_all(piece)
                        .and_then(|_| stream.flush())
                        .is_err()
                    {
                        return;
                    }
                    thread::sleep(delay);
                }
            }
        }
        other => {
            if other == Some(Fault::WrongBytes) {
                body.iter_mut().for_each(|b| *b = !*b);
            }
            let _ = write_head(&mut stream, 200, body.len(), &validators);
            if !head_only {
                let _ = stream.write_all(&body);
            }
        }
    }
    let _ = stream.flush();
}

fn not_found(stream: &mut TcpStream, log: impl Fn(u16)) {
    log(404);
    let body = "<html><body><h1>404 Not Found</h1></body></html>";
    let _ = write_head(stream, 404, body.len(), &[]);
    let _ = stream.write_all(body.as_bytes());
}

fn write_head(
    stream: &mut TcpStream,
    status: u16,
    length: usize,
    headers: &[(&str, String)],
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        302 => "Found",
        304 => "Not Modified",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    };
    let mut head = format!("HTTP/1.1 {status} {reason}\r\nConnection: close\r\n");
    if status != 304 {
        head.push_str(&format!("Content-Length: {length}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), as `Last-Modified` wants.
fn http_date(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let (h, m, s) = (secs % 86_400 / 3600, secs % 3600 / 60, secs % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{}, {day:02} {} {year} {h:02}:{m:02}:{s:02} GMT",
        WEEKDAYS[days.rem_euclid(7) as usize],
        MONTHS[(month - 1) as usize]
    )
}

#[test]
fn http_date_formats_known_instants() {
    assert_eq!(http_date(UNIX_EPOCH), "Thu, 01 Jan 1970 00:00:00 GMT");
    assert_eq!(
        http_date(UNIX_EPOCH + Duration::from_secs(784_111_777)),
        "Sun, 06 Nov 1994 08:49:37 GMT"
    );
}

/// Read a whole response with a plain socket (for tests of the server itself).
pub(crate) fn raw_get(url: &str, path: &str) -> (u16, Vec<u8>) {
    let addr = url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4)
        .unwrap_or(raw.len());
    let status = std::str::from_utf8(&raw[..split])
        .ok()
        .and_then(|h| h.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, raw[split..].to_vec())
}

/// How an [`OddServer`] answers a path instead of serving the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Odd {
    /// The file's real `Content-Length`, then its bytes one at a time, `interval` apart: a
    /// transfer that never stalls long enough for a read timeout.
    Drip { interval: Duration },
    /// `200` with a chunked body of `size` newlines and no `Content-Length`.
    Chunked { size: u64 },
    /// `304 Not Modified` to every request, conditional or not.
    NotModified,
}

#[derive(Debug, Default)]
struct OddState {
    odd: HashMap<String, Odd>,
    log: Vec<LoggedRequest>,
}

/// A server on 127.0.0.1 in front of an [`HttpServer`]: paths given an [`Odd`] behaviour
/// are answered slowly, hugely or wrongly here and logged; every other request is passed
/// to the [`HttpServer`] behind it (see [`OddServer::backend`] for its log and faults).
/// The server stops when dropped.
pub(crate) struct OddServer {
    addr: SocketAddr,
    backend: HttpServer,
    state: Arc<Mutex<OddState>>,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

impl OddServer {
    /// Serve `root` on a free port of 127.0.0.1.
    pub(crate) fn serve(root: impl Into<PathBuf>) -> Self {
        let backend = HttpServer::serve(root);
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local addr");
        let state = Arc::new(Mutex::new(OddState::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let (backend_addr, root) = (backend.addr, backend.root.clone());
            let (state, stop) = (state.clone(), stop.clone());
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (root, state) = (root.clone(), state.clone());
                    thread::spawn(move || handle_odd(stream, &root, backend_addr, &state));
                }
            })
        };
        OddServer {
            addr,
            backend,
            state,
            stop,
            accept: Some(accept),
        }
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The server behind this one, which answers every path without an [`Odd`] behaviour.
    pub(crate) fn backend(&self) -> &HttpServer {
        &self.backend
    }

    /// Answer a URL path oddly from now on (replaces an earlier behaviour for that path).
    pub(crate) fn odd(&self, path: &str, odd: Odd) {
        self.state.lock().unwrap().odd.insert(path.to_string(), odd);
    }

    /// Serve a path normally again.
    pub(crate) fn normal(&self, path: &str) {
        self.state.lock().unwrap().odd.remove(path);
    }

    /// The requests for one path that were answered oddly, in order.
    pub(crate) fn odd_requests_for(&self, path: &str) -> Vec<LoggedRequest> {
        let state = self.state.lock().unwrap();
        state
            .log
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }
}

impl Drop for OddServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(handle) = self.accept.take() {
            let _ = handle.join();
        }
    }
}

fn handle_odd(mut stream: TcpStream, root: &Path, backend: SocketAddr, state: &Mutex<OddState>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(req) = read_request(&stream) else {
        return;
    };
    let Some(odd) = state.lock().unwrap().odd.get(&req.path).cloned() else {
        return forward(&mut stream, &req, backend);
    };
    let status = if odd == Odd::NotModified { 304 } else { 200 };
    state.lock().unwrap().log.push(LoggedRequest {
        method: req.method.clone(),
        path: req.path.clone(),
        if_none_match: req.headers.get("if-none-match").cloned(),
        if_modified_since: req.headers.get("if-modified-since").cloned(),
        status,
        authorization: req.headers.get("authorization").cloned(),
    });
    // A client that hangs up ends the answer: write errors only stop it.
    let _ = match odd {
        Odd::NotModified => write_head(&mut stream, 304, 0, &[]),
        Odd::Drip { interval } => {
            let body =
                std::fs::read(root.join(req.path.trim_start_matches('/'))).unwrap_or_default();
            write_head(&mut stream, 200, body.len(), &[]).and_then(|()| {
                for byte in body {
                    stream.write_all(&[byte])?;
                    stream.flush()?;
                    thread::sleep(interval);
                }
                Ok(())
            })
        }
        Odd::Chunked { size } => write_chunked_newlines(&mut stream, size),
    };
    let _ = stream.flush();
}

/// `200` with `size` newlines in chunks of 64 KiB (`Transfer-Encoding: chunked`).
fn write_chunked_newlines(stream: &mut TcpStream, size: u64) -> std::io::Result<()> {
    stream
        .write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n")?;
    let chunk = vec![b'\n'; 64 * 1024];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        write!(stream, "{n:x}\r\n")?;
        stream.write_all(&chunk[..n])?;
        stream.write_all(b"\r\n")?;
        left -= n as u64;
    }
    stream.write_all(b"0\r\n\r\n")
}

/// Pass a request to `backend` and its whole answer back (it closes every connection).
fn forward(stream: &mut TcpStream, req: &Request, backend: SocketAddr) {
    let Ok(mut upstream) = TcpStream::connect(backend) else {
        return;
    };
    let mut head = format!("{} {} HTTP/1.1\r\n", req.method, req.path);
    for (name, value) in &req.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    if upstream.write_all(head.as_bytes()).is_ok() {
        let _ = std::io::copy(&mut upstream, stream);
    }
}
