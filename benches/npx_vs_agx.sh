#!/usr/bin/env bash
# Benchmark: start → `initialize` answered, for @modelcontextprotocol/server-everything
# launched by `agx serve` (installed with `agx install npm:…`, run with `node` on its bin)
# against the same package launched with `npx -y` from a warm npm cache. Target: agx at
# least 3× faster. Each run starts the server, sends `initialize`, waits for the answer and
# closes stdin; the client is the same small Python script for both.
#
#   AGX_BIN   agx binary (default: a fresh `cargo build --release`)
#   VERSION   server-everything version (default: the one tests/it/ecosystem.rs pins)
#   RUNS      hyperfine runs (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
VERSION="${VERSION:-2025.9.25}"
RUNS="${RUNS:-20}"
PACKAGE="@modelcontextprotocol/server-everything"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# A private npm cache and agx home; the certificates and proxies of the machine stay.
export AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 NO_COLOR=1
export npm_config_cache="$TMP/npm-cache" npm_config_update_notifier=false

cat >"$TMP/initialize.py" <<'PY'
"""Start the command in argv, send `initialize`, wait for its answer, close stdin."""
import json, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL)
request = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
           "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                      "clientInfo": {"name": "bench", "version": "1"}}}
proc.stdin.write((json.dumps(request) + "\n").encode())
proc.stdin.flush()
for line in proc.stdout:
    if json.loads(line).get("id") == 1:
        break
else:
    sys.exit("the server closed without answering initialize")
proc.stdin.close()
proc.kill()
proc.wait()
PY

"$AGX" -q install "npm:$PACKAGE@$VERSION"
SERVER="npm/$PACKAGE/mcp-server-everything"
# Warm npx's cache: the first `npx -y` downloads the package, later ones reuse it.
python3 "$TMP/initialize.py" npx -y "$PACKAGE@$VERSION"
python3 "$TMP/initialize.py" "$AGX" serve "$SERVER" # and check agx's answers

hyperfine --warmup 3 --runs "$RUNS" --export-json "$TMP/result.json" \
    -n "agx serve" "python3 $TMP/initialize.py $AGX serve $SERVER" \
    -n "npx -y" "python3 $TMP/initialize.py npx -y $PACKAGE@$VERSION"
python3 - "$TMP/result.json" <<'PY'
import json, sys
results = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
agx, npx = results["agx serve"], results["npx -y"]
print(f"agx serve {agx * 1000:.0f} ms, npx -y {npx * 1000:.0f} ms: agx is {npx / agx:.1f}x faster (target: at least 3x)")
PY
