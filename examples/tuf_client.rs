//! The TUF conformance suite's client (`theupdateframework/tuf-conformance`, CLIENT-CLI.md)
//! built on the code agx uses for signed registries: `agx_tuf`'s updater over agx's HTTP
//! client.
//!
//! ```text
//! tuf_client --metadata-dir D init ROOT
//! tuf_client --metadata-dir D --metadata-url U refresh
//! tuf_client --metadata-dir D --metadata-url U --target-name N... --target-base-url U --target-dir D download
//! ```
//! Exit 0 on success, 1 on any failure (its cause on stderr).

use std::path::PathBuf;
use std::process::ExitCode;

use agx_sources::index::{Http, HttpLimits, HttpSettings};
use agx_tuf::Updater;
use agx_tuf::updater::{quote, verify_target};

#[derive(Default)]
struct Args {
    metadata_dir: Option<PathBuf>,
    metadata_url: Option<String>,
    target_names: Vec<String>,
    target_base_url: Option<String>,
    target_dir: Option<PathBuf>,
    command: Vec<String>,
}

fn parse() -> Result<Args, String> {
    let mut args = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--metadata-dir" => args.metadata_dir = Some(value()?.into()),
            "--metadata-url" => args.metadata_url = Some(value()?),
            "--target-name" => args.target_names.push(value()?),
            "--target-base-url" => args.target_base_url = Some(value()?),
            "--target-dir" => args.target_dir = Some(value()?.into()),
            _ => args.command.push(arg),
        }
    }
    Ok(args)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse()?;
    let metadata_dir = args.metadata_dir.ok_or("--metadata-dir is required")?;
    let command: Vec<&str> = args.command.iter().map(String::as_str).collect();
    if let ["init", root] = command.as_slice() {
        fs_err::create_dir_all(&metadata_dir)?;
        fs_err::copy(root, metadata_dir.join("root.json"))?;
        return Ok(());
    }
    let metadata_url = args.metadata_url.ok_or("--metadata-url is required")?;
    let http = Http::new(HttpSettings::from_env()?, HttpLimits::from_env()?);
    let target_base = args.target_base_url.clone().unwrap_or_default();
    let mut updater = Updater::new(
        &metadata_dir,
        &metadata_url,
        &target_base,
        http,
        chrono::Utc::now(),
    )?;
    updater.refresh()?;
    match command.as_slice() {
        ["refresh"] => Ok(()),
        ["download"] => {
            let target_dir = args.target_dir.ok_or("--target-dir is required")?;
            for name in &args.target_names {
                let info = updater.target_info(name)?;
                let path = target_dir.join(quote(name));
                // Already downloaded and still matching: no request (the suite checks).
                if let Ok(bytes) = fs_err::read(&path)
                    && verify_target(name, &info, &bytes).is_ok()
                {
                    continue;
                }
                let bytes = updater.download_target(name, &info)?;
                fs_err::write(&path, bytes)?;
            }
            Ok(())
        }
        other => Err(format!("unknown command {other:?}").into()),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tuf_client: {e}");
            ExitCode::FAILURE
        }
    }
}
