//! Integration tests: resources and completions of `agx serve`, spoken to over stdio with
//! JSON-RPC lines, on a package written into a temporary folder and installed; and what
//! `agx validate` says about bad resource definitions.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::support::{AGX, TestHome, write_file, write_files};

/// Long enough for a loaded CI machine; a test only waits this long when it is failing.
const PATIENCE: Duration = Duration::from_secs(60);

/// 0x89 "PNG" and a byte that is not UTF-8: sent as a blob.
const LOGO: &[u8] = &[0x89, b'P', b'N', b'G', 0xff, 0x00];

/// `acme/library`: a text file, a binary file, a template read by a command whose variable is
/// completed by a command, and a prompt whose argument is completed from an enum.
fn write_library(dir: &Path) {
    write_files(
        dir,
        &[
            (
                "agx.toml",
                r#"[package]
name = "acme/library"
version = "1.0.0"
description = "Books"

[extension]
servers = ["main"]
prompts = ["ask"]
resources = ["readme", "logo", "shelf"]
"#,
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\nprompts = [\"ask\"]\nresources = [\"readme\", \"logo\", \"shelf\"]\n",
            ),
            (
                "agx/prompts/ask.toml",
                r#"name = "ask"
content = "Tell me about {{ topic }}"
[[arguments]]
name = "topic"
required = true
enum = ["Poetry", "Politics", "Physics", "History"]
"#,
            ),
            (
                "agx/resources.toml",
                r#"[readme]
uri = "library://readme"
mime_type = "text/markdown"
path = "docs/README.md"

[logo]
uri = "library://logo"
mime_type = "image/png"
path = "docs/logo.png"

[shelf]
description = "The books on one shelf"
uri_template = "library://shelves/{shelf}/{+path}"
command = ["python3", "-S", "bin/shelf.py"]
[[shelf.variables]]
name = "shelf"
complete = ["python3", "-S", "bin/shelves.py"]
[[shelf.variables]]
name = "path"
"#,
            ),
            ("docs/README.md", "# The library\n"),
            (
                "bin/shelf.py",
                "import json, sys\nv = json.load(sys.stdin)\nprint(f\"shelf {v['shelf']} at {v['path']}\")\n",
            ),
            (
                "bin/shelves.py",
                "import json, sys\nr = json.load(sys.stdin)\nfor s in ['north', 'nook', 'south']:\n    if s.startswith(r['value']):\n        print(s)\nprint('context=' + json.dumps(r['context'], sort_keys=True))\n",
            ),
        ],
    );
    write_file(&dir.join("docs/logo.png"), LOGO);
}

/// A home with `acme/library` installed, and the installed package's folder.
fn library_home() -> (TestHome, PathBuf) {
    let home = TestHome::new();
    let src = tempfile::tempdir().unwrap();
    write_library(src.path());
    home.agx().arg("install").arg(src.path()).assert().success();
    let installed = find_file(&home.agx_home(), "README.md").expect("installed README.md");
    let dir = installed.parent().unwrap().parent().unwrap().to_path_buf();
    (home, dir)
}

fn find_file(root: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(root).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

/// `agx serve` over stdio, one JSON-RPC message per line. A thread reads stdout into a
/// channel, so waiting for a message can give up.
struct Session {
    child: Child,
    stdin: ChildStdin,
    messages: mpsc::Receiver<Value>,
    /// Notifications received while waiting for responses.
    notifications: Vec<Value>,
    next_id: u64,
    capabilities: Value,
}

impl Session {
    fn start(home: &TestHome, server: &str) -> Session {
        let mut child = home
            .command(AGX)
            .args(["serve", server])
            .env("AGX_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn agx serve");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let message = serde_json::from_str(&line).expect("a JSON-RPC line");
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let mut session = Session {
            child,
            stdin,
            messages,
            notifications: Vec::new(),
            next_id: 0,
            capabilities: Value::Null,
        };
        let init = session.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "it", "version": "1" }
            }),
        );
        session.capabilities = init["result"]["capabilities"].clone();
        session.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        session
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        self.messages
            .recv_timeout(PATIENCE)
            .expect("agx serve answers within the patience")
    }

    /// Send a request; its whole response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message["id"] == id {
                return message;
            }
            self.notifications.push(message);
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response["error"].is_null(), "{method}: {response}");
        response["result"].clone()
    }

    /// The next notification with this method (earlier ones first).
    fn notification(&mut self, method: &str) -> Value {
        if let Some(i) = self
            .notifications
            .iter()
            .position(|n| n["method"] == method)
        {
            return self.notifications.remove(i);
        }
        loop {
            let message = self.receive();
            if message["method"] == method {
                return message;
            }
            self.notifications.push(message);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn capabilities_list_and_read_text_binary_and_templates() {
    let (home, _) = library_home();
    let mut s = Session::start(&home, "acme/library/main");
    assert_eq!(
        s.capabilities["resources"],
        json!({ "subscribe": true, "listChanged": true })
    );
    assert_eq!(s.capabilities["completions"], json!({}));

    let list = s.result("resources/list", json!({}));
    let uris: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, ["library://readme", "library://logo"]);
    assert!(list.get("nextCursor").is_none());
    let templates = s.result("resources/templates/list", json!({}));
    assert_eq!(
        templates["resourceTemplates"],
        json!([{
            "uriTemplate": "library://shelves/{shelf}/{+path}",
            "name": "shelf",
            "description": "The books on one shelf"
        }])
    );

    let text = s.result("resources/read", json!({ "uri": "library://readme" }));
    assert_eq!(
        text["contents"],
        json!([{ "uri": "library://readme", "mimeType": "text/markdown", "text": "# The library\n" }])
    );
    let binary = s.result("resources/read", json!({ "uri": "library://logo" }));
    let blob = binary["contents"][0]["blob"].as_str().unwrap();
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(blob)
            .unwrap(),
        LOGO
    );
    assert_eq!(binary["contents"][0]["mimeType"], "image/png");

    let uri = "library://shelves/north/poetry/Keats%20Odes.txt";
    let templated = s.result("resources/read", json!({ "uri": uri }));
    assert_eq!(
        templated["contents"],
        json!([{ "uri": uri, "mimeType": "text/plain", "text": "shelf north at poetry/Keats Odes.txt\n" }])
    );

    for unknown in ["library://nothing", "library://shelves/north"] {
        let response = s.request("resources/read", json!({ "uri": unknown }));
        assert_eq!(response["error"]["code"], -32602, "{response}");
        assert!(
            response["error"]["message"]
                .as_str()
                .unwrap()
                .contains("resources/templates/list"),
            "{response}"
        );
    }
}

#[test]
fn completions_come_from_an_enum_or_a_command() {
    let (home, _) = library_home();
    let mut s = Session::start(&home, "acme/library/main");
    let from_enum = s.result(
        "completion/complete",
        json!({ "ref": { "type": "ref/prompt", "name": "ask" }, "argument": { "name": "topic", "value": "po" } }),
    );
    assert_eq!(
        from_enum["completion"],
        json!({ "values": ["Poetry", "Politics"], "total": 2, "hasMore": false })
    );
    let from_command = s.result(
        "completion/complete",
        json!({
            "ref": { "type": "ref/resource", "uri": "library://shelves/{shelf}/{+path}" },
            "argument": { "name": "shelf", "value": "n" },
            "context": { "arguments": { "path": "poetry" } }
        }),
    );
    assert_eq!(
        from_command["completion"]["values"],
        json!(["north", "nook", "context={\"path\": \"poetry\"}"])
    );
    // A variable without a source offers nothing; an unknown one is invalid params.
    let none = s.result(
        "completion/complete",
        json!({ "ref": { "type": "ref/resource", "uri": "library://shelves/{shelf}/{+path}" }, "argument": { "name": "path", "value": "" } }),
    );
    assert_eq!(none["completion"]["values"], json!([]));
    let unknown = s.request(
        "completion/complete",
        json!({ "ref": { "type": "ref/prompt", "name": "ask" }, "argument": { "name": "subject", "value": "" } }),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
}

#[test]
fn a_subscribed_file_sends_an_update_when_it_changes() {
    let (home, installed) = library_home();
    let mut s = Session::start(&home, "acme/library/main");
    s.result("resources/subscribe", json!({ "uri": "library://readme" }));
    std::fs::write(installed.join("docs/README.md"), "# Moved\n").unwrap();
    let update = s.notification("notifications/resources/updated");
    assert_eq!(update["params"]["uri"], "library://readme");
    let text = s.result("resources/read", json!({ "uri": "library://readme" }));
    assert_eq!(text["contents"][0]["text"], "# Moved\n");

    // Command-backed resources have nothing to watch: the client is told so.
    let refused = s.request(
        "resources/subscribe",
        json!({ "uri": "library://shelves/a/b" }),
    );
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    s.result(
        "resources/unsubscribe",
        json!({ "uri": "library://readme" }),
    );

    // The folder stops being watched with the last subscription, and is watched again.
    // Updates of the first write that were still on their way are left behind first.
    s.result("ping", json!({}));
    s.notifications.clear();
    s.result("resources/subscribe", json!({ "uri": "library://readme" }));
    std::fs::write(installed.join("docs/README.md"), "# Back\n").unwrap();
    let update = s.notification("notifications/resources/updated");
    assert_eq!(update["params"]["uri"], "library://readme");
}

#[test]
fn a_2026_07_28_clients_stream_hears_of_a_changed_file() {
    let (home, installed) = library_home();
    let cwd = tempfile::tempdir().unwrap();
    let mut s =
        crate::support::serve_lines::ServeLines::start(&home, "acme/library/main", cwd.path());
    // Only the file-backed resource is acknowledged: a command's output has nothing to
    // watch, and the lists never change.
    s.send(json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {},
                  "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}},
        "notifications": {"toolsListChanged": true,
                          "resourceSubscriptions": ["library://readme", "library://shelves/a/b"]}}}));
    let ack = s.next();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": ["library://readme"]}),
        "{ack}"
    );
    std::fs::write(installed.join("docs/README.md"), "# Moved\n").unwrap();
    let update = s.next();
    assert_eq!(
        update["method"], "notifications/resources/updated",
        "{update}"
    );
    assert_eq!(update["params"]["uri"], "library://readme", "{update}");
    assert_eq!(
        update["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{update}"
    );
}

#[test]
fn resources_are_listed_in_pages() {
    let home = TestHome::new();
    let src = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..150).map(|i| format!("r{i:03}")).collect();
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let definitions: String = names
        .iter()
        .map(|n| format!("[{n}]\nuri = \"many://{n}\"\ncommand = [\"true\"]\n"))
        .collect();
    write_files(
        src.path(),
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"acme/many\"\nversion = \"1.0.0\"\ndescription = \"Many\"\n[extension]\nservers = [\"main\"]\nresources = [{}]\n",
                    quoted.join(", ")
                ),
            ),
            (
                "agx/servers/main.toml",
                &format!("name = \"main\"\nresources = [{}]\n", quoted.join(", ")),
            ),
            ("agx/resources.toml", &definitions),
        ],
    );
    home.agx().arg("install").arg(src.path()).assert().success();
    let mut s = Session::start(&home, "acme/many/main");
    let first = s.result("resources/list", json!({}));
    assert_eq!(first["resources"].as_array().unwrap().len(), 100);
    let cursor = first["nextCursor"].as_str().unwrap().to_string();
    let second = s.result("resources/list", json!({ "cursor": cursor }));
    let rest = second["resources"].as_array().unwrap();
    assert_eq!(rest.len(), 50);
    assert_eq!(rest[49]["uri"], "many://r149");
    assert!(second.get("nextCursor").is_none());
    let bad = s.request("resources/list", json!({ "cursor": "nope" }));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    // No completions anywhere: the capability is not advertised.
    assert!(s.capabilities.get("completions").is_none());
}

#[test]
fn a_server_without_resources_advertises_none() {
    let home = TestHome::new();
    home.agx()
        .arg("install")
        .arg(crate::support::fixtures().join("packages/agx-edge"))
        .assert()
        .success();
    let s = Session::start(&home, "agx/edge/edge");
    assert!(
        s.capabilities.get("resources").is_none(),
        "{}",
        s.capabilities
    );
    assert!(
        s.capabilities.get("completions").is_none(),
        "{}",
        s.capabilities
    );
}

#[test]
fn validate_points_at_bad_resource_fields() {
    let home = TestHome::new();
    let src = tempfile::tempdir().unwrap();
    write_files(
        src.path(),
        &[
            (
                "agx.toml",
                "[package]\nname = \"acme/bad\"\nversion = \"1.0.0\"\ndescription = \"Bad\"\n[extension]\nresources = [\"a\", \"b\", \"c\"]\n",
            ),
            (
                "agx/resources.toml",
                r#"[a]
uri = "no scheme"
path = "../outside.txt"

[b]
uri_template = "x://{city}"
command = ["true"]
[[b.variables]]
name = "town"

[c]
uri = "x://c"
path = "missing.txt"
"#,
            ),
        ],
    );
    let out = home
        .agx()
        .args(["validate", "--format", "json"])
        .arg(src.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {}:{}",
                f["code"].as_str().unwrap(),
                f["location"]["line"],
                f["location"]["column"]
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            "E100 2:7",
            "E103 3:8",
            "E102 6:16",
            "E102 6:16",
            "E103 13:8"
        ]
    );
}

#[test]
fn a_failing_hanging_or_flooding_command_is_an_error_and_the_server_keeps_serving() {
    let home = TestHome::new();
    let src = tempfile::tempdir().unwrap();
    write_files(
        src.path(),
        &[
            (
                "agx.toml",
                "[package]\nname = \"acme/odd\"\nversion = \"1.0.0\"\ndescription = \"Odd\"\n[extension]\nservers = [\"main\"]\nresources = [\"fails\", \"hangs\", \"floods\", \"fine\"]\n",
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\nresources = [\"fails\", \"hangs\", \"floods\", \"fine\"]\n",
            ),
            (
                "agx/resources.toml",
                r#"[fails]
uri = "odd://fails"
command = ["python3", "-S", "-c", "import sys; sys.stderr.write('no such shelf\\n'); sys.exit(3)"]

[hangs]
uri = "odd://hangs"
timeout = 1
command = ["python3", "-S", "-c", "import time; time.sleep(600)"]

[floods]
uri = "odd://floods"
command = ["python3", "-S", "-c", "import sys; sys.stdout.write('x' * (9 * 1024 * 1024))"]

[fine]
uri = "odd://fine"
command = ["python3", "-S", "-c", "print('fine')"]
"#,
            ),
        ],
    );
    home.agx().arg("install").arg(src.path()).assert().success();
    let mut s = Session::start(&home, "acme/odd/main");
    for (uri, says) in [
        (
            "odd://fails",
            "exited with exit status: 3; stderr:\nno such shelf",
        ),
        ("odd://hangs", "did not finish within 1 s"),
        (
            "odd://floods",
            "printed 9437184 bytes, more than the 8 MiB a resource may have",
        ),
    ] {
        let response = s.request("resources/read", json!({ "uri": uri }));
        assert_eq!(response["error"]["code"], -32603, "{response}");
        let message = response["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{uri}: {message}");
    }
    let fine = s.result("resources/read", json!({ "uri": "odd://fine" }));
    assert_eq!(fine["contents"][0]["text"], "fine\n");
}

/// `acme/atlas`: a setting, a command resource, a template whose variable a command completes,
/// and a prompt whose argument a command completes; every command prints the setting it got.
fn write_atlas(dir: &Path) {
    write_files(
        dir,
        &[
            (
                "agx.toml",
                r#"[package]
name = "acme/atlas"
version = "1.0.0"
description = "Maps of one region"

[extension]
servers = ["main"]
prompts = ["tour"]
resources = ["region", "map"]

[extension.settings.region]
description = "The region to map"
required = true
env = "ATLAS_REGION"
"#,
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\nprompts = [\"tour\"]\nresources = [\"region\", \"map\"]\n",
            ),
            (
                "agx/prompts/tour.toml",
                r#"name = "tour"
content = "Tour {{ city }}"
[[arguments]]
name = "city"
complete = ["sh", "bin/echo-region.sh"]
"#,
            ),
            (
                "agx/resources.toml",
                r#"[region]
uri = "atlas://region"
command = ["sh", "bin/echo-region.sh"]

[map]
uri_template = "atlas://maps/{city}"
command = ["sh", "bin/echo-region.sh"]
[[map.variables]]
name = "city"
complete = ["sh", "bin/echo-region.sh"]
"#,
            ),
            ("bin/echo-region.sh", "echo \"region=$ATLAS_REGION\"\n"),
        ],
    );
}

#[test]
fn resource_and_completion_commands_receive_the_package_settings() {
    let home = TestHome::new();
    let src = tempfile::tempdir().unwrap();
    write_atlas(src.path());
    home.agx().arg("install").arg(src.path()).assert().success();
    home.agx()
        .args(["config", "set", "acme/atlas", "region", "Patagonia"])
        .assert()
        .success();
    let mut s = Session::start(&home, "acme/atlas/main");

    for uri in ["atlas://region", "atlas://maps/Ushuaia"] {
        let read = s.result("resources/read", json!({ "uri": uri }));
        assert_eq!(read["contents"][0]["text"], "region=Patagonia\n", "{uri}");
    }
    for reference in [
        json!({ "type": "ref/resource", "uri": "atlas://maps/{city}" }),
        json!({ "type": "ref/prompt", "name": "tour" }),
    ] {
        let offered = s.result(
            "completion/complete",
            json!({ "ref": reference, "argument": { "name": "city", "value": "" } }),
        );
        assert_eq!(
            offered["completion"]["values"],
            json!(["region=Patagonia"]),
            "{reference}"
        );
    }
}

/// At most four reads run at once; the others wait their turn and are answered when one
/// ends. Each read's command stays until the test lets it go and fails if it sees more than
/// four read commands running, so nothing depends on timing.
#[test]
fn concurrent_reads_are_bounded_and_the_rest_wait_their_turn() {
    let home = TestHome::new();
    let src = tempfile::tempdir().unwrap();
    let gate = tempfile::tempdir().unwrap();
    let running = gate.path().join("running");
    std::fs::create_dir(&running).unwrap();
    let release = gate.path().join("release");
    let script = format!(
        r#"running='{}'
touch "$running/$$"
check() {{
  n=$(ls "$running" | wc -l)
  if [ "$n" -gt 4 ]; then echo "$n reads at once" >&2; rm -f "$running/$$"; exit 1; fi
}}
check
until [ -e '{}' ]; do check; sleep 0.02; done
rm -f "$running/$$"
echo read
"#,
        running.display(),
        release.display()
    );
    write_files(
        src.path(),
        &[
            (
                "agx.toml",
                "[package]\nname = \"acme/slow\"\nversion = \"1.0.0\"\ndescription = \"Slow\"\n[extension]\nservers = [\"main\"]\nresources = [\"page\"]\n",
            ),
            (
                "agx/servers/main.toml",
                "name = \"main\"\nresources = [\"page\"]\n",
            ),
            (
                "agx/resources.toml",
                "[page]\nuri_template = \"slow://pages/{n}\"\ncommand = [\"sh\", \"bin/read.sh\"]\n",
            ),
            ("bin/read.sh", &script),
        ],
    );
    home.agx().arg("install").arg(src.path()).assert().success();
    let mut s = Session::start(&home, "acme/slow/main");
    let reads = 10;
    for id in 0..reads {
        s.send(
            json!({ "jsonrpc": "2.0", "id": 100 + id, "method": "resources/read",
                       "params": { "uri": format!("slow://pages/{id}") } }),
        );
    }
    let deadline = std::time::Instant::now() + PATIENCE;
    while std::fs::read_dir(&running).unwrap().count() < 4 {
        assert!(std::time::Instant::now() < deadline, "four reads start");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::fs::write(&release, "").unwrap();
    let mut answered = 0;
    while answered < reads {
        let message = s.receive();
        if message["id"].is_null() {
            continue;
        }
        assert_eq!(
            message["result"]["contents"][0]["text"], "read\n",
            "{message}"
        );
        answered += 1;
    }
}

/// 2,000 saves of a subscribed file in a row are coalesced: the client gets at least one
/// update after the last save (so it reads the latest), and far fewer than one per save.
#[test]
fn a_burst_of_saves_is_coalesced_into_few_updates() {
    let (home, installed) = library_home();
    let mut s = Session::start(&home, "acme/library/main");
    s.result("resources/subscribe", json!({ "uri": "library://readme" }));
    s.result("resources/subscribe", json!({ "uri": "library://logo" }));
    let saves = 2000;
    for i in 0..saves {
        std::fs::write(installed.join("docs/README.md"), format!("# Save {i}\n")).unwrap();
    }
    // The logo changes after the last save: once its update is here, the saves' are too
    // (or follow it in the same batch).
    std::fs::write(installed.join("docs/logo.png"), LOGO).unwrap();
    let mut readme_updates = 0;
    loop {
        let update = s.notification("notifications/resources/updated");
        if update["params"]["uri"] == "library://logo" {
            break;
        }
        readme_updates += 1;
    }
    if readme_updates == 0 {
        let update = s.notification("notifications/resources/updated");
        assert_eq!(update["params"]["uri"], "library://readme");
        readme_updates = 1;
    }
    assert!(
        readme_updates <= saves / 10,
        "{readme_updates} updates for {saves} saves"
    );
    let text = s.result("resources/read", json!({ "uri": "library://readme" }));
    assert_eq!(
        text["contents"][0]["text"],
        format!("# Save {}\n", saves - 1)
    );
}
