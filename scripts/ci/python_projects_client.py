"""Two projects lock different versions of one package and each serves its own
(docs/projects.md), checked with the official MCP Python SDK client.

Usage: python_projects_client.py AGX_BINARY REGISTRY_FOLDER WORK_FOLDER

Serves the agx registry in REGISTRY_FOLDER on 127.0.0.1; in WORK_FOLDER makes two projects
for Claude Code: `old` adds acme/weather/forecast@=1.1.0, `new` adds it with no requirement
(the newest, 1.2.0); both `agx sync`. Then, for each project, starts the entry `.mcp.json`
holds (its command and args, found on PATH like a team member's client would, cwd = the
project) and checks the version the server reports in `initialize`. AGX_HOME and HOME come
from the environment. Prints `ok` or `FAIL` per check; exits 1 on any failure.
"""

import functools
import json
import os
import pathlib
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

SERVER = "acme/weather/forecast"
PROJECTS = {"old": ("@=1.1.0", "1.1.0"), "new": ("", "1.2.0")}
FORWARDED_ENV = ("AGX_HOME", "AGX_LOG", "AGX_KEYRING", "AGX_NO_PROGRESS", "HOME", "NO_COLOR")


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve_registry(folder):
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def agx(env, project, *args):
    out = subprocess.run(
        ["agx", *args], cwd=project, env=env, capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise SystemExit(f"FAIL  agx {' '.join(args)} in {project}:\n{out.stdout}{out.stderr}")


async def served_version(entry, project, env):
    params = StdioServerParameters(
        command=entry["command"],
        args=entry.get("args", []),
        env={**env, **(entry.get("env") or {})},
        cwd=project,
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            return init.server_info.name, init.server_info.version


def main():
    agx_binary, registry_folder, work = sys.argv[1:4]
    work = pathlib.Path(work)
    env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}
    # Entries hold the bare `agx`: put the binary under test first on PATH.
    env["PATH"] = f"{os.path.dirname(os.path.abspath(agx_binary))}{os.pathsep}{os.environ['PATH']}"
    env["AGX_REGISTRY"] = serve_registry(registry_folder)

    for name, (requirement, _) in PROJECTS.items():
        project = work / name
        project.mkdir(parents=True)
        (project / "agx.toml").write_text('[project]\nclients = ["claude-code"]\n')
        agx(env, project, "add", SERVER + requirement)
        agx(env, project, "sync")

    # The client starts the entry without the registry: only what sync installed may serve.
    del env["AGX_REGISTRY"]
    failed = 0
    for name, (_, want) in PROJECTS.items():
        project = work / name
        entries = json.loads((project / ".mcp.json").read_text())["mcpServers"]
        entry = entries["forecast"]
        if entry["command"] != "agx" or entry["args"] != ["serve", f"{SERVER}@={want}"]:
            print(f"FAIL  {name}: .mcp.json entry is {entry}, not `agx serve {SERVER}@={want}`")
            failed += 1
            continue
        server, version = anyio.run(served_version, entry, project, env)
        if version == want:
            print(f"ok    {name}: `{entry['command']} {' '.join(entry['args'])}` serves {server} {version}")
        else:
            print(f"FAIL  {name}: initialize reports {server} {version}, not {want}")
            failed += 1
    sys.exit(1 if failed else 0)


main()
