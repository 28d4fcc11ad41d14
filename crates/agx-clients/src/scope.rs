//! Which of a client's configurations an entry goes into.

use serde::{Deserialize, Serialize};

/// Part of the library, not of the command line: client records store it, and `cli`
/// offers it as `--scope` (hence `ValueEnum`, whose help is these doc comments).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The user's own configuration (all projects).
    User,
    /// The project's shared configuration file, under --project.
    Project,
    /// Claude Code's per-project entry inside ~/.claude.json.
    Local,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
        }
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
