"""The conformance suite's tools that ask the client something: sampling and elicitation
through agx's channel (docs/tool-protocol.md, "The channel"). AGX_TOOL says which tool runs.
"""
import itertools
import json
import os
import socket
import sys


# The helper of docs/tool-protocol.md, copied as the docs suggest.
class ChannelError(Exception):
    def __init__(self, code, message):
        super().__init__(f"{message} (code {code})")
        self.code = code


class AgxChannel:
    def __init__(self):
        fd = int(os.environ["AGX_CHANNEL_FD"])
        self._file = socket.socket(fileno=fd).makefile("rwb")
        self._ids = itertools.count(1)

    def request(self, method, params):
        request_id = next(self._ids)
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            line = self._file.readline()
            if not line:
                raise ChannelError(-32603, "agx closed the channel")
            reply = json.loads(line)
            if reply.get("id") == request_id:
                break
        if "error" in reply:
            raise ChannelError(reply["error"]["code"], reply["error"]["message"])
        return reply["result"]

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _send(self, message):
        self._file.write((json.dumps(message) + "\n").encode())
        self._file.flush()


SEP1034_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {"type": "string", "description": "User status",
                   "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    },
}

SEP1330_SCHEMA = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": [
            {"const": "value1", "title": "First Option"},
            {"const": "value2", "title": "Second Option"},
            {"const": "value3", "title": "Third Option"},
        ]},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                       "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array",
                          "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "items": {"anyOf": [
            {"const": "value1", "title": "First Choice"},
            {"const": "value2", "title": "Second Choice"},
            {"const": "value3", "title": "Third Choice"},
        ]}},
    },
}


def text(value):
    return {"content": [{"type": "text", "text": value}]}


def elicited(channel, message, schema, label):
    answer = channel.request("elicitation/create", {"message": message, "requestedSchema": schema})
    return text(f"{label}: action={answer['action']}, content={json.dumps(answer.get('content'))}")


def tool(name, args, channel):
    if name == "test_sampling":
        answer = channel.request("sampling/createMessage", {
            "messages": [{"role": "user", "content": {"type": "text", "text": args["prompt"]}}],
            "maxTokens": 100,
        })
        content = answer["content"]
        blocks = content if isinstance(content, list) else [content]
        said = " ".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        return text(f"LLM response: {said}")
    if name == "test_elicitation":
        schema = {
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        }
        return elicited(channel, args["message"], schema, "User response")
    if name == "test_elicitation_sep1034_defaults":
        return elicited(channel, "Test client default value handling - please accept with defaults",
                        SEP1034_SCHEMA, "Elicitation completed")
    if name == "test_elicitation_sep1330_enums":
        return elicited(channel, "Test enum schema variants", SEP1330_SCHEMA, "Elicitation completed")
    return {"error": f"unknown tool {name}"}


def main():
    raw = sys.stdin.read()
    args = json.loads(raw) if raw.strip() else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True}))
        return
    try:
        result = tool(os.environ.get("AGX_TOOL", ""), args, AgxChannel())
    except ChannelError as e:
        result = {"error": f"the client could not answer: {e}"}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
