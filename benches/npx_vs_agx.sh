#!/usr/bin/env bash
# Benchmark: start → `initialize` answered, for @modelcontextprotocol/server-everything
# launched by `agx serve` (installed with `agx install npm:…`, run with `node` on its bin)
# against the same package launched with `npx -y` from a warm npm cache. Target: agx at
# least 3× faster. Each run starts the server, sends `initialize`, waits for the answer and
# kills it; the clock runs inside one Python driver (benches/npx_measure.py) for both.
#
#   AGX_BIN   agx binary (default: a fresh `cargo build --release`)
#   VERSION   server-everything version (default: the one tests/it/ecosystem.rs pins)
#   RUNS      timed runs of each (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
VERSION="${VERSION:-2025.9.25}"
RUNS="${RUNS:-20}"
PACKAGE="@modelcontextprotocol/server-everything"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# A private npm cache and agx home; the certificates and proxies of the machine stay.
export AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
export npm_config_cache="$TMP/npm-cache" npm_config_update_notifier=false

"$AGX" -q install "npm:$PACKAGE@$VERSION"
SERVER="npm/$PACKAGE/mcp-server-everything"
# Warm npx's cache: the first `npx -y` downloads the package, later ones reuse it.
python3 benches/npx_measure.py 1 "$AGX serve $SERVER" "npx -y $PACKAGE@$VERSION" >/dev/null

python3 benches/npx_measure.py "$RUNS" "$AGX serve $SERVER" "npx -y $PACKAGE@$VERSION"
