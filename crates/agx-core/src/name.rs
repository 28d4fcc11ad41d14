//! Package and item names, qualified item names and `pkg@requirement` specs (docs/package-format.md, "names").

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

const PACKAGE_FORM: &str =
    "`publisher/name` (lowercase letters, digits and `-`, e.g. `acme/weather`)";
const ITEM_FORM: &str = "an item name (letters, digits, `_`, `.`, `-`; starting with a letter, digit or `_`; at most 64 characters)";
const QUALIFIED_FORM: &str = "`publisher/package/item` (e.g. `acme/weather/forecast`) or `package/item` for a package without a publisher";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("invalid package name `{input}`: {reason}")]
    Package { input: String, reason: String },
    #[error("invalid item name `{input}`: {reason}")]
    Item { input: String, reason: String },
    #[error("invalid qualified name `{input}`: {reason}")]
    Qualified { input: String, reason: String },
    #[error("invalid pinned version `{version}` in `{input}`: {reason}")]
    Pin {
        input: String,
        version: String,
        reason: String,
    },
    #[error("invalid version requirement `{req}` in `{input}`: {reason}")]
    Requirement {
        input: String,
        req: String,
        reason: String,
    },
}

impl NameError {
    /// The form that was expected, for hints.
    pub fn expected_form(&self) -> &'static str {
        match self {
            // An ecosystem spec that failed its own check: its form, not an agx name's.
            NameError::Package { input, .. } if input.starts_with("npm:") => {
                "`npm:<name>[@version|range|dist-tag]`, e.g. `npm:@modelcontextprotocol/server-memory@2025.9.25`"
            }
            NameError::Package { input, .. } if input.starts_with("pypi:") => {
                "`pypi:<name>[==version]`, e.g. `pypi:mcp-server-time==2026.10.19`"
            }
            NameError::Package { input, .. } if input.starts_with("oci:") => {
                "`oci:[host/]path[:tag][@sha256:digest]`, e.g. `oci:ghcr.io/acme/server:1.0`"
            }
            NameError::Package { .. } => PACKAGE_FORM,
            NameError::Item { .. } => ITEM_FORM,
            NameError::Qualified { .. } => QUALIFIED_FORM,
            NameError::Pin { .. } => {
                "`publisher/package/server@=VERSION` with one exact version, e.g. `acme/weather/forecast@=1.1.0`"
            }
            NameError::Requirement { .. } => {
                "`publisher/name@requirement` with a semver requirement, e.g. `acme/weather@1.2.0` or `acme/weather@^1.2`"
            }
        }
    }
}

impl crate::error::Hint for NameError {
    fn hint(&self) -> Option<String> {
        Some(format!("expected {}", self.expected_form()))
    }
}

/// Checks one package-name segment: `[a-z0-9][a-z0-9-]{0,63}`.
fn check_segment(segment: &str) -> Result<(), String> {
    if segment.is_empty() {
        return Err("a segment is empty".into());
    }
    if segment.len() > 64 {
        return Err(format!(
            "`{segment}` is {} characters long; the limit is 64",
            segment.len()
        ));
    }
    for (i, c) in segment.chars().enumerate() {
        let ok = c.is_ascii_lowercase() || c.is_ascii_digit() || (c == '-' && i > 0);
        if !ok {
            return Err(if c.is_ascii_uppercase() {
                format!("`{segment}` has an uppercase letter; package names are lowercase")
            } else if c == '-' {
                format!("`{segment}` starts with `-`")
            } else {
                format!("`{segment}` contains `{c}`; allowed are a-z, 0-9 and `-`")
            });
        }
    }
    Ok(())
}

/// Publishers reserved for packages provisioned from other ecosystems: after them comes the
/// package's name in that ecosystem (`npm/@scope/x`, `pypi/mcp-server-time`, an image's
/// repository `oci/ghcr.io/acme/x`, a bundle's manifest name `mcpb/x`), following that
/// ecosystem's rules instead of agx's segment rules.
pub const ECOSYSTEM_PUBLISHERS: [&str; 4] = ["npm", "pypi", "oci", "mcpb"];

/// Check an image repository (`ghcr.io/acme/x`, `localhost:5000/x`) against the OCI
/// distribution reference grammar: an optional registry host (`[a-z0-9-]` labels between
/// dots, an optional `:port`), told apart as docker does (a first component with a `.` or
/// `:`, or `localhost`), then path components `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`. So no
/// name an image check accepts starts with `-` (a runtime flag) or holds `..`.
/// [`agx_sources::ecosystem::oci::check_reference`] checks the tag and digest after it.
pub fn check_image_repository(name: &str) -> Result<(), String> {
    if name.len() > 255 {
        return Err("image names have at most 255 characters".into());
    }
    let mut parts = name.split('/').peekable();
    let first = parts.peek().copied().unwrap_or_default();
    if name.contains('/') && (first.contains(['.', ':']) || first == "localhost") {
        check_image_host(first)?;
        parts.next();
    }
    for part in parts {
        check_image_path_component(part)?;
    }
    Ok(())
}

fn check_image_host(host: &str) -> Result<(), String> {
    let (domain, port) = match host.split_once(':') {
        Some((domain, port)) => (domain, Some(port)),
        None => (host, None),
    };
    if let Some(port) = port
        && (port.is_empty() || !port.chars().all(|c| c.is_ascii_digit()))
    {
        return Err(format!("`{host}` has a port that is not a number"));
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if !domain.split('.').all(label_ok) {
        return Err(format!(
            "`{host}` is not a registry host: lowercase letters, digits and `-` between dots, then an optional `:port`"
        ));
    }
    Ok(())
}

fn check_image_path_component(part: &str) -> Result<(), String> {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let bad = || {
        Err(format!(
            "`{part}` is not an image name part: lowercase letters and digits, joined by `.`, `_`, `__` or dashes, starting and ending with a letter or digit"
        ))
    };
    if !part.starts_with(alnum) || !part.ends_with(alnum) {
        return bad();
    }
    // Between runs of letters and digits: `.`, `_`, `__`, or any number of `-`.
    for separator in part.split(alnum).filter(|s| !s.is_empty()) {
        let ok = matches!(separator, "." | "_" | "__") || separator.chars().all(|c| c == '-');
        if !ok {
            return bad();
        }
    }
    Ok(())
}

/// A package name: `publisher/name`, or `name` alone for a local package, or an ecosystem
/// name (`npm/@scope/x`, `pypi/name`; see [`ECOSYSTEM_PUBLISHERS`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackageName {
    publisher: Option<String>,
    /// One path segment: an npm scope's `/` is kept as `+`, which neither npm nor PyPI
    /// names may contain, so the mapping is reversible (see [`PackageName::native_name`]).
    name: String,
}

/// Check an npm package name (`name` or `@scope/name`): lowercase URL-safe characters, at
/// most 214 characters, no segment starting with `.` or `_`.
fn check_npm_name(name: &str) -> Result<(), String> {
    if name.len() > 214 {
        return Err("npm names have at most 214 characters".into());
    }
    let parts: Vec<&str> = match name.strip_prefix('@') {
        Some(scoped) => match scoped.split_once('/') {
            Some((scope, rest)) => vec![scope, rest],
            None => return Err(format!("`{name}` has a scope but no name (`@scope/name`)")),
        },
        None => vec![name],
    };
    for part in parts {
        if part.is_empty() {
            return Err("a part of the npm name is empty".into());
        }
        if part.starts_with(['.', '_']) {
            return Err(format!("`{part}` starts with `.` or `_`"));
        }
        if let Some(c) = part.chars().find(|c| {
            !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_' | '~'))
        }) {
            return Err(format!(
                "`{part}` contains `{c}`; npm names use a-z, 0-9, `-`, `.`, `_` and `~`"
            ));
        }
    }
    Ok(())
}

/// A PyPI name in its normalized form (PEP 503: lowercase, runs of `-_.` as one `-`), after
/// checking it (ASCII letters, digits, `-_.`, starting and ending with a letter or digit).
pub fn normalize_pypi_name(name: &str) -> Result<String, String> {
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    if !alnum(name.chars().next()) || !alnum(name.chars().last()) {
        return Err(format!(
            "`{name}` must start and end with a letter or digit"
        ));
    }
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            '-' | '_' | '.' => {
                if !out.ends_with('-') {
                    out.push('-');
                }
            }
            c if c.is_ascii_alphanumeric() => out.push(c.to_ascii_lowercase()),
            c => {
                return Err(format!(
                    "`{name}` contains `{c}`; PyPI names use letters, digits, `-`, `_` and `.`"
                ));
            }
        }
    }
    Ok(out)
}

impl PackageName {
    pub fn parse(input: &str) -> Result<Self, NameError> {
        let err = |reason: String| NameError::Package {
            input: input.to_string(),
            reason,
        };
        if let Some((publisher, rest)) = input.split_once('/')
            && ECOSYSTEM_PUBLISHERS.contains(&publisher)
        {
            let name = match publisher {
                "npm" => {
                    check_npm_name(rest).map_err(err)?;
                    rest.to_string()
                }
                "oci" => {
                    check_image_repository(rest).map_err(err)?;
                    rest.to_string()
                }
                "mcpb" => {
                    if rest.contains(['/', '@']) {
                        return Err(err("a bundle name is one word without `/` or `@`".into()));
                    }
                    check_npm_name(rest).map_err(err)?;
                    rest.to_string()
                }
                _ => normalize_pypi_name(rest).map_err(err)?,
            };
            return Ok(PackageName {
                publisher: Some(publisher.to_string()),
                name: name.replace('/', "+"),
            });
        }
        if is_server_name(input) {
            return Ok(Self::registry_server(input));
        }
        let parts: Vec<&str> = input.split('/').collect();
        match parts.as_slice() {
            [name] => {
                check_segment(name).map_err(err)?;
                Ok(PackageName {
                    publisher: None,
                    name: name.to_string(),
                })
            }
            [publisher, name] => {
                check_segment(publisher).map_err(err)?;
                check_segment(name).map_err(err)?;
                Ok(PackageName {
                    publisher: Some(publisher.to_string()),
                    name: name.to_string(),
                })
            }
            _ => Err(err(format!(
                "it has {} segments; a package name has at most 2",
                parts.len()
            ))),
        }
    }

    /// An MCP Registry server name (`io.github.user/weather`), kept as written: its
    /// namespace holds a dot, which agx's own publishers never do, so the two cannot meet.
    fn registry_server(checked: &str) -> Self {
        let (namespace, server) = checked.split_once('/').expect("checked names have a `/`");
        PackageName {
            publisher: Some(namespace.to_string()),
            name: server.to_string(),
        }
    }

    /// Parse a name that must have a publisher (registry packages).
    pub fn parse_published(input: &str) -> Result<Self, NameError> {
        let name = Self::parse(input)?;
        if name.publisher.is_none() {
            return Err(NameError::Package {
                input: input.into(),
                reason: "registry packages need a publisher".into(),
            });
        }
        Ok(name)
    }

    pub fn publisher(&self) -> Option<&str> {
        self.publisher.as_deref()
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Relative path segments used by the store and the registry: `publisher/name`, or
    /// `_local/name` for a package without a publisher.
    pub fn path_segments(&self) -> (&str, &str) {
        (self.publisher.as_deref().unwrap_or("_local"), &self.name)
    }

    /// The name that [`PackageName::path_segments`] gave, read back from its two segments.
    pub fn from_path_segments(publisher: &str, name: &str) -> Result<Self, NameError> {
        if publisher == "_local" {
            Self::parse(name)
        } else if ECOSYSTEM_PUBLISHERS.contains(&publisher) {
            Self::parse(&format!("{publisher}/{}", name.replace('+', "/")))
        } else {
            Self::parse(&format!("{publisher}/{name}"))
        }
    }

    /// The name after the publisher as typed, with an npm scope's `/` (`@scope/x`).
    pub fn native_name(&self) -> String {
        if self.is_ecosystem() {
            self.name.replace('+', "/")
        } else {
            self.name.clone()
        }
    }

    /// True for a package provisioned from another ecosystem (npm, PyPI, OCI, MCPB).
    pub fn is_ecosystem(&self) -> bool {
        self.publisher
            .as_deref()
            .is_some_and(|p| ECOSYSTEM_PUBLISHERS.contains(&p))
    }

    /// `publisher-name`, used in archive file names.
    pub fn file_stem(&self) -> String {
        match &self.publisher {
            Some(p) => format!("{p}-{}", self.name),
            None => self.name.clone(),
        }
    }
}

impl fmt::Display for PackageName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.publisher {
            Some(p) => write!(f, "{p}/{}", self.native_name()),
            None => f.write_str(&self.name),
        }
    }
}

impl FromStr for PackageName {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl Serialize for PackageName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PackageName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PackageName::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// An item (server, tool or prompt) name: `[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemName(String);

impl ItemName {
    pub fn parse(input: &str) -> Result<Self, NameError> {
        let err = |reason: String| NameError::Item {
            input: input.to_string(),
            reason,
        };
        if input.is_empty() {
            return Err(err("it is empty".into()));
        }
        if input.len() > 64 {
            return Err(err(format!(
                "it is {} characters long; the limit is 64",
                input.len()
            )));
        }
        for (i, c) in input.chars().enumerate() {
            let ok = c.is_ascii_alphanumeric() || c == '_' || (i > 0 && (c == '.' || c == '-'));
            if !ok {
                return Err(err(if i == 0 && (c == '.' || c == '-') {
                    format!("it starts with `{c}`")
                } else {
                    format!("it contains `{c}`; allowed are letters, digits, `_`, `.` and `-`")
                }));
            }
        }
        Ok(ItemName(input.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ItemName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for ItemName {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl Serialize for ItemName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ItemName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ItemName::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// A qualified item name: `publisher/package/item` or `package/item`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct QualifiedName {
    pub package: PackageName,
    pub item: ItemName,
}

impl QualifiedName {
    pub fn parse(input: &str) -> Result<Self, NameError> {
        let err = |reason: String| NameError::Qualified {
            input: input.to_string(),
            reason,
        };
        let Some((package, item)) = input.rsplit_once('/') else {
            return Err(err("it has 1 segment; a qualified name has 2 or 3".into()));
        };
        let segments = input.split('/').count();
        let ecosystem = input
            .split_once('/')
            .is_some_and(|(p, _)| ECOSYSTEM_PUBLISHERS.contains(&p));
        if segments > 3 && !ecosystem {
            return Err(err(format!(
                "it has {segments} segments; a qualified name has 2 or 3"
            )));
        }
        let package = PackageName::parse(package).map_err(|e| match e {
            NameError::Package { reason, .. } => err(format!("package part: {reason}")),
            other => other,
        })?;
        let item = ItemName::parse(item).map_err(|e| match e {
            NameError::Item { reason, .. } => err(format!("item part: {reason}")),
            other => other,
        })?;
        Ok(QualifiedName { package, item })
    }
}

impl fmt::Display for QualifiedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.package, self.item)
    }
}

impl FromStr for QualifiedName {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// A server as `agx serve` takes it: `publisher/package/server`, or a package alone when it
/// contributes one server (resolved against the store), optionally pinned to one installed
/// version with `@=1.1.0` (as project entries write it; `@1.1.0` means the same).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinnedServer {
    /// The server reference as typed, checked by [`check_server_reference`].
    pub reference: String,
    pub version: Option<semver::Version>,
}

/// Check that `raw` can name a server: a package (which names its only server) or
/// `publisher/package/server`. Which one it is depends on what is installed.
pub fn check_server_reference(raw: &str) -> Result<(), NameError> {
    match PackageName::parse(raw) {
        Ok(_) => Ok(()),
        Err(_) => QualifiedName::parse(raw).map(|_| ()),
    }
}

impl PinnedServer {
    pub fn parse(input: &str) -> Result<Self, NameError> {
        // An npm scope (`npm/@scope/x/server`) has an `@` too, but before a `/`.
        let Some((reference, version)) = input.rsplit_once('@').filter(|(_, v)| !v.contains('/'))
        else {
            check_server_reference(input)?;
            return Ok(PinnedServer {
                reference: input.to_string(),
                version: None,
            });
        };
        check_server_reference(reference)?;
        let exact = version.strip_prefix('=').unwrap_or(version);
        let version = semver::Version::parse(exact.trim()).map_err(|e| NameError::Pin {
            input: input.to_string(),
            version: version.to_string(),
            reason: e.to_string(),
        })?;
        Ok(PinnedServer {
            reference: reference.to_string(),
            version: Some(version),
        })
    }
}

impl fmt::Display for PinnedServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.version {
            Some(v) => write!(f, "{}@={v}", self.reference),
            None => self.reference.fmt(f),
        }
    }
}

/// A reference to an item from a server definition: a bare name (this package first) or a
/// qualified name (another package, which must be a dependency).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ItemRef {
    Local(ItemName),
    Qualified(QualifiedName),
}

impl ItemRef {
    pub fn parse(input: &str) -> Result<Self, NameError> {
        if input.contains('/') {
            QualifiedName::parse(input).map(ItemRef::Qualified)
        } else {
            ItemName::parse(input).map(ItemRef::Local)
        }
    }

    pub fn item(&self) -> &ItemName {
        match self {
            ItemRef::Local(n) => n,
            ItemRef::Qualified(q) => &q.item,
        }
    }
}

impl Serialize for ItemRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ItemRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ItemRef::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for ItemRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ItemRef::Local(n) => n.fmt(f),
            ItemRef::Qualified(q) => q.fmt(f),
        }
    }
}

/// `publisher/name[@requirement]` as typed on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageSpec {
    pub name: PackageName,
    /// `None` means any version (`*`).
    pub req: Option<semver::VersionReq>,
}

impl PackageSpec {
    pub fn parse(input: &str) -> Result<Self, NameError> {
        let (name, req) = match input.split_once('@') {
            Some((name, req)) => (name, Some(req)),
            None => (input, None),
        };
        let name = PackageName::parse(name)?;
        let req = match req {
            None => None,
            Some(r) => Some(
                parse_requirement(r).map_err(|reason| NameError::Requirement {
                    input: input.into(),
                    req: r.into(),
                    reason,
                })?,
            ),
        };
        Ok(PackageSpec { name, req })
    }

    /// True when the requirement names one exact version (`@1.2.0` or `@=1.2.0`), which may
    /// select a yanked version.
    pub fn exact_version(&self) -> Option<semver::Version> {
        let req = self.req.as_ref()?;
        match req.comparators.as_slice() {
            [c] if matches!(c.op, semver::Op::Exact) && c.minor.is_some() && c.patch.is_some() => {
                Some(semver::Version {
                    major: c.major,
                    minor: c.minor.unwrap_or(0),
                    patch: c.patch.unwrap_or(0),
                    pre: c.pre.clone(),
                    build: semver::BuildMetadata::EMPTY,
                })
            }
            _ => None,
        }
    }
}

impl fmt::Display for PackageSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.req {
            Some(r) => write!(f, "{}@{r}", self.name),
            None => self.name.fmt(f),
        }
    }
}

/// Parse a semver requirement. A bare version (`1.2.0`) on the command line means exactly
/// that version, as users of `pkg@1.2.0` expect; in manifests use [`parse_manifest_requirement`].
pub fn parse_requirement(req: &str) -> Result<semver::VersionReq, String> {
    let req = req.trim();
    if req.is_empty() {
        return Err("it is empty".into());
    }
    if semver::Version::parse(req).is_ok() {
        return semver::VersionReq::parse(&format!("={req}")).map_err(|e| e.to_string());
    }
    semver::VersionReq::parse(req).map_err(|e| e.to_string())
}

/// Parse a requirement written in `[dependencies]` or `agx = …`: plain semver (cargo rules, a
/// bare version means `^version`).
pub fn parse_manifest_requirement(req: &str) -> Result<semver::VersionReq, String> {
    if req.trim().is_empty() {
        return Err("it is empty".into());
    }
    semver::VersionReq::parse(req).map_err(|e| e.to_string())
}

/// The MCP Registry schema's server name rule: `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, 3 to 200 characters.
pub fn check_registry_name(name: &str) -> Result<(), String> {
    if name.len() < 3 || name.len() > 200 {
        return Err(format!(
            "is {} characters long (3 to 200 allowed)",
            name.len()
        ));
    }
    let Some((namespace, server)) = name.split_once('/') else {
        return Err("has no `/`".into());
    };
    if namespace.is_empty() || server.is_empty() {
        return Err("has an empty part around its `/`".into());
    }
    if let Some(c) = namespace
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '.' || *c == '-'))
    {
        return Err(format!(
            "has `{c}` in its namespace (letters, digits, `.` and `-` only)"
        ));
    }
    if let Some(c) = server
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(format!(
            "has `{c}` after its `/` (letters, digits, `.`, `_` and `-` only)"
        ));
    }
    Ok(())
}

/// A name the MCP Registry could have: a reverse-DNS namespace (a dot inside, which agx's
/// own publishers never have, and letters or digits at both ends, so `./x` and `../x` stay
/// paths) tells it apart from an agx package name.
pub fn is_server_name(name: &str) -> bool {
    let Some(namespace) = name.split('/').next() else {
        return false;
    };
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    check_registry_name(name).is_ok()
        && namespace.contains('.')
        && alnum(namespace.chars().next())
        && alnum(namespace.chars().next_back())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names() {
        let n = PackageName::parse("acme/weather").unwrap();
        assert_eq!(n.publisher(), Some("acme"));
        assert_eq!(n.name(), "weather");
        assert_eq!(n.to_string(), "acme/weather");
        assert_eq!(n.file_stem(), "acme-weather");
        let local = PackageName::parse("notes").unwrap();
        assert_eq!(local.publisher(), None);
        assert_eq!(local.path_segments(), ("_local", "notes"));
        assert!(PackageName::parse("a-1/b-2").is_ok());
        assert!(PackageName::parse(&"a".repeat(64)).is_ok());
    }

    #[test]
    fn package_name_errors() {
        for (input, needle) in [
            ("", "empty"),
            ("acme/", "empty"),
            ("/weather", "empty"),
            ("a/b/c", "3 segments"),
            ("Acme/weather", "uppercase"),
            ("acme/Weather", "uppercase"),
            ("acme/-weather", "starts with `-`"),
            ("acme/wea_ther", "contains `_`"),
            ("acme/wea ther", "contains ` `"),
            ("acme/wéather", "contains `é`"),
        ] {
            let err = PackageName::parse(input).unwrap_err().to_string();
            assert!(err.contains(needle), "{input:?}: {err}");
        }
        let long = "a".repeat(65);
        assert!(
            PackageName::parse(&long)
                .unwrap_err()
                .to_string()
                .contains("limit is 64")
        );
        assert!(PackageName::parse_published("notes").is_err());
    }

    #[test]
    fn item_names() {
        for ok in ["get_forecast", "Search", "_x", "a.b-c", "9lives"] {
            assert!(ItemName::parse(ok).is_ok(), "{ok}");
        }
        for (bad, needle) in [
            ("", "empty"),
            ("-x", "starts with `-`"),
            (".x", "starts with `.`"),
            ("a b", "contains ` `"),
            ("a/b", "contains `/`"),
        ] {
            let err = ItemName::parse(bad).unwrap_err().to_string();
            assert!(err.contains(needle), "{bad:?}: {err}");
        }
        assert!(ItemName::parse(&"x".repeat(65)).is_err());
        assert!(ItemName::parse(&"x".repeat(64)).is_ok());
    }

    #[test]
    fn qualified_names() {
        let q = QualifiedName::parse("acme/weather/forecast").unwrap();
        assert_eq!(q.package.to_string(), "acme/weather");
        assert_eq!(q.item.as_str(), "forecast");
        let q = QualifiedName::parse("notes/Search").unwrap();
        assert_eq!(q.package.publisher(), None);
        for (bad, needle) in [
            ("forecast", "1 segment"),
            ("a/b/c/d", "4 segments"),
            ("acme//x", "empty"),
            ("acme/weather/", "empty"),
            ("Acme/weather/x", "uppercase"),
        ] {
            let err = QualifiedName::parse(bad).unwrap_err();
            assert!(err.to_string().contains(needle), "{bad:?}: {err}");
            assert!(err.expected_form().contains("publisher/package/item"));
        }
    }

    #[test]
    fn item_refs() {
        assert!(matches!(ItemRef::parse("x").unwrap(), ItemRef::Local(_)));
        assert!(matches!(
            ItemRef::parse("acme/geo/geocode").unwrap(),
            ItemRef::Qualified(_)
        ));
    }

    #[test]
    fn package_specs() {
        let s = PackageSpec::parse("acme/weather").unwrap();
        assert!(s.req.is_none());
        let s = PackageSpec::parse("acme/weather@1.2.0").unwrap();
        assert_eq!(s.exact_version(), Some(semver::Version::new(1, 2, 0)));
        assert!(s.req.unwrap().matches(&semver::Version::new(1, 2, 0)));
        let s = PackageSpec::parse("acme/weather@^1.2").unwrap();
        assert_eq!(s.exact_version(), None);
        assert!(s.req.unwrap().matches(&semver::Version::new(1, 9, 0)));
        for bad in ["acme/weather@", "acme/weather@banana", "acme/weather@>=1,<"] {
            let err = PackageSpec::parse(bad).unwrap_err();
            assert!(
                matches!(err, NameError::Requirement { .. }),
                "{bad}: {err:?}"
            );
        }
        assert!(PackageSpec::parse("Acme/weather@1").is_err());
    }

    #[test]
    fn manifest_requirements() {
        assert!(
            parse_manifest_requirement("1.0")
                .unwrap()
                .matches(&semver::Version::new(1, 5, 0))
        );
        assert!(parse_manifest_requirement("").is_err());
        assert!(parse_manifest_requirement("nope").is_err());
    }

    #[test]
    fn ecosystem_names_follow_their_ecosystem_and_map_onto_one_path_segment() {
        let scoped = PackageName::parse("npm/@scope/x.js").unwrap();
        assert_eq!(scoped.to_string(), "npm/@scope/x.js");
        assert_eq!(scoped.native_name(), "@scope/x.js");
        assert_eq!(scoped.path_segments(), ("npm", "@scope+x.js"));
        assert!(scoped.is_ecosystem());
        assert_eq!(
            PackageName::from_path_segments("npm", "@scope+x.js").unwrap(),
            scoped
        );
        let py = PackageName::parse("pypi/MCP_Server..Time").unwrap();
        assert_eq!(py.to_string(), "pypi/mcp-server-time");
        assert!(PackageName::parse("npm/@scope").is_err());
        assert!(PackageName::parse("npm/_private").is_err());
        assert!(PackageName::parse("pypi/a/b").is_err());
        // agx's own rules are unchanged for every other publisher.
        assert!(PackageName::parse("acme/x.js").is_err());
        assert!(!PackageName::parse("acme/x").unwrap().is_ecosystem());
    }

    #[test]
    fn qualified_names_of_scoped_npm_packages() {
        let q = QualifiedName::parse("npm/@scope/x/server").unwrap();
        assert_eq!(q.package.to_string(), "npm/@scope/x");
        assert_eq!(q.item.as_str(), "server");
        assert!(QualifiedName::parse("a/b/c/d").is_err());
    }

    #[test]
    fn pinned_servers_name_one_exact_version() {
        let pin = |s: &str| PinnedServer::parse(s);
        let p = pin("acme/weather/forecast@=1.1.0").unwrap();
        assert_eq!(p.reference, "acme/weather/forecast");
        assert_eq!(p.version, Some(semver::Version::new(1, 1, 0)));
        assert_eq!(p.to_string(), "acme/weather/forecast@=1.1.0");
        assert_eq!(pin("acme/weather/forecast@1.1.0").unwrap(), p);
        assert_eq!(pin("acme/weather/forecast").unwrap().version, None);
        let scoped = pin("npm/@scope/x/main").unwrap();
        assert_eq!(
            (scoped.reference.as_str(), scoped.version),
            ("npm/@scope/x/main", None)
        );
        let package = pin("io.github.user/weather@=1.0.0").unwrap();
        assert_eq!(package.reference, "io.github.user/weather");
        assert_eq!(
            pin("npm/@scope/x/main@=2.0.0").unwrap().version,
            Some(semver::Version::new(2, 0, 0))
        );
        let err = pin("acme/weather/forecast@^1.1").unwrap_err();
        assert!(matches!(err, NameError::Pin { .. }), "{err}");
        assert!(crate::error::Hint::hint(&err).unwrap().contains("@=1.1.0"));
    }
}
