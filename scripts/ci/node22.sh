#!/usr/bin/env bash
# Install Node 22 (npm package `node`, pinned) once into a cache folder and print the folder
# of its `node` program. Node 22.1 is the first with a compile cache: the compile-cache tests
# (tests/it/code_cache.rs) put it first on PATH; .ci/run runs this first so that `cargo test`
# finds it installed. The MCP conformance suite (scripts/ci/conformance.sh) shares the folder.
# Usage: scripts/ci/node22.sh [PREFIX]   (default: $AGX_CI_CACHE/node22, else target/node22)
set -euo pipefail
NODE_VERSION=22.23.3
cd "$(dirname "$0")/../.."
prefix="${1:-${AGX_CI_CACHE:+$AGX_CI_CACHE/node22}}"
prefix="${prefix:-$PWD/target/node22}"
bin="$prefix/node_modules/.bin"
if [ "$("$bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error --save-exact \
        "node@$NODE_VERSION" >&2
fi
echo "$bin"
