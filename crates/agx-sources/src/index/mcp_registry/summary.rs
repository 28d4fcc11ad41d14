//! What discovery (`search`, `list --include-remote`) keeps of each listed server: a few
//! fields, so listing a registry of any size holds one page of full documents at a time.
//! A complete listing also leaves these summaries in the registry's cache, where an
//! `--offline` listing reads them instead of parsing every cached document again.

use serde::{Deserialize, Serialize};

use super::api::{McpRegistry, RegistryServer, Status};
use crate::index::IndexError;
use crate::index::cache::Validators;

/// The summaries of the last complete listing, beside the cached pages they came from.
const DISCOVERY_FILE: &str = "mcp-v0.1/discovery-v1.json";

/// One server offered by an MCP registry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerSummary {
    pub name: String,
    pub version: String,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// The registry types of its packages (`npm`, `pypi`, `oci`, `mcpb`), in order.
    pub packages: Vec<String>,
    /// The transports of its remote endpoints (`streamable-http`, `sse`).
    pub remotes: Vec<String>,
}

impl From<RegistryServer> for ServerSummary {
    fn from(entry: RegistryServer) -> Self {
        let server = entry.server;
        ServerSummary {
            packages: server
                .packages
                .iter()
                .map(|p| p.registry_type.clone())
                .collect(),
            remotes: server
                .remotes
                .iter()
                .map(|r| r.kind().to_string())
                .collect(),
            name: server.name,
            version: server.version,
            description: server.description,
            title: server.title,
            status: entry.status,
            status_message: entry.status_message,
        }
    }
}

/// Every server the registry offers (latest versions, deleted ones left out). Offline, the
/// summaries the last complete listing cached, when they are there and readable; else the
/// cached pages.
pub fn list_all(registry: &McpRegistry) -> Result<Vec<ServerSummary>, IndexError> {
    if registry.is_offline()
        && let Some(servers) = cached_discovery(registry)
    {
        return Ok(servers);
    }
    let mut all = Vec::new();
    registry.for_each_page(None, |page| {
        all.extend(page.into_iter().map(ServerSummary::from));
        Ok(())
    })?;
    cache_discovery(registry, &all);
    Ok(all)
}

#[derive(Serialize)]
struct DiscoveryOut<'a> {
    servers: &'a [ServerSummary],
}

#[derive(Deserialize)]
struct DiscoveryIn {
    servers: Vec<ServerSummary>,
}

fn cached_discovery(registry: &McpRegistry) -> Option<Vec<ServerSummary>> {
    let body = registry.cache().read(DISCOVERY_FILE).ok()??;
    // sonic-rs parses with SIMD: an offline search of 10,000 servers is mostly this parse.
    match sonic_rs::from_slice::<DiscoveryIn>(&body) {
        Ok(discovery) => Some(discovery.servers),
        Err(e) => {
            tracing::debug!("reading the cached pages instead of {DISCOVERY_FILE}: {e}");
            None
        }
    }
}

/// A cache that cannot be written only costs the next offline listing some time.
fn cache_discovery(registry: &McpRegistry, servers: &[ServerSummary]) {
    let body = serde_json::to_vec(&DiscoveryOut { servers }).expect("summaries serialize");
    if let Err(e) = registry
        .cache()
        .write(DISCOVERY_FILE, &body, &Validators::default())
    {
        tracing::debug!("could not cache the listing of {}: {e}", registry.base());
    }
}
