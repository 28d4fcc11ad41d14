//! Running one tool or prompt command: input on stdin, stdout captured up to a cap, stderr
//! read line by line, and every process it started ended with it ([`agx_core::process_tree`]):
//! when it exits, times out or is cancelled. Never leaves a zombie: every path waits for
//! the child.

use std::future::Future;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::Sender;
use tokio_util::sync::CancellationToken;

use super::channel::ToolEnd;
use super::stderr_protocol::{StderrLine, parse_line};
use agx_core::process_tree::Call;

/// Default cap on a tool's captured stdout.
pub(crate) const OUTPUT_CAP: usize = 1024 * 1024;
/// A stderr line longer than this is cut into pieces.
const MAX_STDERR_LINE: usize = 64 * 1024;
/// How much plain stderr is kept for error results.
const STDERR_TAIL_BYTES: usize = 4 * 1024;
/// Classified stderr lines waiting to be forwarded. When the forwarder falls behind, agx
/// stops reading until it catches up, and the tool waits on its full pipe: memory stays
/// bounded however much a tool prints.
pub(crate) const STDERR_QUEUE_LINES: usize = 256;
/// After the call's processes are ended, how long its pipes may stay open (held by a
/// process agx could not end) before agx stops waiting for them.
const PIPE_GRACE: Duration = Duration::from_secs(2);

#[derive(Debug, Clone)]
pub struct RunSpec {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    /// Bytes written to stdin (then closed); `None` gives the process no stdin.
    pub stdin: Option<Vec<u8>>,
    pub timeout: Duration,
    pub output_cap: usize,
    /// What the process may touch (docs/sandbox.md); `None` runs it unconfined.
    pub sandbox: Option<std::sync::Arc<agx_sandbox::Resolved>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    Exited(ExitStatus),
    TimedOut,
    Cancelled,
}

#[derive(Debug)]
pub(crate) struct RunOutcome {
    pub ending: Ending,
    /// At most `output_cap` bytes.
    pub stdout: Vec<u8>,
    /// Everything the command printed on stdout, counted.
    pub stdout_total: u64,
    /// The last plain stderr lines (protocol lines excluded).
    pub stderr_tail: String,
}

impl RunOutcome {
    pub(crate) fn truncated(&self) -> bool {
        self.stdout_total > self.stdout.len() as u64
    }
}

/// Run `spec`. Classified stderr lines go to `events` as they arrive. `cancel` resolving
/// stops the command. Errors only when the process cannot be started.
pub(crate) async fn run(
    spec: &RunSpec,
    events: Option<Sender<StderrLine>>,
    cancel: impl Future<Output = ()>,
) -> std::io::Result<RunOutcome> {
    run_with_channel(spec, events, cancel, None).await
}

/// [`run`], giving the process `channel` as its descriptor 3 (closed here once the process
/// has started, so that agx's end sees the tool's end close).
pub(crate) async fn run_with_channel(
    spec: &RunSpec,
    events: Option<Sender<StderrLine>>,
    cancel: impl Future<Output = ()>,
    channel: Option<ToolEnd>,
) -> std::io::Result<RunOutcome> {
    let (program, before_args) = agx_sandbox::launch_line(&spec.program, spec.sandbox.as_deref());
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(before_args)
        .args(&spec.args)
        .current_dir(&spec.cwd)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(channel) = &channel {
        channel.pass_to(&mut cmd);
    }
    if let Some(sandbox) = &spec.sandbox {
        agx_sandbox::confine_tokio(&mut cmd, sandbox)?;
    }
    let mut call = Call::new();
    let mut child = call.spawn(&mut cmd)?;
    drop(channel);

    if let (Some(input), Some(mut stdin)) = (spec.stdin.clone(), child.stdin.take()) {
        // A tool may exit without reading its input: a broken pipe here is not an error.
        tokio::spawn(async move {
            let _ = stdin.write_all(&input).await;
            let _ = stdin.shutdown().await;
        });
    }
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let cap = spec.output_cap;
    let abandon = CancellationToken::new();
    let stdout_task = tokio::spawn(read_capped(stdout, cap, abandon.clone()));
    let stderr_task = tokio::spawn(read_stderr(stderr, events, abandon.clone()));

    tokio::pin!(cancel);
    let ending = tokio::select! {
        status = child.wait() => match status {
            Ok(s) => Ending::Exited(s),
            Err(e) => return Err(e),
        },
        _ = tokio::time::sleep(spec.timeout) => Ending::TimedOut,
        _ = &mut cancel => Ending::Cancelled,
    };
    if !matches!(ending, Ending::Exited(_)) {
        call.stop();
        let _ = child.wait().await;
    }
    // Whatever the command left behind would hold our pipes open, and outlive the call.
    call.finish();

    // The readers end at end of input. Past the grace, they stop at the first read that
    // would wait, but never while forwarding what they read.
    let readers = async { tokio::join!(stdout_task, stderr_task) };
    tokio::pin!(readers);
    let (stdout, stderr) = tokio::select! {
        done = &mut readers => done,
        _ = tokio::time::sleep(PIPE_GRACE) => {
            abandon.cancel();
            readers.await
        }
    };
    let (stdout, stdout_total) = stdout.unwrap_or_default();
    let stderr_tail = stderr.unwrap_or_default();
    Ok(RunOutcome {
        ending,
        stdout,
        stdout_total,
        stderr_tail,
    })
}

/// Read everything (until `abandon`, when a read would wait), keeping the first `cap` bytes
/// and counting the rest.
async fn read_capped(
    mut r: impl AsyncRead + Unpin,
    cap: usize,
    abandon: CancellationToken,
) -> (Vec<u8>, u64) {
    let mut kept = Vec::new();
    let mut total = 0u64;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let read = tokio::select! {
            biased;
            read = r.read(&mut buf) => read,
            _ = abandon.cancelled() => break,
        };
        match read {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                total += n as u64;
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    (kept, total)
}

/// Read stderr lines (until `abandon`, when a read would wait), send each classified line
/// to `events`, return the tail of plain lines.
async fn read_stderr(
    r: impl AsyncRead + Unpin,
    events: Option<Sender<StderrLine>>,
    abandon: CancellationToken,
) -> String {
    let mut reader = BufReader::new(r);
    let mut tail = String::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let more = read_bounded_line(&mut reader, &mut line, MAX_STDERR_LINE, &abandon).await;
        if line.is_empty() && !more {
            break;
        }
        let text = String::from_utf8_lossy(&line);
        let text = super::settings::redact(text.trim_end_matches(['\n', '\r']));
        let parsed = parse_line(&text);
        if let StderrLine::Plain { text, .. } = &parsed {
            tail.push_str(text);
            tail.push('\n');
            // Trimmed in batches, not on every line.
            if tail.len() > 2 * STDERR_TAIL_BYTES {
                keep_last(&mut tail, STDERR_TAIL_BYTES);
            }
        }
        if let Some(tx) = &events {
            // Waits while the queue is full; a forwarder that has gone only ends forwarding.
            let _ = tx.send(parsed).await;
        }
        if !more {
            break;
        }
    }
    keep_last(&mut tail, STDERR_TAIL_BYTES);
    tail
}

/// Keep the last `max` bytes of `text` (or a little less, at a character boundary).
fn keep_last(text: &mut String, max: usize) {
    if text.len() > max {
        let mut cut = text.len() - max;
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        text.drain(..cut);
    }
}

/// Read up to a newline or until `line` holds `max` bytes. Returns false at end of input (or
/// when `abandon`ed and a read would wait). Cancel-safe: what was read is in `line`, and a
/// new call continues the line.
pub(super) async fn read_bounded_line(
    reader: &mut BufReader<impl AsyncRead + Unpin>,
    line: &mut Vec<u8>,
    max: usize,
    abandon: &CancellationToken,
) -> bool {
    loop {
        let filled = tokio::select! {
            biased;
            filled = reader.fill_buf() => filled,
            _ = abandon.cancelled() => return false,
        };
        let available = match filled {
            Ok(a) if !a.is_empty() => a,
            _ => return false,
        };
        let room = max - line.len();
        let (take, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) if i < room => (i + 1, true),
            _ if available.len() >= room => (room, true),
            _ => (available.len(), false),
        };
        line.extend_from_slice(&available[..take]);
        reader.consume(take);
        if done {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, stdin: Option<&str>, timeout_ms: u64) -> RunSpec {
        RunSpec {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            cwd: std::env::temp_dir(),
            env: vec![("GREETING".into(), "hi".into())],
            stdin: stdin.map(|s| s.as_bytes().to_vec()),
            timeout: Duration::from_millis(timeout_ms),
            output_cap: 16,
            sandbox: None,
        }
    }

    #[tokio::test]
    async fn captures_stdout_env_and_stdin() {
        let out = run(
            &sh("read x; echo \"$GREETING $x\"", Some("there\n"), 5000),
            None,
            std::future::pending(),
        )
        .await
        .unwrap();
        assert!(matches!(out.ending, Ending::Exited(s) if s.success()));
        assert_eq!(out.stdout, b"hi there\n");
        assert!(!out.truncated());
    }

    #[tokio::test]
    async fn caps_output_and_counts_the_rest() {
        let out = run(
            &sh("head -c 100000 /dev/zero", None, 5000),
            None,
            std::future::pending(),
        )
        .await
        .unwrap();
        assert_eq!(out.stdout.len(), 16);
        assert_eq!(out.stdout_total, 100000);
        assert!(out.truncated());
    }

    #[tokio::test]
    async fn timeout_kills_the_group() {
        let out = run(
            &sh("sleep 30 & sleep 30; echo never", None, 200),
            None,
            std::future::pending(),
        )
        .await
        .unwrap();
        assert_eq!(out.ending, Ending::TimedOut);
        assert!(out.stdout.is_empty());
    }

    #[tokio::test]
    async fn cancellation_ends_a_child_in_another_session() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let script = format!(
            "setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $! > {0}.tmp; mv {0}.tmp {0}; sleep 60",
            pid_file.display()
        );
        // Cancelled once the escaped child is running.
        let escaped = async {
            while !pid_file.exists() {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        let out = run(&sh(&script, None, 60_000), None, escaped)
            .await
            .unwrap();
        assert_eq!(out.ending, Ending::Cancelled);
        let stat = format!(
            "/proc/{}/stat",
            std::fs::read_to_string(&pid_file).unwrap().trim()
        );
        // Ended (SIGKILL lands at once, but is seen a moment later): gone, or a zombie
        // left for its new parent to reap.
        let ended = || {
            let stat = std::fs::read_to_string(&stat).unwrap_or_default();
            stat.is_empty()
                || stat
                    .rsplit_once(") ")
                    .is_some_and(|(_, s)| s.starts_with('Z'))
        };
        for _ in 0..500 {
            if ended() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(ended(), "the child in another session still runs");
    }

    #[tokio::test]
    async fn cancellation_stops_the_command() {
        let out = run(
            &sh("sleep 30", None, 60_000),
            None,
            tokio::time::sleep(Duration::from_millis(100)),
        )
        .await
        .unwrap();
        assert_eq!(out.ending, Ending::Cancelled);
    }

    #[tokio::test]
    async fn stderr_is_classified_and_tailed() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(STDERR_QUEUE_LINES);
        let out = run(
            &sh(
                "echo 'agx:progress {\"progress\": 1}' >&2; echo oops >&2; exit 3",
                None,
                5000,
            ),
            Some(tx),
            std::future::pending(),
        )
        .await
        .unwrap();
        assert!(matches!(out.ending, Ending::Exited(s) if s.code() == Some(3)));
        assert_eq!(out.stderr_tail, "oops\n");
        assert!(matches!(rx.recv().await, Some(StderrLine::Progress(_))));
        assert!(matches!(rx.recv().await, Some(StderrLine::Plain { .. })));
    }

    #[tokio::test]
    async fn a_slow_forwarder_loses_no_lines() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(STDERR_QUEUE_LINES);
        // Takes nothing until well past the grace: the reader must wait for it, not give up.
        let forwarder = tokio::spawn(async move {
            tokio::time::sleep(PIPE_GRACE + Duration::from_millis(500)).await;
            let mut lines = 0;
            while rx.recv().await.is_some() {
                lines += 1;
            }
            lines
        });
        let lines = 4 * STDERR_QUEUE_LINES;
        let out = run(
            &sh(&format!("seq {lines} >&2"), None, 60_000),
            Some(tx),
            std::future::pending(),
        )
        .await
        .unwrap();
        assert_eq!(forwarder.await.unwrap(), lines);
        assert!(out.stderr_tail.ends_with(&format!("\n{lines}\n")));
    }

    #[tokio::test]
    async fn missing_program_is_a_spawn_error() {
        let mut spec = sh("", None, 1000);
        spec.program = "/nonexistent/agx-tool".into();
        assert!(run(&spec, None, std::future::pending()).await.is_err());
    }
}
