#!/usr/bin/env bash
# Drive `agx serve` over stdio with the official MCP Python SDK client (`pip install mcp`):
# install the fixture package agx/edge into a temporary AGX_HOME, then run
# python_client.py, which initializes, lists, calls tools (stdin and argv input, errors,
# progress, logs) and gets prompts, checking every answer.
#
#   AGX_PY_CLIENT_CACHE  folder for the Python venv (default: $AGX_CI_CACHE/python-client,
#                        or .ci/cache/python-client)
#   AGX_BIN              the agx binary (default: target/debug/agx, built when missing)
#
# Needs no network beyond PyPI (first run only). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

CACHE="${AGX_PY_CLIENT_CACHE:-${AGX_CI_CACHE:-$ROOT/.ci/cache}/python-client}"
VENV="$CACHE/venv"
if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import mcp' 2>/dev/null; then
    echo "==> pip install mcp into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check mcp
fi

AGX="${AGX_BIN:-$ROOT/target/debug/agx}"
if [[ ! -x "$AGX" ]]; then
    cargo build --quiet
fi
AGX="$(cd "$(dirname "$AGX")" && pwd)/$(basename "$AGX")"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 NO_COLOR=1
mkdir -p "$HOME"
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/agx-edge"

AGX_BIN="$AGX" "$VENV/bin/python" "$ROOT/scripts/ci/python_client.py"
