//! TUF 1.0 metadata: the signed envelope and the four top-level roles plus delegations.
//!
//! Signatures cover the canonical JSON of `signed` exactly as received, so the envelope keeps
//! the raw `signed` value; the typed view is parsed from it after the signatures are counted.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Result, malformed};

pub const ROOT: &str = "root";
pub const TIMESTAMP: &str = "timestamp";
pub const SNAPSHOT: &str = "snapshot";
pub const TARGETS: &str = "targets";

/// The major version of the specification this client speaks.
pub const SPEC_VERSION: &str = "1.0.31";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Signature {
    pub keyid: String,
    pub sig: String,
}

/// A metadata file: its signatures and its `signed` part, kept raw for verification.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Envelope {
    pub signatures: Vec<Signature>,
    pub signed: Value,
}

impl Envelope {
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self> {
        let envelope: Envelope = serde_json::from_slice(bytes).map_err(|e| malformed(file, e))?;
        let mut seen = std::collections::BTreeSet::new();
        for signature in &envelope.signatures {
            if !seen.insert(&signature.keyid) {
                return Err(malformed(
                    file,
                    format!("two signatures by key {}", signature.keyid),
                ));
            }
        }
        Ok(envelope)
    }

    /// The bytes the signatures sign: the canonical JSON of `signed`. A value canonical
    /// JSON cannot hold (a float) makes the file malformed, as python-tuf has it.
    pub fn signed_bytes(&self, file: &str) -> Result<Vec<u8>> {
        canonical_json(&self.signed).map_err(|e| malformed(file, e))
    }

    /// The typed `signed` part, checked to be of role type `expected`.
    pub fn typed<T: serde::de::DeserializeOwned>(&self, file: &str, expected: &str) -> Result<T> {
        let kind = self.signed.get("_type").and_then(Value::as_str);
        if kind != Some(expected) {
            return Err(malformed(
                file,
                format!(
                    "expected {expected} metadata, found {}",
                    kind.unwrap_or("none")
                ),
            ));
        }
        let common: Common =
            serde_json::from_value(self.signed.clone()).map_err(|e| malformed(file, e))?;
        common.check(file)?;
        serde_json::from_value(self.signed.clone()).map_err(|e| malformed(file, e))
    }

    /// The file's bytes as agx writes them: pretty JSON (clients hash what they fetch, not
    /// a canonical form, so any serialisation of the same values is valid).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("metadata serialises");
        bytes.push(b'\n');
        bytes
    }
}

/// The canonical JSON form (OLPC) that TUF signs. It has no floats: a value with one (or
/// an integer too large for 64 bits, which JSON parsing turns into one) is refused.
pub fn canonical_json(value: &Value) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut out, olpc_cjson::CanonicalFormatter::new());
    value
        .serialize(&mut serializer)
        .map_err(|e| format!("not canonical JSON: {e}"))?;
    Ok(out)
}

/// The fields every role shares.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Common {
    #[serde(rename = "_type")]
    pub kind: String,
    pub spec_version: String,
    pub version: u64,
    pub expires: String,
}

impl Common {
    fn check(&self, file: &str) -> Result<()> {
        let major = self.spec_version.split('.').next().unwrap_or_default();
        if major != "1" || self.spec_version.split('.').count() < 2 {
            return Err(malformed(
                file,
                format!("unsupported spec_version {:?}", self.spec_version),
            ));
        }
        if self.version == 0 {
            return Err(malformed(file, "version must be at least 1"));
        }
        parse_expires(file, &self.expires)?;
        Ok(())
    }
}

/// `expires`: `YYYY-MM-DDTHH:MM:SSZ` (UTC, as the specification requires).
pub fn parse_expires(file: &str, text: &str) -> Result<DateTime<Utc>> {
    if !text.ends_with('Z') {
        return Err(malformed(
            file,
            format!("expires {text:?} is not a UTC time ending in Z"),
        ));
    }
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| malformed(file, format!("expires {text:?}: {e}")))
}

pub fn format_expires(time: DateTime<Utc>) -> String {
    time.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct KeyValue {
    pub public: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Key {
    pub keytype: String,
    pub scheme: String,
    pub keyval: KeyValue,
}

impl Key {
    /// The key's id: the SHA-256 of its canonical JSON (the specification's KEYID).
    pub fn id(&self) -> String {
        let value = serde_json::to_value(self).expect("a key serialises");
        hex::encode(ring::digest::digest(
            &ring::digest::SHA256,
            &canonical_json(&value).expect("a key holds strings only"),
        ))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct RoleKeys {
    pub keyids: Vec<String>,
    pub threshold: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Root {
    #[serde(flatten)]
    pub common: Common,
    #[serde(default)]
    pub consistent_snapshot: bool,
    pub keys: BTreeMap<String, Key>,
    pub roles: BTreeMap<String, RoleKeys>,
}

impl Root {
    pub fn role(&self, file: &str, name: &str) -> Result<&RoleKeys> {
        self.roles
            .get(name)
            .ok_or_else(|| malformed(file, format!("root names no {name} role")))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct MetaFile {
    pub version: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashes: Option<serde_json::Map<String, Value>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Timestamp {
    #[serde(flatten)]
    pub common: Common,
    pub meta: BTreeMap<String, MetaFile>,
}

impl Timestamp {
    pub fn snapshot_meta(&self, file: &str) -> Result<&MetaFile> {
        self.meta
            .get("snapshot.json")
            .ok_or_else(|| malformed(file, "timestamp names no snapshot.json"))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Snapshot {
    #[serde(flatten)]
    pub common: Common,
    pub meta: BTreeMap<String, MetaFile>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TargetFile {
    pub length: u64,
    pub hashes: serde_json::Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom: Option<Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Targets {
    #[serde(flatten)]
    pub common: Common,
    pub targets: BTreeMap<String, TargetFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delegations: Option<Delegations>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Delegations {
    pub keys: BTreeMap<String, Key>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roles: Option<Vec<DelegatedRole>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succinct_roles: Option<SuccinctRoles>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DelegatedRole {
    pub name: String,
    pub keyids: Vec<String>,
    pub threshold: u64,
    #[serde(default)]
    pub terminating: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_hash_prefixes: Option<Vec<String>>,
}

/// PEP 458 / TAP 15 hashed bins: `2^bit_length` roles named `{name_prefix}-{bin:0Nx}`, each
/// holding the targets whose path hashes into it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SuccinctRoles {
    pub keyids: Vec<String>,
    pub threshold: u64,
    pub bit_length: u32,
    pub name_prefix: String,
}

impl SuccinctRoles {
    fn suffix_len(&self) -> usize {
        self.bit_length.div_ceil(4) as usize
    }

    pub fn bin_count(&self) -> u64 {
        1u64 << self.bit_length
    }

    pub fn bin_name(&self, bin: u64) -> String {
        format!(
            "{}-{:0width$x}",
            self.name_prefix,
            bin,
            width = self.suffix_len()
        )
    }

    /// The bin a target path falls into: the first `bit_length` bits of its SHA-256.
    pub fn bin_for_target(&self, target: &str) -> String {
        let digest = ring::digest::digest(&ring::digest::SHA256, target.as_bytes());
        let first = u32::from_be_bytes(digest.as_ref()[..4].try_into().unwrap());
        let bin = if self.bit_length == 0 {
            0
        } else {
            u64::from(first >> (32 - self.bit_length))
        };
        self.bin_name(bin)
    }

    pub fn is_bin(&self, role: &str) -> bool {
        let Some(suffix) = role
            .strip_prefix(&self.name_prefix)
            .and_then(|r| r.strip_prefix('-'))
        else {
            return false;
        };
        suffix.len() == self.suffix_len()
            && u64::from_str_radix(suffix, 16).is_ok_and(|bin| bin < self.bin_count())
            && suffix
                .chars()
                .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
    }
}

impl Delegations {
    pub(crate) fn check(&self, file: &str) -> Result<()> {
        if self.roles.is_some() == self.succinct_roles.is_some() {
            return Err(malformed(
                file,
                "delegations need exactly one of roles and succinct_roles",
            ));
        }
        if let Some(succinct) = &self.succinct_roles
            && !(1..=32).contains(&succinct.bit_length)
        {
            return Err(malformed(file, "succinct_roles.bit_length must be 1 to 32"));
        }
        let mut names = std::collections::BTreeSet::new();
        for role in self.roles.iter().flatten() {
            if role.paths.is_some() == role.path_hash_prefixes.is_some() {
                return Err(malformed(
                    file,
                    format!(
                        "delegated role {} needs exactly one of paths and path_hash_prefixes",
                        role.name
                    ),
                ));
            }
            if !names.insert(&role.name) || role.name == ROOT || role.name == TARGETS {
                return Err(malformed(
                    file,
                    format!("delegated role name {} repeated or reserved", role.name),
                ));
            }
        }
        Ok(())
    }

    /// The roles that may sign for `target`, in order, each with whether it terminates the
    /// search.
    pub fn roles_for_target(&self, target: &str) -> Vec<(String, bool)> {
        if let Some(succinct) = &self.succinct_roles {
            return vec![(succinct.bin_for_target(target), true)];
        }
        self.roles
            .iter()
            .flatten()
            .filter(|role| role.matches(target))
            .map(|role| (role.name.clone(), role.terminating))
            .collect()
    }

    /// The keys and threshold that sign the delegated role `name`, if it is delegated here.
    pub fn role_keys(&self, name: &str) -> Option<RoleKeys> {
        if let Some(succinct) = &self.succinct_roles {
            return succinct.is_bin(name).then(|| RoleKeys {
                keyids: succinct.keyids.clone(),
                threshold: succinct.threshold,
            });
        }
        self.roles
            .iter()
            .flatten()
            .find(|role| role.name == name)
            .map(|role| RoleKeys {
                keyids: role.keyids.clone(),
                threshold: role.threshold,
            })
    }
}

impl DelegatedRole {
    pub fn matches(&self, target: &str) -> bool {
        if let Some(prefixes) = &self.path_hash_prefixes {
            let digest = hex::encode(ring::digest::digest(
                &ring::digest::SHA256,
                target.as_bytes(),
            ));
            return prefixes.iter().any(|p| digest.starts_with(p.as_str()));
        }
        self.paths
            .iter()
            .flatten()
            .any(|pattern| path_matches(pattern, target))
    }
}

/// The specification's path pattern: `/`-separated parts matched one by one with shell
/// wildcards (`*` and `?` never cross a `/`).
pub fn path_matches(pattern: &str, target: &str) -> bool {
    let patterns: Vec<&str> = pattern.split('/').collect();
    let parts: Vec<&str> = target.split('/').collect();
    patterns.len() == parts.len()
        && patterns.iter().zip(&parts).all(|(p, t)| {
            let p: Vec<char> = p.chars().collect();
            let t: Vec<char> = t.chars().collect();
            glob_part(&p, &t)
        })
}

/// Python's `fnmatch` for one path part, over characters: `*`, `?`, and `[set]` / `[!set]`
/// with ranges, where a `]` first in the set is a member; a `[` without its `]` is literal.
fn glob_part(pattern: &[char], text: &[char]) -> bool {
    match pattern.first() {
        None => text.is_empty(),
        Some('*') => (0..=text.len()).any(|skip| glob_part(&pattern[1..], &text[skip..])),
        Some('?') => !text.is_empty() && glob_part(&pattern[1..], &text[1..]),
        Some('[') => match (set_end(pattern), text.first()) {
            (Some(close), Some(&c)) => {
                let (negate, set) = match pattern[1] {
                    '!' => (true, &pattern[2..close]),
                    _ => (false, &pattern[1..close]),
                };
                set_contains(set, c) != negate && glob_part(&pattern[close + 1..], &text[1..])
            }
            (None, Some('[')) => glob_part(&pattern[1..], &text[1..]),
            _ => false,
        },
        Some(&c) => text.first() == Some(&c) && glob_part(&pattern[1..], &text[1..]),
    }
}

/// The index of the `]` closing the set that `pattern` opens, as `fnmatch` finds it.
fn set_end(pattern: &[char]) -> Option<usize> {
    let mut j = 1;
    if pattern.get(j) == Some(&'!') {
        j += 1;
    }
    if pattern.get(j) == Some(&']') {
        j += 1;
    }
    (j..pattern.len()).find(|&i| pattern[i] == ']')
}

fn set_contains(set: &[char], c: char) -> bool {
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            if (set[i]..=set[i + 2]).contains(&c) {
                return true;
            }
            i += 3;
        } else {
            if set[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_patterns_match_part_by_part() {
        assert!(path_matches("index/*.json", "index/acme.json"));
        assert!(!path_matches("index/*", "index/acme/weather.json"));
        assert!(path_matches("*/*", "index/acme"));
        assert!(path_matches("a?c", "abc"));
        assert!(path_matches("file[0-9].txt", "file7.txt"));
        assert!(!path_matches("file[!0-9].txt", "file7.txt"));
        assert!(!path_matches("targets/*.tgz", "targets/foo.tar"));
    }

    #[test]
    fn succinct_bins_name_and_place_targets() {
        let bins = SuccinctRoles {
            keyids: vec![],
            threshold: 1,
            bit_length: 5,
            name_prefix: "bins".into(),
        };
        assert_eq!(bins.bin_name(0), "bins-00");
        assert_eq!(bins.bin_name(31), "bins-1f");
        assert!(bins.is_bin("bins-1f"));
        assert!(!bins.is_bin("bins-20"));
        assert!(!bins.is_bin("bins-1F"));
        assert!(!bins.is_bin("bins-001"));
        assert!(bins.is_bin(&bins.bin_for_target("index/acme/weather.json")));
    }

    #[test]
    fn canonical_json_sorts_keys_and_drops_whitespace() {
        let value: Value = serde_json::from_str(r#"{"b": 1, "a": [true, "x\"y"]}"#).unwrap();
        assert_eq!(
            canonical_json(&value).unwrap(),
            br#"{"a":[true,"x\"y"],"b":1}"#
        );
        let float: Value = serde_json::from_str(r#"{"x": 1.5}"#).unwrap();
        assert!(canonical_json(&float).is_err());
    }
}
