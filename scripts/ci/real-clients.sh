#!/usr/bin/env bash
# Acceptance check with the real MCP clients (docs/clients.md, "Checking an entry with
# the real client"): install Claude Code, Gemini CLI and Codex CLI from the npm registry into
# a cache folder, point HOME at a temp folder, write an entry for a fixture server into each
# with `agx install-server`, and ask each client whether the server starts (Claude Code also
# for a profile's one entry, `agx serve @team`).
#
#   AGX_REAL_CLIENTS_CACHE  folder for the npm packages (default: $AGX_CI_CACHE/real-clients,
#                           or $HOME/.cache/agx-ci/real-clients)
#   AGX_BIN                 the agx binary (default: target/debug/agx, built with `cargo build`)
#
# Needs no network beyond the npm registry and PyPI, and no login. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

CACHE="${AGX_REAL_CLIENTS_CACHE:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/real-clients}"
PACKAGES=(@anthropic-ai/claude-code @google/gemini-cli @openai/codex)
mkdir -p "$CACHE"
if [[ ! -x "$CACHE/node_modules/.bin/claude" || ! -x "$CACHE/node_modules/.bin/gemini" || ! -x "$CACHE/node_modules/.bin/codex" ]]; then
    echo "==> npm install ${PACKAGES[*]} into $CACHE"
    npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "${PACKAGES[@]}"
fi
BIN="$CACHE/node_modules/.bin"

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

# The real interpreter's folder, found while HOME is still the user's (a pyenv shim looks for
# its versions in HOME): PyPI packages are provisioned with it.
PYTHON_DIR="$(dirname "$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')")"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home"
export AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
# Secrets in the owner-only file under AGX_HOME, never in the keyring of the machine.
export AGX_KEYRING=file
unset XDG_CONFIG_HOME CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME AGX_REGISTRY || true
mkdir -p "$HOME"
cd "$HOME"

# The fixture: one server with one tool and one prompt.
PKG="$TMP/src/weather"
mkdir -p "$PKG/agx/servers" "$PKG/agx/tools" "$PKG/agx/prompts" "$PKG/bin"
cat > "$PKG/agx.toml" <<'TOML'
[package]
name = "acme/weather"
version = "1.0.0"
description = "Fixture for the real-client checks"

[extension]
servers = ["forecast"]
tools = ["get_forecast"]
prompts = ["Search"]
TOML
cat > "$PKG/agx/servers/forecast.toml" <<'TOML'
name = "forecast"
tools = ["get_forecast"]
prompts = ["Search"]
TOML
cat > "$PKG/agx/tools/get_forecast.toml" <<'TOML'
name = "get_forecast"
description = "Forecast for a city"
command = ["sh", "bin/forecast.sh"]

[[parameters]]
name = "city"
type = "string"
TOML
cat > "$PKG/agx/prompts/Search.toml" <<'TOML'
name = "Search"
content = "Search the docs"
TOML
printf '#!/bin/sh\necho "{\\"forecast\\": \\"sunny\\"}"\n' > "$PKG/bin/forecast.sh"

"$AGX" install "$PKG"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }

# --- Claude Code: `claude mcp list` connects to each server.
"$AGX" install-server claude-code acme/weather/forecast
out="$(MCP_TIMEOUT=20000 timeout 120 "$BIN/claude" mcp list 2>&1 || true)"
echo "$out"
if grep -q "forecast:.*✔ Connected" <<<"$out"; then pass "claude mcp list"; else fail "claude mcp list did not connect"; fi

# A profile (docs/profiles.md): one entry, `agx serve @team`, which Claude Code starts and
# connects to like any server.
printf '[profiles.team]\nservers = ["acme/weather/forecast"]\n' > "$AGX_HOME/profiles-v1.toml"
"$AGX" install-server claude-code @team
out="$(MCP_TIMEOUT=20000 timeout 120 "$BIN/claude" mcp list 2>&1 || true)"
echo "$out"
if grep -q "^team:.*agx.* serve @team.*✔ Connected" <<<"$out"; then
    pass "claude mcp list connects to a profile's one entry"
else
    fail "claude mcp list did not connect to the profile @team"
fi

# --- Gemini CLI: `gemini mcp list` connects and pings.
"$AGX" install-server gemini acme/weather/forecast
out="$(GEMINI_CLI_TRUST_WORKSPACE=true timeout 120 "$BIN/gemini" mcp list 2>&1 || true)"
echo "$out"
if grep -q "forecast.*Connected" <<<"$out" && ! grep -q "forecast.*Disconnected" <<<"$out"; then
    pass "gemini mcp list"
else
    fail "gemini mcp list did not connect"
fi

# --- Codex CLI: the app-server's mcpServerStatus/list lists the server's tools.
# codex_lists_tool TOOL: whether Codex started the entries and one of them lists TOOL.
codex_lists_tool() {
timeout 120 python3 - "$BIN/codex" "$1" <<'PY'
import json, os, signal, subprocess, sys, time
# Its own process group, ended as a whole below: the app-server and the MCP servers it starts.
proc = subprocess.Popen([sys.argv[1], "app-server"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=sys.stderr, text=True,
                        start_new_session=True)
# `timeout` signals only its own group: exit normally so `finally` still runs.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
def send(msg):
    proc.stdin.write(json.dumps(msg) + "\n"); proc.stdin.flush()
def wait_for(id_):
    for line in proc.stdout:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("id") == id_:
            return msg
    raise SystemExit("codex app-server closed its output")
def check():
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"clientInfo": {"name": "agx-ci", "version": "0.1.0"}}})
    print("initialize:", json.dumps(wait_for(1))[:300])
    send({"jsonrpc": "2.0", "method": "initialized"})
    for attempt in range(10):
        send({"jsonrpc": "2.0", "id": 10 + attempt, "method": "mcpServerStatus/list",
              "params": {"detail": "toolsAndAuthOnly"}})
        reply = wait_for(10 + attempt)
        text = json.dumps(reply)
        print("mcpServerStatus/list:", text[:2000])
        if sys.argv[2] in text:
            return 0
        if "toolsError" in text and '"toolsError": null' not in text:
            return 1  # the server's status is final: it failed to start
        time.sleep(1)
    return 1
try:
    sys.exit(check())
finally:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
PY
}
"$AGX" install-server codex acme/weather/forecast
if codex_lists_tool get_forecast; then
    pass "codex app-server mcpServerStatus/list"
else
    fail "codex app-server did not list the server's tools"
fi

# --- Settings (docs/settings.md): acme/quotes starts only once its secret API key is set.
# Gemini strips variables named like *KEY* and Codex clears the environment; both start it,
# because agx serve reads the key from agx's own store.
"$AGX" install "$ROOT/registry-fixtures/packages/acme-quotes"
printf %s "real-clients-secret-key" | "$AGX" config set acme/quotes api_key --stdin
"$AGX" install-server gemini acme/quotes/quotes
out="$(GEMINI_CLI_TRUST_WORKSPACE=true timeout 120 "$BIN/gemini" mcp list 2>&1 || true)"
echo "$out"
if grep -q "quotes.*Connected" <<<"$out" && ! grep -q "quotes.*Disconnected" <<<"$out"; then
    pass "gemini starts a server whose tool needs a secret"
else
    fail "gemini did not start acme/quotes/quotes"
fi
"$AGX" install-server codex acme/quotes/quotes
if codex_lists_tool '"quote"'; then
    pass "codex starts a server whose tool needs a secret"
else
    fail "codex did not list acme/quotes/quotes' tools"
fi
if grep -rlF "real-clients-secret-key" "$HOME" "$AGX_HOME" --exclude=secrets-v1.toml; then
    fail "the secret was written into the files above"
fi

# --- A server installed from an MCP registry entry (docs/ecosystem.md), named by its package
# alone: the real mcp-server-time from PyPI, listed by a loopback registry.
"$PYTHON_DIR/python3" -u "$ROOT/scripts/ci/mcp_registry_server.py" "$ROOT/tests/data/mcp-registry/servers" > "$TMP/registry-url" &
REGISTRY_PID=$!
trap 'kill $REGISTRY_PID 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do [[ -s "$TMP/registry-url" ]] && break; sleep 0.1; done
REGISTRY="$(head -n1 "$TMP/registry-url")"
PATH="$PYTHON_DIR:$PATH" "$AGX" --registry "$REGISTRY" install-server claude-code io.github.modelcontextprotocol/time
out="$(MCP_TIMEOUT=60000 timeout 180 "$BIN/claude" mcp list 2>&1 || true)"
echo "$out"
if grep -q "^time:.*✔ Connected" <<<"$out"; then
    pass "claude mcp list connects to a server installed from an MCP registry"
else
    fail "claude mcp list did not connect to io.github.modelcontextprotocol/time"
fi

# --- A remote server that asks for a sign-in (docs/auth.md): one `agx auth login`, through a
# scripted browser, and both Claude Code's and Gemini CLI's entries connect with it. The
# remote is the loopback fixture registry-fixtures/oauth/server.py.
python3 "$ROOT/registry-fixtures/oauth/server.py" > "$TMP/oauth-url" &
OAUTH_PID=$!
trap 'kill $REGISTRY_PID $OAUTH_PID 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do [[ -s "$TMP/oauth-url" ]] && break; sleep 0.1; done
OAUTH="$(sed -n 's/^listening on //p' "$TMP/oauth-url")"
REMOTE="$TMP/src/linear"
mkdir -p "$REMOTE/agx/servers"
printf '[package]\nname = "acme/linear"\nversion = "1.0.0"\ndescription = "A remote that asks for a sign-in"\n\n[extension]\nservers = ["linear"]\n' > "$REMOTE/agx.toml"
printf 'name = "linear"\ndescription = "The hosted server"\nurl = "%s/mcp"\n' "$OAUTH" > "$REMOTE/agx/servers/linear.toml"
"$AGX" install "$REMOTE"
AGX_BROWSER="python3 $ROOT/registry-fixtures/oauth/browser.py" "$AGX" auth login acme/linear
"$AGX" install-server claude-code acme/linear/linear
"$AGX" install-server gemini acme/linear/linear
out="$(MCP_TIMEOUT=20000 timeout 120 "$BIN/claude" mcp list 2>&1 || true)"
echo "$out"
if grep -q "^linear:.*✔ Connected" <<<"$out"; then
    pass "claude mcp list connects to a signed-in remote through agx serve"
else
    fail "claude mcp list did not connect to the signed-in remote acme/linear/linear"
fi
out="$(GEMINI_CLI_TRUST_WORKSPACE=true timeout 120 "$BIN/gemini" mcp list 2>&1 || true)"
echo "$out"
if grep -q "linear.*Connected" <<<"$out" && ! grep -q "linear.*Disconnected" <<<"$out"; then
    pass "gemini mcp list connects to the same sign-in"
else
    fail "gemini mcp list did not connect to the signed-in remote"
fi
for token in $(curl -s "$OAUTH/admin/log" | python3 -c 'import json, sys
for e in json.load(sys.stdin):
    for k in ("access_token", "refresh_token"):
        if e.get(k): print(e[k])'); do
    if grep -rlF "$token" "$HOME" "$AGX_HOME" --exclude=secrets-v1.toml; then
        fail "a token of the sign-in was written into the files above"
    fi
done

if (( failures > 0 )); then
    echo "$failures real-client check(s) failed"
    exit 1
fi
echo "all real-client checks passed"
