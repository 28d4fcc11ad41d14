//! The MCP server itself: an rmcp `ServerHandler` over an assembled server.

#![allow(deprecated)] // logging/setLevel and notifications/message are deprecated by SEP-2577

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, LoggingLevel,
    LoggingMessageNotificationParam, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, Prompt, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    Reference, ServerCapabilities, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use serde_json::Value;
use tokio::sync::mpsc::Receiver;

use super::assemble::{Assembly, ExposedPrompt};
use super::channel::Client;
use super::completions::{Completions, Target};
use super::process;
use super::prompts;
use super::resources::ServedResources;
use super::rounds::{Round, Rounds};
use super::stderr_protocol::StderrLine;
use super::subscriptions::{FileStamp, Subscriptions, Updates};
use super::tools::ServedTool;
use agx_model::manifest::uri_template::UriTemplate;

/// Everything shared by every connection to one assembled server.
pub struct Runtime {
    pub info: ServerConfig,
    pub tools: Vec<ServedTool>,
    pub prompts: Vec<ExposedPrompt>,
    pub resources: ServedResources,
    completions: Completions,
    tool_index: HashMap<String, usize>,
    prompt_index: HashMap<String, usize>,
    /// What `tools/list` and `prompts/list` answer, built on the first list: `initialize`
    /// is answered without them.
    tool_list: OnceLock<Vec<Tool>>,
    prompt_list: OnceLock<Vec<Prompt>>,
    /// The filter already applied to the lists, kept to say why a hidden item is refused.
    filter: Option<Arc<agx_model::filter::Filter>>,
}

impl Runtime {
    pub fn new(assembly: Assembly) -> Runtime {
        let tools: Vec<ServedTool> = assembly.tools.into_iter().map(ServedTool::new).collect();
        let prompts = assembly.prompts;
        let completions = Completions::new(&prompts, &assembly.resources);
        let resources = ServedResources::new(assembly.resources);
        let mut capabilities = serde_json::json!({
            "tools": {}, "prompts": {}, "logging": {}
        });
        // Advertised only when there is something behind them. The list of resources is
        // fixed while a server runs, so `listChanged` is never followed by a notification.
        if !resources.is_empty() {
            capabilities["resources"] =
                serde_json::json!({ "subscribe": true, "listChanged": true });
        }
        if !completions.is_empty() {
            capabilities["completions"] = serde_json::json!({});
        }
        let capabilities: ServerCapabilities =
            serde_json::from_value(capabilities).expect("capabilities");
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
            tool_list: OnceLock::new(),
            prompt_list: OnceLock::new(),
            tools,
            prompts,
            resources,
            completions,
            filter: None,
        }
    }

    /// What `tools/list` answers.
    pub fn tool_list(&self) -> &[Tool] {
        self.tool_list
            .get_or_init(|| self.tools.iter().map(ServedTool::list_entry).collect())
    }

    /// What `prompts/list` answers.
    pub fn prompt_list(&self) -> &[Prompt] {
        self.prompt_list
            .get_or_init(|| self.prompts.iter().map(prompts::list_entry).collect())
    }

    /// Name `filter` (already applied to the assembly) in refusals of what it hides.
    pub fn with_filter(mut self, filter: Option<Arc<agx_model::filter::Filter>>) -> Runtime {
        self.filter = filter;
        self
    }

    /// The refusal of a call to `name` that the filter hides, when it does.
    fn hidden(&self, kind: agx_model::filter::Kind, name: &str) -> Option<ErrorData> {
        let message = self
            .filter
            .as_ref()?
            .refusal(kind, name, &self.info.server_info.name)?;
        Some(ErrorData::invalid_params(message, None))
    }
}

/// One connection's handler: the shared runtime plus this client's logging level and
/// resource subscriptions.
#[derive(Clone)]
pub struct AgxServer {
    rt: Arc<Runtime>,
    /// Minimum level forwarded as notifications/message (index into `LEVELS`).
    min_level: Arc<AtomicU8>,
    subscriptions: Arc<Subscriptions>,
    /// Calls of 2026-07-28 clients waiting for their input.
    rounds: Arc<Rounds>,
    /// The files of resources a `subscriptions/listen` stream asked for, as they were when
    /// it was acknowledged (by URI).
    stream_stamps: Arc<Mutex<HashMap<String, FileStamp>>>,
}

impl AgxServer {
    pub fn new(rt: Arc<Runtime>) -> AgxServer {
        AgxServer {
            rt,
            min_level: Arc::new(AtomicU8::new(0)),
            subscriptions: Arc::default(),
            rounds: Arc::default(),
            stream_stamps: Arc::default(),
        }
    }

    /// A server whose waiting calls are `rounds`: over HTTP each session (and each request
    /// of a 2026-07-28 client) has its own server, and a retry may come on another.
    pub(crate) fn sharing_rounds(mut self, rounds: Arc<Rounds>) -> AgxServer {
        self.rounds = rounds;
        self
    }

    /// The prompt a client named, or the invalid-params error listing the server's prompts.
    fn prompt(&self, name: &str) -> Result<&ExposedPrompt, ErrorData> {
        match self.rt.prompt_index.get(name) {
            Some(&i) => Ok(&self.rt.prompts[i]),
            None => Err(self
                .rt
                .hidden(agx_model::filter::Kind::Prompt, name)
                .unwrap_or_else(|| {
                    ErrorData::invalid_params(
                        format!(
                            "unknown prompt `{name}`; this server offers: {}",
                            names(self.rt.prompts.iter().map(|p| p.exposed.as_str()))
                        ),
                        None,
                    )
                })),
        }
    }

    /// The completion target a reference names, when it names an argument the target has.
    fn completion_target(&self, reference: Reference, argument: &str) -> Result<Target, ErrorData> {
        let (target, arguments): (Target, Vec<String>) = match reference {
            Reference::Prompt(p) => {
                let prompt = self.prompt(&p.name)?;
                let arguments = prompt
                    .def
                    .arguments
                    .iter()
                    .map(|a| a.name.clone())
                    .collect();
                (Target::Prompt(p.name), arguments)
            }
            Reference::Resource(r) => {
                if self.rt.resources.template(&r.uri).is_none() {
                    return Err(ErrorData::invalid_params(
                        format!(
                            "no resource template of this server is `{}`; \
                             `resources/templates/list` shows them",
                            r.uri
                        ),
                        None,
                    ));
                }
                let variables = UriTemplate::parse(&r.uri)
                    .map(|t| t.variables().map(str::to_string).collect())
                    .unwrap_or_default();
                (Target::Template(r.uri), variables)
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "completion references of type `{}` are not supported; use \
                         `ref/prompt` or `ref/resource`",
                        other.reference_type()
                    ),
                    None,
                ));
            }
        };
        if !arguments.iter().any(|a| a == argument) {
            return Err(ErrorData::invalid_params(
                format!(
                    "`{argument}` is not an argument of this reference; its arguments: {}",
                    names(arguments.iter().map(String::as_str))
                ),
                None,
            ));
        }
        Ok(target)
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

/// How long a modern client may keep an agx server's lists: its definitions change only
/// when its package is installed again, which restarts `agx serve`.
const STATIC_LIST_TTL_MS: u64 = 60 * 60 * 1000;

/// The caching hints of a list of static definitions, for a modern (2026-07-28) client
/// only: legacy results keep their shape. Private, as a filter or settings may shape them.
fn static_list_hint(context: &RequestContext<RoleServer>) -> Option<(u64, CacheScope)> {
    is_modern(context).then_some((STATIC_LIST_TTL_MS, CacheScope::Private))
}

/// Whether the request is of a 2026-07-28 client (no session; requests of the server's
/// only as a call's input).
fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

impl ServerHandler for AgxServer {
    fn get_info(&self) -> ServerConfig {
        self.rt.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result = ListToolsResult::with_all_items(self.rt.tool_list().to_vec());
        if let Some((ttl, scope)) = static_list_hint(&context) {
            (result.ttl_ms, result.cache_scope) = (Some(ttl), Some(scope));
        }
        Ok(result)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut result = ListPromptsResult::with_all_items(self.rt.prompt_list().to_vec());
        if let Some((ttl, scope)) = static_list_hint(&context) {
            (result.ttl_ms, result.cache_scope) = (Some(ttl), Some(scope));
        }
        Ok(result)
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
        let prompt = self.prompt(&request.name)?;
        prompts::get(prompt, request.arguments, context.ct)
            .await
            .map(Into::into)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(&i) = self.rt.tool_index.get(request.name.as_ref()) else {
            if let Some(refusal) = self.rt.hidden(agx_model::filter::Kind::Tool, &request.name) {
                return Err(refusal);
            }
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}`; this server offers: {}",
                    request.name,
                    names(self.rt.tools.iter().map(ServedTool::name))
                ),
                None,
            ));
        };
        let modern = is_modern(&context);
        let target = NotifyTarget {
            peer: context.peer.clone(),
            progress: context.meta.get_progress_token(),
        };
        if modern && let Some(state) = &request.request_state {
            return self
                .rounds
                .resume(
                    &request.name,
                    state,
                    request.input_responses,
                    target,
                    &context.ct,
                )
                .await;
        }
        let tool = &self.rt.tools[i];
        let args = Value::Object(request.arguments.unwrap_or_default());
        let (tx, rx) = tokio::sync::mpsc::channel(process::STDERR_QUEUE_LINES);
        // A modern client's call answers several requests (its retries): its progress and
        // log messages go with the latest.
        let (retarget, targets) = tokio::sync::watch::channel(target);
        let forwarder = tokio::spawn(forward_stderr(
            rx,
            targets,
            self.min_level.clone(),
            tool.name().to_string(),
        ));
        if modern {
            // The tool's requests become input asked through this call's answers: it runs
            // on in a task of its own between the client's retries.
            let (asks, asked) = tokio::sync::mpsc::channel(1);
            let client = Client::Rounds {
                asks,
                capabilities: context.client_capabilities().unwrap_or_default(),
            };
            let stop = tokio_util::sync::CancellationToken::new();
            let rt = self.rt.clone();
            let stopped = stop.clone();
            let call = tokio::spawn(async move {
                let tool = &rt.tools[i];
                let result = tool
                    .call(&args, client, Some(tx), stopped.cancelled())
                    .await;
                let _ = forwarder.await;
                result
            });
            let round = Round::new(request.name.to_string(), call, asked, stop, retarget);
            return self.rounds.drive(round, &context.ct).await;
        }
        let client = Client::Peer(context.peer.clone());
        let result = tool
            .call(&args, client, Some(tx), context.ct.cancelled())
            .await;
        // The stderr reader and the channel have ended, so the forwarder drains and stops:
        // notifications for this call are all sent before its result.
        let _ = forwarder.await;
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (items, next) = self.rt.resources.list(cursor(&request))?;
        let mut result = ListResourcesResult::with_all_items(items);
        result.next_cursor = next;
        if let Some((ttl, scope)) = static_list_hint(&context) {
            (result.ttl_ms, result.cache_scope) = (Some(ttl), Some(scope));
        }
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let (items, next) = self.rt.resources.templates(cursor(&request))?;
        let mut result = ListResourceTemplatesResult::with_all_items(items);
        result.next_cursor = next;
        if let Some((ttl, scope)) = static_list_hint(&context) {
            (result.ttl_ms, result.cache_scope) = (Some(ttl), Some(scope));
        }
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.rt
            .resources
            .read(&request.uri, context.ct)
            .await
            .map(Into::into)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let file = self.rt.resources.watched_file(&request.uri)?;
        self.subscriptions
            .subscribe(&request.uri, &file, &Updates::Session(context.peer))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    /// A 2026-07-28 client's stream takes updates of the file-backed resources it names;
    /// the lists are fixed while the server runs, so no list changes.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::default();
        let mut watched = Vec::new();
        let mut stamps = self
            .stream_stamps
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for uri in requested.resource_subscriptions.iter().flatten() {
            if let Ok(file) = self.rt.resources.watched_file(uri) {
                stamps.insert(uri.clone(), FileStamp::of(&file));
                watched.push(uri.clone());
            }
        }
        if !watched.is_empty() {
            accepted.resource_subscriptions = Some(watched);
        }
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        // The stream's own watcher, dropped (and so stopped) when the stream ends.
        let subscriptions = Subscriptions::default();
        let updates = Updates::Stream(context.sink().clone());
        let mut changed_meanwhile = Vec::new();
        for uri in context.accepted().resource_subscriptions.iter().flatten() {
            let file = self.rt.resources.watched_file(uri)?;
            subscriptions
                .subscribe(uri, &file, &updates)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            // The acknowledgment went out before the watcher started: a change in between
            // is told now.
            let before = (self.stream_stamps.lock())
                .unwrap_or_else(PoisonError::into_inner)
                .remove(uri);
            if before != Some(FileStamp::of(&file)) {
                changed_meanwhile.push(uri.clone());
            }
        }
        for uri in changed_meanwhile {
            updates.send(uri).await;
        }
        context.cancelled().await;
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions.unsubscribe(&request.uri);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let argument = request.argument;
        let target = self.completion_target(request.r#ref, &argument.name)?;
        let given = request
            .context
            .and_then(|c| c.arguments)
            .unwrap_or_default();
        self.rt
            .completions
            .complete(target, &argument.name, &argument.value, given, context.ct)
            .await
    }
}

/// The cursor of a list request, if it has one.
fn cursor(request: &Option<PaginatedRequestParams>) -> Option<&str> {
    request.as_ref()?.cursor.as_deref()
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
/// Where a call's progress and log messages go: the request being answered, and its
/// progress token.
#[derive(Clone)]
pub(crate) struct NotifyTarget {
    peer: Peer<RoleServer>,
    progress: Option<ProgressToken>,
}

async fn forward_stderr(
    mut rx: Receiver<StderrLine>,
    targets: tokio::sync::watch::Receiver<NotifyTarget>,
    min_level: Arc<AtomicU8>,
    tool: String,
) {
    while let Some(line) = rx.recv().await {
        let NotifyTarget {
            peer,
            progress: progress_token,
        } = targets.borrow().clone();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::tests::tool;
    use agx_core::name::QualifiedName;
    use agx_model::manifest::InputMode;

    #[test]
    fn the_lists_are_built_on_the_first_list_not_before() {
        let runtime = Runtime::new(Assembly {
            server: QualifiedName::parse("acme/demo/srv").unwrap(),
            version: "1.0.0".into(),
            title: None,
            description: None,
            instructions: None,
            tools: vec![tool("get", &["true"], InputMode::Stdin)],
            prompts: Vec::new(),
            resources: Vec::new(),
            initialization: Vec::new(),
        });
        assert!(runtime.tool_list.get().is_none());
        assert!(runtime.prompt_list.get().is_none());
        let names: Vec<&str> = runtime.tool_list().iter().map(|t| &*t.name).collect();
        assert_eq!(names, ["get"]);
        assert!(runtime.prompt_list().is_empty());
    }
}
