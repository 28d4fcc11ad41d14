//! The MCP server itself: an rmcp `ServerHandler` over an assembled server.

#![allow(deprecated)] // logging/setLevel and notifications/message are deprecated by SEP-2577

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    Implementation, ListPromptsResult, ListToolsResult, LoggingLevel,
    LoggingMessageNotificationParam, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, Prompt, ServerCapabilities, ServerConfig, SetLevelRequestParams, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::Value;
use tokio::sync::mpsc::Receiver;

use super::assemble::{Assembly, ExposedPrompt};
use super::channel::Client;
use super::process;
use super::prompts;
use super::stderr_protocol::StderrLine;
use super::tools::ServedTool;

/// Everything shared by every connection to one assembled server.
pub struct Runtime {
    pub info: ServerConfig,
    pub tools: Vec<ServedTool>,
    pub prompts: Vec<ExposedPrompt>,
    tool_index: HashMap<String, usize>,
    prompt_index: HashMap<String, usize>,
    tool_list: Vec<Tool>,
    prompt_list: Vec<Prompt>,
}

impl Runtime {
    pub fn new(assembly: Assembly) -> Runtime {
        let tools: Vec<ServedTool> = assembly.tools.into_iter().map(ServedTool::new).collect();
        let prompts = assembly.prompts;
        let capabilities: ServerCapabilities = serde_json::from_value(serde_json::json!({
            "tools": {}, "prompts": {}, "logging": {}
        }))
        .expect("capabilities");
        let mut implementation =
            Implementation::new(assembly.server.to_string(), assembly.version.clone());
        if let Some(t) = assembly.title {
            implementation = implementation.with_title(t);
        }
        if let Some(d) = assembly.description {
            implementation = implementation.with_description(d);
        }
        let mut info = ServerConfig::new(capabilities).with_server_info(implementation);
        if let Some(i) = assembly.instructions {
            info = info.with_instructions(i);
        }
        Runtime {
            info,
            tool_index: tools
                .iter()
                .enumerate()
                .map(|(i, t)| (t.name().to_string(), i))
                .collect(),
            prompt_index: prompts
                .iter()
                .enumerate()
                .map(|(i, p)| (p.exposed.clone(), i))
                .collect(),
            tool_list: tools.iter().map(ServedTool::list_entry).collect(),
            prompt_list: prompts.iter().map(prompts::list_entry).collect(),
            tools,
            prompts,
        }
    }
}

/// One connection's handler: the shared runtime plus this client's logging level.
#[derive(Clone)]
pub struct AgxServer {
    rt: Arc<Runtime>,
    /// Minimum level forwarded as notifications/message (index into `LEVELS`).
    min_level: Arc<AtomicU8>,
}

impl AgxServer {
    pub fn new(rt: Arc<Runtime>) -> AgxServer {
        AgxServer {
            rt,
            min_level: Arc::new(AtomicU8::new(0)),
        }
    }
}

const LEVELS: [LoggingLevel; 8] = [
    LoggingLevel::Debug,
    LoggingLevel::Info,
    LoggingLevel::Notice,
    LoggingLevel::Warning,
    LoggingLevel::Error,
    LoggingLevel::Critical,
    LoggingLevel::Alert,
    LoggingLevel::Emergency,
];

fn level_rank(level: LoggingLevel) -> u8 {
    LEVELS.iter().position(|l| *l == level).unwrap_or(0) as u8
}

fn parse_level(name: &str) -> LoggingLevel {
    serde_json::from_value(Value::from(name)).unwrap_or(LoggingLevel::Info)
}

impl ServerHandler for AgxServer {
    fn get_info(&self) -> ServerConfig {
        self.rt.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.rt.tool_list.clone()))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(
            self.rt.prompt_list.clone(),
        ))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.min_level
            .store(level_rank(request.level), Ordering::Relaxed);
        Ok(())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let Some(&i) = self.rt.prompt_index.get(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown prompt `{}`; this server offers: {}",
                    request.name,
                    names(self.rt.prompts.iter().map(|p| p.exposed.as_str()))
                ),
                None,
            ));
        };
        prompts::get(&self.rt.prompts[i], request.arguments, context.ct)
            .await
            .map(Into::into)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(&i) = self.rt.tool_index.get(request.name.as_ref()) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}`; this server offers: {}",
                    request.name,
                    names(self.rt.tools.iter().map(ServedTool::name))
                ),
                None,
            ));
        };
        let tool = &self.rt.tools[i];
        let args = Value::Object(request.arguments.unwrap_or_default());
        let (tx, rx) = tokio::sync::mpsc::channel(process::STDERR_QUEUE_LINES);
        let forwarder = tokio::spawn(forward_stderr(
            rx,
            context.peer.clone(),
            context.meta.get_progress_token(),
            self.min_level.clone(),
            tool.name().to_string(),
        ));
        let client = Client::Peer(context.peer.clone());
        let result = tool
            .call(&args, client, Some(tx), context.ct.cancelled())
            .await;
        // The stderr reader and the channel have ended, so the forwarder drains and stops:
        // notifications for this call are all sent before its result.
        let _ = forwarder.await;
        Ok(result.into())
    }

    // agx offers no resources and no completions: say so instead of answering empty.
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, ErrorData> {
        Err(ErrorData::method_not_found::<
            rmcp::model::ListResourcesRequestMethod,
        >())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, ErrorData> {
        Err(ErrorData::method_not_found::<
            rmcp::model::ListResourceTemplatesRequestMethod,
        >())
    }

    async fn complete(
        &self,
        _request: rmcp::model::CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CompleteResult, ErrorData> {
        Err(ErrorData::method_not_found::<
            rmcp::model::CompleteRequestMethod,
        >())
    }
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<String> = it.map(|n| format!("`{n}`")).collect();
    if all.is_empty() {
        "nothing".into()
    } else {
        all.join(", ")
    }
}

/// Plain stderr lines longer than this are cut in the log: a queued log line is held in
/// memory until it is written.
const LOGGED_LINE_CAP: usize = 8 * 1024;

/// `text`, cut at [`LOGGED_LINE_CAP`] bytes with a note of what was left out.
fn logged(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= LOGGED_LINE_CAP {
        return text.into();
    }
    let mut cut = LOGGED_LINE_CAP;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… [{} more bytes]", &text[..cut], text.len() - cut).into()
}

/// Forward a running tool's stderr: progress and log lines to the client, the rest to
/// agx's log.
async fn forward_stderr(
    mut rx: Receiver<StderrLine>,
    peer: Peer<RoleServer>,
    progress_token: Option<ProgressToken>,
    min_level: Arc<AtomicU8>,
    tool: String,
) {
    while let Some(line) = rx.recv().await {
        match line {
            StderrLine::Progress(p) => {
                let Some(token) = &progress_token else {
                    continue;
                };
                let mut param = ProgressNotificationParam::new(token.clone(), p.progress);
                if let Some(t) = p.total {
                    param = param.with_total(t);
                }
                if let Some(m) = p.message {
                    param = param.with_message(m);
                }
                let _ = peer.notify_progress(param).await;
            }
            StderrLine::Log(m) => {
                let level = parse_level(&m.level);
                if level_rank(level) < min_level.load(Ordering::Relaxed) {
                    continue;
                }
                let param = LoggingMessageNotificationParam::new(level, m.notification_data())
                    .with_logger(m.logger.clone().unwrap_or_else(|| tool.clone()));
                let _ = peer.notify_logging_message(param).await;
            }
            StderrLine::Plain { text, malformed } => {
                if let Some(reason) = malformed {
                    tracing::warn!("tool {tool}: {reason}");
                }
                tracing::info!("tool {tool}: {}", logged(&text));
            }
        }
    }
}
