//! Credentials for a registry host (docs/organizations.md, "Credentials"), looked up in this
//! order, the first found used:
//!
//! 1. `AGX_TOKEN__<SOURCE>` (CI): a token, with `AGX_USERNAME__<SOURCE>` when the registry
//!    wants a user name beside it;
//! 2. what `agx login` stored (the keyring, or the owner-only secrets file);
//! 3. Docker's `config.json` (`$DOCKER_CONFIG` or `~/.docker`): `credHelpers` for the host,
//!    its `auths` entry, else `credsStore` (`docker-credential-NAME get`);
//! 4. `~/.netrc` (`$NETRC`; `_netrc` on Windows).
//!
//! A credential is never logged, written into a receipt, lock, cache key or client file, or
//! shown in an error: only where it came from is.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use base64::Engine;

use super::IndexError;
use agx_core::paths::AgxPaths;
use agx_model::settings::store::SettingsStore;

/// A user name and password (or token used as one), or a bare token.
#[derive(Clone, PartialEq, Eq)]
pub enum Credential {
    Basic { username: String, password: String },
    Token(String),
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credential::Basic { username, .. } => write!(f, "Basic({username}, [redacted])"),
            Credential::Token(_) => write!(f, "Token([redacted])"),
        }
    }
}

/// A credential and where it came from (for messages: never the value).
#[derive(Debug, Clone)]
pub struct Found {
    pub credential: Credential,
    pub from: String,
}

/// `AGX_TOKEN__<SOURCE>`: the source's name in uppercase, `-` as `_`.
pub fn token_var(source: &str) -> String {
    format!("AGX_TOKEN__{}", env_part(source))
}

fn env_part(source: &str) -> String {
    source
        .chars()
        .map(|c| match c {
            '-' | '.' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// The credential for `host` (`HOST[:PORT]`) of the configured source `source`, if any.
pub fn lookup(
    paths: &AgxPaths,
    source: Option<&str>,
    host: &str,
) -> Result<Option<Found>, IndexError> {
    if let Some(name) = source {
        let var = token_var(name);
        if let Some(token) = std::env::var(&var).ok().filter(|t| !t.is_empty()) {
            let user = format!("AGX_USERNAME__{}", env_part(name));
            let credential = match std::env::var(&user).ok().filter(|u| !u.is_empty()) {
                Some(username) => Credential::Basic {
                    username,
                    password: token,
                },
                None => Credential::Token(token),
            };
            return Ok(Some(Found {
                credential,
                from: var,
            }));
        }
    }
    let store = SettingsStore::open(paths).map_err(settings_error)?;
    if let Some((username, secret)) = store.registry_credential(host).map_err(settings_error)? {
        let credential = match username {
            Some(username) => Credential::Basic {
                username,
                password: secret,
            },
            None => Credential::Token(secret),
        };
        return Ok(Some(Found {
            credential,
            from: format!("`agx login {host}` ({})", store.secrets().location()),
        }));
    }
    if let Some(found) = docker_config(host)? {
        return Ok(Some(found));
    }
    Ok(netrc(host))
}

/// The host `agx login TARGET` stores for: a configured source's host, or TARGET itself
/// when it is a host (`HOST[:PORT]`, no scheme or path).
pub fn host_of(paths: &AgxPaths, target: &str) -> Result<String, IndexError> {
    let config = super::source::read_config(paths)?;
    if let Some(entry) = config.registries.get(target) {
        return match super::Source::parse(&entry.url)? {
            super::Source::Oci(location) => Ok(location.registry),
            super::Source::Http(url) => super::http::host_of(&url).ok_or(IndexError::InvalidUrl {
                url,
                reason: "it names no host".into(),
            }),
            super::Source::Folder(path) => Err(IndexError::Credentials {
                message: format!(
                    "`{target}` is the folder {}: a folder needs no credential",
                    path.display()
                ),
            }),
        };
    }
    let valid = !target.is_empty()
        && !target.contains("://")
        && !target.contains('/')
        && target
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    if !valid {
        return Err(IndexError::Credentials {
            message: format!(
                "`{target}` is neither a configured source (`agx registry sources`) nor a host such as ghcr.io or 127.0.0.1:5000"
            ),
        });
    }
    Ok(target.to_ascii_lowercase())
}

/// Store a credential for `host` (`agx login`); where it was stored.
pub fn login(paths: &AgxPaths, host: &str, credential: &Credential) -> Result<String, IndexError> {
    let store = SettingsStore::open(paths).map_err(settings_error)?;
    let location = match credential {
        Credential::Basic { username, password } => {
            store.set_registry_credential(host, Some(username), password)
        }
        Credential::Token(token) => store.set_registry_credential(host, None, token),
    }
    .map_err(settings_error)?;
    Ok(location.to_string())
}

/// Forget `host`'s stored credential (`agx logout`); whether there was one.
pub fn logout(paths: &AgxPaths, host: &str) -> Result<bool, IndexError> {
    SettingsStore::open(paths)
        .map_err(settings_error)?
        .remove_registry_credential(host)
        .map_err(settings_error)
}

fn settings_error(e: agx_model::settings::SettingsError) -> IndexError {
    IndexError::Credentials {
        message: e.to_string(),
    }
}

fn user_home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// A Docker `auths` / `credHelpers` key names a host, sometimes as a URL
/// (`https://index.docker.io/v1/`).
fn key_host(key: &str) -> &str {
    let rest = key.split_once("://").map_or(key, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest)
}

fn docker_config(host: &str) -> Result<Option<Found>, IndexError> {
    let dir = match std::env::var_os("DOCKER_CONFIG").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => match user_home() {
            Some(home) => home.join(".docker"),
            None => return Ok(None),
        },
    };
    let path = dir.join("config.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(agx_core::io_context::at("read", &path)(e).into()),
    };
    let config: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| IndexError::Credentials {
            message: format!("{} is not valid JSON: {e}", path.display()),
        })?;
    let entry = |table: &str| {
        config[table].as_object().and_then(|t| {
            t.iter()
                .find(|(key, _)| key_host(key).eq_ignore_ascii_case(host))
                .map(|(_, v)| v.clone())
        })
    };
    if let Some(helper) = entry("credHelpers").and_then(|h| h.as_str().map(str::to_string)) {
        return helper_get(&helper, host);
    }
    if let Some(auth) = entry("auths") {
        if let Some(token) = auth["identitytoken"].as_str().filter(|t| !t.is_empty()) {
            return Ok(Some(Found {
                credential: Credential::Token(token.to_string()),
                from: path.display().to_string(),
            }));
        }
        if let Some(encoded) = auth["auth"].as_str().filter(|a| !a.is_empty()) {
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(encoded.trim())
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            let Some((username, password)) = decoded.as_deref().and_then(|d| d.split_once(':'))
            else {
                return Err(IndexError::Credentials {
                    message: format!(
                        "{}: the `auth` of {host} is not base64 of `user:password`",
                        path.display()
                    ),
                });
            };
            return Ok(Some(Found {
                credential: Credential::Basic {
                    username: username.to_string(),
                    password: password.to_string(),
                },
                from: path.display().to_string(),
            }));
        }
    }
    match config["credsStore"].as_str().filter(|s| !s.is_empty()) {
        Some(store) => helper_get(store, host),
        None => Ok(None),
    }
}

/// Ask `docker-credential-NAME get` for `host`'s credential (the Docker credential-helper
/// protocol: the server on stdin, `{"Username", "Secret"}` on stdout). A helper that is
/// missing or has none is no credential; its output is never shown.
fn helper_get(name: &str, host: &str) -> Result<Option<Found>, IndexError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(IndexError::Credentials {
            message: format!("`{name}` is not a credential helper name"),
        });
    }
    let program = format!("docker-credential-{name}");
    let Some(path) = agx_core::paths::find_on_path(&program) else {
        tracing::debug!("{program} is not on PATH; no credential from it");
        return Ok(None);
    };
    let child = Command::new(&path)
        .arg("get")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return Ok(None);
    };
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(host.as_bytes());
    }
    let Ok(out) = child.wait_with_output() else {
        return Ok(None);
    };
    if !out.status.success() {
        return Ok(None);
    }
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let (Some(username), Some(secret)) = (answer["Username"].as_str(), answer["Secret"].as_str())
    else {
        return Ok(None);
    };
    let credential = if username == "<token>" {
        Credential::Token(secret.to_string())
    } else {
        Credential::Basic {
            username: username.to_string(),
            password: secret.to_string(),
        }
    };
    Ok(Some(Found {
        credential,
        from: program,
    }))
}

/// `machine HOST login USER password PASS` (or `default`) in the netrc file.
fn netrc(host: &str) -> Option<Found> {
    let path = match std::env::var_os("NETRC").filter(|p| !p.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => user_home()?.join(if cfg!(windows) { "_netrc" } else { ".netrc" }),
    };
    let text = std::fs::read_to_string(&path).ok()?;
    let entries = netrc_entries(&text);
    let bare = host
        .rsplit_once(':')
        .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
        .map_or(host, |(h, _)| h);
    let named = |name: &str| name.eq_ignore_ascii_case(host) || name.eq_ignore_ascii_case(bare);
    let entry = entries
        .iter()
        .find(|e| e.machine.as_deref().is_some_and(named))
        .or_else(|| entries.iter().find(|e| e.machine.is_none()))?;
    let password = entry.password.clone()?;
    Some(Found {
        credential: match &entry.login {
            Some(username) => Credential::Basic {
                username: username.clone(),
                password,
            },
            None => Credential::Token(password),
        },
        from: path.display().to_string(),
    })
}

/// One `machine` (or `default`, `machine: None`) of a netrc file.
#[derive(Debug, Default, PartialEq)]
struct NetrcEntry {
    machine: Option<String>,
    login: Option<String>,
    password: Option<String>,
}

fn netrc_entries(text: &str) -> Vec<NetrcEntry> {
    let mut entries: Vec<NetrcEntry> = Vec::new();
    let mut words = text.split_whitespace();
    while let Some(word) = words.next() {
        match word {
            "machine" => entries.push(NetrcEntry {
                machine: words.next().map(str::to_string),
                ..NetrcEntry::default()
            }),
            "default" => entries.push(NetrcEntry::default()),
            "login" | "password" => {
                let value = words.next().map(str::to_string);
                if let Some(entry) = entries.last_mut() {
                    if word == "login" {
                        entry.login = value;
                    } else {
                        entry.password = value;
                    }
                }
            }
            // A macro runs to the end of the file here: nothing after it is read.
            "macdef" => break,
            _ => {}
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docker_keys_name_hosts() {
        assert_eq!(key_host("https://index.docker.io/v1/"), "index.docker.io");
        assert_eq!(key_host("ghcr.io"), "ghcr.io");
        assert_eq!(key_host("127.0.0.1:5000"), "127.0.0.1:5000");
    }

    #[test]
    fn token_variables_name_the_source() {
        assert_eq!(token_var("corp"), "AGX_TOKEN__CORP");
        assert_eq!(token_var("my-corp.eu"), "AGX_TOKEN__MY_CORP_EU");
    }

    #[test]
    fn netrc_entries_are_read_per_machine_and_default() {
        let entries = netrc_entries(
            "machine a.example login u password p\ndefault login d password q\nmachine b password t",
        );
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[0].machine.as_deref(), Some("a.example"));
        assert_eq!(entries[1].machine, None);
        assert_eq!(entries[2].login, None);
        assert_eq!(entries[2].password.as_deref(), Some("t"));
    }

    #[test]
    fn credentials_never_show_in_debug() {
        let basic = Credential::Basic {
            username: "u".into(),
            password: "hunter2".into(),
        };
        assert!(!format!("{basic:?}").contains("hunter2"));
        assert!(!format!("{:?}", Credential::Token("hunter2".into())).contains("hunter2"));
    }
}
