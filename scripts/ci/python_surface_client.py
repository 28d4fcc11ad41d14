"""Drive agx's resources, completions and two-way channel with the official MCP Python SDK
client: `agx serve agx/conformance/everything` over stdio.

Usage: python_surface_client.py AGX_BINARY WATCHED_FILE

AGX_HOME and HOME come from the environment (scripts/ci/python-client.sh installs the
agx/conformance fixture into a temp home); WATCHED_FILE is the installed copy of the file
behind `test://watched-resource`, which this script rewrites to trigger an update. The SDK's
`sampling_callback` and `elicitation_callback` answer the tools that ask through agx's
channel. Each check prints `ok` or `FAIL`; the last line is the `N passed, M failed` summary.
"""

import json
import os
import sys
import traceback
import warnings

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning

from python_client import FORWARDED_ENV, Checks, settle, text_of

# resources/subscribe is a handshake-era method; agx offers it to those versions on purpose.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

SERVER = "agx/conformance/everything"
WATCHED = "test://watched-resource"
MODEL_SAID = "Paris is the capital of France."


async def on_sampling(context, params):
    """The model's answer: a fixed text, so the tool's result can be compared."""
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text=MODEL_SAID),
        model="python-client-test-model",
        stop_reason="endTurn",
    )


class Elicitations:
    """Answers elicitation/create with the action the next check wants, and keeps the requests."""

    def __init__(self):
        self.action = "accept"
        self.requests = []

    async def __call__(self, context, params):
        self.requests.append(params)
        if self.action == "accept":
            return types.ElicitResult(
                action="accept", content={"username": "ada", "email": "ada@example.com"}
            )
        return types.ElicitResult(action=self.action)


async def check_resources(session, checks, watched_file, updates):
    listed = await session.list_resources()
    uris = [str(r.uri) for r in listed.resources]
    checks.expect(
        "resources/list: the static and watched resources",
        uris,
        ["test://static-text", "test://static-binary", WATCHED],
    )
    read = await session.read_resource("test://static-text")
    checks.expect(
        "resources/read: a file's text",
        read.contents[0].text,
        "This is the content of the static text resource.\n",
    )
    templates = await session.list_resource_templates()
    checks.expect(
        "resources/templates/list",
        [t.uri_template for t in templates.resource_templates],
        ["test://template/{id}/data"],
    )
    templated = await session.read_resource("test://template/456/data")
    checks.expect(
        "resources/read: a template's command",
        json.loads(templated.contents[0].text),
        {"id": "456", "templateTest": True, "data": "Data for ID: 456"},
    )

    await session.subscribe_resource(WATCHED)
    with open(watched_file, "a", encoding="utf-8") as f:
        f.write("changed by python_surface_client.py\n")
    # The watcher debounces file events; allow a loaded machine up to 10 s.
    for _ in range(10):
        await settle(lambda: bool(updates))
        if updates:
            break
    checks.expect(
        "resources/subscribe: notifications/resources/updated after the file changed",
        [str(u.params.uri) for u in updates[:1]],
        [WATCHED],
    )
    after = await session.read_resource(WATCHED)
    checks.expect_true(
        "resources/read after the update: the new text",
        after.contents[0].text.endswith("changed by python_surface_client.py\n"),
        f"read: {after.contents[0].text!r}",
    )


async def check_completions(session, checks):
    prompt = await session.complete(
        types.PromptReference(type="ref/prompt", name="test_prompt_with_arguments"),
        {"name": "arg1", "value": "te"},
    )
    checks.expect(
        "completion/complete: a prompt argument's enum by prefix",
        (prompt.completion.values, prompt.completion.total),
        (["test", "test_value", "testing"], 3),
    )
    template = await session.complete(
        types.ResourceTemplateReference(type="ref/resource", uri="test://template/{id}/data"),
        {"name": "id", "value": "4"},
    )
    checks.expect(
        "completion/complete: a template variable's enum", template.completion.values, ["456"]
    )


async def check_channel(session, checks, elicitations):
    sampled = await session.call_tool("test_sampling", {"prompt": "What is the capital?"})
    checks.expect(
        "tools/call test_sampling: the sampling_callback's answer reaches the tool",
        (text_of(sampled), sampled.is_error),
        (f"LLM response: {MODEL_SAID}", False),
    )
    expected = {
        "accept": 'action=accept, content={"username": "ada", "email": "ada@example.com"}',
        "decline": "action=decline, content=null",
        "cancel": "action=cancel, content=null",
    }
    for action, said in expected.items():
        elicitations.action = action
        result = await session.call_tool("test_elicitation", {"message": f"please {action}"})
        checks.expect(
            f"tools/call test_elicitation: the elicitation_callback's {action}",
            text_of(result),
            f"User response: {said}",
        )
    checks.expect(
        "elicitation/create: the tool's message reaches the callback",
        [r.message for r in elicitations.requests],
        ["please accept", "please decline", "please cancel"],
    )


async def run(agx, watched_file, checks):
    env = {key: os.environ[key] for key in FORWARDED_ENV if key in os.environ}
    params = StdioServerParameters(command=agx, args=["serve", SERVER], env=env)
    updates = []

    async def on_message(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(message)

    elicitations = Elicitations()
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read,
            write,
            sampling_callback=on_sampling,
            elicitation_callback=elicitations,
            message_handler=on_message,
        ) as session:
            init = await session.initialize()
            checks.expect_true(
                "initialize: resources (subscribe) and completions capabilities",
                init.capabilities.resources is not None
                and init.capabilities.resources.subscribe
                and init.capabilities.completions is not None,
                f"capabilities: {init.capabilities!r}",
            )
            await check_resources(session, checks, watched_file, updates)
            await check_completions(session, checks)
            await check_channel(session, checks, elicitations)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: python_surface_client.py AGX_BINARY WATCHED_FILE")
    agx, watched_file = sys.argv[1], sys.argv[2]
    checks = Checks()
    try:
        anyio.run(run, agx, watched_file, checks)
    except Exception:  # any protocol or transport failure is one failed check, with its trace
        checks.fail(
            "the session ran to the end", traceback.format_exc().rstrip().replace("\n", "\n      ")
        )
    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
