"""Drive servers installed from an MCP registry with the official MCP Python SDK client:
`agx serve <registry name>` (the package alone names its one server), list the tools and
call one.

Usage: python_registry_client.py [--modern] AGX_BINARY SERVER TOOL ARGUMENTS_JSON EXPECTED_TEXT

With `--modern` the SDK's `Client` speaks MCP 2026-07-28 (it probes `server/discover` and,
answered, sends no `initialize`; each request names the version in its `_meta`), and the
session must have ended up in that era. AGX_HOME and HOME come from the environment. Prints
`ok` or `FAIL` with what differed; exits 1 on a failure.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.client import Client

FORWARDED_ENV = ("AGX_HOME", "AGX_LOG", "AGX_KEYRING", "HOME", "PATH")


async def check(session, era, server, tool, arguments, expected):
    tools = [t.name for t in (await session.list_tools()).tools]
    if tool not in tools:
        print(f"FAIL  {server} ({era}): tools/list has no {tool}: {tools}")
        return 1
    result = await session.call_tool(tool, arguments)
    text = "".join(getattr(block, "text", "") for block in result.content)
    if result.is_error or expected not in text:
        print(f"FAIL  {server} ({era}): {tool} answered {text!r}, expected {expected!r} in it")
        return 1
    print(f"ok    {server} ({era}): tools/list has {tool}; {tool} answered {text[:80]!r}")
    return 0


async def main(modern, agx, server, tool, arguments, expected):
    env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}
    params = StdioServerParameters(command=agx, args=["serve", server], env=env)
    if modern:
        async with Client(params, mode="auto") as client:
            if client.protocol_version != "2026-07-28":
                print(f"FAIL  {server}: the session speaks {client.protocol_version}, not 2026-07-28")
                return 1
            return await check(client, "2026-07-28", server, tool, arguments, expected)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await check(session, "legacy", server, tool, arguments, expected)


args = sys.argv[1:]
modern = bool(args) and args[0] == "--modern"
if modern:
    args = args[1:]
agx, server, tool, arguments, expected = args[:5]
sys.exit(anyio.run(main, modern, agx, server, tool, json.loads(arguments), expected))
