#!/usr/bin/env bash
# Benchmark: start → `initialize` answered for real npm and PyPI MCP servers (pinned below),
# each launched three ways in one run (taking turns, so drift affects all alike):
#   agx     `agx serve` of the installed package (installed with `--warm`; timed from the
#           second start on, so the compile cache and bytecode are in place)
#   runner  `npx -y <pkg>@<version>` / `uvx --from <pkg>==<version> <script>`, caches warm
#   bare    the interpreter on the installed entry point, as agx's definition names it
#           (`node <bin script>`, `venv/bin/python venv/bin/<script>`), without agx's caches
# Targets (issue 28): agx at least 3x faster than npx/uvx for every server, and faster than the
# bare interpreter (median over the servers). Prints a table; exits 1 when a target is missed.
# The clock runs inside one Python driver (benches/real_servers_measure.py).
#
#   AGX_BIN       agx binary (default: a fresh `cargo build --release`)
#   RUNS          timed runs of each launch (default 10)
#   AGX_CI_CACHE  cache folder (default $HOME/.cache/agx-ci): Node 22 (scripts/ci/node22.sh)
#                 and, when `uvx` is not on PATH, a venv with the pinned uv
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
RUNS="${RUNS:-10}"
UV_VERSION=0.13.9
CACHE="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}"

# kind|package|version|arguments (the same for every launch)
SERVERS=(
    "npm|@modelcontextprotocol/server-everything|2025.9.25|"
    "npm|@modelcontextprotocol/server-filesystem|2026.8.31|@ROOT@"
    "npm|@modelcontextprotocol/server-memory|2026.8.31|"
    "npm|@modelcontextprotocol/server-sequential-thinking|2026.8.31|"
    "npm|@playwright/mcp|0.0.83|"
    "pypi|mcp-server-time|2026.10.19|"
    "pypi|mcp-server-git|2026.10.19|"
    "pypi|mcp-server-fetch|2026.10.24|"
)

# Node 22.1 or newer has the compile cache; every launch runs on the same Node.
NODE_DIR="$(AGX_CI_CACHE="$CACHE" scripts/ci/node22.sh)"
export PATH="$NODE_DIR:$PATH"
if ! command -v uvx >/dev/null; then
    UV_VENV="$CACHE/uv-$UV_VERSION"
    if [[ "$("$UV_VENV/bin/uvx" --version 2>/dev/null)" != *" $UV_VERSION"* ]]; then
        python3 -m venv "$UV_VENV"
        "$UV_VENV/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION"
    fi
    export PATH="$UV_VENV/bin:$PATH"
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# A private agx home and runner caches; the certificates and proxies of the machine stay.
export AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
export npm_config_cache="$TMP/npm-cache" npm_config_update_notifier=false
export UV_CACHE_DIR="$TMP/uv-cache" PIP_DISABLE_PIP_VERSION_CHECK=1
mkdir -p "$TMP/root"

specs=()
for entry in "${SERVERS[@]}"; do
    IFS='|' read -r kind package version _ <<<"$entry"
    if [[ $kind == npm ]]; then specs+=("npm:$package@$version"); else specs+=("pypi:$package==$version"); fi
done
echo "==> agx install --warm ${#specs[@]} servers" >&2
"$AGX" -q install --warm "${specs[@]}" >&2

python3 "$ROOT/benches/real_servers_measure.py" "$AGX" "$AGX_HOME" "$RUNS" "$TMP/root" "${SERVERS[@]}"
