#!/usr/bin/env bash
# Benchmark the filtering proxy of `agx serve` (docs/profiles.md): `tools/call` of `echo` of
# the real npm `@modelcontextprotocol/server-everything` (pinned), 1,000 calls through a
# filtered entry (agx proxies the server) against the same calls through an unfiltered one
# served with `on-change = "allow"` (agx replaces itself with the server: the direct path), interleaved call by call in the
# same run (benches/profile_measure.py). Target: the proxy adds < 0.3 ms to the median.
# Then a profile of five servers (server-everything and four fixture agx servers): spawn →
# `initialize` of `agx serve @five` against its slowest server started alone, round by round,
# and `tools/list` of the profile once started (benches/profile_start.py). Targets: the
# profile is at most 5 ms slower than its slowest server; `tools/list` < 1 ms.
# Prints one line of JSON per measurement; exits 1 when a target is missed.
#
#   AGX_BIN  an agx binary to measure (default: a fresh `cargo build --release`)
#   CALLS    calls per path (default 1000)
#   ROUNDS   start-up rounds of the profile (default 20)
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

# The direct path: no filter and no pins (`on-change = "allow"`), so agx execs the server.
mkdir -p "$TMP/allow"
printf '[servers.e]\nserver = "%s"\non-change = "allow"\n' "$SERVER" > "$TMP/allow/agx.toml"
result="$(python3 "$ROOT/benches/profile_measure.py" "$AGX" "$SERVER" "$AGX_HOME/filters-v1.toml" "${CALLS:-1000}" "$TMP/allow")"
echo "$result"
STATUS=0
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(0 if r["added_p50_ms"] < 0.3 else 1)' "$result" || STATUS=1

for fixture in agx-conformance agx-edge acme-docs notes; do
    "$AGX" install --quiet "$ROOT/registry-fixtures/packages/$fixture"
done
FIVE=("$SERVER" agx/conformance/everything agx/edge/edge acme/docs/docs notes/notes)
{
    echo "[profiles.five]"
    printf 'servers = ['; printf '"%s", ' "${FIVE[@]}"; echo ']'
} > "$AGX_HOME/profiles-v1.toml"
start="$(python3 "$ROOT/benches/profile_start.py" "$AGX" five "${ROUNDS:-20}" "${FIVE[@]}")"
echo "$start"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(0 if r["added_initialize_p50_ms"] <= 5 and r["tools_list_p50_ms"] < 1 else 1)' "$start" || STATUS=1
exit $STATUS
