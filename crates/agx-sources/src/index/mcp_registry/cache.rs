//! Where an MCP registry's answers live in agx's cache. Answers are kept per request URL
//! (query and cursor included), so an `--offline` run replays the same pages the last online
//! run fetched, and each page is revalidated with its own `ETag`.

use sha2::{Digest, Sha256};

/// The cache file of the answer to `url`: a hash, since a URL's query and cursor are not
/// safe file names.
pub fn answer_path(url: &str) -> String {
    let hash = hex::encode(Sha256::digest(url.as_bytes()));
    format!("mcp-v0.1/{}.json", &hash[..24])
}

/// The file that remembers what kind of registry a URL is, once detected.
pub const KIND_FILE: &str = "source-kind";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_url_has_its_own_file() {
        let a = answer_path("http://127.0.0.1:1/v0.1/servers?limit=100");
        let b = answer_path("http://127.0.0.1:1/v0.1/servers?limit=100&cursor=x%2Fy");
        assert_ne!(a, b);
        assert!(a.starts_with("mcp-v0.1/") && a.ends_with(".json"));
        assert!(!b.contains('?') && b.matches('/').count() == 1);
    }
}
