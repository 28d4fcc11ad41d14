//! HTTP for web registries: timeouts, retries with backoff on transient failures, the status
//! checked before any body is read, conditional requests, and limits on every transfer (a
//! deadline, a minimum rate, a size cap for index files) so a stalled or hostile server can
//! neither hold agx forever nor fill its memory. Proxies come from the environment
//! (reqwest's default: `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`).
//!
//! Settings (environment): `AGX_HTTP_TIMEOUT` (seconds, connect and each read; default 30),
//! `AGX_HTTP_RETRIES` (extra attempts; default 3), `AGX_HTTP_BACKOFF_MS` (first wait,
//! doubled each retry; default 500). Limits: `AGX_HTTP_DEADLINE` (seconds for one file,
//! retries included; default 600), `AGX_HTTP_MIN_RATE` (bytes per second a body must average
//! over each `AGX_HTTP_TIMEOUT` window, as cargo's `http.low-speed-limit`; default 10, 0 turns
//! the check off), `AGX_HTTP_MAX_INDEX_SIZE` (bytes; default 64 MiB). See `docs/registry.md`.

use std::io::Read;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::blocking::{Client, Response};
use reqwest::header::{ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED, RETRY_AFTER};
use reqwest::redirect;

use super::IndexError;
use super::cache::Validators;

/// The longest `Retry-After` agx honours before retrying.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

/// Timeouts and retries for web registries.
#[derive(Debug, Clone)]
pub struct Settings {
    pub timeout: Duration,
    pub retries: u32,
    pub backoff: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout: Duration::from_secs(30),
            retries: 3,
            backoff: Duration::from_millis(500),
        }
    }
}

impl Settings {
    /// From `AGX_HTTP_TIMEOUT`, `AGX_HTTP_RETRIES` and `AGX_HTTP_BACKOFF_MS`.
    pub fn from_env() -> Result<Self, IndexError> {
        Self::from_lookup(&env_lookup)
    }

    fn from_lookup(lookup: &Lookup) -> Result<Self, IndexError> {
        let defaults = Settings::default();
        Ok(Settings {
            timeout: seconds(lookup, "AGX_HTTP_TIMEOUT", defaults.timeout)?,
            retries: setting(
                lookup,
                "AGX_HTTP_RETRIES",
                "a whole number, e.g. 3",
                defaults.retries,
            )?,
            backoff: Duration::from_millis(setting(
                lookup,
                "AGX_HTTP_BACKOFF_MS",
                "milliseconds, e.g. 500",
                defaults.backoff.as_millis() as u64,
            )?),
        })
    }
}

/// Limits on each transfer from a web registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The longest one file (an index file or a package) may take, retries and waits included.
    pub deadline: Duration,
    /// Bytes per second a body must average over each window of `Settings::timeout`; a body
    /// that trickles slower is cut off (the read timeout alone restarts with every byte).
    /// 0 turns the check off.
    pub min_rate: u64,
    /// The largest index file (`catalog.json`, `packages/…`) accepted, in bytes.
    pub max_index_size: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            deadline: Duration::from_secs(600),
            // cargo's `http.low-speed-limit`: only a stalled transfer is this slow.
            min_rate: 10,
            // A catalog of 10,000 packages is about 5 MB.
            max_index_size: 64 * 1024 * 1024,
        }
    }
}

impl Limits {
    /// From `AGX_HTTP_DEADLINE`, `AGX_HTTP_MIN_RATE` and `AGX_HTTP_MAX_INDEX_SIZE`.
    pub fn from_env() -> Result<Self, IndexError> {
        Self::from_lookup(&env_lookup)
    }

    fn from_lookup(lookup: &Lookup) -> Result<Self, IndexError> {
        let defaults = Limits::default();
        let max_index_size: std::num::NonZeroU64 = setting(
            lookup,
            "AGX_HTTP_MAX_INDEX_SIZE",
            "a positive number of bytes, e.g. 67108864",
            std::num::NonZeroU64::new(defaults.max_index_size).expect("the default is positive"),
        )?;
        Ok(Limits {
            deadline: seconds(lookup, "AGX_HTTP_DEADLINE", defaults.deadline)?,
            min_rate: setting(
                lookup,
                "AGX_HTTP_MIN_RATE",
                "a whole number of bytes per second, e.g. 10 (0 turns the check off)",
                defaults.min_rate,
            )?,
            max_index_size: max_index_size.get(),
        })
    }
}

/// Where settings come from: the environment, or a map in tests.
type Lookup = dyn Fn(&str) -> Option<String>;

fn env_lookup(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// One setting: its value when set and not blank, else `default`.
fn setting<T: std::str::FromStr>(
    lookup: &Lookup,
    name: &'static str,
    expected: &'static str,
    default: T,
) -> Result<T, IndexError> {
    match lookup(name) {
        Some(v) if !v.trim().is_empty() => v.trim().parse().map_err(|_| IndexError::Setting {
            var: name,
            value: v,
            expected,
        }),
        _ => Ok(default),
    }
}

/// A positive number of seconds (fractions allowed).
fn seconds(lookup: &Lookup, name: &'static str, default: Duration) -> Result<Duration, IndexError> {
    let value: f64 = setting(
        lookup,
        name,
        "a number of seconds, e.g. 30",
        default.as_secs_f64(),
    )?;
    // `Duration::from_secs_f64` panics past about 584 billion years.
    if !(value.is_finite() && value > 0.0 && value < 1e12) {
        return Err(IndexError::Setting {
            var: name,
            value: value.to_string(),
            expected: "a positive number of seconds",
        });
    }
    Ok(Duration::from_secs_f64(value))
}

/// The result of fetching an index file.
pub enum Fetched {
    Fresh {
        body: Vec<u8>,
        validators: Validators,
    },
    NotModified,
}

/// Why one attempt failed: worth retrying or not.
enum Failure {
    Transient(IndexError),
    /// The server wants credentials and one was found just now: ask again at once.
    Authorize,
    /// A 429 or 503 with `Retry-After: <seconds>`: wait that long (capped) before retrying.
    RetryAfter(IndexError, Duration),
    Fatal(IndexError),
}

#[derive(Debug)]
pub struct Http {
    /// Built on first use: loading the system's root certificates costs milliseconds that
    /// runs served from the cache (`--offline`, `list --include-remote` offline) never need.
    client: OnceLock<Client>,
    settings: Settings,
    limits: Limits,
    /// Where a credential for the source's host may be found, asked only when the host
    /// answers 401 (docs/organizations.md, "Credentials"); then kept for this run.
    login: std::sync::Mutex<Option<Login>>,
}

/// The source's host and how to look up its credential; `found` once looked up.
#[derive(Debug)]
struct Login {
    host: String,
    source: Option<String>,
    paths: agx_core::paths::AgxPaths,
    found: Option<Option<super::credentials::Found>>,
}

impl Http {
    pub fn new(settings: Settings, limits: Limits) -> Self {
        Http {
            client: OnceLock::new(),
            settings,
            limits,
            login: std::sync::Mutex::new(None),
        }
    }

    /// A client with the settings and limits of the environment (`AGX_HTTP_…`).
    pub fn from_env() -> Result<Self, IndexError> {
        Ok(Http::new(Settings::from_env()?, Limits::from_env()?))
    }

    /// Let requests to `url`'s host carry that host's credential once it answers 401
    /// (`source`: the configured source's name, for `AGX_TOKEN__<SOURCE>`). Requests to any
    /// other host never carry it.
    pub fn offer_login(&self, url: &str, source: Option<&str>, paths: &agx_core::paths::AgxPaths) {
        let Some(host) = host_of(url) else {
            return;
        };
        *self.login.lock().expect("login") = Some(Login {
            host,
            source: source.map(str::to_string),
            paths: paths.clone(),
            found: None,
        });
    }

    /// Add the credential to a request for its host, once one was found.
    fn authorize(
        &self,
        url: &str,
        request: reqwest::blocking::RequestBuilder,
    ) -> reqwest::blocking::RequestBuilder {
        let login = self.login.lock().expect("login");
        let Some(Login {
            host,
            found: Some(Some(found)),
            ..
        }) = login.as_ref()
        else {
            return request;
        };
        if host_of(url).as_deref() != Some(host.as_str()) {
            return request;
        }
        match &found.credential {
            super::credentials::Credential::Basic { username, password } => {
                request.basic_auth(username, Some(password))
            }
            super::credentials::Credential::Token(token) => request.bearer_auth(token),
        }
    }

    /// A 401 from `url`: look the credential up (once); `Authorize` when one was found now,
    /// else the refusal, naming where the credential used came from.
    fn unauthorized(&self, url: &str) -> Failure {
        let mut login = self.login.lock().expect("login");
        let refused = |login: &Option<Login>| {
            let (credential_from, token_var, host) = match login {
                Some(l) => (
                    l.found.clone().flatten().map(|f| f.from),
                    l.source.as_deref().map(super::credentials::token_var),
                    l.host.clone(),
                ),
                None => (None, None, host_of(url).unwrap_or_default()),
            };
            Failure::Fatal(IndexError::Unauthorized {
                url: url.to_string(),
                host,
                credential_from,
                token_var,
            })
        };
        match login.as_mut() {
            Some(l) if l.found.is_none() && host_of(url).as_deref() == Some(l.host.as_str()) => {
                match super::credentials::lookup(&l.paths, l.source.as_deref(), &l.host) {
                    Ok(found) => {
                        let now = found.is_some();
                        l.found = Some(found);
                        if now {
                            Failure::Authorize
                        } else {
                            refused(&login)
                        }
                    }
                    Err(e) => Failure::Fatal(e),
                }
            }
            _ => refused(&login),
        }
    }

    fn client(&self) -> Result<&Client, IndexError> {
        if let Some(client) = self.client.get() {
            return Ok(client);
        }
        let client = build_client(&self.settings)?;
        Ok(self.client.get_or_init(|| client))
    }

    /// Fetch an index file, conditionally when `cached` has validators. A `304` to a
    /// request without validators is an error: there is no copy it could refer to.
    pub fn fetch(&self, url: &str, cached: &Validators) -> Result<Fetched, IndexError> {
        let deadline = Instant::now() + self.limits.deadline;
        self.with_retries(deadline, |attempt| {
            let mut request = self.authorize(url, self.client().map_err(Failure::Fatal)?.get(url));
            if let Some(etag) = &cached.etag {
                request = request.header(IF_NONE_MATCH, etag);
            }
            if let Some(date) = &cached.last_modified {
                request = request.header(IF_MODIFIED_SINCE, date);
            }
            let response = self.send(url, request, attempt)?;
            if response.status() == StatusCode::NOT_MODIFIED {
                return if cached.is_empty() {
                    Err(Failure::Fatal(IndexError::NotModifiedUncached {
                        url: url.to_string(),
                    }))
                } else {
                    Ok(Fetched::NotModified)
                };
            }
            let validators = Validators {
                etag: header(&response, ETAG),
                last_modified: header(&response, LAST_MODIFIED),
            };
            let body = self.read_index_body(url, response, attempt, deadline)?;
            Ok(Fetched::Fresh { body, validators })
        })
    }

    /// Run `attempt` up to 1 + retries times, waiting between transient failures; no wait
    /// runs past `deadline` (the last error is returned instead).
    fn with_retries<T>(
        &self,
        deadline: Instant,
        mut attempt: impl FnMut(u32) -> Result<T, Failure>,
    ) -> Result<T, IndexError> {
        let mut wait = self.settings.backoff;
        let mut number = 1;
        loop {
            let (error, pause) = match attempt(number) {
                Ok(value) => return Ok(value),
                Err(Failure::Fatal(e)) => return Err(e),
                // Not a failure of the transfer: the same attempt again, with the credential.
                Err(Failure::Authorize) => continue,
                Err(Failure::Transient(e)) => (e, wait),
                Err(Failure::RetryAfter(e, asked)) => (e, asked.min(MAX_RETRY_AFTER).max(wait)),
            };
            if number > self.settings.retries || Instant::now() + pause >= deadline {
                return Err(error);
            }
            tracing::debug!("{error}; retrying in {} ms", pause.as_millis());
            std::thread::sleep(pause);
            wait = wait.saturating_mul(2);
            number += 1;
        }
    }

    /// Send a request and check its status; no body is read here.
    fn send(
        &self,
        url: &str,
        request: reqwest::blocking::RequestBuilder,
        attempt: u32,
    ) -> Result<Response, Failure> {
        let response = request.send().map_err(|e| {
            // A refused redirect or certificate will be refused again: no retry.
            let retry = !e.is_redirect() && !super::tls::is_certificate_error(&e);
            let error = IndexError::Network {
                url: url.to_string(),
                attempts: attempt,
                source: Box::new(e),
            };
            if retry {
                Failure::Transient(error)
            } else {
                Failure::Fatal(error)
            }
        })?;
        let status = response.status();
        tracing::debug!("GET {url} → {}", status.as_u16());
        if status.is_success() || status == StatusCode::NOT_MODIFIED {
            return Ok(response);
        }
        let error = IndexError::Status {
            url: url.to_string(),
            status: status.as_u16(),
            attempts: attempt,
        };
        match status {
            StatusCode::UNAUTHORIZED => Err(self.unauthorized(url)),
            StatusCode::NOT_FOUND | StatusCode::GONE => Err(Failure::Fatal(IndexError::NotFound {
                url: url.to_string(),
            })),
            s if s.is_server_error() || s == StatusCode::TOO_MANY_REQUESTS => {
                let retry_after = header(&response, RETRY_AFTER)
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                Err(match retry_after {
                    Some(pause) => Failure::RetryAfter(error, pause),
                    None => Failure::Transient(error),
                })
            }
            _ => Err(Failure::Fatal(error)),
        }
    }

    /// Download `url` into `dest` through `sink`, retrying transient failures from the start.
    /// `sink` sees a fresh file each attempt and returns a fatal error on a mismatch.
    pub fn download(
        &self,
        url: &str,
        expected_size: u64,
        sink: impl FnMut(&mut dyn Read) -> Result<(), SinkError>,
    ) -> Result<(), IndexError> {
        self.download_with(url, Some(expected_size), sink)
    }

    /// [`Http::download`] for a file whose size nobody announced (an MCPB bundle's URL):
    /// `sink` must cap what it accepts.
    pub fn download_unsized(
        &self,
        url: &str,
        sink: impl FnMut(&mut dyn Read) -> Result<(), SinkError>,
    ) -> Result<(), IndexError> {
        self.download_with(url, None, sink)
    }

    fn download_with(
        &self,
        url: &str,
        expected_size: Option<u64>,
        mut sink: impl FnMut(&mut dyn Read) -> Result<(), SinkError>,
    ) -> Result<(), IndexError> {
        let deadline = Instant::now() + self.limits.deadline;
        self.with_retries(deadline, |attempt| {
            let response = self.send(
                url,
                self.authorize(url, self.client().map_err(Failure::Fatal)?.get(url)),
                attempt,
            )?;
            if let (Some(len), Some(expected)) = (response.content_length(), expected_size)
                && len != expected
            {
                return Err(Failure::Fatal(IndexError::SizeMismatch {
                    url: url.to_string(),
                    expected,
                    actual: len,
                }));
            }
            let mut body = self.paced(response, deadline);
            sink(&mut body).map_err(|e| match e {
                SinkError::Read(read, received) => {
                    self.read_failure(url, attempt, read, || match expected_size {
                        Some(expected) => {
                            format!("the connection broke after {received} of {expected} bytes")
                        }
                        None => format!("the connection broke after {received} bytes"),
                    })
                }
                SinkError::Fatal(e) => Failure::Fatal(e),
            })
        })
    }

    /// Read an index file's body: at most `max_index_size` bytes, under the transfer limits.
    /// A larger body is refused whole, never truncated.
    fn read_index_body(
        &self,
        url: &str,
        response: Response,
        attempt: u32,
        deadline: Instant,
    ) -> Result<Vec<u8>, Failure> {
        let limit = self.limits.max_index_size;
        let too_large = || {
            Failure::Fatal(IndexError::IndexTooLarge {
                url: url.to_string(),
                limit,
            })
        };
        if response.content_length().is_some_and(|l| l > limit) {
            return Err(too_large());
        }
        let mut body = Vec::new();
        self.paced(response, deadline)
            .take(limit + 1)
            .read_to_end(&mut body)
            .map_err(|e| self.read_failure(url, attempt, e, || "the connection broke".into()))?;
        if body.len() as u64 > limit {
            return Err(too_large());
        }
        Ok(body)
    }

    fn paced<R: Read>(&self, inner: R, deadline: Instant) -> Paced<R> {
        let now = Instant::now();
        Paced {
            inner,
            deadline,
            window: self.settings.timeout,
            min_rate: self.limits.min_rate,
            window_start: now,
            window_bytes: 0,
            received: 0,
        }
    }

    /// Classify a failed body read: a limit of [`Paced`] (too slow: retried; past the
    /// deadline: final), or a broken connection (retried), described by `broke`.
    fn read_failure(
        &self,
        url: &str,
        attempt: u32,
        error: std::io::Error,
        broke: impl FnOnce() -> String,
    ) -> Failure {
        let url = url.to_string();
        match error.get_ref().and_then(|e| e.downcast_ref::<Exceeded>()) {
            Some(Exceeded::Deadline { received }) => Failure::Fatal(IndexError::DeadlineExceeded {
                url,
                deadline: self.limits.deadline,
                received: *received,
                attempts: attempt,
            }),
            Some(Exceeded::TooSlow { received, elapsed }) => {
                Failure::Transient(IndexError::TooSlow {
                    url,
                    received: *received,
                    elapsed: *elapsed,
                    min_rate: self.limits.min_rate,
                    attempts: attempt,
                })
            }
            None => Failure::Transient(IndexError::Network {
                url,
                attempts: attempt,
                source: Box::new(BrokenTransfer {
                    context: broke(),
                    source: error,
                }),
            }),
        }
    }
}

/// A failure while consuming a download body.
pub enum SinkError {
    /// Reading the body failed after this many bytes (worth retrying).
    Read(std::io::Error, u64),
    /// Anything else (writing the file, a mismatch).
    Fatal(IndexError),
}

/// A response body read under the transfer limits. Each read still waits at most the read
/// timeout, so a silent server is caught by that timeout and a trickling one by these
/// checks, which run between reads.
struct Paced<R> {
    inner: R,
    deadline: Instant,
    window: Duration,
    /// Bytes per second; 0 turns the check off.
    min_rate: u64,
    window_start: Instant,
    window_bytes: u64,
    received: u64,
}

/// Why [`Paced`] cut a body off (carried inside an `io::Error`).
#[derive(Debug, thiserror::Error)]
enum Exceeded {
    #[error("the deadline passed after {received} bytes")]
    Deadline { received: u64 },
    #[error("only {received} bytes arrived in {elapsed:?}")]
    TooSlow { received: u64, elapsed: Duration },
}

impl<R: Read> Read for Paced<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let exceeded = |e: Exceeded| Err(std::io::Error::new(std::io::ErrorKind::TimedOut, e));
        if Instant::now() >= self.deadline {
            return exceeded(Exceeded::Deadline {
                received: self.received,
            });
        }
        let n = self.inner.read(buf)?;
        self.received += n as u64;
        self.window_bytes += n as u64;
        let now = Instant::now();
        let elapsed = now.duration_since(self.window_start);
        // The end of the body is never too slow; otherwise judge each full window.
        if n > 0 && self.min_rate > 0 && elapsed >= self.window {
            if (self.window_bytes as f64) < self.min_rate as f64 * elapsed.as_secs_f64() {
                return exceeded(Exceeded::TooSlow {
                    received: self.window_bytes,
                    elapsed,
                });
            }
            self.window_start = now;
            self.window_bytes = 0;
        }
        Ok(n)
    }
}

/// `host[:port]` of a URL, lowercase, the port only when it is not the scheme's default.
pub(crate) fn host_of(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    let host = parsed.host_str()?.to_ascii_lowercase();
    Some(match parsed.port() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    })
}

/// Make `ring` the process's TLS provider (every client agx builds uses rustls on it).
pub(crate) fn install_tls_provider() {
    static PROVIDER: std::sync::Once = std::sync::Once::new();
    PROVIDER.call_once(|| {
        // Fails only when a provider is already installed, which is what we want.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// The HTTP client: rustls with the system's roots (loaded at the first HTTPS handshake), timeouts, and redirects that never
/// downgrade to plain HTTP off this machine.
fn build_client(settings: &Settings) -> Result<Client, IndexError> {
    let setup_failed = |source: Box<dyn std::error::Error + Send + Sync>| IndexError::Network {
        url: "(client setup)".into(),
        attempts: 0,
        source,
    };
    let tls = super::tls::lazy_platform_config().map_err(|e| setup_failed(Box::new(e)))?;
    Client::builder()
        .tls_backend_preconfigured(tls)
        .user_agent(concat!("agx/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(settings.timeout)
        .timeout(settings.timeout)
        .redirect(redirect::Policy::custom(|attempt| {
            // Never let a redirect downgrade to plain HTTP off this machine.
            let target = attempt.url().as_str().to_string();
            if attempt.previous().len() >= 10 {
                attempt.error("too many redirects")
            } else if matches!(
                super::Source::parse(&target),
                Err(IndexError::InsecureHttp { .. })
            ) {
                attempt.error(format!(
                    "refusing a redirect to the plain-HTTP URL {target}"
                ))
            } else {
                attempt.follow()
            }
        }))
        .build()
        .map_err(|e| setup_failed(Box::new(e)))
}

fn header(response: &Response, name: reqwest::header::HeaderName) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// A body read that failed part-way: what was received, with the read error as its cause.
#[derive(Debug, thiserror::Error)]
#[error("{context}")]
struct BrokenTransfer {
    context: String,
    source: std::io::Error,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.get(name).cloned()
    }

    #[test]
    fn limits_come_from_the_environment_and_bad_values_are_named() {
        assert_eq!(
            Limits::from_lookup(&lookup(&[])).unwrap(),
            Limits::default()
        );
        let limits = Limits::from_lookup(&lookup(&[
            ("AGX_HTTP_DEADLINE", "1.5"),
            ("AGX_HTTP_MIN_RATE", " 0 "),
            ("AGX_HTTP_MAX_INDEX_SIZE", "4096"),
        ]))
        .unwrap();
        assert_eq!(
            limits,
            Limits {
                deadline: Duration::from_millis(1500),
                min_rate: 0,
                max_index_size: 4096,
            }
        );
        for (var, value) in [
            ("AGX_HTTP_DEADLINE", "soon"),
            ("AGX_HTTP_DEADLINE", "-3"),
            ("AGX_HTTP_DEADLINE", "inf"),
            ("AGX_HTTP_MIN_RATE", "1.5"),
            ("AGX_HTTP_MAX_INDEX_SIZE", "0"),
            ("AGX_HTTP_MAX_INDEX_SIZE", "64M"),
        ] {
            let err = Limits::from_lookup(&lookup(&[(var, value)])).unwrap_err();
            assert!(
                matches!(&err, IndexError::Setting { var: v, .. } if *v == var),
                "{var}={value}: {err:?}"
            );
        }
        let settings = Settings::from_lookup(&lookup(&[("AGX_HTTP_TIMEOUT", "0.25")])).unwrap();
        assert_eq!(settings.timeout, Duration::from_millis(250));
        assert!(Settings::from_lookup(&lookup(&[("AGX_HTTP_TIMEOUT", "0")])).is_err());
    }

    /// A [`Paced`] over `body` whose current window began `window_age` ago.
    fn paced(body: &[u8], deadline: Instant, min_rate: u64, window_age: Duration) -> Paced<&[u8]> {
        Paced {
            inner: body,
            deadline,
            window: Duration::from_secs(1),
            min_rate,
            window_start: Instant::now() - window_age,
            window_bytes: 0,
            received: 0,
        }
    }

    fn exceeded(error: std::io::Error) -> Exceeded {
        *error.into_inner().unwrap().downcast::<Exceeded>().unwrap()
    }

    #[test]
    fn a_body_past_its_deadline_is_cut_off() {
        let past = Instant::now() - Duration::from_millis(1);
        let mut body = paced(b"hello", past, 0, Duration::ZERO);
        let err = body.read(&mut [0; 8]).unwrap_err();
        assert!(matches!(exceeded(err), Exceeded::Deadline { received: 0 }));
    }

    #[test]
    fn a_window_slower_than_the_minimum_rate_is_cut_off() {
        let later = Instant::now() + Duration::from_secs(3600);
        // 5 bytes in a window of at least 10 s, at a minimum of 10 bytes per second.
        let mut slow = paced(b"hello", later, 10, Duration::from_secs(10));
        let err = slow.read(&mut [0; 8]).unwrap_err();
        assert!(matches!(
            exceeded(err),
            Exceeded::TooSlow { received: 5, .. }
        ));
        // Fast enough: the window starts again.
        let mut fast = paced(b"hello", later, 1, Duration::from_secs(2));
        let mut buf = [0; 8];
        assert_eq!(fast.read(&mut buf).unwrap(), 5);
        assert_eq!(fast.window_bytes, 0);
        // The end of a body is never too slow.
        let mut ended = paced(b"", later, 1_000_000, Duration::from_secs(10));
        assert_eq!(ended.read(&mut buf).unwrap(), 0);
        // 0 turns the check off.
        let mut unchecked = paced(b"hello", later, 0, Duration::from_secs(10));
        assert_eq!(unchecked.read(&mut buf).unwrap(), 5);
    }
}
