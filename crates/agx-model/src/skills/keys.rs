//! The front-matter keys agx knows: those of the Agent Skills specification (agentskills.io),
//! which every client reads, and those some clients add. A client key is a warning naming the
//! clients that read it; any other key is an error (docs/skills.md, "Front matter").

/// Keys of the specification.
pub const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Keys that only some clients read, with the clients that read them.
pub const CLIENT_KEYS: &[(&str, &[&str])] = &[
    ("when_to_use", CLAUDE_ONLY),
    ("argument-hint", CLAUDE_AND_VSCODE),
    ("arguments", CLAUDE_ONLY),
    ("disable-model-invocation", CLAUDE_AND_VSCODE),
    ("user-invocable", CLAUDE_AND_VSCODE),
    ("disallowed-tools", CLAUDE_ONLY),
    ("model", CLAUDE_ONLY),
    ("effort", CLAUDE_ONLY),
    ("context", CLAUDE_AND_VSCODE),
    ("agent", CLAUDE_ONLY),
    ("hooks", CLAUDE_ONLY),
    ("paths", CLAUDE_ONLY),
    ("shell", CLAUDE_ONLY),
    // The version ToolHive's skill artifacts are tagged with (`agx publish --skill` reads it).
    ("version", TOOLHIVE),
];

const CLAUDE_ONLY: &[&str] = &["Claude Code"];
const CLAUDE_AND_VSCODE: &[&str] = &["Claude Code", "VS Code"];
const TOOLHIVE: &[&str] = &["ToolHive"];

/// The clients that read `key`, when it is a client key.
pub fn clients_reading(key: &str) -> Option<&'static [&'static str]> {
    CLIENT_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, clients)| *clients)
}

/// Every key agx knows, spec keys first.
pub fn known_keys() -> Vec<&'static str> {
    SPEC_KEYS
        .iter()
        .copied()
        .chain(CLIENT_KEYS.iter().map(|(k, _)| *k))
        .collect()
}

/// "Claude Code only", "Claude Code and VS Code only".
pub fn readers_phrase(clients: &[&str]) -> String {
    match clients {
        [one] => format!("{one} only"),
        [init @ .., last] => format!("{} and {last} only", init.join(", ")),
        [] => "no client".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_is_both_spec_and_client() {
        for (key, clients) in CLIENT_KEYS {
            assert!(!SPEC_KEYS.contains(key), "{key}");
            assert!(!clients.is_empty());
        }
    }

    #[test]
    fn readers_are_named() {
        assert_eq!(readers_phrase(CLAUDE_ONLY), "Claude Code only");
        assert_eq!(
            readers_phrase(clients_reading("context").unwrap()),
            "Claude Code and VS Code only"
        );
        assert_eq!(clients_reading("name"), None);
    }
}
