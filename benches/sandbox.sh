#!/usr/bin/env bash
# What the sandbox costs (docs/sandbox.md): a tool call and a server start of a package that
# declares permissions (network "none", and a host list, which adds agx's proxy), with the
# sandbox on and off (AGX_SANDBOX=off, what --no-sandbox sets),
# in the same run. Builds the release binaries unless AGX is given.
#   benches/sandbox.sh [ROUNDS]      (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${1:-30}"
if [ -z "${AGX:-}" ]; then
    cargo build --release -q --bins
    AGX="$PWD/target/release/agx"
fi
WORK="$(mktemp -d)"
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
export HOME="$WORK/home" AGX_HOME="$WORK/home/agx" AGX_OFFICIAL_REGISTRY=off AGX_NO_PROGRESS=1
mkdir -p "$HOME"

PKG="$WORK/bench"
mkdir -p "$PKG/agx/tools" "$PKG/agx/servers" "$PKG/bin"
cat >"$PKG/agx.toml" <<'TOML'
[package]
name = "bench"
version = "1.0.0"
description = "Sandbox benchmark"

[extension]
servers = ["main"]
tools = ["t"]

[extension.permissions]
read = ["{home}/.config/bench"]
write = ["{data}/out"]
network = "none"
TOML
printf 'name = "t"\ndescription = "Prints ok"\ncommand = ["sh", "bin/t.sh"]\n' >"$PKG/agx/tools/t.toml"
printf 'name = "main"\ntools = ["t"]\n' >"$PKG/agx/servers/main.toml"
printf 'cat >/dev/null\necho ok\n' >"$PKG/bin/t.sh"
"$AGX" -q install "$PKG" >/dev/null
# The same package with a host list: its programs go through agx's network proxy, which the
# first call starts.
sed -e 's/^name = "bench"/name = "bench-hosts"/' -e 's/^network = "none"/network = ["example.org"]/' \
    "$PKG/agx.toml" >"$WORK/agx.toml" && mv "$WORK/agx.toml" "$PKG/agx.toml"
"$AGX" -q install "$PKG" >/dev/null

# One MCP session: initialize, then ROUNDS tool calls; prints the server start (time to the
# initialize answer) and the mean call, in microseconds.
session() {
    python3 - "$AGX" "$ROUNDS" "$1" <<'PY'
import json, subprocess, sys, time
agx, rounds, served = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t0 = time.perf_counter()
p = subprocess.Popen([agx, "serve", served], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
def ask(i, method, params):
    p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n")
    p.stdin.flush()
    while True:
        m = json.loads(p.stdout.readline())
        if m.get("id") == i:
            return m
ask(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
start = time.perf_counter() - t0
p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
t1 = time.perf_counter()
for i in range(rounds):
    r = ask(i + 1, "tools/call", {"name": "t", "arguments": {}})
    assert r["result"]["content"][0]["text"].strip() == "ok", r
call = (time.perf_counter() - t1) / rounds
p.stdin.close(); p.wait()
print(f"{start * 1e6:.0f} {call * 1e6:.0f}")
PY
}

# ROUNDS sessions of SERVED alternating sandbox on and off; prints the means.
compare() {
    local on_start=0 on_call=0 off_start=0 off_call=0 s c
    for _ in 1 2 3; do
        read -r s c < <(session "$1"); on_start=$((on_start + s)); on_call=$((on_call + c))
        read -r s c < <(AGX_SANDBOX=off session "$1"); off_start=$((off_start + s)); off_call=$((off_call + c))
    done
    echo "$2 server start: sandbox $((on_start / 3)) us, --no-sandbox $((off_start / 3)) us, difference $(((on_start - off_start) / 3)) us"
    echo "$2 tool call:    sandbox $((on_call / 3)) us, --no-sandbox $((off_call / 3)) us, difference $(((on_call - off_call) / 3)) us"
}
compare bench/main 'network "none":       '
compare bench-hosts/main 'network [example.org]:'
