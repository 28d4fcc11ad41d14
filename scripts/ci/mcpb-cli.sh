#!/usr/bin/env bash
# Install the official MCPB CLI (`@anthropic-ai/mcpb`, pinned) once into a cache folder and
# print the path of its `mcpb` program. The MCPB tests (tests/it/mcpb.rs) pack their bundles
# with it; .ci/run runs this first so that `cargo test` finds it installed.
# Usage: scripts/ci/mcpb-cli.sh [PREFIX]   (default: $AGX_CI_CACHE/mcpb-cli, else target/mcpb-cli)
set -euo pipefail
MCPB_VERSION=2.1.2
cd "$(dirname "$0")/../.."
prefix="${1:-${AGX_CI_CACHE:+$AGX_CI_CACHE/mcpb-cli}}"
prefix="${prefix:-$PWD/target/mcpb-cli}"
bin="$prefix/node_modules/.bin/mcpb"
if [ ! -x "$bin" ] || [ "$("$bin" --version 2>/dev/null)" != "$MCPB_VERSION" ]; then
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error \
        "@anthropic-ai/mcpb@$MCPB_VERSION" >&2
fi
echo "$bin"
