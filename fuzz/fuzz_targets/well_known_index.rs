//! `.well-known` skills indexes as a web site serves them
//! (`index::well_known::parse_index`).
//!
//! Properties: no panic; every skill read has a valid skill name, a 64-lowercase-hex sha256
//! (what the download is checked against), a URL that is https or plain http on loopback,
//! and no name twice.
#![no_main]

use agx_sources::index::well_known::parse_index;
use libfuzzer_sys::fuzz_target;

const INDEX: &str = "https://docs.example.com/.well-known/agent-skills/index.json";

fuzz_target!(|data: &[u8]| {
    let Ok(index) = parse_index(data, INDEX) else {
        return;
    };
    let mut names = std::collections::BTreeSet::new();
    for skill in &index.skills {
        assert!(agx_model::skills::rules::is_valid_name(&skill.name));
        assert!(names.insert(skill.name.clone()), "{} twice", skill.name);
        assert!(
            skill.sha256.len() == 64
                && skill
                    .sha256
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        );
        let url = skill.url.as_str();
        assert!(
            url.starts_with("https://")
                || ["http://127.", "http://localhost", "http://[::1]"]
                    .iter()
                    .any(|p| url.starts_with(p)),
            "{url}"
        );
    }
});
