//! Which files of a folder discovery probes, how to run each, and the one-line summary its
//! own text gives (a Python docstring, a shell script's first comment).

use std::path::Path;

/// A script discovery probes.
#[derive(Debug, Clone)]
pub(crate) struct Script {
    /// The file name, relative to the folder (scripts are the folder's own files).
    pub file: String,
    /// The command that runs it from the folder: its interpreter (from the shebang, or by
    /// extension) and the file, or the file itself.
    pub command: Vec<String>,
    /// The summary its text gives, if any.
    pub summary: Option<String>,
    /// The schema-dump flags its text names: a script answers only flags it looks for, so
    /// the others are not asked (each ask is a process start).
    pub dumps: Vec<&'static str>,
}

/// The schema-dump flags (Fractalic's names), in the order discovery asks them.
pub(crate) const DUMP_FLAGS: [&str; 2] =
    ["--fractalic-dump-multi-schema", "--fractalic-dump-schema"];

/// The scripts of `dir`, by name: `*.py` and `*.sh` files and (on Unix: Windows has no
/// execute bit) executable files that start with `#!`. Hidden files, `__init__.py` and anything that is not a regular file
/// (links included: a folder's scripts are its own) are not scripts.
pub(crate) fn scripts_of(dir: &Path) -> std::io::Result<Vec<Script>> {
    let mut scripts = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Ok(file) = entry.file_name().into_string() else {
            continue;
        };
        let meta = entry.metadata()?;
        if !meta.file_type().is_file() || file.starts_with('.') || file == "__init__.py" {
            continue;
        }
        let head = read_head(&entry.path(), 8 * 1024);
        let by_extension = file.ends_with(".py") || file.ends_with(".sh");
        let is_script =
            by_extension || (agx_core::fsutil::is_executable(&meta) && head.starts_with("#!"));
        if !is_script {
            continue;
        }
        let text = read_head(&entry.path(), 1024 * 1024);
        scripts.push(Script {
            command: command_for(&file, &head),
            summary: summary_of(&file, &head),
            dumps: DUMP_FLAGS
                .into_iter()
                .filter(|flag| text.contains(&flag[2..]))
                .collect(),
            file,
        });
    }
    scripts.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(scripts)
}

/// The first `limit` bytes of a file as text (8 KiB hold a shebang and a docstring).
fn read_head(path: &Path, limit: u64) -> String {
    use std::io::Read;
    let mut buf = Vec::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(limit).read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// How a script runs: the interpreter its shebang names (`#!/usr/bin/env python3` →
/// `python3`, `#!/bin/bash` → `bash`) or its extension implies, followed by the file, so the
/// command needs no execute bit and works wherever the interpreter is on PATH; a file
/// whose shebang names no interpreter agx can name runs itself.
fn command_for(file: &str, head: &str) -> Vec<String> {
    let from_shebang = head
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("#!"))
        .and_then(|line| {
            let mut words = line.split_whitespace();
            let program = words.next()?;
            let program = program.rsplit('/').next().unwrap_or(program);
            if program == "env" {
                words.find(|w| !w.starts_with('-'))
            } else {
                Some(program)
            }
        })
        .map(str::to_string);
    let interpreter = from_shebang.or_else(|| {
        if file.ends_with(".py") {
            Some("python3".into())
        } else if file.ends_with(".sh") {
            Some("sh".into())
        } else {
            None
        }
    });
    match interpreter {
        Some(interpreter) => vec![interpreter, file.to_string()],
        None => vec![format!("./{file}")],
    }
}

/// The first line of a Python module's docstring, or of a shell script's first comment
/// (after the shebang).
fn summary_of(file: &str, head: &str) -> Option<String> {
    let mut lines = head
        .lines()
        .map(str::trim)
        .skip_while(|l| l.starts_with("#!"));
    if file.ends_with(".py") || head.starts_with("#!") && head.lines().next()?.contains("python") {
        let mut lines = lines.skip_while(|l| l.is_empty() || l.starts_with('#'));
        let first = lines.next()?;
        let first = first.trim_start_matches(['r', 'u', 'R', 'U']);
        let quote = ["\"\"\"", "'''", "\"", "'"]
            .into_iter()
            .find(|q| first.starts_with(q))?;
        let inside = &first[quote.len()..];
        let text = if inside.trim().is_empty() || inside.trim() == quote {
            lines.find(|l| !l.is_empty())?
        } else {
            inside
        };
        let text = text.split(quote).next().unwrap_or(text).trim();
        return (!text.is_empty()).then(|| text.to_string());
    }
    lines
        .find(|l| l.starts_with('#') && !l.trim_start_matches('#').trim().is_empty())
        .map(|l| l.trim_start_matches('#').trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_come_from_the_shebang_or_the_extension() {
        assert_eq!(
            command_for("a.py", "#!/usr/bin/env python3\n"),
            ["python3", "a.py"]
        );
        assert_eq!(command_for("a.py", "import sys\n"), ["python3", "a.py"]);
        assert_eq!(command_for("a.sh", "#!/bin/bash\n"), ["bash", "a.sh"]);
        assert_eq!(command_for("a.sh", "echo\n"), ["sh", "a.sh"]);
        assert_eq!(
            command_for("tool", "#!/usr/bin/env -S node\n"),
            ["node", "tool"]
        );
        assert_eq!(command_for("bin", "\x7fELF"), ["./bin"]);
    }

    #[test]
    fn summaries_come_from_docstrings_and_comments() {
        let py = "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\"\nWeather fetcher.\n\nMore.\n\"\"\"\n";
        assert_eq!(summary_of("w.py", py).as_deref(), Some("Weather fetcher."));
        let py = "'''Convert units.'''\nimport sys\n";
        assert_eq!(summary_of("c.py", py).as_deref(), Some("Convert units."));
        assert_eq!(summary_of("n.py", "import sys\n"), None);
        let sh = "#!/bin/sh\n\n# alerts: weather alerts for a region\nset -eu\n";
        assert_eq!(
            summary_of("a.sh", sh).as_deref(),
            Some("alerts: weather alerts for a region")
        );
    }
}
