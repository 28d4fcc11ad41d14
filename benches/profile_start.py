"""Start-up measurements of a profile for benches/profile.sh. Standard library only.

usage: profile_start.py AGX PROFILE ROUNDS SERVER...

Each round starts `AGX serve @PROFILE` and `AGX serve SERVER` for every SERVER of it, one
after the other in the same round, and times spawn → `initialize` answered. The profile is
compared with its slowest server of that round. Then, in the profile's last session,
`tools/list` is timed 100 times once the first has been answered (the list agx keeps). Prints
one line of JSON: medians over the rounds, in ms.
"""
import json
import statistics
import subprocess
import sys
import time

INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}


class Session:
    def __init__(self, agx, served):
        start = time.perf_counter()
        self.proc = subprocess.Popen([agx, "serve", served], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.next_id = 0
        self.request("initialize", INIT)
        self.started_ms = (time.perf_counter() - start) * 1000
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
        raise SystemExit(f"{self.proc.args} closed its output")

    def timed(self, method):
        start = time.perf_counter()
        reply = self.request(method, {})
        if "result" not in reply:
            raise SystemExit(f"{method} failed: {reply}")
        return (time.perf_counter() - start) * 1000, reply

    def close(self):
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait()


def main():
    agx, profile, rounds, servers = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    profile_ms, slowest_ms = [], []
    for _ in range(rounds):
        alone = []
        for server in servers:
            s = Session(agx, server)
            alone.append(s.started_ms)
            s.close()
        p = Session(agx, f"@{profile}")
        profile_ms.append(p.started_ms)
        slowest_ms.append(max(alone))
        last = p
        if _ < rounds - 1:
            p.close()
    first_ms, reply = last.timed("tools/list")
    tools = len(reply["result"]["tools"])
    kept = [last.timed("tools/list")[0] for _ in range(100)]
    last.close()
    out = {
        "rounds": rounds,
        "servers": len(servers),
        "tools": tools,
        "profile_initialize_p50_ms": round(statistics.median(profile_ms), 2),
        "slowest_server_initialize_p50_ms": round(statistics.median(slowest_ms), 2),
    }
    out["added_initialize_p50_ms"] = round(
        out["profile_initialize_p50_ms"] - out["slowest_server_initialize_p50_ms"], 2)
    out["first_tools_list_ms"] = round(first_ms, 3)
    out["tools_list_p50_ms"] = round(statistics.median(kept), 3)
    print(json.dumps(out))


main()
