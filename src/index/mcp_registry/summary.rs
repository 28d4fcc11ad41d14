//! What discovery (`search`, `list --include-remote`) keeps of each listed server: a few
//! fields, so listing a registry of any size holds one page of full documents at a time.

use serde::Serialize;

use super::api::{McpRegistry, RegistryServer, Status};
use crate::index::IndexError;

/// One server offered by an MCP registry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerSummary {
    pub name: String,
    pub version: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
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

/// Every server the registry offers (latest versions, deleted ones left out).
pub fn list_all(registry: &McpRegistry) -> Result<Vec<ServerSummary>, IndexError> {
    let mut all = Vec::new();
    registry.for_each_page(None, |page| {
        all.extend(page.into_iter().map(ServerSummary::from));
        Ok(())
    })?;
    Ok(all)
}
