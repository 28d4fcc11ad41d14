"""One MCP session with `agx serve` on stdio, for the bench measurement scripts (standard
library only): newline-delimited JSON-RPC, spoken in the 2025 era (`initialize` first) or
statelessly as MCP 2026-07-28 (`modern`: the version, capabilities and client in each
request's `_meta`).
"""
import json
import subprocess
import time

INIT = {"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}}


class Session:
    def __init__(self, agx, served, cwd=None, modern=False):
        self.proc = subprocess.Popen([agx, "serve", served], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1, cwd=cwd)
        self.modern = modern
        self.next_id = 0

    def initialize(self):
        self.request("initialize", INIT)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

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

    def timed(self, method, params):
        """The milliseconds `method` took, and its result (an error ends the bench)."""
        start = time.perf_counter()
        reply = self.request(method, params)
        elapsed = (time.perf_counter() - start) * 1000
        if "result" not in reply:
            raise SystemExit(f"{method} failed: {reply}")
        if self.modern and reply["result"].get("resultType") != "complete":
            raise SystemExit(f"not a 2026-07-28 answer: {reply}")
        return elapsed, reply["result"]

    def timed_list(self):
        elapsed, result = self.timed("tools/list", {})
        return elapsed, len(result["tools"])

    def close(self):
        # server-everything never exits on a closed stdin; the proxy ends it after a grace
        # period, the direct path never does.
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait()
