#!/usr/bin/env python3
"""packing_list (a command prompt): the prompt's arguments arrive as one JSON object on stdin;
stdout is the prompt as {"messages": [...]}."""

import json
import sys

BASICS = ["toothbrush", "phone charger", "passport or ID"]
BY_CLIMATE = [
    ["umbrella", "rain jacket"],
    ["sunscreen", "sunglasses", "hat"],
    ["warm sweater", "gloves"],
    ["light jacket", "comfortable shoes"],
]


def main():
    raw = sys.stdin.read()
    args = json.loads(raw) if raw.strip() else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True, "prompt": "packing_list"}))
        return
    destination = args.get("destination", "somewhere")
    nights = int(args.get("nights") or 3)
    climate = BY_CLIMATE[sum(map(ord, destination.lower())) % len(BY_CLIMATE)]
    items = BASICS + climate + [f"{nights + 1} sets of clothes"]
    text = (
        f"I am travelling to {destination} for {nights} nights. Check the forecast with the "
        f"get_forecast tool and adjust this packing checklist to the expected weather:\n"
        + "\n".join(f"- {item}" for item in items)
    )
    print(json.dumps({"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}))


if __name__ == "__main__":
    main()
