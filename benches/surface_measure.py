"""Measurements for benches/surface.sh. Standard library only.

usage: surface_measure.py "AGX SERVE COMMAND" CHANNEL_TOOL_SCRIPT

Each figure is taken with its anchor in the same run, so the ratio holds on a loaded machine:
  - resources/read of a 1 MiB file-backed resource, against a `ping` round trip: timed to the
    last byte of the response (agx's share), and again with the response parsed;
  - completion/complete from an enum of 10,000 values, against a `ping` round trip;
  - a channel round trip (tool -> agx -> client -> agx -> tool, a sampling request the client
    answers at once), against the same tool asking the same client directly over a socket.
The channel tool times its own requests (bench/surface's `ask`, CHANNEL_TOOL_SCRIPT).
"""
import atexit
import io
import json
import os
import shlex
import socket
import statistics
import subprocess
import sys
import time

ROUNDS = 300  # channel requests per run of the tool
LIVE = set()


@atexit.register
def end_live_servers():
    for proc in list(LIVE):
        proc.kill()
        proc.wait()


def answer_sampling(request):
    """The client's answer to a sampling request: at once, a fixed text."""
    return {"jsonrpc": "2.0", "id": request["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "ok"},
        "model": "bench", "stopReason": "endTurn"}}


class Session:
    """`agx serve` over stdio, as a client that declares sampling and answers it."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        LIVE.add(self.proc)
        self.out = io.BufferedReader(self.proc.stdout, buffer_size=1 << 20)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18",
                                    "capabilities": {"sampling": {}},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    def request(self, method, params=None):
        self.next_id += 1
        rid = self.next_id
        message = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            line = self.out.readline()
            if not line:
                raise SystemExit(f"agx serve closed stdout waiting for {method}")
            msg = json.loads(line)
            if msg.get("method") == "sampling/createMessage" and "id" in msg:
                self.send(answer_sampling(msg))
            elif msg.get("id") == rid and "method" not in msg:
                if "error" in msg:
                    raise SystemExit(f"{method}: {msg['error']}")
                return msg["result"]

    def request_unparsed(self, method, params):
        """The response's bytes, read but not parsed: what agx costs without the driver's JSON
        decoding (a 1 MiB answer takes Python longer to parse than agx to produce)."""
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        line = self.out.readline()
        head = b'{"jsonrpc":"2.0","id":%d,"result":' % rid
        if not line.startswith(head):
            raise SystemExit(f"{method}: not the expected result: {line[:200]!r}")
        return len(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        LIVE.discard(self.proc)


def timed(runs, send):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        send()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def direct_channel(tool_script):
    """The tool's median round trip asking this client directly over a socket pair."""
    ours, theirs = socket.socketpair()
    os.set_inheritable(theirs.fileno(), True)
    tool = subprocess.Popen(
        ["python3", "-S", tool_script],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        pass_fds=(theirs.fileno(),),
        env=dict(os.environ, AGX_CHANNEL_FD=str(theirs.fileno())),
    )
    theirs.close()
    tool.stdin.write(json.dumps({"rounds": ROUNDS}).encode())
    tool.stdin.close()
    lines = ours.makefile("rwb", buffering=0)
    reader = io.BufferedReader(lines)
    while True:
        line = reader.readline()
        if not line:
            break
        lines.write((json.dumps(answer_sampling(json.loads(line))) + "\n").encode())
    out = tool.stdout.read()
    tool.wait()
    return json.loads(out)["median_s"]


def main():
    agx = shlex.split(sys.argv[1])
    tool_script = sys.argv[2]
    s = Session(agx)

    big = s.request("resources/read", {"uri": "bench://big"})
    assert len(big["contents"][0]["text"]) == 1 << 20, "the resource is 1 MiB of text"
    values = s.request("completion/complete", {
        "ref": {"type": "ref/prompt", "name": "pick"},
        "argument": {"name": "value", "value": "v09"}})["completion"]
    assert values["total"] == 1000 and len(values["values"]) == 100, values

    ping = timed(1000, lambda: s.request("ping"))
    read = timed(200, lambda: s.request("resources/read", {"uri": "bench://big"}))
    read_raw = timed(200, lambda: s.request_unparsed("resources/read", {"uri": "bench://big"}))
    complete = timed(500, lambda: s.request("completion/complete", {
        "ref": {"type": "ref/prompt", "name": "pick"},
        "argument": {"name": "value", "value": "v09"}}))
    called = s.request("tools/call", {"name": "ask", "arguments": {"rounds": ROUNDS}})
    through_agx = called["structuredContent"]["median_s"]
    s.close()
    direct = direct_channel(tool_script)

    ms = 1000
    rows = [
        ("ping round trip (anchor)", ping * ms, None, None),
        ("resources/read, 1 MiB file, response read unparsed", read_raw * ms, 5.0,
         read_raw / ping),
        ("resources/read, 1 MiB file, response parsed by the driver", read * ms, None,
         read / ping),
        ("completion/complete, enum of 10,000 (prefix: 1,000 match)", complete * ms, 2.0,
         complete / ping),
        ("channel round trip, tool asking the client directly (anchor)", direct * ms, None,
         None),
        ("channel round trip, tool -> agx -> client -> agx -> tool", through_agx * ms, None,
         through_agx / direct),
        ("  added by agx", (through_agx - direct) * ms, 1.0, None),
    ]
    failed = False
    print(f"{'measure (median)':<64} {'ms':>8} {'x anchor':>9}  target")
    for name, value, target, ratio in rows:
        verdict = ""
        if target is not None:
            ok = value < target
            failed |= not ok
            verdict = f"< {target} ms {'ok' if ok else 'MISSED'}"
        shown = f"{ratio:>8.1f}x" if ratio is not None else " " * 9
        print(f"{name:<64} {value:>8.3f} {shown}  {verdict}")
    sys.exit(1 if failed else 0)


main()
