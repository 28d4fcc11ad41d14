//! `agx serve @NAME`: every server of a profile behind one MCP endpoint (docs/profiles.md).
//!
//! Each member runs as its own `agx serve REF` (so its settings, filter, wrapped program or
//! remote bridge are exactly those of its own entry) with piped standard streams; this
//! module speaks JSON-RPC lines with the client on one side and the members on the other:
//!
//! - `initialize` goes to every member; the answer's capabilities are their union.
//! - The four list requests are answered from every member's full list (all pages), each
//!   item named `KEY__name` (unless `namespace = "none"`), and kept until a member says its
//!   list changed (that notification is forwarded) or a member ends.
//! - A call naming an item (`tools/call`, `prompts/get`, `completion/complete`,
//!   `resources/read`, `resources/subscribe`, `resources/unsubscribe`) goes to its member
//!   under the member's own name; its id is kept, so the answer, its progress notifications
//!   and a client's `notifications/cancelled` pass unchanged.
//! - A member's own requests (sampling, elicitation, roots, ping) reach the client under a
//!   new id, and the client's answer goes back to that member under the member's id.
//! - A member that does not start or ends is logged; calls to it are refused with an error
//!   naming it and why, while the others keep answering.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::Path;
use std::process::Stdio;

use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use super::ServeError;
use super::era::CacheHint;
use super::era_adapter::EraAdapter;
use super::lists::List;
use super::stdio::{BoundedLines, INVALID_PARAMS, MAX_LINE, METHOD_NOT_FOUND};
use agx_project::profile::{Namespace, Profile, SEPARATOR};

/// The JSON-RPC error of a call to a member that is not running.
pub(crate) const MEMBER_DOWN: i64 = -32000;

/// What the event loop hears.
enum Event {
    Client(Option<Value>),
    Member(usize, Value),
    MemberEnded(usize, String),
}

/// A member's state.
enum Link {
    Up(tokio::process::ChildStdin),
    Down(String),
}

struct Member {
    key: String,
    reference: String,
    link: Link,
    /// Whether it answered `initialize` (and so takes requests).
    ready: bool,
    capabilities: Value,
}

/// A list being gathered from the members.
struct Gather {
    waiting: HashSet<usize>,
    items: BTreeMap<usize, Vec<Value>>,
    /// Client requests to answer with it.
    clients: Vec<Value>,
}

/// A merged list: the items and where each shown name goes.
struct Merged {
    items: Vec<Value>,
    /// Shown name (URI for resources) → member and its own name.
    routes: HashMap<String, (usize, String)>,
}

/// Requests the profile itself sent a member.
enum Own {
    Initialize(usize),
    ListPage(usize, List),
    /// A list page asked for after the member's time ran out: its answer means the member
    /// is back, and the client is told to list again.
    LatePage(usize, List),
    Ignore,
}

/// A request of the profile's own, waiting for its answer.
struct Pending {
    purpose: Own,
    /// When the member's time to answer runs out (`initialize` and lists only).
    deadline: Option<tokio::time::Instant>,
}

struct Aggregator<W> {
    name: String,
    namespace: Namespace,
    members: Vec<Member>,
    client: W,
    next_id: u64,
    own: HashMap<String, Pending>,
    /// How long a member may take to answer `initialize` or a list page.
    timeout: std::time::Duration,
    /// Client requests sent to a member, by id text: answered with an error if it ends.
    forwarded: HashMap<String, (usize, Value)>,
    /// A member's requests to the client: the new id's text → member and its own id.
    asked: HashMap<String, (usize, Value)>,
    /// The client's `initialize`, while members answer theirs.
    initializing: Option<(Value, HashSet<usize>)>,
    initialized: bool,
    gathers: HashMap<List, Gather>,
    merged: HashMap<List, Merged>,
    /// Client messages waiting for a list's routes (names under `namespace = "none"`).
    deferred: Vec<(List, Value)>,
    /// Members that did not answer a list in time, and which: their items are left out and
    /// calls to them refused until they answer.
    late: HashSet<(usize, List)>,
    /// The client's era: the profile speaks legacy MCP, translated for a modern client.
    eras: EraAdapter,
    /// Messages the era translation sends the profile, in order.
    translated: VecDeque<Value>,
}

/// Serve `profile` on stdio until the client closes it. `agx` is the program that serves
/// each member (`agx serve REF`).
pub(crate) async fn serve_stdio(profile: &Profile, agx: &Path) -> Result<(), ServeError> {
    // Polled where they are pipes or sockets (the members have their own pipes).
    let (stdin, stdout) = super::std_streams::open();
    run(profile, agx, stdin, stdout).await
}

/// The profile's loop over any client streams (stdio in production).
pub(crate) async fn run<R, W>(
    profile: &Profile,
    agx: &Path,
    client_in: R,
    client_out: W,
) -> Result<(), ServeError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin,
{
    let (events, mut inbox) = mpsc::channel::<Event>(256);
    let mut children = Vec::new();
    let mut members = Vec::new();
    for (index, member) in profile.members.iter().enumerate() {
        let mut command = tokio::process::Command::new(agx);
        command.arg("serve").arg(&member.reference);
        if !member.args.is_empty() {
            command.arg("--").args(&member.args);
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        let link = match command.spawn() {
            Ok(mut child) => {
                let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                    unreachable!("both streams were piped");
                };
                tokio::spawn(read_member(index, stdout, events.clone()));
                children.push(child);
                Link::Up(stdin)
            }
            Err(e) => {
                let why = format!(
                    "could not start `{} serve {}`: {e}",
                    agx.display(),
                    member.reference
                );
                tracing::warn!("profile @{}: server `{}`: {why}", profile.name, member.key);
                Link::Down(why)
            }
        };
        members.push(Member {
            key: member.key.clone(),
            reference: member.reference.clone(),
            link,
            ready: false,
            capabilities: json!({}),
        });
    }
    tokio::spawn(read_client(client_in, events.clone()));
    drop(events);
    let mut aggregator = Aggregator {
        name: profile.name.clone(),
        namespace: profile.namespace,
        members,
        client: client_out,
        next_id: 0,
        own: HashMap::new(),
        timeout: profile.timeout,
        forwarded: HashMap::new(),
        asked: HashMap::new(),
        initializing: None,
        initialized: false,
        gathers: HashMap::new(),
        merged: HashMap::new(),
        deferred: Vec::new(),
        late: HashSet::new(),
        // Members' lists change when a member ends or updates: not for keeping.
        eras: EraAdapter::new(CacheHint::NONE),
        translated: VecDeque::new(),
    };
    #[cfg(unix)]
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(ServeError::Runtime)?;
    #[cfg(windows)]
    let mut terminate = tokio::signal::windows::ctrl_close().map_err(ServeError::Runtime)?;
    loop {
        let deadline = aggregator.next_deadline();
        let event = tokio::select! {
            event = inbox.recv() => event,
            () = sleep_until(deadline) => {
                aggregator.time_out().await;
                aggregator.take_translated().await;
                continue;
            }
            _ = tokio::signal::ctrl_c() => None,
            _ = terminate.recv() => None,
        };
        match event {
            None | Some(Event::Client(None)) => break,
            Some(Event::Client(Some(message))) => aggregator.client_message(message).await,
            Some(Event::Member(index, message)) => aggregator.on_member(index, message).await,
            Some(Event::MemberEnded(index, why)) => {
                let why = match children.get_mut(index).map(|c| c.try_wait()) {
                    Some(Ok(Some(status))) => format!("{why} ({status})"),
                    _ => why,
                };
                aggregator.member_ended(index, why).await;
            }
        }
        aggregator.take_translated().await;
    }
    // Closing the members' stdin tells them to finish; those that do not are ended.
    for member in &mut aggregator.members {
        member.link = Link::Down("the client left".into());
    }
    let grace = tokio::time::sleep(GRACE_AFTER_CLIENT);
    tokio::pin!(grace);
    for child in &mut children {
        tokio::select! {
            _ = child.wait() => {}
            () = &mut grace => { let _ = child.start_kill(); }
        }
    }
    for child in &mut children {
        let _ = child.start_kill();
        let _ = child.wait().await;
    }
    Ok(())
}

/// Sleep until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// How long members may go on after the client left (as for one filtered server).
const GRACE_AFTER_CLIENT: std::time::Duration = std::time::Duration::from_secs(2);

async fn read_client<R: AsyncRead + Unpin>(read: R, events: mpsc::Sender<Event>) {
    let mut lines = BoundedLines::new(read);
    while let Some(complete) = lines.read_line().await {
        let line = lines.line().trim_ascii();
        let message = if !complete {
            json!({"agx-invalid": format!("message longer than {MAX_LINE} bytes")})
        } else if line.is_empty() {
            continue;
        } else {
            match serde_json::from_slice::<Value>(line) {
                Ok(message) => message,
                Err(e) => json!({"agx-invalid": format!("not JSON: {e}")}),
            }
        };
        if events.send(Event::Client(Some(message))).await.is_err() {
            return;
        }
    }
    let _ = events.send(Event::Client(None)).await;
}

async fn read_member<R: AsyncRead + Unpin>(index: usize, read: R, events: mpsc::Sender<Event>) {
    let mut lines = BoundedLines::new(read);
    while let Some(complete) = lines.read_line().await {
        if !complete {
            tracing::warn!("dropped a message of a profile's server longer than {MAX_LINE} bytes");
            continue;
        }
        let line = lines.line().trim_ascii();
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(message) => {
                if events.send(Event::Member(index, message)).await.is_err() {
                    return;
                }
            }
            Err(_) => tracing::warn!("a profile's server wrote a line that is not JSON"),
        }
    }
    let _ = events
        .send(Event::MemberEnded(index, "it closed its output".into()))
        .await;
}

fn error(id: &Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

impl<W: AsyncWrite + Unpin> Aggregator<W> {
    /// A client's message, through the era translation.
    async fn client_message(&mut self, message: Value) {
        let sends = self.eras.client_message(message);
        for message in &sends.to_client {
            self.write_client(message).await;
        }
        self.translated.extend(sends.to_server);
    }

    /// Take the messages the era translation sent the profile (a modern client's requests
    /// once the members' session is open).
    async fn take_translated(&mut self) {
        while let Some(message) = self.translated.pop_front() {
            self.on_client(message).await;
        }
    }

    /// A message for the client, through the era translation.
    async fn send_client(&mut self, message: &Value) {
        let sends = self.eras.server_message(message.clone());
        for message in &sends.to_client {
            self.write_client(message).await;
        }
        self.translated.extend(sends.to_server);
    }

    async fn write_client(&mut self, message: &Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        // A client that closed its input is gone; reading its stdin ends the loop.
        let _ = self.client.write_all(&line).await;
        let _ = self.client.flush().await;
    }

    /// Send `message` to member `index`; false when it is down (or just went down).
    async fn send_member(&mut self, index: usize, message: &Value) -> bool {
        let Link::Up(stdin) = &mut self.members[index].link else {
            return false;
        };
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        if stdin.write_all(&line).await.is_ok() && stdin.flush().await.is_ok() {
            return true;
        }
        self.members[index].link = Link::Down("it stopped reading its input".into());
        false
    }

    /// Send a request of the profile's own to member `index`.
    async fn ask_member(
        &mut self,
        index: usize,
        method: &str,
        params: Value,
        purpose: Own,
    ) -> bool {
        self.next_id += 1;
        let id = Value::String(format!("agx-profile-{}", self.next_id));
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        if self.send_member(index, &request).await {
            let deadline = matches!(purpose, Own::Initialize(_) | Own::ListPage(..))
                .then(|| tokio::time::Instant::now() + self.timeout);
            self.own
                .insert(id.to_string(), Pending { purpose, deadline });
            true
        } else {
            false
        }
    }

    fn down_reason(&self, index: usize) -> Option<String> {
        let member = &self.members[index];
        match &member.link {
            Link::Down(why) => Some(why.clone()),
            Link::Up(_) if !member.ready && self.initialized => {
                Some("it did not answer `initialize`".into())
            }
            Link::Up(_) => None,
        }
    }

    fn down_error(&self, id: &Value, index: usize, why: &str) -> Value {
        let member = &self.members[index];
        error(
            id,
            MEMBER_DOWN,
            format!(
                "server `{}` ({}) of profile @{} is not running: {why}; the other servers of the profile still answer (`agx serve {}` shows why it stops)",
                member.key, member.reference, self.name, member.reference
            ),
        )
    }

    /// When the first member's time to answer (or the era probe's) runs out.
    fn next_deadline(&self) -> Option<tokio::time::Instant> {
        self.own
            .values()
            .filter_map(|p| p.deadline)
            .chain(self.eras.deadline())
            .min()
    }

    /// Members whose time ran out: one that did not answer `initialize` is served no more;
    /// one that did not answer a list is left out of it (the others are answered) until it
    /// answers.
    async fn time_out(&mut self) {
        let now = tokio::time::Instant::now();
        if self.eras.deadline().is_some_and(|d| d <= now) {
            let sends = self.eras.time_out();
            for message in &sends.to_client {
                self.write_client(message).await;
            }
            self.translated.extend(sends.to_server);
        }
        let secs = self.timeout.as_secs();
        let mut expired = Vec::new();
        for pending in self.own.values_mut() {
            if pending.deadline.is_some_and(|d| d <= now) {
                pending.deadline = None;
                expired.push(match pending.purpose {
                    Own::ListPage(index, list) => {
                        pending.purpose = Own::LatePage(index, list);
                        Own::ListPage(index, list)
                    }
                    _ => std::mem::replace(&mut pending.purpose, Own::Ignore),
                });
            }
        }
        for purpose in expired {
            match purpose {
                Own::Initialize(index) => {
                    let why = format!("it did not answer `initialize` within {secs} s");
                    self.not_initialized(index, why).await;
                }
                Own::ListPage(index, list) => {
                    tracing::warn!(
                        "profile @{}: server `{}` did not answer `{}` within {secs} s; the list is answered without it",
                        self.name,
                        self.members[index].key,
                        list.method()
                    );
                    self.late.insert((index, list));
                    if let Some(gather) = self.gathers.get_mut(&list) {
                        gather.waiting.remove(&index);
                    }
                    self.finish_gathers().await;
                }
                Own::LatePage(..) | Own::Ignore => {}
            }
        }
    }

    /// The error of a call to a member left out of a list for not answering it.
    fn late_error(&self, id: &Value, index: usize, list: List) -> Value {
        let member = &self.members[index];
        error(
            id,
            MEMBER_DOWN,
            format!(
                "server `{}` ({}) of profile @{} did not answer `{}` within {} s, so its items are left out until it does; the other servers of the profile still answer",
                member.key,
                member.reference,
                self.name,
                list.method(),
                self.timeout.as_secs()
            ),
        )
    }

    /// The members left out of `list`, for the error of a name no member shows.
    fn late_note(&self, list: List) -> String {
        let keys: Vec<String> = self
            .late
            .iter()
            .filter(|(_, l)| *l == list)
            .map(|(i, _)| format!("`{}`", self.members[*i].key))
            .collect();
        if keys.is_empty() {
            return String::new();
        }
        format!(
            " (server {} did not answer `{}` in time, so its items are left out)",
            keys.join(", "),
            list.method()
        )
    }

    async fn on_client(&mut self, message: Value) {
        if let Some(why) = message.get("agx-invalid").and_then(Value::as_str) {
            let reply = error(
                &Value::Null,
                super::stdio::INVALID_REQUEST,
                format!("Invalid request: {why}"),
            );
            self.send_client(&reply).await;
            return;
        }
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string);
        let id = message.get("id").cloned();
        match (method, id) {
            // The client's answer to a member's request.
            (None, Some(id)) => {
                if let Some((index, own_id)) = self.asked.remove(&id.to_string()) {
                    let mut answer = message;
                    answer["id"] = own_id;
                    self.send_member(index, &answer).await;
                }
            }
            (None, None) => {}
            (Some(method), None) => self.client_notification(&method, message).await,
            (Some(method), Some(id)) => self.client_request(&method, id, message).await,
        }
    }

    async fn client_notification(&mut self, method: &str, message: Value) {
        if !method.starts_with("notifications/") {
            // A request sent without an id (`tools/call` as a notification) gets no answer
            // and names no member: none runs it.
            return;
        }
        if method == "notifications/cancelled" {
            let target = message
                .pointer("/params/requestId")
                .map(Value::to_string)
                .and_then(|id| self.forwarded.get(&id).map(|(index, _)| *index));
            if let Some(index) = target {
                self.send_member(index, &message).await;
            }
            return;
        }
        if method == "notifications/initialized" {
            self.initialized = true;
        }
        for index in 0..self.members.len() {
            if self.members[index].ready {
                self.send_member(index, &message).await;
            }
        }
        if method == "notifications/initialized" {
            // Ready before the client asks: `tools/list` is then answered at once.
            self.start_gather(List::Tools).await;
        }
    }

    async fn client_request(&mut self, method: &str, id: Value, message: Value) {
        match method {
            "initialize" => {
                let params = message.get("params").cloned().unwrap_or(json!({}));
                let mut waiting = HashSet::new();
                for index in 0..self.members.len() {
                    if self
                        .ask_member(index, "initialize", params.clone(), Own::Initialize(index))
                        .await
                    {
                        waiting.insert(index);
                    }
                }
                self.initializing = Some((message, waiting));
                self.finish_initialize().await;
            }
            "ping" => {
                self.send_client(&json!({"jsonrpc": "2.0", "id": id, "result": {}}))
                    .await;
            }
            "logging/setLevel" => {
                let params = message.get("params").cloned().unwrap_or(json!({}));
                for index in 0..self.members.len() {
                    if self.members[index].ready
                        && self.members[index].capabilities.get("logging").is_some()
                    {
                        self.ask_member(index, method, params.clone(), Own::Ignore)
                            .await;
                    }
                }
                self.send_client(&json!({"jsonrpc": "2.0", "id": id, "result": {}}))
                    .await;
            }
            _ => {
                if let Some(list) = List::of(method) {
                    if let Some(merged) = self.merged.get(&list) {
                        let mut result = Map::new();
                        result.insert(list.array().into(), Value::Array(merged.items.clone()));
                        self.send_client(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
                            .await;
                        return;
                    }
                    self.start_gather(list).await;
                    if let Some(gather) = self.gathers.get_mut(&list) {
                        gather.clients.push(id);
                    }
                    self.finish_gathers().await;
                    return;
                }
                self.route_call(method, id, message).await;
            }
        }
    }

    /// Send a call naming an item to its member, under the member's own name.
    async fn route_call(&mut self, method: &str, id: Value, mut message: Value) {
        let Some((list, pointer)) = List::named_by(method, &message) else {
            let reply = error(&id, METHOD_NOT_FOUND, format!("Method not found: {method}"));
            self.send_client(&reply).await;
            return;
        };
        let Some(called) = message
            .pointer(pointer)
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            let reply = error(
                &id,
                INVALID_PARAMS,
                format!("{method} needs `{}`", &pointer[8..]),
            );
            self.send_client(&reply).await;
            return;
        };
        let route = match self.route(list, &called) {
            Some(route) => route,
            None if self.needs_routes(list) => {
                // Names are known only from the members' lists: gather them first.
                self.deferred.push((list, message));
                self.start_gather(list).await;
                if list == List::Resources {
                    self.start_gather(List::Templates).await;
                }
                self.finish_gathers().await;
                return;
            }
            None => {
                let what = match list {
                    List::Tools => "tool",
                    List::Prompts => "prompt",
                    _ => "resource",
                };
                let reply = error(
                    &id,
                    INVALID_PARAMS,
                    format!(
                        "profile @{} has no {what} `{called}`{}",
                        self.name,
                        self.late_note(list)
                    ),
                );
                self.send_client(&reply).await;
                return;
            }
        };
        let (index, own_name) = route;
        if let Some(why) = self.down_reason(index) {
            let reply = self.down_error(&id, index, &why);
            self.send_client(&reply).await;
            return;
        }
        if let Some(late) = [list, List::Templates]
            .into_iter()
            .find(|l| self.late.contains(&(index, *l)))
            .filter(|l| *l == list || list == List::Resources)
        {
            let reply = self.late_error(&id, index, late);
            self.send_client(&reply).await;
            return;
        }
        if let Some(slot) = message.pointer_mut(pointer) {
            *slot = Value::String(own_name);
        }
        self.forwarded.insert(id.to_string(), (index, id.clone()));
        if !self.send_member(index, &message).await {
            self.forwarded.remove(&id.to_string());
            let why = self.down_reason(index).unwrap_or_default();
            let reply = self.down_error(&id, index, &why);
            self.send_client(&reply).await;
        }
    }

    /// Whether routing `list`'s names needs its merged list (not yet gathered).
    fn needs_routes(&self, list: List) -> bool {
        match list {
            List::Tools | List::Prompts if self.namespace == Namespace::Key => false,
            // A URI may be a resource's or fit a template's.
            List::Resources | List::Templates => {
                !(self.merged.contains_key(&List::Resources)
                    && self.merged.contains_key(&List::Templates))
            }
            _ => !self.merged.contains_key(&list),
        }
    }

    /// The member and its own name for a shown name (a URI for resources).
    fn route(&self, list: List, called: &str) -> Option<(usize, String)> {
        if let Some(merged) = self.merged.get(&list)
            && let Some(route) = merged.routes.get(called)
        {
            return Some(route.clone());
        }
        match list {
            List::Tools | List::Prompts if self.namespace == Namespace::Key => {
                let (key, name) = called.split_once(SEPARATOR)?;
                let index = self.members.iter().position(|m| m.key == key)?;
                Some((index, name.to_string()))
            }
            List::Resources => {
                // A URI no list named: the member whose template's fixed start matches
                // longest, else the one member with resources.
                let by_template = self.merged.get(&List::Templates).and_then(|templates| {
                    templates
                        .routes
                        .iter()
                        .filter_map(|(template, (index, _))| {
                            let fixed = template.split('{').next().unwrap_or_default();
                            called.starts_with(fixed).then_some((fixed.len(), *index))
                        })
                        .max_by_key(|(len, _)| *len)
                        .map(|(_, index)| (index, called.to_string()))
                });
                by_template.or_else(|| {
                    let with: Vec<usize> = (0..self.members.len())
                        .filter(|i| self.members[*i].capabilities.get("resources").is_some())
                        .collect();
                    (with.len() == 1).then(|| (with[0], called.to_string()))
                })
            }
            _ => None,
        }
    }

    /// Ask every ready member with the capability for `list`, unless already asking.
    async fn start_gather(&mut self, list: List) {
        if self.gathers.contains_key(&list) || self.merged.contains_key(&list) {
            return;
        }
        let mut waiting = HashSet::new();
        for index in 0..self.members.len() {
            let member = &self.members[index];
            if !member.ready || member.capabilities.get(list.capability()).is_none() {
                continue;
            }
            if self
                .ask_member(index, list.method(), json!({}), Own::ListPage(index, list))
                .await
            {
                waiting.insert(index);
            }
        }
        self.gathers.insert(
            list,
            Gather {
                waiting,
                items: BTreeMap::new(),
                clients: Vec::new(),
            },
        );
    }

    /// Answer the gathers every member has answered, then the messages that waited.
    async fn finish_gathers(&mut self) {
        let done: Vec<List> = self
            .gathers
            .iter()
            .filter(|(_, g)| g.waiting.is_empty())
            .map(|(list, _)| *list)
            .collect();
        for list in done {
            let Some(gather) = self.gathers.remove(&list) else {
                continue;
            };
            let merged = self.merge(list, gather.items);
            let mut result = Map::new();
            result.insert(list.array().into(), Value::Array(merged.items.clone()));
            self.merged.insert(list, merged);
            for id in gather.clients {
                self.send_client(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
                    .await;
            }
            let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.deferred)
                .into_iter()
                .partition(|(l, _)| !self.needs_routes(*l));
            self.deferred = waiting;
            for (list, message) in ready {
                let method = message["method"].as_str().unwrap_or_default().to_string();
                let id = message["id"].clone();
                let called = called_of(&message).unwrap_or_default();
                if self.route(list, &called).is_some() {
                    Box::pin(self.route_call(&method, id, message)).await;
                } else {
                    let reply = error(
                        &id,
                        INVALID_PARAMS,
                        format!(
                            "profile @{} has nothing named `{called}`{}",
                            self.name,
                            self.late_note(list)
                        ),
                    );
                    self.send_client(&reply).await;
                }
            }
        }
    }

    /// The members' items as clients see them, and where each shown name goes.
    fn merge(&self, list: List, items: BTreeMap<usize, Vec<Value>>) -> Merged {
        let mut merged = Merged {
            items: Vec::new(),
            routes: HashMap::new(),
        };
        for (index, member_items) in items {
            let key = &self.members[index].key;
            for mut item in member_items {
                let (route_key, shown) = match list {
                    List::Tools | List::Prompts => {
                        let Some(name) =
                            item.get("name").and_then(Value::as_str).map(str::to_string)
                        else {
                            continue;
                        };
                        let shown = self.shown(key, &name);
                        item["name"] = shown.clone().into();
                        (shown, name)
                    }
                    List::Resources => {
                        let Some(uri) = item.get("uri").and_then(Value::as_str).map(str::to_string)
                        else {
                            continue;
                        };
                        (uri.clone(), uri)
                    }
                    List::Templates => {
                        if let Some(name) =
                            item.get("name").and_then(Value::as_str).map(str::to_string)
                        {
                            item["name"] = self.shown(key, &name).into();
                        }
                        let Some(template) = item
                            .get("uriTemplate")
                            .and_then(Value::as_str)
                            .map(str::to_string)
                        else {
                            continue;
                        };
                        (template.clone(), template)
                    }
                };
                if let Some((other, _)) = merged.routes.get(&route_key) {
                    // Refused when the profile is written (`agx tools @NAME`,
                    // `install-server`); a server updated since then loses the name.
                    tracing::warn!(
                        "profile @{}: `{route_key}` of server `{key}` is hidden: server `{}` shows that name too",
                        self.name,
                        self.members[*other].key
                    );
                    continue;
                }
                merged.routes.insert(route_key, (index, shown));
                merged.items.push(item);
            }
        }
        merged
    }

    fn shown(&self, key: &str, name: &str) -> String {
        match self.namespace {
            Namespace::Key => format!("{key}{SEPARATOR}{name}"),
            Namespace::None => name.to_string(),
        }
    }

    async fn finish_initialize(&mut self) {
        let Some((request, waiting)) = &self.initializing else {
            return;
        };
        if !waiting.is_empty() {
            return;
        }
        let id = request["id"].clone();
        let asked = request.pointer("/params/protocolVersion").cloned();
        self.initializing = None;
        let mut capabilities = json!({});
        let mut instructions = Vec::new();
        let mut versions = Vec::new();
        for member in &self.members {
            if !member.ready {
                continue;
            }
            merge_capabilities(&mut capabilities, &member.capabilities);
            if let Some(text) = member
                .capabilities
                .get("agx-instructions")
                .and_then(Value::as_str)
            {
                instructions.push(format!("{}: {text}", member.key));
            }
            if let Some(v) = member
                .capabilities
                .get("agx-version")
                .and_then(Value::as_str)
            {
                versions.push(v.to_string());
            }
        }
        let capabilities = capabilities.as_object_mut().expect("an object");
        capabilities.remove("agx-instructions");
        capabilities.remove("agx-version");
        // A member that ends takes its tools away: the client is told their lists changed.
        for list in ["tools", "prompts", "resources"] {
            if let Some(Value::Object(c)) = capabilities.get_mut(list) {
                c.insert("listChanged".into(), true.into());
            }
        }
        capabilities
            .entry("tools")
            .or_insert(json!({"listChanged": true}));
        // The oldest version a member answered: every member speaks it.
        let version = versions
            .into_iter()
            .min()
            .map(Value::from)
            .or(asked)
            .unwrap_or(json!("2025-06-18"));
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": capabilities,
            "serverInfo": {"name": format!("@{}", self.name), "version": env!("CARGO_PKG_VERSION")},
        });
        if !instructions.is_empty() {
            result["instructions"] = instructions.join("\n\n").into();
        }
        self.send_client(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
            .await;
    }

    async fn on_member(&mut self, index: usize, mut message: Value) {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string);
        let id = message.get("id").cloned();
        match (method, id) {
            (None, Some(id)) => {
                let text = id.to_string();
                if let Some(pending) = self.own.remove(&text) {
                    self.own_answer(pending.purpose, message).await;
                } else {
                    self.forwarded.remove(&text);
                    self.send_client(&message).await;
                }
            }
            (None, None) => {}
            (Some(method), None) => {
                let lists = List::changed_by(&method);
                if !lists.is_empty() {
                    for list in lists {
                        self.merged.remove(list);
                    }
                } else if method == "notifications/cancelled" {
                    // The member cancels its own request: the client knows it by its new id.
                    let own = message.pointer("/params/requestId").map(Value::to_string);
                    let new = self
                        .asked
                        .iter()
                        .find(|(_, (i, id))| *i == index && Some(id.to_string()) == own)
                        .map(|(new, _)| new.clone());
                    if let Some(new) = new {
                        let (_, _) = self.asked.remove(&new).expect("found");
                        message["params"]["requestId"] =
                            serde_json::from_str(&new).unwrap_or(Value::Null);
                    }
                }
                self.send_client(&message).await;
            }
            (Some(_), Some(id)) => {
                // The member's own request (sampling, elicitation, roots, ping): the client
                // answers it under a new id, unique across members.
                self.next_id += 1;
                let new = Value::String(format!("{}-{}", self.members[index].key, self.next_id));
                self.asked.insert(new.to_string(), (index, id));
                message["id"] = new;
                self.send_client(&message).await;
            }
        }
    }

    /// A member that failed or did not answer `initialize`: logged, its input closed (a
    /// server that reads it ends), and the profile's `initialize` answered without it.
    async fn not_initialized(&mut self, index: usize, why: String) {
        tracing::warn!(
            "profile @{}: server `{}`: {why}; the profile serves the others",
            self.name,
            self.members[index].key
        );
        self.members[index].link = Link::Down(why);
        if let Some((_, waiting)) = &mut self.initializing {
            waiting.remove(&index);
        }
        self.finish_initialize().await;
    }

    async fn own_answer(&mut self, purpose: Own, answer: Value) {
        match purpose {
            Own::Ignore => {}
            Own::Initialize(index) => {
                match answer.get("result") {
                    Some(result) => {
                        let member = &mut self.members[index];
                        member.ready = true;
                        let mut capabilities =
                            result.get("capabilities").cloned().unwrap_or(json!({}));
                        if let Some(i) = result.get("instructions") {
                            capabilities["agx-instructions"] = i.clone();
                        }
                        if let Some(v) = result.get("protocolVersion") {
                            capabilities["agx-version"] = v.clone();
                        }
                        member.capabilities = capabilities;
                    }
                    None => {
                        let why = format!(
                            "its `initialize` failed: {}",
                            answer
                                .pointer("/error/message")
                                .and_then(Value::as_str)
                                .unwrap_or("no result")
                        );
                        return self.not_initialized(index, why).await;
                    }
                }
                if let Some((_, waiting)) = &mut self.initializing {
                    waiting.remove(&index);
                }
                self.finish_initialize().await;
            }
            Own::LatePage(index, list) => {
                // Back: its items join the list when the client lists again.
                self.late.remove(&(index, list));
                if self.merged.remove(&list).is_some() && self.initialized {
                    let note = format!("notifications/{}/list_changed", list.capability());
                    self.send_client(&json!({"jsonrpc": "2.0", "method": note}))
                        .await;
                }
            }
            Own::ListPage(index, list) => {
                let Some(gather) = self.gathers.get_mut(&list) else {
                    return;
                };
                if let Some(Value::Array(items)) =
                    answer.pointer(&format!("/result/{}", list.array()))
                {
                    gather
                        .items
                        .entry(index)
                        .or_default()
                        .extend(items.iter().cloned());
                }
                match answer.pointer("/result/nextCursor").and_then(Value::as_str) {
                    Some(cursor) if !cursor.is_empty() => {
                        let params = json!({"cursor": cursor});
                        if self
                            .ask_member(index, list.method(), params, Own::ListPage(index, list))
                            .await
                        {
                            return;
                        }
                    }
                    _ => {}
                }
                if let Some(gather) = self.gathers.get_mut(&list) {
                    gather.waiting.remove(&index);
                }
                self.finish_gathers().await;
            }
        }
    }

    async fn member_ended(&mut self, index: usize, why: String) {
        let member = &mut self.members[index];
        if matches!(member.link, Link::Down(_)) && !member.ready {
            return;
        }
        tracing::warn!(
            "profile @{}: server `{}` ({}) ended: {why}; calls to it are refused, the other servers still answer",
            self.name,
            member.key,
            member.reference
        );
        member.link = Link::Down(format!("it ended: {why}"));
        let had_items = member.ready;
        member.ready = false;
        let reason = format!("it ended: {why}");
        let lost: Vec<String> = self
            .forwarded
            .iter()
            .filter(|(_, (i, _))| *i == index)
            .map(|(k, _)| k.clone())
            .collect();
        for key in lost {
            if let Some((_, id)) = self.forwarded.remove(&key) {
                let reply = self.down_error(&id, index, &reason);
                self.send_client(&reply).await;
            }
        }
        self.asked.retain(|_, (i, _)| *i != index);
        for gather in self.gathers.values_mut() {
            gather.waiting.remove(&index);
        }
        if let Some((_, waiting)) = &mut self.initializing {
            waiting.remove(&index);
        }
        self.finish_initialize().await;
        self.finish_gathers().await;
        if had_items {
            // Its items are gone from the lists: the client is told to list again.
            let mut changed = Vec::new();
            for list in List::ALL {
                if self.merged.remove(&list).is_some() {
                    changed.push(list);
                }
            }
            if self.initialized {
                for note in ["tools", "prompts", "resources"] {
                    if changed.iter().any(|l| l.capability() == note) {
                        let message = json!({"jsonrpc": "2.0", "method": format!("notifications/{note}/list_changed")});
                        self.send_client(&message).await;
                    }
                }
            }
        }
    }
}

/// The name or URI a deferred call names.
fn called_of(message: &Value) -> Option<String> {
    [
        "/params/name",
        "/params/uri",
        "/params/ref/name",
        "/params/ref/uri",
    ]
    .iter()
    .find_map(|p| message.pointer(p).and_then(Value::as_str))
    .map(str::to_string)
}

/// Union of two capability objects: keys of either, nested objects merged, `true` wins.
fn merge_capabilities(into: &mut Value, from: &Value) {
    let (Value::Object(into), Value::Object(from)) = (into, from) else {
        return;
    };
    for (key, value) in from {
        match (into.get_mut(key), value) {
            (Some(existing @ Value::Object(_)), Value::Object(_)) => {
                merge_capabilities(existing, value)
            }
            (Some(Value::Bool(b)), Value::Bool(v)) => *b |= *v,
            (Some(_), _) => {}
            (None, _) => {
                into.insert(key.clone(), value.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_are_the_union() {
        let mut into = json!({"tools": {"listChanged": false}, "logging": {}});
        merge_capabilities(
            &mut into,
            &json!({"tools": {"listChanged": true}, "resources": {"subscribe": true}}),
        );
        assert_eq!(
            into,
            json!({"tools": {"listChanged": true}, "logging": {}, "resources": {"subscribe": true}})
        );
    }
}
