//! MCP registries as sources: a real MCP Registry API served on 127.0.0.1 by the test
//! (paging by cursor, ETags, faults), holding server.json documents that validate against
//! the registry's published schema; detection, `registry add-source`, search, info, list,
//! offline use from the cache, and the errors of broken registries.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::support::{self, TestHome};

/// What the test registry answers to `/v0.1/servers`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Normal,
    /// An HTML page with status 200 (a web site, a login wall).
    Html,
    /// `500 Internal Server Error` every time.
    Fail,
    /// Every page points to the same `nextCursor`.
    CursorLoop,
    /// Every request for one server is answered with the last document, whatever was asked.
    Impostor,
}

/// Where the servers come from: documents with a status, or `count` generated ones.
pub(crate) enum Servers {
    Documents(Vec<Value>),
    /// For the memory test, which reads /proc (Unix).
    #[cfg_attr(not(unix), allow(dead_code))]
    Generated(usize),
}

impl Servers {
    fn len(&self) -> usize {
        match self {
            Servers::Documents(d) => d.len(),
            Servers::Generated(n) => *n,
        }
    }

    /// The API's `ServerResponse` for server `i`.
    fn response(&self, i: usize) -> Value {
        match self {
            Servers::Documents(d) => d[i].clone(),
            Servers::Generated(_) => json!({
                "server": {
                    "name": format!("io.github.gen/server-{i:05}"),
                    "description": format!("Generated server number {i}"),
                    "version": "1.0.0",
                    "packages": [{"registryType": "npm", "identifier": format!("gen-{i}"),
                                  "version": "1.0.0", "transport": {"type": "stdio"}}]
                },
                "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": true}}
            }),
        }
    }
}

struct State {
    servers: Servers,
    mode: Mutex<Mode>,
    /// The most servers one page holds, whatever `limit` asks.
    page_cap: usize,
    /// Every request: path with query, and the page size answered (if a list).
    log: Mutex<Vec<(String, Option<usize>)>>,
}

/// An MCP Registry API on 127.0.0.1; stops when dropped.
pub(crate) struct McpServer {
    pub(crate) url: String,
    state: Arc<State>,
    stop: Arc<AtomicBool>,
}

impl McpServer {
    pub(crate) fn start(servers: Servers, page_cap: usize) -> McpServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(State {
            servers,
            mode: Mutex::new(Mode::Normal),
            page_cap,
            log: Mutex::new(Vec::new()),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let (state2, stop2) = (state.clone(), stop.clone());
        thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::Relaxed) {
                    break;
                }
                if let Ok(stream) = stream {
                    let state = state2.clone();
                    thread::spawn(move || handle(stream, &state));
                }
            }
        });
        McpServer { url, state, stop }
    }

    pub(crate) fn set_mode(&self, mode: Mode) {
        *self.state.mode.lock().unwrap() = mode;
    }

    fn requests(&self) -> Vec<(String, Option<usize>)> {
        self.state.log.lock().unwrap().clone()
    }

    fn count(&self, prefix: &str) -> usize {
        self.requests()
            .iter()
            .filter(|(p, _)| p.starts_with(prefix))
            .count()
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
    }
}

fn handle(mut stream: TcpStream, state: &State) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut if_none_match = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("if-none-match")
        {
            if_none_match = Some(value.trim().to_string());
        }
    }
    let target = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_string();
    let url = reqwest::Url::parse(&format!("http://x{target}")).unwrap();
    let query: HashMap<String, String> = url.query_pairs().into_owned().collect();
    let mode = *state.mode.lock().unwrap();
    let (status, content_type, body, page) = route(state, url.path(), &query, mode);
    state.log.lock().unwrap().push((target, page));
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&body)[..8]));
    if status == 200 && if_none_match.as_deref() == Some(etag.as_str()) {
        let _ = write!(
            stream,
            "HTTP/1.1 304 Not Modified\r\nETag: {etag}\r\nConnection: close\r\n\r\n"
        );
        return;
    }
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nETag: {etag}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(&body);
}

/// Status, content type, body, and the number of servers when it is a list page.
fn route(
    state: &State,
    path: &str,
    query: &HashMap<String, String>,
    mode: Mode,
) -> (u16, &'static str, Vec<u8>, Option<usize>) {
    let not_found = (
        404,
        "application/json",
        br#"{"error":"Server not found"}"#.to_vec(),
        None,
    );
    if path == "/v0.1/servers" {
        match mode {
            Mode::Html => {
                return (
                    200,
                    "text/html",
                    b"<!doctype html><h1>Welcome</h1>".to_vec(),
                    None,
                );
            }
            Mode::Fail => return (500, "text/plain", b"database down".to_vec(), None),
            Mode::Normal | Mode::CursorLoop | Mode::Impostor => {}
        }
        let limit: usize = query
            .get("limit")
            .and_then(|l| l.parse().ok())
            .unwrap_or(30);
        let start: usize = query
            .get("cursor")
            .and_then(|c| c.trim_start_matches("after-").parse().ok())
            .unwrap_or(0);
        let end = (start + limit.min(state.page_cap)).min(state.servers.len());
        let servers: Vec<Value> = (start..end).map(|i| state.servers.response(i)).collect();
        let next = match mode {
            Mode::CursorLoop => Some("after-0".to_string()),
            _ if end < state.servers.len() => Some(format!("after-{end}")),
            _ => None,
        };
        let body =
            json!({"servers": servers, "metadata": {"nextCursor": next, "count": end - start}});
        return (
            200,
            "application/json",
            body.to_string().into_bytes(),
            Some(end - start),
        );
    }
    if let Some(rest) = path.strip_prefix("/v0.1/servers/") {
        let Some((encoded, version)) = rest.split_once("/versions/") else {
            return not_found;
        };
        let name = encoded.replace("%2F", "/").replace("%2f", "/");
        if mode == Mode::Impostor {
            let last = state.servers.response(state.servers.len() - 1);
            return (200, "application/json", last.to_string().into_bytes(), None);
        }
        for i in 0..state.servers.len() {
            let response = state.servers.response(i);
            let latest =
                response["_meta"]["io.modelcontextprotocol.registry/official"]["isLatest"] != false;
            if response["server"]["name"] == name.as_str()
                && ((version == "latest" && latest) || response["server"]["version"] == version)
            {
                return (
                    200,
                    "application/json",
                    response.to_string().into_bytes(),
                    None,
                );
            }
        }
    }
    not_found
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mcp-registry")
}

pub(crate) fn document(name: &str) -> Value {
    let path = data_dir().join("servers").join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `server` as the API answers it: active, the latest version or not.
pub(crate) fn listed(server: Value, latest: bool) -> Value {
    json!({"server": server,
           "_meta": {"io.modelcontextprotocol.registry/official":
                     {"status": "active", "isLatest": latest,
                      "publishedAt": "2026-01-02T03:04:05Z"}}})
}

/// The test documents as the API lists them, with their statuses.
pub(crate) fn documents() -> Vec<Value> {
    let with = |name: &str, status: &str, message: Option<&str>| {
        let mut official = json!({"status": status, "isLatest": true,
                                  "publishedAt": "2026-01-02T03:04:05Z"});
        if let Some(message) = message {
            official["statusMessage"] = message.into();
        }
        json!({"server": document(name),
               "_meta": {"io.modelcontextprotocol.registry/official": official}})
    };
    vec![
        with("everything", "active", None),
        with("time", "active", None),
        with("weather", "active", None),
        with(
            "legacy",
            "deprecated",
            Some("use io.github.user/weather instead"),
        ),
        with("gone", "deleted", None),
    ]
}

/// `agx` with fast failure (no retries) for this home.
pub(crate) fn agx(home: &TestHome) -> assert_cmd::Command {
    let mut cmd = home.agx();
    cmd.env("AGX_HTTP_RETRIES", "0")
        .env("AGX_HTTP_BACKOFF_MS", "1");
    cmd
}

pub(crate) fn run(cmd: &mut assert_cmd::Command) -> (bool, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn test_documents_validate_against_the_published_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(data_dir().join("server.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(data_dir().join("servers")).unwrap() {
        let path = entry.unwrap().path();
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        names.push(path.file_stem().unwrap().to_string_lossy().into_owned());
    }
    names.sort();
    assert_eq!(
        names,
        [
            "everything",
            "gone",
            "hello-bundle",
            "legacy",
            "time",
            "time-image",
            "weather"
        ]
    );
    // What the schema refuses, it refuses as agx does.
    let mut latest = document("time");
    latest["packages"][0]["version"] = "latest".into();
    let mut no_transport = document("time");
    no_transport["packages"][0]
        .as_object_mut()
        .unwrap()
        .remove("transport");
    let mut bad_name = document("time");
    bad_name["name"] = "no-slash".into();
    let mut no_version = document("time");
    no_version["packages"][0]
        .as_object_mut()
        .unwrap()
        .remove("version");
    for bad in [latest, no_transport, bad_name, no_version] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
}

#[test]
fn search_pages_through_a_registry_detected_by_url() {
    let server = McpServer::start(Servers::Documents(documents()), 2);
    let home = TestHome::new();
    let (ok, out, err) = run(agx(&home).args(["--registry", &server.url, "search", "weather"]));
    assert!(ok, "{err}");
    // Detection asked for an agx index's config.json, then the API, once.
    assert_eq!(server.count("/config.json"), 1);
    let probes = server.requests();
    let probes = probes.iter().filter(|(p, _)| p == "/v0.1/servers?limit=1");
    assert_eq!(probes.count(), 1);
    // Five documents in pages of two: three pages, following the cursor.
    let pages: Vec<usize> = server
        .requests()
        .iter()
        .filter(|(p, _)| p.starts_with("/v0.1/servers?limit=100"))
        .filter_map(|(_, n)| *n)
        .collect();
    assert_eq!(pages, [2, 2, 1]);
    assert!(out.contains("io.github.user/weather 1.2.0"), "{out}");
    assert!(
        out.contains("mcp-registry; packages: npm, oci; remotes: streamable-http"),
        "{out}"
    );
    assert!(
        out.contains("deprecated: use io.github.user/weather instead"),
        "{out}"
    );
    assert!(
        !out.contains("gone-weather"),
        "a deleted server is offered: {out}"
    );

    // The kind is remembered: no second detection; --json marks each result.
    let (ok, out, err) =
        run(agx(&home).args(["--registry", &server.url, "search", "time", "--json"]));
    assert!(ok, "{err}");
    assert_eq!(server.count("/config.json"), 1);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results[0]["name"], "io.github.modelcontextprotocol/time");
    assert_eq!(results[0]["kind"], "mcp-registry");
    assert_eq!(results[0]["packages"], json!(["pypi"]));
    assert_eq!(results[0]["registry"], server.url.as_str());
}

#[test]
fn offline_search_and_list_work_from_the_cache() {
    let server = McpServer::start(Servers::Documents(documents()), 2);
    let home = TestHome::new();
    let (ok, _, err) = run(agx(&home).args(["--registry", &server.url, "search", "weather"]));
    assert!(ok, "{err}");
    let before = server.requests().len();
    let (ok, out, err) = run(agx(&home).args([
        "--offline",
        "--registry",
        &server.url,
        "search",
        "everything",
    ]));
    assert!(ok, "{err}");
    assert!(
        out.contains("io.github.modelcontextprotocol/server-everything 2025.9.25"),
        "{out}"
    );
    let list = |offline: bool| {
        let mut cmd = agx(&home);
        if offline {
            cmd.arg("--offline");
        }
        let (ok, out, err) = run(cmd.args([
            "--registry",
            &server.url,
            "list",
            "--include-remote",
            "--json",
        ]));
        assert!(ok, "{err}");
        out
    };
    let out = list(true);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = doc["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert_eq!(p["kind"], "mcp-registry");
            p["name"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        names,
        [
            "io.github.modelcontextprotocol/server-everything",
            "io.github.modelcontextprotocol/time",
            "io.github.user/legacy-weather",
            "io.github.user/weather"
        ]
    );
    assert_eq!(
        server.requests().len(),
        before,
        "offline runs touched the network"
    );
    // Online again, every page is revalidated by its ETag.
    let (ok, _, err) = run(agx(&home).args(["--registry", &server.url, "search", "weather"]));
    assert!(ok, "{err}");

    // Offline listings read the summaries the last listing cached; they say what the pages
    // say, and a damaged summary file sends agx back to the pages.
    let online = list(false);
    assert_eq!(list(true), online);
    let summaries = support::tree(&home.agx_home())
        .into_keys()
        .filter(|p| p.ends_with("discovery-v1.json"))
        .collect::<Vec<_>>();
    assert_eq!(summaries.len(), 1, "{summaries:?}");
    std::fs::write(home.agx_home().join(&summaries[0]), "{ damaged").unwrap();
    assert_eq!(list(true), online);
}

#[test]
fn add_source_detects_the_kind_and_search_uses_every_source() {
    let server = McpServer::start(Servers::Documents(documents()), 100);
    let home = TestHome::new();
    let (ok, _, err) = run(agx(&home).args(["registry", "add-source", "official", &server.url]));
    assert!(ok, "{err}");
    assert!(err.contains("registry `official` (mcp-registry)"), "{err}");
    let (ok, _, err) = run(agx(&home).args(["registry", "add-source", "official", &server.url]));
    assert!(!ok);
    assert!(err.contains("already configured"), "{err}");
    assert!(err.contains("agx registry remove-source official"), "{err}");

    let (ok, out, err) = run(agx(&home).args(["registry", "sources", "--json"]));
    assert!(ok, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["sources"][0]["name"], "official");
    assert_eq!(doc["sources"][0]["kind"], "mcp-registry");

    let (ok, out, err) = run(agx(&home).args(["search", "time"]));
    assert!(ok, "{err}");
    assert!(out.contains("io.github.modelcontextprotocol/time"), "{out}");

    let (ok, _, err) = run(agx(&home).args(["registry", "remove-source", "official"]));
    assert!(ok, "{err}");
    let (ok, _, err) = run(agx(&home).args(["search", "time"]));
    assert!(!ok);
    assert!(
        err.contains("no agx package registry is configured"),
        "{err}"
    );
    assert!(err.contains("agx registry add-source NAME"), "{err}");
}

/// `agx registry sources --json` of a home, with the built-in source left as it would be
/// for a user (the test environment turns it off: no test reaches the real registry).
fn sources_of_a_user(home: &TestHome, official: Option<&str>) -> Value {
    let mut cmd = agx(home);
    cmd.env_remove("AGX_OFFICIAL_REGISTRY");
    if let Some(value) = official {
        cmd.env("AGX_OFFICIAL_REGISTRY", value);
    }
    let (ok, out, err) = run(cmd.args(["registry", "sources", "--json"]));
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_fresh_home_has_the_official_registry_until_it_is_removed() {
    let home = TestHome::new();
    let official = json!({"name": "official", "url": "https://registry.modelcontextprotocol.io",
                          "kind": "mcp-registry", "default": false, "built_in": true});
    assert_eq!(
        sources_of_a_user(&home, None),
        json!({ "sources": [official.clone()] })
    );
    assert!(
        !home.agx_home().join("config.toml").exists(),
        "the default is not written down"
    );
    let mut cmd = agx(&home);
    let (ok, _, err) = run(cmd
        .env("AGX_OFFICIAL_REGISTRY", "maybe")
        .args(["registry", "sources"]));
    assert!(!ok);
    assert!(err.contains("AGX_OFFICIAL_REGISTRY=maybe"), "{err}");

    let mut cmd = agx(&home);
    cmd.env_remove("AGX_OFFICIAL_REGISTRY");
    let (ok, _, err) = run(cmd.args(["registry", "remove-source", "official"]));
    assert!(ok, "{err}");
    let config = std::fs::read_to_string(home.agx_home().join("config.toml")).unwrap();
    assert_eq!(config, "official-registry = false\n");
    assert_eq!(sources_of_a_user(&home, None), json!({ "sources": [] }));
    // The environment turns it back on for one run, without writing anything.
    assert_eq!(
        sources_of_a_user(&home, Some("on")),
        json!({ "sources": [official] })
    );
    assert_eq!(
        std::fs::read_to_string(home.agx_home().join("config.toml")).unwrap(),
        config
    );

    // Removing it is saved even in a run where the environment had turned it off.
    let home = TestHome::new();
    let (ok, _, err) = run(agx(&home).args(["registry", "remove-source", "official"]));
    assert!(ok, "{err}");
    assert_eq!(sources_of_a_user(&home, None), json!({ "sources": [] }));

    // `--registry` replaces the default set: a search of a folder asks nothing else.
    let home = TestHome::new();
    let registry = crate::support::fixtures().join("registry");
    let mut cmd = agx(&home);
    cmd.env_remove("AGX_OFFICIAL_REGISTRY");
    let (ok, out, err) = run(cmd
        .arg("--registry")
        .arg(&registry)
        .args(["search", "--json", "weather"]));
    assert!(ok, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["registries"],
        json!([registry.canonicalize().unwrap().display().to_string()])
    );
}

#[test]
fn add_source_refuses_what_is_neither_kind() {
    let server = McpServer::start(Servers::Documents(documents()), 100);
    server.set_mode(Mode::Html);
    let home = TestHome::new();
    let (ok, _, err) = run(agx(&home).args(["registry", "add-source", "odd", &server.url]));
    assert!(!ok);
    assert!(
        err.contains("is neither an agx index (no config.json) nor an MCP registry"),
        "{err}"
    );
    assert!(!home.agx_home().join("config.toml").exists());
}

#[test]
fn info_shows_a_server_json_entry() {
    let server = McpServer::start(Servers::Documents(documents()), 100);
    let home = TestHome::new();
    let (ok, out, err) =
        run(agx(&home).args(["--registry", &server.url, "info", "io.github.user/weather"]));
    assert!(ok, "{err}");
    for expected in [
        "io.github.user/weather 1.2.0 (mcp-registry",
        "npm @user/weather-mcp 1.2.0 (stdio)",
        "oci docker.io/user/weather-mcp 1.2.0 (stdio, runs with docker)",
        "setting WEATHER_API_KEY (secret, required, string): OpenWeather API key",
        "setting WEATHER_UNITS (string, default metric, one of: metric, imperial)",
        "setting WEATHER_RETRIES (number, default 3)",
        "streamable-http https://weather.example.com/mcp",
        "setting token (secret, required, string): Account token",
        "install it with `agx install io.github.user/weather`",
    ] {
        assert!(out.contains(expected), "missing `{expected}` in:\n{out}");
    }
    assert!(!out.contains("not supported"), "{out}");
    let (ok, out, _) = run(agx(&home).args([
        "--registry",
        &server.url,
        "info",
        "io.github.user/weather",
        "--json",
    ]));
    assert!(ok);
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["kind"], "mcp-registry");
    assert_eq!(doc["packages"][0]["settings"][0]["key"], "WEATHER_API_KEY");
    assert_eq!(doc["packages"][0]["settings"][0]["env"], "WEATHER_API_KEY");

    let (ok, _, err) = run(agx(&home).args([
        "--registry",
        &server.url,
        "info",
        "io.github.user/gone-weather",
    ]));
    assert!(!ok);
    assert!(
        err.contains("io.github.user/gone-weather") && err.contains("is deleted"),
        "{err}"
    );
}

#[test]
fn broken_registries_get_clear_errors() {
    let server = McpServer::start(Servers::Documents(documents()), 2);
    let home = TestHome::new();
    // Configured with its kind, so no detection stands in the way of the faults.
    let (ok, _, err) = run(agx(&home).args([
        "registry",
        "add-source",
        "broken",
        &server.url,
        "--kind",
        "mcp-registry",
    ]));
    assert!(ok, "{err}");
    assert_eq!(server.requests().len(), 0);

    server.set_mode(Mode::Html);
    let (ok, _, err) = run(agx(&home).args(["search", "weather"]));
    assert!(!ok);
    assert!(
        err.contains("answered an HTML page where the MCP Registry API answers JSON"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}/v0.1/servers?limit=100", server.url)),
        "{err}"
    );
    assert!(err.contains("base URL"), "{err}");

    server.set_mode(Mode::Fail);
    let (ok, _, err) = run(agx(&home).args(["search", "weather"]));
    assert!(!ok);
    assert!(err.contains("answered HTTP 500"), "{err}");

    server.set_mode(Mode::CursorLoop);
    let (ok, _, err) = run(agx(&home).args(["search", "weather"]));
    assert!(!ok);
    assert!(err.contains("repeats the page cursor `after-0`"), "{err}");
    assert!(err.contains("paging is broken"), "{err}");
}

#[cfg(unix)]
#[test]
fn ten_thousand_servers_page_with_bounded_memory() {
    let server = McpServer::start(Servers::Generated(10_000), 100);
    let home = TestHome::new();
    // agx runs as the child of a small Python process, which reports its peak: a child
    // started from this test process would count the test process's own peak (a spawned
    // child shares its memory until exec, and Linux keeps that high-water mark across
    // exec), which in a full test run is past the limit whatever agx holds.
    const PEAK_OF_CHILD: &str = "import resource, subprocess, sys\n\
        code = subprocess.run(sys.argv[1:]).returncode\n\
        print('peak-kib', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n\
        sys.exit(code)";
    let mut cmd = home.command("python3");
    // glibc gives each thread that allocates at once an arena of its own; on a loaded
    // machine more of them get touched, which measures scheduling rather than what agx
    // holds (27 MiB alone, over 100 under load). Two arenas keep the peak about the data.
    cmd.args(["-c", PEAK_OF_CHILD, support::AGX])
        .args(["--registry", &server.url, "search", "server-09999"])
        .env("MALLOC_ARENA_MAX", "2");
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("io.github.gen/server-09999 1.0.0"),
        "{stdout}"
    );
    let peak_kib: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak-kib "))
        .and_then(|kib| kib.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak reported: {stderr}"));
    let pages: Vec<usize> = server
        .requests()
        .iter()
        .filter(|(p, _)| p.starts_with("/v0.1/servers?limit=100"))
        .filter_map(|(_, n)| *n)
        .collect();
    assert_eq!(pages.len(), 100);
    assert!(pages.iter().all(|&n| n == 100));
    // ru_maxrss is in KiB on Linux. Ten thousand full documents held at once would be
    // several times the one page (and the short summaries) agx keeps.
    let peak_mib = peak_kib / 1024;
    assert!(peak_mib < 100, "agx peaked at {peak_mib} MiB");
}

#[test]
fn a_name_listed_twice_keeps_its_first_entry() {
    let entry = |description: &str| {
        listed(
            json!({"name": "io.github.acme/twice", "description": description, "version": "1.0.0",
                   "remotes": [{"type": "streamable-http", "url": "https://twice.example/mcp"}]}),
            true,
        )
    };
    // The second copy sits on the next page (one server a page).
    let server = McpServer::start(
        Servers::Documents(vec![entry("The first entry"), entry("An impostor")]),
        1,
    );
    let home = TestHome::new();
    let (ok, out, err) =
        run(agx(&home).args(["--registry", &server.url, "search", "twice", "--json"]));
    assert!(ok, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{out}");
    assert_eq!(results[0]["description"], "The first entry");
}
