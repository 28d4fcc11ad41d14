"""Measurements for benches/auth.sh. Standard library only.

usage: auth_measure.py ROUNDS "SIGNED-IN SERVE COMMAND" "OPEN SERVE COMMAND"
       auth_measure.py --once "SERVE COMMAND"

`tools/call` through two `agx serve` bridges, interleaved call by call: one to a remote that
wants a sign-in (agx attaches the kept token), one to the same server run with no sign-in.
The sign-in's cost per call is the difference of the medians. Prints one line of JSON.
`--once`: start the bridge, initialize, call once, stop (for hyperfine).
"""
import json
import shlex
import statistics
import subprocess
import sys
import time

CALL = {"name": "whoami", "arguments": {}}


class Bridge:
    def __init__(self, command):
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the bridge closed its output")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise SystemExit("the bridge answered an error: %s" % answer["error"])
                return answer["result"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def timed_call(bridge):
    start = time.perf_counter()
    bridge.request("tools/call", CALL)
    return (time.perf_counter() - start) * 1000


def main():
    if sys.argv[1] == "--once":
        bridge = Bridge(sys.argv[2])
        bridge.request("tools/call", CALL)
        bridge.close()
        return
    rounds = int(sys.argv[1])
    signed, open_ = Bridge(sys.argv[2]), Bridge(sys.argv[3])
    for _ in range(20):  # warm both connections
        timed_call(signed), timed_call(open_)
    times = {"signed": [], "open": []}
    for _ in range(rounds):
        times["signed"].append(timed_call(signed))
        times["open"].append(timed_call(open_))
    signed.close(), open_.close()
    medians = {k: statistics.median(v) for k, v in times.items()}
    print(json.dumps({
        "rounds": rounds,
        "median_ms_signed_in": round(medians["signed"], 3),
        "median_ms_no_sign_in": round(medians["open"], 3),
        "added_ms": round(medians["signed"] - medians["open"], 3),
    }))


main()
