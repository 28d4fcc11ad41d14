"""Measurements for benches/bridge.sh. Standard library only.

usage: bridge_measure.py REMOTE_URL "AGX SERVE COMMAND OF THE BRIDGED SERVER"

`tools/call` of the same tool, interleaved: through `agx serve`'s stdio↔HTTP bridge, and by a
direct Streamable HTTP client (one kept-alive connection, as the bridge's). The bridge's
overhead is the difference of the medians. Prints one line of JSON.
"""
import http.client
import json
import shlex
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse

ROUNDS = 400
CALL = {"name": "echo", "arguments": {"message": "bench"}}


class Direct:
    """A minimal Streamable HTTP client: POST each message, read a JSON or SSE answer."""

    def __init__(self, url):
        u = urllib.parse.urlsplit(url)
        self.path = u.path
        self.conn = http.client.HTTPConnection(u.hostname, u.port)
        self.conn.connect()
        # As reqwest does: without it, delayed ACKs add ~40 ms to each small POST.
        self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.session = None
        self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, message):
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        self.conn.request("POST", self.path, json.dumps(message), headers)
        response = self.conn.getresponse()
        self.session = response.getheader("Mcp-Session-Id") or self.session
        body = response.read().decode()
        if "id" not in message:
            return None
        if response.getheader("Content-Type", "").startswith("text/event-stream"):
            for line in body.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    reply = json.loads(line[5:])
                    if reply.get("id") == message["id"]:
                        return reply
            raise SystemExit(f"no answer in the event stream: {body[:200]}")
        return json.loads(body)


class Bridged:
    def __init__(self, command):
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.request({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, message):
        self.send(message)
        for line in self.proc.stdout:
            reply = json.loads(line)
            if reply.get("id") == message["id"]:
                return reply
        raise SystemExit("the bridge closed its output")


def timed(client_call, i):
    start = time.perf_counter()
    reply = client_call({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": CALL})
    elapsed = time.perf_counter() - start
    if "result" not in reply:
        raise SystemExit(f"tools/call failed: {reply}")
    return elapsed * 1000


def main():
    url, command = sys.argv[1], sys.argv[2]
    direct, bridged = Direct(url), Bridged(command)
    d, b = [], []
    for i in range(1, ROUNDS + 1):
        d.append(timed(direct.post, i))
        b.append(timed(bridged.request, i))
    bridged.proc.stdin.close()
    bridged.proc.wait()
    # The first calls warm both paths up.
    d, b = d[20:], b[20:]
    print(json.dumps({
        "rounds": len(d),
        "direct_median_ms": round(statistics.median(d), 3),
        "bridged_median_ms": round(statistics.median(b), 3),
        "overhead_ms": round(statistics.median(b) - statistics.median(d), 3),
    }))


main()
