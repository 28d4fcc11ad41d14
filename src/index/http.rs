//! HTTP for web registries: timeouts, retries with backoff on transient failures, the status
//! checked before any body is read, conditional requests. Proxies come from the environment
//! (reqwest's default: `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`).
//!
//! Settings (environment): `AGX_HTTP_TIMEOUT` (seconds, connect and each read; default 30),
//! `AGX_HTTP_RETRIES` (extra attempts; default 3), `AGX_HTTP_BACKOFF_MS` (first wait,
//! doubled each retry; default 500).

use std::io::Read;
use std::sync::OnceLock;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::blocking::{Client, Response};
use reqwest::header::{ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED, RETRY_AFTER};
use reqwest::redirect;

use super::IndexError;
use super::cache::Validators;

/// Index files larger than this are refused (a catalog of 10,000 packages is a few MB).
const MAX_INDEX_FILE: u64 = 256 * 1024 * 1024;

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
        fn var<T: std::str::FromStr>(
            name: &'static str,
            expected: &'static str,
            default: T,
        ) -> Result<T, IndexError> {
            match std::env::var(name) {
                Ok(v) if !v.trim().is_empty() => {
                    v.trim().parse().map_err(|_| IndexError::Setting {
                        var: name,
                        value: v,
                        expected,
                    })
                }
                _ => Ok(default),
            }
        }
        let defaults = Settings::default();
        let timeout: f64 = var(
            "AGX_HTTP_TIMEOUT",
            "a number of seconds, e.g. 30",
            defaults.timeout.as_secs_f64(),
        )?;
        if !(timeout.is_finite() && timeout > 0.0) {
            return Err(IndexError::Setting {
                var: "AGX_HTTP_TIMEOUT",
                value: timeout.to_string(),
                expected: "a positive number of seconds",
            });
        }
        let backoff_ms = defaults.backoff.as_millis() as u64;
        Ok(Settings {
            timeout: Duration::from_secs_f64(timeout),
            retries: var(
                "AGX_HTTP_RETRIES",
                "a whole number, e.g. 3",
                defaults.retries,
            )?,
            backoff: Duration::from_millis(var(
                "AGX_HTTP_BACKOFF_MS",
                "milliseconds, e.g. 500",
                backoff_ms,
            )?),
        })
    }
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
}

impl Http {
    pub fn new(settings: Settings) -> Self {
        Http {
            client: OnceLock::new(),
            settings,
        }
    }

    fn client(&self) -> Result<&Client, IndexError> {
        if let Some(client) = self.client.get() {
            return Ok(client);
        }
        let client = build_client(&self.settings)?;
        Ok(self.client.get_or_init(|| client))
    }

    /// Fetch an index file, conditionally when `cached` has validators.
    pub fn fetch(&self, url: &str, cached: &Validators) -> Result<Fetched, IndexError> {
        self.with_retries(|attempt| {
            let mut request = self.client().map_err(Failure::Fatal)?.get(url);
            if let Some(etag) = &cached.etag {
                request = request.header(IF_NONE_MATCH, etag);
            }
            if let Some(date) = &cached.last_modified {
                request = request.header(IF_MODIFIED_SINCE, date);
            }
            let response = self.send(url, request, attempt)?;
            if response.status() == StatusCode::NOT_MODIFIED && !cached.is_empty() {
                return Ok(Fetched::NotModified);
            }
            let validators = Validators {
                etag: header(&response, ETAG),
                last_modified: header(&response, LAST_MODIFIED),
            };
            let body = read_body(url, response, attempt)?;
            Ok(Fetched::Fresh { body, validators })
        })
    }

    /// Run `attempt` up to 1 + retries times, waiting between transient failures.
    fn with_retries<T>(
        &self,
        mut attempt: impl FnMut(u32) -> Result<T, Failure>,
    ) -> Result<T, IndexError> {
        let mut wait = self.settings.backoff;
        let mut number = 1;
        loop {
            let (error, pause) = match attempt(number) {
                Ok(value) => return Ok(value),
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Transient(e)) => (e, wait),
                Err(Failure::RetryAfter(e, asked)) => (e, asked.min(MAX_RETRY_AFTER).max(wait)),
            };
            if number > self.settings.retries {
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
            // A refused redirect will be refused again: no retry.
            let retry = !e.is_redirect();
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
        mut sink: impl FnMut(&mut dyn Read) -> Result<(), SinkError>,
    ) -> Result<(), IndexError> {
        self.with_retries(|attempt| {
            let response = self.send(
                url,
                self.client().map_err(Failure::Fatal)?.get(url),
                attempt,
            )?;
            if let Some(len) = response.content_length()
                && len != expected_size
            {
                return Err(Failure::Fatal(IndexError::SizeMismatch {
                    url: url.to_string(),
                    expected: expected_size,
                    actual: len,
                }));
            }
            let mut body = response;
            sink(&mut body).map_err(|e| match e {
                SinkError::Read(read, received) => Failure::Transient(IndexError::Network {
                    url: url.to_string(),
                    attempts: attempt,
                    source: format!(
                        "the connection broke after {received} of {expected_size} bytes: {read}"
                    )
                    .into(),
                }),
                SinkError::Fatal(e) => Failure::Fatal(e),
            })
        })
    }
}

/// A failure while consuming a download body.
pub enum SinkError {
    /// Reading the body failed after this many bytes (worth retrying).
    Read(std::io::Error, u64),
    /// Anything else (writing the file, a mismatch).
    Fatal(IndexError),
}

/// The HTTP client: rustls with the system's roots, timeouts, and redirects that never
/// downgrade to plain HTTP off this machine.
fn build_client(settings: &Settings) -> Result<Client, IndexError> {
    static PROVIDER: std::sync::Once = std::sync::Once::new();
    PROVIDER.call_once(|| {
        // Fails only when a provider is already installed, which is what we want.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    Client::builder()
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
        .map_err(|e| IndexError::Network {
            url: "(client setup)".into(),
            attempts: 0,
            source: Box::new(e),
        })
}

fn header(response: &Response, name: reqwest::header::HeaderName) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

fn read_body(url: &str, response: Response, attempt: u32) -> Result<Vec<u8>, Failure> {
    if response
        .content_length()
        .is_some_and(|l| l > MAX_INDEX_FILE)
    {
        return Err(Failure::Fatal(IndexError::Parse {
            location: url.to_string(),
            message: format!("the file is larger than {MAX_INDEX_FILE} bytes"),
        }));
    }
    let mut body = Vec::new();
    response
        .take(MAX_INDEX_FILE + 1)
        .read_to_end(&mut body)
        .map_err(|e| {
            Failure::Transient(IndexError::Network {
                url: url.to_string(),
                attempts: attempt,
                source: Box::new(e),
            })
        })?;
    Ok(body)
}
