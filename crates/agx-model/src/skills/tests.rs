//! Every front-matter rule, with snapshots of the findings. The cases of the reference
//! validator (skills-ref) come first.

use std::fmt::Write as _;

use super::*;
use crate::manifest::diagnostics::Findings;

/// A package folder holding `skills/<folder>/SKILL.md` with `text`, and the extra files.
fn skill_in(folder: &str, text: &str, files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills").join(folder);
    fs_err::create_dir_all(&skill).unwrap();
    fs_err::write(skill.join(SKILL_FILE), text).unwrap();
    for file in files {
        let path = skill.join(file);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(path, "x").unwrap();
    }
    dir
}

/// The findings of checking `skills/<folder>`, one per line, and whether it loaded.
fn findings(folder: &str, text: &str, files: &[&str]) -> String {
    let dir = skill_in(folder, text, files);
    let mut f = Findings::default();
    let skill = check_skill(&mut f, dir.path(), &format!("skills/{folder}"));
    let mut out = String::new();
    for finding in &f.list {
        let l = &finding.location;
        writeln!(
            out,
            "{} {} {}:{}:{} +{}: {}\n    hint: {}",
            finding.code,
            finding.name,
            l.file,
            l.line,
            l.column,
            finding.length,
            finding.message,
            finding.hint.as_deref().unwrap_or("-")
        )
        .unwrap();
    }
    writeln!(out, "loaded: {}", skill.is_some()).unwrap();
    out
}

fn skill_md(front: &str) -> String {
    format!("---\n{front}---\n# Instructions\n\nDo the thing.\n")
}

#[test]
fn a_valid_skill_with_every_spec_key_loads() {
    let text = skill_md(
        "name: my-skill\ndescription: A test skill\nlicense: MIT\ncompatibility: Requires Python 3.11+\nmetadata:\n  author: Test\n  version: 1.0\nallowed-tools: Bash(jq:*) Read\n",
    );
    let dir = skill_in("my-skill", &text, &[]);
    let mut f = Findings::default();
    let skill = check_skill(&mut f, dir.path(), "skills/my-skill").expect("loads");
    assert!(f.list.is_empty(), "{:?}", f.list);
    insta::assert_debug_snapshot!(skill);
}

#[test]
fn allowed_tools_may_be_a_list() {
    let text = skill_md("name: my-skill\ndescription: d\nallowed-tools:\n  - Read\n  - Bash\n");
    let dir = skill_in("my-skill", &text, &[]);
    let mut f = Findings::default();
    let skill = check_skill(&mut f, dir.path(), "skills/my-skill").unwrap();
    assert_eq!(skill.allowed_tools.as_deref(), Some("Read Bash"));
}

#[test]
fn uppercase_name() {
    insta::assert_snapshot!(findings(
        "MySkill",
        &skill_md("name: MySkill\ndescription: A test skill\n"),
        &[]
    ));
}

#[test]
fn consecutive_hyphens() {
    insta::assert_snapshot!(findings(
        "my--skill",
        &skill_md("name: my--skill\ndescription: A test skill\n"),
        &[]
    ));
}

#[test]
fn leading_hyphen() {
    insta::assert_snapshot!(findings(
        "-my-skill",
        &skill_md("name: -my-skill\ndescription: A test skill\n"),
        &[]
    ));
}

#[test]
fn invalid_characters() {
    insta::assert_snapshot!(findings(
        "my_skill",
        &skill_md("name: my_skill\ndescription: A test skill\n"),
        &[]
    ));
}

#[test]
fn name_differs_from_folder() {
    insta::assert_snapshot!(findings(
        "wrong-name",
        &skill_md("name: correct-name\ndescription: A test skill\n"),
        &[]
    ));
}

#[test]
fn name_of_65_characters() {
    let name = "a".repeat(65);
    insta::assert_snapshot!(findings(
        &name,
        &skill_md(&format!("name: {name}\ndescription: A test skill\n")),
        &[]
    ));
}

#[test]
fn name_of_64_characters_is_fine() {
    let name = "a".repeat(64);
    let out = findings(
        &name,
        &skill_md(&format!("name: {name}\ndescription: d\n")),
        &[],
    );
    assert_eq!(out, "loaded: true\n");
}

#[test]
fn missing_description() {
    insta::assert_snapshot!(findings("my-skill", &skill_md("name: my-skill\n"), &[]));
}

#[test]
fn empty_and_blank_description() {
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md("name: my-skill\ndescription:\n"),
        &[]
    ));
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md("name: my-skill\ndescription: \"  \"\n"),
        &[]
    ));
}

#[test]
fn description_of_1025_characters() {
    let long = "x".repeat(1025);
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md(&format!("name: my-skill\ndescription: {long}\n")),
        &[]
    ));
    let limit = "x".repeat(1024);
    let ok = findings(
        "my-skill",
        &skill_md(&format!("name: my-skill\ndescription: {limit}\n")),
        &[],
    );
    assert_eq!(ok, "loaded: true\n");
}

#[test]
fn compatibility_of_501_characters() {
    let long = "x".repeat(501);
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md(&format!(
            "name: my-skill\ndescription: d\ncompatibility: {long}\n"
        )),
        &[]
    ));
}

#[test]
fn unknown_key() {
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md(
            "name: my-skill\ndescription: A test skill\nunknown_field: should not be here\ndescriptoin: typo\n"
        ),
        &[]
    ));
}

#[test]
fn client_keys_are_warnings_naming_the_clients() {
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md(
            "name: my-skill\ndescription: d\nwhen_to_use: reviews\nargument-hint: \"[file]\"\ndisable-model-invocation: true\n"
        ),
        &[]
    ));
}

#[test]
fn nfkc_equal_names() {
    // The reference validator's case: the folder composed (`é` U+00E9), the name decomposed
    // (`e` + U+0301). NFKC makes them one name, so they match; agx still refuses the
    // character, since skill names are ASCII.
    insta::assert_snapshot!(findings(
        "caf\u{e9}",
        &skill_md("name: cafe\u{301}\ndescription: d\n"),
        &[]
    ));
    // Full-width letters: NFKC gives plain ASCII, which the hint suggests.
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md("name: \u{ff4d}\u{ff59}-skill\ndescription: d\n"),
        &[]
    ));
}

#[test]
fn wrong_types() {
    insta::assert_snapshot!(findings(
        "my-skill",
        &skill_md("name: [a, b]\ndescription:\n  text: d\nmetadata: plain\nlicense:\n  - MIT\n"),
        &[]
    ));
}

#[test]
fn front_matter_missing_or_unclosed() {
    insta::assert_snapshot!(findings("my-skill", "# My skill\n\nname: my-skill\n", &[]));
    insta::assert_snapshot!(findings(
        "my-skill",
        "---\nname: my-skill\ndescription: d\n# Body\n",
        &[]
    ));
}

#[test]
fn front_matter_not_yaml() {
    insta::assert_snapshot!(findings(
        "my-skill",
        "---\nname: my-skill\nname: again\ndescription: d\n---\n",
        &[]
    ));
}

#[test]
fn empty_front_matter_misses_both_keys() {
    insta::assert_snapshot!(findings("my-skill", "---\n---\nBody\n", &[]));
}

#[test]
fn missing_skill_file() {
    let dir = tempfile::tempdir().unwrap();
    fs_err::create_dir_all(dir.path().join("skills/my-skill")).unwrap();
    let mut f = Findings::default();
    assert!(check_skill(&mut f, dir.path(), "skills/my-skill").is_none());
    assert_eq!(f.list.len(), 1);
    assert_eq!(f.list[0].code, "E013");
    assert_eq!(f.list[0].location.file, "skills/my-skill/SKILL.md");
}

#[test]
fn body_references_inside_outside_and_missing() {
    let text = "---\nname: my-skill\ndescription: d\n---\n\
                Run [run](scripts/run.py), read `references/guide.md`.\n\
                Not [there](references/missing.md), nor `scripts/gone.sh`.\n\
                Never [up](../other/SKILL.md) or [root](/etc/passwd).\n\
                [web](https://example.com) and `echo ../x` are not files.\n";
    insta::assert_snapshot!(findings(
        "my-skill",
        text,
        &["scripts/run.py", "references/guide.md"]
    ));
}

#[test]
fn a_long_skill_is_a_warning() {
    let body = "line\n".repeat(RECOMMENDED_LINES_FOR_TEST);
    let out = findings(
        "my-skill",
        &format!("---\nname: my-skill\ndescription: d\n---\n{body}"),
        &[],
    );
    insta::assert_snapshot!(out);
}

const RECOMMENDED_LINES_FOR_TEST: usize = check::RECOMMENDED_MAX_LINES;

#[cfg(unix)]
#[test]
fn a_linked_skill_file_is_refused_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/my-skill");
    fs_err::create_dir_all(&skill).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", skill.join(SKILL_FILE)).unwrap();
    let mut f = Findings::default();
    assert!(check_skill(&mut f, dir.path(), "skills/my-skill").is_none());
    assert_eq!(f.list[0].code, "E033", "{:?}", f.list);
}
