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

const INSTALL: &str = "run scripts/ci/oci-tools.sh (apt-get install docker-registry skopeo)";

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
    /// Start a registry on a free loopback port and wait until it answers `GET /v2/`.
    pub(crate) fn start() -> OciRegistry {
        let program = tool("docker-registry");
        let dir = tempfile::tempdir().unwrap();
        let port = {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let config = dir.path().join("config.yml");
        std::fs::write(
            &config,
            format!(
                "version: 0.1\nlog:\n  level: info\n  accesslog:\n    disabled: false\nstorage:\n  filesystem:\n    rootdirectory: {}\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:{port}\n",
                dir.path().join("data").display()
            ),
        )
        .unwrap();
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
        registry.wait_until_ready();
        registry
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
