"""Measurements for benches/profile.sh. Standard library only.

usage: profile_measure.py AGX SERVER FILTERS_FILE CALLS ALLOW_DIR

Starts `AGX serve SERVER` twice: first in ALLOW_DIR, whose agx.toml serves it with
`on-change = "allow"` and no filter (agx execs the server: the direct path), then, after
writing a filter for SERVER into FILTERS_FILE, with one (agx proxies it). Both stay up; `tools/call` of `echo` alternates between them, CALLS times each. Prints
one line of JSON with the p50 and p99 of each path and what the proxy adds.
"""
import json
import statistics
import subprocess
import sys
import time

CALL = {"name": "echo", "arguments": {"message": "bench"}}


class Session:
    def __init__(self, agx, server, cwd=None):
        self.proc = subprocess.Popen([agx, "serve", server], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1, cwd=cwd)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
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

    def timed_call(self):
        start = time.perf_counter()
        reply = self.request("tools/call", CALL)
        elapsed = (time.perf_counter() - start) * 1000
        if "result" not in reply:
            raise SystemExit(f"echo failed: {reply}")
        return elapsed

    def close(self):
        # server-everything never exits on a closed stdin; the proxy ends it after a grace
        # period, the direct path never does.
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def main():
    agx, server, filters_file, calls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    direct = Session(agx, server, cwd=sys.argv[5])
    with open(filters_file, "w") as f:
        f.write(f'version = 1\n[servers."{server}".tools]\ndeny = ["printEnv"]\n')
    proxied = Session(agx, server)
    listed = proxied.request("tools/list", {})["result"]["tools"]
    assert not any(t["name"] == "printEnv" for t in listed), "the filter is not applied"
    for s in (direct, proxied):  # warm both paths
        for _ in range(20):
            s.timed_call()
    times = {"direct": [], "proxied": []}
    for _ in range(calls):
        times["direct"].append(direct.timed_call())
        times["proxied"].append(proxied.timed_call())
    direct.close()
    proxied.close()
    out = {"calls": calls}
    for name, values in times.items():
        out[f"{name}_p50_ms"] = round(statistics.median(values), 4)
        out[f"{name}_p99_ms"] = round(percentile(values, 99), 4)
    out["added_p50_ms"] = round(out["proxied_p50_ms"] - out["direct_p50_ms"], 4)
    out["added_p99_ms"] = round(out["proxied_p99_ms"] - out["direct_p99_ms"], 4)
    print(json.dumps(out))


main()
