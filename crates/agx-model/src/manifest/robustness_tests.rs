//! Bad input never panics: truncated, mangled, random and deeply nested agx.toml and
//! definition files go through the whole loader, and every finding names its file.

use std::path::Path;

use proptest::prelude::*;

use super::check_package;

const MANIFEST: &str = r#"[package]
name = "acme/weather"
version = "1.2.0"
description = "Weather"

[dependencies]
"acme/geo" = "^1.0"

[extension]
servers = ["forecast"]
tools = ["get_forecast", ["geocode", "Find"], { name = "alerts" }]
prompts = ["Search"]
"#;
const TOOL: &str = r#"name = "get_forecast"
command = ["sh", "bin/tool.sh"]
input = "argv"
timeout = 3
env = { UNITS = "metric" }
[[parameters]]
name = "lat"
type = "number"
required = true
"#;
const COMBINED: &str = r#"[geocode]
command = ["echo", "{}"]
[alerts]
command = ["echo", "{}"]
input_schema = { type = "object", properties = { a = { type = "string" } } }
"#;
const SERVER: &str =
    r#"{ "Name": "forecast", "Tools": ["get_forecast", "acme/geo/x"], "Prompts": ["Search"] }"#;
const PROMPT: &str = "name = \"Search\"\ncontent = \"{{ q }}\"\n[[arguments]]\nname = \"q\"\n";

const FILES: [(&str, &str); 5] = [
    ("agx.toml", MANIFEST),
    ("agx/tools/get_forecast.toml", TOOL),
    ("agx/tools.toml", COMBINED),
    ("agx/servers/forecast.json", SERVER),
    ("agx/prompts/Search.toml", PROMPT),
];

/// How one file is spoiled.
#[derive(Debug, Clone)]
enum Damage {
    Truncate(usize),
    Splice {
        at: usize,
        len: usize,
        with: String,
    },
    Replace(String),
    Nest {
        depth: usize,
        open: &'static str,
        close: &'static str,
    },
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Truncate),
        (
            any::<usize>(),
            0usize..20,
            "[\\[\\]{}\"'=,.:\\n a-zA-Z0-9_\\\\#/-]{0,20}"
        )
            .prop_map(|(at, len, with)| Damage::Splice { at, len, with }),
        any::<String>().prop_map(Damage::Replace),
        (
            1usize..3000,
            prop_oneof![
                Just(("a = ", "[", "]")),
                Just(("a = ", "{b = ", "}")),
                Just(("", "[", "]")),
                Just(("", "{\"a\": ", "}")),
            ]
        )
            .prop_map(|(depth, (_, open, close))| Damage::Nest { depth, open, close }),
    ]
}

fn apply(text: &str, damage: &Damage) -> String {
    let boundary = |i: usize| {
        let mut i = i % (text.len() + 1);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match damage {
        Damage::Truncate(at) => text[..boundary(*at)].to_string(),
        Damage::Splice { at, len, with } => {
            let start = boundary(*at);
            let end = boundary((start + len).min(text.len()));
            let end = end.max(start);
            format!("{}{with}{}", &text[..start], &text[end..])
        }
        Damage::Replace(s) => s.clone(),
        Damage::Nest { depth, open, close } => {
            let prefix = if text.starts_with('{') { "" } else { "a = " };
            format!(
                "{prefix}{}{}",
                open.repeat(*depth),
                close.repeat(*depth / 2)
            )
        }
    }
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn damaged_files_give_findings_that_name_their_file(which in 0..FILES.len(), damage in damage()) {
        let dir = tempfile::tempdir().unwrap();
        for (i, (rel, text)) in FILES.iter().enumerate() {
            let text = if i == which { apply(text, &damage) } else { text.to_string() };
            write(dir.path(), rel, &text);
        }
        write(dir.path(), "bin/tool.sh", "echo '{}'\n");
        let report = check_package(dir.path());
        for f in &report.findings {
            prop_assert!(!f.location.file.is_empty(), "{f:?}");
            prop_assert!(dir.path().join(&f.location.file).exists(), "{f:?} names a file that does not exist");
            prop_assert!(!f.message.is_empty());
        }
        if report.has_errors() {
            prop_assert!(report.package.is_none());
        }
    }
}

#[test]
fn the_undamaged_package_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in FILES {
        write(dir.path(), rel, text);
    }
    write(dir.path(), "bin/tool.sh", "echo '{}'\n");
    let report = check_package(dir.path());
    assert_eq!(report.findings, [], "{:#?}", report.findings);
    assert!(report.package.is_some());
}
