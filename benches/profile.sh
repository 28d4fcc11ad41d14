#!/usr/bin/env bash
# Benchmark the filtering proxy of `agx serve` (docs/profiles.md): `tools/call` of `echo` of
# the real npm `@modelcontextprotocol/server-everything` (pinned), 1,000 calls through a
# filtered entry (agx proxies the server) against the same calls through an unfiltered one
# (agx replaces itself with the server: the direct path), interleaved call by call in the
# same run (benches/profile_measure.py). Target: the proxy adds < 0.3 ms to the median.
# Prints one line of JSON; exits 1 when the target is missed.
#
#   AGX_BIN  an agx binary to measure (default: a fresh `cargo build --release`)
#   CALLS    calls per path (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

. scripts/agx-bin.sh
AGX="$(agx_bin release)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
REAL_HOME="$HOME"
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
mkdir -p "$HOME"
# npm's download cache is shared with CI's, so only the first run downloads.
export npm_config_cache="${AGX_CI_CACHE:-$REAL_HOME/.cache/agx-ci}/npm-bench-cache"
"$AGX" install --quiet npm:@modelcontextprotocol/server-everything@2025.9.25
SERVER=npm/@modelcontextprotocol/server-everything/mcp-server-everything

result="$(python3 "$ROOT/benches/profile_measure.py" "$AGX" "$SERVER" "$AGX_HOME/filters-v1.toml" "${CALLS:-1000}")"
echo "$result"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(0 if r["added_p50_ms"] < 0.3 else 1)' "$result"
