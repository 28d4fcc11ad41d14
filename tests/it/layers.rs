//! The crate graph is the layer diagram: README's Layout table orders the workspace's crates
//! bottom to top, no crate may depend on one above it, and `agx-serve` links only what
//! serving needs (docs/architecture.md).

use std::collections::BTreeMap;

use crate::support::repo_root;

/// The crates of README's Layout table (`| N | `crate` | …`), bottom first.
fn documented_order() -> Vec<String> {
    let readme = fs_err::read_to_string(repo_root().join("README.md")).unwrap();
    let layout = readme
        .split("\n## Layout\n")
        .nth(1)
        .expect("README has a Layout section");
    let layout = layout.split("\n## ").next().unwrap();
    let mut order = Vec::new();
    for line in layout.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if let [_, number, name, ..] = cells.as_slice()
            && number.parse::<usize>().is_ok()
        {
            assert_eq!(
                number.parse::<usize>().unwrap(),
                order.len() + 1,
                "README's Layout table numbers its crates 1, 2, … bottom to top: {line}"
            );
            order.push(name.trim_matches('`').to_string());
        }
    }
    assert!(order.len() > 1, "README's Layout table lists the crates");
    order
}

/// Every workspace package and the workspace packages it depends on (any kind).
fn workspace_dependencies() -> BTreeMap<String, Vec<(String, String)>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .current_dir(repo_root())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let members: Vec<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| members.contains(&d["name"].as_str().unwrap()))
                .map(|d| {
                    let kind = d["kind"].as_str().unwrap_or("normal").to_string();
                    (d["name"].as_str().unwrap().to_string(), kind)
                })
                .collect();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

#[test]
fn no_crate_depends_on_a_crate_above_it_in_the_readme() {
    let order = documented_order();
    let graph = workspace_dependencies();
    let documented: Vec<&String> = order.iter().collect();
    let members: Vec<&String> = graph.keys().collect();
    let mut sorted = documented.clone();
    sorted.sort();
    assert_eq!(
        sorted, members,
        "README's Layout table must list every workspace crate once"
    );
    let rank = |name: &str| order.iter().position(|c| c == name).unwrap();
    let upward: Vec<String> = graph
        .iter()
        .flat_map(|(package, deps)| {
            deps.iter()
                .filter(|(dep, _)| rank(dep) >= rank(package))
                .map(move |(dep, kind)| format!("{package} -> {dep} ({kind})"))
        })
        .collect();
    assert!(
        upward.is_empty(),
        "dependencies on a crate at or above the dependent in README's Layout (move the \
         shared type down instead): {upward:?}"
    );
}

/// The names in `agx-serve`'s symbol table (`nm`; mangled names carry their crate's name).
/// Raw bytes would not do: debug sections name every crate of the build.
#[cfg(unix)]
fn agx_serve_symbols() -> String {
    let output = std::process::Command::new("nm")
        .arg(crate::support::AGX_SERVE)
        .output()
        .expect("`nm` (binutils) lists agx-serve's symbols");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[cfg(unix)]
#[test]
fn agx_serve_links_only_what_serving_needs() {
    let symbols = agx_serve_symbols();
    assert!(
        symbols.contains("agx_runtime"),
        "agx-serve links the runtime"
    );
    let linked: Vec<&str> = [
        "agx_sources",
        "agx_installer",
        "agx_clients",
        "agx_ops",
        // Registries are verified at install, not when serving.
        "agx_tuf",
        "clap_builder",
        // Receipts carry a signer, but only installs and `agx verify` verify bundles.
        "sigstore_verify",
    ]
    .into_iter()
    .filter(|name| symbols.contains(name))
    .collect();
    assert!(linked.is_empty(), "agx-serve links {linked:?}");
}
