//! A log destination written on a thread of its own through a bounded queue. When the queue
//! is full, lines are dropped and counted, and the count is written once the destination
//! takes lines again: a client that never reads agx's stderr costs log lines, never answers.
//! The thread starts with the first line: most servers log nothing at the default level, and
//! an unused thread costs start-up time and resident memory.
//!
//! (`tracing-appender`'s non-blocking writer drops alike, but when its queue is still full at
//! exit it prints to stdout, which carries the protocol.)

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tracing_subscriber::fmt::MakeWriter;

/// Log lines each destination holds while it is not taking them.
pub(crate) const QUEUE_LINES: usize = 512;
/// How long exit waits for queued lines to be written.
const FLUSH_WAIT: Duration = Duration::from_secs(1);

enum Message {
    Line(Vec<u8>),
    /// Written everything before this; answer on the channel.
    Flush(SyncSender<()>),
}

/// What the writing thread takes when the first line comes.
struct Idle {
    lines: Receiver<Message>,
    destination: Box<dyn Write + Send>,
}

/// One destination's queue and thread, shared by its writers and its flush guard.
struct Destination {
    name: &'static str,
    queue: SyncSender<Message>,
    dropped: Arc<AtomicUsize>,
    idle: Mutex<Option<Idle>>,
    /// Set once the first line came: whether the thread could be started.
    started: OnceLock<bool>,
}

impl Destination {
    /// Start the thread unless it was started (or failed to start) before.
    fn start(&self) -> bool {
        *self.started.get_or_init(|| {
            let Some(Idle { lines, destination }) =
                self.idle.lock().ok().and_then(|mut i| i.take())
            else {
                return false;
            };
            let counter = self.dropped.clone();
            let name = self.name;
            std::thread::Builder::new()
                .name(format!("agx-log-{name}"))
                .spawn(move || {
                    write_lines(lines, destination, name, || counter.load(Ordering::Relaxed))
                })
                .is_ok()
        })
    }
}

/// The writing end: cheap to clone, never blocks.
#[derive(Clone)]
pub struct LossyWriter {
    destination: Arc<Destination>,
}

/// Waits (briefly) on drop for the queued lines to be written.
pub struct FlushOnDrop {
    destination: Arc<Destination>,
}

impl LossyWriter {
    /// A writer to `destination`, named `name` in the drop report. Its thread starts with the
    /// first line; without a thread, lines are dropped (logging must not stop serving).
    pub fn new(
        name: &'static str,
        destination: impl Write + Send + 'static,
    ) -> (LossyWriter, FlushOnDrop) {
        let (queue, lines) = std::sync::mpsc::sync_channel(QUEUE_LINES);
        let destination = Arc::new(Destination {
            name,
            queue,
            dropped: Arc::new(AtomicUsize::new(0)),
            idle: Mutex::new(Some(Idle {
                lines,
                destination: Box::new(destination),
            })),
            started: OnceLock::new(),
        });
        let flush = FlushOnDrop {
            destination: destination.clone(),
        };
        (LossyWriter { destination }, flush)
    }

    /// Queue one line, or count it when the queue is full or there is no thread to take it.
    pub fn write_line(&self, line: &[u8]) {
        let destination = &self.destination;
        if !destination.start() {
            destination.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        if let Err(TrySendError::Full(_)) = destination.queue.try_send(Message::Line(line.to_vec()))
        {
            destination.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Whether this destination's thread runs (it starts with the first line).
    pub fn started(&self) -> bool {
        self.destination.started.get() == Some(&true)
    }
}

/// Several destinations: each formatted line is queued to every one.
pub struct Each(pub Vec<LossyWriter>);

impl<'a> MakeWriter<'a> for Each {
    type Writer = &'a Each;

    fn make_writer(&'a self) -> Self::Writer {
        self
    }
}

/// The fmt layer writes each event with one `write_all`: one queued line.
impl Write for &Each {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        for writer in &self.0 {
            writer.write_line(line);
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The thread: write each line, preceded by a report of the lines dropped since the last one.
fn write_lines(
    lines: Receiver<Message>,
    mut destination: Box<dyn Write + Send>,
    name: &str,
    dropped: impl Fn() -> usize,
) {
    let mut reported = 0;
    for message in lines {
        match message {
            Message::Line(line) => {
                let now = dropped();
                if now > reported {
                    let report = format!(
                        "agx serve: warn: {} log lines dropped: {name} was not taking them\n",
                        now - reported
                    );
                    if destination.write_all(report.as_bytes()).is_ok() {
                        reported = now;
                    }
                }
                let _ = destination.write_all(&line);
            }
            Message::Flush(done) => {
                let _ = destination.flush();
                let _ = done.send(());
            }
        }
    }
}

impl Drop for FlushOnDrop {
    fn drop(&mut self) {
        // Nothing was written, so there is no thread and nothing to wait for.
        if self.destination.started.get() != Some(&true) {
            return;
        }
        // Both waits are bounded: a destination nobody reads must not keep agx from exiting.
        let deadline = Instant::now() + FLUSH_WAIT;
        let (done, flushed) = std::sync::mpsc::sync_channel(1);
        let mut message = Message::Flush(done);
        loop {
            match self.destination.queue.try_send(message) {
                Ok(()) => break,
                Err(TrySendError::Full(m)) if Instant::now() < deadline => {
                    message = m;
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(_) => return,
            }
        }
        let _ = flushed.recv_timeout(deadline.saturating_duration_since(Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A destination that holds every write until it is opened.
    #[derive(Clone, Default)]
    struct Gate {
        open: Arc<(Mutex<bool>, std::sync::Condvar)>,
        written: Arc<Mutex<Vec<u8>>>,
    }

    impl Gate {
        fn open(&self) {
            *self.open.0.lock().unwrap() = true;
            self.open.1.notify_all();
        }
        fn text(&self) -> String {
            String::from_utf8(self.written.lock().unwrap().clone()).unwrap()
        }
    }

    impl Write for Gate {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let (open, opened) = &*self.open;
            let _unused = opened
                .wait_while(open.lock().unwrap(), |open| !*open)
                .unwrap();
            self.written.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stuck_destination_drops_and_then_reports_the_count() {
        let gate = Gate::default();
        let (writer, flush) = LossyWriter::new("test", gate.clone());
        // The thread takes one line and blocks on it; the queue fills; the rest are dropped.
        let total = QUEUE_LINES + 100;
        for i in 0..total {
            writer.write_line(format!("line {i}\n").as_bytes());
        }
        let dropped = writer.destination.dropped.load(Ordering::Relaxed);
        assert!(dropped >= 99, "only {dropped} of {total} lines dropped");
        // Once it takes lines again, the count comes first.
        gate.open();
        drop(flush);
        let text = gate.text();
        let written = text.lines().filter(|l| l.starts_with("line ")).count();
        assert_eq!(written + dropped, total, "{text}");
        let report =
            format!("agx serve: warn: {dropped} log lines dropped: test was not taking them");
        assert!(text.contains(&report), "{text}");
    }

    #[test]
    fn the_thread_starts_with_the_first_line() {
        let gate = Gate::default();
        gate.open();
        let (writer, flush) = LossyWriter::new("test", gate.clone());
        assert!(!writer.started());
        writer.write_line(b"first\n");
        assert!(writer.started());
        drop(flush);
        assert_eq!(gate.text(), "first\n");
    }

    #[test]
    fn drop_returns_while_the_destination_is_stuck() {
        let gate = Gate::default();
        let (writer, flush) = LossyWriter::new("test", gate);
        for _ in 0..QUEUE_LINES + 10 {
            writer.write_line(b"x\n");
        }
        // Returns after FLUSH_WAIT; the gate is never opened.
        drop(flush);
    }
}
