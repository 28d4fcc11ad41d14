//! The environment variables that override stored values (for CI and containers):
//! `AGX_SETTING__<PUBLISHER>__<NAME>__<KEY>`, uppercase, `-` and `.` written as `_`
//! (`AGX_SETTING__<NAME>__<KEY>` for a local package without a publisher).
//!
//! Package segments never hold `_` and keys never hold `__`, so `__` always separates
//! parts and two settings share a name only if a package segment holds `--`.

use agx_core::name::PackageName;

/// The prefix of every override variable.
pub const PREFIX: &str = "AGX_SETTING__";

/// The override variable of `key` of `package`.
pub fn override_name(package: &PackageName, key: &str) -> String {
    let mut name = String::from(PREFIX);
    if let Some(publisher) = package.publisher() {
        name.push_str(&segment(publisher));
        name.push_str("__");
    }
    name.push_str(&segment(package.name()));
    name.push_str("__");
    name.push_str(&key.to_ascii_uppercase());
    name
}

fn segment(s: &str) -> String {
    // MCP Registry namespaces hold `.` (`io.github.user`), which no variable name may.
    s.to_ascii_uppercase().replace(['-', '.'], "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_derived_from_package_and_key() {
        let p = PackageName::parse("acme/weather-pro").unwrap();
        assert_eq!(
            override_name(&p, "api_key"),
            "AGX_SETTING__ACME__WEATHER_PRO__API_KEY"
        );
        let local = PackageName::parse("notes").unwrap();
        assert_eq!(override_name(&local, "dir"), "AGX_SETTING__NOTES__DIR");
    }

    #[test]
    fn different_settings_get_different_names() {
        let a = PackageName::parse("acme/a-b").unwrap();
        let b = PackageName::parse("acme/a").unwrap();
        assert_ne!(override_name(&a, "c"), override_name(&b, "b_c"));
        let local = PackageName::parse("acme").unwrap();
        assert_ne!(override_name(&b, "key"), override_name(&local, "a_key"));
    }
}
