//! A plugin folder of any dialect as somebody else publishes it, imported as a package
//! (`plugins::import::import_folder`, docs/plugins.md "Dialects"). The first byte picks the
//! dialect; the rest, split at 0xFF, is its manifest, its MCP file and one skill's SKILL.md.
//!
//! Properties: no panic; an import that succeeds writes a package that agx's own validation
//! accepts (what agx cannot carry is left out, never written).
#![no_main]

use agx_sources::index::dialect::Dialect;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let dialect = Dialect::ALL[usize::from(pick) % Dialect::ALL.len()];
    let mut parts = rest.splitn(3, |&b| b == 0xFF);
    let (manifest, servers, skill) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
    );
    let root = tempfile::tempdir().unwrap();
    let plugin = root.path().join("plugin");
    let write = |relative: &str, bytes: &[u8]| {
        let path = plugin.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    write(dialect.manifest_file(), manifest);
    if let Some(file) = dialect.servers_file() {
        write(file, servers);
    }
    write("skills/notes/SKILL.md", skill);

    let into = root.path().join("package");
    if agx_sources::plugins::import::import_folder(&plugin, &into).is_ok() {
        let report = agx_model::manifest::load::check(&into);
        assert!(!report.has_errors(), "{report:?}");
    }
});
