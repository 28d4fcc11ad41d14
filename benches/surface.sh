#!/usr/bin/env bash
# Benchmark the MCP surface beyond tools (release build), each figure with an anchor measured
# in the same run (benches/surface_measure.py):
#   - resources/read of a 1 MiB file-backed resource (target < 5 ms, timed to the last byte of
#     the response, unparsed; the figure with the driver's JSON parsing is shown beside it),
#     against `ping`;
#   - completion/complete from an enum of 10,000 values (target < 2 ms), against `ping`;
#   - a channel round trip tool -> agx -> client -> agx -> tool (target < 1 ms added), against
#     the same tool asking the same client directly over a socket pair.
# Prints a table; exits 1 when a target is missed.
#
#   AGX_BIN         an agx binary to measure (default: a fresh `cargo build --release`)
#   AGX_BENCH_KEEP  set: build the package and home, print their folder, keep it, measure nothing
#                   (for profiling `agx serve bench/surface/surface` by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

. scripts/agx-bin.sh
AGX="$(agx_bin release)"

TMP="$(mktemp -d)"
trap '[ -n "${AGX_BENCH_KEEP:-}" ] || rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
mkdir -p "$HOME"

PKG="$TMP/src/surface"
mkdir -p "$PKG/agx" "$PKG/data" "$PKG/bin"
cat > "$PKG/agx.toml" <<'TOML'
[package]
name = "bench/surface"
version = "1.0.0"
description = "Benchmark package: a 1 MiB resource, a 10,000-value enum, a channel tool"

[extension]
servers = ["surface"]
tools = ["ask"]
prompts = ["pick"]
resources = ["big"]
TOML
cat > "$PKG/agx/servers.toml" <<'TOML'
[surface]
tools = ["ask"]
prompts = ["pick"]
resources = ["big"]
TOML
cat > "$PKG/agx/resources.toml" <<'TOML'
[big]
uri = "bench://big"
mime_type = "text/plain"
path = "data/big.txt"
TOML
cat > "$PKG/agx/tools.toml" <<'TOML'
[ask]
description = "Sends `rounds` sampling requests on the channel, one at a time; their median round trip"
command = ["python3", "-S", "bin/ask.py"]
timeout = 120

[[ask.parameters]]
name = "rounds"
type = "integer"
required = true
TOML
{
    echo '[pick]'
    echo 'content = "Picked {{ value }}"'
    echo '[[pick.arguments]]'
    echo 'name = "value"'
    printf 'enum = ['
    seq -f '"v%05g", ' 0 9999 | tr -d '\n'
    echo ']'
} > "$PKG/agx/prompts.toml"
python3 -c 'import sys; sys.stdout.write(("0123456789abcdef" * 4 + "\n")[:64] * (1 << 14))' > "$PKG/data/big.txt"
cat > "$PKG/bin/ask.py" <<'PY'
"""Ask the client `rounds` times on the channel (AGX_CHANNEL_FD); print the median round trip."""
import json
import os
import socket
import statistics
import sys
import time

args = json.load(sys.stdin)
if args.get("__test__"):
    print(json.dumps({"ok": True}))
    sys.exit(0)
channel = socket.socket(fileno=int(os.environ["AGX_CHANNEL_FD"])).makefile("rwb", buffering=0)
reader = __import__("io").BufferedReader(channel)
params = {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 1}
times = []
for i in range(args["rounds"]):
    line = (json.dumps({"jsonrpc": "2.0", "id": i, "method": "sampling/createMessage", "params": params}) + "\n").encode()
    t0 = time.perf_counter()
    channel.write(line)
    reply = json.loads(reader.readline())
    times.append(time.perf_counter() - t0)
    assert reply.get("id") == i and "result" in reply, reply
print(json.dumps({"median_s": statistics.median(times)}))
PY

"$AGX" install --quiet "$PKG" >/dev/null
INSTALLED_ASK="$(find "$AGX_HOME" -path '*/bin/ask.py' -print -quit)"
[ -z "${AGX_BENCH_KEEP:-}" ] || { echo "kept: $TMP" >&2; exit 0; }
python3 "$ROOT/benches/surface_measure.py" "$AGX serve bench/surface/surface" "$INSTALLED_ASK"
