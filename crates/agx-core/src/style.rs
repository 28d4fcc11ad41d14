//! ANSI styles for text meant for people. A pure function of the text and a colour switch:
//! callers decide whether to colour (the CLI's printer, from `--color` and the terminal).

#[derive(Clone, Copy)]
pub enum Style {
    Error,
    Warning,
    Hint,
    Status,
    Bold,
    Dim,
}

/// `text` in `style` when `color` is on; unchanged otherwise.
pub fn paint(color: bool, style: Style, text: &str) -> String {
    if !color {
        return text.to_string();
    }
    format!("\x1b[{}m{text}\x1b[0m", code(style))
}

fn code(style: Style) -> &'static str {
    match style {
        Style::Error => "1;31",
        Style::Warning => "1;33",
        Style::Hint => "1;36",
        Style::Status => "1;32",
        Style::Bold => "1",
        Style::Dim => "2",
    }
}

/// The styles, for telling agx's own colour sequences from others.
const STYLES: [Style; 6] = [
    Style::Error,
    Style::Warning,
    Style::Hint,
    Style::Status,
    Style::Bold,
    Style::Dim,
];

/// `text` made safe to show on a terminal: a package's description, a registry's entry or a
/// server's message may hold escape sequences that write the clipboard (OSC 52), clear the
/// screen, retitle the window or hide text, or bidirectional overrides that show text in
/// another order. Only colour sequences (`ESC [ digits ; … m`, what [`paint`] writes) and
/// newlines and tabs are kept, and of escape sequences only the colours [`paint`] writes
/// (a package's own could hide text); every other control character becomes `�`, and so
/// does a whole escape sequence.
pub fn for_terminal(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && !matches!(c, '\n' | '\t'))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' {
            let sequence = escape_sequence_len(rest);
            let body = &rest[1..sequence];
            let colour = body
                .strip_prefix('[')
                .and_then(|b| b.strip_suffix('m'))
                .is_some_and(|c| c == "0" || STYLES.iter().any(|s| code(*s) == c));
            if colour {
                out.push_str(&rest[..sequence]);
            } else {
                out.push('\u{fffd}');
            }
            rest = &rest[sequence..];
            continue;
        }
        // A CR before a newline is a Windows line end, not a return to overwrite the line.
        if c == '\r' && rest[1..].starts_with('\n') {
            rest = &rest[1..];
            continue;
        }
        out.push(if unsafe_char(c) { '\u{fffd}' } else { c });
        rest = &rest[c.len_utf8()..];
    }
    std::borrow::Cow::Owned(out)
}

/// The length in bytes of the escape sequence at the start of `text` (which starts with
/// ESC): CSI (`ESC [` … final byte), OSC, DCS, SOS, PM and APC strings (to BEL or `ESC \`),
/// or ESC and one character.
fn escape_sequence_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    match bytes.get(1) {
        Some(b'[') => bytes[2..]
            .iter()
            .position(|b| (0x40..=0x7e).contains(b))
            .map_or(bytes.len(), |i| i + 3),
        Some(b']' | b'P' | b'X' | b'^' | b'_') => {
            let mut i = 2;
            while i < bytes.len() {
                if bytes[i] == 0x07 {
                    return i + 1;
                }
                if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'\\') {
                    return i + 2;
                }
                i += 1;
            }
            bytes.len()
        }
        Some(_) => 1 + text[1..].chars().next().map_or(0, char::len_utf8),
        None => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_colours_newlines_and_tabs_reach_the_terminal() {
        assert_eq!(for_terminal("plain\ttext\n"), "plain\ttext\n");
        assert!(matches!(
            for_terminal("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
        let painted = paint(true, Style::Warning, "warning");
        assert_eq!(for_terminal(&painted), painted);
        for (hostile, shown) in [
            ("a\x1b]52;c;ZXZpbA==\x07b", "a\u{fffd}b"),
            ("a\x1b]0;title\x1b\\b", "a\u{fffd}b"),
            ("a\x1b[2Jb", "a\u{fffd}b"),
            ("a\x1b[8mb", "a\u{fffd}b"),
            ("a\x1bcb", "a\u{fffd}b"),
            ("a\rb", "a\u{fffd}b"),
            ("a\r\nb", "a\nb"),
            ("a\u{9b}b", "a\u{fffd}b"),
            ("a\u{202e}b", "a\u{fffd}b"),
            ("a\x07\x08b", "a\u{fffd}\u{fffd}b"),
            ("end\x1b]52;c;", "end\u{fffd}"),
            ("end\x1b", "end\u{fffd}"),
        ] {
            assert_eq!(for_terminal(hostile), shown, "{hostile:?}");
        }
    }
}
