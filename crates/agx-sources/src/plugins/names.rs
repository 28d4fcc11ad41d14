//! Names in plugin formats: plugin names are kebab-case (Claude Code) and within the Agent
//! Plugins name rules (`a-z0-9`, single `-` or `.` between, at most 64 characters); authors
//! are objects where agx keeps `Name <email> (url)` text.

use agx_core::name::PackageName;

/// The longest plugin name the Agent Plugins specification allows (§5.5).
pub const MAX_NAME_LEN: usize = 64;

/// Words a plugin's name may not start with: Claude Code reserves them for Anthropic's own
/// plugins (`claude plugin validate` refuses `claude-…`).
const RESERVED_PREFIXES: [&str; 2] = ["claude", "anthropic"];

/// The plugin name of a package: its publisher and name joined by `-`, lowercase, every
/// other character written as `-` and runs of `-` collapsed (`acme/weather` →
/// `acme-weather`, `io.github.user/x` → `io-github-user-x`). When that starts with a
/// reserved word (a plugin imported from a marketplace added as `claude-plugins-official`),
/// the package's own name (`playwright`), else that name after `agx-`.
pub fn plugin_name(package: &PackageName) -> String {
    let full = match package.publisher() {
        Some(publisher) => kebab(&format!("{publisher}-{}", package.name())),
        None => kebab(package.name()),
    };
    let own = kebab(package.name());
    if !is_reserved(&full) {
        full
    } else if !is_reserved(&own) {
        own
    } else {
        kebab(&format!("agx-{own}"))
    }
}

fn is_reserved(name: &str) -> bool {
    RESERVED_PREFIXES.iter().any(|word| name.starts_with(word))
}

/// `text` in kebab-case within [`MAX_NAME_LEN`]: ASCII lowercase letters and digits, single
/// `-` between them, never at either end.
pub fn kebab(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(MAX_NAME_LEN);
    out.trim_end_matches('-').to_string()
}

/// The name agx gives a plugin's skill found in the folder `found` (its folder's name, or
/// its SKILL.md's): as it is when it is a valid skill name, else in kebab-case (`Start Here`
/// is `start-here`). One rule for the listing before install and for the import.
pub fn skill_name(found: &str) -> String {
    if agx_model::skills::rules::is_valid_name(found) {
        found.to_string()
    } else {
        kebab(found)
    }
}

/// Whether `name` is a valid Agent Plugins name (§5.5): 1 to 64 of `a-z0-9-.`, starting and
/// ending with a letter or digit, without `--` or `..`.
pub fn is_valid_plugin_name(name: &str) -> bool {
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.';
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name.chars().all(allowed)
        && edge(name.chars().next())
        && edge(name.chars().last())
        && !name.contains("--")
        && !name.contains("..")
}

/// A package author as plugin formats write it: `Name <email> (url)`, each part optional.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Author {
    pub name: String,
    pub email: Option<String>,
    pub url: Option<String>,
}

impl Author {
    /// Parse the `authors` entry form of agx.toml (and Cargo): `Name <email> (url)`.
    pub fn parse(text: &str) -> Author {
        let mut rest = text.trim().to_string();
        let mut take = |open: char, close: char| -> Option<String> {
            let start = rest.find(open)?;
            let end = start + rest[start..].find(close)?;
            let inner = rest[start + 1..end].trim().to_string();
            rest.replace_range(start..=end, "");
            (!inner.is_empty()).then_some(inner)
        };
        let email = take('<', '>');
        let url = take('(', ')');
        Author {
            name: rest.split_whitespace().collect::<Vec<_>>().join(" "),
            email,
            url,
        }
    }

    /// `{"name", "email", "url"}` with the parts present.
    pub fn to_json(&self) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert("name".into(), self.name.clone().into());
        if let Some(email) = &self.email {
            object.insert("email".into(), email.clone().into());
        }
        if let Some(url) = &self.url {
            object.insert("url".into(), url.clone().into());
        }
        serde_json::Value::Object(object)
    }
}

impl std::fmt::Display for Author {
    /// The `authors` entry form: `Name <email> (url)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name)?;
        if let Some(email) = &self.email {
            write!(f, " <{email}>")?;
        }
        if let Some(url) = &self.url {
            write!(f, " ({url})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_names_are_kebab_case_and_valid() {
        let name = |s: &str| plugin_name(&PackageName::parse(s).unwrap());
        assert_eq!(name("acme/weather"), "acme-weather");
        assert_eq!(name("notes"), "notes");
        assert_eq!(name("io.github.user/my_server"), "io-github-user-my-server");
        // Claude Code's reserved words never start a plugin's name.
        assert_eq!(name("claude-plugins-official/playwright"), "playwright");
        assert_eq!(name("anthropic/claude-md"), "agx-claude-md");
        assert_eq!(name("acme/claude-md"), "acme-claude-md");
        for n in ["acme-weather", "notes", "io-github-user-my-server"] {
            assert!(is_valid_plugin_name(n), "{n}");
        }
        let long = kebab(&"a-".repeat(60));
        assert!(
            long.len() <= MAX_NAME_LEN && is_valid_plugin_name(&long),
            "{long}"
        );
    }

    #[test]
    fn the_agent_plugins_name_rules_hold() {
        for ok in ["my-plugin", "acme.tools", "lint3r", "a"] {
            assert!(is_valid_plugin_name(ok), "{ok}");
        }
        for bad in [
            "My-Plugin",
            "-start",
            "has--double",
            "too.many..dots",
            "",
            "end-",
        ] {
            assert!(!is_valid_plugin_name(bad), "{bad}");
        }
        assert!(!is_valid_plugin_name(&"a".repeat(65)));
    }

    #[test]
    fn authors_are_split_into_name_email_and_url() {
        assert_eq!(
            Author::parse("Ada Lovelace <ada@example.com> (https://ada.example)"),
            Author {
                name: "Ada Lovelace".into(),
                email: Some("ada@example.com".into()),
                url: Some("https://ada.example".into()),
            }
        );
        let full = "Ada Lovelace <ada@example.com> (https://ada.example)";
        assert_eq!(Author::parse(full).to_string(), full);
        assert_eq!(
            Author::parse("Acme").to_json(),
            serde_json::json!({"name": "Acme"})
        );
    }
}
