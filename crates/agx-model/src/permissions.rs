//! What a server may touch: the paths it reads and writes, its network and the variables it
//! receives (docs/sandbox.md). Declared in a package's `[extension.permissions]` (or a
//! server's own `permissions`), written with placeholders, and resolved to real paths for
//! one run.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The placeholders a permission path may start with.
pub const PLACEHOLDERS: [&str; 5] = ["{package}", "{data}", "{project}", "{home}", "{tmp}"];

/// What a package (or one of its servers) declares it needs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Permissions {
    /// Paths it reads (besides its package and the system's runtime folders).
    #[serde(default)]
    pub read: Vec<String>,
    /// Paths it reads and writes (besides `{data}` and `{tmp}`).
    #[serde(default)]
    pub write: Vec<String>,
    #[serde(default)]
    pub network: Network,
    /// Variables passed through from agx's environment besides the declared settings.
    #[serde(default)]
    pub env: Vec<String>,
}

/// Where a server may connect.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Network {
    /// No network at all.
    None,
    /// This machine only.
    Loopback,
    /// Anywhere (the default, so that servers that declare nothing keep working).
    #[default]
    Any,
    /// These hosts only, through agx's proxy.
    Hosts(Vec<String>),
}

impl std::fmt::Display for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Network::None => f.write_str("none"),
            Network::Loopback => f.write_str("loopback"),
            Network::Any => f.write_str("any"),
            Network::Hosts(hosts) => f.write_str(&hosts.join(", ")),
        }
    }
}

impl Permissions {
    /// Lines for `agx info` and `agx install`: what the programs may do, the defaults
    /// included (the package is always readable, `{data}` and `{tmp}` always writable).
    pub fn describe(declared: Option<&Permissions>) -> Vec<String> {
        let Some(p) = declared else {
            return vec![format!(
                "{NOT_CONFINED}; reads {{package}}, writes {{data}} and {{tmp}}, network any"
            )];
        };
        let mut read = vec!["{package}".to_string()];
        read.extend(p.read.iter().cloned());
        let mut write = vec!["{data}".to_string(), "{tmp}".to_string()];
        write.extend(p.write.iter().cloned());
        let mut lines = vec![
            format!("read: {}", read.join(", ")),
            format!("write: {}", write.join(", ")),
            format!("network: {}", p.network),
        ];
        if !p.env.is_empty() {
            lines.push(format!("env: {}", p.env.join(", ")));
        }
        lines
    }
}

/// What `info` says of a package that declares nothing.
pub const NOT_CONFINED: &str = "not confined: declares no permissions";

/// Why a permission path is refused, with how to write it; `None` when it is fine.
pub fn path_problem(path: &str) -> Option<(String, String)> {
    let example = "start it with a placeholder, e.g. \"{data}/cache\" or \"{home}/.config/tool\", or write an absolute path";
    let rest = if let Some(p) = PLACEHOLDERS.iter().find(|p| path.starts_with(**p)) {
        let rest = &path[p.len()..];
        if !rest.is_empty() && !rest.starts_with('/') {
            return Some((
                format!("`{path}`: a placeholder must be followed by `/` or end the path"),
                example.into(),
            ));
        }
        if *p == "{home}" && rest.trim_matches('/').is_empty() {
            return Some((
                format!("`{path}` grants the whole home folder"),
                "name the folders it needs under it, e.g. \"{home}/.config/tool\"".into(),
            ));
        }
        rest
    } else if path.starts_with('{') {
        let name = path.split_once('}').map_or(path, |(n, _)| n);
        let hint = match crate::manifest::fields::did_you_mean(
            &format!("{name}}}"),
            PLACEHOLDERS.iter().copied(),
        ) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!("the placeholders are {}", PLACEHOLDERS.join(", ")),
        };
        return Some((format!("`{path}` starts with an unknown placeholder"), hint));
    } else if Path::new(path).is_absolute() {
        path
    } else {
        return Some((format!("`{path}` is a relative path"), example.into()));
    };
    if Path::new(rest)
        .components()
        .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Some((
            format!("`{path}` contains `..`"),
            "name the folder itself, without `..`".into(),
        ));
    }
    None
}

/// Why a `network` host is refused; `None` when it is a host name or address, with an
/// optional `:port`.
pub fn host_problem(host: &str) -> Option<String> {
    let name = match split_port(host) {
        Ok((name, _)) => name,
        Err(problem) => return Some(problem),
    };
    let valid = !name.is_empty()
        && (name
            .trim_matches(['[', ']'])
            .parse::<std::net::IpAddr>()
            .is_ok()
            || name.trim_start_matches("*.").split('.').all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            }));
    (!valid).then(|| format!("`{host}` is not a host name, `*.domain` or address"))
}

/// A `network` host split into its name (an IPv6 address keeps its brackets) and its
/// optional port; the problem when the port is not a number.
pub fn split_port(host: &str) -> Result<(&str, Option<u16>), String> {
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') || name.ends_with(']') => match port.parse() {
            Ok(port) => Ok((name, Some(port))),
            Err(_) => Err(format!("`{host}`: `{port}` is not a port")),
        },
        _ => Ok((host, None)),
    }
}

/// The real folders the placeholders stand for in one run.
#[derive(Debug, Clone)]
pub struct Places {
    pub package: PathBuf,
    pub data: Option<PathBuf>,
    pub project: Option<PathBuf>,
    pub home: Option<PathBuf>,
    pub tmp: PathBuf,
}

/// Permission paths resolved for one run: what may be read, what may be written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolved {
    pub read: Vec<PathBuf>,
    pub write: Vec<PathBuf>,
    pub network: Network,
    /// Variables passed through from agx's environment besides the base set.
    pub env: Vec<String>,
    /// Whether the package declared anything (else the defaults, unconfined in spirit).
    pub declared: bool,
}

impl Permissions {
    /// Resolve against `places`. A path whose placeholder has no folder this run (`{project}`
    /// outside a project) is left out. The package is always readable and `{data}` and `{tmp}`
    /// always writable.
    pub fn resolve(declared: Option<&Permissions>, places: &Places) -> Resolved {
        let default = Permissions::default();
        let p = declared.unwrap_or(&default);
        let expand = |path: &String| expand(path, places);
        let mut read: Vec<PathBuf> = vec![places.package.clone()];
        read.extend(p.read.iter().filter_map(expand));
        let mut write: Vec<PathBuf> = places.data.iter().cloned().collect();
        write.push(places.tmp.clone());
        write.extend(p.write.iter().filter_map(expand));
        Resolved {
            read,
            write,
            network: p.network.clone(),
            env: p.env.clone(),
            declared: declared.is_some(),
        }
    }
}

/// `path` with its placeholder replaced; `None` when that placeholder has no folder.
pub fn expand(path: &str, places: &Places) -> Option<PathBuf> {
    let folder = |p: &str| -> Option<PathBuf> {
        match p {
            "{package}" => Some(places.package.clone()),
            "{data}" => places.data.clone(),
            "{project}" => places.project.clone(),
            "{home}" => places.home.clone(),
            "{tmp}" => Some(places.tmp.clone()),
            _ => None,
        }
    };
    match PLACEHOLDERS.iter().find(|p| path.starts_with(**p)) {
        Some(p) => {
            let base = folder(p)?;
            let rest = path[p.len()..].trim_start_matches('/');
            Some(if rest.is_empty() {
                base
            } else {
                base.join(rest)
            })
        }
        None => Some(PathBuf::from(path)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_need_a_known_placeholder_or_an_absolute_path_and_no_dotdot() {
        assert_eq!(path_problem("{data}/cache"), None);
        assert_eq!(path_problem("{home}/.config/x"), None);
        assert_eq!(path_problem("{tmp}"), None);
        assert_eq!(path_problem("/etc/ssl"), None);
        assert!(path_problem("cache").unwrap().0.contains("relative"));
        assert!(path_problem("{dta}/x").unwrap().1.contains("{data}"));
        assert!(path_problem("{data}x").is_some());
        assert!(path_problem("{home}").unwrap().0.contains("whole home"));
        assert!(path_problem("{data}/../x").unwrap().0.contains(".."));
    }

    #[test]
    fn hosts_are_names_wildcards_or_addresses_with_optional_ports() {
        for ok in [
            "api.github.com",
            "*.example.org",
            "127.0.0.1:8080",
            "[::1]:80",
            "::1",
        ] {
            assert_eq!(host_problem(ok), None, "{ok}");
        }
        for bad in ["", "http://x", "a b", "x:port"] {
            assert!(host_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn resolving_adds_the_package_data_and_tmp_and_drops_missing_places() {
        let places = Places {
            package: PathBuf::from("/s/p"),
            data: Some(PathBuf::from("/d/p")),
            project: None,
            home: Some(PathBuf::from("/home/u")),
            tmp: PathBuf::from("/tmp"),
        };
        let declared = Permissions {
            read: vec!["{home}/.config/x".into(), "{project}/src".into()],
            write: vec!["/srv/out".into()],
            ..Default::default()
        };
        let r = Permissions::resolve(Some(&declared), &places);
        assert_eq!(
            r.read,
            [PathBuf::from("/s/p"), PathBuf::from("/home/u/.config/x")]
        );
        assert_eq!(
            r.write,
            [
                PathBuf::from("/d/p"),
                PathBuf::from("/tmp"),
                PathBuf::from("/srv/out")
            ]
        );
        assert!(r.declared);
        assert!(!Permissions::resolve(None, &places).declared);
    }
}
