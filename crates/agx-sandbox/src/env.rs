//! The environment of a confined program (docs/sandbox.md, "The environment"): a program
//! whose permissions apply receives from agx's environment only a base set, what programs
//! need to start and to behave as the user expects, and the names its `env` permission
//! lists; the variables agx sets for it (settings, secrets, `AGX_*`, compile caches, data
//! files, proxies) are kept. Everything else (tokens, keys, other tools' settings) is
//! dropped. Plain environment handling: it works the same on every OS.

use std::ffi::{OsStr, OsString};

/// Variables every confined program receives from agx's environment, on every OS.
const BASE: [&str; 19] = [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TERM",
    "TMPDIR",
    "TMP",
    "TEMP",
    // Where the network is reached through a proxy, a program that may use the network
    // needs it as much as its address.
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
];

/// Prefixes of variables every confined program receives (the locale's categories).
const BASE_PREFIXES: [&str; 1] = ["LC_"];

/// What Windows programs need to start and find the user's folders.
#[cfg(windows)]
const OS_BASE: &[&str] = &[
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "APPDATA",
    "LOCALAPPDATA",
    "USERPROFILE",
    "USERNAME",
    "USERDOMAIN",
    "HOMEDRIVE",
    "HOMEPATH",
    "PROGRAMDATA",
    "PROGRAMFILES",
    "PROGRAMFILES(X86)",
    "PROGRAMW6432",
    "COMMONPROGRAMFILES",
    "COMMONPROGRAMFILES(X86)",
    "NUMBER_OF_PROCESSORS",
    "PROCESSOR_ARCHITECTURE",
    "OS",
];
/// What macOS programs expect besides the common set (the text encoding of CoreFoundation).
#[cfg(target_os = "macos")]
const OS_BASE: &[&str] = &["__CF_USER_TEXT_ENCODING"];
#[cfg(not(any(windows, target_os = "macos")))]
const OS_BASE: &[&str] = &[];

/// Whether two variable names are the same: Windows ignores case, other systems do not.
fn same_name(a: &str, b: &str) -> bool {
    #[cfg(windows)]
    {
        a.eq_ignore_ascii_case(b)
    }
    #[cfg(not(windows))]
    {
        a == b
    }
}

/// Whether the variable `name` of agx's environment passes to a program whose `env`
/// permission lists `declared`.
pub(crate) fn passes(name: &str, declared: &[String]) -> bool {
    BASE.iter()
        .chain(OS_BASE)
        .copied()
        .chain(declared.iter().map(String::as_str))
        .any(|known| same_name(known, name))
        || BASE_PREFIXES.iter().any(|prefix| {
            name.get(..prefix.len())
                .is_some_and(|start| same_name(start, prefix))
        })
}

/// Give `command` only the variables of `inherited` that [`passes`] lets through, and
/// those set (or removed) on it already, which win.
fn restrict_from(
    command: &mut std::process::Command,
    declared: &[String],
    inherited: impl Iterator<Item = (OsString, OsString)>,
) {
    let explicit: Vec<(OsString, Option<OsString>)> = command
        .get_envs()
        .map(|(k, v)| (k.to_owned(), v.map(OsStr::to_owned)))
        .collect();
    command.env_clear();
    command.envs(inherited.filter(|(name, _)| name.to_str().is_some_and(|n| passes(n, declared))));
    for (name, value) in explicit {
        match value {
            Some(value) => command.env(name, value),
            None => command.env_remove(name),
        };
    }
}

/// Give `command` only the base set and `declared` from agx's environment, keeping what
/// was set on it. Variables set on it afterwards are kept too.
pub(crate) fn restrict(command: &mut std::process::Command, declared: &[String]) {
    restrict_from(command, declared, std::env::vars_os());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envs(command: &std::process::Command) -> Vec<(String, Option<String>)> {
        let mut v: Vec<_> = command
            .get_envs()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.map(|v| v.to_string_lossy().into_owned()),
                )
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn only_the_base_set_the_declared_names_and_what_agx_set_remain() {
        let inherited = [
            ("PATH", "/usr/bin"),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", "C"),
            ("SOME_TOKEN", "secret"),
            ("WEATHER_KEY", "k"),
            ("AGX_PACKAGE", "from-agx-environment"),
            ("PYTHONDONTWRITEBYTECODE", "1"),
        ]
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        let mut command = std::process::Command::new("true");
        command
            .env("AGX_PACKAGE", "acme/weather")
            .env_remove("PYTHONDONTWRITEBYTECODE");
        restrict_from(
            &mut command,
            &[
                "WEATHER_KEY".to_string(),
                "PYTHONDONTWRITEBYTECODE".to_string(),
            ],
            inherited.into_iter(),
        );
        command.env("AGX_CALL", "1");
        // Removed by agx (PYTHONDONTWRITEBYTECODE for a venv's server): absent, though declared.
        let some = |v: &str| Some(v.to_string());
        assert_eq!(
            envs(&command),
            [
                ("AGX_CALL".to_string(), some("1")),
                ("AGX_PACKAGE".to_string(), some("acme/weather")),
                ("LANG".to_string(), some("C.UTF-8")),
                ("LC_ALL".to_string(), some("C")),
                ("PATH".to_string(), some("/usr/bin")),
                ("WEATHER_KEY".to_string(), some("k")),
            ]
        );
    }

    #[test]
    fn names_match_whole_and_prefixes_only_where_listed() {
        assert!(passes("HOME", &[]));
        assert!(!passes("HOMEBREW_GITHUB_API_TOKEN", &[]));
        assert!(passes("LC_TIME", &[]));
        assert!(!passes("LD_PRELOAD", &[]));
        assert!(passes("API_KEY", &["API_KEY".into()]));
        assert!(!passes("API_KEY_2", &["API_KEY".into()]));
        assert_eq!(passes("path", &[]), cfg!(windows));
    }
}
