//! Profiles (docs/profiles.md): many servers behind one endpoint. A profile is written as
//! `[profiles.NAME] servers = [...]` in a project's `agx.toml` (each entry a key of its
//! `[servers]` or a server reference) or in the user's `profiles-v1.toml` beside agx's
//! `config.toml` (references only). `agx serve @NAME` serves it; each member's tools,
//! prompts and resource templates are shown as `KEY__name` unless `namespace = "none"`.
//!
//! Both files are checked by one reader, so a bad profile is reported at its
//! `file:line:col` wherever it is written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agx_core::paths::AgxPaths;
use agx_model::manifest::diagnostics::{self as codes, Findings, Severity};
use agx_model::manifest::fields::Table;
use agx_model::manifest::spanned::{Node, SourceFile};

/// What separates a member's key from an item's own name: `gh__create_issue`.
pub const SEPARATOR: &str = "__";

/// How members' items are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    /// `KEY__name` (the default).
    Key,
    /// Items keep their own names; two members listing one name is refused.
    None,
}

/// One server of a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Its key in the profile: the prefix of its items' names.
    pub key: String,
    /// What `agx serve` is given to serve it (`publisher/package/server[@version]`).
    pub reference: String,
    /// Arguments for a wrapped server's command (`agx serve REF -- ARG…`).
    pub args: Vec<String>,
}

/// A profile, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    pub members: Vec<Member>,
    pub namespace: Namespace,
    /// How long a member may take to answer `initialize` or a list before the profile
    /// serves the others without it.
    pub timeout: std::time::Duration,
    /// The file it is written in, for messages.
    pub source: PathBuf,
}

impl Profile {
    /// The name a client sees of a member's item.
    pub fn shown_name(&self, key: &str, name: &str) -> String {
        match self.namespace {
            Namespace::Key => format!("{key}{SEPARATOR}{name}"),
            Namespace::None => name.to_string(),
        }
    }
}

/// Why a profile cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("no profile `{name}` in {}", where_looked.join(" or "))]
    NotFound {
        name: String,
        where_looked: Vec<String>,
    },
    #[error("`{0}` is not a profile name")]
    BadName(String),
    #[error("could not read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The first error, at its file:line:col.
    #[error("{location}: {message}")]
    Invalid {
        location: String,
        message: String,
        hint: Option<String>,
    },
    #[error(
        "@{0} is served as a whole: it takes no --allow, --deny, --no-filter or arguments after `--`"
    )]
    Options(String),
    #[error("profile `{profile}` ({}): {detail}", source_file.display())]
    Clash {
        profile: String,
        source_file: PathBuf,
        detail: String,
    },
}

impl agx_core::error::Hint for ProfileError {
    fn hint(&self) -> Option<String> {
        match self {
            ProfileError::NotFound { .. } => Some(
                "write `[profiles.NAME] servers = [...]` in agx.toml or in profiles-v1.toml beside agx's config.toml (docs/profiles.md)".into(),
            ),
            ProfileError::BadName(_) => Some(
                "a profile is named `@NAME`: lowercase letters, digits and `-`".into(),
            ),
            ProfileError::Read { .. } => None,
            ProfileError::Options(_) => Some(
                "filter each server where it is declared: `tools = { deny = [...] }` beside its [servers] entry in agx.toml, or `agx install-server CLIENT SERVER --deny GLOB`".into(),
            ),
            ProfileError::Invalid { hint, .. } => hint.clone(),
            ProfileError::Clash { .. } => Some(
                "remove `namespace = \"none\"` from the profile (names become `KEY__name`), or hide one of the two with a filter".into(),
            ),
        }
    }
}

/// Allowed keys of one `[profiles.NAME]` table.
const PROFILE_KEYS: &[&str] = &["servers", "namespace", "timeout"];

/// A member's time to answer `initialize` or a list, unless `timeout` says otherwise.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// The longest `timeout` a profile may set, in seconds.
const MAX_TIMEOUT_SECS: i64 = 600;

/// How a profile's entry that is not a server reference is resolved (a project's
/// `[servers]` key), or `None` where only references are allowed (the user's file).
pub type KeyLookup<'a> = Option<&'a dyn Fn(&str) -> Option<Member>>;

/// Check `[profiles]` (the `profiles` table `node`), adding findings, and return the
/// profiles that are usable. `taken` are entry names that a profile may not reuse (a
/// project's `[servers]` keys: each gets its own client entry).
pub fn read_profiles(
    f: &mut Findings,
    file: &SourceFile,
    node: &Node,
    keys: KeyLookup,
    taken: &[&str],
) -> BTreeMap<String, Profile> {
    let mut profiles = BTreeMap::new();
    let Some(entries) = node.as_table() else {
        f.at(
            codes::WRONG_TYPE,
            file,
            &node.span,
            format!("[profiles] must be a table, found {}", node.type_name()),
            None,
        );
        return profiles;
    };
    for entry in entries {
        let name = &entry.key;
        if !agx_model::client_table::shape::is_portable_key(name) {
            f.at(
                codes::INVALID_PROFILE,
                file,
                &entry.key_span,
                format!("`{name}` is not a valid profile name"),
                Some("use lowercase letters, digits and `-`, starting with a letter or digit (clients call it `@NAME`)".into()),
            );
            continue;
        }
        if taken.contains(&name.as_str()) {
            f.at(
                codes::INVALID_PROFILE,
                file,
                &entry.key_span,
                format!("profile `{name}` has the name of a [servers] key; both would be the client entry `{name}`"),
                Some("rename the profile or the server's key".into()),
            );
            continue;
        }
        let what = format!("profile `{name}`");
        let Some(t) = Table::read(
            f,
            file,
            &entry.value,
            entry.key_span.clone(),
            what,
            PROFILE_KEYS,
        ) else {
            continue;
        };
        let namespace = match t.string(f, "namespace") {
            None => Namespace::Key,
            Some((text, _)) if text == "key" => Namespace::Key,
            Some((text, _)) if text == "none" => Namespace::None,
            Some((text, node)) => {
                f.at(
                    codes::INVALID_PROFILE,
                    file,
                    &node.span,
                    format!("`namespace = \"{text}\"` of profile `{name}` is neither \"key\" nor \"none\""),
                    Some("leave it out for `KEY__name`, or write `namespace = \"none\"` to keep the servers' own names".into()),
                );
                continue;
            }
        };
        let timeout = match t.integer(f, "timeout") {
            None => DEFAULT_TIMEOUT_SECS,
            Some((secs, _)) if (1..=MAX_TIMEOUT_SECS).contains(&secs) => secs.unsigned_abs(),
            Some((secs, node)) => {
                f.at(
                    codes::INVALID_PROFILE,
                    file,
                    &node.span,
                    format!("`timeout = {secs}` of profile `{name}` is not between 1 and {MAX_TIMEOUT_SECS} seconds"),
                    Some(format!("leave it out for {DEFAULT_TIMEOUT_SECS} seconds, or give the seconds a server may take to answer `initialize` or a list")),
                );
                continue;
            }
        };
        let Some(listed) = t
            .require(f, "servers", "[\"KEY\", \"publisher/package/server\"]")
            .and_then(|_| t.strings(f, "servers"))
        else {
            continue;
        };
        if listed.is_empty() {
            f.at(
                codes::INVALID_PROFILE,
                file,
                &t.get("servers")
                    .map_or(entry.key_span.clone(), |e| e.value.span.clone()),
                format!("profile `{name}` lists no server"),
                Some("list at least one server: `servers = [\"KEY\"]`".into()),
            );
            continue;
        }
        let mut members: Vec<Member> = Vec::new();
        let mut usable = true;
        for (text, node) in listed {
            let member = match member_of(&text, keys) {
                Ok(member) => member,
                Err((message, hint)) => {
                    f.at(
                        codes::INVALID_PROFILE,
                        file,
                        &node.span,
                        message,
                        Some(hint),
                    );
                    usable = false;
                    continue;
                }
            };
            if members.iter().any(|m| m.key == member.key) {
                f.at(
                    codes::INVALID_PROFILE,
                    file,
                    &node.span,
                    format!(
                        "profile `{name}` has two servers under the key `{}`; their names would clash",
                        member.key
                    ),
                    Some("list each server once; in a project, give one of them its own [servers] key and list that key".into()),
                );
                usable = false;
                continue;
            }
            members.push(member);
        }
        if usable {
            profiles.insert(
                name.clone(),
                Profile {
                    name: name.clone(),
                    members,
                    namespace,
                    timeout: std::time::Duration::from_secs(timeout),
                    source: PathBuf::from(&file.rel),
                },
            );
        }
    }
    profiles
}

/// The member an entry of `servers` names: a reference (it has a `/`), keyed by its last
/// part, or a key that `keys` resolves.
fn member_of(text: &str, keys: KeyLookup) -> Result<Member, (String, String)> {
    if text.contains('/') {
        let pinned = agx_core::name::PinnedServer::parse(text).map_err(|e| {
            (
                format!("`{text}` names no server: {e}"),
                "give `publisher/package/server` or a package with one server".to_string(),
            )
        })?;
        let base = pinned.reference.rsplit('/').next().unwrap_or_default();
        let key = portable(base);
        if key.is_empty() {
            return Err((
                format!("`{text}` gives no key to prefix its tools with"),
                "in a project, add it under [servers] and list that key".into(),
            ));
        }
        return Ok(Member {
            key,
            reference: text.to_string(),
            args: Vec::new(),
        });
    }
    match keys {
        Some(lookup) => lookup(text).ok_or_else(|| {
            (
                format!("`{text}` is not a key of [servers]"),
                "list a key of [servers] or a server reference (`publisher/package/server`)"
                    .to_string(),
            )
        }),
        None => Err((
            format!("`{text}` is not a server reference"),
            "list servers as `publisher/package/server` (keys are for a project's agx.toml)"
                .to_string(),
        )),
    }
}

/// `text` as an entry key: lowercase, every other character `-`, no leading or trailing `-`.
fn portable(text: &str) -> String {
    let lowered: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    lowered.trim_matches('-').to_string()
}

/// The user's profiles file.
pub fn profiles_file(paths: &AgxPaths) -> PathBuf {
    paths.config_dir.join("profiles-v1.toml")
}

/// Larger than any profiles file a person writes.
const MAX_PROFILES_BYTES: u64 = 1024 * 1024;

/// Read and check a profiles file (`profiles-v1.toml`): `None` when it does not exist.
pub fn read_user_profiles(path: &Path) -> Result<Option<BTreeMap<String, Profile>>, ProfileError> {
    use agx_core::regular_file::ReadProblem;
    let text = match agx_core::regular_file::read_text(path, MAX_PROFILES_BYTES) {
        Ok(text) => text,
        Err(ReadProblem::NotFound) => return Ok(None),
        Err(problem) => {
            return Err(ProfileError::Read {
                path: path.into(),
                source: problem.into_io(),
            });
        }
    };
    let file = SourceFile::new(path.display().to_string(), text);
    let mut f = Findings::default();
    let mut profiles = BTreeMap::new();
    match file.parse() {
        Err(e) => f.at(
            codes::SYNTAX_ERROR,
            &file,
            &e.span,
            format!("`{}` is not valid TOML: {}", file.rel, e.message),
            Some("fix the TOML syntax at this place".into()),
        ),
        Ok(doc) => {
            if let Some(top) =
                Table::read(&mut f, &file, &doc, 0..0, file.rel.clone(), &["profiles"])
                && let Some(entry) = top.get("profiles")
            {
                profiles = read_profiles(&mut f, &file, &entry.value, None, &[]);
            }
        }
    }
    first_error(f)?;
    Ok(Some(profiles))
}

/// The first error of `f`, as a [`ProfileError::Invalid`].
pub fn first_error(f: Findings) -> Result<(), ProfileError> {
    match f.list.into_iter().find(|x| x.severity == Severity::Error) {
        Some(first) => Err(ProfileError::Invalid {
            location: first.location.to_string(),
            message: first.message,
            hint: first.hint,
        }),
        None => Ok(()),
    }
}

/// A profile's name from `@NAME`, when `text` is one.
pub fn profile_name(text: &str) -> Option<Result<&str, ProfileError>> {
    let name = text.strip_prefix('@')?;
    Some(if agx_model::client_table::shape::is_portable_key(name) {
        Ok(name)
    } else {
        Err(ProfileError::BadName(text.to_string()))
    })
}

/// The profile `name` where agx runs: the project's (`AGX_PROJECT`, else the nearest
/// `agx.toml` above the current folder) when it has one of that name, else the user's.
pub fn find_profile(paths: &AgxPaths, name: &str) -> Result<Profile, ProfileError> {
    let mut looked = Vec::new();
    if let Some(found) = crate::serve_profile(name)? {
        return Ok(found);
    }
    if let Some(dir) = crate::serve_project_dir() {
        looked.push(dir.join(crate::PROJECT_FILE).display().to_string());
    }
    let path = profiles_file(paths);
    if let Some(mut profiles) = read_user_profiles(&path)?
        && let Some(profile) = profiles.remove(name)
    {
        return Ok(profile);
    }
    looked.push(path.display().to_string());
    Err(ProfileError::NotFound {
        name: name.to_string(),
        where_looked: looked,
    })
}

/// Names that two members would both show under `namespace = "none"`: `(name, [keys])`.
pub fn clashes<'a>(
    listed: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<(String, Vec<String>)> {
    let mut by_name: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (key, name) in listed {
        let keys = by_name.entry(name).or_default();
        if !keys.iter().any(|k| k == key) {
            keys.push(key.to_string());
        }
    }
    by_name
        .into_iter()
        .filter(|(_, keys)| keys.len() > 1)
        .map(|(name, keys)| (name.to_string(), keys))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, keys: KeyLookup) -> (BTreeMap<String, Profile>, Findings) {
        let file = SourceFile::new("agx.toml", text.to_string());
        let mut f = Findings::default();
        let doc = file.parse().unwrap();
        let node = doc.pointer("/profiles").unwrap().clone();
        let profiles = read_profiles(&mut f, &file, &node, keys, &["gh"]);
        (profiles, f)
    }

    #[test]
    fn references_are_keyed_by_their_last_part_and_keys_resolve() {
        let lookup = |key: &str| {
            (key == "mem").then(|| Member {
                key: key.into(),
                reference: "npm/@modelcontextprotocol/server-memory@=1.0.0".into(),
                args: vec![],
            })
        };
        let (profiles, f) = read(
            "[profiles.dev]\nservers = [\"acme/tools/main\", \"mem\"]\nnamespace = \"none\"\n",
            Some(&lookup),
        );
        assert!(f.list.is_empty(), "{:?}", f.list);
        let dev = &profiles["dev"];
        assert_eq!(dev.namespace, Namespace::None);
        assert_eq!(dev.timeout.as_secs(), DEFAULT_TIMEOUT_SECS);
        assert_eq!(dev.members[0].key, "main");
        assert_eq!(dev.members[0].reference, "acme/tools/main");
        assert_eq!(dev.members[1].key, "mem");
        assert_eq!(dev.shown_name("mem", "x"), "x");
    }

    #[test]
    fn bad_profiles_are_findings_at_their_place() {
        for (text, expected, line) in [
            (
                "[profiles.dev]\nservers = [\"a/b/x\", \"c/d/x\"]\n",
                "two servers under the key `x`",
                2,
            ),
            (
                "[profiles.dev]\nservers = [\"nokey\"]\n",
                "is not a server reference",
                2,
            ),
            ("[profiles.dev]\nservers = []\n", "lists no server", 2),
            (
                "[profiles.dev]\nservers = [\"a/b/c\"]\nnamespace = \"flat\"\n",
                "neither",
                3,
            ),
            (
                "[profiles.dev]\nservers = [\"a/b/c\"]\ntimeout = 0\n",
                "not between 1 and 600 seconds",
                3,
            ),
            (
                "[profiles.Dev]\nservers = [\"a/b/c\"]\n",
                "not a valid profile name",
                1,
            ),
            (
                "[profiles.gh]\nservers = [\"a/b/c\"]\n",
                "name of a [servers] key",
                1,
            ),
        ] {
            let (profiles, f) = read(text, None);
            assert!(profiles.is_empty(), "{text}");
            let first = &f.list[0];
            assert!(
                first.message.contains(expected),
                "{text}: {}",
                first.message
            );
            assert_eq!(first.location.line, line, "{text}");
            assert!(first.hint.is_some());
        }
    }

    #[test]
    fn names_shown_by_two_members_are_clashes() {
        let found = clashes([("a", "read"), ("b", "read"), ("b", "write"), ("a", "list")]);
        assert_eq!(
            found,
            vec![("read".to_string(), vec!["a".into(), "b".into()])]
        );
    }

    #[test]
    fn the_user_file_is_read_with_its_errors_located() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profiles-v1.toml");
        assert!(read_user_profiles(&path).unwrap().is_none());
        fs_err::write(&path, "[profiles.dev]\nservers = [\"a/b/c\"]\nextra = 1\n").unwrap();
        let err = read_user_profiles(&path).unwrap_err();
        assert!(err.to_string().contains("profiles-v1.toml:3:1"), "{err}");
        fs_err::write(&path, "[profiles.dev]\nservers = [\"a/b/c\"]\n").unwrap();
        let profiles = read_user_profiles(&path).unwrap().unwrap();
        assert_eq!(profiles["dev"].members[0].key, "c");
    }
}
