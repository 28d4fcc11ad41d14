//! URI templates of resources (RFC 6570): simple expansion `{name}` (level 1) and reserved
//! expansion `{+name}` (level 2), parsed once and matched against the URIs clients read.
//!
//! Matching inverts expansion: a `{name}` value is one or more characters other than `/`, `?`
//! and `#` (expansion percent-encodes those), a `{+name}` value may hold `/`; both are
//! percent-decoded. Two variables must be separated by literal text, so every URI matches a
//! template in at most one obvious way.

use std::fmt;

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable { name: String, reserved: bool },
}

/// Why a template does not parse: what is wrong and the byte offset in the template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset + 1)
    }
}

impl std::error::Error for TemplateError {}

/// The longest URI matched against templates: longer ones are no resource of a package.
pub const MAX_URI_BYTES: usize = 8 * 1024;

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

impl UriTemplate {
    pub fn parse(text: &str) -> Result<UriTemplate, TemplateError> {
        let err = |offset: usize, message: String| Err(TemplateError { offset, message });
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text.char_indices().peekable();
        while let Some((at, c)) = rest.next() {
            match c {
                '}' => return err(at, "`}` without an opening `{`".into()),
                '{' => {
                    let close = match text[at..].find('}') {
                        Some(i) => at + i,
                        None => return err(at, "`{` is never closed".into()),
                    };
                    let inner = &text[at + 1..close];
                    let (reserved, name) = match inner.strip_prefix('+') {
                        Some(name) => (true, name),
                        None => (false, inner),
                    };
                    if let Some(op) = name.chars().next().filter(|c| "#./;?&=,!@|".contains(*c)) {
                        return err(
                            at + 1,
                            format!(
                                "the operator `{op}` is not supported; use `{{name}}` or `{{+name}}`"
                            ),
                        );
                    }
                    if name.contains(',') || name.contains('*') || name.contains(':') {
                        return err(
                            at + 1,
                            format!(
                                "`{{{inner}}}` is a list or modifier; give one variable per pair of braces"
                            ),
                        );
                    }
                    if name.is_empty() || !name.chars().all(is_name_char) {
                        return err(
                            at + 1,
                            format!(
                                "`{name}` is not a variable name (letters, digits, `_` and `.`)"
                            ),
                        );
                    }
                    if literal.is_empty() && matches!(parts.last(), Some(Part::Variable { .. })) {
                        return err(
                            at,
                            format!(
                                "`{{{inner}}}` follows another variable directly; separate them with literal text"
                            ),
                        );
                    }
                    if !literal.is_empty() {
                        parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    if parts
                        .iter()
                        .any(|p| matches!(p, Part::Variable { name: n, .. } if n == name))
                    {
                        return err(at + 1, format!("the variable `{name}` appears twice"));
                    }
                    parts.push(Part::Variable {
                        name: name.to_string(),
                        reserved,
                    });
                    while rest.peek().is_some_and(|(i, _)| *i <= close) {
                        rest.next();
                    }
                }
                c if c.is_whitespace() || c.is_control() => {
                    return err(
                        at,
                        "a URI cannot contain spaces or control characters".into(),
                    );
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(Part::Literal(literal));
        }
        Ok(UriTemplate { parts })
    }

    /// The variable names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The template with each variable replaced by `sample` (to check the URI it makes).
    pub fn expand_with(&self, sample: &str) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Literal(l) => l.as_str(),
                Part::Variable { .. } => sample,
            })
            .collect()
    }

    /// The variables' decoded values when `uri` is an expansion of this template.
    pub fn matches(&self, uri: &str) -> Option<Vec<(String, String)>> {
        if uri.len() > MAX_URI_BYTES {
            return None;
        }
        let mut values = Vec::new();
        match_parts(&self.parts, uri, &mut values).then_some(values)
    }

    /// Whether `uri` is an expansion of this template in the one spelling a server cannot
    /// read as another URI: literal parts exactly as written (no `FILE:` for `file:`), and
    /// values with no dot segment (`.`, `..`), no empty segment (`//`), no encoded `/`, `\`
    /// or `.`, no percent-encoded character that needs no encoding (`%73` for `s`), and no
    /// space or control character. A filter checks a URI this way before letting a read
    /// of a template's resource through (docs/profiles.md).
    pub fn matches_exactly(&self, uri: &str) -> bool {
        if !uri.is_ascii() || uri.bytes().any(|b| b <= b' ' || b == 0x7f) {
            return false;
        }
        if !percent_encodings_are_plain(uri) {
            return false;
        }
        self.matches(uri).is_some_and(|values| {
            values.iter().all(|(_, value)| {
                !value.contains('\\')
                    && value
                        .split('/')
                        .all(|segment| !matches!(segment, "" | "." | ".."))
            })
        })
    }
}

/// Whether every `%XX` in `uri` is well formed and encodes a character that has to be
/// encoded (not a letter, digit, `-`, `.`, `_` or `~`) and is no path separator (`/`, `\`):
/// a server that decodes before it routes would read those as another path.
fn percent_encodings_are_plain(uri: &str) -> bool {
    let bytes = uri.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let Some(byte) = bytes
                .get(i + 1..i + 3)
                .and_then(|hex| std::str::from_utf8(hex).ok())
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            else {
                return false;
            };
            if byte.is_ascii_alphanumeric() || b"-._~/\\".contains(&byte) {
                return false;
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    true
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.parts {
            match p {
                Part::Literal(l) => f.write_str(l)?,
                Part::Variable { name, reserved } => {
                    write!(f, "{{{}{name}}}", if *reserved { "+" } else { "" })?
                }
            }
        }
        Ok(())
    }
}

/// Match `parts` against all of `rest`, pushing decoded values; shortest values first.
fn match_parts(parts: &[Part], rest: &str, values: &mut Vec<(String, String)>) -> bool {
    let Some((first, others)) = parts.split_first() else {
        return rest.is_empty();
    };
    match first {
        Part::Literal(l) => rest
            .strip_prefix(l.as_str())
            .is_some_and(|after| match_parts(others, after, values)),
        Part::Variable { name, reserved } => {
            let stops: &[char] = if *reserved {
                &['?', '#']
            } else {
                &['/', '?', '#']
            };
            let longest = rest.find(stops).unwrap_or(rest.len());
            // A value ends where the next literal starts (variables are never adjacent), or
            // at the end of the URI for the last part.
            let ends: Vec<usize> = match others.first() {
                Some(Part::Literal(next)) => rest
                    .match_indices(next.as_str())
                    .map(|(i, _)| i)
                    .filter(|&i| i > 0 && i <= longest)
                    .collect(),
                _ => (longest == rest.len() && !rest.is_empty())
                    .then_some(longest)
                    .into_iter()
                    .collect(),
            };
            for end in ends {
                let Ok(value) = percent_encoding::percent_decode_str(&rest[..end]).decode_utf8()
                else {
                    continue;
                };
                values.push((name.clone(), value.into_owned()));
                if match_parts(others, &rest[end..], values) {
                    return true;
                }
                values.pop();
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        UriTemplate::parse(template).unwrap().matches(uri)
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn simple_variables_match_one_segment_and_are_decoded() {
        assert_eq!(
            vars("test://template/{id}/data", "test://template/123/data"),
            Some(pairs(&[("id", "123")]))
        );
        assert_eq!(
            vars("weather://{city}/{day}", "weather://New%20York/today"),
            Some(pairs(&[("city", "New York"), ("day", "today")]))
        );
        assert_eq!(
            vars("test://template/{id}/data", "test://template/1/2/data"),
            None
        );
        assert_eq!(
            vars("test://template/{id}/data", "test://template//data"),
            None
        );
        assert_eq!(
            vars("test://template/{id}/data", "test://other/1/data"),
            None
        );
    }

    #[test]
    fn reserved_variables_may_hold_slashes() {
        assert_eq!(
            vars("file:///{+path}", "file:///docs/a/b.md"),
            Some(pairs(&[("path", "docs/a/b.md")]))
        );
    }

    #[test]
    fn a_value_ends_at_the_literal_that_follows() {
        assert_eq!(
            vars("x://{a}-{b}", "x://1-2-3"),
            Some(pairs(&[("a", "1"), ("b", "2-3")]))
        );
    }

    #[test]
    fn bad_templates_say_what_and_where() {
        let e = |t: &str| UriTemplate::parse(t).unwrap_err();
        assert_eq!(e("x://{a").offset, 4);
        assert!(e("x://{a").message.contains("never closed"));
        assert!(e("x://{?q}").message.contains("operator `?`"));
        assert!(e("x://{a,b}").message.contains("one variable"));
        assert!(e("x://{a}{b}").message.contains("separate them"));
        assert!(e("x://{a}/{a}").message.contains("twice"));
        assert!(e("x://{}").message.contains("not a variable name"));
        assert!(e("x://a}").message.contains("without an opening"));
        assert!(e("x:// {a}").message.contains("spaces"));
    }

    #[test]
    fn variables_and_display_round_trip() {
        let t = UriTemplate::parse("x://{a}/{+b}").unwrap();
        assert_eq!(t.variables().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(t.to_string(), "x://{a}/{+b}");
        assert_eq!(t.expand_with("v"), "x://v/v");
    }

    #[test]
    fn only_the_canonical_spelling_matches_exactly() {
        let docs = UriTemplate::parse("file:///docs/{+path}").unwrap();
        let one = UriTemplate::parse("test://template/{id}/data").unwrap();
        assert!(docs.matches_exactly("file:///docs/a/b.md"));
        assert!(docs.matches_exactly("file:///docs/New%20York.md"));
        assert!(one.matches_exactly("test://template/123/data"));
        for uri in [
            "file:///docs/../secret",
            "file:///docs/./a.md",
            "file:///docs/a//b.md",
            "file:///docs/a/..",
            "file:///docs/%73ecret",
            "file:///docs/a%2F..%2Fsecret",
            "file:///docs/a%2e%2e",
            "file:///docs/a\\..\\b",
            "FILE:///docs/a.md",
            "file://localhost/docs/a.md",
            "file:///docs/a b",
            "file:///docs/\u{200b}a",
            "file:///docs/a%zz",
        ] {
            assert!(!docs.matches_exactly(uri), "{uri}");
        }
        assert!(!one.matches_exactly("test://template/..%2Fx/data"));
        assert!(!one.matches_exactly("test://template/../data"));
    }

    #[test]
    fn an_overlong_uri_matches_nothing() {
        let uri = format!("x://{}", "a".repeat(MAX_URI_BYTES));
        assert_eq!(vars("x://{a}", &uri), None);
    }
}
