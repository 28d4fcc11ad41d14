//! Where each client reads skills (docs/skills.md, "Where clients read skills"): the shared
//! folder agx writes by default, and the client's own folder for `--folder own`.

use std::path::{Path, PathBuf};

/// Claude Code's folder; it does not read the shared one.
pub const CLAUDE: &str = ".claude/skills";
/// The shared folder Codex, Gemini CLI, VS Code/Copilot, Cursor and OpenCode all read.
pub const SHARED: &str = ".agents/skills";

/// The clients that read skills, by the ids of the client table.
pub const SKILL_CLIENTS: &[&str] = &[
    "claude-code",
    "codex",
    "gemini",
    "vscode",
    "cursor",
    "opencode",
];

/// Which of a client's folders to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FolderChoice {
    /// The folder most clients share (`.agents/skills`; Claude Code's own for Claude Code).
    #[default]
    Shared,
    /// The client's own folder (`.gemini/skills`, `.cursor/skills`, …).
    Own,
}

/// A client's skills folder, relative to the project (`project`) or to the home folder.
pub fn folder(client: &str, project: bool, choice: FolderChoice) -> Option<&'static str> {
    if !SKILL_CLIENTS.contains(&client) {
        return None;
    }
    Some(match (client, choice, project) {
        ("claude-code", _, _) => CLAUDE,
        (_, FolderChoice::Shared, _) | ("codex", _, _) => SHARED,
        ("gemini", _, _) => ".gemini/skills",
        ("cursor", _, _) => ".cursor/skills",
        ("vscode", _, true) => ".github/skills",
        ("vscode", _, false) => ".copilot/skills",
        ("opencode", _, true) => ".opencode/skills",
        ("opencode", _, false) => ".config/opencode/skills",
        _ => return None,
    })
}

/// The distinct folders under `base` for `clients`, in order: `all` with the shared choice
/// is two folders, `.claude/skills` and `.agents/skills`.
pub fn folders(base: &Path, clients: &[&str], project: bool, choice: FolderChoice) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for client in clients {
        if let Some(rel) = folder(client, project, choice) {
            let path = base.join(rel);
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out
}

/// Whether a skills folder is a user's (under the home folder) or a project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FolderScope {
    User,
    Project,
}

/// The clients that read skills from `dir` (a skills folder, `~/.agents/skills`), and
/// whether it is the user's: `dir` is `home` joined with a client's folder, else a
/// project's folder ending in one.
pub fn readers(dir: &Path, home: Option<&Path>) -> Vec<(&'static str, FolderScope)> {
    let mut out = Vec::new();
    for &client in SKILL_CLIENTS {
        for (project, scope) in [(false, FolderScope::User), (true, FolderScope::Project)] {
            let matches = [FolderChoice::Shared, FolderChoice::Own]
                .into_iter()
                .filter_map(|choice| folder(client, project, choice))
                .any(|rel| match scope {
                    FolderScope::User => home.is_some_and(|h| dir == h.join(rel)),
                    FolderScope::Project => {
                        dir.ends_with(rel) && home.is_none_or(|h| dir != h.join(rel))
                    }
                });
            if matches && !out.iter().any(|(c, _)| *c == client) {
                out.push((client, scope));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_copies_reach_all_six_clients() {
        let base = Path::new("/p");
        assert_eq!(
            folders(base, SKILL_CLIENTS, true, FolderChoice::Shared),
            [base.join(CLAUDE), base.join(SHARED)]
        );
    }

    #[test]
    fn readers_of_a_folder_name_the_clients_and_the_scope() {
        let home = Path::new("/home/ada");
        let user = |c| (c, FolderScope::User);
        let project = |c| (c, FolderScope::Project);
        assert_eq!(
            readers(&home.join(".claude/skills"), Some(home)),
            [user("claude-code")]
        );
        assert_eq!(
            readers(&home.join(".agents/skills"), Some(home)),
            ["codex", "gemini", "vscode", "cursor", "opencode"].map(user)
        );
        assert_eq!(
            readers(&home.join("repo/.github/skills"), Some(home)),
            [project("vscode")]
        );
        assert_eq!(
            readers(&home.join(".config/opencode/skills"), Some(home)),
            [user("opencode")]
        );
        assert!(readers(Path::new("/srv/other"), Some(home)).is_empty());
    }

    #[test]
    fn own_folders_follow_the_table() {
        let own = |c, project| folder(c, project, FolderChoice::Own).unwrap();
        assert_eq!(own("gemini", false), ".gemini/skills");
        assert_eq!(own("vscode", true), ".github/skills");
        assert_eq!(own("vscode", false), ".copilot/skills");
        assert_eq!(own("opencode", false), ".config/opencode/skills");
        assert_eq!(own("codex", true), SHARED);
        assert_eq!(folder("zed", true, FolderChoice::Shared), None);
    }
}
