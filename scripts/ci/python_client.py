"""Drive `agx serve` with the official MCP Python SDK client (ClientSession over stdio_client).

Usage: python_client.py AGX_BINARY QUALIFIED_SERVER

AGX_HOME and HOME come from the environment (scripts/ci/python-client.sh points them into a
temp folder holding the installed agx/edge fixture). Each check prints `ok` or `FAIL` with
what differed; the last line is the `N passed, M failed` summary, and the exit code is 1 when
any check failed.
"""

import json
import os
import sys
import traceback
import warnings

import anyio
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

# The handshake-era session uses logging/setLevel on purpose (agx offers it for those versions).
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

# stdio_client passes only a safe subset of the environment; the server needs these too.
FORWARDED_ENV = ("AGX_HOME", "AGX_LOG", "HOME", "PATH")
# The versions agx serve negotiates (docs/serve.md, "protocol").
KNOWN_VERSIONS = ("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def expect(self, what, actual, expected):
        if actual == expected:
            self.passed += 1
            print(f"ok    {what}")
        else:
            self.failed += 1
            print(f"FAIL  {what}\n      expected: {expected!r}\n      actual:   {actual!r}")

    def expect_true(self, what, condition, detail):
        if condition:
            self.passed += 1
            print(f"ok    {what}")
        else:
            self.fail(what, detail)

    def fail(self, what, detail):
        self.failed += 1
        print(f"FAIL  {what}\n      {detail}")


def blocks(result):
    """The content blocks of a result as plain dicts, as they went over the wire."""
    return [block.model_dump(by_alias=True, exclude_none=True) for block in result.content]


async def settle(done):
    """The SDK hands notifications to callbacks in their own tasks: wait up to 1 s for them."""
    for _ in range(100):
        if done():
            return
        await anyio.sleep(0.01)


def text_of(result):
    return "".join(block.text for block in result.content if block.type == "text")


async def check_tools(session, checks, logs):
    listed = await session.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    checks.expect(
        "tools/list: the server's tools in order", list(tools)[:3], ["echo", "echo_argv", "text"]
    )
    for name in ("content", "fail_json", "crash", "progress", "logs"):
        checks.expect_true(f"tools/list has {name}", name in tools, f"listed: {list(tools)}")
    echo = tools.get("echo")
    if echo is not None:
        schema = echo.input_schema
        checks.expect("echo: inputSchema type", schema.get("type"), "object")
        checks.expect("echo: inputSchema required", schema.get("required"), ["message"])
        checks.expect(
            "echo: inputSchema property types",
            {name: prop.get("type") for name, prop in schema.get("properties", {}).items()},
            {"message": "string", "count": "integer"},
        )
        checks.expect("echo: title", echo.title, "Echo")
        checks.expect(
            "echo: readOnlyHint", echo.annotations and echo.annotations.read_only_hint, True
        )

    # stdin input, JSON output: the arguments come back as the result.
    arguments = {"message": "héllo wörld", "count": 3}
    result = await session.call_tool("echo", arguments)
    checks.expect("call echo: not an error", result.is_error, False)
    checks.expect("call echo: structuredContent", result.structured_content, arguments)
    try:
        checks.expect("call echo: text is the JSON result", json.loads(text_of(result)), arguments)
    except ValueError:
        checks.fail("call echo: text is the JSON result", f"not JSON: {text_of(result)!r}")

    # argv input.
    result = await session.call_tool("echo_argv", {"message": "from argv"})
    checks.expect("call echo_argv: not an error", result.is_error, False)
    checks.expect(
        "call echo_argv: the argument reached argv",
        result.structured_content,
        {"argv": {"message": "from argv"}},
    )

    # Plain text output.
    result = await session.call_tool("text", {})
    checks.expect("call text: text output", text_of(result), "plain text from text\n")

    # Content blocks pass through as they are.
    result = await session.call_tool("content", {})
    checks.expect(
        "call content: content blocks",
        [(block["type"], block.get("mimeType")) for block in blocks(result)],
        [("text", None), ("image", "image/png")],
    )

    # A JSON error and a crash are isError results, not protocol errors.
    result = await session.call_tool("fail_json", {})
    checks.expect("call fail_json: isError", result.is_error, True)
    checks.expect("call fail_json: carries the message", text_of(result), "no such city: Atlantis")
    result = await session.call_tool("crash", {})
    checks.expect("call crash: isError", result.is_error, True)
    checks.expect_true(
        "call crash: carries the stderr tail",
        "Traceback: something broke" in text_of(result),
        f"text: {text_of(result)!r}",
    )

    # A bad argument is refused before the tool starts, naming the argument.
    result = await session.call_tool("echo", {"message": 42})
    checks.expect("call echo with a bad argument: isError", result.is_error, True)
    checks.expect_true(
        "call echo with a bad argument: names it",
        "argument `message`" in text_of(result),
        f"text: {text_of(result)!r}",
    )

    # An unknown tool is a protocol error.
    try:
        await session.call_tool("no_such_tool", {})
        checks.fail("call an unknown tool: error -32602", "the call succeeded")
    except MCPError as error:
        checks.expect("call an unknown tool: error -32602", error.error.code, -32602)

    # Progress from the tool reaches the progress callback.
    updates = []

    async def on_progress(progress, total, message):
        updates.append((progress, total, message))

    result = await session.call_tool("progress", {}, progress_callback=on_progress)
    checks.expect("call progress: not an error", result.is_error, False)
    await settle(lambda: len(updates) >= 3)
    checks.expect(
        "call progress: progress notifications",
        sorted(updates),
        [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")],
    )

    # Log lines from the tool arrive as notifications/message, filtered by logging/setLevel.
    for level, expected in (
        ("debug", ["debug", "info", "warning", "error"]),
        ("warning", ["warning", "error"]),
    ):
        await session.set_logging_level(level)
        logs.clear()
        result = await session.call_tool("logs", {})
        checks.expect(f"call logs at level {level}: result", text_of(result).strip(), "logged")
        await settle(lambda count=len(expected): len(logs) >= count)
        checks.expect(
            f"call logs at level {level}: log notifications",
            [entry.level for entry in logs],
            expected,
        )
    checks.expect(
        "call logs: the logger name passes through",
        logs[-1].logger if logs else None,
        "edge-logger",
    )


async def check_prompts(session, checks):
    listed = await session.list_prompts()
    prompts = {prompt.name: prompt for prompt in listed.prompts}
    checks.expect(
        "prompts/list names in order", list(prompts), ["greet", "cmd_text", "cmd_messages"]
    )
    greet = prompts.get("greet")
    if greet is not None:
        checks.expect(
            "greet: arguments",
            [(argument.name, bool(argument.required)) for argument in greet.arguments or []],
            [("name", True), ("mood", False)],
        )

    result = await session.get_prompt("greet", {"name": "Ada", "mood": "curious"})
    checks.expect(
        "get greet: rendered message",
        [(message.role, message.content.type, message.content.text) for message in result.messages],
        [("user", "text", "Hello Ada! You seem curious.")],
    )

    result = await session.get_prompt("cmd_text", {"topic": "tides"})
    checks.expect_true(
        "get cmd_text: the command's output",
        len(result.messages) == 1 and "tides" in result.messages[0].content.text,
        f"messages: {result.messages!r}",
    )

    result = await session.get_prompt("cmd_messages", {})
    checks.expect(
        "get cmd_messages: the command's messages",
        [message.role for message in result.messages],
        ["user", "assistant"],
    )

    try:
        await session.get_prompt("greet", {})
        checks.fail("get greet without its required argument: error -32602", "it succeeded")
    except MCPError as error:
        checks.expect(
            "get greet without its required argument: error -32602", error.error.code, -32602
        )


async def check_auto_negotiation(params, checks):
    """The SDK's high-level Client (mode "auto", its default) probes `server/discover` first and
    falls back to `initialize`: each request must pass its validation of the negotiated version."""
    async with Client(params) as client:
        version = client.protocol_version
        checks.expect_true(
            "mcp.Client: a known protocol version",
            version in KNOWN_VERSIONS,
            f"negotiated {version!r}",
        )
        requests = (
            ("tools/list", lambda: client.list_tools()),
            ("tools/call", lambda: client.call_tool("echo", {"message": "auto"})),
            ("prompts/list", lambda: client.list_prompts()),
            ("prompts/get", lambda: client.get_prompt("greet", {"name": "Ada"})),
        )
        for method, send in requests:
            try:
                await send()
                checks.expect_true(f"mcp.Client ({version}): {method}", True, "")
            except Exception as error:  # the SDK's validation error says what the result lacks
                summary = " ".join(str(error).split())[:400]
                checks.fail(
                    f"mcp.Client ({version}): {method}", f"{type(error).__name__}: {summary}"
                )


async def run(agx, server, checks):
    env = {key: os.environ[key] for key in FORWARDED_ENV if key in os.environ}
    params = StdioServerParameters(command=agx, args=["serve", server], env=env)
    async with stdio_client(params) as (read, write):
        logs = []

        async def on_log(params):
            logs.append(params)

        async with ClientSession(read, write, logging_callback=on_log) as session:
            init = await session.initialize()
            checks.expect("initialize: serverInfo.name", init.server_info.name, server)
            checks.expect("initialize: serverInfo.version", init.server_info.version, "0.1.0")
            checks.expect(
                "initialize: instructions", init.instructions, "Fixture server for agx serve tests."
            )
            checks.expect_true(
                "initialize: tools and prompts capabilities",
                init.capabilities.tools is not None and init.capabilities.prompts is not None,
                f"capabilities: {init.capabilities!r}",
            )
            try:
                await session.send_ping()
                checks.expect_true("ping", True, "")
            except MCPError as error:
                checks.fail("ping", f"error {error.error.code}: {error.error.message}")
            await check_tools(session, checks, logs)
            await check_prompts(session, checks)
    await check_auto_negotiation(params, checks)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: python_client.py AGX_BINARY QUALIFIED_SERVER")
    agx, server = sys.argv[1], sys.argv[2]
    checks = Checks()
    try:
        anyio.run(run, agx, server, checks)
    except Exception:  # any protocol or transport failure is one failed check, with its trace
        checks.fail(
            "the session ran to the end", traceback.format_exc().rstrip().replace("\n", "\n      ")
        )
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
