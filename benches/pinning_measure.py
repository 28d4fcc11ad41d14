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
import os
import statistics
import subprocess
import sys
import tempfile
import time

INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}


class Session:
    def __init__(self, agx, server, cwd):
        self.proc = subprocess.Popen([agx, "serve", server], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1, cwd=cwd)
        self.next_id = 0

    def initialize(self):
        self.request("initialize", INIT)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        for line in self.proc.stdout:
            reply = json.loads(line)
            if reply.get("id") == self.next_id and "method" not in reply:
                return reply
        raise SystemExit("the server closed its output")

    def timed_list(self):
        start = time.perf_counter()
        reply = self.request("tools/list", {})
        elapsed = (time.perf_counter() - start) * 1000
        if "result" not in reply:
            raise SystemExit(f"tools/list failed: {reply}")
        return elapsed, len(reply["result"]["tools"])

    def close(self):
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait()


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
