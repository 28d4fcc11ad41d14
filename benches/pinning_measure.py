"""Measurements for benches/pinning.sh. Standard library only.

usage: pinning_measure.py AGX SERVER ALLOW_DIR FILTER_DIR CALLS ROUNDS

`agx serve SERVER` three ways, each started in its own project folder:
- allow:   ALLOW_DIR's agx.toml says `on-change = "allow"` and gives no filter, so agx execs
           the server (nothing between: the anchor);
- pinned:  the default rule in a folder with no project, so agx proxies the server and
           checks every listed item against its pins and the poisoning scan;
- filtered: FILTER_DIR's agx.toml says `on-change = "allow"` with a filter that hides one
           tool: the proxy without pins (what the proxy costs by itself).
`tools/list` alternates between the three, CALLS times each. Then ROUNDS rounds of one
start-up (spawn until `initialize` is answered) of each, in a fresh random order every
round: in a fixed order one path always follows the same other path's teardown, and drift
in the machine's speed favours whichever comes first. A start-up's added cost is taken per
round (pinned minus allow in the same round): the median of those differences, and their
mean with its standard error, which says how finely the run can tell a cost at all.
Also the CPU time the proxy process itself used up to `initialize` (Linux: schedstat of
the session's child process): that is what the proxy takes from a server whose start
keeps every core busy. Prints one line of JSON.
"""
import json
import os
import random
import statistics
import sys
import tempfile
import time

from mcp_session import Session


def proxy_cpu_ms(session):
    """CPU ms used so far by the proxy forked beside the server (the session process's
    children on Linux), or None where that cannot be read."""
    try:
        children = open(f"/proc/{session.proc.pid}/task/{session.proc.pid}/children").read()
    except OSError:
        return None
    total = 0
    for pid in children.split():
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                total += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0])
        except OSError:
            pass
    return total / 1e6


def timed_start(agx, server, cwd):
    start = time.perf_counter()
    s = Session(agx, server, cwd)
    s.initialize()
    elapsed = (time.perf_counter() - start) * 1000
    cpu = proxy_cpu_ms(s)
    s.close()
    return elapsed, cpu


def paired(rounds_a, rounds_b):
    """Median, mean and standard error of the per-round differences b - a."""
    d = [b - a for a, b in zip(rounds_a, rounds_b)]
    se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else float("nan")
    return round(statistics.median(d), 3), round(statistics.mean(d), 3), round(se, 3)


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
    cpus = {name: [] for name in dirs}
    order = list(dirs)
    for _ in range(rounds):
        random.shuffle(order)
        for name in order:
            elapsed, cpu = timed_start(agx, server, dirs[name])
            starts[name].append(elapsed)
            if cpu is not None:
                cpus[name].append(cpu)
    out = {"calls": calls, "rounds": rounds, "tools": counts["allow"]}
    for name in dirs:
        out[f"{name}_list_p50_ms"] = round(statistics.median(times[name]), 4)
        out[f"{name}_start_p50_ms"] = round(statistics.median(starts[name]), 3)
    for name in ("pinned", "filtered"):
        if cpus[name]:
            out[f"{name}_proxy_cpu_p50_ms"] = round(statistics.median(cpus[name]), 3)
    out["list_added_p50_ms"] = round(out["pinned_list_p50_ms"] - out["allow_list_p50_ms"], 4)
    out["list_check_p50_ms"] = round(out["pinned_list_p50_ms"] - out["filtered_list_p50_ms"], 4)
    (out["start_added_p50_ms"], out["start_added_mean_ms"],
     out["start_added_se_ms"]) = paired(starts["allow"], starts["pinned"])
    out["start_pins_added_p50_ms"] = paired(starts["filtered"], starts["pinned"])[0]
    out["list_ratio"] = round(out["pinned_list_p50_ms"] / out["allow_list_p50_ms"], 3)
    out["start_ratio"] = round(out["pinned_start_p50_ms"] / out["allow_start_p50_ms"], 3)
    print(json.dumps(out))


main()
