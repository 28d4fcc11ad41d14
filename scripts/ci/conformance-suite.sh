# Sourced by scripts/ci/conformance.sh (server scenarios) and
# scripts/ci/mcp-client-conformance.sh (client scenarios): the pinned MCP conformance suite
# (npm package @modelcontextprotocol/conformance) under the pinned Node 22, installed once into
# the cache. Sets SUITE_VERSION, NODE, NODE_VERSION and SUITE (the package's folder).
SUITE_VERSION=0.1.16
CACHE="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}"
PREFIX="$CACHE/node22"
# The pinned Node 22, shared with the compile-cache tests.
NODE="$(scripts/ci/node22.sh "$PREFIX")/node"
NODE_VERSION="$("$NODE" --version)"
SUITE="$PREFIX/node_modules/@modelcontextprotocol/conformance"
installed_version() { "$NODE" -p "require('$1/package.json').version" 2>/dev/null || true; }
if [[ "$(installed_version "$SUITE")" != "$SUITE_VERSION" ]]; then
    echo "==> npm install @modelcontextprotocol/conformance@$SUITE_VERSION"
    npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/conformance@$SUITE_VERSION"
fi
