#!/usr/bin/env bash
# Acceptance check of projects with the real MCP clients (docs/projects.md): a project whose
# agx.toml lists claude-code and gemini gets a server with `agx add`; `agx sync` writes
# .mcp.json and .gemini/settings.json with the bare `agx` command and the exact version
# pinned; each client, run in the project folder, starts the server from that file.
#
# Reuses the clients that scripts/ci/real-clients.sh installs into the same cache:
#   AGX_REAL_CLIENTS_CACHE  (default: $AGX_CI_CACHE/real-clients, or $HOME/.cache/agx-ci/real-clients)
#   AGX_BIN                 the agx binary (default: target/debug/agx, built with `cargo build`)
#
# Needs no network beyond the npm registry and no login. Exits non-zero on any failure.
# The pinned entry (`agx serve acme/weather/forecast@=1.0.0`) needs the multi-version
# store's `@=VERSION` serving; before it is merged both checks fail on the pin.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

CACHE="${AGX_REAL_CLIENTS_CACHE:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/real-clients}"
PACKAGES=(@anthropic-ai/claude-code @google/gemini-cli @openai/codex)
mkdir -p "$CACHE"
if [[ ! -x "$CACHE/node_modules/.bin/claude" || ! -x "$CACHE/node_modules/.bin/gemini" ]]; then
    echo "==> npm install ${PACKAGES[*]} into $CACHE"
    npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "${PACKAGES[@]}"
fi
BIN="$CACHE/node_modules/.bin"

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home"
export AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_KEYRING=file
unset XDG_CONFIG_HOME CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME AGX_REGISTRY AGX_PROJECT || true
# Project entries launch the bare `agx`: the clients find it on PATH, as a member's would.
export PATH="$(dirname "$AGX"):$PATH"
mkdir -p "$HOME"

# A folder registry holding the fixture package.
PKG="$TMP/src/weather"
mkdir -p "$PKG/agx/servers" "$PKG/agx/tools" "$PKG/bin"
cat > "$PKG/agx.toml" <<'TOML'
[package]
name = "acme/weather"
version = "1.0.0"
description = "Fixture for the real-client project checks"

[extension]
servers = ["forecast"]
tools = ["get_forecast"]
TOML
cat > "$PKG/agx/servers/forecast.toml" <<'TOML'
name = "forecast"
tools = ["get_forecast"]
TOML
cat > "$PKG/agx/tools/get_forecast.toml" <<'TOML'
name = "get_forecast"
description = "Forecast for a city"
command = ["sh", "bin/forecast.sh"]
TOML
printf '#!/bin/sh\necho "{\\"forecast\\": \\"sunny\\"}"\n' > "$PKG/bin/forecast.sh"
REGISTRY="$TMP/registry"
agx registry init "$REGISTRY"
agx registry add "$REGISTRY" "$PKG"
export AGX_REGISTRY="$REGISTRY"

# The project, as a team would commit it.
PROJECT="$TMP/repo"
mkdir -p "$PROJECT"
cd "$PROJECT"
printf '[project]\nclients = ["claude-code", "gemini"]\n' > agx.toml
agx add acme/weather/forecast
agx sync --check
echo "--- .mcp.json"; cat .mcp.json
echo "--- .gemini/settings.json"; cat .gemini/settings.json

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }
grep -q '"acme/weather/forecast@=1.0.0"' .mcp.json && pass "pinned entry in .mcp.json" \
    || fail ".mcp.json does not pin acme/weather/forecast@=1.0.0"

# --- Claude Code: project servers need approval; `enableAllProjectMcpServers` (its
# documented setting) approves those of .mcp.json without a prompt.
mkdir -p "$HOME/.claude"
printf '{\n  "enableAllProjectMcpServers": true\n}\n' > "$HOME/.claude/settings.json"
out="$(MCP_TIMEOUT=20000 timeout 120 "$BIN/claude" mcp list 2>&1 || true)"
echo "$out"
if grep -q "forecast:.*✔ Connected" <<<"$out"; then pass "claude mcp list (project)"; else fail "claude mcp list did not connect to the project server"; fi

# --- Gemini CLI: a trusted workspace reads .gemini/settings.json.
out="$(GEMINI_CLI_TRUST_WORKSPACE=true timeout 120 "$BIN/gemini" mcp list 2>&1 || true)"
echo "$out"
if grep -q "forecast.*Connected" <<<"$out" && ! grep -q "forecast.*Disconnected" <<<"$out"; then
    pass "gemini mcp list (project)"
else
    fail "gemini mcp list did not connect to the project server"
fi

if [[ $failures -gt 0 ]]; then
    echo "$failures real-client project check(s) failed"
    exit 1
fi
echo "all real-client project checks passed"
