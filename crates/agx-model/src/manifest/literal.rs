//! Where a character of a string's value sits in the string literal as written. The scan finds
//! its matches in the text a model reads (escapes decoded, a multi-line string's first newline
//! dropped), and `agx validate` points at them in the file.

/// The byte offset within `literal` (a TOML or JSON string as written, quotes included) of
/// the character at byte `offset` of its value. `None` when `literal` does not decode to
/// `value`, or `offset` is not where one of its characters starts.
pub(crate) fn source_offset(literal: &str, value: &str, offset: usize) -> Option<usize> {
    let (open, multi_line, escapes) = if literal.starts_with("\"\"\"") {
        (3, true, true)
    } else if literal.starts_with("'''") {
        (3, true, false)
    } else if literal.starts_with('"') {
        (1, false, true)
    } else if literal.starts_with('\'') {
        (1, false, false)
    } else {
        return None;
    };
    let body_end = literal.len().checked_sub(open).filter(|&e| e >= open)?;
    let mut at = open;
    // A newline right after the opening delimiter is not part of the value.
    if multi_line {
        let rest = &literal[at..body_end];
        at += if rest.starts_with("\r\n") {
            2
        } else {
            usize::from(rest.starts_with('\n'))
        };
    }
    let mut decoded = String::with_capacity(value.len());
    let mut found = None;
    while at < body_end {
        let rest = &literal[at..body_end];
        let c = rest.chars().next()?;
        let (char, used) = if c != '\\' || !escapes {
            (Some(c), c.len_utf8())
        } else {
            match escape(&rest[1..], multi_line)? {
                Escape::Char(c, used) => (Some(c), 1 + used),
                Escape::LineEnd(used) => (None, 1 + used),
            }
        };
        if let Some(c) = char {
            if decoded.len() == offset && found.is_none() {
                found = Some(at);
            }
            decoded.push(c);
        }
        at += used;
    }
    if decoded.len() == offset && found.is_none() {
        found = Some(at);
    }
    (decoded == value).then_some(found).flatten()
}

enum Escape {
    /// The character and the bytes after the backslash it took.
    Char(char, usize),
    /// A multi-line basic string's line-ending backslash: the whitespace and line ends it
    /// swallows.
    LineEnd(usize),
}

/// The escape after a backslash: TOML's (1.1's `\e` and `\xHH` included) and JSON's (`\/`,
/// surrogate pairs). A valid file never holds one language's escape in the other's string.
fn escape(rest: &str, multi_line: bool) -> Option<Escape> {
    let simple = |c| Some(Escape::Char(c, 1));
    match rest.as_bytes().first()? {
        b'b' => simple('\u{8}'),
        b't' => simple('\t'),
        b'n' => simple('\n'),
        b'f' => simple('\u{c}'),
        b'r' => simple('\r'),
        b'e' => simple('\u{1b}'),
        b'"' => simple('"'),
        b'\\' => simple('\\'),
        b'/' => simple('/'),
        b'x' => Some(Escape::Char(char::from_u32(hex(rest, 1, 2)?)?, 3)),
        b'U' => Some(Escape::Char(char::from_u32(hex(rest, 1, 8)?)?, 9)),
        b'u' => {
            let unit = hex(rest, 1, 4)?;
            if let Some(c) = char::from_u32(unit) {
                return Some(Escape::Char(c, 5));
            }
            // A UTF-16 surrogate pair, as JSON writes characters outside the first plane.
            let low = rest
                .get(5..7)
                .filter(|s| *s == "\\u")
                .and(hex(rest, 7, 4))?;
            let c = char::decode_utf16([unit as u16, low as u16]).next()?.ok()?;
            Some(Escape::Char(c, 11))
        }
        b' ' | b'\t' | b'\n' | b'\r' if multi_line => {
            let swallowed = rest
                .find(|c: char| !matches!(c, ' ' | '\t' | '\n' | '\r'))
                .unwrap_or(rest.len());
            rest[..swallowed]
                .contains('\n')
                .then_some(Escape::LineEnd(swallowed))
        }
        _ => None,
    }
}

fn hex(rest: &str, from: usize, digits: usize) -> Option<u32> {
    let digits = rest.get(from..from + digits)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::source_offset;

    /// The offset in `literal` of the character of `value` that `needle` starts at.
    fn at(literal: &str, value: &str, needle: &str) -> Option<usize> {
        source_offset(literal, value, value.find(needle).unwrap())
    }

    #[test]
    fn plain_strings_keep_offsets_past_the_quote() {
        assert_eq!(at(r#""read ~/.ssh now""#, "read ~/.ssh now", "~"), Some(6));
        assert_eq!(at("'read ~/.ssh'", "read ~/.ssh", "~"), Some(6));
        assert_eq!(source_offset(r#""ab""#, "ab", 2), Some(3), "the end");
    }

    #[test]
    fn escapes_take_their_written_length() {
        let value = "a\u{1b}[8m \"x\" \u{E0041}b";
        let toml = r#""a\u001b[8m \"x\" \U000E0041b""#;
        assert_eq!(at(toml, value, "\u{1b}"), Some(2));
        assert_eq!(at(toml, value, "[8m"), Some(8));
        assert_eq!(at(toml, value, "\u{E0041}"), Some(18));
        assert_eq!(at(toml, value, "b"), Some(28));
        assert_eq!(
            at(r#""\e[0m \x41""#, "\u{1b}[0m A", "A"),
            Some(7),
            "TOML 1.1"
        );
        // JSON: `\/` and a surrogate pair for U+1F600.
        let json = r#""a\/b \ud83d\ude00 c""#;
        assert_eq!(at(json, "a/b \u{1F600} c", "c"), Some(19));
    }

    #[test]
    fn multi_line_strings_drop_the_first_newline_and_line_end_backslashes() {
        let toml = "\"\"\"\nAdds.\nignore it\"\"\"";
        assert_eq!(at(toml, "Adds.\nignore it", "ignore"), Some(10));
        let folded = "\"\"\"\r\nThe quick \\\n    brown fox\"\"\"";
        assert_eq!(
            at(folded, "The quick brown fox", "brown"),
            Some(21),
            "the backslash swallows the line end and the indent"
        );
        let literal = "'''\nraw \\n text'''";
        assert_eq!(at(literal, "raw \\n text", "text"), Some(11));
        // Quotes before the closing delimiter are the value's.
        assert_eq!(
            at("\"\"\"say \"hi\"\"\"\"\"", "say \"hi\"\"", "hi"),
            Some(8)
        );
    }

    #[test]
    fn a_literal_that_is_not_the_value_gives_none() {
        assert_eq!(source_offset(r#""abc""#, "abd", 0), None);
        assert_eq!(source_offset("abc", "abc", 0), None, "no quotes");
        assert_eq!(source_offset(r#""\q""#, "q", 0), None, "not an escape");
        assert_eq!(source_offset(r#""""#, "", 0), Some(1));
        assert_eq!(source_offset("\"", "", 0), None, "a lone quote");
        assert_eq!(source_offset(r#""é""#, "é", 1), None, "inside a character");
    }
}
