#!/usr/bin/env bash
# The MCP conformance suite's client scenarios (`conformance client --suite all`: connect,
# tools, elicitation defaults, SSE retry, and the authorization suite) against
# examples/mcp_client.rs, which signs in with agx's own code (crates/agx-auth, docs/auth.md).
# Scenarios it does not pass are listed with their reasons in
# scripts/ci/mcp-client-baseline.yml; the suite fails the run on any other failing scenario
# and on a listed one that starts passing.
#
#   AGX_CI_CACHE  cache folder (default $HOME/.cache/agx-ci): Node 22 and the suite
#
# Needs npm and network access to the npm registry only (the suite's servers listen on
# localhost). Arguments go to `conformance client` (e.g. --scenario auth/metadata-default in
# place of --suite all).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
. scripts/ci/conformance-suite.sh

echo "==> cargo build --example mcp_client"
cargo build --quiet --example mcp_client
CLIENT="$ROOT/target/debug/examples/mcp_client"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
SELECT=(--suite all)
if [[ $# -gt 0 ]]; then SELECT=("$@"); fi
echo "==> conformance client ${SELECT[*]} (suite $SUITE_VERSION, Node ${NODE_VERSION#v})"
cd "$TMP"
"$NODE" "$SUITE/dist/index.js" client --command "$CLIENT" "${SELECT[@]}" \
    --expected-failures "$ROOT/scripts/ci/mcp-client-baseline.yml" --output-dir "$TMP/results" \
    | sed -n '/SUITE SUMMARY/,$p'
