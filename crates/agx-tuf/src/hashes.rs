//! The `hashes` objects of TUF metadata: every listed digest must match.

use ring::digest;
use serde_json::{Map, Value};

fn algorithm(name: &str) -> Option<&'static digest::Algorithm> {
    match name {
        "sha256" => Some(&digest::SHA256),
        "sha384" => Some(&digest::SHA384),
        "sha512" => Some(&digest::SHA512),
        _ => None,
    }
}

/// Check `bytes` against every digest in `hashes`; say which one failed.
pub fn check(hashes: &Map<String, Value>, bytes: &[u8]) -> Result<(), String> {
    if hashes.is_empty() {
        return Err("no hashes are given".into());
    }
    for (name, expected) in hashes {
        let algorithm =
            algorithm(name).ok_or_else(|| format!("unsupported hash algorithm {name}"))?;
        let expected = expected
            .as_str()
            .ok_or_else(|| format!("the {name} hash is not a string"))?;
        if !hex::encode(digest::digest(algorithm, bytes)).eq_ignore_ascii_case(expected) {
            return Err(format!("{name} hash differs"));
        }
    }
    Ok(())
}

/// The `hashes` object agx writes: SHA-256.
pub fn sha256_map(bytes: &[u8]) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(
        "sha256".into(),
        Value::String(hex::encode(digest::digest(&digest::SHA256, bytes))),
    );
    map
}
