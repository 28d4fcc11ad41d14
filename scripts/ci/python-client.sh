#!/usr/bin/env bash
# Acceptance check with the official MCP Python SDK client (issue 4): install the `mcp`
# package into a venv, install the agx/edge fixture into a temp agx home, and drive
# `agx serve agx/edge/edge` over stdio with scripts/ci/python_client.py (initialize, ping,
# tools/list, tools/call, prompts/list, prompts/get); drive `agx serve
# agx/conformance/everything` with scripts/ci/python_surface_client.py (resources: list, read,
# templates, subscribe and an update after the file changes; completions; a tool that samples
# and one that elicits through agx's channel, answered by the SDK's callbacks); then check
# that the entries `install-server` writes for Gemini CLI and Codex give acme/quotes' tool its
# secret key (scripts/ci/python_settings_client.py); sampling and elicitation from a wrapped,
# filtered member of a profile reach the client (scripts/ci/python_profile_client.py), and the
# same profile and agx/conformance/everything itself answer a 2026-07-28 client, the tools'
# sampling and elicitation reaching it as input_required (scripts/ci/python_modern_client.py);
# two projects locking different versions
# of acme/weather each serve their own (scripts/ci/python_projects_client.py). agx/edge and
# agx/conformance declare permissions and the registry servers get the user's, so all of
# them run in the sandbox (docs/sandbox.md).
#
#   AGX_CI_CACHE  cache folder; the venv lives in $AGX_CI_CACHE/venv (default $HOME/.cache/agx-ci)
#   AGX_BIN       the agx binary (default: target/debug/agx, built with `cargo build`)
#
# Needs python3 (with venv) and network access to PyPI only. Exits non-zero on any mismatch;
# the last line is the `N passed, M failed` summary.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

. scripts/ci/mcp-venv.sh
PY="$(mcp_python)"

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"
. scripts/ci/require-confined.sh

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home"
export AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
# Tool stderr is logged at info; warn keeps the output to the checks (AGX_LOG=info shows it).
export AGX_LOG="${AGX_LOG:-warn}"
unset AGX_REGISTRY || true
mkdir -p "$HOME"

echo "==> agx install registry-fixtures/packages/agx-edge"
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/agx-edge"
# The fixtures declare permissions: their programs run in the sandbox (docs/sandbox.md).
require_confined "$AGX" agx/edge

echo "==> mcp $MCP_VERSION client against agx serve agx/edge/edge"
"$PY" "$ROOT/scripts/ci/python_client.py" "$AGX" agx/edge/edge

echo "==> mcp $MCP_VERSION client: resources, completions and the channel of agx/conformance/everything"
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/agx-conformance"
require_confined "$AGX" agx/conformance
WATCHED="$(find "$AGX_HOME" -path '*/data/watched.txt' -print -quit)"
[[ -n "$WATCHED" ]] || { echo "the installed agx/conformance has no data/watched.txt under $AGX_HOME" >&2; exit 1; }
"$PY" "$ROOT/scripts/ci/python_surface_client.py" "$AGX" "$WATCHED"

# Profiles (docs/profiles.md): a wrapped, filtered server in a profile asks the client to
# sample and to elicit; the SDK's answers reach it through both proxies.
echo "==> mcp $MCP_VERSION client: sampling and elicitation from a wrapped member of a profile"
. scripts/ci/wrapped-conformance.sh
make_wrapped_conformance "$AGX" "$TMP/wrapped-conformance"
printf '[profiles.wrapped]\nservers = ["acme/wrapped-conformance/wrapped"]\n' > "$AGX_HOME/profiles-v1.toml"
"$PY" "$ROOT/scripts/ci/python_profile_client.py" "$AGX" wrapped wrapped
# The same profile to a 2026-07-28 client: the SDK's default mode probes server/discover and,
# answered, speaks the modern era (no initialize) to it (docs/serve.md, "Protocol eras").
echo "==> mcp $MCP_VERSION client as a 2026-07-28 client of the same profile"
"$PY" "$ROOT/scripts/ci/python_modern_client.py" "$AGX" @wrapped wrapped__
# An agx package's tools asking through the tool channel, to a 2026-07-28 client: the call
# answers input_required and runs on until the retry brings the input (docs/tool-protocol.md).
echo "==> mcp $MCP_VERSION client as a 2026-07-28 client of agx/conformance/everything"
"$PY" "$ROOT/scripts/ci/python_modern_client.py" "$AGX" agx/conformance/everything ""

# Settings (docs/settings.md): a secret set once reaches the tool through the entries agx
# writes for Gemini CLI and Codex, started by the SDK client with their environments.
echo "==> mcp $MCP_VERSION client through the gemini and codex entries of acme/quotes/quotes"
export AGX_KEYRING=file
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/acme-quotes"
printf %s "python-client-secret" | "$AGX" -q config set acme/quotes api_key --stdin
"$AGX" -q install-server gemini acme/quotes/quotes
"$AGX" -q install-server codex acme/quotes/quotes
"$PY" "$ROOT/scripts/ci/python_settings_client.py" "$HOME" python-client-secret

# Projects (docs/projects.md): two projects lock acme/weather at different versions from a
# loopback registry; the entry each one's .mcp.json holds serves that project's version.
echo "==> mcp $MCP_VERSION client: two projects, each serving the version it locked"
"$PY" "$ROOT/scripts/ci/python_projects_client.py" "$AGX" "$ROOT/registry-fixtures/registry" "$TMP/projects"

# Servers installed from an MCP registry entry (docs/ecosystem.md): the real npm and PyPI
# packages of tests/data/mcp-registry, served by a loopback registry, named by the package
# alone. Needs the npm registry and PyPI too.
echo "==> mcp $MCP_VERSION client against servers installed from a loopback MCP registry"
"$PY" -u "$ROOT/scripts/ci/mcp_registry_server.py" "$ROOT/tests/data/mcp-registry/servers" > "$TMP/registry-url" &
REGISTRY_PID=$!
trap 'kill $REGISTRY_PID 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 50); do [[ -s "$TMP/registry-url" ]] && break; sleep 0.1; done
REGISTRY="$(head -n1 "$TMP/registry-url")"
# PyPI packages are provisioned with the real interpreter (a pyenv shim would look in HOME).
PYTHON_DIR="$("$PY" -c 'import os, sys; print(os.path.dirname(os.path.realpath(sys.executable)))')"
PATH="$PYTHON_DIR:$PATH" "$AGX" --registry "$REGISTRY" install --quiet \
    io.github.modelcontextprotocol/time io.github.modelcontextprotocol/server-everything
# Confined by the user (`agx permissions set`), as wrapped servers with no permissions of
# their own are: they still answer with no network.
for server in time/time server-everything/server-everything; do
    "$AGX" -q permissions set "io.github.modelcontextprotocol/$server" --network none >/dev/null
done
"$PY" "$ROOT/scripts/ci/python_registry_client.py" "$AGX" io.github.modelcontextprotocol/time \
    get_current_time '{"timezone": "Europe/Paris"}' Europe/Paris
"$PY" "$ROOT/scripts/ci/python_registry_client.py" "$AGX" io.github.modelcontextprotocol/server-everything \
    echo '{"message": "from the SDK"}' "Echo: from the SDK"
# The same real servers to a 2026-07-28 client (docs/serve.md, "Protocol eras"): the PyPI one
# filtered (agx probes it, finds it legacy and translates), and a profile of an agx package
# and the npm one, whose agx package's tools ask through the channel (input_required).
echo "==> mcp $MCP_VERSION as a 2026-07-28 client of the filtered PyPI server and a profile of an agx package and the npm server"
printf 'version = 1\n[servers."io.github.modelcontextprotocol/time/time".tools]\ndeny = ["convert_time"]\n' > "$AGX_HOME/filters-v1.toml"
"$PY" "$ROOT/scripts/ci/python_registry_client.py" --modern "$AGX" io.github.modelcontextprotocol/time \
    get_current_time '{"timezone": "Europe/Paris"}' Europe/Paris
printf '[profiles.mixed]\nservers = ["agx/conformance/everything", "io.github.modelcontextprotocol/server-everything"]\n' > "$AGX_HOME/profiles-v1.toml"
"$PY" "$ROOT/scripts/ci/python_modern_client.py" "$AGX" @mixed everything__
"$PY" "$ROOT/scripts/ci/python_registry_client.py" --modern "$AGX" @mixed \
    server-everything__echo '{"message": "from the SDK"}' "Echo: from the SDK"
rm "$AGX_HOME/filters-v1.toml"

# Tools discovered from a folder of scripts (docs/authoring.md, "From a folder of scripts"):
# `agx discover --write` of the Fractalic-shaped fixture folder, then a tool of each input
# style (argv-json from a schema dump and from a multi-schema script, argv-flags from argparse
# and from a shell script's --help)
# listed and called through `agx serve`.
echo "==> mcp $MCP_VERSION client against tools discovered from registry-fixtures/scripts"
cp -R "$ROOT/registry-fixtures/scripts" "$TMP/scripts"
PATH="$PYTHON_DIR:$PATH" AGX_PROBE_TIMEOUT_MS=2000 "$AGX" -q discover --write --name fixture/scripts "$TMP/scripts" >/dev/null
"$AGX" install --quiet "$TMP/scripts"
while IFS='|' read -r tool arguments expected; do
    PATH="$PYTHON_DIR:$PATH" "$PY" "$ROOT/scripts/ci/python_registry_client.py" "$AGX" fixture/scripts/scripts \
        "$tool" "$arguments" "$expected"
done <<'CALLS'
weather|{"city": "Oslo"}|"city":"Oslo"
upper|{"text": "from the sdk"}|FROM THE SDK
forecast|{"lat": 59.9, "lon": 10.7, "verbose": true, "day": ["mon"]}|"summary"
convert|{"value": "100", "round": true}|"value":212
CALLS
