"""The conformance suite's tools and prompts, one program: AGX_TOOL or AGX_PROMPT says which.

Tools follow agx's tool contract (JSON arguments on stdin, result on stdout, progress and log
lines on stderr: docs/tool-protocol.md); prompts print {"messages": [...]}.
"""
import json
import os
import sys
import time

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="
RESOURCE = {
    "type": "resource",
    "resource": {
        "uri": "test://embedded-resource",
        "mimeType": "text/plain",
        "text": "This is an embedded resource content.",
    },
}


def emit(kind, payload):
    sys.stderr.write(f"agx:{kind} {json.dumps(payload)}\n")
    sys.stderr.flush()


def content(*blocks):
    return {"content": list(blocks)}


def tool(name, args):
    if name == "test_simple_text":
        return content({"type": "text", "text": "This is a simple text response for testing."})
    if name == "test_error_handling":
        return {"error": "This tool intentionally returns an error for testing"}
    if name == "test_tool_with_logging":
        for message in ["Tool execution started", "Tool processing data", "Tool execution completed"]:
            emit("log", {"level": "info", "message": message})
            time.sleep(0.05)
        return content({"type": "text", "text": "Tool with logging executed successfully"})
    if name == "test_tool_with_progress":
        for step in (0, 50, 100):
            emit("progress", {"progress": step, "total": 100, "message": f"Completed step {step}"})
            time.sleep(0.05)
        return content({"type": "text", "text": "Tool with progress executed successfully"})
    if name == "test_image_content":
        return content({"type": "image", "data": PNG, "mimeType": "image/png"})
    if name == "test_audio_content":
        return content({"type": "audio", "data": WAV, "mimeType": "audio/wav"})
    if name == "test_embedded_resource":
        return content(RESOURCE)
    if name == "test_multiple_content_types":
        return content(
            {"type": "text", "text": "Multiple content types test:"},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            RESOURCE,
        )
    return {"error": f"unknown tool {name}"}


def prompt(name, args):
    if name == "test_prompt_with_embedded_resource":
        uri = args.get("resourceUri") or "test://example-resource"
        return {"messages": [
            {"role": "user", "content": {"type": "resource", "resource": {
                "uri": uri, "mimeType": "text/plain", "text": "Embedded resource content for testing."}}},
            {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}},
        ]}
    if name == "test_prompt_with_image":
        return {"messages": [
            {"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}},
            {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}},
        ]}
    return {"messages": [{"role": "user", "content": {"type": "text", "text": f"unknown prompt {name}"}}]}


def main():
    raw = sys.stdin.read()
    args = json.loads(raw) if raw.strip() else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True}))
        return
    if os.environ.get("AGX_PROMPT"):
        print(json.dumps(prompt(os.environ["AGX_PROMPT"], args)))
    else:
        print(json.dumps(tool(os.environ.get("AGX_TOOL", ""), args)))


main()
