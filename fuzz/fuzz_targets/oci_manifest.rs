//! OCI manifests as a registry sends them for a tag of a package's repository
//! (`index::oci::artifact::read_manifest`), the layer digest `agx publish` compares before
//! pushing (`artifact::layer_digest`), and the image index of a ToolHive skill artifact
//! (`skill::first_manifest`).
//!
//! Properties: no panic; a manifest read as a package or a skill names the package and the
//! version it was pulled as, and its checksum is 64 lowercase hex digits (what the download
//! is checked against); a skill's one item is the skill named as the repository; the manifest
//! agx writes for a package's entry reads back as the same entry.
#![no_main]

use agx_core::name::PackageName;
use agx_sources::index::IndexEntry;
use agx_sources::index::oci::artifact::{Pulled, layer_digest, manifest_for, read_manifest};
use agx_sources::index::oci::skill::first_manifest;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let name = PackageName::parse("acme/weather").unwrap();
    let version = semver::Version::new(1, 2, 0);
    let _ = layer_digest(data);
    let _ = first_manifest(data);
    let entry = match read_manifest(data, &name, &version, "fuzz") {
        Ok(Pulled::Package(entry)) => entry,
        Ok(Pulled::Skill(skill)) => {
            check_names(&skill, &name, &version);
            assert!(
                skill.extension.skills.len() == 1 && skill.extension.skills[0].name == "weather"
            );
            return;
        }
        _ => return,
    };
    check_names(&entry, &name, &version);
    let written = manifest_for(&entry, "2026-01-01T00:00:00Z", None);
    match read_manifest(&written, &name, &version, "fuzz") {
        Ok(Pulled::Package(again)) => assert_eq!(again, entry),
        other => panic!("agx's own manifest does not read back: {other:?}"),
    }
    assert_eq!(
        layer_digest(&written),
        Some(format!("sha256:{}", entry.cksum))
    );
});

fn check_names(entry: &IndexEntry, name: &PackageName, version: &semver::Version) {
    assert_eq!(&entry.name, name);
    assert_eq!(&entry.vers, version);
    assert!(
        entry.cksum.len() == 64
            && entry
                .cksum
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    );
}
