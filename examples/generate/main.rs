//! Regenerate `completions/` and `man/` from the clap definitions:
//! `cargo run --example generate`.

mod files;

use std::path::Path;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in files::DIRS {
        let dir = root.join(dir);
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::create_dir_all(&dir)?;
    }
    let files = files::all_files();
    for (path, contents) in &files {
        std::fs::write(root.join(path), contents)?;
    }
    println!("wrote {} files into completions/ and man/", files.len());
    Ok(())
}
