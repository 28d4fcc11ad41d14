//! OCI registries as agx package sources (`oci://HOST/NAMESPACE`; docs/organizations.md).
//!
//! A package `publisher/name` lives in the repository `NAMESPACE/publisher/name`; each tag that
//! is a semantic version is a published version (see [`artifact`] for the manifest). Versions
//! are read from the tags list and each tag's manifest, the archive is pulled by its layer
//! digest and checked against it, and `agx publish` pushes the same form.
//!
//! The protocol is `oci-client`'s (token challenges, blob uploads, digest checks), run on a
//! current-thread runtime: the rest of the registry code is blocking.

pub mod artifact;
pub mod provenance;
pub mod skill;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::Mutex;

use futures_util::StreamExt;
use oci_client::client::{ClientConfig, ClientProtocol};
use oci_client::errors::OciDistributionError;
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference};

use super::{ArchiveForm, Catalog, CatalogEntry, IndexEntry, IndexError};
use agx_core::name::PackageName;
use artifact::{MANIFEST_TYPE, Pulled};

/// Tags and repositories asked for per page.
const PAGE: usize = 1000;
/// Manifests fetched at once when reading a package's versions.
const CONCURRENT_MANIFESTS: usize = 8;

/// Where an OCI source is: `oci://HOST[:PORT][/NAMESPACE]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OciLocation {
    /// `HOST[:PORT]`, lowercase.
    pub registry: String,
    /// The repository path packages sit under; empty for the registry's root.
    pub namespace: String,
}

impl OciLocation {
    /// Parse `oci://HOST[:PORT][/NAMESPACE]`; `Err` says what is wrong.
    pub fn parse(url: &str) -> Result<OciLocation, String> {
        let rest = url
            .get(..6)
            .filter(|scheme| scheme.eq_ignore_ascii_case("oci://"))
            .map(|_| &url[6..])
            .ok_or("an OCI source is written oci://HOST/NAMESPACE")?;
        let rest = rest.trim_end_matches('/');
        let (registry, namespace) = rest.split_once('/').unwrap_or((rest, ""));
        if registry.is_empty() {
            return Err("it names no registry host (oci://HOST/NAMESPACE)".into());
        }
        let (host, port) = match registry.rsplit_once(':') {
            Some((host, port)) if !host.ends_with(']') || registry.starts_with('[') => {
                if port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("the port `{port}` is not a number"));
                }
                (host, Some(port))
            }
            _ => (registry, None),
        };
        let host_ok = !host.is_empty()
            && host.bytes().all(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']' | b':')
            });
        if !host_ok || port.is_some_and(|p| p.parse::<u16>().is_err()) {
            return Err(format!("`{registry}` is not a registry host[:port]"));
        }
        for segment in namespace.split('/').filter(|_| !namespace.is_empty()) {
            if !repository_segment(segment) {
                return Err(format!(
                    "the namespace segment `{segment}` is not a repository name (lowercase letters, digits and single . _ - between them)"
                ));
            }
        }
        Ok(OciLocation {
            registry: registry.to_ascii_lowercase(),
            namespace: namespace.to_string(),
        })
    }

    /// `oci://HOST/NAMESPACE`, as configured and recorded.
    pub fn display(&self) -> String {
        match self.namespace.as_str() {
            "" => format!("oci://{}", self.registry),
            ns => format!("oci://{}/{ns}", self.registry),
        }
    }

    /// The repository of a package: `NAMESPACE/publisher/name`.
    pub fn repository(&self, name: &PackageName) -> String {
        let (publisher, short) = name.path_segments();
        match self.namespace.as_str() {
            "" => format!("{publisher}/{short}"),
            ns => format!("{ns}/{publisher}/{short}"),
        }
    }

    /// Plain HTTP is spoken only to this machine: every other registry is HTTPS.
    pub fn is_loopback(&self) -> bool {
        let host = self
            .registry
            .rsplit_once(':')
            .filter(|(h, _)| !h.is_empty() && (!h.contains(':') || h.ends_with(']')))
            .map_or(self.registry.as_str(), |(h, _)| h);
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        match bare.parse::<std::net::IpAddr>() {
            Ok(ip) => ip.is_loopback(),
            Err(_) => host == "localhost",
        }
    }
}

/// One path segment of a repository name (distribution-spec):
/// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`.
fn repository_segment(segment: &str) -> bool {
    let bytes = segment.as_bytes();
    let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !bytes.is_empty()
        && alnum(&bytes[0])
        && alnum(&bytes[bytes.len() - 1])
        && bytes
            .iter()
            .all(|b| alnum(b) || matches!(b, b'.' | b'_' | b'-'))
        && !segment.contains("..")
        && !segment.contains("___")
        && !segment.contains("._")
        && !segment.contains("_.")
}

/// How agx reaches an OCI source: its credential (if any) and extra certificate authorities.
#[derive(Debug, Default)]
pub struct OciAccess {
    pub credential: Option<super::credentials::Found>,
    /// PEM certificates trusted beside the system's.
    pub ca: Vec<u8>,
    /// `AGX_TOKEN__<SOURCE>` of the configured source, for messages.
    pub token_var: Option<String>,
    /// Whether a loopback registry speaks plain HTTP (absent: it does). Never for another
    /// host.
    pub plain_http: Option<bool>,
}

impl OciAccess {
    /// The credential for the source `name` at `location` (credentials.rs's order) and the
    /// authorities in `ca`.
    pub fn lookup(
        paths: &agx_core::paths::AgxPaths,
        name: Option<&str>,
        location: &OciLocation,
        ca: Option<&Path>,
        plain_http: Option<bool>,
    ) -> Result<OciAccess, IndexError> {
        Ok(OciAccess {
            plain_http,
            credential: super::credentials::lookup(paths, name, &location.registry)?,
            ca: match ca {
                Some(path) => fs_err::read(path)?,
                None => Vec::new(),
            },
            token_var: name.map(super::credentials::token_var),
        })
    }

    fn auth(&self) -> RegistryAuth {
        match self.credential.as_ref().map(|f| &f.credential) {
            None => RegistryAuth::Anonymous,
            Some(super::credentials::Credential::Basic { username, password }) => {
                RegistryAuth::Basic(username.clone(), password.clone())
            }
            Some(super::credentials::Credential::Token(token)) => {
                RegistryAuth::Bearer(token.clone())
            }
        }
    }
}

/// Check that `path` holds PEM certificates (for `--ca`); its absolute path.
pub fn check_ca(path: &Path) -> Result<std::path::PathBuf, IndexError> {
    let absolute = std::path::absolute(path).map_err(agx_core::io_context::at("read", path))?;
    let pem = fs_err::read(&absolute)?;
    let certificates = reqwest::Certificate::from_pem_bundle(&pem).unwrap_or_default();
    if certificates.is_empty() {
        return Err(IndexError::Credentials {
            message: format!(
                "{} holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                absolute.display()
            ),
        });
    }
    Ok(absolute)
}

/// An OCI registry opened as a package source.
pub struct OciRegistry {
    location: OciLocation,
    display: String,
    offline: bool,
    client: Client,
    auth: RegistryAuth,
    /// Where the credential came from (never the credential), and the variable that would
    /// set one: for the message when the registry refuses.
    credential_from: Option<String>,
    token_var: Option<String>,
    ca: Vec<u8>,
    runtime: tokio::runtime::Runtime,
    /// The manifest digest and archive form of each version read, for what is recorded
    /// and how it unpacks, and the manifest itself (what a Sigstore referrer signs).
    read: Mutex<BTreeMap<(PackageName, semver::Version), ReadVersion>>,
}

/// A version read by [`OciRegistry::versions`].
#[derive(Debug, Clone)]
struct ReadVersion {
    digest: String,
    form: ArchiveForm,
    manifest: bytes::Bytes,
}

/// The `artifactType` (and layer media type) of a Sigstore bundle attached to an artifact
/// as a referrer, as cosign 2.x (`--new-bundle-format`) and ToolHive attach them; the
/// versions before v0.3 (`application/vnd.dev.sigstore.bundle+json;version=0.2`) too.
pub const BUNDLE_TYPE_PREFIX: &str = "application/vnd.dev.sigstore.bundle";
/// Bundle referrers read per version at most: a registry anyone can push referrers to
/// cannot make agx read without end.
const MAX_BUNDLE_REFERRERS: usize = 8;

/// The Sigstore bundles attached to a version's manifest, and that manifest: what they
/// must sign (its sha256 is the manifest's digest; its one layer is the archive).
#[derive(Debug)]
pub struct Referred {
    pub manifest: Vec<u8>,
    pub digest: [u8; 32],
    pub bundles: Vec<Vec<u8>>,
}

impl std::fmt::Debug for OciRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OciRegistry")
            .field("location", &self.display)
            .finish_non_exhaustive()
    }
}

/// What `agx publish` did to an OCI source.
#[derive(Debug, Clone, PartialEq)]
pub enum Pushed {
    /// Pushed; the manifest's digest.
    Published { manifest: String },
    /// The tag already holds the same archive: nothing was pushed.
    Unchanged { manifest: String },
}

impl OciRegistry {
    pub fn new(
        location: OciLocation,
        offline: bool,
        access: OciAccess,
    ) -> Result<OciRegistry, IndexError> {
        super::http::install_tls_provider();
        let display = location.display();
        let plain_http = location.is_loopback() && access.plain_http.unwrap_or(true);
        let protocol = if plain_http {
            ClientProtocol::HttpsExcept(vec![location.registry.clone()])
        } else {
            ClientProtocol::Https
        };
        let settings = super::HttpSettings::from_env()?;
        let extra_root_certificates = match access.ca.is_empty() {
            true => Vec::new(),
            false => vec![oci_client::client::Certificate {
                encoding: oci_client::client::CertificateEncoding::Pem,
                data: access.ca.clone(),
            }],
        };
        let client = Client::try_from(ClientConfig {
            extra_root_certificates,
            protocol,
            connect_timeout: Some(settings.timeout),
            read_timeout: Some(settings.timeout),
            user_agent: concat!("agx/", env!("CARGO_PKG_VERSION")),
            // A package source is an artifact repository, never an image index to choose in.
            platform_resolver: None,
            ..ClientConfig::default()
        })
        .map_err(|e| oci_error(&display, e))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(IndexError::Io)?;
        Ok(OciRegistry {
            location,
            display,
            offline,
            client,
            auth: access.auth(),
            credential_from: access.credential.map(|f| f.from),
            token_var: access.token_var,
            ca: access.ca,
            runtime,
            read: Mutex::new(BTreeMap::new()),
        })
    }

    /// Check that the host answers the OCI distribution API (`GET /v2/` is 200, or 401 when
    /// it wants credentials), so that a mistyped source is never configured; for a loopback
    /// registry, HTTPS first, then plain HTTP. Returns whether it spoke plain HTTP.
    pub fn check(&self) -> Result<bool, IndexError> {
        if !self.location.is_loopback() {
            return self.answers("https").map(|()| false);
        }
        match self.answers("https") {
            Ok(()) => Ok(false),
            Err(tls) => self.answers("http").map(|()| true).map_err(|_| tls),
        }
    }

    fn answers(&self, scheme: &str) -> Result<(), IndexError> {
        let url = format!("{scheme}://{}/v2/", self.location.registry);
        let settings = super::HttpSettings::from_env()?;
        let mut builder = reqwest::blocking::Client::builder()
            .user_agent(concat!("agx/", env!("CARGO_PKG_VERSION")))
            .timeout(settings.timeout)
            .redirect(reqwest::redirect::Policy::none());
        for certificate in reqwest::Certificate::from_pem_bundle(&self.ca).unwrap_or_default() {
            builder = builder.add_root_certificate(certificate);
        }
        let network = |e: reqwest::Error| IndexError::Network {
            url: url.clone(),
            attempts: 1,
            source: Box::new(e),
        };
        let status = builder
            .build()
            .map_err(network)?
            .get(&url)
            .send()
            .map_err(network)?
            .status()
            .as_u16();
        match status {
            200 | 401 => Ok(()),
            _ => Err(IndexError::Oci {
                location: self.display.clone(),
                message: format!(
                    "{url} answered HTTP {status}: it does not answer as an OCI registry"
                ),
            }),
        }
    }

    /// `oci://HOST/NAMESPACE`.
    pub fn source(&self) -> &str {
        &self.display
    }

    pub fn location(&self) -> &OciLocation {
        &self.location
    }

    fn reference(&self, name: &PackageName, tag: &str) -> Reference {
        Reference::with_tag(
            self.location.registry.clone(),
            self.location.repository(name),
            tag.to_string(),
        )
    }

    /// `oci://HOST/NAMESPACE/publisher/name:TAG`, for messages.
    fn at(&self, name: &PackageName, tag: &str) -> String {
        format!(
            "oci://{}/{}:{tag}",
            self.location.registry,
            self.location.repository(name)
        )
    }

    fn online(&self, what: String) -> Result<(), IndexError> {
        if self.offline {
            return Err(IndexError::Offline { url: what });
        }
        Ok(())
    }

    /// Every tag of a repository, page by page; `None` when the repository does not exist.
    async fn tags(&self, reference: &Reference) -> Result<Option<Vec<String>>, IndexError> {
        let mut tags = Vec::new();
        let mut last: Option<String> = None;
        loop {
            let page = self
                .client
                .list_tags(reference, &self.auth, Some(PAGE), last.as_deref())
                .await;
            let page = match page {
                Ok(page) => page,
                Err(e) if is_not_found(&e) => return Ok(None),
                Err(e) => return Err(self.error(&self.display, e)),
            };
            let full = page.tags.len() >= PAGE;
            let next = page.tags.last().cloned();
            tags.extend(page.tags);
            match next {
                // A registry that ignores `last` would repeat the page forever.
                Some(next) if full && last.as_ref() != Some(&next) => last = Some(next),
                _ => return Ok(Some(tags)),
            }
        }
    }

    /// Every published version of a package (each semver tag whose manifest is an agx
    /// package), oldest first.
    pub fn versions(&self, name: &PackageName) -> Result<Vec<IndexEntry>, IndexError> {
        let repository = self.at(name, "").trim_end_matches(':').to_string();
        self.online(repository.clone())?;
        self.runtime.block_on(async {
            let Some(tags) = self.tags(&self.reference(name, "latest")).await? else {
                return Err(IndexError::PackageNotFound {
                    name: name.clone(),
                    registry: self.display.clone(),
                });
            };
            let versions: Vec<(String, semver::Version)> = tags
                .into_iter()
                .filter_map(|tag| {
                    let version = semver::Version::parse(&tag).ok()?;
                    Some((tag, version))
                })
                .collect();
            let mut entries = Vec::new();
            let mut pulls =
                futures_util::stream::iter(versions.into_iter().map(|(tag, version)| {
                    let reference = self.reference(name, &tag);
                    let at = self.at(name, &tag);
                    async move {
                        let (bytes, digest, _) = self
                            .pull_tagged(&reference)
                            .await
                            .map_err(|e| self.error(&at, e))?;
                        let pulled = artifact::read_manifest(&bytes, name, &version, &at)?;
                        Ok::<_, IndexError>((pulled, digest, bytes, at))
                    }
                }))
                .buffer_unordered(CONCURRENT_MANIFESTS);
            while let Some(pulled) = pulls.next().await {
                let (entry, form, digest, manifest) = match pulled? {
                    (Pulled::Package(entry), digest, bytes, _) => {
                        (entry, ArchiveForm::Package, digest, bytes)
                    }
                    (Pulled::Skill(entry), digest, bytes, _) => {
                        (entry, ArchiveForm::Skill, digest, bytes)
                    }
                    (Pulled::Other(kind), _, _, at) => {
                        tracing::debug!("{at} is not an agx package ({kind}); not a version");
                        continue;
                    }
                };
                self.read.lock().expect("versions read").insert(
                    (name.clone(), entry.vers.clone()),
                    ReadVersion {
                        digest,
                        form,
                        manifest,
                    },
                );
                entries.push(*entry);
            }
            if entries.is_empty() {
                return Err(IndexError::PackageNotFound {
                    name: name.clone(),
                    registry: format!(
                        "{} (no tag of {repository} is an agx package version)",
                        self.display
                    ),
                });
            }
            entries.sort_by(|a, b| a.vers.cmp(&b.vers));
            Ok(entries)
        })
    }

    /// The manifest digest of a version read by [`Self::versions`].
    pub fn manifest_digest(&self, name: &PackageName, version: &semver::Version) -> Option<String> {
        self.read
            .lock()
            .expect("versions read")
            .get(&(name.clone(), version.clone()))
            .map(|read| read.digest.clone())
    }

    /// How the archive of a version read by [`Self::versions`] holds its files.
    pub fn archive_form(&self, entry: &IndexEntry) -> ArchiveForm {
        self.read
            .lock()
            .expect("versions read")
            .get(&(entry.name.clone(), entry.vers.clone()))
            .map_or(ArchiveForm::Package, |read| read.form)
    }

    /// The Sigstore bundles attached to `entry`'s manifest as referrers (the referrers API,
    /// or the tag schema `sha256-HEX` where the registry has none), with the manifest they
    /// sign. `None` when the version was not read by [`Self::versions`] with this source.
    pub fn bundle_referrers(&self, entry: &IndexEntry) -> Result<Option<Referred>, IndexError> {
        let key = (entry.name.clone(), entry.vers.clone());
        if !self.read.lock().expect("versions read").contains_key(&key) {
            self.versions(&entry.name)?;
        }
        let Some(read) = self.read.lock().expect("versions read").get(&key).cloned() else {
            return Ok(None);
        };
        let location = self.archive_location(entry);
        self.online(location.clone())?;
        let subject = Reference::with_digest(
            self.location.registry.clone(),
            self.location.repository(&entry.name),
            read.digest.clone(),
        );
        let bundles = self.runtime.block_on(sigstore_referrers(
            &self.client,
            &self.auth,
            &subject,
            &location,
            &|at, e| self.error(at, e),
        ))?;
        let digest = read
            .digest
            .strip_prefix("sha256:")
            .and_then(|hex| hex::decode(hex).ok())
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or_else(|| IndexError::Parse {
                location,
                message: format!("the manifest digest `{}` is not a sha256", read.digest),
            })?;
        Ok(Some(Referred {
            manifest: read.manifest.to_vec(),
            digest,
            bundles,
        }))
    }

    /// The image manifest a tag names and its digest, then the digest of what the tag
    /// holds: the tagged manifest (both digests the same), or for a skill artifact's image
    /// index its first platform's manifest (pulled by digest, checked) and the index's.
    async fn pull_tagged(
        &self,
        reference: &Reference,
    ) -> Result<(bytes::Bytes, String, String), OciDistributionError> {
        let (bytes, digest) = self
            .client
            .pull_manifest_raw(reference, &self.auth, &[MANIFEST_TYPE, skill::INDEX_TYPE])
            .await?;
        let Some(manifest) = skill::first_manifest(&bytes) else {
            return Ok((bytes, digest.clone(), digest));
        };
        let by_digest = Reference::with_digest(
            reference.registry().to_string(),
            reference.repository().to_string(),
            manifest,
        );
        let (bytes, manifest) = self
            .client
            .pull_manifest_raw(&by_digest, &self.auth, &[MANIFEST_TYPE])
            .await?;
        Ok((bytes, manifest, digest))
    }

    /// `oci://HOST/NAMESPACE/publisher/name@sha256:…` of a version's manifest, or `:VERSION`
    /// when its digest was not read.
    pub fn archive_location(&self, entry: &IndexEntry) -> String {
        match self.manifest_digest(&entry.name, &entry.vers) {
            Some(digest) => format!(
                "oci://{}/{}@{digest}",
                self.location.registry,
                self.location.repository(&entry.name)
            ),
            None => self.at(&entry.name, &entry.vers.to_string()),
        }
    }

    /// Pull a version's archive by its layer digest into `dest`, checking size and sha256 as
    /// it streams (`copy`: the registry code's checked copy).
    pub fn download(
        &self,
        entry: &IndexEntry,
        copy: &mut dyn FnMut(&mut dyn Read, &str) -> Result<(), super::SinkError>,
    ) -> Result<(), IndexError> {
        let location = self.archive_location(entry);
        self.online(location.clone())?;
        let reference = self.reference(&entry.name, &entry.vers.to_string());
        let digest = format!("sha256:{}", entry.cksum);
        let stream = self.runtime.block_on(async {
            // Authorizes the repository for this client (a token challenge answered).
            self.client
                .store_auth_if_needed(reference.resolve_registry(), &self.auth)
                .await;
            self.client
                .pull_blob_stream(&reference, digest.as_str())
                .await
        });
        let stream = stream.map_err(|e| self.error(&location, e))?;
        let mut body = BlockingBody {
            runtime: &self.runtime,
            stream: stream.stream,
            pending: bytes::Bytes::new(),
        };
        copy(&mut body, &location).map_err(|e| match e {
            super::SinkError::Fatal(e) => e,
            // The client checks the digest at the end of the stream, before agx's own check.
            super::SinkError::Read(err, received) => match err
                .get_ref()
                .and_then(|e| e.downcast_ref::<oci_client::errors::DigestError>())
            {
                Some(oci_client::errors::DigestError::VerificationError { actual, .. }) => {
                    IndexError::ChecksumMismatch {
                        url: location.clone(),
                        expected: entry.cksum.clone(),
                        actual: actual.to_string().trim_start_matches("sha256:").to_string(),
                        bytes: received,
                    }
                }
                _ => IndexError::Network {
                    url: location.clone(),
                    attempts: 1,
                    source: format!("{err} after {received} bytes").into(),
                },
            },
        })
    }

    /// Every package under the namespace, with its newest version, from the registry's
    /// catalog (`/v2/_catalog`), which not every registry offers: then an error says so.
    pub fn catalog(&self) -> Result<Catalog, IndexError> {
        let catalog_url = format!("oci://{}/v2/_catalog", self.location.registry);
        self.online(catalog_url.clone())?;
        let any = Reference::with_tag(self.location.registry.clone(), "agx".into(), "x".into());
        let repositories = self.runtime.block_on(async {
            let mut all = Vec::new();
            let mut last: Option<String> = None;
            loop {
                let page = self
                    .client
                    .catalog(&any, &self.auth, Some(PAGE), last.as_deref())
                    .await
                    .map_err(|e| IndexError::NoCatalog {
                        source_name: self.display.clone(),
                        reason: describe(&e),
                    })?;
                let full = page.repositories.len() >= PAGE;
                let next = page.repositories.last().cloned();
                all.extend(page.repositories);
                match next {
                    Some(next) if full && last.as_ref() != Some(&next) => last = Some(next),
                    _ => return Ok::<_, IndexError>(all),
                }
            }
        })?;
        let prefix = match self.location.namespace.as_str() {
            "" => String::new(),
            ns => format!("{ns}/"),
        };
        let mut packages = Vec::new();
        for repository in repositories {
            let Some(rest) = repository.strip_prefix(&prefix) else {
                continue;
            };
            let Ok(name) = PackageName::parse(rest) else {
                continue;
            };
            if name.publisher().is_none() || rest.matches('/').count() != 1 {
                continue;
            }
            match self.versions(&name) {
                Ok(entries) => {
                    let newest = entries.last().expect("versions are never empty");
                    packages.push(CatalogEntry {
                        name,
                        version: newest.vers.clone(),
                        description: newest.description.clone(),
                        extension: newest.extension.clone(),
                    });
                }
                Err(IndexError::PackageNotFound { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        packages.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Catalog { v: 1, packages })
    }

    /// Push a version: the archive, the empty config and the manifest tagged with the
    /// version. A tag that holds another archive is never replaced.
    pub fn push(
        &self,
        entry: &IndexEntry,
        archive: &Path,
        source: Option<&str>,
    ) -> Result<Pushed, IndexError> {
        let tag = entry.vers.to_string();
        let at = self.at(&entry.name, &tag);
        self.online(at.clone())?;
        let reference = self.reference(&entry.name, &tag);
        let layer_digest = format!("sha256:{}", entry.cksum);
        self.runtime.block_on(async {
            if let Some(manifest) = self.tag_holds(&reference, &at, &layer_digest).await? {
                return Ok(Pushed::Unchanged { manifest });
            }
            self.push_blob(&reference, &at, fs_err::read(archive)?, &layer_digest)
                .await?;
            self.push_blob(
                &reference,
                &at,
                artifact::EMPTY_DATA.to_vec(),
                artifact::EMPTY_DIGEST,
            )
            .await?;
            let created = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
            let manifest = artifact::manifest_for(entry, &created, source);
            let digest = format!(
                "sha256:{}",
                hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&manifest))
            );
            self.push_manifest(&reference, &at, manifest, MANIFEST_TYPE)
                .await?;
            Ok(Pushed::Published { manifest: digest })
        })
    }

    /// Push a skill as ToolHive's skill artifact ([`skill`]) tagged `version`: the layer
    /// (`layer`, whose sha256 is `layer_sha256`), the configs, each platform's manifest by
    /// digest, then the index at the tag. A tag that holds another skill is never replaced.
    pub fn push_skill(
        &self,
        name: &PackageName,
        version: &semver::Version,
        layer: &Path,
        layer_sha256: &str,
        built: &skill::SkillArtifact,
    ) -> Result<Pushed, IndexError> {
        let tag = version.to_string();
        let at = self.at(name, &tag);
        self.online(at.clone())?;
        let reference = self.reference(name, &tag);
        let layer_digest = format!("sha256:{layer_sha256}");
        self.runtime.block_on(async {
            if let Some(manifest) = self.tag_holds(&reference, &at, &layer_digest).await? {
                return Ok(Pushed::Unchanged { manifest });
            }
            self.push_blob(&reference, &at, fs_err::read(layer)?, &layer_digest)
                .await?;
            for (config, digest) in &built.configs {
                self.push_blob(&reference, &at, config.clone(), digest)
                    .await?;
            }
            for (manifest, digest) in &built.manifests {
                let by_digest = Reference::with_digest(
                    reference.registry().to_string(),
                    reference.repository().to_string(),
                    digest.clone(),
                );
                self.push_manifest(&by_digest, &at, manifest.clone(), MANIFEST_TYPE)
                    .await?;
            }
            let index = format!(
                "sha256:{}",
                hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&built.index))
            );
            self.push_manifest(&reference, &at, built.index.clone(), skill::INDEX_TYPE)
                .await?;
            Ok(Pushed::Published { manifest: index })
        })
    }

    /// Before a push to a tag: `None` when the tag is free, the manifest's digest when it
    /// already holds the archive whose digest is `layer_digest`; a tag holding anything else
    /// is refused, before any byte is sent.
    async fn tag_holds(
        &self,
        reference: &Reference,
        at: &str,
        layer_digest: &str,
    ) -> Result<Option<String>, IndexError> {
        match self.pull_tagged(reference).await {
            Ok((bytes, _, tagged)) => match artifact::layer_digest(&bytes) {
                Some(existing) if existing == layer_digest => Ok(Some(tagged)),
                existing => Err(IndexError::TagTaken {
                    location: at.to_string(),
                    existing: existing.unwrap_or_else(|| "another artifact".into()),
                    new: layer_digest.to_string(),
                }),
            },
            Err(e) if is_not_found(&e) => Ok(None),
            Err(e) => Err(self.error(at, e)),
        }
    }

    async fn push_blob(
        &self,
        reference: &Reference,
        at: &str,
        data: Vec<u8>,
        digest: &str,
    ) -> Result<(), IndexError> {
        self.client
            .push_blob(reference, data, digest)
            .await
            .map(drop)
            .map_err(|e| self.error(at, e))
    }

    async fn push_manifest(
        &self,
        reference: &Reference,
        at: &str,
        manifest: Vec<u8>,
        media_type: &str,
    ) -> Result<(), IndexError> {
        self.client
            .push_manifest_raw(
                reference,
                manifest,
                media_type.parse().expect("a header value"),
            )
            .await
            .map(drop)
            .map_err(|e| self.error(at, e))
    }
}

impl OciRegistry {
    /// An error of a request to `location`; a refusal names the credential used (where it
    /// came from) or how to give one.
    fn error(&self, location: &str, e: OciDistributionError) -> IndexError {
        if is_unauthorized(&e) {
            return IndexError::OciUnauthorized {
                location: location.to_string(),
                host: self.location.registry.clone(),
                credential_from: self.credential_from.clone(),
                token_var: self.token_var.clone(),
            };
        }
        oci_error(location, e)
    }
}

/// The Sigstore bundles attached to `subject` (a manifest by digest) as referrers, at most
/// [`MAX_BUNDLE_REFERRERS`], each pulled and checked against its digest (`location`: for
/// messages; `error`: how a failed request is reported).
async fn sigstore_referrers(
    client: &Client,
    auth: &RegistryAuth,
    subject: &Reference,
    location: &str,
    error: &dyn Fn(&str, OciDistributionError) -> IndexError,
) -> Result<Vec<Vec<u8>>, IndexError> {
    client
        .store_auth_if_needed(subject.resolve_registry(), auth)
        .await;
    let index = client
        .pull_referrers(subject, None)
        .await
        .map_err(|e| error(location, e))?;
    let is_bundle = |m: &&oci_client::manifest::ImageIndexEntry| {
        m.artifact_type
            .as_deref()
            .is_some_and(|t| t.starts_with(BUNDLE_TYPE_PREFIX))
    };
    if !index.manifests.iter().any(|m| is_bundle(&m)) {
        confirm_no_referrers_tag(client, auth, subject)
            .await
            .map_err(|e| error(location, e))?;
    }
    let mut bundles = Vec::new();
    for referrer in index
        .manifests
        .iter()
        .filter(is_bundle)
        .take(MAX_BUNDLE_REFERRERS)
    {
        let at = format!("{location} (referrer {})", referrer.digest);
        let by_digest = Reference::with_digest(
            subject.registry().to_string(),
            subject.repository().to_string(),
            referrer.digest.clone(),
        );
        let (bytes, _) = client
            .pull_manifest_raw(&by_digest, auth, &[MANIFEST_TYPE])
            .await
            .map_err(|e| error(&at, e))?;
        let manifest: artifact::Manifest =
            serde_json::from_slice(&bytes).map_err(|e| IndexError::Parse {
                location: at.clone(),
                message: format!("not an OCI image manifest: {e}"),
            })?;
        let Some(layer) = manifest
            .layers
            .iter()
            .find(|l| l.media_type.starts_with(BUNDLE_TYPE_PREFIX))
        else {
            continue;
        };
        if layer.size > agx_provenance::MAX_BUNDLE_BYTES as u64 {
            return Err(IndexError::Parse {
                location: at,
                message: format!(
                    "its bundle is {} bytes, more than a bundle's {}",
                    layer.size,
                    agx_provenance::MAX_BUNDLE_BYTES
                ),
            });
        }
        let mut bundle = Vec::with_capacity(layer.size as usize);
        let descriptor = oci_client::manifest::OciDescriptor {
            media_type: layer.media_type.clone(),
            digest: layer.digest.clone(),
            size: layer.size as i64,
            ..Default::default()
        };
        // Streamed with a cap: a registry that sends more than the descriptor's size is cut
        // off instead of filling memory. The stream checks the digest at its end.
        let mut stream = client
            .pull_blob_stream(&by_digest, &descriptor)
            .await
            .map_err(|e| error(&at, e))?
            .stream;
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| IndexError::Network {
                url: at.clone(),
                attempts: 1,
                source: Box::new(e),
            })?;
            if bundle.len() + chunk.len() > layer.size as usize {
                return Err(IndexError::Parse {
                    location: at,
                    message: format!(
                        "its bundle is longer than the {} bytes its manifest says",
                        layer.size
                    ),
                });
            }
            bundle.extend_from_slice(&chunk);
        }
        bundles.push(bundle);
    }
    Ok(bundles)
}

/// Where a registry has no referrers API, oci-client reads the referrers tag
/// (`sha256-HEX`) and takes any error the registry sends there (a refusal, a rate limit) as
/// "no referrers", which would pass for unsigned. When it found none, the tag is asked
/// again: only "not found" (or the tag itself) means none; any other error is returned.
async fn confirm_no_referrers_tag(
    client: &Client,
    auth: &RegistryAuth,
    subject: &Reference,
) -> Result<(), OciDistributionError> {
    let Some(digest) = subject.digest() else {
        return Ok(());
    };
    let tag = Reference::with_tag(
        subject.registry().to_string(),
        subject.repository().to_string(),
        digest.replace(':', "-"),
    );
    match client
        .pull_manifest_raw(&tag, auth, &[skill::INDEX_TYPE, MANIFEST_TYPE])
        .await
    {
        Ok(_) => Ok(()),
        Err(e) if is_not_found(&e) => Ok(()),
        Err(e) => Err(e),
    }
}

/// The Sigstore bundles attached as referrers to the container image `reference`
/// (`[host/]repository@sha256:…`), asked of its registry without credentials (plain HTTP
/// only for a loopback registry). `None` when the registry wants credentials for it (a
/// private image): its provenance cannot be read.
pub fn image_bundle_referrers(reference: &str) -> Result<Option<Vec<Vec<u8>>>, IndexError> {
    super::http::install_tls_provider();
    let bad = |message: String| IndexError::Parse {
        location: reference.to_string(),
        message,
    };
    let subject: Reference = reference
        .parse()
        .map_err(|e| bad(format!("not an image reference: {e}")))?;
    let registry = subject.resolve_registry().to_string();
    let loopback = OciLocation::parse(&format!("oci://{registry}")).is_ok_and(|l| l.is_loopback());
    let settings = super::HttpSettings::from_env()?;
    let client = Client::try_from(ClientConfig {
        protocol: match loopback {
            true => ClientProtocol::HttpsExcept(vec![registry]),
            false => ClientProtocol::Https,
        },
        connect_timeout: Some(settings.timeout),
        read_timeout: Some(settings.timeout),
        user_agent: concat!("agx/", env!("CARGO_PKG_VERSION")),
        platform_resolver: None,
        ..ClientConfig::default()
    })
    .map_err(|e| oci_error(reference, e))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(IndexError::Io)?;
    let read = runtime.block_on(sigstore_referrers(
        &client,
        &RegistryAuth::Anonymous,
        &subject,
        reference,
        &|at, e| match is_unauthorized(&e) {
            true => IndexError::OciUnauthorized {
                location: at.to_string(),
                host: String::new(),
                credential_from: None,
                token_var: None,
            },
            false => oci_error(at, e),
        },
    ));
    match read {
        Ok(bundles) => Ok(Some(bundles)),
        Err(IndexError::OciUnauthorized { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The registry refused the request for want of (valid) credentials.
fn is_unauthorized(e: &OciDistributionError) -> bool {
    match e {
        OciDistributionError::UnauthorizedError { .. }
        | OciDistributionError::AuthenticationFailure(_) => true,
        OciDistributionError::ServerError { code, .. } => matches!(code, 401 | 403),
        OciDistributionError::RegistryError { envelope, .. } => envelope.errors.iter().any(|e| {
            matches!(
                e.code,
                oci_client::errors::OciErrorCode::Unauthorized
                    | oci_client::errors::OciErrorCode::Denied
            )
        }),
        _ => false,
    }
}

/// A blob's byte stream read as blocking `Read`, each chunk awaited on the runtime.
struct BlockingBody<'a> {
    runtime: &'a tokio::runtime::Runtime,
    stream: futures_util::stream::BoxStream<'static, Result<bytes::Bytes, std::io::Error>>,
    pending: bytes::Bytes,
}

impl Read for BlockingBody<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() {
            match self.runtime.block_on(self.stream.next()) {
                Some(chunk) => self.pending = chunk?,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending.split_to(n));
        Ok(n)
    }
}

/// A repository, tag or manifest the registry does not have.
fn is_not_found(e: &OciDistributionError) -> bool {
    match e {
        OciDistributionError::ImageManifestNotFoundError(_) => true,
        OciDistributionError::ServerError { code, .. } => *code == 404,
        OciDistributionError::RegistryError { envelope, .. } => envelope.errors.iter().any(|e| {
            matches!(
                e.code,
                oci_client::errors::OciErrorCode::NameUnknown
                    | oci_client::errors::OciErrorCode::ManifestUnknown
            )
        }),
        _ => false,
    }
}

/// What went wrong, in a sentence (the registry's own error codes and messages kept).
fn describe(e: &OciDistributionError) -> String {
    match e {
        OciDistributionError::RegistryError { envelope, .. } => envelope
            .errors
            .iter()
            .map(|e| format!("{:?}: {}", e.code, e.message))
            .collect::<Vec<_>>()
            .join("; "),
        OciDistributionError::ServerError { code, message, .. } => {
            format!("HTTP {code} {message}").trim().to_string()
        }
        OciDistributionError::UnauthorizedError { .. } => {
            "HTTP 401: the registry wants credentials".to_string()
        }
        other => {
            let mut text = other.to_string();
            let mut source = std::error::Error::source(other);
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            text
        }
    }
}

fn oci_error(location: &str, e: OciDistributionError) -> IndexError {
    IndexError::Oci {
        location: location.to_string(),
        message: describe(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse_and_name_repositories() {
        let l = OciLocation::parse("oci://127.0.0.1:5000/corp/agx/").unwrap();
        assert_eq!(l.registry, "127.0.0.1:5000");
        assert_eq!(l.namespace, "corp/agx");
        assert_eq!(l.display(), "oci://127.0.0.1:5000/corp/agx");
        assert!(l.is_loopback());
        let name = PackageName::parse("acme/weather").unwrap();
        assert_eq!(l.repository(&name), "corp/agx/acme/weather");
        let root = OciLocation::parse("OCI://GHCR.io").unwrap();
        assert_eq!(root.display(), "oci://ghcr.io");
        assert!(!root.is_loopback());
        assert_eq!(root.repository(&name), "acme/weather");
        assert!(
            OciLocation::parse("oci://localhost:5000/x")
                .unwrap()
                .is_loopback()
        );
        assert!(
            OciLocation::parse("oci://[::1]:5000/x")
                .unwrap()
                .is_loopback()
        );
        for bad in [
            "https://x/y",
            "oci://",
            "oci:///ns",
            "oci://host:port/x",
            "oci://host/UPPER",
            "oci://host/a..b",
            "oci://ho st/x",
            "oci://host:99999/x",
        ] {
            assert!(OciLocation::parse(bad).is_err(), "{bad}");
        }
    }
}
