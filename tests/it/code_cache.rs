//! Compiled-code caches of wrapped servers (docs/ecosystem.md, "Compiled-code caches"), with
//! real packages from npm and PyPI and the real interpreters: Node 22 (pinned in
//! scripts/ci/node22.sh) keeps a V8 compile cache per package version and Node version in
//! `data-v1/`; the venv of a PyPI package holds its bytecode from install on.

// The venv layout (`venv/bin/python`) and the pinned Node build are Unix ones.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::ecosystem::{
    EVERYTHING, EVERYTHING_VERSION, Session, TIME_VERSION, agx, command, stderr,
};
use crate::support::{AGX, TestHome, repo_root};

/// The folder of the pinned Node 22's `node`, installed once by scripts/ci/node22.sh.
fn node22_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = Command::new(repo_root().join("scripts/ci/node22.sh"))
            .output()
            .expect("scripts/ci/node22.sh runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
    })
}

/// `agx ARGS…` as [`command`] runs it, with `node_dir` first on PATH (none: the machine's
/// `node`).
fn agx_with_node(home: &TestHome, node_dir: Option<&Path>, args: &[&str]) -> Command {
    let mut cmd = command(home, AGX);
    if let Some(dir) = node_dir {
        let path = cmd
            .get_envs()
            .find(|(k, _)| *k == "PATH")
            .and_then(|(_, v)| v)
            .map(|v| v.to_os_string())
            .unwrap_or_default();
        let mut joined = dir.as_os_str().to_os_string();
        joined.push(":");
        joined.push(path);
        cmd.env("PATH", joined);
    }
    cmd.args(args);
    cmd
}

/// Start the server, answer `initialize`, stop it.
fn initialize(home: &TestHome, node_dir: Option<&Path>, server: &str) {
    let mut session = Session::spawn(agx_with_node(home, node_dir, &["serve", server]));
    let init = session.initialize();
    assert!(init["result"]["serverInfo"]["name"].is_string(), "{init}");
}

/// The files under `dir` with their bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files(&path));
        } else {
            found.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    found.sort();
    found
}

/// Whether `path` is an entry of the code cache of required CommonJS modules (`cjs-<tag>/`).
fn in_commonjs_cache(path: &Path) -> bool {
    path.parent()
        .and_then(Path::file_name)
        .is_some_and(|name| name.to_string_lossy().starts_with("cjs-"))
}

fn recorded_version(data: &Path) -> String {
    let record = std::fs::read_to_string(data.join("node.toml")).expect("node.toml");
    let value: toml::Table = toml::from_str(&record).unwrap();
    value["version"].as_str().unwrap().to_string()
}

fn machine_node_version() -> String {
    let out = Command::new("node")
        .arg("--version")
        .output()
        .expect("node runs");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn npm_servers_keep_a_compile_cache_per_node_version() {
    let home = TestHome::new();
    let node22 = node22_dir();
    let spec = format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}");
    let out = agx_with_node(&home, Some(node22), &["install", "--warm", &spec])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let data = home
        .agx_home()
        .join("data-v1/npm/@modelcontextprotocol+server-everything")
        .join(EVERYTHING_VERSION);
    // Install recorded the Node version, and `--warm` filled the cache of that version.
    assert_eq!(recorded_version(&data), "v22.23.3");
    let cache = data.join("node-compile-cache/v22.23.3");
    let warmed = files(&cache);
    assert!(
        !warmed.is_empty(),
        "--warm left no cache in {}",
        cache.display()
    );
    // Both caches: Node's own (ES modules) and the one of required CommonJS modules.
    let paths: Vec<_> = warmed.iter().map(|(path, _)| path).collect();
    assert!(paths.iter().any(|p| in_commonjs_cache(p)), "{paths:?}");
    assert!(paths.iter().any(|p| !in_commonjs_cache(p)), "{paths:?}");

    // Another Node (the machine's): its version is recorded, and it never reads the cache of
    // v22.23.3 (on a Node before 22.1 there is no cache at all).
    let other = machine_node_version();
    assert_ne!(other, "v22.23.3", "the machine's node is the pinned one");
    initialize(&home, None, &format!("npm/{EVERYTHING}"));
    assert_eq!(recorded_version(&data), other);
    assert_eq!(
        files(&cache),
        warmed,
        "another Node touched the v22.23.3 cache"
    );

    // A damaged cache: every entry garbage. The server starts, and the cache is written
    // afresh.
    for (file, _) in &warmed {
        std::fs::write(file, b"garbage").unwrap();
    }
    initialize(&home, Some(node22), &format!("npm/{EVERYTHING}"));
    assert_eq!(recorded_version(&data), "v22.23.3");
    assert!(
        files(&cache).iter().any(|(_, bytes)| bytes != b"garbage"),
        "the damaged cache was not replaced"
    );

    // A cache that cannot be used at all (a file where its folder goes): the server starts
    // without it, and the log says why.
    std::fs::remove_dir_all(data.join("node-compile-cache")).unwrap();
    std::fs::write(data.join("node-compile-cache"), b"not a folder").unwrap();
    initialize(&home, Some(node22), &format!("npm/{EVERYTHING}"));
    let log: String = files(&home.agx_home().join("logs"))
        .into_iter()
        .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
        .collect();
    assert!(
        log.contains("node-compile-cache") && log.contains("starting without it"),
        "{log}"
    );

    // Uninstalling removes the version's data folder with it.
    let out = agx(&home, &["uninstall", &format!("npm/{EVERYTHING}")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !home.agx_home().join("data-v1/npm").exists(),
        "uninstall left the data folder"
    );
}

/// The bytecode files of the venv's Python files that are missing, at `levels`, as the
/// venv's own interpreter names them.
fn missing_bytecode(venv: &Path, levels: &str) -> Vec<String> {
    const CHECK: &str = "import importlib.util, pathlib, sys\n\
        for py in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):\n\
        \x20   for level in sys.argv[2].split(','):\n\
        \x20       pyc = importlib.util.cache_from_source(str(py), optimization=level.strip('0'))\n\
        \x20       if not pathlib.Path(pyc).exists(): print(pyc)";
    let out = Command::new(venv.join("bin/python"))
        .args(["-c", CHECK, &venv.join("lib").display().to_string(), levels])
        .output()
        .expect("the venv's python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn pypi_servers_start_from_bytecode_compiled_at_install() {
    let home = TestHome::new();
    // pip told not to compile, as a user's configuration may (pip reads its `no-` variables
    // inverted: 0 turns compiling off). agx compiles the venv itself.
    let out = command(&home, AGX)
        .env("PIP_NO_COMPILE", "0")
        .args(["install", &format!("pypi:mcp-server-time=={TIME_VERSION}")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let venv = home
        .agx_home()
        .join("store-v1/pypi/mcp-server-time")
        .join(TIME_VERSION)
        .join("venv");
    let missing = missing_bytecode(&venv, "0");
    assert!(
        missing.is_empty(),
        "{} bytecode files missing, such as {:?}",
        missing.len(),
        &missing[..missing.len().min(3)]
    );

    // A bytecode file gone: the first start writes it back, even for a client that sets
    // PYTHONDONTWRITEBYTECODE (agx unsets it for the server).
    let server_pyc = Path::new(&bytecode_of(&venv, "mcp_server_time.server")).to_path_buf();
    std::fs::remove_file(&server_pyc).unwrap();
    let mut serve = command(&home, AGX);
    serve
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args(["serve", "pypi/mcp-server-time"]);
    let mut session = Session::spawn(serve);
    let init = session.initialize();
    assert!(init["result"]["serverInfo"]["name"].is_string(), "{init}");
    drop(session);
    assert!(
        server_pyc.is_file(),
        "{} was not written",
        server_pyc.display()
    );
}

/// Where the venv's interpreter keeps the bytecode of `module` (found without importing it).
fn bytecode_of(venv: &Path, module: &str) -> String {
    let out = Command::new(venv.join("bin/python"))
        .args([
            "-c",
            "import importlib.util, sys\n\
             print(importlib.util.cache_from_source(importlib.util.find_spec(sys.argv[1]).origin))",
            module,
        ])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("the venv's python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn sync_warm_fills_the_compile_cache_of_what_it_installs() {
    let node22 = node22_dir();
    let run = |home: &TestHome, dir: &Path, args: &[&str]| {
        let out = agx_with_node(home, Some(node22), args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "agx {args:?}: {}", stderr(&out));
    };
    // One home locks the server into a project…
    let author = TestHome::new();
    let project = author.home().join("repo");
    std::fs::create_dir_all(&project).unwrap();
    let spec = format!("npm:{EVERYTHING}@{EVERYTHING_VERSION}");
    run(&author, &project, &["install", &spec]);
    run(&author, &project, &["add", &format!("npm/{EVERYTHING}")]);
    // …another syncs the project's lock, warming what it provisions.
    let home = TestHome::new();
    let clone = home.home().join("repo");
    std::fs::create_dir_all(&clone).unwrap();
    for file in ["agx.toml", "agx.lock"] {
        std::fs::copy(project.join(file), clone.join(file)).unwrap();
    }
    run(&home, &clone, &["sync", "--warm"]);
    let cache = home
        .agx_home()
        .join("data-v1/npm/@modelcontextprotocol+server-everything")
        .join(EVERYTHING_VERSION)
        .join("node-compile-cache/v22.23.3");
    assert!(
        !files(&cache).is_empty(),
        "sync --warm left no cache in {}",
        cache.display()
    );
}

/// A small CommonJS program (a main script, required modules and what they reach), written
/// into `dir`: it prints what each module saw as JSON.
fn write_commonjs_program(dir: &Path) {
    let b_js = commonjs_module_b(42);
    let files: &[(&str, &str)] = &[
        (
            "main.cjs",
            "const lib = require('./lib/a.js');\n\
             lib.report().then((r) => process.stdout.write(JSON.stringify(r) + '\\n'));\n",
        ),
        (
            "lib/a.js",
            "#!/usr/bin/env node\n\
             'use strict';\n\
             const b = require('./b');\n\
             function where() { return new Error('here').stack.split('\\n')[1].trim(); }\n\
             exports.report = async () => ({\n\
             \x20 filename: __filename, dirname: __dirname, thisIsExports: b.self === b.exports,\n\
             \x20 mainIsMain: require.main === process.mainModule && require.main.filename.endsWith('main.cjs'),\n\
             \x20 resolved: require.resolve('./b'), paths: require.resolve.paths('x').length > 0,\n\
             \x20 cached: Object.keys(require.cache).some((f) => f.endsWith('b.js')), stack: where(),\n\
             \x20 esm: (await import('./c.mjs')).value, detected: require('./d.js').value,\n\
             \x20 parent: module.children.map((m) => m.id), value: b.value,\n\
             });\n",
        ),
        ("lib/b.js", &b_js),
        ("lib/c.mjs", "export const value = 'from an ES module';\n"),
        // ES module syntax in a .js file that no package.json types: Node detects it.
        ("lib/d.js", "export const value = 'detected';\n"),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// `lib/b.js` of [`write_commonjs_program`], exporting `value` (two digits: a change keeps
/// the file's length).
fn commonjs_module_b(value: u8) -> String {
    format!(
        "module.exports.value = {value};\nmodule.exports.self = this;\n\
         module.exports.exports = exports;\n"
    )
}

#[test]
fn the_commonjs_code_cache_keeps_what_node_gives_a_module_and_survives_damage() {
    let node = node22_dir().join("node");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("program");
    write_commonjs_program(&program);
    let cache = dir.path().join("cache");
    let preload = repo_root().join("crates/agx-runtime/src/node_compile_cache.cjs");
    let run = |with_cache: bool| {
        let mut cmd = Command::new(&node);
        if with_cache {
            cmd.arg("--require")
                .arg(&preload)
                .env("AGX_NODE_COMPILE_CACHE", &cache);
        }
        let out = cmd.arg(program.join("main.cjs")).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (report, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (plain, _) = run(false);
    assert_eq!(plain["detected"], "detected", "{plain}");
    assert!(
        plain["stack"].as_str().unwrap().contains("a.js:4:"),
        "{plain}"
    );

    // The first run fills the cache, the second reads it: both see what plain Node gives.
    let (first, _) = run(true);
    assert_eq!(first, plain);
    let entries = cache.join("v22.23.3");
    let commonjs: Vec<_> = files(&entries)
        .into_iter()
        .filter(|(path, _)| in_commonjs_cache(path))
        .collect();
    // a.js and b.js (required by modules); main.cjs is the loader's own, d.js is an ES module.
    let paths: Vec<_> = commonjs.iter().map(|(path, _)| path).collect();
    assert_eq!(paths.len(), 2, "{paths:?}");
    let (second, stderr) = run(true);
    assert_eq!(second, plain);
    assert!(stderr.is_empty(), "{stderr}");
    for (path, bytes) in &commonjs {
        assert_eq!(
            &std::fs::read(path).unwrap(),
            bytes,
            "{} was rewritten",
            path.display()
        );
    }

    // A damaged entry: named on stderr, compiled again, rewritten; the program is unchanged.
    let (damaged, _) = &commonjs[0];
    let mut bytes = std::fs::read(damaged).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(damaged, &bytes).unwrap();
    let (third, stderr) = run(true);
    assert_eq!(third, plain);
    assert!(
        stderr.contains("is damaged") && stderr.contains(&damaged.display().to_string()),
        "{stderr}"
    );
    let (_, stderr) = run(true);
    assert!(
        stderr.is_empty(),
        "the damaged entry was not rewritten: {stderr}"
    );

    // A changed source of the same length (V8 would take the old entry): its entry is
    // replaced, and the program runs the new code.
    std::fs::write(program.join("lib/b.js"), commonjs_module_b(24)).unwrap();
    let (changed, _) = run(true);
    assert_eq!(changed["value"], 24, "{changed}");
}
