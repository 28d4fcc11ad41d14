//! Policy files (`policy.toml`, docs/policy.md), as the system, the user or a project writes
//! them: `agx_model::policy::parse_file`, then the checks every governed command runs.
//!
//! Properties: no panic; a problem points at a line of the file; a layer never loosens a
//! copy of itself (a project that repeats the user's rules is accepted); the checks of a
//! package, its permissions and a client run on whatever parsed.
#![no_main]

use std::path::Path;

use agx_model::permissions::{Network, Permissions};
use agx_model::policy::{Layer, Origin, Policy, PolicyError, Subject, parse_file};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.lines().count().max(1) + 1;
    let user = match parse_file(Path::new("policy.toml"), text.to_string(), Layer::User) {
        Ok(layer) => layer,
        Err(PolicyError::Invalid { at, .. }) => {
            assert!(at.line >= 1 && at.line <= lines, "line {} of {lines}", at.line);
            return;
        }
        Err(other) => panic!("parsing alone cannot fail with {other}"),
    };
    let mut project = user.clone();
    project.layer = Layer::Project;
    let policy = Policy::from_layers(vec![user, project])
        .unwrap_or_else(|e| panic!("a layer loosens a copy of itself: {e}"));
    let origin = Origin {
        ids: vec!["https://corp.example/index".into()],
        configured: vec!["corp".into()],
        shown: "corp".into(),
        checksum: true,
        signed: false,
    };
    let _ = policy.check_package(&Subject {
        name: "acme/weather",
        publisher: Some("acme"),
        origin: &origin,
    });
    let declared = Permissions {
        network: Network::Hosts(vec!["api.acme.com:443".into()]),
        write: vec!["{project}/out".into()],
        env: vec!["ACME_TOKEN".into()],
        ..Permissions::default()
    };
    let _ = policy.check_declared("acme/weather/main", Some(&declared));
    let _ = policy.check_declared("acme/weather/main", None);
    let _ = policy.check_client("claude-code");
    for layer in &policy.layers {
        let _ = layer.rules.shown();
    }
});
