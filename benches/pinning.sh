#!/usr/bin/env bash
# Benchmark pinned definitions (docs/security.md, "Pinned definitions"): `tools/list` and
# start-up (spawn until `initialize` is answered) of `agx serve` with pins checked (agx
# proxies the server, checks each listed tool against its pin and the poisoning scan)
# against `on-change = "allow"` with no filter (agx execs the server: the anchor), and
# against the proxy without pins (a filter, `on-change = "allow"`), interleaved in the same
# run (benches/pinning_measure.py). Two servers:
#   - the real npm `@modelcontextprotocol/server-everything` (pinned): node, whose start
#     keeps both of a 2-core machine's cores busy, so the proxy's own CPU shows in it;
#   - the rmcp floor of benches/serve.sh (benches/floor/) as a package's wrapped `command`:
#     it starts in a few ms and leaves the machine idle, so what is added is the proxy's
#     own cost.
# Start-ups run in a random order each round and are compared within the round
# (pinning_measure.py says why).
# Targets: pins add < 0.3 ms to `tools/list` and < 1 ms to start-up (npm server: the
# median of the per-round differences). The floor's start-ups vary by a fraction of a ms,
# so its difference is the proxy's own cost; node's vary by tens of ms, so read its
# difference with the standard error printed beside it. `*_proxy_cpu_p50_ms` is the CPU
# the proxy process spent up to `initialize`. Node's start-ups need hundreds of rounds to
# resolve a ms (the default: 300, about 7 minutes), and even then runs differ by more than
# their standard errors (docs/serve.md gives six): what the proxy adds is mostly waiting for
# a core while node's threads hold both.
# Prints one line of JSON (the floor's figures prefixed `floor_`); exits 1 when a target is
# missed.
#
#   AGX_BIN  an agx binary to measure (default: a fresh `cargo build --release`)
#   CALLS    `tools/list` calls per path (default 1000)
#   ROUNDS   start-ups per path (default 300; the floor's: 4 times as many)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

. scripts/agx-bin.sh
AGX="$(agx_bin release)"

# The floor is its own Cargo project (its own workspace and target folder, outside the
# clone), built before HOME moves: cargo finds its toolchain under the real one.
FLOOR_TARGET="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/floor-target"
CARGO_TARGET_DIR="$FLOOR_TARGET" cargo build --release --quiet --manifest-path "$ROOT/benches/floor/Cargo.toml"

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

npm_result="$(python3 "$ROOT/benches/pinning_measure.py" "$AGX" "$SERVER" "$TMP/allow" "$TMP/filtered" \
    "${CALLS:-1000}" "${ROUNDS:-300}")"

# The floor as a wrapped server.
FLOOR_PKG="$TMP/floor-package"
mkdir -p "$FLOOR_PKG/agx/servers" "$FLOOR_PKG/bin" "$TMP/floor-allow" "$TMP/floor-filtered"
cp "$FLOOR_TARGET/release/agx-bench-floor" "$FLOOR_PKG/bin/"
printf '[package]\nname = "bench/floor"\nversion = "1.0.0"\ndescription = "The rmcp floor, wrapped"\n[extension]\nservers = ["floor"]\n' \
    > "$FLOOR_PKG/agx.toml"
printf 'name = "floor"\ndescription = "The rmcp floor"\ncommand = ["bin/agx-bench-floor"]\n' \
    > "$FLOOR_PKG/agx/servers/floor.toml"
"$AGX" install --quiet "$FLOOR_PKG"
FLOOR=bench/floor/floor
printf '[servers.e]\nserver = "%s"\non-change = "allow"\n' "$FLOOR" > "$TMP/floor-allow/agx.toml"
printf '[servers.e]\nserver = "%s"\non-change = "allow"\ntools = { deny = ["nothing-is-called-this"] }\n' \
    "$FLOOR" > "$TMP/floor-filtered/agx.toml"
floor_result="$(python3 "$ROOT/benches/pinning_measure.py" "$AGX" "$FLOOR" "$TMP/floor-allow" \
    "$TMP/floor-filtered" "${CALLS:-1000}" "$(( ${ROUNDS:-300} * 4 ))")"

result="$(python3 -c 'import json, sys
npm, floor = json.loads(sys.argv[1]), json.loads(sys.argv[2])
npm.update({f"floor_{k}": v for k, v in floor.items()})
print(json.dumps(npm))' "$npm_result" "$floor_result")"
echo "$result"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(0 if r["list_added_p50_ms"] < 0.3 and r["start_added_p50_ms"] < 1 else 1)' "$result"
