"""A server of the conformance tools served to a 2026-07-28 client, with the official MCP
Python SDK's `Client`: `agx serve SERVED` over stdio (docs/serve.md, "Protocol eras").

Usage: python_modern_client.py AGX_BINARY SERVED PREFIX

SERVED is an agx package's server (`agx/conformance/everything`, whose tools ask through the
tool channel) or a profile (`@wrapped`, whose member is a wrapped server asking with legacy
requests); PREFIX is what the tool names start with (`wrapped__` for the profile's member
`wrapped`, empty for the package). AGX_HOME and HOME come from the environment
(scripts/ci/python-client.sh installs both). The SDK's default mode probes
`server/discover` and stays modern when it is answered, so the session has no `initialize`:
each request carries the version in its `_meta`. The tools' sampling and elicitation
requests reach the SDK as `input_required` answers, which it fulfils with its callbacks and
retries. Each check prints `ok` or `FAIL`; the last line is the summary.
"""

import os
import sys
import traceback

import anyio
from mcp import StdioServerParameters
from mcp.client.client import Client

from python_client import FORWARDED_ENV, Checks, text_of
from python_surface_client import MODEL_SAID, Elicitations, on_sampling


async def run(agx, served, prefix, checks):
    env = {name: os.environ[name] for name in FORWARDED_ENV if name in os.environ}
    params = StdioServerParameters(command=agx, args=["serve", served], env=env)
    # "auto": `server/discover` first, `initialize` only for a server that does not answer it.
    elicitations = Elicitations()
    async with Client(
        params, mode="auto", sampling_callback=on_sampling, elicitation_callback=elicitations
    ) as client:
        checks.expect("server/discover: the modern era", client.protocol_version, "2026-07-28")
        checks.expect("server/discover: the server's name", client.server_info.name, served)
        checks.expect_true(
            "server/discover: the tools capability",
            client.server_capabilities.tools is not None,
            client.server_capabilities,
        )
        tools = [tool.name for tool in (await client.list_tools()).tools]
        checks.expect_true(
            "tools/list without initialize: the tools",
            f"{prefix}test_simple_text" in tools,
            tools,
        )
        result = await client.call_tool(f"{prefix}test_simple_text", {})
        checks.expect(
            "tools/call without initialize: the tool's answer",
            (text_of(result), result.is_error),
            ("This is a simple text response for testing.", False),
        )
        sampled = await client.call_tool(f"{prefix}test_sampling", {"prompt": "Capital?"})
        checks.expect(
            "sampling/createMessage from the tool: input_required, the retry's answer reaches it",
            (text_of(sampled), sampled.is_error),
            (f"LLM response: {MODEL_SAID}", False),
        )
        elicited = await client.call_tool(f"{prefix}test_elicitation", {"message": "please accept"})
        checks.expect(
            "elicitation/create from the tool: input_required, the retry's answer reaches it",
            text_of(elicited),
            'User response: action=accept, content={"username": "ada", "email": "ada@example.com"}',
        )


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: python_modern_client.py AGX_BINARY SERVED PREFIX")
    checks = Checks()
    try:
        anyio.run(run, *sys.argv[1:], checks)
    except Exception:  # any protocol or transport failure is one failed check, with its trace
        checks.fail(
            "the session ran to the end", traceback.format_exc().rstrip().replace("\n", "\n      ")
        )
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
