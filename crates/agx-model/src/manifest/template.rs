//! Prompt templates: compiled with minijinja at validation time so that syntax errors and
//! variables that are not declared arguments are found before anything is served, and
//! rendered by `agx serve` within a budget ([`environment`], [`render`]).

use std::ops::Range;

use super::diagnostics::{self as codes, Findings};
use super::spanned::SourceFile;

/// Where a template's text lives: inline in a definition (`content = "…"`) or a whole
/// `content_file`.
pub struct TemplateSource<'a> {
    pub file: &'a SourceFile,
    /// The span of the TOML/JSON string value, or the whole content file.
    pub span: Range<usize>,
    pub text: &'a str,
}

impl TemplateSource<'_> {
    /// Map an offset in the template text to a span in the file: exact when the text appears
    /// verbatim in the source (no escapes), else the start of the value.
    fn span_of(&self, range: Range<usize>) -> Range<usize> {
        let raw = self.file.text.get(self.span.clone()).unwrap_or("");
        match raw.find(self.text) {
            Some(at) if !self.text.is_empty() => {
                let base = self.span.start + at;
                base + range.start..base + range.end.max(range.start + 1)
            }
            _ => self.span.clone(),
        }
    }
}

/// Steps (minijinja "fuel": about one per instruction) one render may take. A prompt
/// looping over a few thousand items uses a small part of it; a loop that does not end
/// stops after well under a second of work.
pub const RENDER_FUEL: u64 = 2_000_000;

/// Bytes one render may produce (the cap on what a command prompt may print, too).
pub const RENDER_OUTPUT_CAP: usize = 1024 * 1024;

/// The variable that holds the package's settings in every template (`{{ settings.units }}`,
/// docs/settings.md).
pub const SETTINGS_VARIABLE: &str = "settings";

/// The template engine as agx configures it, for validation and rendering alike. `settings`
/// is a global, so templates may use it like a declared argument; serving fills it.
pub fn environment() -> minijinja::Environment<'static> {
    let mut env = minijinja::Environment::new();
    env.set_fuel(Some(RENDER_FUEL));
    env.add_global(
        SETTINGS_VARIABLE,
        minijinja::Value::from_pairs(Vec::<(&str, &str)>::new()),
    );
    env
}

/// Why a render failed, in words for the client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error(
        "the template does not finish within its budget of {RENDER_FUEL} steps; \
         look for a loop that never ends or does far too much"
    )]
    OutOfBudget,
    #[error("the template renders more than {} MiB, the cap on a prompt's text", RENDER_OUTPUT_CAP >> 20)]
    TooLong,
    #[error("the template does not render: {0}")]
    Failed(String),
}

/// Render `template` with `context` within [`RENDER_FUEL`] steps and
/// [`RENDER_OUTPUT_CAP`] bytes; the output is held to the cap as it is produced.
pub fn render(template: &str, context: minijinja::Value) -> Result<String, RenderError> {
    let env = environment();
    let template = env
        .template_from_str(template)
        .map_err(|e| RenderError::Failed(e.to_string()))?;
    let mut out = CappedText::default();
    match template.render_captured_to(context, &mut out) {
        Ok(_) => Ok(String::from_utf8_lossy(&out.text).into_owned()),
        Err(_) if out.over_cap => Err(RenderError::TooLong),
        Err(e) if e.kind() == minijinja::ErrorKind::OutOfFuel => Err(RenderError::OutOfBudget),
        Err(e) => Err(RenderError::Failed(e.to_string())),
    }
}

/// Render output that refuses to grow past [`RENDER_OUTPUT_CAP`], which stops the render.
#[derive(Default)]
struct CappedText {
    text: Vec<u8>,
    over_cap: bool,
}

impl std::io::Write for CappedText {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.text.len() + buf.len() > RENDER_OUTPUT_CAP {
            self.over_cap = true;
            return Err(std::io::Error::other("the output cap is reached"));
        }
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Compile a template; report a syntax error, each variable that is not an argument, and
/// each `settings.<key>` that is not one of the package's `settings` keys.
pub fn check(
    f: &mut Findings,
    source: &TemplateSource<'_>,
    prompt: &str,
    arguments: &[String],
    settings: &[String],
) {
    let env = environment();
    let template = match env.template_from_str(source.text) {
        Ok(t) => t,
        Err(e) => {
            let detail = e
                .detail()
                .map(str::to_string)
                .unwrap_or_else(|| e.kind().to_string());
            let line = e
                .line()
                .map(|l| format!(" (template line {l})"))
                .unwrap_or_default();
            let span = source.span_of(e.range().unwrap_or(0..0));
            f.at(
                codes::TEMPLATE_ERROR,
                source.file,
                &span,
                format!("the template of prompt `{prompt}` does not compile: {detail}{line}"),
                Some("templates use Jinja syntax: {{ name }}, {% if name %}…{% endif %}".into()),
            );
            return;
        }
    };
    let globals: Vec<String> = env.globals().map(|(name, _)| name.to_string()).collect();
    let mut undeclared: Vec<String> = template
        .undeclared_variables(false)
        .into_iter()
        .filter(|v| !arguments.contains(v) && !globals.contains(v))
        .collect();
    undeclared.sort();
    for var in undeclared {
        let span = match find_word(source.text, &var) {
            Some(at) => source.span_of(at..at + var.len()),
            None => source.span.clone(),
        };
        let hint = match super::fields::did_you_mean(&var, arguments.iter().map(String::as_str)) {
            Some(close) => {
                format!("did you mean `{close}`? Otherwise declare it under [[arguments]]")
            }
            None => format!("declare it: [[arguments]] name = \"{var}\""),
        };
        f.at(
            codes::UNDECLARED_VARIABLE,
            source.file,
            &span,
            format!("prompt `{prompt}` uses `{var}`, which is not one of its arguments"),
            Some(hint),
        );
    }
    // An argument named `settings` hides the package's settings.
    if arguments.iter().any(|a| a == SETTINGS_VARIABLE) {
        return;
    }
    let mut unknown: Vec<String> = template
        .undeclared_variables(true)
        .into_iter()
        .filter_map(|v| {
            let key = v.strip_prefix("settings.")?.split('.').next()?.to_string();
            (!settings.contains(&key)).then_some(key)
        })
        .collect();
    unknown.sort();
    unknown.dedup();
    for key in unknown {
        let var = format!("{SETTINGS_VARIABLE}.{key}");
        let span = match find_word(source.text, &var) {
            Some(at) => source.span_of(at..at + var.len()),
            None => source.span.clone(),
        };
        let hint = match super::fields::did_you_mean(&key, settings.iter().map(String::as_str)) {
            Some(close) => format!("did you mean `settings.{close}`?"),
            None => format!("declare it in agx.toml: [extension.settings.{key}]"),
        };
        f.at(
            codes::UNDECLARED_VARIABLE,
            source.file,
            &span,
            format!("prompt `{prompt}` uses `{var}`, which the package does not declare"),
            Some(hint),
        );
    }
}

/// The first occurrence of `word` not inside a longer identifier.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_inline(text: &str, args: &[&str]) -> Vec<(String, usize, usize)> {
        let toml = format!("content = {}", serde_json::to_string(text).unwrap());
        let file = SourceFile::new("p.toml", toml);
        let span = 10..file.text.len();
        let mut f = Findings::default();
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        check(
            &mut f,
            &TemplateSource {
                file: &file,
                span,
                text,
            },
            "p",
            &args,
            &["units".to_string()],
        );
        f.list
            .into_iter()
            .map(|x| (x.code.to_string(), x.location.column, x.length))
            .collect()
    }

    #[test]
    fn declared_arguments_and_globals_are_fine() {
        assert!(
            check_inline(
                "Hi {{ name }} {% for i in range(2) %}{{ i }}{% endfor %}",
                &["name"]
            )
            .is_empty()
        );
    }

    #[test]
    fn undeclared_variables_point_at_their_use() {
        assert_eq!(
            check_inline("Hi {{ who }}", &["name"]),
            [("E021".into(), 18, 3)]
        );
    }

    #[test]
    fn settings_are_checked_against_the_declared_keys() {
        assert!(check_inline("in {{ settings.units }}", &[]).is_empty());
        // `content = "in {{ settings.unit }}"`: `settings.unit` starts at column 18.
        assert_eq!(
            check_inline("in {{ settings.unit }}", &[]),
            [("E021".into(), 18, 13)]
        );
        assert!(check_inline("{{ settings.anything }}", &["settings"]).is_empty());
    }

    #[test]
    fn syntax_errors_are_reported() {
        assert_eq!(check_inline("Hi {{ name ", &["name"])[0].0, "E020");
    }

    #[test]
    fn renders_within_the_budget() {
        let context = minijinja::Value::from_pairs([("name", "Ann")]);
        assert_eq!(render("Hi {{ name }}", context).unwrap(), "Hi Ann");
        let loops = "{% for i in range(1000) %}{{ i }},{% endfor %}";
        assert!(render(loops, minijinja::Value::UNDEFINED).is_ok());
    }

    #[test]
    fn a_loop_that_does_not_end_runs_out_of_budget() {
        let endless =
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";
        assert_eq!(
            render(endless, minijinja::Value::UNDEFINED),
            Err(RenderError::OutOfBudget)
        );
    }

    #[test]
    fn output_past_the_cap_stops_the_render() {
        let huge = "{% for i in range(1000) %}{{ 'x' * 10000 }}{% endfor %}";
        assert_eq!(
            render(huge, minijinja::Value::UNDEFINED),
            Err(RenderError::TooLong)
        );
        let fits = "{% for i in range(100) %}{{ 'x' * 10000 }}{% endfor %}";
        assert_eq!(
            render(fits, minijinja::Value::UNDEFINED).unwrap().len(),
            1_000_000
        );
    }

    #[test]
    fn words_match_whole_identifiers() {
        assert_eq!(find_word("names name", "name"), Some(6));
    }
}
