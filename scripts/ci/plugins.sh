#!/usr/bin/env bash
# Acceptance check of `agx export` and of marketplace imports with the real clients
# (docs/plugins.md): the fixture
# packages acme/weather (a server), acme/quotes (a server with a required secret) and acme/dev
# (skills) exported as a Claude-format marketplace, Gemini CLI extensions and Agent Plugins;
# each client installs them and starts the servers, which launch bare `agx serve`.
#
# agx runs without AGX_HOME here, from its default home under HOME: Codex starts plugin
# servers with a cleared environment, so that is where their `agx serve` looks.
#
# Reuses the clients that scripts/ci/real-clients.sh installs into the same cache:
#   AGX_REAL_CLIENTS_CACHE  (default: $AGX_CI_CACHE/real-clients, or $HOME/.cache/agx-ci/real-clients)
#   AGX_BIN                 the agx binary (default: target/debug/agx, built with `cargo build`)
# The Agent Plugins JSON schemas are read from ../shared/schemas/agent-plugins-1.0.0 beside
# the clone (skipped with a message where absent) with jsonschema from $AGX_CI_CACHE/venv.
#
# Needs no network beyond the npm registry and no login. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

CACHE="${AGX_REAL_CLIENTS_CACHE:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/real-clients}"
VENV="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/venv"
SCHEMAS="$ROOT/../shared/schemas/agent-plugins-1.0.0"
PACKAGES=(@anthropic-ai/claude-code @google/gemini-cli @openai/codex)
mkdir -p "$CACHE"
if [[ ! -x "$CACHE/node_modules/.bin/claude" || ! -x "$CACHE/node_modules/.bin/gemini" || ! -x "$CACHE/node_modules/.bin/codex" ]]; then
    echo "==> npm install ${PACKAGES[*]} into $CACHE"
    npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "${PACKAGES[@]}"
fi
BIN="$CACHE/node_modules/.bin"

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
export AGX_REGISTRY="$ROOT/registry-fixtures/registry"
unset AGX_HOME AGX_KEYRING XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME CLAUDE_CONFIG_DIR \
    CODEX_HOME GEMINI_CLI_HOME AGX_PROJECT || true
# Plugin entries launch the bare `agx`: the clients find it on PATH.
export PATH="$(dirname "$AGX"):$PATH"
export GEMINI_CLI_TRUST_WORKSPACE=true
mkdir -p "$HOME"
cd "$HOME"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }
# expect NAME PATTERN TEXT: pass when TEXT has a line matching PATTERN.
expect() { if grep -qE -- "$2" <<<"$3"; then pass "$1"; else fail "$1"; fi; }

"$AGX" -q install acme/weather acme/quotes acme/dev
EXPORTED=(acme/dev acme/quotes acme/weather)
"$AGX" export claude-marketplace "$TMP/market" --name agx-fixtures "${EXPORTED[@]}"
"$AGX" export gemini-extension "$TMP/gemini" "${EXPORTED[@]}"
"$AGX" export agent-plugin "$TMP/agent" "${EXPORTED[@]}"

# --- Agent Plugins: every plugin.json and mcp.json against the specification's schemas.
if [[ -d "$SCHEMAS" ]]; then
    if "$VENV/bin/python" - "$SCHEMAS" "$TMP/agent" <<'PY'; then
import json, pathlib, sys
import jsonschema
schemas, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
checked = 0
for name, schema in (("plugin.json", "plugin.schema.json"), ("mcp.json", "mcp.schema.json")):
    validator = jsonschema.Draft202012Validator(json.loads((schemas / schema).read_text()))
    for doc in sorted(root.glob(f"*/{name}")):
        errors = list(validator.iter_errors(json.loads(doc.read_text())))
        for e in errors:
            print(f"{doc}: {e.message}")
        if errors:
            sys.exit(1)
        checked += 1
print(f"{checked} Agent Plugins files match the 1.0.0 schemas")
PY
        pass "agent plugins validate against the JSON schemas"
    else
        fail "agent plugins do not validate against the JSON schemas"
    fi
else
    echo "skip: no Agent Plugins schemas at $SCHEMAS (the repo's tests check the rules themselves)"
fi

# --- Claude Code: validate, add the marketplace, install, and `mcp list` connects.
out="$("$BIN/claude" plugin validate "$TMP/market" 2>&1 || echo "exit $?")"
echo "$out"
expect "claude plugin validate passes on the marketplace" "Validation passed" "$out"
for plugin in acme-weather acme-quotes acme-dev; do
    out="$("$BIN/claude" plugin validate "$TMP/market/plugins/$plugin" 2>&1 || echo "exit $?")"
    expect "claude plugin validate $plugin" "Validation passed" "$out"
done
timeout 120 "$BIN/claude" plugin marketplace add "$TMP/market" || fail "claude plugin marketplace add"
timeout 120 "$BIN/claude" plugin install acme-weather@agx-fixtures || fail "claude plugin install acme-weather"
timeout 120 "$BIN/claude" plugin install acme-dev@agx-fixtures || fail "claude plugin install acme-dev"
# The secret goes to Claude Code's own storage as a userConfig value, reaching agx as the
# setting's override variable.
timeout 120 "$BIN/claude" plugin install acme-quotes@agx-fixtures --config api_key=plugins-ci-claude-key \
    || fail "claude plugin install acme-quotes"
out="$(MCP_TIMEOUT=20000 timeout 120 "$BIN/claude" mcp list 2>&1 || true)"
echo "$out"
expect "claude mcp list connects to plugin:acme-weather:forecast" "^plugin:acme-weather:forecast:.*Connected" "$out"
expect "claude mcp list connects to plugin:acme-quotes:quotes (userConfig secret)" "^plugin:acme-quotes:quotes:.*Connected" "$out"

# --- Codex: the same marketplace, then `codex mcp list` shows the plugin's servers.
timeout 120 "$BIN/codex" plugin marketplace add "$TMP/market" || fail "codex plugin marketplace add"
timeout 120 "$BIN/codex" plugin add acme-weather@agx-fixtures || fail "codex plugin add acme-weather"
timeout 120 "$BIN/codex" plugin add acme-quotes@agx-fixtures || fail "codex plugin add acme-quotes"
out="$(timeout 120 "$BIN/codex" mcp list 2>&1 || true)"
echo "$out"
expect "codex mcp list shows forecast" "^forecast +agx +serve acme/weather/forecast@=1.2.0" "$out"
expect "codex mcp list shows quotes" "^quotes +agx +serve acme/quotes/quotes@=1.0.0" "$out"

# --- Codex's own marketplace format (`agx export codex-marketplace`), in a Codex home of
# its own so that only its plugins are listed.
"$AGX" export codex-marketplace "$TMP/codex-market" --name agx-codex "${EXPORTED[@]}"
export CODEX_HOME="$HOME/.codex-own"
mkdir -p "$CODEX_HOME"
timeout 120 "$BIN/codex" plugin marketplace add "$TMP/codex-market" || fail "codex plugin marketplace add (codex-marketplace)"
timeout 120 "$BIN/codex" plugin add acme-weather@agx-codex || fail "codex plugin add acme-weather@agx-codex"
timeout 120 "$BIN/codex" plugin add acme-dev@agx-codex || fail "codex plugin add acme-dev@agx-codex"
out="$(timeout 120 "$BIN/codex" mcp list 2>&1 || true)"
echo "$out"
expect "codex mcp list shows forecast from the codex-marketplace export" "^forecast +agx +serve acme/weather/forecast@=1.2.0" "$out"
unset CODEX_HOME

# --- Gemini CLI: validate, install each extension, list its servers and skills, connect.
for ext in acme-weather acme-quotes acme-dev; do
    timeout 120 "$BIN/gemini" extensions validate "$TMP/gemini/$ext" || fail "gemini extensions validate $ext"
    timeout 120 "$BIN/gemini" extensions install "$TMP/gemini/$ext" --consent --skip-settings </dev/null \
        || fail "gemini extensions install $ext"
done
out="$(timeout 120 "$BIN/gemini" extensions list 2>&1 || true)"
echo "$out"
expect "gemini extensions list shows the server" "^ +forecast$" "$out"
expect "gemini extensions list shows the skills" "^ +review: " "$out"
# The secret given as the extension's setting (Gemini CLI keeps it in its keychain).
printf 'plugins-ci-gemini-key\n' | timeout 120 "$BIN/gemini" extensions config acme-quotes api_key >/dev/null \
    || fail "gemini extensions config acme-quotes api_key"
out="$(timeout 120 "$BIN/gemini" mcp list 2>&1 || true)"
echo "$out"
expect "gemini mcp list connects to forecast" "forecast \(from acme-weather\).*- Connected" "$out"
expect "gemini mcp list connects to quotes (setting secret)" "quotes \(from acme-quotes\).*- Connected" "$out"

# --- Import: the fixture marketplace's plugin (a Python stdio server, a skill, a userConfig
# secret, a hook) installed with agx, its server written into Gemini CLI by install-server
# and connected there; its skill copied into ~/.agents/skills. The secret is kept by agx
# (`agx config set`): the setting's override variable did not reach `agx serve` under Gemini
# CLI, which filters secret-looking variables out of its servers' environment.
"$AGX" -q registry add-source fixture-market "$ROOT/registry-fixtures/marketplace"
"$AGX" -q install weather-tools@fixture-market
printf 'plugins-ci-import-key\n' | "$AGX" -q config set fixture-market/weather-tools api_key --stdin
"$AGX" -q install-server gemini fixture-market/weather-tools/forecast --name weather-tools
out="$(timeout 120 "$BIN/gemini" mcp list 2>&1 || true)"
echo "$out"
expect "gemini mcp list connects to the imported plugin's server" \
    "weather-tools: .*agx serve fixture-market/weather-tools/forecast.*- Connected" "$out"
"$AGX" -q install-skill codex fixture-market/weather-tools/umbrella-advice
if [[ -f "$HOME/.agents/skills/umbrella-advice/SKILL.md" ]]; then
    pass "the imported plugin's skill is in ~/.agents/skills"
else
    fail "the imported plugin's skill is not in ~/.agents/skills"
fi
out="$("$AGX" info fixture-market/weather-tools)"
expect "agx info reports the hook as not carried" "^not carried: hooks" "$out"
if grep -rlF plugins-ci-import-key "$HOME/.gemini"; then
    fail "the imported plugin's secret was written into Gemini CLI's settings"
fi

if grep -rlF -e plugins-ci-claude-key -e plugins-ci-gemini-key "$TMP/market" "$TMP/gemini" "$TMP/agent" \
    "$HOME/.local/share/agx"; then
    fail "a secret was written into an exported plugin or agx's home"
fi

if (( failures > 0 )); then
    echo "$failures plugin check(s) failed"
    exit 1
fi
echo "all plugin checks passed"
