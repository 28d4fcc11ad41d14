"""Measurements for benches/pinning.sh. Standard library only.

usage: pinning_measure.py AGX SERVER ALLOW_DIR FILTER_DIR CALLS ROUNDS

`agx serve SERVER` three ways, each started in its own project folder:
- allow:   ALLOW_DIR's agx.toml says `on-change = "allow"` and gives no filter, so agx execs
           the server (nothing between: the anchor);
- pinned:  the default rule in a folder with no project, so agx proxies the server and
           checks every listed item against its pins and the poisoning scan;
- filtered: FILTER_DIR's agx.toml says `on-change = "allow"` with a filter that hides one
           tool: the proxy without pins (what the proxy costs by itself).
`tools/list` alternates between the three, CALLS times each; then ROUNDS start-ups of each
(spawn until `initialize` is answered), interleaved. Prints one line of JSON.
"""
import json
import statistics
import sys
import tempfile
import time

from mcp_session import Session


def timed_start(agx, server, cwd):
    start = time.perf_counter()
    s = Session(agx, server, cwd)
    s.initialize()
    elapsed = (time.perf_counter() - start) * 1000
    s.close()
    return elapsed


def main():
    agx, server, allow_dir, filter_dir = sys.argv[1:5]
    calls, rounds = int(sys.argv[5]), int(sys.argv[6])
    pinned_dir = tempfile.mkdtemp()
    dirs = {"allow": allow_dir, "pinned": pinned_dir, "filtered": filter_dir}
    sessions = {name: Session(agx, server, d) for name, d in dirs.items()}
    counts = {}
    for name, s in sessions.items():
        s.initialize()
        for _ in range(20):  # warm every path
            counts[name] = s.timed_list()[1]
    if counts["pinned"] != counts["allow"]:
        raise SystemExit(f"the pins withheld tools: {counts}")
    times = {name: [] for name in sessions}
    for _ in range(calls):
        for name, s in sessions.items():
            times[name].append(s.timed_list()[0])
    for s in sessions.values():
        s.close()
    starts = {name: [] for name in dirs}
    for _ in range(rounds):
        for name, d in dirs.items():
            starts[name].append(timed_start(agx, server, d))
    out = {"calls": calls, "rounds": rounds, "tools": counts["allow"]}
    for name in dirs:
        out[f"{name}_list_p50_ms"] = round(statistics.median(times[name]), 4)
        out[f"{name}_start_p50_ms"] = round(statistics.median(starts[name]), 3)
    out["list_added_p50_ms"] = round(out["pinned_list_p50_ms"] - out["allow_list_p50_ms"], 4)
    out["list_check_p50_ms"] = round(out["pinned_list_p50_ms"] - out["filtered_list_p50_ms"], 4)
    out["start_added_p50_ms"] = round(out["pinned_start_p50_ms"] - out["allow_start_p50_ms"], 3)
    out["list_ratio"] = round(out["pinned_list_p50_ms"] / out["allow_list_p50_ms"], 3)
    out["start_ratio"] = round(out["pinned_start_p50_ms"] / out["allow_start_p50_ms"], 3)
    print(json.dumps(out))


main()
