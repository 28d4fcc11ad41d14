#!/usr/bin/env python3
"""A minimal MCP stdio server (standard library only): one tool, `forecast`, computed from
its input. It reports whether the plugin's settings reached it (never their values)."""
import json
import os
import sys


def answer(request):
    method = request.get("method")
    if method == "initialize":
        return {
            "protocolVersion": request.get("params", {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "weather-tools-forecast", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {
            "tools": [
                {
                    "name": "forecast",
                    "description": "Chance of rain for a place and a day",
                    "inputSchema": {
                        "type": "object",
                        "properties": {"place": {"type": "string"}, "day": {"type": "integer"}},
                        "required": ["place"],
                    },
                }
            ]
        }
    if method == "tools/call":
        args = request.get("params", {}).get("arguments", {})
        place = str(args.get("place", ""))
        day = int(args.get("day", 0))
        result = {
            "place": place,
            "rain_chance": (sum(map(ord, place)) + 17 * day) % 101,
            "units": os.environ.get("FORECAST_UNITS", ""),
            "has_api_key": bool(os.environ.get("FORECAST_API_KEY")),
            "data_dir": os.environ.get("FORECAST_DATA", ""),
        }
        return {"content": [{"type": "text", "text": json.dumps(result, sort_keys=True)}]}
    if method == "ping":
        return {}
    raise LookupError(method)


for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    if "id" not in request:
        continue
    try:
        reply = {"jsonrpc": "2.0", "id": request["id"], "result": answer(request)}
    except LookupError as e:
        reply = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"unknown method {e}"}}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
