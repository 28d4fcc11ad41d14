//! Errors reading a registry. Every variant names the URL or path involved.

use std::path::PathBuf;
use std::time::Duration;

use agx_core::name::PackageName;

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("no agx package registry is configured")]
    NoRegistry { config: PathBuf },

    #[error("unknown registry `{name}`: it is not configured in {} and is not a URL or a folder", config.display())]
    UnknownRegistry {
        name: String,
        config: PathBuf,
        known: Vec<String>,
    },

    #[error("cannot read the agx configuration {}", path.display())]
    Config { path: PathBuf, message: String },

    #[error("refusing plain-HTTP registry {url}")]
    InsecureHttp { url: String },

    #[error("invalid registry URL `{url}`: {reason}")]
    InvalidUrl { url: String, reason: String },

    #[error("registry folder {} does not exist", path.display())]
    MissingFolder { path: PathBuf },

    #[error("{} is not an agx registry: it has no config.json", path.display())]
    NotARegistry { path: PathBuf },

    #[error("invalid setting {var}={value}: expected {expected}")]
    Setting {
        var: &'static str,
        value: String,
        expected: &'static str,
    },

    #[error("not found: {url}")]
    NotFound { url: String },

    #[error("package {name} is not in the registry {registry}")]
    PackageNotFound { name: PackageName, registry: String },

    #[error("{url} answered HTTP {status}{}", attempts_note(*attempts))]
    Status {
        url: String,
        status: u16,
        attempts: u32,
    },

    #[error("cannot fetch {url}{}", attempts_note(*attempts))]
    Network {
        url: String,
        attempts: u32,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },

    #[error("{url} is larger than {}, the limit for an index file", agx_core::regular_file::human_size(*limit))]
    IndexTooLarge { url: String, limit: u64 },

    #[error("{url} is larger than {}, the most a skill's file or archive may be", agx_core::regular_file::human_size(*limit))]
    TooLarge { url: String, limit: u64 },

    #[error("{url} did not arrive within {} s{}: {received} bytes received", deadline.as_secs_f64(), attempts_note(*attempts))]
    DeadlineExceeded {
        url: String,
        deadline: Duration,
        received: u64,
        attempts: u32,
    },

    #[error("{url} is too slow{}: {received} bytes in {:.1} s, below the minimum of {min_rate} bytes per second", attempts_note(*attempts), elapsed.as_secs_f64())]
    TooSlow {
        url: String,
        received: u64,
        elapsed: Duration,
        min_rate: u64,
        attempts: u32,
    },

    #[error(
        "{url} answered 304 Not Modified to a request for the whole file, and no copy is cached"
    )]
    NotModifiedUncached { url: String },

    #[error("{url} is not cached and --offline forbids the network")]
    Offline { url: String },

    #[error("invalid index data in {location}: {message}")]
    Parse { location: String, message: String },

    /// A file system step failed; the error names the path (`fs_err`, `io_context::at`).
    #[error(transparent)]
    Io(#[from] std::io::Error),

    #[error("size mismatch for {url}: expected {expected} bytes, received {actual}")]
    SizeMismatch {
        url: String,
        expected: u64,
        actual: u64,
    },

    #[error(
        "checksum mismatch for {url}: expected sha256 {expected}, got {actual} ({bytes} bytes)"
    )]
    ChecksumMismatch {
        url: String,
        expected: String,
        actual: String,
        bytes: u64,
    },

    #[error("{url} answered an HTML page where the MCP Registry API answers JSON")]
    McpHtml { url: String },

    #[error("the MCP registry at {registry} repeats the page cursor `{cursor}`: its paging loops")]
    CursorLoop { registry: String, cursor: String },

    #[error("the MCP registry at {registry} has more than {pages} pages of servers")]
    TooManyPages { registry: String, pages: usize },

    #[error(transparent)]
    ServerJson(#[from] super::mcp_registry::ServerJsonError),

    #[error(
        "{url} is neither an agx index (no config.json) nor an MCP registry (no /v0.1/servers)"
    )]
    UnknownKind { url: String },

    #[error("{url} is an MCP registry, not an agx index; {what}")]
    NotAnAgxIndex { url: String, what: &'static str },

    #[error("{} is not a Claude-format marketplace: it has no .claude-plugin/marketplace.json", path.display())]
    NotAMarketplace { path: PathBuf },

    /// A path of a marketplace that leaves it or passes a link, or a file that is not a
    /// regular one within its cap.
    #[error(transparent)]
    MarketplaceFile(#[from] super::marketplace_files::Refused),

    #[error(
        "the marketplace source `{marketplace}` cannot publish the packages it imports: {reason}"
    )]
    PluginPublisher { marketplace: String, reason: String },

    #[error(
        "plugin `{plugin}` of the marketplace {marketplace} is not available for install (its catalog sets `policy.installation = \"NOT_AVAILABLE\"`)"
    )]
    PluginWithheld { plugin: String, marketplace: String },

    #[error("plugin `{plugin}` is not in the marketplace {marketplace}")]
    PluginNotFound {
        plugin: String,
        marketplace: String,
        known: Vec<String>,
    },

    #[error(
        "`{target}` is ambiguous: `{marketplace}` names a marketplace source and reads as a version"
    )]
    AmbiguousPluginRef { target: String, marketplace: String },

    #[error("server {name} is not in the MCP registry {registry}")]
    ServerNotFound { name: String, registry: String },

    #[error("a registry named `{name}` is already configured in {}", config.display())]
    SourceExists { name: String, config: PathBuf },

    #[error("`{name}` cannot name a registry")]
    SourceName { name: String },

    #[error("server {name} in {registry} is deleted")]
    ServerDeleted { name: String, registry: String },

    /// An answer about one server that describes another (a registry that is wrong or
    /// hostile must not install, or replace, a server nobody asked for).
    #[error(
        "{url} answered with {answered_name} {answered_version}, but {asked} was asked for; nothing was installed"
    )]
    AnswerMismatch {
        url: String,
        asked: String,
        answered_name: String,
        answered_version: String,
    },

    /// Credentials could not be read or stored (never the credential itself).
    #[error("registry credentials: {message}")]
    Credentials { message: String },

    /// An OCI registry refused or failed a request (its own error codes in `message`).
    #[error("{location}: {message}")]
    Oci { location: String, message: String },

    #[error("{url} answered 401 Unauthorized ({})", match credential_from {
        Some(from) => format!("with the credential from {from}"),
        None => "no credential was found for it".to_string(),
    })]
    Unauthorized {
        url: String,
        host: String,
        credential_from: Option<String>,
        token_var: Option<String>,
    },

    #[error("{location}: the registry refused the request ({})", match credential_from {
        Some(from) => format!("with the credential from {from}"),
        None => "no credential was found for it".to_string(),
    })]
    OciUnauthorized {
        location: String,
        host: String,
        credential_from: Option<String>,
        token_var: Option<String>,
    },

    #[error("the OCI registry of {source_name} does not list its repositories ({reason})")]
    NoCatalog { source_name: String, reason: String },

    #[error(
        "{location} already holds another archive ({existing}); refusing to replace it with {new}"
    )]
    TagTaken {
        location: String,
        existing: String,
        new: String,
    },

    /// A signed registry's TUF check failed (or its pinned trust could not be read).
    #[error("registry {source_name} refused: {error}")]
    Signed {
        source_name: String,
        error: agx_tuf::TufError,
    },

    /// A version's Sigstore bundle (or the trusted root it is checked against) failed.
    #[error("{what}: provenance refused: {error}")]
    Provenance {
        what: String,
        error: agx_provenance::ProvenanceError,
    },
}

/// ` (3 attempts)`, when there was more than one.
fn attempts_note(attempts: u32) -> String {
    if attempts > 1 {
        format!(" ({attempts} attempts)")
    } else {
        String::new()
    }
}

/// How to configure a registry, for hints.
fn how_to_add(config: &std::path::Path) -> String {
    format!(
        "add one with `agx registry add-source NAME URL|FOLDER` (saved in {}), or pass --registry URL|FOLDER (or set AGX_REGISTRY) for one run",
        config.display()
    )
}

impl agx_core::error::Hint for IndexError {
    fn hint(&self) -> Option<String> {
        match self {
            IndexError::Signed { error, .. } => error.hint(),
            IndexError::Provenance { error, .. } => error.hint(),
            IndexError::NoRegistry { config } => Some(how_to_add(config)),
            IndexError::UnknownRegistry { known, config, .. } => Some(if known.is_empty() {
                how_to_add(config)
            } else {
                format!(
                    "configured registries: {}; a folder path must exist, a URL starts with https://",
                    known.join(", ")
                )
            }),
            IndexError::Config { message, .. } => Some(format!("fix the file: {message}")),
            IndexError::InsecureHttp { url } => Some(format!(
                "use {} instead; plain http:// is allowed only for loopback addresses (127.0.0.1, ::1, localhost)",
                url.replacen("http://", "https://", 1)
            )),
            IndexError::InvalidUrl { .. } => Some(
                "a registry is an https:// URL, an OCI registry's oci://HOST/NAMESPACE, a file:// URL or a folder path".into(),
            ),
            IndexError::MissingFolder { path } | IndexError::NotARegistry { path } => Some(format!(
                "create one with `agx registry init {}`, or check the path",
                path.display()
            )),
            IndexError::PackageNotFound { .. } => {
                Some("check the spelling, or look for it with `agx search <words>`".into())
            }
            IndexError::NotFound { .. } => Some(
                "check the registry URL; an agx registry serves catalog.json, packages/ and dl/".into(),
            ),
            IndexError::Status { status, .. } if *status == 429 || *status >= 500 => Some(
                "the registry is failing or rate-limiting; try again later, or use --offline to work from the cache".into(),
            ),
            IndexError::Network { source, .. }
                if super::tls::is_certificate_error(source.as_ref()) =>
            {
                Some(
                    "the server's certificate is not one this machine trusts: if your organisation signs its own, add its CA to the system's trust store (on Linux, SSL_CERT_FILE may also name a PEM file that holds it)".into(),
                )
            }
            IndexError::Network { .. } => Some(
                "check your connection and proxy settings (HTTPS_PROXY, NO_PROXY); AGX_HTTP_TIMEOUT sets the timeout in seconds".into(),
            ),
            IndexError::TooLarge { .. } => Some(
                "no skill is that large: check the index's `url` for this skill, or ask its publisher".into(),
            ),
            IndexError::IndexTooLarge { .. } => Some(
                "an index file of 10,000 packages is about 5 MB: check the registry URL, or raise the limit with AGX_HTTP_MAX_INDEX_SIZE (bytes)".into(),
            ),
            IndexError::DeadlineExceeded { .. } => Some(
                "the registry or a proxy is stalling; try again later, use --offline to work from the cache, or raise AGX_HTTP_DEADLINE (seconds)".into(),
            ),
            IndexError::TooSlow { .. } => Some(
                "the registry or a proxy is stalling; try again later, use --offline to work from the cache, or lower AGX_HTTP_MIN_RATE (bytes per second; 0 turns the check off)".into(),
            ),
            IndexError::NotModifiedUncached { .. } => Some(
                "the server or a proxy in between answers 304 without being asked; report it to the registry's operator".into(),
            ),
            IndexError::Offline { url } if url.starts_with("oci://") => Some(
                "an OCI registry's answers are not cached: run the command without --offline".into(),
            ),
            IndexError::Offline { .. } => Some(
                "run the command once without --offline to fill the cache".into(),
            ),
            IndexError::SizeMismatch { .. } | IndexError::ChecksumMismatch { .. } => Some(
                "the file differs from what the index records: a proxy or captive portal may have altered it, or it was re-uploaded after publishing; try again, and report it to the registry if it persists".into(),
            ),
            IndexError::McpHtml { .. } | IndexError::UnknownKind { .. } => Some(
                "give the registry's base URL: an MCP registry answers GET <base>/v0.1/servers with JSON, an agx index serves <base>/config.json, a Claude-format marketplace serves <base>/.claude-plugin/marketplace.json (or give that file's URL)".into(),
            ),
            IndexError::CursorLoop { .. } | IndexError::TooManyPages { .. } => Some(
                "the registry's paging is broken; report it to its operator, or search it with fewer matches (`agx search <more words>`)".into(),
            ),
            IndexError::NotAnAgxIndex { .. } => Some(
                "an MCP registry installs its servers by their names (`agx install io.github.user/weather`); agx packages come from an agx index".into(),
            ),
            IndexError::SourceExists { name, .. } => Some(format!(
                "remove it first with `agx registry remove-source {name}`, or pick another name"
            )),
            IndexError::SourceName { .. } => Some(
                "use letters, digits, `-` and `_` (at most 64), e.g. `official`".into(),
            ),
            IndexError::NotAMarketplace { path } => Some(format!(
                "give the folder that holds .claude-plugin/marketplace.json (not {}), or the URL serving that file",
                path.display()
            )),
            IndexError::MarketplaceFile(_) => Some(
                "a marketplace's plugins are regular files and folders inside its folder: agx follows no symbolic link there and reads no FIFO or device; fix the marketplace (or ask its maintainer to), or remove it with `agx registry remove-source`".into(),
            ),
            IndexError::PluginPublisher { marketplace, .. } => Some(format!(
                "an imported plugin's publisher is its marketplace's configured name: add the marketplace under another name (`agx registry remove-source {marketplace}`, then `agx registry add-source NAME LOCATION`)"
            )),
            IndexError::PluginWithheld { .. } => Some(
                "its marketplace withholds it from installs (Codex refuses it too): ask the marketplace's maintainer, or choose another plugin".into(),
            ),
            IndexError::PluginNotFound { known, .. } => Some(if known.is_empty() {
                "the marketplace lists no plugins".into()
            } else {
                format!("its plugins: {}", known.join(", "))
            }),
            IndexError::AmbiguousPluginRef { marketplace, .. } => Some(format!(
                "give the marketplace a name that is not a version (`agx registry remove-source {marketplace}`, then `agx registry add-source NAME LOCATION`), or name the package with its publisher (`publisher/name@{marketplace}`)"
            )),
            IndexError::ServerNotFound { .. } => Some(
                "check the spelling, or look for it with `agx search <words>`".into(),
            ),
            IndexError::ServerDeleted { .. } => Some(
                "its publisher removed it from the registry; look for another with `agx search <words>`".into(),
            ),
            IndexError::AnswerMismatch { .. } => Some(
                "the registry is misconfigured or not trustworthy; report it to its operator, or install from another source (`agx registry sources`)".into(),
            ),
            IndexError::Oci { message, .. } if message.contains("HTTP 401") || message.contains("UNAUTHORIZED") || message.contains("DENIED") => Some(
                "the registry wants credentials for this repository, or refuses the ones given; check the repository's access rights with its operator".into(),
            ),
            IndexError::Oci { .. } => Some(
                "check the source's host and namespace (`agx registry sources`); an OCI source is oci://HOST/NAMESPACE, plain HTTP only on this machine".into(),
            ),
            IndexError::Unauthorized { host, credential_from, token_var, .. }
            | IndexError::OciUnauthorized { host, credential_from, token_var, .. } => Some(format!(
                "{}: `agx login {host} --username USER --password-stdin` stores one in the keyring{}; Docker's config.json and ~/.netrc are read too (docs/organizations.md, \"Credentials\")",
                if credential_from.is_some() { "the credential is wrong or lacks access to this repository" } else { "the registry wants credentials" },
                token_var.as_ref().map(|v| format!(", or set {v} (CI)")).unwrap_or_default()
            )),
            IndexError::NoCatalog { .. } => Some(
                "many registries (GHCR, Docker Hub, ECR) do not offer /v2/_catalog: install its packages by name (`agx install publisher/name`), or search an agx index".into(),
            ),
            IndexError::TagTaken { .. } => Some(
                "a published version never changes: raise the version in agx.toml and publish again".into(),
            ),
            _ => None,
        }
    }
}

impl From<IndexError> for agx_store::StoreError {
    fn from(e: IndexError) -> Self {
        agx_store::StoreError::Upstream(agx_core::error::Upstream::new(e))
    }
}
