//! Rank what the registries offer for a query (discovery: reads index metadata only): the
//! catalog of each agx index and the server list of each MCP registry, from every
//! configured source (or the one `--registry` names).

use std::borrow::Cow;
use std::cmp::Reverse;

use super::{Context, OpsResult};
use agx_sources::index::marketplace::PluginSummary;
use agx_sources::index::mcp_registry::{self, ServerSummary};
use agx_sources::index::{AnyRegistry, Catalog, IndexError, SourceKind, search};

/// Everything searched, by source; [`Searched::hits`] ranks it.
pub struct Searched {
    pub query: String,
    /// Where we looked and got an answer (URLs or folders), in configuration order.
    pub registries: Vec<String>,
    /// The configured name of each of `registries` (`None` for a `--registry` location).
    pub names: Vec<Option<String>>,
    /// The sources that did not answer (each also reported as a warning): the results are
    /// what the others answered.
    pub unanswered: Vec<Unanswered>,
    catalogs: Vec<(String, Catalog)>,
    /// Each agx index's state: `verified (tuf: NAME, root vN)` or `unsigned`, by location.
    signatures: std::collections::BTreeMap<String, String>,
    servers: Vec<(String, Vec<ServerSummary>)>,
    plugins: Vec<(String, Vec<PluginSummary>)>,
}

/// A source the search could not read.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Unanswered {
    /// Its configured name (`None` for a `--registry` location).
    pub source: Option<String>,
    /// Its URL or folder.
    pub registry: String,
    /// Why, with its causes and the hint.
    pub error: String,
}

/// One match, from an agx index or an MCP registry.
pub enum Found<'a> {
    Package {
        hit: search::Hit<'a>,
        registry: &'a str,
    },
    Server {
        server: &'a ServerSummary,
        registry: &'a str,
        score: u32,
        matched: Vec<String>,
    },
    /// A plugin of a Claude-format marketplace (`agx install PLUGIN@SOURCE`).
    Plugin {
        plugin: &'a PluginSummary,
        registry: &'a str,
        score: u32,
        matched: Vec<String>,
    },
}

impl Found<'_> {
    pub fn kind(&self) -> SourceKind {
        match self {
            Found::Package { .. } => SourceKind::AgxIndex,
            Found::Server { .. } => SourceKind::McpRegistry,
            Found::Plugin { .. } => SourceKind::ClaudeMarketplace,
        }
    }

    pub fn score(&self) -> u32 {
        match self {
            Found::Package { hit, .. } => hit.score,
            Found::Server { score, .. } | Found::Plugin { score, .. } => *score,
        }
    }

    pub fn name(&self) -> String {
        match self {
            Found::Package { hit, .. } => hit.entry.name.to_string(),
            Found::Server { server, .. } => server.name.clone(),
            Found::Plugin { plugin, .. } => plugin.name.clone(),
        }
    }
}

impl Searched {
    /// An agx index's state (`verified (…)` or `unsigned`); `None` for other kinds.
    pub fn signature(&self, registry: &str) -> Option<&str> {
        self.signatures.get(registry).map(String::as_str)
    }

    /// What to call the registry at `url` in a result: its configured name, else the URL.
    pub fn label<'a>(&'a self, url: &'a str) -> &'a str {
        self.registries
            .iter()
            .zip(&self.names)
            .find(|(registry, _)| registry.as_str() == url)
            .and_then(|(_, name)| name.as_deref())
            .unwrap_or(url)
    }

    /// Matching packages and servers, best first (ties by name).
    pub fn hits(&self) -> Vec<Found<'_>> {
        let words = search::query_words(&self.query);
        let mut found: Vec<Found> = Vec::new();
        for (registry, catalog) in &self.catalogs {
            found.extend(
                search::search(&catalog.packages, &self.query)
                    .into_iter()
                    .map(|hit| Found::Package { hit, registry }),
            );
        }
        for (registry, servers) in &self.servers {
            for server in servers {
                let name = server.name.to_lowercase();
                let short = name.rsplit('/').next().unwrap_or(&name);
                let description = match &server.title {
                    Some(title) => Cow::Owned(format!("{title} {}", server.description)),
                    None => Cow::Borrowed(server.description.as_str()),
                };
                if let Some((score, matched)) =
                    search::score_text(&name, short, &description, &[], &words)
                {
                    found.push(Found::Server {
                        server,
                        registry,
                        score,
                        matched,
                    });
                }
            }
        }
        for (registry, plugins) in &self.plugins {
            for plugin in plugins {
                let name = plugin.name.to_lowercase();
                let description = plugin.description.as_deref().unwrap_or_default();
                // Its servers and skills match as keywords do.
                let items: Vec<(&str, String, String)> = plugin
                    .servers
                    .iter()
                    .map(|s| ("server", s.to_lowercase(), String::new()))
                    .chain(
                        (plugin.skills.iter()).map(|s| ("skill", s.to_lowercase(), String::new())),
                    )
                    .collect();
                if let Some((score, matched)) =
                    search::score_text(&name, &name, description, &items, &words)
                {
                    found.push(Found::Plugin {
                        plugin,
                        registry,
                        score,
                        matched,
                    });
                }
            }
        }
        // Each name is built once, not at every comparison (a broad query ranks thousands).
        found.sort_by_cached_key(|f| (Reverse(f.score()), f.name()));
        found
    }
}

/// Search every source (or the one `--registry` names). A source that cannot be read (offline,
/// a folder that is gone) is reported through the reporter and left out: the results are what
/// the others answered. Only when none answers is it an error.
pub fn search(ctx: &Context, query: &str) -> OpsResult<Searched> {
    let mut searched = Searched {
        query: query.to_string(),
        registries: Vec::new(),
        names: Vec::new(),
        unanswered: Vec::new(),
        catalogs: Vec::new(),
        signatures: Default::default(),
        servers: Vec::new(),
        plugins: Vec::new(),
    };
    let mut failures = Vec::new();
    for opened in
        agx_sources::index::open_each(ctx.registry, ctx.registry_root, ctx.offline, ctx.paths)?
    {
        let location = opened.location.clone();
        match opened
            .registry
            .and_then(|registry| read(&mut searched, registry))
        {
            Ok(()) => {
                searched.registries.push(location);
                searched.names.push(opened.name);
            }
            Err(error) => failures.push((opened.name, location, error)),
        }
    }
    if searched.registries.is_empty() && failures.len() == 1 {
        // The one source there is: its own error, with its hint.
        let (_, _, error) = failures.remove(0);
        return Err(error.into());
    }
    for (name, registry, error) in failures {
        let unanswered = Unanswered {
            source: name,
            registry,
            error: explain(&error),
        };
        let label = match &unanswered.source {
            Some(name) => format!("`{name}` ({})", unanswered.registry),
            None => unanswered.registry.clone(),
        };
        ctx.reporter.warn(&format!(
            "the registry {label} did not answer, so no results come from it: {}",
            unanswered.error
        ));
        searched.unanswered.push(unanswered);
    }
    if searched.registries.is_empty() && !searched.unanswered.is_empty() {
        return Err(super::OpsError::NothingAnswered {
            registries: searched
                .unanswered
                .iter()
                .map(|u| u.source.clone().unwrap_or_else(|| u.registry.clone()))
                .collect(),
        });
    }
    Ok(searched)
}

/// Add what one source offers to `searched`.
fn read(searched: &mut Searched, registry: AnyRegistry) -> Result<(), IndexError> {
    let source = registry.source().to_string();
    match registry {
        AnyRegistry::Agx(registry) => {
            let catalog = registry.catalog()?;
            let signature = match registry.signature() {
                Some(signed) => format!(
                    "verified (tuf: {}, root v{})",
                    signed.name(),
                    signed.root()?.version
                ),
                None => "unsigned".to_string(),
            };
            searched.signatures.insert(source.clone(), signature);
            searched.catalogs.push((source, catalog));
        }
        AnyRegistry::Mcp(registry) => searched
            .servers
            .push((source, mcp_registry::list_all(&registry)?)),
        AnyRegistry::Marketplace(marketplace) => {
            searched.plugins.push((source, marketplace.plugins()?))
        }
    }
    Ok(())
}

/// An error with its causes and its hint, on one line, for a warning.
fn explain(error: &IndexError) -> String {
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(e) = cause {
        let said = e.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = e.source();
    }
    if let Some(hint) = agx_core::error::Hint::hint(error) {
        text.push_str(" (");
        text.push_str(&hint);
        text.push(')');
    }
    text
}
