//! Opening the sign-in page. `AGX_BROWSER` (then `BROWSER`) names a program to run with the
//! URL, as `gh` and `git web--browse` do; otherwise the desktop's opener. Whether one started
//! is all agx learns: the URL is always shown too, for a machine with no browser.

use std::process::{Command, Stdio};

/// The environment variable that names the browser program (`BROWSER` is read after it).
pub const BROWSER_ENV: &str = "AGX_BROWSER";

/// Start a browser on `url`; whether a program was started.
pub fn open_in_browser(url: &str) -> bool {
    let chosen = [BROWSER_ENV, "BROWSER"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()));
    let mut command = match chosen {
        // `none` (or `false`): print the URL only, for a headless machine.
        Some(program) if matches!(program.trim(), "none" | "false") => return false,
        Some(program) => {
            let mut words = program.split_whitespace();
            let Some(first) = words.next() else {
                return false;
            };
            let mut command = Command::new(first);
            command.args(words).arg(url);
            command
        }
        None => desktop_opener(url),
    };
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .is_ok()
}

#[cfg(target_os = "macos")]
fn desktop_opener(url: &str) -> Command {
    let mut command = Command::new("open");
    command.arg(url);
    command
}

#[cfg(windows)]
fn desktop_opener(url: &str) -> Command {
    // `start` would read `&` in the query as a command separator; the URL handler does not.
    let mut command = Command::new("rundll32");
    command.args(["url.dll,FileProtocolHandler", url]);
    command
}

#[cfg(all(unix, not(target_os = "macos")))]
fn desktop_opener(url: &str) -> Command {
    let mut command = Command::new("xdg-open");
    command.arg(url);
    command
}
