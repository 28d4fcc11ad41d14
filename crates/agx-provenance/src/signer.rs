//! Who signed an artifact, as the verified certificate (or key) says, and when two
//! signatures count as the same signer for trust on first use.

use serde::{Deserialize, Serialize};

/// The signer of a verified bundle. For a certificate, every field comes from the
/// certificate the trusted root vouched for; for a managed key, only `key` is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signer {
    /// The OIDC issuer that vouched for the identity (Fulcio's extension), e.g.
    /// `https://token.actions.githubusercontent.com`; empty for a managed key.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub issuer: String,
    /// The certificate's subject alternative name: an email address or a URI (for a CI
    /// workflow, the workflow file and the ref it ran at); for a managed key,
    /// `key:sha256:HEX` of its public key.
    pub identity: String,
    /// The repository the artifact was built from, when the certificate says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// The ref it was built from (`refs/tags/v1.2.0`), when the certificate says.
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub source_ref: Option<String>,
    /// The build configuration that signed, with its ref, when the certificate says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<String>,
}

impl Signer {
    /// A managed key's signer: the key's SPKI digest.
    pub fn key(spki_sha256_hex: &str) -> Signer {
        Signer {
            issuer: String::new(),
            identity: format!("key:sha256:{spki_sha256_hex}"),
            repository: None,
            source_ref: None,
            workflow: None,
        }
    }

    /// What stays the same from one release to the next: the issuer and the identity
    /// without the ref a workflow ran at (`…/release.yml@refs/tags/v1.2.0` and
    /// `…@refs/tags/v1.3.0` are one signer; another repository or workflow file is not).
    pub fn stable_identity(&self) -> (&str, &str) {
        (self.issuer.as_str(), identity_stem(&self.identity))
    }

    /// Whether `other` is the signer this one recorded (trust on first use).
    pub fn same_signer(&self, other: &Signer) -> bool {
        self.stable_identity() == other.stable_identity()
    }

    /// One line for `info` and `install`: `github.com/ORG/REPO, workflow release.yml@refs/tags/v1.2.0`
    /// for a CI workflow, else `IDENTITY (ISSUER)`.
    pub fn summary(&self) -> String {
        if let Some(repository) = &self.repository {
            let repository = repository
                .strip_prefix("https://")
                .or_else(|| repository.strip_prefix("http://"))
                .unwrap_or(repository);
            let workflow = self.workflow.as_deref().unwrap_or(self.identity.as_str());
            let workflow = workflow
                .split_once("/.github/workflows/")
                .map(|(_, file)| file)
                .unwrap_or(workflow);
            return format!("{repository}, workflow {workflow}");
        }
        if self.issuer.is_empty() {
            return self.identity.clone();
        }
        format!("{} ({})", self.identity, self.issuer)
    }
}

/// A URI identity without its `@refs/…` suffix; emails and other URIs unchanged.
fn identity_stem(identity: &str) -> &str {
    if identity.contains("://")
        && let Some((stem, reference)) = identity.rsplit_once('@')
        && reference.starts_with("refs/")
    {
        return stem;
    }
    identity
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workflow(repo: &str, tag: &str) -> Signer {
        Signer {
            issuer: "https://token.actions.githubusercontent.com".into(),
            identity: format!(
                "https://github.com/{repo}/.github/workflows/release.yml@refs/tags/{tag}"
            ),
            repository: Some(format!("https://github.com/{repo}")),
            source_ref: Some(format!("refs/tags/{tag}")),
            workflow: Some(format!(
                "https://github.com/{repo}/.github/workflows/release.yml@refs/tags/{tag}"
            )),
        }
    }

    #[test]
    fn one_workflow_at_two_tags_is_one_signer() {
        assert!(workflow("acme/geo", "v1.0.0").same_signer(&workflow("acme/geo", "v1.1.0")));
        assert!(!workflow("acme/geo", "v1.0.0").same_signer(&workflow("mallory/geo", "v1.1.0")));
    }

    #[test]
    fn another_issuer_is_another_signer_even_with_the_same_identity() {
        let email = |issuer: &str| Signer {
            issuer: issuer.into(),
            identity: "dev@example.com".into(),
            repository: None,
            source_ref: None,
            workflow: None,
        };
        assert!(
            email("https://accounts.example.com")
                .same_signer(&email("https://accounts.example.com"))
        );
        assert!(
            !email("https://accounts.example.com").same_signer(&email("https://evil.example.com"))
        );
        // An email's `@` is not a ref.
        assert_eq!(identity_stem("dev@example.com"), "dev@example.com");
    }

    #[test]
    fn the_summary_names_the_repository_and_the_workflow() {
        assert_eq!(
            workflow("acme/geo", "v1.2.0").summary(),
            "github.com/acme/geo, workflow release.yml@refs/tags/v1.2.0"
        );
        assert_eq!(Signer::key("ab12").summary(), "key:sha256:ab12");
    }
}
