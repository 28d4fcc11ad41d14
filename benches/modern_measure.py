"""Measurements for benches/modern.sh. Standard library only.

usage: modern_measure.py AGX SERVER PROFILE_DIR CALLS

`tools/list` on a warm `agx serve`, spoken to in both MCP eras on stdio, interleaved:
- legacy:          `agx serve SERVER` after `initialize` (the anchor);
- modern:          `agx serve SERVER` asked statelessly (MCP 2026-07-28: no `initialize`,
                   version, capabilities and client in each request's `_meta`);
- profile_legacy / profile_modern: the same two against `agx serve @bench`, a profile of
                   SERVER, started in PROFILE_DIR (the era adapter in front of the profile).
Prints one line of JSON.
"""
import json
import statistics
import sys


from mcp_session import Session


def main():
    agx, server, profile_dir = sys.argv[1:4]
    calls = int(sys.argv[4])
    sessions = {
        "legacy": Session(agx, server, profile_dir).initialize(),
        "modern": Session(agx, server, profile_dir, modern=True),
        "profile_legacy": Session(agx, "@bench", profile_dir).initialize(),
        "profile_modern": Session(agx, "@bench", profile_dir, modern=True),
    }
    counts = {}
    for name, s in sessions.items():
        for _ in range(50):  # warm every path
            counts[name] = s.timed_list()[1]
    if len(set(counts.values())) != 1:
        raise SystemExit(f"the paths list different tools: {counts}")
    times = {name: [] for name in sessions}
    for _ in range(calls):
        for name, s in sessions.items():
            times[name].append(s.timed_list()[0])
    for s in sessions.values():
        s.close()
    out = {"calls": calls, "tools": counts["legacy"]}
    for name in sessions:
        out[f"{name}_list_p50_ms"] = round(statistics.median(times[name]), 4)
    out["modern_ratio"] = round(out["modern_list_p50_ms"] / out["legacy_list_p50_ms"], 3)
    out["profile_modern_ratio"] = round(
        out["profile_modern_list_p50_ms"] / out["profile_legacy_list_p50_ms"], 3)
    print(json.dumps(out))


main()
