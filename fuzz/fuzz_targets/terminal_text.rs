//! Text that packages, registries and clients supply, as agx reads or shows it: everything
//! printed passes `agx_core::style::for_terminal`; a SKILL.md body's file references are
//! found by `skills::references::find`; a URI a client reads is matched against a server's
//! template by `UriTemplate::matches_exactly`. Input: any bytes, read as UTF-8 (lossily); for
//! the template, the first line is the template and the rest the URI.
//!
//! Properties: nothing panics; what `for_terminal` returns holds no control character but
//! newline, tab and agx's own colour sequences, no bidirectional control, and is its own
//! result again; every reference's span lies in the text and on a character boundary; a URI
//! that matches exactly also matches.
#![no_main]

use agx_core::style::for_terminal;
use agx_model::manifest::uri_template::UriTemplate;
use agx_model::skills::references;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);

    let shown = for_terminal(&text);
    assert_eq!(for_terminal(&shown), shown, "shown text is stable");
    let mut rest: &str = &shown;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' {
            let end = rest.find('m').expect("a kept escape is a colour");
            let body = &rest[2..end];
            assert!(rest[1..].starts_with('['), "only CSI colours are kept: {rest:?}");
            assert!(
                body.bytes().all(|b| b.is_ascii_digit() || b == b';'),
                "a kept escape is a colour: {body:?}"
            );
            rest = &rest[end + 1..];
            continue;
        }
        assert!(
            !(c.is_control() && c != '\n' && c != '\t'),
            "control {c:?} shown"
        );
        assert!(
            !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'),
            "bidi control shown"
        );
        rest = &rest[c.len_utf8()..];
    }

    for reference in references::find(&text, &(0..text.len())) {
        assert!(reference.span.end <= text.len());
        assert!(text.is_char_boundary(reference.span.start));
        assert!(text.is_char_boundary(reference.span.end));
    }

    let (template, uri) = text.split_once('\n').unwrap_or((&text, ""));
    if let Ok(template) = UriTemplate::parse(template)
        && template.matches_exactly(uri)
    {
        assert!(template.matches(uri).is_some());
    }
});
