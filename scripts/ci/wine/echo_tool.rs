//! The Windows program scripts/ci/wine.sh uses as tools under Wine, built with plain
//! `rustc --target x86_64-pc-windows-gnu` (no crates).
//!
//! - no argument: answers a call with a JSON object holding the arguments it read from
//!   stdin, the OS it was built for and its own path, so the check sees that a Windows
//!   program ran and what it was given;
//! - `linger`: starts itself as `sleep` (which waits for 10 minutes, detached from the
//!   pipes) and answers at once, leaving that child behind for agx to end;
//! - `sleep`: the child `linger` leaves.
use std::io::Read;
use std::process::{Command, Stdio};

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("sleep") => std::thread::sleep(std::time::Duration::from_secs(600)),
        Some("linger") => {
            let exe = std::env::current_exe().expect("own path");
            let spawned = Command::new(exe)
                .arg("sleep")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn();
            match spawned {
                Ok(child) => println!(r#"{{"left_behind": {}}}"#, child.id()),
                Err(e) => {
                    eprintln!("echo_tool: cannot start the child: {e}");
                    std::process::exit(1);
                }
            }
        }
        _ => echo(),
    }
}

fn echo() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("echo_tool: cannot read stdin: {e}");
        std::process::exit(1);
    }
    let arguments = input.trim();
    let arguments = if arguments.is_empty() { "{}" } else { arguments };
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    // The arguments are the JSON object agx wrote; the rest is escaped by hand (no serde here).
    let exe = exe.replace('\\', "\\\\").replace('"', "\\\"");
    let os = std::env::consts::OS;
    println!(r#"{{"received": {arguments}, "os": "{os}", "exe": "{exe}"}}"#);
}
