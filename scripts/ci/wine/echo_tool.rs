//! The Windows program scripts/ci/wine.sh serves as a tool under Wine: built with plain
//! `rustc --target x86_64-pc-windows-gnu` (no crates), it answers a call with a JSON object
//! holding the arguments it read from stdin, the platform it was built for and its own path,
//! so the check sees that a Windows program ran and what it was given.
use std::io::Read;

fn main() {
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
