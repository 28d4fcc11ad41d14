//! A real OCI registry on 127.0.0.1: Debian's `docker-registry` (CNCF distribution), with
//! its storage in a temp folder. `.ci/run` installs it (scripts/ci/oci-tools.sh).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) struct OciRegistry {
    child: Child,
    pub(crate) port: u16,
    dir: tempfile::TempDir,
}

const INSTALL: &str =
    "run scripts/ci/oci-tools.sh (apt-get install docker-registry skopeo apache2-utils openssl)";

/// A program the OCI tests need, or a panic saying how to install it.
pub(crate) fn tool(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("`{name}` is not on PATH: {INSTALL}"))
}

impl OciRegistry {
    /// Start a registry on a free loopback port (plain HTTP, no auth) and wait until it
    /// answers `GET /v2/`.
    pub(crate) fn start() -> OciRegistry {
        Self::start_with(None)
    }

    /// A registry with htpasswd basic auth for `user` and TLS, its certificate signed by a CA
    /// made for the test ([`OciRegistry::ca_file`]).
    pub(crate) fn start_secure(user: &str, password: &str) -> OciRegistry {
        Self::start_with(Some((user, password)))
    }

    fn start_with(secure: Option<(&str, &str)>) -> OciRegistry {
        let program = tool("docker-registry");
        let dir = tempfile::tempdir().unwrap();
        let port = {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let mut config = format!(
            "version: 0.1\nlog:\n  level: info\n  accesslog:\n    disabled: false\nstorage:\n  filesystem:\n    rootdirectory: {}\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:{port}\n",
            dir.path().join("data").display()
        );
        if let Some((user, password)) = secure {
            make_certificates(dir.path());
            config.push_str(&format!(
                "  tls:\n    certificate: {}\n    key: {}\nauth:\n  htpasswd:\n    realm: agx-test\n    path: {}\n",
                dir.path().join("server.crt").display(),
                dir.path().join("server.key").display(),
                dir.path().join("htpasswd").display(),
            ));
            let out = Command::new(tool("htpasswd"))
                .args(["-Bbn", user, password])
                .output()
                .unwrap();
            assert!(out.status.success(), "htpasswd failed");
            std::fs::write(dir.path().join("htpasswd"), out.stdout).unwrap();
        }
        let config_file = dir.path().join("config.yml");
        std::fs::write(&config_file, config).unwrap();
        let config = config_file;
        let log = std::fs::File::create(dir.path().join("registry.log")).unwrap();
        let child = Command::new(program)
            .args(["serve"])
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let registry = OciRegistry { child, port, dir };
        if secure.is_some() {
            registry.wait_until_listening();
        } else {
            registry.wait_until_ready();
        }
        registry
    }

    /// The test's CA certificate (PEM), which signed the registry's.
    pub(crate) fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.crt")
    }

    fn wait_until_listening(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!(
            "docker-registry did not listen on port {}: {}",
            self.port,
            self.log()
        );
    }

    fn wait_until_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", self.port)) {
                use std::io::{Read, Write};
                let _ = stream.write_all(b"GET /v2/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
                let mut answer = String::new();
                let _ = stream.read_to_string(&mut answer);
                if answer.starts_with("HTTP/1.0 200") || answer.starts_with("HTTP/1.1 200") {
                    return;
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!(
            "docker-registry did not answer on port {}: {}",
            self.port,
            self.log()
        );
    }

    /// `HOST:PORT`.
    pub(crate) fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// `oci://HOST:PORT/NAMESPACE`.
    pub(crate) fn source(&self, namespace: &str) -> String {
        format!("oci://{}/{namespace}", self.host())
    }

    /// What the registry logged (its access log included).
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("registry.log")).unwrap_or_default()
    }

    /// Where the registry stores a blob (to tamper with it).
    pub(crate) fn blob_file(&self, sha256: &str) -> PathBuf {
        self.dir
            .path()
            .join("data/docker/registry/v2/blobs/sha256")
            .join(&sha256[..2])
            .join(sha256)
            .join("data")
    }

    pub(crate) fn storage(&self) -> &Path {
        self.dir.path()
    }
}

/// A CA and a server certificate for 127.0.0.1 signed by it, with `openssl`: `ca.crt`,
/// `server.crt`, `server.key` in `dir`.
pub(crate) fn make_certificates(dir: &Path) {
    let openssl = tool("openssl");
    let run = |args: &[&str]| {
        let out = Command::new(&openssl)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&[
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=agx test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    run(&[
        "req",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "2",
        "-extfile",
        "server.ext",
    ]);
}

impl Drop for OciRegistry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `skopeo` with TLS checks off for the loopback registry, its output as text (panics with
/// stderr on failure).
pub(crate) fn skopeo(args: &[&str]) -> String {
    let out = Command::new(tool("skopeo"))
        .args(args)
        .env("HOME", std::env::temp_dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "skopeo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
