#!/usr/bin/env bash
# Benchmark MCP 2026-07-28 (stateless) `tools/list` on a warm `agx serve` (docs/serve.md,
# "Protocol eras"): the fixture package agx/edge's server and a profile of it, each asked
# by a modern client (no `initialize`, `_meta` on every request) and, as the anchor in the
# same run, by a legacy client after `initialize` (benches/modern_measure.py).
# Target: a stateless `tools/list` on a warm `agx serve` under 0.2 ms (p50).
# Prints one line of JSON; exits 1 when the target is missed.
#
#   AGX_BIN  an agx binary to measure (default: a fresh `cargo build --release`)
#   CALLS    `tools/list` calls per path (default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

. scripts/agx-bin.sh
AGX="$(agx_bin release)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
mkdir -p "$HOME" "$TMP/project"
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/agx-edge"
SERVER=agx/edge/edge
printf '[servers.edge]\nserver = "%s"\n\n[profiles.bench]\nservers = ["edge"]\n' "$SERVER" \
    > "$TMP/project/agx.toml"

result="$(python3 "$ROOT/benches/modern_measure.py" "$AGX" "$SERVER" "$TMP/project" "${CALLS:-2000}")"
echo "$result"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(0 if r["modern_list_p50_ms"] < 0.2 else 1)' "$result"
