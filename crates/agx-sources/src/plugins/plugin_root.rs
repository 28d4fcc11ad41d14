//! Skills that reach into their plugin (`${CLAUDE_PLUGIN_ROOT}/scripts/check.sh` in a
//! SKILL.md): Claude Code keeps a plugin whole, but `agx install-skill` copies a skill's
//! folder alone into a client's skills folder, where the plugin's files and the variable
//! are both missing. So an imported skill carries what it names of its plugin, under
//! `plugin-root/` in its own folder, and its SKILL.md names it through the skill's folder
//! (`${CLAUDE_SKILL_DIR}/plugin-root/scripts/check.sh`) (docs/plugins.md).

use std::path::Path;

use crate::index::marketplace_files;

/// The placeholder of the plugin's folder, as plugins write it.
const PLUGIN_ROOT: &str = "${CLAUDE_PLUGIN_ROOT}/";

/// Where a skill keeps what it carries of its plugin.
const CARRIED: &str = "plugin-root";

/// Copy what the SKILL.md of `skill` (a folder of the staged plugin `plugin`) names under
/// `${CLAUDE_PLUGIN_ROOT}/` into the skill, and rewrite those names; what changed, one note
/// each (empty when it names nothing of its plugin).
pub(crate) fn carry(plugin: &Path, skill: &Path) -> std::io::Result<Vec<String>> {
    let skill_md = skill.join("SKILL.md");
    let text = fs_err::read_to_string(&skill_md)?;
    if !text.contains(PLUGIN_ROOT) {
        return Ok(Vec::new());
    }
    let mut notes = Vec::new();
    let mut carried: Vec<String> = Vec::new();
    for reference in referenced(&text) {
        let source = plugin.join(&reference);
        let inside = !reference
            .split('/')
            .any(|part| matches!(part, "" | "." | ".."));
        if !inside || !marketplace_files::exists(&source) {
            notes.push(format!(
                "`{PLUGIN_ROOT}{reference}` is not in the plugin: left as written"
            ));
            continue;
        }
        if skill.starts_with(&source) {
            notes.push(format!(
                "`{PLUGIN_ROOT}{reference}` holds the skill itself: left as written"
            ));
            continue;
        }
        let to = skill.join(CARRIED).join(&reference);
        if marketplace_files::exists(&to) {
            continue;
        }
        if source.is_dir() {
            marketplace_files::copy_tree(&source, &to).map_err(std::io::Error::other)?;
        } else {
            fs_err::create_dir_all(to.parent().unwrap_or(skill))?;
            fs_err::copy(&source, &to)?;
        }
        carried.push(reference);
    }
    if !carried.is_empty() {
        let rewritten = text.replace(PLUGIN_ROOT, &format!("${{CLAUDE_SKILL_DIR}}/{CARRIED}/"));
        fs_err::write(&skill_md, rewritten)?;
        notes.insert(
            0,
            format!(
                "carries {} of its plugin in `{CARRIED}/`, named through `${{CLAUDE_SKILL_DIR}}` (Claude Code reads it; other clients see the name as written)",
                carried
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    Ok(notes)
}

/// The paths named after `${CLAUDE_PLUGIN_ROOT}/`, each once, up to the first character
/// that ends a path in prose or a command (a blank, a quote, a bracket, a backtick).
fn referenced(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (at, _) in text.match_indices(PLUGIN_ROOT) {
        let rest = &text[at + PLUGIN_ROOT.len()..];
        let end = rest
            .find(|c: char| c.is_whitespace() || "\"'`()[]<>{},;|&".contains(c))
            .unwrap_or(rest.len());
        let path = rest[..end].trim_end_matches(['.', ':']);
        if !path.is_empty() && !found.iter().any(|f| f == path) {
            found.push(path.to_string());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(path, text).unwrap();
    }

    #[test]
    fn what_a_skill_names_of_its_plugin_is_carried_and_renamed() {
        let plugin = tempfile::tempdir().unwrap();
        let skill = plugin.path().join("skills/check");
        write(
            &skill.join("SKILL.md"),
            "---\nname: check\ndescription: d\n---\nRun `bash ${CLAUDE_PLUGIN_ROOT}/scripts/check.sh`.\nThen ${CLAUDE_PLUGIN_ROOT}/scripts/report.py, and ${CLAUDE_PLUGIN_ROOT}/gone.md.\n",
        );
        write(&plugin.path().join("scripts/check.sh"), "echo ok");
        write(&plugin.path().join("scripts/report.py"), "print()");
        let notes = carry(plugin.path(), &skill).unwrap();
        assert!(
            notes[0].contains("carries `scripts/check.sh`, `scripts/report.py`"),
            "{notes:?}"
        );
        assert!(
            notes[1].contains("gone.md` is not in the plugin"),
            "{notes:?}"
        );
        assert_eq!(
            fs_err::read_to_string(skill.join("plugin-root/scripts/check.sh")).unwrap(),
            "echo ok"
        );
        let text = fs_err::read_to_string(skill.join("SKILL.md")).unwrap();
        assert!(
            text.contains("bash ${CLAUDE_SKILL_DIR}/plugin-root/scripts/check.sh"),
            "{text}"
        );
        assert!(!text.contains("CLAUDE_PLUGIN_ROOT"), "{text}");
    }

    #[test]
    fn a_skill_that_names_nothing_of_its_plugin_is_left_as_it_is() {
        let plugin = tempfile::tempdir().unwrap();
        let skill = plugin.path().join("skills/plain");
        write(
            &skill.join("SKILL.md"),
            "---\nname: plain\ndescription: d\n---\nBody.\n",
        );
        assert!(carry(plugin.path(), &skill).unwrap().is_empty());
        assert!(!skill.join("plugin-root").exists());
    }

    #[test]
    fn a_path_climbing_out_of_the_plugin_is_not_carried() {
        let plugin = tempfile::tempdir().unwrap();
        let skill = plugin.path().join("skills/x");
        write(
            &skill.join("SKILL.md"),
            "---\nname: x\ndescription: d\n---\n${CLAUDE_PLUGIN_ROOT}/../secret\n",
        );
        let notes = carry(plugin.path(), &skill).unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(!skill.join("plugin-root").exists());
    }
}
