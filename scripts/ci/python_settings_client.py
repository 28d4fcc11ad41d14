"""The entries agx writes for Gemini CLI and Codex give a tool its secret API key, through the
official MCP Python SDK client (docs/settings.md).

Usage: python_settings_client.py HOME KEY

For each client, read the entry `install-server` wrote under HOME, start its command with
only the entry's `env` on top of the SDK's default environment (Gemini strips variables
named like *KEY*, Codex clears the environment: neither passes a key on), call acme/quotes'
`quote` tool and check that it received KEY (by the fingerprint it answers with).
"""

import asyncio
import hashlib
import json
import pathlib
import sys
import tomllib

from mcp import ClientSession, StdioServerParameters, stdio_client


def entries(home):
    gemini = json.loads((home / ".gemini/settings.json").read_text())["mcpServers"]["quotes"]
    codex = tomllib.loads((home / ".codex/config.toml").read_text())["mcp_servers"]["quotes"]
    return {"gemini": gemini, "codex": codex}


async def fingerprint_through(entry):
    params = StdioServerParameters(
        command=entry["command"], args=entry["args"], env=entry.get("env") or {}
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("quote", {"symbol": "ACME"})
            if result.is_error:
                raise SystemExit(f"quote failed: {result.content}")
            return result.structured_content["key_sha256"]


def main():
    home, key = pathlib.Path(sys.argv[1]), sys.argv[2]
    want = hashlib.sha256(key.encode()).hexdigest()[:12]
    failed = 0
    for client, entry in entries(home).items():
        if key in json.dumps(entry):
            print(f"FAIL: the {client} entry holds the secret")
            failed += 1
            continue
        got = asyncio.run(fingerprint_through(entry))
        if got == want:
            print(f"ok:   the {client} entry gives the tool its key")
        else:
            print(f"FAIL: the {client} entry gave the tool a key with fingerprint {got}, not {want}")
            failed += 1
    sys.exit(1 if failed else 0)


main()
