//! Permissions (docs/sandbox.md): declared in `[extension.permissions]` or by a server,
//! shown by `agx info`.

use crate::support::{TestHome, write_files};

/// A local package `local/<name>` with one tool `t` and one server `main`; `extra` is
/// appended to agx.toml, `server_extra` to the server's definition.
pub(crate) fn package(
    home: &TestHome,
    name: &str,
    extra: &str,
    server_extra: &str,
    script: &str,
) -> std::path::PathBuf {
    let dir = home.home().join(name);
    write_files(
        &dir,
        &[
            (
                "agx.toml",
                &format!(
                    "[package]\nname = \"{name}\"\nversion = \"1.0.0\"\ndescription = \"Test\"\n\n[extension]\nservers = [\"main\"]\ntools = [\"t\"]\n{extra}"
                ),
            ),
            (
                "agx/tools/t.toml",
                "name = \"t\"\ndescription = \"Runs bin/t.sh\"\ncommand = [\"sh\", \"bin/t.sh\"]\n",
            ),
            (
                "agx/servers/main.toml",
                &format!("name = \"main\"\ntools = [\"t\"]\n{server_extra}"),
            ),
            ("bin/t.sh", script),
        ],
    );
    dir
}

fn info(home: &TestHome, name: &str) -> String {
    let out = home.agx().args(["info", name]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn info_shows_declared_permissions_and_says_when_a_package_declares_none() {
    let home = TestHome::new();
    let plain = package(&home, "plain", "", "", "cat >/dev/null; echo ok\n");
    home.agx().arg("install").arg(&plain).assert().success();
    let text = info(&home, "plain");
    assert!(
        text.contains("permissions:\n  not confined: declares no permissions"),
        "{text}"
    );

    let declared = package(
        &home,
        "declared",
        "\n[extension.permissions]\nread = [\"{home}/.config/tool\"]\nwrite = [\"{project}/out\"]\nnetwork = [\"api.github.com\"]\nenv = [\"LANG\"]\n",
        "\n[permissions]\nnetwork = \"none\"\n",
        "cat >/dev/null; echo ok\n",
    );
    home.agx().arg("install").arg(&declared).assert().success();
    let text = info(&home, "declared");
    for line in [
        "permissions:\n  read: {package}, {home}/.config/tool\n  write: {data}, {tmp}, {project}/out\n  network: api.github.com\n  env: LANG\n",
        "    permissions:\n      read: {package}\n      write: {data}, {tmp}\n      network: none\n",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
}
