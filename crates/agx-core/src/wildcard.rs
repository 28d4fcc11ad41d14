//! Glob patterns with `*` (any run of characters, `/` included) and `?` (one character),
//! the one pattern language of policies and signer identities.

/// Whether `text` matches `pattern` as a whole.
pub fn matches(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    matches_chars(&pattern, &text)
}

/// As [`matches`], over characters already split (for a pattern matched many times).
/// Linear in practice: on a mismatch it backs up to the last `*` only, which is enough
/// since a later `*` subsumes what an earlier one could take.
pub fn matches_chars(pattern: &[char], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == '?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn stars_and_question_marks() {
        assert!(matches(
            "https://github.com/acme/*",
            "https://github.com/acme/geo/.github/workflows/release.yml@refs/tags/v1"
        ));
        assert!(!matches(
            "https://github.com/acme/*",
            "https://github.com/mallory/geo"
        ));
        assert!(matches("v?.?", "v1.2"));
        assert!(!matches("v?.?", "v1.23"));
        assert!(matches("*", ""));
        assert!(!matches("", "x"));
    }
}
