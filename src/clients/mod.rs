//! MCP client table, lossless config editing, adapters (DESIGN §6).
