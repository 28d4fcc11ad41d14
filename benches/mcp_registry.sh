#!/usr/bin/env bash
# Benchmark: `agx search` over the cache of an MCP registry of 10,000 servers (`--offline`):
# reading the cached pages, parsing the server.json documents and ranking. Target: < 50 ms
# per run. The registry is a small loopback server that generates the servers and pages
# them by cursor, 100 a page, like the official one.
#
#   AGX_BIN   agx binary (default: a fresh `cargo build --release`)
#   SERVERS   registry size (default 10000)
#   RUNS      hyperfine runs (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
SERVERS="${SERVERS:-10000}"
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

PORT_FILE="$TMP/port"
python3 - "$SERVERS" "$PORT_FILE" <<'PY' &
import http.server, json, socketserver, sys, urllib.parse
count, port_file = int(sys.argv[1]), sys.argv[2]
words = ["weather", "geo", "docs", "search", "notes", "mail", "calendar", "maps", "code", "data"]
def server(i):
    w = words[i % len(words)]
    return {"server": {
        "name": f"io.github.pub{i % 97}/{w}-{i:05}", "version": "1.0.0",
        "description": f"The {w} server number {i}",
        "packages": [{"registryType": "npm", "identifier": f"@pub{i % 97}/{w}-{i}",
                      "version": "1.0.0", "transport": {"type": "stdio"},
                      "environmentVariables": [{"name": "API_KEY", "isSecret": True}]}]},
        "_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "isLatest": True}}}
class Registry(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        q = dict(urllib.parse.parse_qsl(url.query))
        if url.path != "/v0.1/servers":
            self.send_response(404); self.end_headers(); return
        start = int(q.get("cursor", "0"))
        end = min(start + min(int(q.get("limit", "30")), 100), count)
        body = json.dumps({"servers": [server(i) for i in range(start, end)],
                           "metadata": {"nextCursor": str(end) if end < count else None,
                                        "count": end - start}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
with socketserver.ThreadingTCPServer(("127.0.0.1", 0), Registry) as s:
    open(port_file, "w").write(str(s.server_address[1]))
    s.serve_forever()
PY
SERVER=$!
for _ in $(seq 50); do [[ -s "$PORT_FILE" ]] && break; sleep 0.1; done
URL="http://127.0.0.1:$(cat "$PORT_FILE")"
"$AGX" -q registry add-source bench "$URL" --kind mcp-registry
"$AGX" search weather >/dev/null
echo "cached: $SERVERS servers, $(du -sh "$AGX_HOME" | cut -f1) under AGX_HOME"

if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 3 --runs "$RUNS" \
        -n "search weather-00420 (one match)" "$AGX --offline search weather-00420" \
        -n "search server number (all match)" "$AGX --offline search server number" \
        -n "anchor: agx --version" "$AGX --version"
else
    echo "hyperfine not found (cargo install hyperfine); timing with date"
    start=$(date +%s%N)
    for _ in $(seq "$RUNS"); do "$AGX" --offline search weather-00420 >/dev/null; done
    end=$(date +%s%N)
    printf 'agx --offline search: %.1f ms per run\n' "$(echo "($end - $start) / $RUNS / 1000000" | bc -l)"
fi
