"""Check `agx serve agx/edge/edge` with the official MCP Python SDK client (stdio).

Run by python-client.sh, which installs the fixture into a temporary AGX_HOME and sets
AGX_BIN. Prints one line per check; exits 1 on the first failure.
"""
import asyncio
import warnings
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

AGX = os.environ["AGX_BIN"]
# The SDK warns that MCP logging is deprecated (SEP-2577); agx still offers it.
warnings.filterwarnings("ignore", message=".*deprecated.*")


def get(obj, name):
    """Field `name` (snake_case, SDK 2.x) or its camelCase alias (SDK 1.x)."""
    if hasattr(obj, name):
        return getattr(obj, name)
    head, *rest = name.split("_")
    return getattr(obj, head + "".join(w.title() for w in rest))


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + (f": {detail}" if detail and not ok else ""))
    if not ok:
        sys.exit(1)


async def main():
    logs = []

    async def on_log(params):
        logs.append(params)

    params = StdioServerParameters(
        command=AGX,
        args=["serve", "agx/edge/edge"],
        env={**os.environ, "AGX_LOG": "warn"},
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, logging_callback=on_log) as session:
            init = await session.initialize()
            check("initialize: serverInfo", get(init, "server_info").name == "agx/edge/edge", init)
            check("initialize: instructions", init.instructions == "Fixture server for agx serve tests.")

            tools = (await session.list_tools()).tools
            names = [t.name for t in tools]
            check("tools/list", names[:3] == ["echo", "echo_argv", "text"], names)
            echo = tools[0]
            check("tools/list: inputSchema", get(echo, "input_schema")["required"] == ["message"], echo)

            r = await session.call_tool("echo", {"message": "hi", "count": 2})
            check("tools/call stdin input", get(r, "structured_content") == {"message": "hi", "count": 2}, r)
            r = await session.call_tool("echo_argv", {"message": "hi"})
            check("tools/call argv input", get(r, "structured_content") == {"argv": {"message": "hi"}}, r)
            r = await session.call_tool("text", {})
            check("tools/call text output", r.content[0].text == "plain text from text\n", r)
            r = await session.call_tool("fail_json", {})
            check("tools/call JSON error", get(r, "is_error") and r.content[0].text == "no such city: Atlantis", r)
            r = await session.call_tool("echo", {"count": "x"})
            check("tools/call invalid arguments", get(r, "is_error") and "argument `count`" in r.content[0].text, r)
            r = await session.call_tool("crash", {})
            check("tools/call crash", get(r, "is_error") and "Traceback" in r.content[0].text, r)

            steps = []

            async def on_progress(progress, total, message):
                steps.append((progress, total, message))

            r = await session.call_tool("progress", {}, progress_callback=on_progress)
            for _ in range(100):
                if len(steps) >= 3:
                    break
                await asyncio.sleep(0.01)
            check("progress notifications", sorted(steps) == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")], steps)

            await session.set_logging_level("warning")
            await session.call_tool("logs", {})
            for _ in range(100):
                if len(logs) >= 2:
                    break
                await asyncio.sleep(0.01)
            levels = sorted(str(m.level) for m in logs)
            check("log notifications honour logging/setLevel", levels == ["error", "warning"], levels)

            prompts = (await session.list_prompts()).prompts
            check("prompts/list", [p.name for p in prompts] == ["greet", "cmd_text", "cmd_messages"], prompts)
            p = await session.get_prompt("greet", {"name": "Ann", "mood": "calm"})
            check("prompts/get text", p.messages[0].content.text == "Hello Ann! You seem calm.", p)
            p = await session.get_prompt("cmd_messages", {})
            check("prompts/get command", [m.role for m in p.messages] == ["user", "assistant"], p)
            try:
                await session.get_prompt("greet", {})
                check("prompts/get missing argument is an error", False)
            except Exception as e:  # McpError
                check("prompts/get missing argument is an error", "name" in str(e), e)
    print("python client: all checks passed")


asyncio.run(main())
