#!/usr/bin/env bash
# Benchmark: `agx search` over a 10,000-package catalog, from a folder registry and from the
# cache of a web registry (`--offline`): reading and parsing catalog.json plus ranking, the
# path `list --include-remote` also takes. Target: well under 150 ms per run.
#
#   AGX_BIN   agx binary (default: a fresh `cargo build --release`)
#   PACKAGES  catalog size (default 10000)
#   RUNS      iterations (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
PACKAGES="${PACKAGES:-10000}"
RUNS="${RUNS:-20}"

TMP="$(mktemp -d)"
SERVER=""
cleanup() {
    if [[ -n "$SERVER" ]]; then
        kill "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
mkdir -p "$HOME"
REG="$TMP/registry"
"$AGX" -q registry init "$REG" --name bench
python3 - "$REG" "$PACKAGES" <<'PY'
import json, sys
reg, count = sys.argv[1], int(sys.argv[2])
words = ["weather", "geo", "docs", "search", "notes", "mail", "calendar", "maps", "code", "data"]
lines = []
for i in range(count):
    w = words[i % len(words)]
    tools = [{"name": f"{w}_tool{j}", "description": f"Does {w} thing {j}",
              "parameters": [{"name": "query", "type": "string", "required": True}]} for j in range(3)]
    lines.append(json.dumps({
        "name": f"pub{i % 97}/{w}-{i}", "version": "1.0.0",
        "description": f"The {w} package number {i}",
        "extension": {"servers": [{"name": "main", "tools": [t["name"] for t in tools], "prompts": []}],
                      "tools": tools, "prompts": [{"name": "Ask", "arguments": ["q"]}]},
    }, separators=(",", ":")))
with open(f"{reg}/catalog.json", "w") as f:
    f.write('{"v":1,"packages":[\n' + ",\n".join(lines) + "\n]}\n")
PY
echo "catalog: $PACKAGES packages, $(du -h "$REG/catalog.json" | cut -f1)"

# Serve it once to fill the cache of a web registry, then search offline from the cache.
PORT_FILE="$TMP/port"
python3 -c '
import http.server, socketserver, sys, os
os.chdir(sys.argv[1])
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
with socketserver.TCPServer(("127.0.0.1", 0), Quiet) as s:
    open(sys.argv[2], "w").write(str(s.server_address[1]))
    s.serve_forever()
' "$REG" "$PORT_FILE" &
SERVER=$!
for _ in $(seq 50); do [[ -s "$PORT_FILE" ]] && break; sleep 0.1; done
URL="http://127.0.0.1:$(cat "$PORT_FILE")"
"$AGX" --registry "$URL" search weather >/dev/null

bench() {
    local label=$1; shift
    local start end
    start=$(date +%s%N)
    for _ in $(seq "$RUNS"); do "$@" >/dev/null; done
    end=$(date +%s%N)
    printf '%-28s %6.1f ms per run\n' "$label" "$(echo "($end - $start) / $RUNS / 1000000" | bc -l)"
}
bench "folder registry" "$AGX" --registry "$REG" search weather tool1
bench "web registry, --offline" "$AGX" --offline --registry "$URL" search weather tool1
bench "web registry, 304" "$AGX" --registry "$URL" search weather tool1
