//! The line protocol a running tool may speak on stderr to report progress and log messages
//! (docs/tool-protocol.md). Every other stderr line is plain diagnostics.

use serde::Deserialize;

pub const PROGRESS_PREFIX: &str = "agx:progress ";
pub const LOG_PREFIX: &str = "agx:log ";

/// One stderr line, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum StderrLine {
    Progress(Progress),
    Log(LogMessage),
    /// Not a protocol line (or a malformed one, with the reason).
    Plain {
        text: String,
        malformed: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub progress: f64,
    #[serde(default)]
    pub total: Option<f64>,
    #[serde(default)]
    pub message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogMessage {
    /// An MCP logging level: debug, info, notice, warning, error, critical, alert, emergency.
    #[serde(default = "default_level")]
    pub level: String,
    #[serde(default)]
    pub message: Option<String>,
    /// Any JSON; sent as the notification's `data` (with `message` folded in when both).
    #[serde(default)]
    pub data: Option<serde_json::Value>,
    #[serde(default)]
    pub logger: Option<String>,
}

fn default_level() -> String {
    "info".into()
}

pub const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

impl LogMessage {
    /// The `data` of the MCP notification: the message text, the data, or both.
    pub fn notification_data(&self) -> serde_json::Value {
        match (&self.message, &self.data) {
            (Some(m), None) => m.clone().into(),
            (None, Some(d)) => d.clone(),
            (Some(m), Some(d)) => serde_json::json!({ "message": m, "data": d }),
            (None, None) => serde_json::Value::String(String::new()),
        }
    }
}

/// Classify one stderr line (without its newline).
pub fn parse_line(line: &str) -> StderrLine {
    let plain = |malformed: Option<String>| StderrLine::Plain {
        text: line.to_string(),
        malformed,
    };
    if let Some(body) = line.strip_prefix(PROGRESS_PREFIX) {
        return match serde_json::from_str::<Progress>(body) {
            Ok(p) if p.progress.is_finite() => StderrLine::Progress(p),
            Ok(_) => plain(Some("`progress` must be a finite number".into())),
            Err(e) => plain(Some(format!("bad agx:progress line: {e}"))),
        };
    }
    if let Some(body) = line.strip_prefix(LOG_PREFIX) {
        return match serde_json::from_str::<LogMessage>(body) {
            Ok(m) if LEVELS.contains(&m.level.as_str()) => StderrLine::Log(m),
            Ok(m) => plain(Some(format!(
                "unknown level {:?} in agx:log line; expected one of {}",
                m.level,
                LEVELS.join(", ")
            ))),
            Err(e) => plain(Some(format!("bad agx:log line: {e}"))),
        };
    }
    plain(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines() {
        assert_eq!(
            parse_line(r#"agx:progress {"progress": 2, "total": 4, "message": "half"}"#),
            StderrLine::Progress(Progress {
                progress: 2.0,
                total: Some(4.0),
                message: Some("half".into())
            })
        );
        assert!(matches!(
            parse_line(r#"agx:progress {"done": 2}"#),
            StderrLine::Plain {
                malformed: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn log_lines() {
        let StderrLine::Log(m) =
            parse_line(r#"agx:log {"level": "warning", "message": "careful"}"#)
        else {
            panic!("not a log line")
        };
        assert_eq!(m.level, "warning");
        assert_eq!(m.notification_data(), serde_json::json!("careful"));
        assert!(matches!(
            parse_line(r#"agx:log {"level": "loud", "message": "x"}"#),
            StderrLine::Plain {
                malformed: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn other_lines_are_plain() {
        assert_eq!(
            parse_line("Traceback (most recent call last):"),
            StderrLine::Plain {
                text: "Traceback (most recent call last):".into(),
                malformed: None
            }
        );
    }
}
