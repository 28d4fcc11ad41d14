#!/usr/bin/env python3
"""Text operations: two tools in one script, chosen by the first argument."""
import json
import sys

TOOLS = [
    {
        "name": "upper",
        "description": "Upper-case a text",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The text"}},
            "required": ["text"],
        },
    },
    {
        "name": "count_words",
        "description": "Count the words of a text",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The text"}},
            "required": ["text"],
        },
    },
]


def main():
    args = sys.argv[1:]
    if args == ["--fractalic-dump-multi-schema"]:
        print(json.dumps(TOOLS))
        return
    # `textops.py TOOL JSON`; the self-test may come with or without the tool's name.
    tool = args[0] if len(args) == 2 else None
    params = json.loads(args[-1]) if args else {}
    if params.get("__test__"):
        print(json.dumps({"success": True, "_simple": True}))
        return
    if tool == "upper":
        print(json.dumps({"text": params["text"].upper()}))
    elif tool == "count_words":
        print(json.dumps({"words": len(params["text"].split())}))
    else:
        print(json.dumps({"error": f"unknown tool: {tool}"}))
        sys.exit(1)


main()
