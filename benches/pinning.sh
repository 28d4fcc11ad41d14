#!/usr/bin/env bash
# Benchmark pinned definitions (docs/security.md, "Pinned definitions") on the real npm
# `@modelcontextprotocol/server-everything` (pinned): `tools/list` and start-up (spawn until
# `initialize` is answered) of `agx serve` with pins checked (agx proxies the server, checks
# each listed tool against its pin and the poisoning scan) against `on-change = "allow"`
# with no filter (agx execs the server: the anchor), and against the proxy without pins (a
# filter, `on-change = "allow"`), interleaved in the same run (benches/pinning_measure.py).
# Targets: pins add < 0.3 ms to `tools/list` and < 1 ms to start-up.
# Prints one line of JSON; exits 1 when a target is missed.
#
#   AGX_BIN  an agx binary to measure (default: a fresh `cargo build --release`)
#   CALLS    `tools/list` calls per path (default 1000)
#   ROUNDS   start-ups per path (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

. scripts/agx-bin.sh
AGX="$(agx_bin release)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
REAL_HOME="$HOME"
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
mkdir -p "$HOME" "$TMP/allow" "$TMP/filtered"
# npm's download cache is shared with CI's, so only the first run downloads.
export npm_config_cache="${AGX_CI_CACHE:-$REAL_HOME/.cache/agx-ci}/npm-bench-cache"
"$AGX" install --quiet npm:@modelcontextprotocol/server-everything@2025.9.25
SERVER=npm/@modelcontextprotocol/server-everything/mcp-server-everything
printf '[servers.e]\nserver = "%s"\non-change = "allow"\n' "$SERVER" > "$TMP/allow/agx.toml"
printf '[servers.e]\nserver = "%s"\non-change = "allow"\ntools = { deny = ["nothing-is-called-this"] }\n' \
    "$SERVER" > "$TMP/filtered/agx.toml"

result="$(python3 "$ROOT/benches/pinning_measure.py" "$AGX" "$SERVER" "$TMP/allow" "$TMP/filtered" \
    "${CALLS:-1000}" "${ROUNDS:-30}")"
echo "$result"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(0 if r["list_added_p50_ms"] < 0.3 and r["start_added_p50_ms"] < 1 else 1)' "$result"
