"""Drive the Windows agx under Wine with the official MCP Python SDK client, through the
entry the Windows agx wrote into a client file: start `wine <entry command> <entry args>`
over stdio, then initialize, tools/list and tools/call of a tool that is a Windows program.

Usage: wine_client.py WINE CLIENT_FILE ENTRY_KEY TOOL

WINEPREFIX, WINEDEBUG, WINEDLLOVERRIDES, WINEHOME (HOME for Windows programs), HOME and
PATH come from the environment
(scripts/ci/wine.sh). Prints `ok` or `FAIL` per check; exits 1 when any check failed.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

FORWARDED_ENV = ("WINEPREFIX", "WINEDEBUG", "WINEDLLOVERRIDES", "WINEHOME", "HOME", "PATH")


async def main(wine, client_file, key, tool):
    with open(client_file, encoding="utf-8") as f:
        entry = json.load(f)["mcpServers"][key]
    env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}
    # What the client would pass: the entry's own environment (AGX_HOME, a Windows path).
    env.update(entry.get("env", {}))
    params = StdioServerParameters(command=wine, args=[entry["command"], *entry["args"]], env=env)
    failures = 0

    def check(what, ok, detail):
        nonlocal failures
        print(f"ok    {what}" if ok else f"FAIL  {what}\n      {detail}")
        failures += 0 if ok else 1

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            server = entry["args"][1]
            check(f"initialize: serverInfo.name is {server}", init.server_info.name == server,
                  f"serverInfo: {init.server_info!r}")
            tools = [t.name for t in (await session.list_tools()).tools]
            check(f"tools/list has {tool}", tool in tools, f"tools: {tools}")
            arguments = {"text": "from the Linux side"}
            result = await session.call_tool(tool, arguments)
            answer = result.structured_content or {}
            check(f"tools/call {tool}: the Windows program got the arguments",
                  not result.is_error and answer.get("received") == arguments,
                  f"result: {result!r}")
            check(f"tools/call {tool}: it ran as a Windows program",
                  answer.get("os") == "windows" and answer.get("exe", "").lower().endswith(".exe"),
                  f"result: {answer!r}")
    return 1 if failures else 0


sys.exit(anyio.run(main, *sys.argv[1:5]))
