//! `agx.lock` as `agx sync` reads it: `project::LockFile::parse`, then the field checks that
//! decide whether the lock is trusted (`ops::lock_check::check_fields`).
//!
//! Input: the lock file's text. Properties: no panic; a lock that parses prints back to text
//! that parses equal; a lock whose fields pass the checks passes them again after that round
//! trip, and each of its servers' `entry` is the hash of the entry it launches.
#![no_main]

use std::path::Path;

use agx_ops::lock_check::check_fields;
use agx_model::client_table::shape::{entry_hash, project_entry};
use agx_project::LockFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let dir = Path::new("/fuzz/project");
    let Ok(lock) = LockFile::parse(text, &dir.join("agx.lock")) else {
        return;
    };
    let printed = lock.to_text();
    let back = LockFile::parse(&printed, &dir.join("agx.lock")).expect("a printed lock parses");
    assert_eq!(back, lock);
    if check_fields(dir, &lock, None).is_ok() {
        check_fields(dir, &back, None).expect("the round trip keeps a good lock good");
        for server in &lock.servers {
            let entry = project_entry(&server.launches, &server.version, &server.args);
            assert_eq!(server.entry, entry_hash(&entry));
        }
    }
});
