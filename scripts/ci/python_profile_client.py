"""Sampling and elicitation from a wrapped server inside a profile, with the official MCP
Python SDK client: `agx serve @PROFILE` over stdio (docs/profiles.md).

Usage: python_profile_client.py AGX_BINARY PROFILE KEY

AGX_HOME and HOME come from the environment (scripts/ci/python-client.sh writes the profile:
its member KEY is a wrapped server with a filter, so agx proxies it, whose program asks the
client to sample and to elicit). The SDK's callbacks answer; the answers must reach the
member's tools. Each check prints `ok` or `FAIL`; the last line is the summary.
"""

import os
import sys
import traceback
import warnings

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning

from python_client import FORWARDED_ENV, Checks, text_of
from python_surface_client import MODEL_SAID, Elicitations, on_sampling

warnings.filterwarnings("ignore", category=MCPDeprecationWarning)


async def run(agx, profile, key, checks):
    env = {name: os.environ[name] for name in FORWARDED_ENV if name in os.environ}
    params = StdioServerParameters(command=agx, args=["serve", f"@{profile}"], env=env)
    elicitations = Elicitations()
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read, write, sampling_callback=on_sampling, elicitation_callback=elicitations
        ) as session:
            init = await session.initialize()
            checks.expect("initialize: the profile's name", init.server_info.name, f"@{profile}")
            tools = [tool.name for tool in (await session.list_tools()).tools]
            checks.expect_true(
                "tools/list: the wrapped member's tools under its key",
                f"{key}__test_sampling" in tools and f"{key}__test_elicitation" in tools,
                tools,
            )
            sampled = await session.call_tool(f"{key}__test_sampling", {"prompt": "Capital?"})
            checks.expect(
                "sampling/createMessage from the wrapped member: the answer reaches it",
                (text_of(sampled), sampled.is_error),
                (f"LLM response: {MODEL_SAID}", False),
            )
            for action, said in [
                ("accept", 'action=accept, content={"username": "ada", "email": "ada@example.com"}'),
                ("decline", "action=decline, content=null"),
            ]:
                elicitations.action = action
                result = await session.call_tool(
                    f"{key}__test_elicitation", {"message": f"please {action}"}
                )
                checks.expect(
                    f"elicitation/create from the wrapped member: {action} reaches it",
                    text_of(result),
                    f"User response: {said}",
                )
            checks.expect(
                "elicitation/create: the member's message reaches the callback",
                [r.message for r in elicitations.requests],
                ["please accept", "please decline"],
            )


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: python_profile_client.py AGX_BINARY PROFILE KEY")
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
