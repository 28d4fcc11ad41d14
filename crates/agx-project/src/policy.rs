//! Reading the policy's layers (docs/policy.md): the system file, the user's `policy.toml`
//! and the `[policy]` table of the project's `agx.toml`. A missing file is no layer; a file
//! that cannot be read or parsed is an error, which stops every command the policy governs.

use std::path::{Path, PathBuf};

use agx_core::paths::AgxPaths;
use agx_core::regular_file::{ReadProblem, read_text};
use agx_model::manifest::spanned::{SourceFile, parse_toml};
use agx_model::policy::{
    Layer, Location, Policy, PolicyError, PolicyLayer, parse_file, parse_project,
};

/// No policy file is anywhere near this size; the cap keeps a hostile one from filling memory.
const MAX_POLICY_BYTES: u64 = 1 << 20;

/// The files the policy's layers are read from, widest first: the system's, the user's,
/// and the project's `agx.toml` when there is a project.
pub fn layer_files(paths: &AgxPaths, project: Option<&Path>) -> Vec<(Layer, PathBuf)> {
    let mut files = vec![
        (Layer::System, agx_core::paths::system_policy_file()),
        (Layer::User, paths.policy_file()),
    ];
    if let Some(dir) = project {
        files.push((Layer::Project, dir.join(crate::PROJECT_FILE)));
    }
    files
}

/// The effective policy for a command run in `project` (the project folder, when there is one).
pub fn load(paths: &AgxPaths, project: Option<&Path>) -> Result<Policy, PolicyError> {
    let mut layers = Vec::new();
    for (layer, path) in layer_files(paths, project) {
        let read = match layer {
            Layer::Project => project_layer(&path)?,
            _ => read(&path)?
                .map(|text| parse_file(&path, text, layer))
                .transpose()?,
        };
        layers.extend(read);
    }
    Policy::from_layers(layers)
}

/// The project's `[policy]` table. An `agx.toml` that is not valid TOML counts as a broken
/// policy when it may hold one (the word `policy` is in it); otherwise the project commands
/// report it, and the commands it does not govern (`agx install` of a package whose own
/// agx.toml is being written) go on.
fn project_layer(path: &Path) -> Result<Option<PolicyLayer>, PolicyError> {
    let Some(text) = read(path)? else {
        return Ok(None);
    };
    if !text.contains("policy") {
        return Ok(None);
    }
    let file = SourceFile::new(path.display().to_string(), text);
    let root = match parse_toml(&file.text) {
        Ok(root) => root,
        // Any spelling may hold it (`[policy]`, `[ policy ]`, `policy.require = …`).
        Err(e) => {
            let (line, column) = file.line_col(e.span.start);
            return Err(PolicyError::Invalid {
                at: Location {
                    file: path.to_path_buf(),
                    line,
                    column,
                },
                message: format!("not valid TOML: {}", e.message),
                hint: None,
            });
        }
    };
    let Some(node) = root
        .as_table()
        .and_then(|t| t.iter().find(|e| e.key == "policy"))
    else {
        return Ok(None);
    };
    parse_project(path, &file, &node.value).map(Some)
}

fn read(path: &Path) -> Result<Option<String>, PolicyError> {
    match read_text(path, MAX_POLICY_BYTES) {
        Ok(text) => Ok(Some(text)),
        Err(ReadProblem::NotFound) => Ok(None),
        Err(problem) => Err(PolicyError::Read {
            path: path.to_path_buf(),
            source: problem.into_io(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_come_from_the_user_file_and_the_projects_policy_table() {
        let dir = tempfile::tempdir().unwrap();
        let paths = AgxPaths::under(dir.path().join("home"), true);
        std::fs::create_dir_all(&paths.config_dir).unwrap();
        std::fs::write(
            paths.policy_file(),
            "[sources]\nallow = [\"corp\", \"official\"]\n",
        )
        .unwrap();
        let project = dir.path().join("proj");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            project.join(crate::PROJECT_FILE),
            "[project]\nclients = []\n\n[policy.sources]\nallow = [\"corp\"]\n",
        )
        .unwrap();
        let policy = load(&paths, Some(&project)).unwrap();
        let layers: Vec<_> = policy
            .layers
            .iter()
            .map(|l| (l.layer, l.rules.shown()[0].2.line))
            .collect();
        // The system file of a test build is AGX_SYSTEM_POLICY, unset here: /etc/agx.
        assert!(
            layers.ends_with(&[(Layer::User, 2), (Layer::Project, 5)]),
            "{layers:?}"
        );
    }

    #[test]
    fn a_project_file_that_may_hold_a_policy_fails_closed_and_one_that_cannot_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("agx.toml");
        std::fs::write(
            &file,
            "[project]\nclients = [\n[policy]\nrequire = \"signed\"\n",
        )
        .unwrap();
        let e = project_layer(&file).unwrap_err();
        assert!(
            e.to_string().contains("agx.toml:4:1: not valid TOML"),
            "{e}"
        );
        std::fs::write(&file, "[project]\nclients = [\npolicy.require = \"any\"\n").unwrap();
        assert!(project_layer(&file).is_err());
        std::fs::write(&file, "[project]\nclients = [\n# no such table\n").unwrap();
        assert!(project_layer(&file).unwrap().is_none());
        std::fs::write(&file, "[package]\nname = \"acme/x\"\n").unwrap();
        assert!(project_layer(&file).unwrap().is_none());
    }
}
