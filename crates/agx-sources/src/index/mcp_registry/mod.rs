//! MCP registries as sources: the `server.json` model ([`server_json`]), the registry's REST
//! API read page by page ([`api`]) and where its answers are cached ([`cache`]). See
//! `docs/ecosystem.md`.

pub mod api;
pub mod cache;
pub mod server_json;
pub mod summary;

pub use api::{McpRegistry, RegistryServer, Status};
pub use server_json::{ServerJson, ServerJsonError, is_server_name};
pub use summary::{ServerSummary, list_all};
