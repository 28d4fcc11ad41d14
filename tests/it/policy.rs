//! The organisation's policy (docs/policy.md): every rule refused and explained — with its
//! file and line — at install, sync, install-server, install-skill and serve; a project that
//! tries to loosen the user's policy is refused; a policy that does not parse stops every
//! command it governs, and a refusal changes nothing.

use std::path::{Path, PathBuf};

use crate::support::{TestHome, fixtures, write_package};

/// The user's policy. Line numbers matter: the tests check that refusals name them.
const POLICY: &str = r#"require = "checksum"
[sources]
allow = ["corp", "fixtures"]
[publishers]
deny = ["evil"]
[packages]
deny = ["acme/banned-*"]
[permissions.max]
network = "loopback"
write = ["{project}"]
env = ["ACME_*"]
[clients]
allow = ["claude-code"]
"#;

/// A folder registry `corp` with packages whose permissions each break one rule (and
/// `acme/tame`, which breaks none), and the fixture registry as `fixtures`.
fn setup() -> TestHome {
    let home = TestHome::new();
    let reg = home.home().join("corp");
    let src = home.home().join("src");
    ok(&home, &["registry", "init", reg.to_str().unwrap()]);
    for (name, permissions) in [
        (
            "acme/tame",
            "network = \"loopback\"\nwrite = [\"{project}/out\"]\nenv = [\"ACME_TOKEN\"]",
        ),
        ("acme/wild", "network = \"any\""),
        (
            "acme/writer",
            "network = \"loopback\"\nwrite = [\"{home}/.ssh\"]",
        ),
        (
            "acme/envy",
            "network = \"none\"\nenv = [\"AWS_SECRET_ACCESS_KEY\"]",
        ),
        ("acme/banned-maps", "network = \"none\""),
        ("evil/thing", "network = \"none\""),
    ] {
        let dir = with_permissions(&src, name, permissions);
        ok(
            &home,
            &[
                "registry",
                "add",
                reg.to_str().unwrap(),
                dir.to_str().unwrap(),
            ],
        );
    }
    ok(
        &home,
        &["registry", "add-source", "corp", reg.to_str().unwrap()],
    );
    let fixture_registry = fixtures().join("registry");
    ok(
        &home,
        &[
            "registry",
            "add-source",
            "fixtures",
            fixture_registry.to_str().unwrap(),
        ],
    );
    home
}

fn with_permissions(src: &Path, name: &str, permissions: &str) -> PathBuf {
    let dir = write_package(src, name, "1.0.0", &[], "run");
    let manifest = dir.join("agx.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!("{text}\n[extension.permissions]\n{permissions}\n"),
    )
    .unwrap();
    dir
}

fn ok(home: &TestHome, args: &[&str]) -> String {
    ok_in(home, home.home(), args)
}

/// Run agx in `cwd`, expecting a refusal; its stderr.
fn refused_in(home: &TestHome, cwd: &Path, args: &[&str]) -> String {
    let out = home.agx().current_dir(cwd).args(args).output().unwrap();
    assert!(!out.status.success(), "agx {args:?} should be refused");
    String::from_utf8(out.stderr).unwrap()
}

fn refused(home: &TestHome, args: &[&str]) -> String {
    refused_in(home, home.home(), args)
}

fn user_policy(home: &TestHome) -> PathBuf {
    home.agx_home().join("policy.toml")
}

fn write_user_policy(home: &TestHome, text: &str) {
    std::fs::create_dir_all(home.agx_home()).unwrap();
    std::fs::write(user_policy(home), text).unwrap();
}

/// Each refusal names its rule and the rule's place, `policy.toml:LINE:1`.
fn assert_rule(stderr: &str, rule: &str, line: usize) {
    assert!(stderr.contains("refused by policy"), "{stderr}");
    assert!(
        stderr.contains(&format!("`{rule}`")),
        "expected {rule}: {stderr}"
    );
    assert!(
        stderr.contains(&format!("policy.toml:{line}:1")),
        "expected line {line}: {stderr}"
    );
}

fn installed(home: &TestHome) -> Vec<String> {
    let out = ok(home, &["list", "--json"]);
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    list["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_rule_refuses_an_install_with_its_line_and_installs_nothing() {
    let home = setup();
    write_user_policy(&home, POLICY);
    let local = with_permissions(
        &home.home().join("local"),
        "acme/local",
        "network = \"none\"",
    );
    // The fixture registry again, at a location no configured source names.
    let outside = home.home().join("elsewhere");
    crate::support::copy_tree(&fixtures().join("registry"), &outside);
    for (args, rule, line) in [
        (
            vec![
                "--registry",
                outside.to_str().unwrap(),
                "install",
                "acme/weather",
            ],
            "sources.allow",
            3,
        ),
        (vec!["install", local.to_str().unwrap()], "sources.allow", 3),
        (
            vec!["--registry", "corp", "install", "evil/thing"],
            "publishers.deny",
            5,
        ),
        (
            vec!["--registry", "corp", "install", "acme/banned-maps"],
            "packages.deny",
            7,
        ),
        (
            vec!["--registry", "corp", "install", "acme/wild"],
            "permissions.max.network",
            9,
        ),
        (
            vec!["--registry", "corp", "install", "acme/writer"],
            "permissions.max.write",
            10,
        ),
        (
            vec!["--registry", "corp", "install", "acme/envy"],
            "permissions.max.env",
            11,
        ),
        // The fixture registry is allowed, but its packages declare no permissions.
        (
            vec!["--registry", "fixtures", "install", "acme/weather"],
            "permissions.max.network",
            9,
        ),
    ] {
        let stderr = refused(&home, &args);
        assert_rule(&stderr, rule, line);
        assert!(stderr.contains("nothing was changed"), "{stderr}");
        assert!(installed(&home).is_empty(), "{args:?} installed something");
    }
    // A local folder with a checksum requirement and local allowed: no published digest.
    write_user_policy(&home, "require = \"checksum\"\n");
    assert_rule(
        &refused(&home, &["install", local.to_str().unwrap()]),
        "require",
        1,
    );
    // Signed: the corp registry checks digests but signs nothing.
    write_user_policy(&home, "\n\nrequire = \"signed\"\n");
    let stderr = refused(&home, &["--registry", "corp", "install", "acme/tame"]);
    assert_rule(&stderr, "require", 3);
    assert!(stderr.contains("signs nothing"), "{stderr}");

    write_user_policy(&home, POLICY);
    ok(&home, &["--registry", "corp", "install", "acme/tame"]);
    assert_eq!(installed(&home), ["acme/tame"]);
    // Already installed, but the policy changed: even the no-op install says so.
    write_user_policy(
        &home,
        &POLICY.replace("deny = [\"evil\"]", "deny = [\"acme\"]"),
    );
    assert_rule(
        &refused(&home, &["install", "acme/tame"]),
        "publishers.deny",
        5,
    );
}

#[test]
fn install_server_and_install_skill_write_only_allowed_clients_for_allowed_packages() {
    let home = setup();
    ok(&home, &["--registry", "corp", "install", "acme/tame"]);
    ok(&home, &["--registry", "fixtures", "install", "acme/dev"]);
    write_user_policy(&home, POLICY);

    let cursor = home.home().join(".cursor/mcp.json");
    let stderr = refused(&home, &["install-server", "cursor", "acme/tame/main"]);
    assert_rule(&stderr, "clients.allow", 13);
    assert!(stderr.contains("choose an allowed client"), "{stderr}");
    assert!(!cursor.exists(), "a refused client's file was written");
    ok(&home, &["install-server", "claude-code", "acme/tame/main"]);
    assert!(
        std::fs::read_to_string(home.home().join(".claude.json"))
            .unwrap()
            .contains("acme/tame/main")
    );

    let stderr = refused(&home, &["install-skill", "codex", "acme/dev/review"]);
    assert_rule(&stderr, "clients.allow", 13);
    assert!(!home.home().join(".codex/skills/review").exists());
    // Skills run nothing, so the permission limits leave them alone.
    ok(&home, &["install-skill", "claude-code", "acme/dev/review"]);
    assert!(home.home().join(".claude/skills/review/SKILL.md").is_file());
    // acme/dev was installed before the policy that denies its publisher.
    write_user_policy(
        &home,
        &POLICY.replace("deny = [\"evil\"]", "deny = [\"acme\"]"),
    );
    assert_rule(
        &refused(
            &home,
            &["install-skill", "claude-code", "acme/dev/release-notes"],
        ),
        "publishers.deny",
        5,
    );
    assert!(!home.home().join(".claude/skills/release-notes").exists());
    // A server whose package the policy now refuses gets no entry.
    write_user_policy(
        &home,
        &POLICY.replace("deny = [\"evil\"]", "deny = [\"acme\"]"),
    );
    assert_rule(
        &refused(
            &home,
            &[
                "install-server",
                "claude-code",
                "acme/tame/main",
                "--name",
                "again",
            ],
        ),
        "publishers.deny",
        5,
    );
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"policy-test","version":"1"}}}"#;

/// `agx serve SERVER` given one initialize request: its answer and its stderr.
fn serve(home: &TestHome, extra: &[&str]) -> (serde_json::Value, String, bool) {
    let out = home
        .agx()
        .args(["serve", "acme/tame/main"])
        .args(extra)
        .write_stdin(format!("{INITIALIZE}\n"))
        .output()
        .unwrap();
    let answer = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .expect("an answer to initialize");
    (
        answer,
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn serve_does_not_start_a_server_outside_the_policy_and_tells_the_client_why() {
    let home = setup();
    ok(&home, &["--registry", "corp", "install", "acme/tame"]);
    write_user_policy(&home, POLICY);
    let (answer, _, _) = serve(&home, &[]);
    assert!(answer["result"]["serverInfo"].is_object(), "{answer}");

    let log = home.agx_home().join("logs/acme-tame-main.log");
    for (policy, rule, line) in [
        (
            POLICY.replace("deny = [\"evil\"]", "deny = [\"acme\"]"),
            "publishers.deny",
            5,
        ),
        (
            POLICY.replace("allow = [\"corp\", \"fixtures\"]", "allow = [\"fixtures\"]"),
            "sources.allow",
            3,
        ),
        (
            POLICY.replace("network = \"loopback\"", "network = \"none\""),
            "permissions.max.network",
            9,
        ),
        (
            POLICY.replace("env = [\"ACME_*\"]", "env = [\"OTHER_*\"]"),
            "permissions.max.env",
            11,
        ),
    ] {
        write_user_policy(&home, &policy);
        let (answer, stderr, success) = serve(&home, &[]);
        assert!(!success);
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert_rule(message, rule, line);
        assert_rule(&stderr, rule, line);
        assert_rule(&std::fs::read_to_string(&log).unwrap(), rule, line);
    }
    // What serve would not start does not run through `agx call` or `agx tools` either.
    write_user_policy(
        &home,
        &POLICY.replace("deny = [\"evil\"]", "deny = [\"acme\"]"),
    );
    assert_rule(
        &refused(&home, &["call", "acme/tame/run", "--json", "{}"]),
        "publishers.deny",
        5,
    );
    assert_rule(
        &refused(&home, &["tools", "acme/tame/main"]),
        "publishers.deny",
        5,
    );
    // The sandbox is what holds the permission limits: it may not be turned off.
    write_user_policy(&home, POLICY);
    let (answer, _, success) = serve(&home, &["--no-sandbox"]);
    assert!(!success);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not confined"),
        "{answer}"
    );
}

#[test]
fn a_project_policy_may_tighten_the_users_but_not_loosen_it() {
    let home = setup();
    write_user_policy(&home, POLICY);
    let project = home.home().join("proj");
    std::fs::create_dir_all(&project).unwrap();
    let manifest = project.join("agx.toml");
    let base = "[project]\nclients = [\"claude-code\"]\n[servers]\ntame = { server = \"acme/tame/main\", version = \"^1\" }\n";

    // Tighter: signed only. The sync is refused at the project's line, and writes nothing.
    std::fs::write(&manifest, format!("{base}[policy]\nrequire = \"signed\"\n")).unwrap();
    let stderr = refused_in(&home, &project, &["--registry", "corp", "sync"]);
    assert!(stderr.contains("agx.toml:6:1"), "{stderr}");
    assert!(stderr.contains("`require`"), "{stderr}");
    assert!(
        !project.join("agx.lock").exists(),
        "a refused sync wrote the lock"
    );
    assert!(
        !project.join(".mcp.json").exists(),
        "a refused sync wrote the client file"
    );
    let shown = String::from_utf8(
        home.agx()
            .current_dir(&project)
            .args(["policy", "show"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(shown.contains("agx.toml:6:1 (project)"), "{shown}");
    assert!(shown.contains("policy.toml:3:1 (user)"), "{shown}");

    // Looser: another source, a wider network, another client. Each is refused, naming
    // both places, before anything else happens.
    for (table, rule) in [
        (
            "[policy.sources]\nallow = [\"corp\", \"official\"]\n",
            "sources.allow",
        ),
        (
            "[policy.permissions.max]\nnetwork = \"any\"\n",
            "permissions.max.network",
        ),
        ("[policy]\nrequire = \"any\"\n", "require"),
        (
            "[policy.clients]\nallow = [\"claude-code\", \"cursor\"]\n",
            "clients.allow",
        ),
    ] {
        std::fs::write(&manifest, format!("{base}{table}")).unwrap();
        for args in [
            vec!["--registry", "corp", "sync"],
            vec!["policy", "show"],
            vec!["--registry", "corp", "install", "acme/tame"],
        ] {
            let stderr = refused_in(&home, &project, &args);
            assert!(
                stderr.contains(&format!(
                    "the project policy's `{rule}` loosens the user policy's"
                )),
                "{args:?}: {stderr}"
            );
            assert!(
                stderr.contains("agx.toml:6:1") && stderr.contains("policy.toml:"),
                "{stderr}"
            );
        }
    }
    assert!(installed(&home).is_empty());

    // A project that lists a client the policy refuses: refused before any file is written.
    std::fs::write(
        &manifest,
        base.replace("[\"claude-code\"]", "[\"claude-code\", \"cursor\"]"),
    )
    .unwrap();
    assert_rule(
        &refused_in(&home, &project, &["--registry", "corp", "sync"]),
        "clients.allow",
        13,
    );
    assert!(!project.join(".mcp.json").exists() && !project.join(".cursor/mcp.json").exists());
    std::fs::write(&manifest, base).unwrap();
    ok_in(&home, &project, &["--registry", "corp", "sync"]);
    assert!(project.join(".mcp.json").is_file());
}

fn ok_in(home: &TestHome, cwd: &Path, args: &[&str]) -> String {
    let out = home.agx().current_dir(cwd).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "agx {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_policy_that_does_not_parse_stops_everything_it_governs() {
    let home = setup();
    ok(&home, &["--registry", "corp", "install", "acme/tame"]);
    let project = home.home().join("proj");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("agx.toml"),
        "[project]\nclients = [\"claude-code\"]\n",
    )
    .unwrap();

    write_user_policy(
        &home,
        "[sources]\nallow = [\"corp\"]\nrequire = \"signd\"\n",
    );
    let governed: [&[&str]; 6] = [
        &["--registry", "corp", "install", "acme/tame"],
        &["update"],
        &["sync"],
        &["install-server", "claude-code", "acme/tame/main"],
        &["install-skill", "claude-code", "acme/dev/review"],
        &["policy", "show"],
    ];
    for args in governed {
        let stderr = refused_in(&home, &project, args);
        // The misplaced key: `require` under [sources] is `sources.require`.
        assert!(
            stderr.contains("policy.toml:3:1: unknown policy key `sources.require`"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("stops until the file is fixed"), "{stderr}");
    }
    let (answer, _, success) = serve(&home, &[]);
    assert!(!success);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown policy key"),
        "{answer}"
    );
    // What the policy does not govern still works: the user can look around and fix it.
    ok(&home, &["list"]);

    // The system's file, broken TOML: line and column.
    std::fs::remove_file(user_policy(&home)).unwrap();
    std::fs::write(home.system_policy(), "[sources]\nallow = [\"corp\"\n").unwrap();
    let stderr = refused(&home, &["install", "acme/tame"]);
    assert!(stderr.contains("system-policy.toml:2:"), "{stderr}");
    assert!(stderr.contains("not valid TOML"), "{stderr}");

    // The user's file may not loosen the system's.
    std::fs::write(home.system_policy(), "require = \"signed\"\n").unwrap();
    write_user_policy(&home, "require = \"checksum\"\n");
    let stderr = refused(&home, &["install", "acme/tame"]);
    assert!(
        stderr.contains("the user policy's `require` loosens the system policy's"),
        "{stderr}"
    );
}

#[test]
fn policy_show_lists_each_rule_with_its_file_and_line() {
    let home = setup();
    let shown = ok(&home, &["policy", "show"]);
    assert!(shown.contains("No rules"), "{shown}");
    let stderr = refused(&home, &["policy", "show", "--project", "nowhere"]);
    assert!(stderr.contains("nowhere"), "{stderr}");
    write_user_policy(&home, POLICY);
    std::fs::write(
        home.system_policy(),
        "[sources]\nallow = [\"corp\", \"fixtures\", \"official\"]\n",
    )
    .unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&ok(&home, &["policy", "show", "--json"])).unwrap();
    let rules = json["rules"].as_array().unwrap();
    let at = |rule: &str, layer: &str| {
        rules
            .iter()
            .find(|r| r["rule"] == rule && r["layer"] == layer)
            .map(|r| r["at"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    assert!(at("sources.allow", "system").ends_with("system-policy.toml:2:1"));
    assert!(at("sources.allow", "user").ends_with("policy.toml:3:1"));
    assert!(at("clients.allow", "user").ends_with("policy.toml:13:1"));
    assert_eq!(json["files"][0]["present"], true);
    assert_eq!(json["files"][1]["present"], true);
}
