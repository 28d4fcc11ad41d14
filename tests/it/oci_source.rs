//! OCI registries as package sources, against a real registry (Debian's `docker-registry`)
//! on 127.0.0.1, with `skopeo` as the independent client that reads what agx pushed and
//! pushes what agx installs (docs/organizations.md).

use serde_json::Value;

use crate::support::oci_registry::{OciRegistry, skopeo};
use crate::support::{TestHome, copy_tree, files_holding, fixtures};

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

fn fixture(name: &str) -> String {
    fixtures().join("packages").join(name).display().to_string()
}

fn ok(home: &TestHome, args: &[&str]) -> String {
    let out = home.agx().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "agx {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fails(home: &TestHome, args: &[&str]) -> String {
    let out = home.agx().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "agx {args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Publish `package` to `to`; its `--json` report.
fn publish(home: &TestHome, package: &str, to: &str) -> Value {
    let out = ok(home, &["publish", package, "--to", to, "--json"]);
    serde_json::from_str(&out).unwrap()
}

fn receipt(home: &TestHome, name: &str) -> String {
    std::fs::read_to_string(home.agx_home().join(format!("receipts-v1/{name}.toml"))).unwrap()
}

#[test]
fn a_published_package_installs_from_the_registry_and_skopeo_reads_it() {
    let registry = OciRegistry::start();
    let home = TestHome::new();
    let source = registry.source("corp/agx");
    let added = home
        .agx()
        .args(["registry", "add-source", "corp", &source])
        .output()
        .unwrap();
    assert!(added.status.success());
    assert!(String::from_utf8_lossy(&added.stderr).contains("registry `corp` (oci)"));

    publish(&home, &fixture("acme-geo"), "corp");
    let old = publish(&home, &fixture("acme-weather-1.1.0"), "corp");
    let weather = publish(&home, &fixture("acme-weather"), "corp");
    assert_eq!(weather["published"], true);
    assert_eq!(weather["version"], "1.2.0");
    // Publishing the same bytes again pushes nothing.
    let again = publish(&home, &fixture("acme-weather"), "corp");
    assert_eq!(again["published"], false);
    assert_eq!(again["manifest"], weather["manifest"]);

    // Resolved from the tags (^1 picks 1.2.0 over 1.1.0), the dependency too.
    ok(&home, &["install", "acme/weather@^1"]);
    let installed = receipt(&home, "acme/weather");
    assert!(
        installed.contains("version = \"1.2.0\"")
            && installed.contains(&format!(
                "sha256 = \"{}\"",
                weather["sha256"].as_str().unwrap()
            ))
            && installed.contains(&format!("registry = \"{source}\"")),
        "{installed}"
    );
    assert!(receipt(&home, "acme/geo").contains("version = \"1.0.0\""));
    // The blob was fetched by its digest.
    let log = registry.log();
    let sha = weather["sha256"].as_str().unwrap();
    assert!(
        log.contains(&format!("/v2/corp/agx/acme/weather/blobs/sha256:{sha}")),
        "{log}"
    );
    assert!(!log.contains(&format!("blobs/sha256:{}", old["sha256"].as_str().unwrap())));

    // Search and list --include-remote read the registry's catalog.
    let found = ok(&home, &["search", "forecast"]);
    assert!(found.contains("acme/weather 1.2.0"), "{found}");

    // skopeo reads the artifact agx pushed: plain OCI, its layer the archive.
    let reference = format!("docker://{}/corp/agx/acme/weather:1.2.0", registry.host());
    let raw: Value = serde_json::from_str(&skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--raw",
        &reference,
    ]))
    .unwrap();
    assert_eq!(raw["artifactType"], "application/vnd.agx.package.v1");
    assert_eq!(
        raw["layers"][0]["mediaType"],
        "application/vnd.agx.package.layer.v1.tar+gzip"
    );
    assert_eq!(raw["layers"][0]["digest"], format!("sha256:{sha}"));
    assert_eq!(
        raw["annotations"]["org.opencontainers.image.version"],
        "1.2.0"
    );
    let tags: Value = serde_json::from_str(&skopeo(&[
        "list-tags",
        "--tls-verify=false",
        &format!("docker://{}/corp/agx/acme/weather", registry.host()),
    ]))
    .unwrap();
    assert_eq!(tags["Tags"], serde_json::json!(["1.1.0", "1.2.0"]));
    let copied = tempfile::tempdir().unwrap();
    let dir = copied.path().join("weather");
    skopeo(&[
        "copy",
        "--src-tls-verify=false",
        &reference,
        &format!("dir:{}", dir.display()),
    ]);
    assert_eq!(sha256_hex(&std::fs::read(dir.join(sha)).unwrap()), sha);

    // What skopeo pushes in the same form (under another namespace) installs too.
    for (package, tag) in [("geo", "1.0.0"), ("weather", "1.2.0")] {
        skopeo(&[
            "copy",
            "--src-tls-verify=false",
            "--dest-tls-verify=false",
            &format!("docker://{}/corp/agx/acme/{package}:{tag}", registry.host()),
            &format!("docker://{}/mirror/acme/{package}:{tag}", registry.host()),
        ]);
    }
    let other = TestHome::new();
    let mirror = registry.source("mirror");
    ok(&other, &["--registry", &mirror, "install", "acme/weather"]);
    assert!(receipt(&other, "acme/weather").contains(&format!("registry = \"{mirror}\"")));
}

#[test]
fn a_published_version_is_never_replaced_and_a_tampered_archive_installs_nothing() {
    let registry = OciRegistry::start();
    let home = TestHome::new();
    let source = registry.source("corp");
    ok(&home, &["registry", "add-source", "corp", &source]);
    let geo = publish(&home, &fixture("acme-geo"), "corp");
    let manifest_before = skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--raw",
        &format!("docker://{}/corp/acme/geo:1.0.0", registry.host()),
    ]);

    // The same version with other content: refused, the tag keeps its archive.
    let changed = tempfile::tempdir().unwrap();
    let copy = changed.path().join("geo");
    copy_tree(&fixtures().join("packages/acme-geo"), &copy);
    let manifest = copy.join("agx.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("Geocoding", "Geocoding, changed", 1),
    )
    .unwrap();
    let err = fails(&home, &["publish", copy.to_str().unwrap(), "--to", "corp"]);
    assert!(
        err.contains("acme/geo:1.0.0 already holds another archive")
            && err.contains("raise the version"),
        "{err}"
    );
    let manifest_after = skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--raw",
        &format!("docker://{}/corp/acme/geo:1.0.0", registry.host()),
    ]);
    assert_eq!(manifest_before, manifest_after);

    // The registry's copy of the archive altered (same size): the install is refused and the
    // store stays empty.
    let sha = geo["sha256"].as_str().unwrap();
    let blob = registry.blob_file(sha);
    let mut bytes = std::fs::read(&blob).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&blob, &bytes).unwrap();
    let err = fails(&home, &["install", "acme/geo"]);
    assert!(err.contains("checksum mismatch"), "{err}");
    assert!(!home.agx_home().join("receipts-v1/acme/geo.toml").exists());
    assert!(!home.agx_home().join("store-v1/acme/geo").exists());

    // A package the registry does not have, and a source that is not a registry.
    let err = fails(&home, &["install", "acme/nothing"]);
    assert!(err.contains("acme/nothing is not in the registry"), "{err}");
    let err = fails(
        &home,
        &["registry", "add-source", "bad", "oci://127.0.0.1:1/x"],
    );
    assert!(err.contains("127.0.0.1:1"), "{err}");
    let err = fails(
        &home,
        &["registry", "add-source", "bad", "oci://host/UPPER"],
    );
    assert!(err.contains("not a repository name"), "{err}");
}

#[test]
fn a_projects_lock_records_the_oci_source_and_digest_and_syncs_elsewhere() {
    let registry = OciRegistry::start();
    let home = TestHome::new();
    let source = registry.source("corp");
    ok(&home, &["registry", "add-source", "corp", &source]);
    let geo = publish(&home, &fixture("acme-geo"), "corp");
    let project = tempfile::tempdir().unwrap();
    let run = |home: &TestHome, args: &[&str]| {
        let out = home
            .agx()
            .args(args)
            .current_dir(project.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "agx {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&home, &["add", "acme/geo/geo"]);
    let lock = std::fs::read_to_string(project.path().join("agx.lock")).unwrap();
    assert!(
        lock.contains(&source) && lock.contains(geo["sha256"].as_str().unwrap()),
        "{lock}"
    );
    // Another machine with no source configured syncs from the locked location.
    let other = TestHome::new();
    run(&other, &["sync", "--frozen"]);
    assert!(
        other
            .agx_home()
            .join("store-v1/acme/geo/1.0.0/agx.toml")
            .is_file()
    );
}

/// A password no file, log or output may hold.
const CANARY: &str = "canary-pw-7f3a9c21d4";

fn agx_with(
    home: &TestHome,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: &str,
) -> std::process::Output {
    let mut cmd = home.agx();
    cmd.args(args).env("AGX_KEYRING", "file").write_stdin(stdin);
    for (key, value) in env {
        cmd.env(key, value);
    }
    cmd.output().unwrap()
}

#[test]
fn a_private_registry_over_tls_takes_the_login_and_the_password_goes_nowhere_else() {
    let registry = OciRegistry::start_secure("agx-ci", CANARY);
    let home = TestHome::new();
    let source = registry.source("corp");
    let ca = registry.ca_file();
    let ca = ca.to_str().unwrap();

    // Without --ca the registry's certificate is not trusted; with it, the source is added
    // (a 401 is an answer) and remembered as HTTPS.
    let err = fails(&home, &["registry", "add-source", "corp", &source]);
    assert!(err.contains(&registry.host()), "{err}");
    ok(
        &home,
        &["registry", "add-source", "corp", &source, "--ca", ca],
    );
    let config = std::fs::read_to_string(home.agx_home().join("config.toml")).unwrap();
    assert!(
        config.contains("plain-http = false") && config.contains("ca = "),
        "{config}"
    );

    // No credential: refused, saying how to give one.
    let geo = fixture("acme-geo");
    let err = fails(&home, &["publish", &geo, "--to", "corp"]);
    assert!(
        err.contains("no credential was found")
            && err.contains(&format!("agx login {}", registry.host()))
            && err.contains("AGX_TOKEN__CORP"),
        "{err}"
    );
    // A wrong password: refused, naming where it came from (never the password).
    let out = agx_with(
        &home,
        &["login", "corp", "-u", "agx-ci", "--password-stdin"],
        &[],
        "wrong\n",
    );
    assert!(out.status.success());
    let out = agx_with(&home, &["publish", &geo, "--to", "corp"], &[], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("with the credential from `agx login"),
        "{err}"
    );
    // The right one.
    let out = agx_with(
        &home,
        &["login", "corp", "-u", "agx-ci", "--password-stdin"],
        &[],
        &format!("{CANARY}\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = agx_with(&home, &["-v", "publish", &geo, "--to", "corp"], &[], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = agx_with(&home, &["-v", "install", "acme/geo"], &[], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for stream in [&out.stdout, &out.stderr] {
        assert!(!String::from_utf8_lossy(stream).contains(CANARY));
    }
    assert!(
        registry.log().contains("auth.user.name=agx-ci"),
        "{}",
        registry.log()
    );

    // The password is in the secrets file (owner-only), and in no other file of the home.
    let secrets = home.agx_home().join("config/secrets-v1.toml");
    let holding = files_holding(home.home(), CANARY);
    assert!(
        holding
            .iter()
            .all(|p| p.file_name() == Some("secrets-v1.toml".as_ref()))
            && !holding.is_empty(),
        "{holding:?} ({})",
        secrets.display()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&holding[0]).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
    }

    // CI: a token in AGX_TOKEN__CORP (with its user), for a home with no login.
    let ci = TestHome::new();
    ok(
        &ci,
        &["registry", "add-source", "corp", &source, "--ca", ca],
    );
    let out = agx_with(
        &ci,
        &["install", "acme/geo"],
        &[
            ("AGX_TOKEN__CORP", CANARY),
            ("AGX_USERNAME__CORP", "agx-ci"),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(files_holding(ci.home(), CANARY).is_empty());

    // Docker's config.json, for another home.
    let docker = TestHome::new();
    std::fs::create_dir_all(docker.home().join(".docker")).unwrap();
    let auth = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(format!("agx-ci:{CANARY}"))
    };
    std::fs::write(
        docker.home().join(".docker/config.json"),
        format!(
            r#"{{"auths": {{"{}": {{"auth": "{auth}"}}}}}}"#,
            registry.host()
        ),
    )
    .unwrap();
    ok(
        &docker,
        &["registry", "add-source", "corp", &source, "--ca", ca],
    );
    ok(&docker, &["install", "acme/geo"]);

    // Logout forgets it: the next request is refused again.
    let out = agx_with(&home, &["logout", "corp"], &[], "");
    assert!(out.status.success());
    assert!(files_holding(home.home(), CANARY).is_empty());
    let out = agx_with(&home, &["install", "acme/geo", "--force"], &[], "");
    assert!(!out.status.success());
}

/// A front for the registry on another port of 127.0.0.1: it passes every request through
/// (one per connection), except blob downloads, which it redirects to `localhost` on a
/// second port (another host to the client, as a registry's blob store is) that serves the
/// blob from the registry. Both sides record the `Authorization` headers they receive.
struct RedirectingFront {
    port: u16,
    front_auth: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    store_auth: std::sync::Arc<std::sync::Mutex<Vec<Option<String>>>>,
}

/// Read one HTTP request head from `stream`: the request line and headers, as text.
fn read_head(stream: &mut std::net::TcpStream) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            // A TLS handshake (agx tries HTTPS first on loopback): not HTTP, closed at once.
            Ok(1) if head.is_empty() && byte[0] == 0x16 => return None,
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    Some(String::from_utf8_lossy(&head).into_owned())
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

impl RedirectingFront {
    fn start(registry_port: u16) -> RedirectingFront {
        use std::io::{Read, Write};
        use std::net::{TcpListener, TcpStream};
        let front = TcpListener::bind("127.0.0.1:0").unwrap();
        let store = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = front.local_addr().unwrap().port();
        let store_port = store.local_addr().unwrap().port();
        let front_auth = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let store_auth = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        // Pass a request head (GETs and HEADs only: installs send no body) to the registry
        // and its whole answer back, one request per connection.
        let pass = move |head: &str| -> Vec<u8> {
            let mut upstream = TcpStream::connect(("127.0.0.1", registry_port)).unwrap();
            let head = head.replacen("\r\n", "\r\nConnection: close\r\n", 1);
            upstream.write_all(head.as_bytes()).unwrap();
            let mut answer = Vec::new();
            upstream.read_to_end(&mut answer).unwrap();
            answer
        };
        let pass = std::sync::Arc::new(pass);
        let seen = front_auth.clone();
        let forward = pass.clone();
        std::thread::spawn(move || {
            for stream in front.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (seen, forward) = (seen.clone(), forward.clone());
                // A thread per connection: a client may open one and use another first.
                std::thread::spawn(move || {
                    let Some(head) = read_head(&mut stream) else {
                        return;
                    };
                    if let Some(auth) = header(&head, "authorization") {
                        seen.lock().unwrap().push(auth.to_string());
                    }
                    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
                    let answer = if path.contains("/blobs/sha256:") {
                        format!(
                            "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://localhost:{store_port}{path}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        )
                        .into_bytes()
                    } else {
                        forward(&head)
                    };
                    let _ = stream.write_all(&answer);
                });
            }
        });
        let seen = store_auth.clone();
        std::thread::spawn(move || {
            for stream in store.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (seen, pass) = (seen.clone(), pass.clone());
                std::thread::spawn(move || {
                    let Some(head) = read_head(&mut stream) else {
                        return;
                    };
                    seen.lock()
                        .unwrap()
                        .push(header(&head, "authorization").map(str::to_string));
                    // The blob store serves what the registry holds, asked without credentials.
                    let clean: String = head
                        .lines()
                        .filter(|l| !l.to_ascii_lowercase().starts_with("authorization:"))
                        .map(|l| format!("{l}\r\n"))
                        .collect();
                    let _ = stream.write_all(&pass(&format!("{}\r\n\r\n", clean.trim_end())));
                });
            }
        });
        RedirectingFront {
            port,
            front_auth,
            store_auth,
        }
    }
}

#[test]
fn a_credential_is_not_sent_to_the_host_a_registry_redirects_to() {
    let registry = OciRegistry::start();
    let publisher = TestHome::new();
    ok(
        &publisher,
        &["registry", "add-source", "corp", &registry.source("corp")],
    );
    publish(&publisher, &fixture("acme-geo"), "corp");

    let front = RedirectingFront::start(registry.port);
    let home = TestHome::new();
    let source = format!("oci://127.0.0.1:{}/corp", front.port);
    ok(&home, &["registry", "add-source", "corp", &source]);
    let out = agx_with(
        &home,
        &["install", "acme/geo"],
        &[("AGX_TOKEN__CORP", CANARY)],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The token went to the registry's host with every request, and the blob came from
    // the other host, asked without it.
    let front_auth = front.front_auth.lock().unwrap().clone();
    assert!(
        !front_auth.is_empty() && front_auth.iter().all(|a| a == &format!("Bearer {CANARY}")),
        "{front_auth:?}"
    );
    let store_auth = front.store_auth.lock().unwrap().clone();
    assert_eq!(store_auth, [None], "the blob store saw {store_auth:?}");
    assert!(receipt(&home, "acme/geo").contains(&format!("registry = \"{source}\"")));
}

/// A skill folder `review` in `parent`, with front matter `extra` lines.
fn skill_folder(parent: &std::path::Path, extra: &str) -> std::path::PathBuf {
    let dir = parent.join("review");
    crate::support::write_files(
        &dir,
        &[
            (
                "SKILL.md",
                &format!(
                    "---\nname: review\ndescription: Review a change before it is merged.\n{extra}---\nRead the diff, then [the guide](references/guide.md).\n"
                ),
            ),
            ("references/guide.md", "Check the tests first.\n"),
        ],
    );
    dir
}

#[test]
fn a_skill_published_in_toolhives_form_installs_into_the_clients_and_skopeo_reads_it() {
    let registry = OciRegistry::start();
    let home = TestHome::new();
    ok(
        &home,
        &["registry", "add-source", "corp", &registry.source("corp")],
    );
    let work = tempfile::tempdir().unwrap();
    let skill = skill_folder(
        work.path(),
        "version: 1.0.0\nlicense: MIT\nallowed-tools: Read Grep\n",
    );
    let skill = skill.to_str().unwrap();
    let published: Value = serde_json::from_str(&ok(
        &home,
        &["publish", skill, "--skill", "--to", "corp", "--json"],
    ))
    .unwrap();
    assert_eq!(published["name"], "skills/review");
    assert_eq!(published["version"], "1.0.0");
    assert_eq!(published["published"], true);
    let again: Value = serde_json::from_str(&ok(
        &home,
        &["publish", skill, "--skill", "--to", "corp", "--json"],
    ))
    .unwrap();
    assert_eq!(again["published"], false);
    assert_eq!(
        again["manifest"], published["manifest"],
        "the index's digest"
    );

    // skopeo reads ToolHive's form: an index of two platforms, each an image manifest whose
    // config's labels repeat the front matter and whose one layer is the skill.
    let repository = format!("docker://{}/corp/skills/review", registry.host());
    let raw = |reference: &str| -> Value {
        serde_json::from_str(&skopeo(&[
            "inspect",
            "--tls-verify=false",
            "--raw",
            reference,
        ]))
        .unwrap()
    };
    let index = raw(&format!("{repository}:1.0.0"));
    assert_eq!(
        index["mediaType"],
        "application/vnd.oci.image.index.v1+json"
    );
    assert_eq!(index["artifactType"], "dev.toolhive.skills.v1");
    let platforms: Vec<&str> = index["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["platform"]["architecture"].as_str().unwrap())
        .collect();
    assert_eq!(platforms, ["amd64", "arm64"]);
    let digest = index["manifests"][1]["digest"].as_str().unwrap();
    let manifest = raw(&format!("{repository}@{digest}"));
    assert_eq!(manifest["artifactType"], "dev.toolhive.skills.v1");
    assert_eq!(
        manifest["layers"][0]["digest"],
        format!("sha256:{}", published["sha256"].as_str().unwrap())
    );
    let config: Value = serde_json::from_str(&skopeo(&[
        "inspect",
        "--tls-verify=false",
        "--config",
        "--raw",
        &format!("{repository}@{digest}"),
    ]))
    .unwrap();
    let labels = &config["config"]["Labels"];
    assert_eq!(labels["dev.toolhive.skills.name"], "review");
    assert_eq!(
        labels["dev.toolhive.skills.files"],
        r#"["SKILL.md","references/guide.md"]"#
    );
    assert_eq!(
        labels["dev.toolhive.skills.allowedTools"],
        r#"["Read","Grep"]"#
    );
    assert_eq!(config["architecture"], "arm64");

    // Installed as the package skills/review, then copied into the clients' folders.
    ok(&home, &["install", "skills/review"]);
    assert!(receipt(&home, "skills/review").contains(&format!(
        "sha256 = \"{}\"",
        published["sha256"].as_str().unwrap()
    )));
    ok(&home, &["install-skill", "all", "skills/review/review"]);
    for folder in [".claude/skills/review", ".agents/skills/review"] {
        let copy = home.home().join(folder);
        assert_eq!(
            std::fs::read_to_string(copy.join("references/guide.md")).unwrap(),
            "Check the tests first.\n"
        );
        assert!(
            std::fs::read_to_string(copy.join("SKILL.md"))
                .unwrap()
                .contains("name: review")
        );
    }

    // The same version with other content is refused; the tag keeps its skill.
    let changed = tempfile::tempdir().unwrap();
    let other = skill_folder(changed.path(), "version: 1.0.0\n");
    let err = fails(
        &home,
        &[
            "publish",
            other.to_str().unwrap(),
            "--skill",
            "--to",
            "corp",
        ],
    );
    assert!(err.contains("already holds another archive"), "{err}");
    assert_eq!(raw(&format!("{repository}:1.0.0")), index);

    // Without a version anywhere, the error says how to give one; --skill-version does.
    let bare = tempfile::tempdir().unwrap();
    let unversioned = skill_folder(bare.path(), "");
    let unversioned = unversioned.to_str().unwrap();
    let err = fails(&home, &["publish", unversioned, "--skill", "--to", "corp"]);
    assert!(
        err.contains("no version") && err.contains("--skill-version"),
        "{err}"
    );
    ok(
        &home,
        &[
            "publish",
            unversioned,
            "--skill",
            "--skill-version",
            "2.0.0",
            "--publisher",
            "team",
            "--to",
            "corp",
        ],
    );
    ok(&home, &["install", "team/review@^2"]);

    // Not a skill, or not an OCI registry: refused before anything is pushed.
    let err = fails(
        &home,
        &["publish", &fixture("acme-geo"), "--skill", "--to", "corp"],
    );
    assert!(err.contains("no SKILL.md at its root"), "{err}");
    let folder = tempfile::tempdir().unwrap();
    ok(
        &home,
        &["registry", "init", folder.path().to_str().unwrap()],
    );
    let err = fails(
        &home,
        &[
            "publish",
            skill,
            "--skill",
            "--to",
            folder.path().to_str().unwrap(),
        ],
    );
    assert!(err.contains("not one"), "{err}");
}
