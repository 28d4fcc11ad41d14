//! Tool calls of MCP 2026-07-28 clients whose tool asks the client something through its
//! channel (sampling, elicitation; docs/tool-protocol.md). Such a client takes requests
//! from a server only as input for one call (basic/patterns/mrtr), so the call runs on in
//! a task of its own: when the tool asks, the call is answered `input_required` with the
//! tool's request and a `requestState` naming the waiting call; the client's retry brings
//! the input, which the tool reads as the answer to its request, and the call goes on until
//! it ends or asks again. A call whose client never retries is stopped after
//! [`ROUND_TTL`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolResponse, CallToolResult, ErrorData, InputRequiredResult, InputResponses,
};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::channel::{InputAnswer, InputAsk};
use super::era;
use super::handler::NotifyTarget;
use super::output::text_result;

/// How long a call waits for its client's retry before agx stops its tool.
pub(crate) const ROUND_TTL: Duration = Duration::from_secs(600);

/// A call running on in its task.
pub(crate) struct Round {
    tool: String,
    call: JoinHandle<CallToolResult>,
    asks: mpsc::Receiver<InputAsk>,
    /// The tool's request waiting for the client's input (as `{method, params}`), and where
    /// the input goes.
    waiting: Option<(Value, oneshot::Sender<InputAnswer>)>,
    /// Stops the tool when the round is dropped: answered, given up on, or expired.
    _stop: DropGuard,
    /// Where the call's progress and log messages go: each retry's request.
    retarget: watch::Sender<NotifyTarget>,
}

impl Round {
    /// A call of `tool` started in `call`, whose tool's requests arrive on `asks` and which
    /// `stop` stops.
    pub(crate) fn new(
        tool: String,
        call: JoinHandle<CallToolResult>,
        asks: mpsc::Receiver<InputAsk>,
        stop: CancellationToken,
        retarget: watch::Sender<NotifyTarget>,
    ) -> Round {
        Round {
            tool,
            call,
            asks,
            waiting: None,
            _stop: stop.drop_guard(),
            retarget,
        }
    }
}

/// The calls of one server waiting for their clients' input, by `requestState`.
#[derive(Default)]
pub(crate) struct Rounds {
    waiting: Mutex<HashMap<String, Round>>,
}

impl Rounds {
    /// Wait for `round`'s call to end or to ask the client something; `cancelled` is the
    /// client's cancellation of the request being answered.
    pub(crate) async fn drive(
        self: &Arc<Self>,
        mut round: Round,
        cancelled: &CancellationToken,
    ) -> Result<CallToolResponse, ErrorData> {
        loop {
            tokio::select! {
                ended = &mut round.call => return Ok(CallToolResponse::Complete(ended.unwrap_or_else(|e| {
                    text_result(format!("the tool call failed: {e}"), true)
                }))),
                Some(ask) = round.asks.recv() => {
                    let request = json!({"method": ask.method, "params": ask.params});
                    let state = new_state()?;
                    match input_required(&state, request.clone()) {
                        Ok(answer) => {
                            round.waiting = Some((request, ask.answer));
                            self.suspend(state, round);
                            return Ok(answer);
                        }
                        // The tool hears why, as it would from a client, and goes on.
                        Err(why) => {
                            let _ = ask.answer.send(Err(why));
                        }
                    }
                }
                () = cancelled.cancelled() => {
                    // Dropped, the round stops its tool.
                    drop(round);
                    return Err(ErrorData::invalid_request("the client cancelled the call", None));
                }
            }
        }
    }

    /// The retry of a waiting call of `tool`: its input goes to the tool, and the call goes on.
    pub(crate) async fn resume(
        self: &Arc<Self>,
        tool: &str,
        state: &str,
        responses: Option<InputResponses>,
        target: NotifyTarget,
        cancelled: &CancellationToken,
    ) -> Result<CallToolResponse, ErrorData> {
        let taken = {
            let mut waiting = self.lock();
            match waiting.get(state) {
                Some(round) if round.tool == tool => waiting.remove(state),
                _ => None,
            }
        };
        let Some(mut round) = taken else {
            return Err(ErrorData::invalid_params(
                format!(
                    "`requestState` names no call of `{tool}` waiting for input on this server (it may have ended, or waited over {} minutes)",
                    ROUND_TTL.as_secs() / 60
                ),
                None,
            ));
        };
        let input = responses.and_then(|mut r| r.remove(era::INPUT_KEY));
        let Some(input) = input else {
            // Asked again rather than failed (basic/patterns/mrtr, error handling).
            let request = round
                .waiting
                .as_ref()
                .map(|(request, _)| request.clone())
                .unwrap_or_default();
            let again = input_required(state, request);
            self.lock().insert(state.to_owned(), round);
            return again.map_err(|e| ErrorData::internal_error(e, None));
        };
        round.retarget.send_replace(target);
        if let Some((_, answer)) = round.waiting.take() {
            let _ = answer.send(Ok(input));
        }
        self.drive(round, cancelled).await
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Round>> {
        self.waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keep `round` for its retry under `state`, and stop it should the retry not come in
    /// time.
    fn suspend(self: &Arc<Self>, state: String, round: Round) {
        self.lock().insert(state.clone(), round);
        let rounds = Arc::downgrade(self);
        let expired = state.clone();
        tokio::spawn(async move {
            tokio::time::sleep(ROUND_TTL).await;
            let Some(rounds) = rounds.upgrade() else {
                return;
            };
            let round = rounds.lock().remove(&expired);
            if let Some(round) = round {
                tracing::warn!(
                    "tool {}: its client did not answer what it asked for in {} minutes; stopped",
                    round.tool,
                    ROUND_TTL.as_secs() / 60
                );
                drop(round);
            }
        });
    }
}

/// A `requestState` no other client can guess (one `agx serve --http` serves many).
fn new_state() -> Result<String, ErrorData> {
    era::unguessable_state().map_err(|e| ErrorData::internal_error(e, None))
}

/// The call's answer asking the client for `request`; `Err` says why a client cannot take
/// it (a request whose params do not fit the method).
fn input_required(state: &str, request: Value) -> Result<CallToolResponse, String> {
    serde_json::from_value::<InputRequiredResult>(era::input_required_result(
        era::INPUT_KEY,
        &request,
        state,
    ))
    .map(CallToolResponse::InputRequired)
    .map_err(|e| format!("the request is not one a client takes as input: {e}"))
}
