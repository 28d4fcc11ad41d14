//! Replacing secret values in text that leaves agx (log lines, tool stderr, error text).

use std::borrow::Cow;

/// What replaces a secret value.
pub const REDACTED: &str = "[redacted]";

/// The secret values one process knows, each also in the forms it takes inside a URL.
#[derive(Default, Clone)]
pub struct Redactor {
    /// Longest first, so a secret that contains another is replaced whole.
    secrets: Vec<String>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Redactor({} secrets)", self.secrets.len())
    }
}

impl Redactor {
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Self {
        let mut secrets: Vec<String> = secrets
            .into_iter()
            .filter(|s| !s.is_empty())
            .flat_map(|s| {
                let mut forms = url_forms(&s);
                forms.push(s);
                forms
            })
            .collect();
        secrets.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        secrets.dedup();
        Redactor { secrets }
    }

    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `text` with every exact secret value replaced by [`REDACTED`].
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), REDACTED));
            }
        }
        out
    }
}

/// The forms `secret` takes in a URL's path, query, fragment and user info, where they differ
/// from it: an HTTP client's errors carry the URL as its URL library wrote it
/// (`a b"` in a query becomes `a%20b%22`).
fn url_forms(secret: &str) -> Vec<String> {
    let Ok(mut url) = url::Url::parse("http://h/") else {
        return Vec::new();
    };
    url.set_path(secret);
    let mut forms = vec![url.path().trim_start_matches('/').to_string()];
    url.set_query(Some(secret));
    forms.extend(url.query().map(str::to_string));
    url.set_fragment(Some(secret));
    forms.extend(url.fragment().map(str::to_string));
    if url.set_username(secret).is_ok() {
        forms.push(url.username().to_string());
    }
    if url.set_password(Some(secret)).is_ok() {
        forms.extend(url.password().map(str::to_string));
    }
    forms.retain(|f| !f.is_empty() && f != secret);
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_are_replaced() {
        let r = Redactor::new(["tok".to_string(), "tok-123".to_string(), String::new()]);
        assert_eq!(
            r.redact("key=tok-123 and tok"),
            "key=[redacted] and [redacted]"
        );
        assert!(matches!(r.redact("nothing here"), Cow::Borrowed(_)));
        assert!(Redactor::new([String::new()]).is_empty());
    }

    #[test]
    fn the_forms_a_secret_takes_in_a_url_are_replaced() {
        let secret = "s3cret key\"/42";
        let r = Redactor::new([secret.to_string()]);
        let url = url::Url::parse(&format!("https://host/p?key={secret}#{secret}")).unwrap();
        let mut with_user = url.clone();
        with_user.set_username(secret).unwrap();
        with_user.set_password(Some(secret)).unwrap();
        let mut in_path = url.clone();
        in_path.set_path(secret);
        for text in [url.as_str(), with_user.as_str(), in_path.as_str(), secret] {
            let redacted = r.redact(text);
            assert!(!redacted.contains("s3cret"), "{text} -> {redacted}");
            assert!(redacted.contains(REDACTED), "{redacted}");
        }
        assert_eq!(
            r.redact(&format!("error sending request for url ({url})")),
            "error sending request for url (https://host/p?key=[redacted]#[redacted])"
        );
    }
}
