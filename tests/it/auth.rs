//! `agx auth` and signed-in remotes (docs/auth.md): a loopback MCP server that asks for a
//! sign-in, with its own authorization server (registry-fixtures/oauth/server.py), a scripted
//! browser that follows the redirect back as a person's would, and the rmcp client driving
//! `agx serve` over stdio as the entries of two clients launch it.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Stdio};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::Value;

use crate::support::{AGX, TestHome, files_holding, fixtures, repo_root};

/// The authorization server and protected MCP server; killed when dropped.
struct OAuthServer {
    child: Child,
    base: String,
}

impl OAuthServer {
    fn start(options: &[&str]) -> OAuthServer {
        let mut child = std::process::Command::new("python3")
            .arg(repo_root().join("registry-fixtures/oauth/server.py"))
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 runs the OAuth fixture");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .expect("the fixture says where it listens")
            .to_string();
        OAuthServer { child, base }
    }

    fn mcp_url(&self) -> String {
        format!("{}/mcp", self.base)
    }

    /// One request to the fixture's admin API; the response body.
    fn request(&self, method: &str, path: &str) -> String {
        use std::io::Read;
        let host = self.base.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(host).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        response
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_string())
            .unwrap_or_default()
    }

    fn admin(&self, action: &str) {
        self.request("POST", &format!("/admin/{action}"));
    }

    /// What the token endpoint and `/mcp` saw.
    fn log(&self) -> Vec<Value> {
        serde_json::from_str(&self.request("GET", "/admin/log")).unwrap()
    }

    /// Every token it issued.
    fn issued_tokens(&self) -> Vec<String> {
        self.log()
            .iter()
            .filter(|e| e["at"] == "issued")
            .flat_map(|e| {
                [e["access_token"].clone(), e["refresh_token"].clone()]
                    .into_iter()
                    .filter_map(|t| t.as_str().map(str::to_string))
            })
            .collect()
    }

    fn grants(&self) -> Vec<String> {
        self.log()
            .iter()
            .filter(|e| e["at"] == "token")
            .filter_map(|e| e["grant"].as_str().map(str::to_string))
            .collect()
    }
}

impl Drop for OAuthServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const SERVER: &str = "acme/linear";
const QUALIFIED: &str = "acme/linear/linear";

/// Install `acme/linear`, a package whose one server is the remote at `url`.
fn install_remote(home: &TestHome, url: &str) -> String {
    install_remote_with(home, url, "")
}

/// Install `acme/linear` with `extra` (TOML) at the end of its server definition; what the
/// install printed.
fn install_remote_with(home: &TestHome, url: &str, extra: &str) -> String {
    let dir = home.home().join("src/linear");
    std::fs::create_dir_all(dir.join("agx/servers")).unwrap();
    std::fs::write(
        dir.join("agx.toml"),
        "[package]\nname = \"acme/linear\"\nversion = \"1.0.0\"\ndescription = \"A hosted server that asks for a sign-in\"\nlicense = \"MIT\"\n\n[extension]\nservers = [\"linear\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("agx/servers/linear.toml"),
        format!("name = \"linear\"\ndescription = \"The hosted server\"\nurl = \"{url}\"\n{extra}"),
    )
    .unwrap();
    let out = home.agx().arg("install").arg(&dir).output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `agx auth login ARGS…` with the scripted browser; its output (stdout and stderr).
fn login(home: &TestHome, args: &[&str], stdin: Option<&str>) -> (bool, String) {
    let browser = format!(
        "python3 {}",
        repo_root()
            .join("registry-fixtures/oauth/browser.py")
            .display()
    );
    let mut child = home
        .command(AGX)
        .args(["auth", "login"])
        .args(args)
        .env("AGX_BROWSER", browser)
        .env("AGX_TEST_BROWSER_LOG", home.home().join("browser.log"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// `agx auth login --client-credentials` as the fixture's pre-registered client, with `secret`.
fn login_as_machine(home: &TestHome, secret: &str) -> (bool, String) {
    let args = [
        SERVER,
        "--client-credentials",
        "--client-id",
        "agx-preregistered",
        "--client-secret-stdin",
    ];
    login(home, &args, Some(&format!("{secret}\n")))
}

/// Start `program ARGS…` (a client entry's command) as an MCP client would, call `whoami`,
/// and return its text, or the error the client sees.
async fn call_whoami(home: &TestHome, program: &str, args: &[String]) -> Result<String, String> {
    let mut command: tokio::process::Command = home.command(program).into();
    command.args(args).env("AGX_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = ().serve(transport).await.map_err(|e| e.to_string())?;
    let result = client
        .call_tool(CallToolRequestParams::new("whoami"))
        .await
        .map_err(|e| e.to_string())?;
    let result = serde_json::to_value(&result).unwrap();
    let _ = client.cancel().await;
    Ok(result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string())
}

async fn serve_whoami(home: &TestHome) -> Result<String, String> {
    call_whoami(home, AGX, &["serve".to_string(), SERVER.to_string()]).await
}

fn status(home: &TestHome) -> Vec<Value> {
    let out = home
        .agx()
        .args(["auth", "status", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The command and arguments of the entry a client's config file holds for the server.
fn entry_command(file: &Path) -> (String, Vec<String>) {
    let config: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let servers = config["mcpServers"].as_object().expect("mcpServers");
    let entry = servers.values().next().expect("one entry");
    let command = entry["command"].as_str().unwrap().to_string();
    let args = entry["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    (command, args)
}

#[tokio::test(flavor = "multi_thread")]
async fn one_sign_in_serves_every_client_and_its_tokens_stay_in_the_keyring_store() {
    let home = TestHome::new();
    let server = OAuthServer::start(&[]);
    let installed = install_remote(&home, &server.mcp_url());
    assert!(
        installed.contains(&format!(
            "Sign in {QUALIFIED} asks for one: run `agx auth login {QUALIFIED}`"
        )),
        "{installed}"
    );

    // Before signing in, the client is told what to run instead of an opaque failure.
    let before = serve_whoami(&home).await.unwrap_err();
    assert!(
        before.contains(&format!("agx auth login {QUALIFIED}")),
        "{before}"
    );

    let (ok, out) = login(&home, &["-v", SERVER], None);
    assert!(ok, "{out}");
    assert!(out.contains("Signed in"), "{out}");
    let browser = std::fs::read_to_string(home.home().join("browser.log")).unwrap();
    assert!(
        browser.contains("code_challenge_method=S256") && browser.contains("resource="),
        "{browser}"
    );
    let signed_in = status(&home);
    assert_eq!(signed_in.len(), 1, "{signed_in:?}");
    assert_eq!(signed_in[0]["state"], "valid");
    assert_eq!(signed_in[0]["registration"], "dynamic");
    assert_eq!(signed_in[0]["issuer"], server.base.as_str());

    // Two clients' entries launch `agx serve` of it; both use the one sign-in.
    for client in ["claude-code", "gemini-cli"] {
        home.agx()
            .args(["install-server", client, QUALIFIED])
            .assert()
            .success();
    }
    for file in [
        home.home().join(".claude.json"),
        home.home().join(".gemini/settings.json"),
    ] {
        let (program, args) = entry_command(&file);
        assert_eq!(
            call_whoami(&home, &program, &args).await.as_deref(),
            Ok("signed in"),
            "{}",
            file.display()
        );
    }

    // No token is anywhere under HOME (AGX_HOME is inside it) but the keyring's store (here the owner-only secrets file, as
    // no OS keyring answers in the test's environment), nor in `-v` output.
    let tokens = server.issued_tokens();
    assert!(!tokens.is_empty());
    for token in &tokens {
        assert!(!out.contains(token.as_str()), "`-v` printed a token: {out}");
        let holders = files_holding(home.home(), token);
        assert!(
            holders.iter().all(|p| p.ends_with("secrets-v1.toml")),
            "a token is written outside the keyring store: {holders:?}"
        );
        assert!(!holders.is_empty(), "the token is kept");
    }

    // The keyring lost the tokens (here: the secrets file is gone): doctor names the entries
    // whose sign-in can no longer be used, and the command that mends them.
    std::fs::remove_file(home.agx_home().join("secrets-v1.toml")).unwrap();
    let out = home.agx().args(["doctor", "--json"]).output().unwrap();
    assert!(!out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["problem"] == "sign-in-needed")
        .collect();
    assert_eq!(findings.len(), 2, "{report:#}");
    assert!(
        findings[0]["action"]
            .as_str()
            .unwrap()
            .contains(&format!("agx auth login {QUALIFIED}")),
        "{report:#}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_expired_token_is_refreshed_and_a_revoked_one_asks_for_a_new_sign_in() {
    let home = TestHome::new();
    let server = OAuthServer::start(&[]);
    install_remote(&home, &server.mcp_url());
    let (ok, out) = login(&home, &[&server.mcp_url()], None);
    assert!(ok, "{out}");
    let metadata_requests = || {
        server
            .log()
            .iter()
            .filter(|e| e["at"] == "metadata")
            .count()
    };
    let discovered = metadata_requests();
    assert!(discovered > 0);

    assert_eq!(serve_whoami(&home).await.as_deref(), Ok("signed in"));
    server.admin("expire");
    assert_eq!(serve_whoami(&home).await.as_deref(), Ok("signed in"));
    assert!(
        server.grants().iter().any(|g| g == "refresh_token"),
        "{:?}",
        server.grants()
    );
    // The rotated refresh token was saved: expiring again refreshes again.
    server.admin("expire");
    assert_eq!(serve_whoami(&home).await.as_deref(), Ok("signed in"));
    // Starts and refreshes use the metadata kept at sign-in: no discovery request.
    assert_eq!(metadata_requests(), discovered);

    server.admin("revoke");
    server.admin("expire");
    let refused = serve_whoami(&home).await.unwrap_err();
    assert!(
        refused.contains(&format!("agx auth login {QUALIFIED}")),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_running_session_goes_on_once_the_person_signs_in_again() {
    let home = TestHome::new();
    let server = OAuthServer::start(&[]);
    install_remote(&home, &server.mcp_url());
    let (ok, out) = login(&home, &[SERVER], None);
    assert!(ok, "{out}");

    let mut command: tokio::process::Command = home.command(AGX).into();
    command.args(["serve", SERVER]).env("AGX_LOG", "warn");
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = ().serve(transport).await.unwrap();
    let whoami = || async {
        client
            .call_tool(CallToolRequestParams::new("whoami"))
            .await
            .map(|r| serde_json::to_value(&r).unwrap()["content"][0]["text"].clone())
            .map_err(|e| e.to_string())
    };
    assert_eq!(whoami().await, Ok(Value::from("signed in")));

    // The provider revokes the sign-in: the client is told what to run.
    server.admin("revoke");
    server.admin("expire");
    let refused = whoami().await.unwrap_err();
    assert!(refused.contains("agx auth login"), "{refused}");
    let (ok, out) = login(&home, &[SERVER], None);
    assert!(ok, "{out}");
    // The same session, not restarted, goes on with the new sign-in.
    assert_eq!(whoami().await, Ok(Value::from("signed in")));
    let _ = client.cancel().await;
}

#[test]
fn logout_forgets_the_sign_in() {
    let home = TestHome::new();
    let server = OAuthServer::start(&[]);
    install_remote(&home, &server.mcp_url());
    let (ok, out) = login(&home, &[SERVER], None);
    assert!(ok, "{out}");
    let out = home
        .agx()
        .args(["auth", "logout", SERVER])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("Signed out"));
    assert!(status(&home).is_empty());
    let tokens = server.issued_tokens();
    for token in &tokens {
        assert!(
            files_holding(home.home(), token).is_empty(),
            "logout leaves no token behind"
        );
    }
    let again = home
        .agx()
        .args(["auth", "logout", SERVER])
        .output()
        .unwrap();
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("no sign-in"));
}

#[test]
fn a_pre_registered_client_signs_in_where_registration_is_closed() {
    let home = TestHome::new();
    let server = OAuthServer::start(&["--no-dcr"]);
    let url = server.mcp_url();

    let (ok, out) = login(&home, &[&url], None);
    assert!(!ok);
    assert!(
        out.contains("does not let clients register themselves") && out.contains("--client-id"),
        "{out}"
    );
    assert!(status(&home).is_empty(), "nothing is kept after a failure");

    let (ok, out) = login(
        &home,
        &[
            &url,
            "--client-id",
            "agx-preregistered",
            "--client-secret-stdin",
        ],
        Some("pre-secret\n"),
    );
    assert!(ok, "{out}");
    let signed_in = status(&home);
    assert_eq!(signed_in[0]["registration"], "pre-registered");
    assert_eq!(signed_in[0]["client_id"], "agx-preregistered");
    let index = std::fs::read_to_string(home.agx_home().join("sign-ins-v1.json")).unwrap();
    assert!(!index.contains("pre-secret"), "{index}");
}

#[test]
fn the_publishers_client_id_and_scopes_are_used() {
    let home = TestHome::new();
    let server = OAuthServer::start(&["--no-dcr"]);
    install_remote_with(
        &home,
        &server.mcp_url(),
        "\n[oauth]\nclient_id = \"agx-public\"\nscopes = [\"mcp:tools\"]\n",
    );
    // `-q` keeps the sign-in page's URL: without it the sign-in cannot be finished.
    let (ok, out) = login(&home, &["-q", SERVER], None);
    assert!(ok, "{out}");
    assert!(out.contains("/authorize?"), "{out}");
    assert!(!out.contains("Signed in"), "{out}");
    let signed_in = status(&home);
    assert_eq!(signed_in[0]["client_id"], "agx-public");
    assert_eq!(signed_in[0]["registration"], "pre-registered");
    let browser = std::fs::read_to_string(home.home().join("browser.log")).unwrap();
    assert!(browser.contains("scope=mcp%3Atools"), "{browser}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_machine_signs_in_with_client_credentials_and_agx_serve_renews_them() {
    let home = TestHome::new();
    // Tokens live 64 s: agx exchanges again once less than a minute is left, 4 s on (whole seconds: waited 6).
    let server = OAuthServer::start(&["--no-dcr", "--ttl", "64"]);
    install_remote(&home, &server.mcp_url());
    let (ok, out) = login_as_machine(&home, "pre-secret");
    assert!(ok, "{out}");
    assert!(
        !home.home().join("browser.log").exists(),
        "no browser for a machine"
    );
    assert_eq!(status(&home)[0]["registration"], "client-credentials");

    // No refresh token: a token about to expire is exchanged for again.
    std::thread::sleep(std::time::Duration::from_millis(6000));
    assert_eq!(serve_whoami(&home).await.as_deref(), Ok("signed in"));
    let exchanges = server
        .grants()
        .iter()
        .filter(|g| *g == "client_credentials")
        .count();
    assert!(exchanges >= 2, "{:?}", server.grants());
    for token in server.issued_tokens() {
        let holders = files_holding(home.home(), &token);
        assert!(
            holders.iter().all(|p| p.ends_with("secrets-v1.toml")),
            "{holders:?}"
        );
    }
    let index = std::fs::read_to_string(home.agx_home().join("sign-ins-v1.json")).unwrap();
    assert!(!index.contains("pre-secret"));

    // A secret the server no longer accepts is a sign-in to make again.
    let (ok, out) = login_as_machine(&home, "wrong");
    assert!(!ok, "{out}");
    assert!(
        out.contains("invalid_client") || out.contains("failed"),
        "{out}"
    );
}

#[test]
fn bad_targets_are_refused_with_what_to_do() {
    let home = TestHome::new();
    home.agx()
        .arg("install")
        .arg(fixtures().join("packages/agx-edge"))
        .assert()
        .success();
    let refused = |args: &[&str], expected: &[&str]| {
        let (ok, out) = login(&home, args, None);
        assert!(!ok, "{out}");
        for text in expected {
            assert!(out.contains(text), "{text}: {out}");
        }
    };
    refused(
        &["ftp://example.invalid/mcp"],
        &["not an http:// or https:// URL", "hint"],
    );
    refused(&["agx/edge/edge"], &["is not a remote server"]);
    // Nothing listens on the discard port of loopback.
    refused(
        &["http://127.0.0.1:9/mcp"],
        &["could not reach", "network, proxy, VPN"],
    );
    refused(
        &[
            "https://mcp.example.invalid/mcp",
            "--client-metadata-url",
            "http://corp.example/agx.json",
        ],
        &["is not an HTTPS URL with a path"],
    );
    refused(&["acme/absent"], &["not installed"]);
    let open = OAuthServer::start(&["--open"]);
    refused(&[&open.mcp_url()], &["does not ask for a sign-in"]);
    let installed = install_remote(&home, &open.mcp_url());
    assert!(!installed.contains("Sign in"), "{installed}");
    assert!(status(&home).is_empty());
}
