use std::path::Path;

use super::*;
use crate::permissions::{Network, Permissions};

fn layer(layer: Layer, file: &str, text: &str) -> Result<PolicyLayer, PolicyError> {
    parse_file(Path::new(file), text.to_string(), layer)
}

fn policy(layers: &[(Layer, &str)]) -> Result<Policy, PolicyError> {
    let parsed = layers
        .iter()
        .map(|(l, text)| layer(*l, &format!("{l}.toml"), text))
        .collect::<Result<Vec<_>, _>>()?;
    Policy::from_layers(parsed)
}

fn origin(ids: &[&str], checksum: bool, signed: bool) -> Origin {
    Origin {
        ids: ids.iter().map(|s| s.to_string()).collect(),
        configured: Vec::new(),
        shown: ids[0].to_string(),
        checksum,
        signed,
    }
}

fn check(policy: &Policy, name: &str, origin: &Origin) -> Result<(), Refusal> {
    let publisher = name.split_once('/').map(|(p, _)| p);
    policy.check_package(&Subject {
        name,
        publisher,
        origin,
    })
}

const ORG: &str = r#"
require = "checksum"
[sources]
allow = ["corp", "oci://ghcr.io/acme/*"]
[publishers]
allow = ["acme", "acme-*"]
deny = ["acme-legacy"]
[packages]
deny = ["acme/old-*"]
[permissions.max]
network = "loopback"
write = ["{project}"]
env = ["ACME_*"]
[clients]
allow = ["claude-code", "cursor"]
"#;

#[test]
fn every_rule_refuses_with_its_line() {
    let p = policy(&[(Layer::User, ORG)]).unwrap();
    let corp = origin(&["corp", "https://corp.example"], true, false);
    assert!(check(&p, "acme/weather", &corp).is_ok());

    let r = check(&p, "acme/weather", &origin(&["official"], true, false)).unwrap_err();
    assert_eq!((r.rule, r.at.line, r.at.column), ("sources.allow", 4, 1));
    assert!(r.reason.contains("not an allowed source"), "{r}");

    let r = check(&p, "acme/weather", &origin(&["corp"], false, false)).unwrap_err();
    assert_eq!((r.rule, r.at.line), ("require", 2));

    let r = check(&p, "evil/weather", &corp).unwrap_err();
    assert_eq!((r.rule, r.at.line), ("publishers.allow", 6));
    let r = check(&p, "acme-legacy/x", &corp).unwrap_err();
    assert_eq!((r.rule, r.at.line), ("publishers.deny", 7));
    let r = check(&p, "acme/old-maps", &corp).unwrap_err();
    assert_eq!((r.rule, r.at.line), ("packages.deny", 9));
    assert!(
        check(
            &p,
            "acme-tools/x",
            &origin(&["oci://ghcr.io/acme/tools"], true, false)
        )
        .is_ok()
    );

    let loopback = Permissions {
        network: Network::Loopback,
        write: vec!["{project}/out".into()],
        env: vec!["ACME_TOKEN".into()],
        ..Default::default()
    };
    assert!(p.check_declared("acme/weather", Some(&loopback)).is_ok());
    let any = Permissions {
        network: Network::Any,
        ..loopback.clone()
    };
    let r = p.check_declared("acme/weather", Some(&any)).unwrap_err();
    assert_eq!((r.rule, r.at.line), ("permissions.max.network", 11));
    let home = Permissions {
        write: vec!["{home}/.ssh".into()],
        ..loopback.clone()
    };
    assert_eq!(
        p.check_declared("x", Some(&home)).unwrap_err().rule,
        "permissions.max.write"
    );
    let env = Permissions {
        env: vec!["AWS_SECRET_ACCESS_KEY".into()],
        ..loopback.clone()
    };
    assert_eq!(
        p.check_declared("x", Some(&env)).unwrap_err().rule,
        "permissions.max.env"
    );
    let r = p.check_declared("x", None).unwrap_err();
    assert!(r.reason.contains("declares no permissions"), "{r}");

    assert!(p.check_client("claude-code").is_ok());
    let r = p.check_client("codex").unwrap_err();
    assert_eq!((r.rule, r.at.line), ("clients.allow", 15));
}

#[test]
fn signed_accepts_only_a_signed_origin() {
    let p = policy(&[(Layer::System, "require = \"signed\"")]).unwrap();
    assert!(check(&p, "acme/w", &origin(&["corp"], true, true)).is_ok());
    let r = check(&p, "acme/w", &origin(&["corp"], true, false)).unwrap_err();
    assert!(r.reason.contains("signs nothing"), "{r}");
}

#[test]
fn hosts_limit_allows_loopback_and_listed_hosts() {
    let p = policy(&[(
        Layer::User,
        "[permissions.max]\nnetwork = [\"*.acme.com\", \"api.github.com\"]",
    )])
    .unwrap();
    let with = |network| Permissions {
        network,
        ..Default::default()
    };
    assert!(
        p.check_declared("x", Some(&with(Network::Loopback)))
            .is_ok()
    );
    assert!(
        p.check_declared(
            "x",
            Some(&with(Network::Hosts(vec![
                "api.acme.com:443".into(),
                "api.github.com".into()
            ])))
        )
        .is_ok()
    );
    assert!(
        p.check_declared("x", Some(&with(Network::Hosts(vec!["evil.com".into()]))))
            .is_err()
    );
    assert!(p.check_declared("x", Some(&with(Network::Any))).is_err());
}

#[test]
fn a_lower_layer_may_tighten_but_not_loosen() {
    let tighter = r#"
require = "signed"
[sources]
allow = ["corp"]
[permissions.max]
network = "none"
write = ["{project}/out"]
[clients]
allow = ["cursor"]
"#;
    let p = policy(&[(Layer::User, ORG), (Layer::Project, tighter)]).unwrap();
    // Both layers hold: the project's signed requirement refuses a merely checksummed one.
    assert_eq!(
        check(&p, "acme/w", &origin(&["corp"], true, false))
            .unwrap_err()
            .at
            .file,
        Path::new("project.toml")
    );

    for (text, rule, line) in [
        ("require = \"any\"", "require", 1),
        (
            "[sources]\nallow = [\"corp\", \"official\"]",
            "sources.allow",
            2,
        ),
        ("[publishers]\nallow = [\"*\"]", "publishers.allow", 2),
        (
            "[permissions.max]\nnetwork = \"any\"",
            "permissions.max.network",
            2,
        ),
        (
            "[permissions.max]\nwrite = [\"{home}/.ssh\"]",
            "permissions.max.write",
            2,
        ),
        ("[permissions.max]\nenv = [\"*\"]", "permissions.max.env", 2),
        ("[clients]\nallow = [\"codex\"]", "clients.allow", 2),
    ] {
        let e = policy(&[(Layer::User, ORG), (Layer::Project, text)]).unwrap_err();
        match e {
            PolicyError::Loosens(l) => {
                assert_eq!((l.rule, l.at.line), (rule, line), "{text}");
                assert_eq!(l.above_at.file, Path::new("user.toml"));
            }
            other => panic!("{text}: {other}"),
        }
    }
    // The user's file is held to the system's as well.
    let e = policy(&[
        (Layer::System, "require = \"signed\""),
        (Layer::User, "require = \"checksum\""),
    ])
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("the user policy's `require` loosens the system policy's"),
        "{e}"
    );
    // A pattern within a wider one narrows it.
    policy(&[
        (Layer::User, "[sources]\nallow = [\"oci://ghcr.io/*\"]"),
        (
            Layer::Project,
            "[sources]\nallow = [\"oci://ghcr.io/acme/*\"]",
        ),
    ])
    .unwrap();
}

#[test]
fn bad_files_point_at_line_and_column() {
    for (text, line, column, says) in [
        ("require = \"signd\"", 1, 11, "`require` is `signd`"),
        (
            "[sources]\nalow = []",
            2,
            1,
            "unknown policy key `sources.alow`",
        ),
        ("requires = \"any\"", 1, 1, "unknown policy key `requires`"),
        (
            "[permissions.max]\nnetwork = \"internet\"",
            2,
            11,
            "network` is `internet`",
        ),
        (
            "[permissions.max]\nwrite = [\"relative\"]",
            2,
            10,
            "relative path",
        ),
        (
            "[clients]\nallow = [\"claude\"]",
            2,
            10,
            "not a client agx knows",
        ),
        (
            "[sources]\nallow = \"corp\"",
            2,
            9,
            "must be a list of strings",
        ),
        ("require = ", 1, 11, "not valid TOML"),
    ] {
        let e = layer(Layer::User, "p.toml", text).unwrap_err();
        match &e {
            PolicyError::Invalid { at, message, .. } => {
                assert_eq!((at.line, at.column), (line, column), "{text}: {e}");
                assert!(message.contains(says), "{text}: {message}");
            }
            other => panic!("{text}: {other}"),
        }
    }
}

#[test]
fn an_empty_file_has_no_rules() {
    let p = policy(&[(Layer::User, "# nothing yet\n")]).unwrap();
    assert!(p.is_empty());
    assert!(check(&p, "x/y", &origin(&["local"], false, false)).is_ok());
    assert!(p.check_declared("x", None).is_ok());
}

#[test]
fn a_system_rule_does_not_trust_names_the_user_configured() {
    let p = policy(&[(
        Layer::System,
        "[sources]\nallow = [\"corp\", \"oci://ghcr.io/acme/*\"]",
    )])
    .unwrap();
    let mut named = origin(&["https://evil.example"], true, false);
    named.configured = vec!["corp".into()];
    assert_eq!(
        check(&p, "acme/w", &named).unwrap_err().rule,
        "sources.allow"
    );
    assert!(
        check(
            &p,
            "acme/w",
            &origin(&["oci://ghcr.io/acme/agx"], true, false)
        )
        .is_ok()
    );
    let user = policy(&[(Layer::User, "[sources]\nallow = [\"corp\"]")]).unwrap();
    assert!(check(&user, "acme/w", &named).is_ok());
}

#[test]
fn patterns_match_stars_and_question_marks_only() {
    let m = |p: &str, t: &str| Pattern::new(p).matches(t);
    assert!(m("acme-*", "acme-tools"));
    assert!(m("oci://ghcr.io/acme/*", "oci://ghcr.io/acme/agx/deep"));
    assert!(m("*", ""));
    assert!(m("a*b*c", "axxbyyc"));
    assert!(!m("a*b*c", "axxbyy"));
    assert!(m("acme/?eo", "acme/geo"));
    assert!(!m("acme/?eo", "acme/eo"));
    assert!(m("http://[::1]:8080/*", "http://[::1]:8080/index"));
    assert!(!m("acme", "acme-tools"));
    assert!(m("*.acme.com", "api.acme.com"));
}
