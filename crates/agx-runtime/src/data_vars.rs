//! Known servers that keep their data beside their code unless a variable says where, and
//! the file in the package's data folder agx gives them instead (docs/store.md, "Data
//! folders"). Without it such a server writes into the store, which is read-only (and
//! whatever it stored there would go with the next update).

use std::path::{Path, PathBuf};

use super::assemble::WrappedServer;

/// (npm package, variable, file name in the data folder).
const KNOWN: [(&str, &str, &str); 1] = [(
    "@modelcontextprotocol/server-memory",
    "MEMORY_FILE_PATH",
    "memory.jsonl",
)];

/// The variables to give `w` that neither its definition nor its settings set already:
/// each names a file in `data`, unless the environment of `agx serve` sets it (that value
/// is passed on explicitly, so that a confined server, which inherits only a base set of
/// variables, receives it too).
pub(crate) fn defaults(w: &WrappedServer, data: &Path) -> Vec<(&'static str, PathBuf)> {
    let package = w.server.package.to_string();
    KNOWN
        .iter()
        .filter(|(npm, _, _)| {
            package == format!("npm/{npm}")
                || w.command.iter().any(|a| {
                    a.replace('\\', "/")
                        .contains(&format!("node_modules/{npm}/"))
                })
        })
        .filter(|(_, var, _)| {
            !w.env.contains_key(*var) && !w.settings.env_vars().iter().any(|(k, _)| k == var)
        })
        .map(|(_, var, file)| {
            let value = std::env::var_os(var).map_or_else(|| data.join(file), PathBuf::from);
            (*var, value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use agx_core::name::{PackageName, QualifiedName};
    use agx_model::settings::PackageSettings;

    fn wrapped(reference: &str, command: &[&str], env: &[(&str, &str)]) -> WrappedServer {
        let server = QualifiedName::parse(reference).unwrap();
        let package: PackageName = server.package.clone();
        WrappedServer {
            server,
            command: command.iter().map(|s| s.to_string()).collect(),
            package_dir: PathBuf::from("/store/p"),
            cwd: PathBuf::from("/store/p"),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>(),
            settings: Arc::new(PackageSettings::declared(package, &[])),
            url: None,
            headers: BTreeMap::new(),
            oauth: None,
            args: Vec::new(),
            code_cache: None,
            code_cache_problem: None,
            pins_file: None,
            data_dir: None,
            sign_ins: None,
            sandbox: None,
        }
    }

    #[test]
    fn server_memory_keeps_its_graph_in_the_data_folder_unless_told_otherwise() {
        let data = Path::new("/data/x");
        let by_package = wrapped(
            "npm/@modelcontextprotocol/server-memory/mcp-server-memory",
            &["node", "x.js"],
            &[],
        );
        assert_eq!(
            defaults(&by_package, data),
            [("MEMORY_FILE_PATH", data.join("memory.jsonl"))]
        );
        // A registry entry's package: recognised by the script it runs.
        let by_script = wrapped(
            "io.github.x/memory/memory",
            &[
                "node",
                "node_modules/@modelcontextprotocol/server-memory/dist/index.js",
            ],
            &[],
        );
        assert_eq!(defaults(&by_script, data).len(), 1);
        let set = wrapped(
            "npm/@modelcontextprotocol/server-memory/mcp-server-memory",
            &["node", "x.js"],
            &[("MEMORY_FILE_PATH", "/mine.jsonl")],
        );
        assert!(defaults(&set, data).is_empty());
        let other = wrapped(
            "npm/@modelcontextprotocol/server-everything/e",
            &["node"],
            &[],
        );
        assert!(defaults(&other, data).is_empty());
    }
}
