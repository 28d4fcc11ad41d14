//! ANSI styles for text meant for people. A pure function of the text and a colour switch:
//! callers decide whether to colour (the CLI's printer, from `--color` and the terminal).

#[derive(Clone, Copy)]
pub enum Style {
    Error,
    Warning,
    Hint,
    Status,
    Bold,
    Dim,
}

/// `text` in `style` when `color` is on; unchanged otherwise.
pub fn paint(color: bool, style: Style, text: &str) -> String {
    if !color {
        return text.to_string();
    }
    let code = match style {
        Style::Error => "1;31",
        Style::Warning => "1;33",
        Style::Hint => "1;36",
        Style::Status => "1;32",
        Style::Bold => "1",
        Style::Dim => "2",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}
