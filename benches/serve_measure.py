"""Measurements for benches/serve.sh. Standard library only.

usage: serve_measure.py "AGX SERVE COMMAND" ["PYTHON SERVER COMMAND" or ""] ["FLOOR COMMAND"]

The floor (benches/floor/) is the smallest rmcp stdio server with the same 50 tools: its start
is measured taking turns with agx's, and its idle memory the same way.

`agx serve` hands off to `agx-serve`; every figure is also taken with AGX_NO_SERVE_HANDOFF=1
(agx serving by itself) in the same run, so the hand-off's cost and gain are measured side by
side.
"""
import atexit
import io
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import time

INIT = json.dumps({
    "jsonrpc": "2.0", "id": 0, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "bench", "version": "1"}},
}) + "\n"
INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"
ARGS = {"text": "hello", "count": 1}


# Servers still running: a failed measurement (an assert, SystemExit) ends them on the way out.
LIVE = set()


@atexit.register
def end_live_servers():
    for proc in list(LIVE):
        proc.kill()
        proc.wait()


# A terminated run exits normally, so the servers above are ended too.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


class Session:
    def __init__(self, argv, env=None):
        self.start = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0, env=env)
        LIVE.add(self.proc)
        # Buffered reads: readline on the raw pipe would cost one system call per byte.
        self.out = io.BufferedReader(self.proc.stdout, buffer_size=1 << 16)
        self.next_id = 1

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        return self.read(rid)

    def read(self, rid):
        while True:
            line = self.out.readline()
            if not line:
                raise SystemExit(f"server closed stdout waiting for {rid}")
            msg = json.loads(line)
            if msg.get("id") == rid:
                if "error" in msg:
                    raise SystemExit(f"error: {msg}")
                return msg["result"]

    def initialize(self):
        self.proc.stdin.write(INIT.encode())
        result = self.read(0)
        elapsed = time.perf_counter() - self.start
        self.proc.stdin.write(INITIALIZED.encode())
        return elapsed, result

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        LIVE.discard(self.proc)


def ms(seconds):
    return seconds * 1000


IN_PROCESS = dict(os.environ, AGX_NO_SERVE_HANDOFF="1")


def startup(argv, runs, env=None):
    return startups([(argv, env)], runs)[0]


def startups(variants, runs):
    """Median start of each (argv, env) variant, taking turns so drift affects all alike."""
    times = [[] for _ in variants]
    for _ in range(runs):
        for i, (argv, env) in enumerate(variants):
            s = Session(argv, env)
            t, result = s.initialize()
            times[i].append(t)
            s.close()
    return [statistics.median(t) for t in times]


def exercise(argv, env=None):
    """A list and call workload, then memory once idle: (lists, calls, /proc status)."""
    s = Session(argv, env)
    s.initialize()
    tools = s.request("tools/list")["tools"]
    assert len(tools) == 50, len(tools)
    lists = []
    for _ in range(500):
        t0 = time.perf_counter()
        s.request("tools/list")
        lists.append(time.perf_counter() - t0)
    calls = []
    for i in range(200):
        t0 = time.perf_counter()
        r = s.request("tools/call", {"name": f"t{i % 5}_{i % 10}", "arguments": ARGS})
        calls.append(time.perf_counter() - t0)
        assert r["structuredContent"] == ARGS, r
    time.sleep(0.5)
    with open(f"/proc/{s.proc.pid}/status") as f:
        status = {line.split(":")[0]: int(line.split()[1]) for line in f
                  if line.startswith("Rss") or line.startswith("VmRSS")}
    s.close()
    return lists, calls, status


def main():
    agx = shlex.split(sys.argv[1])
    py = shlex.split(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
    floor = shlex.split(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None

    variants = [(agx, None), (agx, IN_PROCESS)] + ([(floor, None)] if floor else [])
    start, start_in_process, *floor_start = startups(variants, 50)
    lists, calls, status = exercise(agx)
    _, _, status_in_process = exercise(agx, IN_PROCESS)
    floor_status = exercise(floor)[2] if floor else None
    direct = []
    payload = (json.dumps(ARGS) + "\n").encode()
    for _ in range(200):
        t0 = time.perf_counter()
        subprocess.run(["cat"], input=payload, capture_output=True, check=True)
        direct.append(time.perf_counter() - t0)
    rss_kb = status["VmRSS"]

    overhead = statistics.median(calls) - statistics.median(direct)
    rows = [
        ("start -> initialize response (50 tools, 5 packages)", ms(start), "ms", 5.0),
        ("tools/list round trip", ms(statistics.median(lists)), "ms", 0.5),
        ("tools/call (cat) round trip", ms(statistics.median(calls)), "ms", None),
        ("spawning cat directly", ms(statistics.median(direct)), "ms", None),
        ("tools/call overhead over a direct spawn", ms(overhead), "ms", 2.0),
        ("idle RSS", rss_kb / 1024, "MB", 9.0),
        # RSS splits into private memory and clean pages of the agx binary and libc, which
        # every agx process shares through the page cache.
        ("  of which private (RssAnon)", status["RssAnon"] / 1024, "MB", None),
        ("  of which shared file pages (RssFile)", status["RssFile"] / 1024, "MB", None),
        ("agx serving by itself (AGX_NO_SERVE_HANDOFF=1): start", ms(start_in_process), "ms",
         None),
        ("  idle RSS", status_in_process["VmRSS"] / 1024, "MB", None),
        ("  of which private (RssAnon)", status_in_process["RssAnon"] / 1024, "MB", None),
    ]
    if floor:
        rows += [
            ("floor (rmcp, 50 tools, benches/floor): start", ms(floor_start[0]), "ms", None),
            ("  agx start / floor start", start / floor_start[0], "x", 2.0),
            ("  idle RSS", floor_status["VmRSS"] / 1024, "MB", None),
            ("  agx idle RSS / floor idle RSS", rss_kb / floor_status["VmRSS"], "x", None),
        ]
    failed = False
    print(f"{'measure':<55} {'median':>10}  target")
    for name, value, unit, target in rows:
        verdict = ""
        if target is not None:
            ok = value <= target
            failed |= not ok
            verdict = f"<= {target} {unit} {'ok' if ok else 'MISSED'}"
        print(f"{name:<55} {value:>7.3f} {unit:<2}  {verdict}")
    if py:
        py_start = startup(py, 10)
        print(f"{'Python SDK MCPServer: start -> initialize response':<55} {ms(py_start):>7.1f} ms")
        print(f"{'ratio Python / agx':<55} {py_start / start:>7.0f} x   (goal >= 200x)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
