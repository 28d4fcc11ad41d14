//! Integration tests: settings and secrets (docs/settings.md) with the fixture package
//! acme/quotes, whose tool needs a secret API key.
//!
//! The secret store is the secrets file (`AGX_KEYRING=file`), or with AGX_TEST_KEYRING=os
//! (scripts/ci/keyring.sh) a real Secret Service in a private D-Bus session: the same tests
//! run against both, and never against the developer's own keyring.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use rmcp::model::{CallToolRequestParams, GetPromptRequestParams};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt, service::RunningService};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::support::{AGX, TestHome, fixtures, outcome_of};

/// The secret every test sets, and looks for wherever it must not be.
const CANARY: &str = "canary-7f3a9c-s3cr3t-value";

const SERVER: &str = "acme/quotes/quotes";

/// `file` or `os`: which secret store the tests use.
fn keyring_mode() -> String {
    std::env::var("AGX_TEST_KEYRING").unwrap_or_else(|_| "file".into())
}

/// A test home whose commands use the chosen secret store, with every command's output
/// kept for the leak check.
struct Home {
    home: TestHome,
    /// (arguments, outcome) of every command run.
    outputs: std::cell::RefCell<Vec<(String, String)>>,
}

impl Home {
    fn new() -> Home {
        Home {
            home: TestHome::new(),
            outputs: Default::default(),
        }
    }

    /// With acme/quotes installed from its folder.
    fn with_quotes() -> Home {
        let h = Home::new();
        h.run(
            &["install"],
            Some(&fixtures().join("packages/acme-quotes")),
            None,
        )
        .success();
        h
    }

    fn command(&self, program: &str) -> std::process::Command {
        let mut cmd = self.home.command(program);
        cmd.env("AGX_KEYRING", keyring_mode());
        // The private session bus of scripts/ci/keyring.sh (the test home clears the env).
        for var in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
            if let Some(v) = std::env::var_os(var) {
                cmd.env(var, v);
            }
        }
        cmd
    }

    /// Run `agx args… [path]` with `stdin`, keep its output.
    fn run(&self, args: &[&str], path: Option<&Path>, stdin: Option<&[u8]>) -> Ran {
        let mut cmd = assert_cmd::Command::from_std(self.command(AGX));
        cmd.args(args);
        if let Some(p) = path {
            cmd.arg(p);
        }
        cmd.write_stdin(stdin.unwrap_or_default().to_vec());
        let out = cmd.output().expect("agx runs");
        let text = outcome_of(&out);
        self.outputs
            .borrow_mut()
            .push((args.join(" "), text.clone()));
        Ran { out, text }
    }

    fn agx(&self, args: &[&str]) -> Ran {
        self.run(args, None, None)
    }

    fn set_key(&self, value: &str) -> Ran {
        self.run(
            &["config", "set", "acme/quotes", "api_key", "--stdin"],
            None,
            Some(value.as_bytes()),
        )
    }

    fn agx_home(&self) -> PathBuf {
        self.home.agx_home()
    }

    fn secrets_file(&self) -> PathBuf {
        self.agx_home().join("secrets-v1.toml")
    }
}

struct Ran {
    out: std::process::Output,
    text: String,
}

impl Ran {
    fn success(self) -> Self {
        assert!(self.out.status.success(), "{}", self.text);
        self
    }

    fn failure(self) -> Self {
        assert!(!self.out.status.success(), "{}", self.text);
        self
    }

    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }
}

fn key_fingerprint(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))[..12].to_string()
}

type Client = RunningService<RoleClient, ()>;

/// `agx serve acme/quotes/quotes` driven by the rmcp client; its stderr goes to `stderr`.
async fn connect(h: &Home, stderr: &Path, env: &[(&str, &str)]) -> Client {
    let mut cmd = h.command(AGX);
    cmd.args(["serve", SERVER]).env("AGX_LOG", "info");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (transport, _) = TokioChildProcess::builder(tokio::process::Command::from(cmd))
        .stderr(Stdio::from(fs::File::create(stderr).unwrap()))
        .spawn()
        .expect("spawn agx serve");
    ().serve(transport).await.expect("initialize")
}

async fn quote(client: &Client, args: Value) -> Value {
    let Value::Object(map) = args else {
        unreachable!()
    };
    let result = client
        .call_tool(CallToolRequestParams::new("quote").with_arguments(map))
        .await
        .expect("tools/call");
    let result = serde_json::to_value(&result).unwrap();
    assert_ne!(result["isError"], true, "{result}");
    result["structuredContent"].clone()
}

/// Every file below `root` (but `except`) that contains `needle`.
fn files_containing(root: &Path, needle: &str, except: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() && !except.contains(&path) {
                let bytes = fs::read(&path).unwrap();
                if bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
                    found.push(path);
                }
            }
        }
    }
    found
}

/// Wait until `path` holds `needle` (the server's log is written by a thread of its own).
async fn wait_for_text(path: &Path, needle: &str) -> String {
    for _ in 0..500 {
        let text = fs::read_to_string(path).unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!(
        "{} never held {needle:?}:\n{}",
        path.display(),
        fs::read_to_string(path).unwrap_or_default()
    );
}

// ---------------------------------------------------------------------------------------
// End to end

#[tokio::test(flavor = "multi_thread")]
async fn a_secret_reaches_the_tool_and_nothing_else() {
    let h = Home::with_quotes();
    let work = tempfile::tempdir().unwrap();

    // Without the key the server stops before initialize, naming the command.
    let ran = h.run(&["serve", SERVER], None, None).failure();
    assert!(
        ran.stderr()
            .contains("run `agx config set acme/quotes api_key`"),
        "{}",
        ran.text
    );
    assert!(ran.stderr().contains("AGX_SETTING__ACME__QUOTES__API_KEY"));
    assert!(ran.stdout().is_empty(), "nothing on the protocol stream");

    // Clients written before the key is set: the entry is written, with a warning.
    let ran = h.agx(&["install-server", "gemini", SERVER]).success();
    assert!(
        ran.stderr().contains("agx config set acme/quotes api_key"),
        "{}",
        ran.text
    );
    let doctor = h.agx(&["doctor", "--json"]).failure();
    assert!(
        doctor.stdout().contains("setting-missing"),
        "{}",
        doctor.text
    );

    h.set_key(&format!("{CANARY}\n")).success();
    let ran = h
        .agx(&["config", "get", "acme/quotes", "api_key"])
        .success();
    assert_eq!(ran.stdout(), "set\n");
    let ran = h
        .agx(&["config", "get", "acme/quotes", "api_key", "--reveal"])
        .success();
    assert_eq!(
        ran.stdout(),
        format!("{CANARY}\n"),
        "one trailing newline is dropped"
    );

    // The tool receives the key, the defaults and, after `config set`, the new currency.
    let stderr = work.path().join("serve.stderr");
    let client = connect(&h, &stderr, &[]).await;
    let answer = quote(&client, json!({ "symbol": "ACME" })).await;
    assert_eq!(answer["key_sha256"], key_fingerprint(CANARY));
    assert_eq!(answer["currency"], "USD");
    // A tool that echoes the key on stderr: agx's logs carry `[redacted]` instead.
    quote(&client, json!({ "symbol": "ACME", "verbose": true })).await;
    let log = h.agx_home().join("logs/acme-quotes-quotes.log");
    let logged = wait_for_text(&log, "[redacted]").await;
    assert!(logged.contains("with key=[redacted]"), "{logged}");
    wait_for_text(&stderr, "[redacted]").await;
    client.cancel().await.unwrap();

    h.agx(&["config", "set", "acme/quotes", "currency", "EUR"])
        .success();
    let client = connect(&h, &work.path().join("serve2.stderr"), &[]).await;
    assert_eq!(
        quote(&client, json!({ "symbol": "ACME" })).await["currency"],
        "EUR"
    );
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("brief").with_arguments(
                [("symbol".to_string(), json!("ACME"))]
                    .into_iter()
                    .collect(),
            ),
        )
        .await
        .expect("prompts/get");
    let text = serde_json::to_value(&prompt).unwrap()["messages"][0]["content"]["text"].clone();
    assert_eq!(text, "Write a market brief for ACME; quote prices in EUR.");
    client.cancel().await.unwrap();

    // Every place a value could leak to.
    h.agx(&["install-server", "codex", SERVER]).success();
    h.agx(&[
        "install-server",
        "claude-code",
        SERVER,
        "--dry-run",
        "--force",
    ]);
    let info = h.agx(&["info", "acme/quotes"]).success();
    assert!(info.stdout().contains("api_key"), "{}", info.text);
    assert!(info.stdout().contains("set (secret)"), "{}", info.text);
    assert!(info.stdout().contains("currency"), "{}", info.text);
    let info_json = h.agx(&["info", "acme/quotes", "--json"]).success();
    let v: Value = serde_json::from_str(&info_json.stdout()).unwrap();
    let api_key = &v["settings"][0];
    assert_eq!(api_key["key"], "api_key");
    assert_eq!(api_key["source"]["kind"], "stored");
    assert!(api_key.get("value").is_none(), "{api_key}");
    assert_eq!(v["settings"][1]["value"], "EUR");
    let list = h.agx(&["config", "list", "--json"]).success();
    let v: Value = serde_json::from_str(&list.stdout()).unwrap();
    assert_eq!(v["packages"][0]["settings"][2]["source"]["kind"], "default");
    h.agx(&["config", "list"]).success();
    h.agx(&["doctor"]);
    h.agx(&["list"]).success();

    let mut except = vec![h.secrets_file()];
    except.retain(|_| keyring_mode() == "file");
    let leaks = files_containing(h.home.home(), CANARY, &except);
    assert!(leaks.is_empty(), "the secret is in {leaks:?}");
    for (args, text) in h.outputs.borrow().iter() {
        if !args.ends_with("--reveal") {
            assert!(
                !text.contains(CANARY),
                "`agx {args}` shows the secret:\n{text}"
            );
        }
    }
    for file in [stderr, work.path().join("serve2.stderr")] {
        assert!(!fs::read_to_string(&file).unwrap().contains(CANARY));
    }
    if keyring_mode() == "os" {
        assert!(!h.secrets_file().exists(), "the keyring holds the secret");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn environment_overrides_win_over_stored_values() {
    let h = Home::with_quotes();
    h.agx(&["config", "set", "acme/quotes", "currency", "USD"])
        .success();
    let work = tempfile::tempdir().unwrap();
    let client = connect(
        &h,
        &work.path().join("stderr"),
        &[
            ("AGX_SETTING__ACME__QUOTES__API_KEY", "from-the-environment"),
            ("AGX_SETTING__ACME__QUOTES__CURRENCY", "EUR"),
        ],
    )
    .await;
    let answer = quote(&client, json!({ "symbol": "X" })).await;
    assert_eq!(answer["currency"], "EUR");
    assert_eq!(
        answer["key_sha256"],
        key_fingerprint("from-the-environment")
    );
    client.cancel().await.unwrap();

    // A bad override stops the server, naming the variable but not the value.
    let mut cmd = assert_cmd::Command::from_std(h.command(AGX));
    cmd.args(["serve", SERVER])
        .env("AGX_SETTING__ACME__QUOTES__API_KEY", "k")
        .env("AGX_SETTING__ACME__QUOTES__PRECISION", "lots");
    let out = cmd.output().unwrap();
    let text = outcome_of(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("AGX_SETTING__ACME__QUOTES__PRECISION"),
        "{text}"
    );
    assert!(!text.contains("lots"), "{text}");
}

// ---------------------------------------------------------------------------------------
// Bad input

#[test]
fn a_secret_is_never_taken_from_argv() {
    let h = Home::with_quotes();
    let ran = h
        .agx(&["config", "set", "acme/quotes", "api_key", CANARY])
        .failure();
    assert!(
        ran.stderr()
            .contains("agx never takes a secret from the command line"),
        "{}",
        ran.text
    );
    assert!(ran.stderr().contains("--stdin"), "{}", ran.text);
    assert!(!ran.text.contains(CANARY), "{}", ran.text);
    let ran = h
        .agx(&["config", "get", "acme/quotes", "api_key"])
        .failure();
    assert!(ran.stderr().contains("has no value"), "{}", ran.text);
    // Not a terminal and no --stdin: told how to give it.
    let ran = h
        .agx(&["config", "set", "acme/quotes", "api_key"])
        .failure();
    assert!(ran.stderr().contains("--stdin"), "{}", ran.text);
}

#[test]
fn values_are_checked_against_the_declaration() {
    let h = Home::with_quotes();
    let cases: &[(&[&str], &str)] = &[
        (&["precision", "lots"], "not a number"),
        (&["currency", "GBP"], "USD, EUR"),
        (&["api_kee", "x"], "did you mean `api_key`?"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["config", "set", "acme/quotes"];
        all.extend_from_slice(args);
        let ran = h.agx(&all).failure();
        assert!(ran.stderr().contains(expected), "{}", ran.text);
    }
    // A very long value and text that is not UTF-8, on stdin.
    let long = vec![b'x'; 1024 * 1024];
    let ran = h.set_key(std::str::from_utf8(&long).unwrap()).failure();
    assert!(
        ran.stderr().contains("the limit is 65536 bytes"),
        "{}",
        ran.text
    );
    let ran = h
        .run(
            &["config", "set", "acme/quotes", "api_key", "--stdin"],
            None,
            Some(b"\xff\xfe key"),
        )
        .failure();
    assert!(ran.stderr().contains("not UTF-8"), "{}", ran.text);
    // A package that is not installed: refused unless forced.
    let ran = h.agx(&["config", "set", "acme/other", "k", "v"]).failure();
    assert!(ran.stderr().contains("--force"), "{}", ran.text);
    let ran = h
        .agx(&["config", "set", "acme/other", "k", "v", "--force"])
        .success();
    assert!(ran.stderr().contains("stored unchecked"), "{}", ran.text);
    let ran = h.agx(&["config", "list"]).success();
    assert!(ran.stdout().contains("acme/other k = v"), "{}", ran.text);
    assert!(!h.agx_home().join("secrets-v1.toml").exists() || keyring_mode() == "file");
    h.agx(&["config", "unset", "acme/other", "k", "--force"])
        .success();
}

#[cfg(unix)]
#[test]
fn a_secrets_file_others_can_read_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    if keyring_mode() != "file" {
        return; // Only the fallback file has a mode to check.
    }
    let h = Home::with_quotes();
    h.set_key(CANARY).success();
    let file = h.secrets_file();
    assert_eq!(
        fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    fs::set_permissions(&file, fs::Permissions::from_mode(0o644)).unwrap();
    let ran = h.agx(&["serve", SERVER]).failure();
    assert!(
        ran.stderr().contains("can be read by other users"),
        "{}",
        ran.text
    );
    assert!(ran.stderr().contains("chmod 600"), "{}", ran.text);
    let ran = h.set_key("another").failure();
    assert!(ran.stderr().contains("chmod 600"), "{}", ran.text);
    assert!(!ran.text.contains(CANARY));
}

#[test]
fn a_corrupt_settings_file_is_reported_and_left_alone() {
    let h = Home::with_quotes();
    let file = h.agx_home().join("settings-v1.toml");
    let broken = "version = 1\n[packages.\"acme/quotes\"]\ncurrency = EUR\n";
    fs::write(&file, broken).unwrap();
    let ran = h
        .agx(&["config", "set", "acme/quotes", "currency", "USD"])
        .failure();
    assert!(ran.stderr().contains("line 3, column"), "{}", ran.text);
    assert!(ran.stderr().contains("settings-v1.toml"), "{}", ran.text);
    assert_eq!(fs::read_to_string(&file).unwrap(), broken);
}

#[test]
fn validate_reports_bad_declarations_with_their_place() {
    let h = Home::new();
    let pkg = h.home.home().join("pkg");
    crate::support::copy_tree(&fixtures().join("packages/acme-quotes"), &pkg);
    let manifest = pkg.join("agx.toml");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(
        &manifest,
        text.replace("env = \"ACME_QUOTES_CURRENCY\"", "env = \"AGX_TOOL\"")
            .replace("default = 2", "default = \"two\""),
    )
    .unwrap();
    let ran = h.run(&["validate"], Some(&pkg), None).failure();
    assert!(ran.text.contains("E040"), "{}", ran.text);
    assert!(ran.text.contains("E037"), "{}", ran.text);
    assert!(ran.text.contains("agx.toml:24:"), "{}", ran.text);
    assert!(ran.text.contains("agx.toml:29:"), "{}", ran.text);
}

#[test]
fn on_a_terminal_a_secret_is_asked_for() {
    use std::io::{Read, Write};
    let h = Home::with_quotes();
    // `script` runs agx on a pseudo-terminal; what the test writes is typed on it.
    let mut child = h
        .command("script")
        .args([
            "-qec",
            &format!("{AGX} config set acme/quotes api_key"),
            "/dev/null",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    // Type only once agx asks, as a person would.
    while !String::from_utf8_lossy(&seen).contains("input hidden: ") {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "agx never asked: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    let prompt = String::from_utf8_lossy(&seen).into_owned();
    assert!(
        prompt.contains("acme/quotes api_key (Acme market API key)"),
        "{prompt}"
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{CANARY}\n").as_bytes())
        .unwrap();
    stdout.read_to_end(&mut seen).unwrap();
    assert!(
        child.wait().unwrap().success(),
        "{}",
        String::from_utf8_lossy(&seen)
    );
    let ran = h
        .agx(&["config", "get", "acme/quotes", "api_key", "--reveal"])
        .success();
    assert_eq!(ran.stdout(), format!("{CANARY}\n"));
}

#[test]
fn without_a_reachable_keyring_secrets_fall_back_to_the_file_and_agx_says_so_once() {
    let h = Home::with_quotes();
    let no_bus = tempfile::tempdir().unwrap();
    let set = |value: &str| {
        // No session bus: nothing answers where the Secret Service would be.
        let mut cmd = h.home.agx();
        cmd.env("AGX_KEYRING", "auto")
            .env("XDG_RUNTIME_DIR", no_bus.path())
            .args(["config", "set", "acme/quotes", "api_key", "--stdin"])
            .write_stdin(value);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", outcome_of(&out));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let first = set("one");
    let file = h.secrets_file().display().to_string();
    assert!(first.contains("warning: no OS keyring answered"), "{first}");
    assert!(first.contains(&file), "{first}");
    let second = set("two");
    assert!(!second.contains("warning:"), "said once: {second}");
    assert!(h.secrets_file().exists());
}

/// The entry `install-server` wrote into a client's file: command, arguments, environment.
fn entry_of(h: &Home, client: &str) -> (String, Vec<String>, Vec<(String, String)>) {
    let home = h.home.home();
    let entry: Value = match client {
        "gemini" => {
            let text = fs::read_to_string(home.join(".gemini/settings.json")).unwrap();
            serde_json::from_str::<Value>(&text).unwrap()["mcpServers"]["quotes"].clone()
        }
        "codex" => {
            let text = fs::read_to_string(home.join(".codex/config.toml")).unwrap();
            let doc: toml::Value = toml::from_str(&text).unwrap();
            serde_json::to_value(&doc["mcp_servers"]["quotes"]).unwrap()
        }
        _ => unreachable!(),
    };
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let env = entry["env"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default();
    (
        entry["command"].as_str().unwrap().to_string(),
        strings(&entry["args"]),
        env,
    )
}

/// Gemini CLI drops variables named like `*KEY*`/`*TOKEN*` and Codex starts servers with a
/// cleared environment (PATH and HOME kept); the entries agx writes still give the tool its
/// key, because `agx serve` reads it from agx's own store.
#[tokio::test(flavor = "multi_thread")]
async fn the_entries_for_gemini_and_codex_give_the_tool_its_key() {
    let h = Home::with_quotes();
    h.set_key(CANARY).success();
    let work = tempfile::tempdir().unwrap();
    for client in ["gemini", "codex"] {
        h.agx(&["install-server", client, SERVER]).success();
        let (command, args, env) = entry_of(&h, client);
        assert!(
            env.iter().all(|(_, v)| !v.contains(CANARY)),
            "{client}: {env:?}"
        );
        // What the client passes on: for Codex only PATH and HOME; for Gemini the test's
        // environment without anything named like a key (the test home's, here).
        let mut cmd = std::process::Command::new(&command);
        cmd.args(&args).env_clear();
        cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", h.home.home())
            .env("AGX_OFFICIAL_REGISTRY", "off");
        if let Some(bus) = std::env::var_os("DBUS_SESSION_BUS_ADDRESS") {
            // The private bus of scripts/ci/keyring.sh. On a login the Secret Service is
            // also found without it, at /run/user/<uid>/bus.
            cmd.env("DBUS_SESSION_BUS_ADDRESS", bus);
        }
        cmd.envs(env.iter().map(|(k, v)| (k, v)));
        let (transport, _) = TokioChildProcess::builder(tokio::process::Command::from(cmd))
            .stderr(Stdio::from(
                fs::File::create(work.path().join(format!("{client}.stderr"))).unwrap(),
            ))
            .spawn()
            .expect("spawn the entry's command");
        let client_session: Client = ().serve(transport).await.expect("initialize");
        let answer = quote(&client_session, json!({ "symbol": "ACME" })).await;
        assert_eq!(answer["key_sha256"], key_fingerprint(CANARY), "{client}");
        client_session.cancel().await.unwrap();
    }
}

#[test]
fn agx_call_uses_the_settings_serve_would() {
    let h = Home::with_quotes();
    let call = ["call", "acme/quotes/quote", "--arg", "symbol=ACME"];
    let ran = h.agx(&call).failure();
    assert!(
        ran.stderr().contains("tool acme/quotes/quote cannot start")
            && ran.stderr().contains("agx config set acme/quotes api_key"),
        "{}",
        ran.text
    );

    h.set_key(CANARY).success();
    let mut with_json = call.to_vec();
    with_json.extend(["--format", "json"]);
    let ran = h.agx(&with_json).success();
    let result: Value = serde_json::from_str(&ran.stdout()).expect("a CallToolResult");
    assert_eq!(
        result["structuredContent"]["key_sha256"],
        key_fingerprint(CANARY)
    );
    assert_eq!(result["structuredContent"]["currency"], "USD");
    assert!(!ran.text.contains(CANARY), "{}", ran.text);
}
