//! An organisation's policy (docs/policy.md): which sources, publishers and packages agx may
//! install and serve, how strongly they must be verified, what their servers may touch, and
//! which clients agx may write. Three layers — the system file, the user's `policy.toml` and
//! a project's `[policy]` — each may only tighten the one above it; a package must satisfy
//! every layer. Pure: callers read the files and describe what they check.

mod parse;
mod tighten;

use std::path::{Path, PathBuf};

pub use parse::{parse_file, parse_project};

use crate::permissions::{Network, Permissions};

/// The layers, from the widest to the narrowest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    System,
    User,
    Project,
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Layer::System => "system",
            Layer::User => "user",
            Layer::Project => "project",
        })
    }
}

/// Where a rule or a problem is: file, 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// A rule's value and where it was written.
#[derive(Debug, Clone)]
pub struct Located<T> {
    pub value: T,
    pub at: Location,
}

/// How strongly a package's origin must be verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Require {
    /// Anything, a local folder included.
    Any,
    /// Bytes checked against a digest its source published (an index's sha256, an OCI
    /// digest, npm's integrity, a wheel's hash, a git commit).
    Checksum,
    /// A checksum that a signature vouches for: a TUF-signed source, or a Sigstore bundle
    /// that verified (docs/registry.md, "Provenance").
    Signed,
}

impl Require {
    pub const NAMES: [&str; 3] = ["any", "checksum", "signed"];

    fn parse(text: &str) -> Option<Require> {
        match text {
            "any" => Some(Require::Any),
            "checksum" => Some(Require::Checksum),
            "signed" => Some(Require::Signed),
            _ => None,
        }
    }
}

impl std::fmt::Display for Require {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Require::Any => "any",
            Require::Checksum => "checksum",
            Require::Signed => "signed",
        })
    }
}

/// A pattern as written: `*` matches any run of characters (`/` included), `?` one
/// character, everything else itself. Matched directly rather than compiled to regular
/// expressions: `agx serve` reads the policy at every start, where the whole check must stay
/// under 0.5 ms (benches/policy.sh).
#[derive(Debug, Clone)]
pub struct Pattern {
    pub text: String,
    chars: Vec<char>,
}

impl Pattern {
    fn new(text: &str) -> Pattern {
        Pattern {
            text: text.to_string(),
            chars: text.chars().collect(),
        }
    }

    pub fn matches(&self, candidate: &str) -> bool {
        let text: Vec<char> = candidate.chars().collect();
        agx_core::wildcard::matches_chars(&self.chars, &text)
    }
}

fn any_matches(patterns: &[Pattern], candidate: &str) -> bool {
    patterns.iter().any(|p| p.matches(candidate))
}

/// The most network a server may have.
#[derive(Debug, Clone)]
pub enum NetworkMax {
    None,
    Loopback,
    /// These hosts (globs), and loopback.
    Hosts(Vec<Pattern>),
    Any,
}

impl NetworkMax {
    /// Whether a server with `network` stays within.
    pub fn allows(&self, network: &Network) -> bool {
        match (self, network) {
            (NetworkMax::Any, _) | (_, Network::None) => true,
            (NetworkMax::None, _) => false,
            (NetworkMax::Loopback | NetworkMax::Hosts(_), Network::Loopback) => true,
            (NetworkMax::Hosts(allowed), Network::Hosts(hosts)) => hosts.iter().all(|h| {
                let name = crate::permissions::split_port(h).map_or(h.as_str(), |(n, _)| n);
                any_matches(allowed, h) || any_matches(allowed, name)
            }),
            _ => false,
        }
    }
}

impl std::fmt::Display for NetworkMax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkMax::None => f.write_str("none"),
            NetworkMax::Loopback => f.write_str("loopback"),
            NetworkMax::Any => f.write_str("any"),
            NetworkMax::Hosts(hosts) => f.write_str(&texts(hosts).join(", ")),
        }
    }
}

/// The rules of one layer; an absent rule allows everything.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    pub require: Option<Located<Require>>,
    pub sources_allow: Option<Located<Vec<Pattern>>>,
    pub publishers_allow: Option<Located<Vec<Pattern>>>,
    pub publishers_deny: Option<Located<Vec<Pattern>>>,
    pub packages_deny: Option<Located<Vec<Pattern>>>,
    pub max_network: Option<Located<NetworkMax>>,
    /// Paths (with placeholders) a server may write, besides `{data}` and `{tmp}`.
    pub max_write: Option<Located<Vec<String>>>,
    /// Variables (globs) a server may receive besides its settings.
    pub max_env: Option<Located<Vec<Pattern>>>,
    pub clients_allow: Option<Located<Vec<String>>>,
}

impl Rules {
    pub fn is_empty(&self) -> bool {
        self.shown().is_empty()
    }

    /// Whether any `permissions.max` rule is set.
    pub fn limits_permissions(&self) -> bool {
        self.max_network.is_some() || self.max_write.is_some() || self.max_env.is_some()
    }

    /// Each rule that is set: its key, its value as text, and where it is.
    pub fn shown(&self) -> Vec<(&'static str, String, &Location)> {
        let mut shown = Vec::new();
        let mut add = |key, value: String, at| shown.push((key, value, at));
        if let Some(r) = &self.require {
            add("require", r.value.to_string(), &r.at);
        }
        for (key, rule) in [
            ("sources.allow", &self.sources_allow),
            ("publishers.allow", &self.publishers_allow),
            ("publishers.deny", &self.publishers_deny),
            ("packages.deny", &self.packages_deny),
            ("permissions.max.env", &self.max_env),
        ] {
            if let Some(r) = rule {
                add(key, texts(&r.value).join(", "), &r.at);
            }
        }
        if let Some(r) = &self.max_network {
            add("permissions.max.network", r.value.to_string(), &r.at);
        }
        if let Some(r) = &self.max_write {
            add("permissions.max.write", r.value.join(", "), &r.at);
        }
        if let Some(r) = &self.clients_allow {
            add("clients.allow", r.value.join(", "), &r.at);
        }
        shown.sort_by_key(|(key, _, _)| RULE_ORDER.iter().position(|k| k == key));
        shown
    }
}

/// The order `agx policy show` lists rules in.
const RULE_ORDER: [&str; 9] = [
    "require",
    "sources.allow",
    "publishers.allow",
    "publishers.deny",
    "packages.deny",
    "permissions.max.network",
    "permissions.max.write",
    "permissions.max.env",
    "clients.allow",
];

fn texts(patterns: &[Pattern]) -> Vec<String> {
    patterns.iter().map(|p| p.text.clone()).collect()
}

/// One layer: where it came from and its rules.
#[derive(Debug, Clone)]
pub struct PolicyLayer {
    pub layer: Layer,
    pub file: PathBuf,
    pub rules: Rules,
}

/// The effective policy: every layer that exists, widest first.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub layers: Vec<PolicyLayer>,
}

/// Why a policy cannot be used. Any of these stops every command the policy governs.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read the policy file {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{at}: {message}")]
    Invalid {
        at: Location,
        message: String,
        hint: Option<String>,
    },
    /// Boxed: it names two places, and every command's error holds this type.
    #[error(transparent)]
    Loosens(Box<Loosening>),
}

/// A rule of a lower layer that would allow more than the same rule above it.
#[derive(Debug, thiserror::Error)]
#[error(
    "{at}: the {layer} policy's `{rule}` loosens the {above_layer} policy's ({above_at}): {detail}"
)]
pub struct Loosening {
    pub at: Location,
    pub layer: Layer,
    pub rule: &'static str,
    pub above_layer: Layer,
    pub above_at: Location,
    pub detail: String,
}

impl agx_core::error::Hint for PolicyError {
    fn hint(&self) -> Option<String> {
        match self {
            PolicyError::Read { .. } => Some(
                "agx follows no policy it cannot read: make the file readable, or ask whoever manages it".into(),
            ),
            PolicyError::Invalid { hint, .. } => Some(match hint {
                Some(h) => format!("{h}; agx follows no policy it cannot read, so it stops until the file is fixed"),
                None => "agx follows no policy it cannot read, so it stops until the file is fixed (docs/policy.md)".into(),
            }),
            PolicyError::Loosens(l) => Some(format!(
                "a {} policy may only narrow the policies above it; remove the rule or narrow it (`agx policy show` prints the effective policy)",
                l.layer
            )),
        }
    }
}

/// What is checked of a package's origin.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// The names the source answers to in every layer: its location and its kind (`npm`,
    /// `pypi`, `local`, …), and `official` for the built-in registry.
    pub ids: Vec<String>,
    /// Its names in the user's source configuration: the user's and the project's layers
    /// match them, the system's does not (the user could point a name anywhere).
    pub configured: Vec<String>,
    /// How it is shown in a refusal.
    pub shown: String,
    /// Its bytes were checked against a digest the source published.
    pub checksum: bool,
    /// That digest was signed: a TUF-signed source, or a Sigstore bundle that verified.
    pub signed: bool,
}

/// A package as the policy sees it.
#[derive(Debug, Clone)]
pub struct Subject<'a> {
    /// `publisher/name`, or `name` without a publisher.
    pub name: &'a str,
    pub publisher: Option<&'a str>,
    pub origin: &'a Origin,
}

/// Why the policy refuses something: the rule, where it is written, and what broke it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub rule: &'static str,
    pub at: Location,
    pub reason: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (policy `{}` at {})", self.reason, self.rule, self.at)
    }
}

impl Policy {
    /// Put the layers together, refusing a layer that loosens one above it.
    pub fn from_layers(mut layers: Vec<PolicyLayer>) -> Result<Policy, PolicyError> {
        layers.sort_by_key(|l| l.layer);
        for (i, layer) in layers.iter().enumerate() {
            for above in &layers[..i] {
                tighten::check(above, layer)?;
            }
        }
        Ok(Policy { layers })
    }

    pub fn is_empty(&self) -> bool {
        self.layers.iter().all(|l| l.rules.is_empty())
    }

    /// Whether any layer limits what servers may touch (then `--no-sandbox` is refused).
    pub fn limits_permissions(&self) -> bool {
        self.layers.iter().any(|l| l.rules.limits_permissions())
    }

    fn rules(&self) -> impl Iterator<Item = &Rules> {
        self.layers.iter().map(|l| &l.rules)
    }

    /// Whether `subject` may be installed or served: its source, its verification, its
    /// publisher and its name, against every layer.
    pub fn check_package(&self, subject: &Subject) -> Result<(), Refusal> {
        let name = subject.name;
        let origin = subject.origin;
        for layer in &self.layers {
            let rules = &layer.rules;
            let trusted: &[String] = match layer.layer {
                Layer::System => &[],
                Layer::User | Layer::Project => &origin.configured,
            };
            if let Some(r) = &rules.sources_allow
                && !origin
                    .ids
                    .iter()
                    .chain(trusted)
                    .any(|id| any_matches(&r.value, id))
            {
                return Err(refuse(
                    "sources.allow",
                    r,
                    format!(
                        "{name} comes from {}, which is not an allowed source (allowed: {})",
                        origin.shown,
                        texts(&r.value).join(", ")
                    ),
                ));
            }
            if let Some(r) = &rules.require {
                let met = match r.value {
                    Require::Any => true,
                    Require::Checksum => origin.checksum,
                    Require::Signed => origin.signed,
                };
                if !met {
                    let has = if origin.checksum {
                        "its source checks a digest but signs nothing (no TUF metadata, no Sigstore bundle)"
                    } else {
                        "nothing checks its bytes against a published digest"
                    };
                    return Err(refuse(
                        "require",
                        r,
                        format!(
                            "{name} from {} is not {}: {has}",
                            origin.shown,
                            match r.value {
                                Require::Signed => "signed",
                                _ => "checksummed",
                            }
                        ),
                    ));
                }
            }
            if let Some(r) = &rules.publishers_deny
                && let Some(p) = subject.publisher
                && any_matches(&r.value, p)
            {
                return Err(refuse(
                    "publishers.deny",
                    r,
                    format!("{name}: the publisher {p} is denied"),
                ));
            }
            if let Some(r) = &rules.publishers_allow
                && !subject.publisher.is_some_and(|p| any_matches(&r.value, p))
            {
                let publisher = subject
                    .publisher
                    .map_or("no publisher".to_string(), |p| format!("the publisher {p}"));
                return Err(refuse(
                    "publishers.allow",
                    r,
                    format!(
                        "{name}: {publisher} is not allowed (allowed: {})",
                        texts(&r.value).join(", ")
                    ),
                ));
            }
            if let Some(r) = &rules.packages_deny
                && let Some(p) = r.value.iter().find(|p| p.matches(name))
            {
                return Err(refuse(
                    "packages.deny",
                    r,
                    format!("{name} is denied (matches `{}`)", p.text),
                ));
            }
        }
        Ok(())
    }

    /// Whether what `what` declares stays within `permissions.max`. A server that declares
    /// nothing is not confined, so any limit refuses it.
    pub fn check_declared(
        &self,
        what: &str,
        declared: Option<&Permissions>,
    ) -> Result<(), Refusal> {
        for rules in self.rules() {
            let Some(p) = declared else {
                if let Some((rule, at)) = first_limit(rules) {
                    return Err(Refusal {
                        rule,
                        at: at.clone(),
                        reason: format!(
                            "{what} declares no permissions, so nothing would confine it"
                        ),
                    });
                }
                continue;
            };
            self.check_network(rules, what, &p.network)?;
            self.check_env(rules, what, &p.env)?;
            if let Some(r) = &rules.max_write
                && let Some(path) = p
                    .write
                    .iter()
                    .find(|w| !r.value.iter().any(|a| within_text(w, a)))
            {
                return Err(refuse(
                    "permissions.max.write",
                    r,
                    format!(
                        "{what} may write {path}, outside what the policy allows ({})",
                        allowed_writes(&r.value)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// [`Policy::check_declared`] for permissions resolved to real paths, as `agx serve`
    /// applies them; `allowed_writes` resolves a rule's paths the same way.
    pub fn check_resolved(
        &self,
        what: &str,
        resolved: Option<&crate::permissions::Resolved>,
        allowed_writes: &dyn Fn(&[String]) -> Vec<PathBuf>,
    ) -> Result<(), Refusal> {
        for rules in self.rules() {
            let Some(p) = resolved else {
                if let Some((rule, at)) = first_limit(rules) {
                    return Err(Refusal {
                        rule,
                        at: at.clone(),
                        reason: format!(
                            "{what} is not confined (it declares no permissions, or the sandbox is off)"
                        ),
                    });
                }
                continue;
            };
            self.check_network(rules, what, &p.network)?;
            self.check_env(rules, what, &p.env)?;
            if let Some(r) = &rules.max_write {
                let allowed = allowed_writes(&r.value);
                // The defaults ({data}, {tmp}) are always allowed, and are resolved with them.
                if let Some(path) = p
                    .write
                    .iter()
                    .find(|w| !allowed.iter().any(|a| w.starts_with(a)))
                {
                    return Err(refuse(
                        "permissions.max.write",
                        r,
                        format!(
                            "{what} may write {}, outside what the policy allows ({})",
                            path.display(),
                            self::allowed_writes(&r.value)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_network(&self, rules: &Rules, what: &str, network: &Network) -> Result<(), Refusal> {
        match &rules.max_network {
            Some(r) if !r.value.allows(network) => Err(refuse(
                "permissions.max.network",
                r,
                format!(
                    "{what} may connect to {network}, beyond the policy's network `{}`",
                    r.value
                ),
            )),
            _ => Ok(()),
        }
    }

    fn check_env(&self, rules: &Rules, what: &str, env: &[String]) -> Result<(), Refusal> {
        match &rules.max_env {
            Some(r) => match env.iter().find(|v| !any_matches(&r.value, v)) {
                Some(var) => Err(refuse(
                    "permissions.max.env",
                    r,
                    format!(
                        "{what} receives the variable {var}, which the policy does not allow (allowed: {})",
                        texts(&r.value).join(", ")
                    ),
                )),
                None => Ok(()),
            },
            None => Ok(()),
        }
    }

    /// Whether agx may write entries or skills for the client `id`.
    pub fn check_client(&self, id: &str) -> Result<(), Refusal> {
        for rules in self.rules() {
            if let Some(r) = &rules.clients_allow
                && !r.value.iter().any(|c| c == id)
            {
                return Err(refuse(
                    "clients.allow",
                    r,
                    format!(
                        "agx may not write {id}'s configuration (allowed clients: {})",
                        if r.value.is_empty() {
                            "none".to_string()
                        } else {
                            r.value.join(", ")
                        }
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn refuse<T>(rule: &'static str, located: &Located<T>, reason: String) -> Refusal {
    Refusal {
        rule,
        at: located.at.clone(),
        reason,
    }
}

/// The first `permissions.max` rule of a layer, for a server that declares nothing.
fn first_limit(rules: &Rules) -> Option<(&'static str, &Location)> {
    rules
        .max_network
        .as_ref()
        .map(|r| ("permissions.max.network", &r.at))
        .or(rules
            .max_write
            .as_ref()
            .map(|r| ("permissions.max.write", &r.at)))
        .or(rules
            .max_env
            .as_ref()
            .map(|r| ("permissions.max.env", &r.at)))
}

fn allowed_writes(paths: &[String]) -> String {
    let mut all = vec!["{data}".to_string(), "{tmp}".to_string()];
    all.extend(paths.iter().cloned());
    all.join(", ")
}

/// Whether the permission path `path` is `allowed` or under it, compared by components
/// (`{data}`/`{tmp}` are always allowed).
fn within_text(path: &str, allowed: &str) -> bool {
    let path = Path::new(path);
    ["{data}", "{tmp}", allowed]
        .iter()
        .any(|a| path.starts_with(a))
}

#[cfg(test)]
mod tests;
