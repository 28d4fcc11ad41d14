//! Client files under stress, with the real binary: concurrent writers, and files that are
//! links, belong to someone else, or carry a byte order mark. Each test failed on agx 0.1.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::support::TestHome;

fn write(path: &Path, contents: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

/// A HOME with acme/weather (server `forecast`) installed.
fn home_with_package() -> TestHome {
    let home = TestHome::new();
    let src = home.home().join("src/weather");
    write(
        &src.join("agx.toml"),
        "[package]\nname = \"acme/weather\"\nversion = \"1.0.0\"\ndescription = \"Weather\"\n\n\
         [extension]\nservers = [\"forecast\"]\nprompts = [\"Search\"]\n",
    );
    write(
        &src.join("agx/servers/forecast.toml"),
        "name = \"forecast\"\nprompts = [\"Search\"]\n",
    );
    write(
        &src.join("agx/prompts/Search.toml"),
        "name = \"Search\"\ncontent = \"Search the docs\"\n",
    );
    home.agx().arg("install").arg(&src).assert().success();
    home
}

fn cursor_file(home: &TestHome) -> PathBuf {
    home.home().join(".cursor/mcp.json")
}

/// `agx install-server cursor acme/weather/forecast` plus `extra`; its output.
fn install_server(home: &TestHome, extra: &[&str]) -> std::process::Output {
    home.agx()
        .args(["install-server", "cursor", "acme/weather/forecast"])
        .args(extra)
        .output()
        .unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// Names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Ten `install-server` runs at once each printed `Added`, but the file kept one entry and
/// clients-v1.toml some of them: each read the file before the others wrote it.
#[test]
fn concurrent_install_servers_keep_every_entry() {
    let home = home_with_package();
    let keys: Vec<String> = (0..10).map(|i| format!("forecast-{i}")).collect();
    let outputs: Vec<std::process::Output> = std::thread::scope(|s| {
        let runs: Vec<_> = keys
            .iter()
            .map(|key| s.spawn(|| install_server(&home, &["--name", key])))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for out in &outputs {
        assert!(out.status.success(), "{}", stderr(out));
        assert!(stderr(out).contains("Added"), "{}", stderr(out));
    }
    let servers = json(&cursor_file(&home))["mcpServers"].clone();
    let records = fs::read_to_string(home.agx_home().join("clients-v1.toml")).unwrap();
    for key in &keys {
        assert_eq!(
            servers[key]["args"][1], "acme/weather/forecast",
            "{key} lost from the client file: {servers}"
        );
        assert!(
            records.contains(&format!("key = \"{key}\"")),
            "{key} lost from the record: {records}"
        );
    }
    // The locks leave nothing in the user's folder.
    assert_eq!(
        names(&home.home().join(".cursor")),
        ["mcp.json", "mcp.json.agx-backup"]
    );
}

/// Goose and Continue refuse duplicate keys and tab indentation; agx used to edit such a
/// file anyway.
#[test]
fn yaml_with_duplicate_keys_or_tabs_is_refused_with_line_and_column() {
    let home = home_with_package();
    let file = home.home().join(".config/goose/config.yaml");
    for (text, place) in [
        (
            "extensions:\n  developer:\n    enabled: true\n  developer:\n    enabled: false\n",
            "line 4, column 3",
        ),
        ("extensions:\n\tdeveloper:\n\t\tenabled: true\n", "line 2"),
    ] {
        write(&file, text);
        let out = home
            .agx()
            .args(["install-server", "goose", "acme/weather/forecast"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains("does not parse"), "{}", stderr(&out));
        assert!(stderr(&out).contains(place), "{}", stderr(&out));
        assert_eq!(fs::read_to_string(&file).unwrap(), text);
    }
}

/// With `mcpServers` twice, the entry went into the first copy, which the client ignores.
#[test]
fn a_json_container_key_given_twice_gets_the_entry_in_the_copy_the_client_reads() {
    let home = home_with_package();
    let file = cursor_file(&home);
    let text = "{\n  \"mcpServers\": {\"old\": {\"command\": \"a\"}},\n  \"mcpServers\": {\n    \"new\": {\"command\": \"b\"}\n  }\n}\n";
    write(&file, text);
    let out = install_server(&home, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    // serde_json, like JavaScript's JSON.parse, keeps the last copy of a key.
    let servers = json(&file)["mcpServers"].clone();
    assert_eq!(servers["forecast"]["args"][0], "serve", "{servers}");
    assert_eq!(servers["new"]["command"], "b");
    home.agx()
        .args(["uninstall-server", "cursor", "forecast"])
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}

/// A UTF-8 byte order mark made agx fail with "line 1, column 1: expected value".
#[test]
fn a_byte_order_mark_is_accepted_and_kept() {
    let home = home_with_package();
    let file = cursor_file(&home);
    let text = "\u{feff}{\n  \"mcpServers\": {}\n}\n";
    write(&file, text);
    let out = install_server(&home, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = fs::read_to_string(&file).unwrap();
    assert!(after.starts_with('\u{feff}'), "{after:?}");
    assert!(after.contains("\"forecast\""), "{after}");
    home.agx()
        .args(["uninstall-server", "cursor", "forecast"])
        .assert()
        .success();
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
}

/// `install-server` then `uninstall-server` gives the file back byte for byte, whatever its
/// layout. A closing brace on the last entry's line, or a container on one line, used to come
/// back with a line break added (found by the `client_edit` fuzz target).
#[test]
fn install_then_uninstall_server_leaves_every_layout_byte_for_byte() {
    let home = home_with_package();
    let file = cursor_file(&home);
    for text in [
        "{\n  \"mcpServers\": {\n    \"hf\": { \"url\": \"https://hf.co/mcp\" } }\n}\n",
        "{\"mcpServers\": {\"hf\": {\"url\": \"https://hf.co/mcp\"}}}",
        "{\r\n  \"mcpServers\": {\r\n    \"hf\": {\r\n      \"url\": \"x\"\r\n    }\r\n\r\n  }\r\n}\r\n",
        "{\n  \"mcpServers\": {}\n}\n",
    ] {
        write(&file, text);
        let out = install_server(&home, &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        let added = fs::read_to_string(&file).unwrap();
        assert_eq!(
            json(&file)["mcpServers"]["forecast"]["args"][0],
            "serve",
            "{added}"
        );
        home.agx()
            .args(["uninstall-server", "cursor", "forecast"])
            .assert()
            .success();
        assert_eq!(fs::read_to_string(&file).unwrap(), text, "added:\n{added}");
    }
}

/// A config linked to a file that does not exist yet (a dotfile manager's link) was replaced
/// by a plain file; now the link stays and its target is created.
#[cfg(unix)]
#[test]
fn a_link_to_a_missing_file_is_written_through() {
    let home = home_with_package();
    let file = cursor_file(&home);
    let target = home.home().join("dotfiles/cursor/mcp.json");
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("../dotfiles/cursor/mcp.json", &file).unwrap();
    let out = install_server(&home, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        fs::symlink_metadata(&file)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(json(&target)["mcpServers"]["forecast"]["args"][0], "serve");
}

/// A config with a second hard link lost it: the rename put a new file under one name.
#[cfg(unix)]
#[test]
fn a_hard_linked_config_keeps_its_links() {
    let home = home_with_package();
    let file = cursor_file(&home);
    let other_name = home.home().join("cursor-mcp.json");
    write(&file, "{\"mcpServers\": {}}\n");
    fs::hard_link(&file, &other_name).unwrap();
    let inode = fs::metadata(&file).unwrap().ino();
    let out = install_server(&home, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::metadata(&file).unwrap().ino(), inode);
    assert_eq!(fs::metadata(&file).unwrap().nlink(), 2);
    assert_eq!(
        json(&other_name)["mcpServers"]["forecast"]["args"][0],
        "serve"
    );
}

/// Run as root on another user's file, agx made root its owner (and the user lost it).
#[cfg(unix)]
#[test]
fn another_users_file_keeps_its_owner_and_group() {
    let home = home_with_package();
    let file = cursor_file(&home);
    write(&file, "{\"mcpServers\": {}}\n");
    let (uid, gid) = (4242, 4343);
    if let Err(e) = std::os::unix::fs::chown(&file, Some(uid), Some(gid)) {
        // Only root may give a file away; the tests run as root in CI.
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied, "{e}");
        return;
    }
    let out = install_server(&home, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(json(&file)["mcpServers"]["forecast"].is_object());
    for path in [file.clone(), file.with_file_name("mcp.json.agx-backup")] {
        let meta = fs::metadata(&path).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (uid, gid), "{}", path.display());
    }
}

/// When agx cannot write, it says so, and the file and its folder are as they were.
#[test]
fn a_failed_write_leaves_the_file_byte_for_byte() {
    let home = home_with_package();
    let file = cursor_file(&home);
    let text = "{ \"mcpServers\" : { } , \"x\": [1,2] }";
    write(&file, text);
    // The backup cannot replace a folder, so the write stops before the file is touched.
    fs::create_dir_all(file.with_file_name("mcp.json.agx-backup/keep")).unwrap();
    let before = names(file.parent().unwrap());
    let out = install_server(&home, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert!(stderr(&out).contains("mcp.json"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    assert_eq!(
        names(file.parent().unwrap()),
        before,
        "temp or lock files left"
    );
    let records = home.agx_home().join("clients-v1.toml");
    assert!(!records.exists(), "a failed write is not recorded");
}

/// The locks need the client's folder; a command that writes nothing must not make it.
#[test]
fn a_refused_or_empty_edit_makes_no_folder() {
    let home = home_with_package();
    let out = install_server(&home, &["--name", "Not_Portable"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = home
        .agx()
        .args(["uninstall-server", "cursor", "forecast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no entry `forecast`"),
        "{}",
        stderr(&out)
    );
    assert!(!home.home().join(".cursor").exists());
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// A client file that is a link to `/dev/zero` grew agx without limit, and a FIFO hung it:
/// every command that reads a client file refuses anything but a regular file.
#[cfg(unix)]
#[test]
fn a_device_or_fifo_in_place_of_a_client_file_is_refused() {
    let home = home_with_package();
    let file = cursor_file(&home);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
    let out = install_server(&home, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a regular file (a FIFO, socket or device)"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("mcp.json"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("regular text file"),
        "{}",
        stderr(&out)
    );

    fs::remove_file(&file).unwrap();
    mkfifo(&file);
    for args in [
        &["install-server", "cursor", "acme/weather/forecast"][..],
        &["uninstall-server", "cursor", "forecast"],
    ] {
        let out = home.agx().args(args).output().unwrap();
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {text}");
        assert!(text.contains("FIFO"), "{args:?}: {text}");
    }
    assert!(fs::symlink_metadata(&file).unwrap().file_type().is_fifo());
}

/// A read-only client file was renamed over (its owner's protection undone): it is refused,
/// with a hint, and left byte for byte with its mode.
#[cfg(unix)]
#[test]
fn a_read_only_client_file_is_refused_and_left_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let home = home_with_package();
    let file = cursor_file(&home);
    let text = "{ \"mcpServers\": {} }\n";
    write(&file, text);
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    let inode = fs::metadata(&file).unwrap().ino();
    let out = install_server(&home, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("is read-only"), "{}", stderr(&out));
    assert!(stderr(&out).contains("chmod u+w"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    let meta = fs::metadata(&file).unwrap();
    assert_eq!(meta.ino(), inode, "the file was replaced");
    assert_eq!(meta.permissions().mode() & 0o777, 0o444);
    assert_eq!(names(file.parent().unwrap()), ["mcp.json"]);
}
