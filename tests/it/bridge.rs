//! `agx serve` of a remote server: a stdio↔Streamable HTTP bridge. The remote is `agx serve
//! --http` of the agx/edge fixture behind a loopback proxy that refuses any request without
//! the right `X-Api-Key`; the server is installed from an MCP registry entry whose header
//! takes a variable named as written, and driven by the rmcp client over stdio.
#![allow(deprecated)] // MCP sampling (SEP-2577) is deprecated in rmcp but still part of MCP

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::thread;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CreateMessageRequestParams,
    CreateMessageResult, ErrorData, Implementation, ProgressNotificationParam, SamplingMessage,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::ecosystem::Session;
use crate::mcp_registry::{McpServer, Servers};
use crate::support::{AGX, TestHome, fixtures};

const TOKEN: &str = "s3cret-token";
const REMOTE: &str = "io.github.acme/edge-remote";

/// A loopback HTTP proxy that checks `X-Api-Key` on every request (each connection carries
/// one request: it asks the upstream to close after answering) and records what it saw.
struct HeaderProxy {
    url: String,
    seen: Arc<Mutex<Vec<Option<String>>>>,
}

impl HeaderProxy {
    fn start(upstream: String) -> HeaderProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let seen2 = seen.clone();
        thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let (upstream, seen) = (upstream.clone(), seen2.clone());
                thread::spawn(move || proxy(stream, &upstream, &seen));
            }
        });
        HeaderProxy { url, seen }
    }

    fn seen(&self) -> Vec<Option<String>> {
        self.seen.lock().unwrap().clone()
    }
}

fn proxy(client: TcpStream, upstream: &str, seen: &Mutex<Vec<Option<String>>>) {
    let mut reader = BufReader::new(client.try_clone().unwrap());
    let mut head = Vec::new();
    let mut key = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if line == "\r\n" {
            break;
        }
        let name = line
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if name == "x-api-key" {
            key = line.split_once(':').map(|(_, v)| v.trim().to_string());
        }
        if name != "connection" {
            head.push(line);
        }
    }
    seen.lock().unwrap().push(key.clone());
    let mut client_out = client;
    if key.as_deref() != Some(TOKEN) {
        let _ = client_out.write_all(
            b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 12\r\nConnection: close\r\n\r\nbad api key\n",
        );
        return;
    }
    let mut up = TcpStream::connect(upstream).unwrap();
    for line in &head {
        up.write_all(line.as_bytes()).unwrap();
    }
    up.write_all(b"Connection: close\r\n\r\n").unwrap();
    let mut up_in = up.try_clone().unwrap();
    // The request body (and anything after) goes up as it comes.
    thread::spawn(move || {
        let _ = std::io::copy(&mut reader, &mut up);
        let _ = up.shutdown(Shutdown::Write);
    });
    let mut buf = [0u8; 8192];
    while let Ok(n) = up_in.read(&mut buf) {
        if n == 0 || client_out.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = client_out.shutdown(Shutdown::Both);
}

/// `agx serve agx/edge/edge --http 127.0.0.1:0` and the `host:port` it listens on.
async fn edge_over_http(home: &TestHome) -> (tokio::process::Child, String) {
    over_http(home, "agx/edge/edge").await
}

/// `agx serve SERVER --http 127.0.0.1:0` and the `host:port` it listens on.
pub(crate) async fn over_http(home: &TestHome, server: &str) -> (tokio::process::Child, String) {
    let mut cmd: tokio::process::Command = home.command(AGX).into();
    let mut child = cmd
        .args(["serve", server, "--http", "127.0.0.1:0"])
        .env("AGX_LOG", "warn")
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(stderr));
    let url = loop {
        let line = lines.next_line().await.unwrap().expect("a listening line");
        if let Some(url) = line.strip_prefix("agx serve: listening on ") {
            break url.to_string();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let host = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_string();
    (child, host)
}

/// A registry entry for the remote at `url`, its key header taking `{EDGE_TOKEN}`.
fn remote_entry(url: &str) -> Value {
    json!({
        "server": {
            "name": REMOTE,
            "description": "The edge fixture, remote",
            "version": "0.1.0",
            "remotes": [{
                "type": "streamable-http",
                "url": url,
                "headers": [{"name": "X-Api-Key", "value": "{EDGE_TOKEN}",
                             "variables": {"EDGE_TOKEN": {"isSecret": true, "isRequired": true}}}]
            }]
        },
        "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": true}}
    })
}

fn config_set(home: &TestHome, package: &str, key: &str, value: &str) {
    let mut child = home
        .command(AGX)
        .args(["config", "set", package, key, "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{value}\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_remote_entry_is_served_on_stdio_with_its_header() {
    let home = TestHome::new();
    home.agx()
        .arg("install")
        .arg(fixtures().join("packages/agx-edge"))
        .assert()
        .success();
    let (_edge, upstream) = edge_over_http(&home).await;
    let proxy = HeaderProxy::start(upstream);
    let registry = McpServer::start(Servers::Documents(vec![remote_entry(&proxy.url)]), 100);
    home.agx()
        .args(["--registry", &registry.url, "install", REMOTE])
        .assert()
        .success();

    // Without its setting, the bridge does not start, and says how to set it.
    let out = home.agx().args(["serve", REMOTE]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("EDGE_TOKEN") && err.contains("agx config set"),
        "{err}"
    );

    config_set(&home, REMOTE, "EDGE_TOKEN", TOKEN);
    let recorder = Recorder::default();
    let mut serve: tokio::process::Command = home.command(AGX).into();
    serve.args(["serve", REMOTE]).env("AGX_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(serve)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = recorder.clone().serve(transport).await.expect("initialize");
    let info = serde_json::to_value(client.peer_info().unwrap()).unwrap();
    assert_eq!(info["serverInfo"]["name"], "agx/edge/edge", "{info}");
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "echo"), "{tools:?}");

    let echo = client
        .call_tool(
            CallToolRequestParams::new("echo").with_arguments(
                json!({"message": "over the bridge"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    let echo = serde_json::to_value(&echo).unwrap();
    assert_eq!(
        echo["structuredContent"]["message"], "over the bridge",
        "{echo}"
    );

    // Progress notifications of the remote come back through the bridge.
    let progress = client
        .call_tool(CallToolRequestParams::new("progress"))
        .await
        .unwrap();
    let progress = serde_json::to_value(&progress).unwrap();
    assert_eq!(
        progress["content"][0]["text"], "finished 3 steps\n",
        "{progress}"
    );
    for _ in 0..200 {
        if recorder.progress.lock().unwrap().len() >= 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert_eq!(recorder.progress.lock().unwrap().len(), 3);
    client.cancel().await.unwrap();

    let seen = proxy.seen();
    assert!(seen.len() >= 3, "{seen:?}");
    assert!(
        seen.iter().all(|k| k.as_deref() == Some(TOKEN)),
        "every request carries the key: {seen:?}"
    );
    let log = std::fs::read_dir(home.agx_home().join("logs"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect::<String>();
    assert!(!log.contains(TOKEN), "the key is never logged");

    // The bridge pinned what the remote listed; a tool whose pin differs (as after the
    // remote changed it) is withheld from the next session and refused by name.
    let pins_file = json_files(&home.agx_home().join("pins-v1"))
        .pop()
        .expect("the remote's pins");
    let mut pins: Value =
        serde_json::from_str(&std::fs::read_to_string(&pins_file).unwrap()).unwrap();
    pins["tools"]["echo"]["sha256"] = json!(format!("sha256:{}", "0".repeat(64)));
    std::fs::write(&pins_file, pins.to_string()).unwrap();
    let mut serve: tokio::process::Command = home.command(AGX).into();
    serve.args(["serve", REMOTE]).env("AGX_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(serve)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = Recorder::default()
        .serve(transport)
        .await
        .expect("initialize");
    let tools = client.list_all_tools().await.unwrap();
    assert!(
        !tools.iter().any(|t| t.name == "echo") && tools.iter().any(|t| t.name == "progress"),
        "{tools:?}"
    );
    let refused = client
        .call_tool(CallToolRequestParams::new("echo"))
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("changed since it was pinned"), "{refused}");
    client.cancel().await.unwrap();
}

/// The `.json` files under `dir`, at any depth.
fn json_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(json_files(&path));
        } else if path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
    found
}

#[test]
fn a_wrong_key_or_an_unreachable_remote_is_a_clear_error_to_the_client() {
    let home = TestHome::new();
    // A port nothing listens on.
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/mcp", listener.local_addr().unwrap())
    };
    let proxy = HeaderProxy::start("127.0.0.1:9".into());
    let registry = McpServer::start(
        Servers::Documents(vec![remote_entry(&proxy.url), {
            let mut e = remote_entry(&closed);
            e["server"]["name"] = "io.github.acme/closed".into();
            e
        }]),
        100,
    );
    for (name, url) in [(REMOTE, &proxy.url), ("io.github.acme/closed", &closed)] {
        home.agx()
            .args(["--registry", &registry.url, "install", name])
            .assert()
            .success();
        config_set(&home, name, "EDGE_TOKEN", "wrong");
        let mut session = Session::start(&home, name);
        let init = session.initialize();
        let message = init["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("the remote MCP server at {url} failed")),
            "{init}"
        );
        assert!(
            !message.contains("wrong"),
            "a secret is never shown: {message}"
        );
        // Later requests are answered too, not left waiting.
        let list = session.request(7, "tools/list", json!({}));
        assert!(
            list["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains(url.as_str())),
            "{list}"
        );
    }
    assert_eq!(proxy.seen(), [Some("wrong".to_string())]);
}

#[test]
fn validate_checks_remote_server_definitions() {
    let home = TestHome::new();
    let dir = home.home().join("remote");
    std::fs::create_dir_all(dir.join("agx/servers")).unwrap();
    std::fs::write(
        dir.join("agx.toml"),
        "[package]\nname = \"acme/remote\"\nversion = \"1.0.0\"\ndescription = \"r\"\n\n[extension]\nservers = [\"a\", \"b\", \"c\", \"d\"]\n\n[extension.settings.token]\nsecret = true\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("agx/servers/a.toml"),
        "name = \"a\"\nurl = \"https://example.com/mcp\"\ncommand = [\"x\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("agx/servers/b.toml"),
        "name = \"b\"\nurl = \"ftp://example.com\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("agx/servers/c.toml"),
        "name = \"c\"\ncommand = [\"x\"]\nheaders = { A = \"b\" }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("agx/servers/d.toml"),
        "name = \"d\"\nurl = \"https://example.com/mcp\"\nheaders = { Authorization = \"Bearer ${settings.tokn}\" }\n",
    )
    .unwrap();
    let out = home.agx().arg("validate").arg(&dir).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    for expected in [
        "a.toml:3:1",
        "server `a` has both `url` and `command`",
        "b.toml:2:7",
        "`url` cannot be `ftp://example.com`",
        "c.toml:3:1",
        "server `c` has `headers` but no `url`",
        "d.toml:3:1",
        "server `d` uses `${settings.tokn}` in `headers`, which the package does not declare",
        "did you mean `${settings.token}`?",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in:\n{text}");
    }
}

/// A client that answers the remote's sampling requests with a fixed text.
#[derive(Clone)]
struct Sampler;

const MODEL_SAID: &str = "Paris is the capital of France.";

impl ClientHandler for Sampler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_sampling().build(),
            Implementation::new("bridge-test", "1"),
        )
    }

    async fn create_message(
        &self,
        _params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text(MODEL_SAID),
            "bridge-test".into(),
        ))
    }
}

/// A remote declared by hand in a package's own server definition; the remote's sampling
/// request travels back through the bridge to the client and its answer to the remote.
#[tokio::test(flavor = "multi_thread")]
async fn a_declared_remote_passes_sampling_requests_both_ways() {
    let home = TestHome::new();
    home.agx()
        .arg("install")
        .arg(fixtures().join("packages/agx-conformance"))
        .assert()
        .success();
    let (_remote, host) = over_http(&home, "agx/conformance/everything").await;
    let dir = home.home().join("src/remote");
    std::fs::create_dir_all(dir.join("agx/servers")).unwrap();
    std::fs::write(
        dir.join("agx.toml"),
        "[package]\nname = \"acme/conformance-remote\"\nversion = \"1.0.0\"\ndescription = \"r\"\n\n[extension]\nservers = [\"remote\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("agx/servers/remote.toml"),
        format!("name = \"remote\"\nurl = \"http://{host}/mcp\"\n"),
    )
    .unwrap();
    home.agx().arg("install").arg(&dir).assert().success();

    let mut serve: tokio::process::Command = home.command(AGX).into();
    serve
        .args(["serve", "acme/conformance-remote"])
        .env("AGX_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(serve)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = Sampler.serve(transport).await.expect("initialize");
    let sampled = client
        .call_tool(
            CallToolRequestParams::new("test_sampling").with_arguments(
                json!({"prompt": "What is the capital?"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    let sampled = serde_json::to_value(&sampled).unwrap();
    assert_eq!(
        sampled["content"][0]["text"],
        format!("LLM response: {MODEL_SAID}"),
        "{sampled}"
    );
    client.cancel().await.unwrap();
}

/// A secret with characters a URL encodes, so its encoded form is checked too; its parts are
/// unlike anything else a message holds (a port number may well contain "42").
const LEAKY_SECRET: &str = "s3cret key\"Qz7x";

/// A loopback server that answers every request with `answer` and closes.
fn answering(answer: &'static [u8]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    thread::spawn(move || {
        for mut stream in listener.incoming().map_while(Result::ok) {
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            let _ = stream.write_all(answer);
            let _ = stream.shutdown(Shutdown::Both);
        }
    });
    addr
}

/// `agx serve SERVER` on stdio: each request answered, then stdin closed. The responses,
/// and everything written to stderr.
fn serve_requests(home: &TestHome, server: &str, methods: &[&str]) -> (Vec<Value>, String) {
    let mut child = home
        .command(AGX)
        .args(["serve", server])
        .env("AGX_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut responses = Vec::new();
    for (id, method) in methods.iter().enumerate() {
        let params = json!({"protocolVersion": "2025-06-18", "capabilities": {},
                            "clientInfo": {"name": "agx-test", "version": "1"}});
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        responses.push(serde_json::from_str(&line).unwrap_or(Value::String(line)));
    }
    drop(stdin);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    child.wait().unwrap();
    (responses, err)
}

/// Every log file of `home`, concatenated.
fn all_logs(home: &TestHome) -> String {
    std::fs::read_dir(home.agx_home().join("logs"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect()
}

/// A secret setting in a remote's URL and header: whatever way the remote fails (nothing
/// listening, an HTTP 500, a TLS handshake with a server that does not speak TLS), the
/// client's error, agx's stderr and the log files show the URL with the secret redacted.
#[test]
fn a_secret_in_a_remote_url_or_header_is_never_shown() {
    let home = TestHome::new();
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().to_string()
    };
    let failing = answering(
        b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\nbroke",
    );
    let not_tls = answering(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
    let servers = [
        ("closed", format!("http://{closed}/mcp")),
        ("failing", format!("http://{failing}/mcp")),
        ("tls", format!("https://{not_tls}/mcp")),
    ];
    let dir = home.home().join("src/leaky");
    std::fs::create_dir_all(dir.join("agx/servers")).unwrap();
    std::fs::write(
        dir.join("agx.toml"),
        "[package]\nname = \"acme/leaky\"\nversion = \"1.0.0\"\ndescription = \"r\"\n\n[extension]\nservers = [\"closed\", \"failing\", \"tls\"]\n\n[extension.settings.token]\nsecret = true\n",
    )
    .unwrap();
    for (name, url) in &servers {
        std::fs::write(
            dir.join(format!("agx/servers/{name}.toml")),
            format!(
                "name = \"{name}\"\nurl = \"{url}?key=${{settings.token}}\"\nheaders = {{ Authorization = \"Bearer ${{settings.token}}\" }}\n"
            ),
        )
        .unwrap();
    }
    let installed = home.agx().arg("install").arg(&dir).output().unwrap();
    assert!(installed.status.success());
    // Nothing runs here: no sandbox line for a program agx never starts.
    let text = String::from_utf8_lossy(&installed.stdout);
    assert!(text.contains("runs no program here"), "{text}");
    assert!(!text.contains("enforced"), "{text}");
    config_set(&home, "acme/leaky", "token", LEAKY_SECRET);

    let shows_secret = |text: &str| text.contains("s3cret") || text.contains("Qz7x");
    // `agx info` of a remote server says where it is, as written (the placeholder, never
    // the value).
    let info = home
        .agx()
        .args(["info", "acme/leaky/closed"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(info.status.success(), "{text}");
    assert!(
        text.contains(&format!("remote: {}?key=${{settings.token}}", servers[0].1)),
        "{text}"
    );
    assert!(!shows_secret(&text), "{text}");
    for (name, url) in &servers {
        let (responses, stderr) = serve_requests(
            &home,
            &format!("acme/leaky/{name}"),
            &["initialize", "tools/list"],
        );
        for response in &responses {
            let message = response["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains(&format!(
                    "the remote MCP server at {url}?key=[redacted] failed"
                )),
                "{name}: {response}"
            );
            assert!(!shows_secret(&response.to_string()), "{name}: {response}");
        }
        assert!(!shows_secret(&stderr), "{name}: stderr: {stderr}");
        assert!(
            stderr.contains("key=[redacted]"),
            "{name}: stderr: {stderr}"
        );

        // Refused before serving: the error names the URL, redacted.
        let out = home
            .agx()
            .args([
                "serve",
                &format!("acme/leaky/{name}"),
                "--http",
                "127.0.0.1:0",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains("key=[redacted]") && !shows_secret(&err),
            "{err}"
        );
    }
    let logs = all_logs(&home);
    assert!(logs.contains("key=[redacted]"), "{logs}");
    assert!(!shows_secret(&logs), "{logs}");
}
