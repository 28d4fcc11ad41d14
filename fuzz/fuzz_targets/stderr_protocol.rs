//! The line protocol a tool speaks on stderr (`agx:progress …`, `agx:log …`). Each input
//! line is classified. Property: no panic; a progress line carries a finite number; a log
//! line a known level; a plain line keeps its text unchanged.
#![no_main]

use agx_runtime::stderr_protocol::{LEVELS, StderrLine, parse_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        match parse_line(line) {
            StderrLine::Progress(p) => assert!(p.progress.is_finite()),
            StderrLine::Log(m) => {
                assert!(LEVELS.contains(&m.level.as_str()));
                let _ = m.notification_data();
            }
            StderrLine::Plain { text, .. } => assert_eq!(text, line),
        }
    }
});
