//! The floor of `agx serve` (benches/serve.sh): 50 tools `t<p>_<t>` (p, t in 0..5, 0..10) with
//! the schema agx lists for the bench's tools, each run as `cat` with its arguments on stdin,
//! served over stdio by rmcp on a current-thread runtime. Nothing is read from disk.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

struct Floor {
    tools: Vec<Tool>,
}

impl Floor {
    fn new() -> Floor {
        let schema = json!({
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "Anything"},
                "count": {"type": "integer", "description": "A number"},
            },
            "required": ["text"],
        });
        let Value::Object(schema) = schema else {
            unreachable!("an object")
        };
        let schema = Arc::new(schema);
        let tools = (0..5)
            .flat_map(|p| (0..10).map(move |t| (p, t)))
            .map(|(p, t)| {
                Tool::new_with_raw(
                    format!("t{p}_{t}"),
                    Some(Cow::Owned(format!(
                        "Benchmark tool {t} of package {p}: echoes its arguments"
                    ))),
                    schema.clone(),
                )
            })
            .collect();
        Floor { tools }
    }
}

impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        let capabilities: ServerCapabilities =
            serde_json::from_value(json!({"tools": {}})).expect("capabilities");
        ServerConfig::new(capabilities).with_server_info(Implementation::new("floor", "0.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let input = Value::Object(request.arguments.unwrap_or_default()).to_string();
        let mut child = tokio::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let mut stdin = child.stdin.take().expect("piped");
        stdin
            .write_all(input.as_bytes())
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        drop(stdin);
        let output = child
            .wait_with_output()
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let value: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
        Ok(CallToolResult::structured(value).into())
    }
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let service = Floor::new()
            .serve(rmcp::transport::stdio())
            .await
            .expect("stdio");
        let _ = service.waiting().await;
    });
}
