//! The one error type that commands return to `main`, which renders it as
//! `error: …`, the cause chain, then `hint: …`.

use std::fmt;

/// Exit codes (documented in the README).
pub mod exit {
    pub const SUCCESS: i32 = 0;
    pub const FAILURE: i32 = 1;
    pub const USAGE: i32 = 2;
}

/// An error ready to show to a person: a message, the causes behind it, and an optional
/// hint saying how to fix it.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub causes: Vec<String>,
    pub hint: Option<String>,
    pub exit_code: i32,
    /// Already reported (e.g. validation diagnostics were printed); render nothing more.
    pub silent: bool,
}

impl CliError {
    pub fn new(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            causes: Vec::new(),
            hint: None,
            exit_code: exit::FAILURE,
            silent: false,
        }
    }

    /// Build from any error, collecting its `source()` chain as causes.
    pub fn from_error(err: &(dyn std::error::Error + 'static)) -> Self {
        let mut e = CliError::new(err.to_string());
        let mut source = err.source();
        while let Some(cause) = source {
            let text = cause.to_string();
            // Errors often repeat their source's text; skip exact repeats.
            if !e.message.contains(&text) && !e.causes.contains(&text) {
                e.causes.push(text);
            }
            source = cause.source();
        }
        e
    }

    pub fn not_implemented(command: &str) -> Self {
        CliError {
            exit_code: exit::USAGE,
            hint: Some("this command is planned; see the README for what works today".into()),
            ..CliError::new(format!("`agx {command}` is not implemented yet"))
        }
    }

    /// A failure whose details were already printed (exit 1, nothing more to say).
    pub fn silent_failure() -> Self {
        CliError {
            silent: true,
            ..CliError::new("")
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn with_cause(mut self, cause: impl Into<String>) -> Self {
        self.causes.push(cause.into());
        self
    }

    pub fn with_exit_code(mut self, code: i32) -> Self {
        self.exit_code = code;
        self
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// Library errors that know how to fix themselves implement this to supply a hint.
pub trait Hint {
    fn hint(&self) -> Option<String> {
        None
    }
}

impl<E> From<E> for CliError
where
    E: std::error::Error + Hint + 'static,
{
    fn from(err: E) -> Self {
        let hint = err.hint();
        let mut e = CliError::from_error(&err);
        e.hint = hint;
        e
    }
}

/// A library error that carries its hint, as a lower layer holds an error of a higher one
/// (the store holds a registry's or a resolver's): its text, causes and hint stay its own.
pub trait HintedError: std::error::Error + Hint + Send + Sync + 'static {}

impl<E: std::error::Error + Hint + Send + Sync + 'static> HintedError for E {}

/// An error from a layer above the one returning it, boxed (see [`HintedError`]).
pub struct Upstream(Box<dyn HintedError>);

impl Upstream {
    pub fn new(error: impl HintedError) -> Self {
        Upstream(Box::new(error))
    }
}

impl fmt::Debug for Upstream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for Upstream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Upstream {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl Hint for Upstream {
    fn hint(&self) -> Option<String> {
        self.0.hint()
    }
}

pub type CliResult<T = ()> = Result<T, CliError>;
