//! A project's client config file as `agx sync` reads it from a cloned repository: the file
//! is written at the client's project path in a temp project folder, then read through the
//! one bounded reader (`clients::read_doc`: confinement to the project, regular file only,
//! size cap, parse), listed for agx's entries (`clients::agx_entries`, as `sync --check` and
//! `doctor` do) and given a project entry (`clients::plan_install`, as `sync` does).
//!
//! Input: the first byte picks a client with a project scope from agx's table, the rest is
//! the file's content. Properties: no panic; what is read is the file as written; after a
//! planned install, the planned text lists the entry under its key with the entry's command.
#![no_main]

use std::collections::BTreeMap;

use agx_clients::table::Os;
use agx_clients::{CLIENTS, HostEnv, Scope, ServerEntry, Target, agx_entries, plan_install};
use agx_clients::{read_doc, shape};
use agx_edit as edit;
use libfuzzer_sys::fuzz_target;

const KEY: &str = "weather";

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let with_project: Vec<_> = CLIENTS.iter().filter(|c| c.project.is_some()).collect();
    let client = with_project[pick as usize % with_project.len()];
    // The harness's own files: a machine that cannot make them has nothing to say about agx.
    let Ok(project) = tempfile::tempdir() else {
        return;
    };
    let env = HostEnv {
        home: project.path().join("home"),
        os: Os::Linux,
        vars: BTreeMap::new(),
    };
    let Ok(target) = Target::new(
        client,
        Scope::Project,
        Some(project.path()),
        None,
        KEY,
        &env,
    ) else {
        return;
    };
    let parent = target.file.parent().expect("a client file sits in a folder");
    if std::fs::create_dir_all(parent).is_err() || std::fs::write(&target.file, body).is_err() {
        return;
    }

    let Ok((before, _doc)) = read_doc(&target) else {
        return;
    };
    assert_eq!(before.as_deref().map(str::as_bytes), Some(body));
    let _ = agx_entries(&target).expect("a file read once reads again");
    let entry = ServerEntry {
        command: "agx".into(),
        args: vec!["serve".into(), "acme/weather/forecast@=1.2.0".into()],
        env: BTreeMap::new(),
    };
    let Ok(change) = plan_install(&target, KEY, &entry, true) else {
        return;
    };
    let after = edit::parse(client.format, &change.after).expect("a planned file parses");
    let value = after
        .get(&target.container, KEY)
        .expect("the planned file holds the entry");
    let written = shape::parse(client.shape, &value).expect("the entry reads back");
    assert_eq!(written.command, entry.command);
});
