#!/usr/bin/env bash
# Run the official MCP conformance suite (npm @modelcontextprotocol/conformance, on Node 22
# from the npm package node@22) against `agx serve --http` serving the fixture package
# agx/conformance. Scenarios for features agx does not offer (resources, sampling,
# elicitation, completions) are listed in conformance-baseline.yml; any other failure, or a
# baseline entry that starts passing, fails the run.
#
#   AGX_CONFORMANCE_CACHE  folder for the npm packages (default: $AGX_CI_CACHE/conformance,
#                          or .ci/cache/conformance)
#   AGX_BIN                the agx binary (default: target/debug/agx, built when missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

CACHE="${AGX_CONFORMANCE_CACHE:-${AGX_CI_CACHE:-$ROOT/.ci/cache}/conformance}"
mkdir -p "$CACHE"
if [[ ! -x "$CACHE/node_modules/.bin/conformance" || ! -x "$CACHE/node_modules/node/bin/node" ]]; then
    echo "==> npm install node@22 @modelcontextprotocol/conformance into $CACHE"
    npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error node@22 @modelcontextprotocol/conformance
fi
export PATH="$CACHE/node_modules/.bin:$CACHE/node_modules/node/bin:$PATH"

AGX="${AGX_BIN:-$ROOT/target/debug/agx}"
if [[ ! -x "$AGX" ]]; then
    cargo build --quiet
fi
AGX="$(cd "$(dirname "$AGX")" && pwd)/$(basename "$AGX")"

TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 NO_COLOR=1 AGX_LOG=warn
mkdir -p "$HOME"
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/agx-conformance"

# Port 0: the OS picks a free port; agx prints the URL it listens on.
"$AGX" serve agx/conformance/everything --http 127.0.0.1:0 2>"$TMP/serve.err" &
SERVER_PID=$!
URL=""
for _ in $(seq 1 500); do
    URL="$(sed -n 's/^agx serve: listening on //p' "$TMP/serve.err" | head -n1)"
    [[ -n "$URL" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$TMP/serve.err" >&2; exit 1; }
    sleep 0.01
done
[[ -n "$URL" ]] || { echo "agx serve did not start" >&2; cat "$TMP/serve.err" >&2; exit 1; }
echo "==> conformance server --url $URL"

cd "$TMP"
conformance server --url "$URL" --expected-failures "$ROOT/scripts/ci/conformance-baseline.yml" "$@"
