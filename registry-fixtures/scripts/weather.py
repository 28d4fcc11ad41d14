#!/usr/bin/env python3
"""Current weather for a place (simulated data)."""
import json
import sys

SCHEMA = {
    "name": "weather",
    "description": "Current weather for a place (simulated data)",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city, e.g. Oslo"},
            "units": {"type": "string", "enum": ["metric", "imperial"], "description": "Units"},
        },
        "required": ["city"],
    },
}


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '{"__test__": true}':
        print(json.dumps({"success": True, "_simple": True}))
        return
    if len(sys.argv) == 2 and sys.argv[1] == "--fractalic-dump-schema":
        print(json.dumps(SCHEMA, ensure_ascii=False))
        return
    try:
        if len(sys.argv) != 2:
            raise ValueError("Expected exactly one JSON argument")
        params = json.loads(sys.argv[1])
        city = params["city"]
        if city == "Atlantis":
            raise ValueError("no such city: Atlantis")
        celsius = len(city) * 3 % 35
        if params.get("units") == "imperial":
            print(json.dumps({"city": city, "temperature": celsius * 9 / 5 + 32, "unit": "F"}))
        else:
            print(json.dumps({"city": city, "temperature": celsius, "unit": "C"}))
    except Exception as e:
        print(json.dumps({"error": str(e)}, ensure_ascii=False))
        sys.exit(1)


if __name__ == "__main__":
    main()
