//! TUF metadata as a registry's server sends it (agx-tuf): `Envelope::parse` and the typed
//! roles, `TrustedSet::new` (a pinned root), and `update_timestamp` / `update_snapshot` over
//! the trusted set of registry-fixtures/tuf/valid (python-tuf's repository).
//!
//! The first byte picks what the rest is: 0, any metadata file; 1, a root to pin; 2, a
//! timestamp for the fixture's root; 3, a snapshot after the fixture's timestamp (taken as
//! the local copy, so its hashes are not checked). Properties: no panic; a parsed envelope
//! written back parses to the same signed bytes; delegations give keys to every
//! role they hand a target to; an accepted
//! timestamp or snapshot is the one the set keeps.
#![no_main]

use agx_tuf::metadata::{Envelope, Root, Snapshot, Targets, Timestamp};
use agx_tuf::trusted::{TimestampUpdate, TrustedSet};
use chrono::{DateTime, Utc};
use libfuzzer_sys::fuzz_target;

const ROOT: &[u8] = include_bytes!("../../registry-fixtures/tuf/valid/initial_root.json");
const TIMESTAMP: &[u8] =
    include_bytes!("../../registry-fixtures/tuf/valid/metadata/timestamp.json");

/// A fixed "now" (the fixtures expire in 2099): the same input always takes the same path.
fn now() -> DateTime<Utc> {
    DateTime::from_timestamp(1_900_000_000, 0).unwrap()
}

fn parse(body: &[u8]) {
    let Ok(envelope) = Envelope::parse("fuzz.json", body) else {
        return;
    };
    let again =
        Envelope::parse("fuzz.json", &envelope.to_bytes()).expect("written back, it parses");
    assert_eq!(
        again.signed_bytes("fuzz.json").ok(),
        envelope.signed_bytes("fuzz.json").ok()
    );
    let _ = envelope.typed::<Root>("fuzz.json", "root");
    let _ = envelope.typed::<Timestamp>("fuzz.json", "timestamp");
    let _ = envelope.typed::<Snapshot>("fuzz.json", "snapshot");
    let Ok(targets) = envelope.typed::<Targets>("fuzz.json", "targets") else {
        return;
    };
    // Every role the delegations hand a target to is one they give keys for (a bit length
    // outside 1..=32 is refused by the trusted set before this is asked).
    if let Some(delegations) = targets.delegations
        && delegations
            .succinct_roles
            .as_ref()
            .is_none_or(|bins| (1..=32).contains(&bins.bit_length))
    {
        for (role, _) in delegations.roles_for_target("index/acme/weather.json") {
            assert!(
                delegations.role_keys(&role).is_some(),
                "{role} is not delegated"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, body)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => parse(body),
        1 => {
            if let Ok(set) = TrustedSet::new(body, now()) {
                assert_eq!(set.root().bytes, body);
            }
        }
        2 => {
            let mut set = TrustedSet::new(ROOT, now()).expect("the fixture's root is trusted");
            if let Ok(TimestampUpdate::Accepted) = set.update_timestamp(body) {
                assert_eq!(set.timestamp().expect("accepted").bytes, body);
            }
        }
        _ => {
            let mut set = TrustedSet::new(ROOT, now()).expect("the fixture's root is trusted");
            set.update_timestamp(TIMESTAMP)
                .expect("the fixture's timestamp is accepted");
            if set.update_snapshot(body, true).is_ok() {
                assert_eq!(set.snapshot().expect("accepted").bytes, body);
            }
        }
    }
});
