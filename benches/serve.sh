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
#   AGX_BIN              an agx binary to measure (default: a fresh `cargo build --release`)
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
REG="$TMP/registry"
"$AGX" registry init --quiet "$REG" >/dev/null
for p in 1 2 3 4 0; do
    dir="$TMP/src/p$p"
    mkdir -p "$dir/agx"
    {
        echo "[package]"
        echo "name = \"bench/p$p\""
        echo "version = \"1.0.0\""
        echo "description = \"Benchmark package $p\""
        if [[ $p == 0 ]]; then
            echo "[dependencies]"
            for d in 1 2 3 4; do echo "\"bench/p$d\" = \"^1.0\""; done
        fi
        echo "[extension]"
        [[ $p == 0 ]] && echo 'servers = ["all"]'
        printf 'tools = ['
        for t in $(seq 0 9); do printf '"t%s_%s", ' "$p" "$t"; done
        echo ']'
    } > "$dir/agx.toml"
    : > "$dir/agx/tools.toml"
    for t in $(seq 0 9); do
        cat >> "$dir/agx/tools.toml" <<TOML
[t${p}_${t}]
name = "t${p}_${t}"
description = "Benchmark tool $t of package $p: echoes its arguments"
command = ["cat"]
annotations = { read_only = true }

[[t${p}_${t}.parameters]]
name = "text"
type = "string"
description = "Anything"
required = true

[[t${p}_${t}.parameters]]
name = "count"
type = "integer"
description = "A number"

TOML
    done
    if [[ $p == 0 ]]; then
        {
            echo "[all]"
            echo 'name = "all"'
            printf 'tools = ['
            for q in 0 1 2 3 4; do for t in $(seq 0 9); do
                if [[ $q == 0 ]]; then printf '"t0_%s", ' "$t"; else printf '"bench/p%s/t%s_%s", ' "$q" "$q" "$t"; fi
            done; done
            echo ']'
        } > "$dir/agx/servers.toml"
    fi
    "$AGX" registry add --quiet "$REG" "$dir" >/dev/null
done
"$AGX" install --quiet --registry "$REG" bench/p0 >/dev/null

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
