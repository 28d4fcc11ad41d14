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
import subprocess
import sys
import time

INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}}


class Session:
    def __init__(self, agx, served, cwd, modern):
        self.proc = subprocess.Popen([agx, "serve", served], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1, cwd=cwd)
        self.modern = modern
        self.next_id = 0
        if not modern:
            self.request("initialize", INIT)
            self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        if self.modern:
            params = dict(params, _meta=META)
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
        if self.modern and reply["result"].get("resultType") != "complete":
            raise SystemExit(f"not a 2026-07-28 answer: {reply}")
        return elapsed, len(reply["result"]["tools"])

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    agx, server, profile_dir = sys.argv[1:4]
    calls = int(sys.argv[4])
    sessions = {
        "legacy": Session(agx, server, profile_dir, False),
        "modern": Session(agx, server, profile_dir, True),
        "profile_legacy": Session(agx, "@bench", profile_dir, False),
        "profile_modern": Session(agx, "@bench", profile_dir, True),
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
