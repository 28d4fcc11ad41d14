#!/usr/bin/env bash
# Benchmark `agx serve` (release build) on a server of 50 tools from 5 packages, and the same
# server written with the official Python SDK (MCPServer, formerly FastMCP):
#   - process start to the `initialize` response (median of 50 runs; Python: 10 runs)
#   - tools/list round trip (median of 500)
#   - tools/call overhead over spawning the same command directly (median of 200 each)
#   - idle memory (VmRSS after initialize, a list and a few calls)
#   - the floor: the smallest rmcp stdio server with the same 50 tools (benches/floor/, built
#     here into $AGX_CI_CACHE/floor-target), its start taken in turns with agx's
# Targets (issues 4 and 28): start <= 5 ms and <= 2x the floor's, tools/list <= 0.5 ms, call
# overhead <= 2 ms, idle RSS <= 9 MB, Python/agx start ratio >= 200x. Prints a table; exits 1
# when an agx target is missed.
#
#   AGX_PY_CLIENT_CACHE  venv with `mcp` (shared with scripts/ci/python-client.sh; created
#                        when missing)
#   AGX_BENCH_NO_PYTHON=1  skip the Python comparison
#   AGX_BIN              an agx binary to measure (default: a fresh `cargo build --release`).
#                        The published Linux binary is `scripts/pgo.sh build
#                        x86_64-unknown-linux-musl` without `agx-serve` beside it: copy `agx`
#                        alone to a folder of its own to measure what users run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

. scripts/agx-bin.sh
AGX="$(agx_bin release)"
# The floor is its own Cargo project (its own workspace and target folder, outside the clone).
FLOOR_TARGET="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/floor-target"
CARGO_TARGET_DIR="$FLOOR_TARGET" cargo build --release --quiet --manifest-path benches/floor/Cargo.toml
FLOOR="$FLOOR_TARGET/release/agx-bench-floor"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
mkdir -p "$HOME"

# 5 packages of 10 tools; bench/p0's server `all` exposes all 50 (40 through dependencies).
bash "$ROOT/benches/serve-packages.sh" "$AGX" "$TMP"

PY_SERVER=""
if [[ "${AGX_BENCH_NO_PYTHON:-}" != 1 ]]; then
    CACHE="${AGX_PY_CLIENT_CACHE:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/python-client}"
    if [[ ! -x "$CACHE/venv/bin/python" ]] || ! "$CACHE/venv/bin/python" -c 'import mcp' 2>/dev/null; then
        python3 -m venv "$CACHE/venv"
        "$CACHE/venv/bin/pip" install --quiet --disable-pip-version-check mcp
    fi
    PY_SERVER="$TMP/py_server.py"
    {
        echo 'import subprocess'
        echo 'from mcp.server.mcpserver import MCPServer'
        echo 'server = MCPServer("bench-all")'
        for q in 0 1 2 3 4; do for t in $(seq 0 9); do
            cat <<PY
@server.tool(description="Benchmark tool $t of package $q: echoes its arguments")
def t${q}_${t}(text: str, count: int = 0) -> str:
    return subprocess.run(["cat"], input=text, capture_output=True, text=True).stdout
PY
        done; done
        echo 'server.run()'
    } > "$PY_SERVER"
    PY_SERVER="$CACHE/venv/bin/python $PY_SERVER"
fi

python3 "$ROOT/benches/serve_measure.py" "$AGX serve bench/p0/all" "$PY_SERVER" "$FLOOR"
