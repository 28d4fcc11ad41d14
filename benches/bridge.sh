#!/usr/bin/env bash
# Benchmark `agx serve`'s stdio↔Streamable HTTP bridge (release build): `tools/call` of the
# agx/edge fixture's `echo` served by `agx serve --http` on loopback, reached through the
# bridge (a remote server definition, as an MCP registry remote becomes) against a direct
# Streamable HTTP client on one kept-alive connection, interleaved call by call
# (benches/bridge_measure.py). Target: the bridge adds < 1 ms to the median.
# Prints one line of JSON; exits 1 when the target is missed.
#
#   AGX_BIN  an agx binary to measure (default: a fresh `cargo build --release`)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

. scripts/agx-bin.sh
AGX="$(agx_bin release)"

TMP="$(mktemp -d)"
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
mkdir -p "$HOME"
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/agx-edge"

# The remote: agx serve --http on a free port, announced on stderr.
AGX_LOG=info "$AGX" serve agx/edge/edge --http 127.0.0.1:0 2> "$TMP/remote.log" &
REMOTE_PID=$!
trap 'kill $REMOTE_PID 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$TMP/remote.log" && break; sleep 0.05; done
URL="$(grep -o 'http://[^ ]*/mcp' "$TMP/remote.log" | head -n1)"

PKG="$TMP/src/remote"
mkdir -p "$PKG/agx/servers"
cat > "$PKG/agx.toml" <<'TOML'
[package]
name = "bench/remote"
version = "1.0.0"
description = "Benchmark package: the agx/edge fixture, remote"

[extension]
servers = ["remote"]
TOML
printf 'name = "remote"\nurl = "%s"\nheaders = { X-Bench = "1" }\n' "$URL" > "$PKG/agx/servers/remote.toml"
"$AGX" install --quiet "$PKG"

result="$(python3 "$ROOT/benches/bridge_measure.py" "$URL" "$AGX serve bench/remote")"
echo "$result"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(0 if r["overhead_ms"] < 1.0 else 1)' "$result"
