//! `${settings.KEY}` in a wrapped or remote server's `command`, `env`, `url` and `headers`:
//! replaced by the setting's value when `agx serve` starts it. A command element or an
//! `env`/header entry that names a setting without a value is left out, so an optional
//! flag written as one element (`--units=${settings.units}`) simply disappears when unset.
//! See docs/package-format.md, "Remote and wrapped servers".

use super::PackageSettings;

const OPEN: &str = "${settings.";

/// `text` with every reference replaced; `None` when a referenced setting has no value
/// (or is not declared).
pub fn expand(text: &str, settings: &PackageSettings) -> Option<String> {
    let value = |key: &str| {
        settings
            .settings
            .iter()
            .find(|s| s.setting.key == key)
            .and_then(|s| s.value())
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let Some(end) = after.find('}') else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(value(&after[..end])?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// The keys `text` refers to, for checking them against the declared settings.
pub fn references(text: &str) -> Vec<&str> {
    let mut keys = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let Some(end) = after.find('}') else {
            break;
        };
        keys.push(&after[..end]);
        rest = &after[end + 1..];
    }
    keys
}

/// Each element expanded, the ones naming an unset setting left out.
pub fn expand_all<'a>(
    items: impl IntoIterator<Item = &'a String>,
    settings: &PackageSettings,
) -> Vec<String> {
    items
        .into_iter()
        .filter_map(|item| expand(item, settings))
        .collect()
}

/// Each `(name, value)` pair with its value expanded, the ones naming an unset setting
/// left out.
pub fn expand_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a String, &'a String)>,
    settings: &PackageSettings,
) -> Vec<(String, String)> {
    pairs
        .into_iter()
        .filter_map(|(name, value)| Some((name.clone(), expand(value, settings)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{ResolvedSetting, Setting, ValueSource};
    use agx_core::name::PackageName;

    fn settings() -> PackageSettings {
        let package = PackageName::parse("io.github.user/weather").unwrap();
        PackageSettings {
            package,
            settings: vec![
                ResolvedSetting::new(
                    Setting::new("TOKEN"),
                    Some("s3cret".into()),
                    ValueSource::Unset,
                ),
                ResolvedSetting::new(Setting::new("units"), None, ValueSource::Unset),
            ],
        }
    }

    #[test]
    fn references_are_replaced_and_unset_ones_drop_the_element() {
        let s = settings();
        assert_eq!(
            expand("Bearer ${settings.TOKEN}", &s).as_deref(),
            Some("Bearer s3cret")
        );
        assert_eq!(expand("--units=${settings.units}", &s), None);
        assert_eq!(expand("${settings.nope}", &s), None);
        assert_eq!(
            expand("plain ${x} $settings", &s).as_deref(),
            Some("plain ${x} $settings")
        );
        let command: Vec<String> = ["node", "--units=${settings.units}", "${settings.TOKEN}"]
            .map(String::from)
            .to_vec();
        assert_eq!(expand_all(&command, &s), ["node", "s3cret"]);
        assert_eq!(
            references("a ${settings.A}${settings.b} ${settings."),
            ["A", "b"]
        );
    }
}
