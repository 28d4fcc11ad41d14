"""Drive servers installed from an MCP registry with the official MCP Python SDK client:
`agx serve <registry name>` (the package alone names its one server), list the tools and
call one.

Usage: python_registry_client.py AGX_BINARY SERVER TOOL ARGUMENTS_JSON EXPECTED_TEXT

AGX_HOME and HOME come from the environment. Prints `ok` or `FAIL` with what differed; exits
1 on a failure.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

FORWARDED_ENV = ("AGX_HOME", "AGX_LOG", "AGX_KEYRING", "HOME", "PATH")


async def main(agx, server, tool, arguments, expected):
    env = {k: os.environ[k] for k in FORWARDED_ENV if k in os.environ}
    params = StdioServerParameters(command=agx, args=["serve", server], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = [t.name for t in (await session.list_tools()).tools]
            if tool not in tools:
                print(f"FAIL  {server}: tools/list has no {tool}: {tools}")
                return 1
            result = await session.call_tool(tool, arguments)
            text = "".join(getattr(block, "text", "") for block in result.content)
            if result.is_error or expected not in text:
                print(f"FAIL  {server}: {tool} answered {text!r}, expected {expected!r} in it")
                return 1
            print(f"ok    {server}: tools/list has {tool}; {tool} answered {text[:80]!r}")
            return 0


agx, server, tool, arguments, expected = sys.argv[1:6]
sys.exit(anyio.run(main, agx, server, tool, json.loads(arguments), expected))
