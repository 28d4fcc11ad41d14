#!/usr/bin/env bash
# Benchmark: signed registries (docs/registry.md, "Signed registries"). On loopback, with a
# registry of PACKAGES packages (the fixture packages plus generated ones) served twice by
# python's http.server, once unsigned and once signed by `agx registry sign`:
#   1. `agx install acme/weather` (with acme/geo) from each, warm cache: signed / unsigned
#      (target: at most 1.2x);
#   2. `agx registry add --keys` of one package into the signed registry (target: under
#      200 ms), beside the same add into the unsigned one;
#   3. a fresh client's refresh and one target's download: agx's updater
#      (examples/tuf_client) against python-tuf's ngclient (the anchor).
#
#   AGX_BIN     agx binary (default: a fresh `cargo build --release`)
#   TUF_CLIENT  the conformance client (default: `cargo build --release --example tuf_client`)
#   PYTHON      a python with `tuf` (default: python3; step 3 is skipped without it)
#   PACKAGES    registry size (default 10000)
#   RUNS        hyperfine runs per command (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
if [[ -z "${TUF_CLIENT:-}" ]]; then
    cargo build --release --quiet --example tuf_client >&2
    TUF_CLIENT="$PWD/target/release/examples/tuf_client"
fi
PYTHON="${PYTHON:-python3}"
PACKAGES="${PACKAGES:-10000}"
RUNS="${RUNS:-20}"
command -v hyperfine >/dev/null || { echo "hyperfine is not installed" >&2; exit 1; }

TMP="$(mktemp -d)"
SERVERS=()
cleanup() {
    for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT
export HOME="$TMP/home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
mkdir -p "$HOME"

# The fixture registry plus generated packages (index line, catalog entry, a small archive
# each: never installed, only listed and signed).
PLAIN="$TMP/plain"
cp -r registry-fixtures/registry "$PLAIN"
python3 - "$PLAIN" "$PACKAGES" <<'PY'
import hashlib, json, os, sys
reg, count = sys.argv[1], int(sys.argv[2])
catalog_path = os.path.join(reg, "catalog.json")
text = open(catalog_path).read()
head, _, _ = text.rpartition("\n]}")
lines = []
for i in range(count):
    pub, name = f"pub{i % 97}", f"pkg-{i}"
    body = os.urandom(64) + f"{pub}/{name}".encode()
    os.makedirs(f"{reg}/dl/{pub}/{name}", exist_ok=True)
    open(f"{reg}/dl/{pub}/{name}/1.0.0.tar.gz", "wb").write(body)
    entry = {"v": 1, "name": f"{pub}/{name}", "vers": "1.0.0",
             "cksum": hashlib.sha256(body).hexdigest(), "size": len(body),
             "description": f"Generated package {i}"}
    os.makedirs(f"{reg}/packages/{pub}", exist_ok=True)
    open(f"{reg}/packages/{pub}/{name}.json", "w").write(json.dumps(entry) + "\n")
    lines.append(json.dumps({"name": f"{pub}/{name}", "version": "1.0.0",
                             "description": f"Generated package {i}"}, separators=(",", ":")))
open(catalog_path, "w").write(head + ",\n" + ",\n".join(lines) + "\n]}\n")
PY
SIGNED="$TMP/signed"
cp -r "$PLAIN" "$SIGNED"
"$AGX" -q registry keys generate "$TMP/keys"
start=$(date +%s%N)
"$AGX" registry sign "$SIGNED" --keys "$TMP/keys"
echo "signing the whole registry once: $(( ($(date +%s%N) - start) / 1000000 )) ms"

# Serve a folder on a free port; sets URL (no subshell: the servers are killed on exit).
serve() {
    local dir=$1 port_file=$2
    python3 -c '
import http.server, socketserver, sys, os
os.chdir(sys.argv[1])
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
with Server(("127.0.0.1", 0), Quiet) as s:
    open(sys.argv[2], "w").write(str(s.server_address[1]))
    s.serve_forever()
' "$dir" "$port_file" >/dev/null 2>&1 &
    SERVERS+=($!)
    for _ in $(seq 50); do [[ -s "$port_file" ]] && break; sleep 0.1; done
    URL="http://127.0.0.1:$(cat "$port_file")"
}
serve "$PLAIN" "$TMP/plain.port"
PLAIN_URL=$URL
serve "$SIGNED" "$TMP/signed.port"
SIGNED_URL=$URL

AGX_HOME="$TMP/home-plain" "$AGX" -q registry add-source plain "$PLAIN_URL"
AGX_HOME="$TMP/home-signed" "$AGX" -q registry add-source signed "$SIGNED_URL" \
    --root "$SIGNED/metadata/1.root.json"
# Warm both caches.
AGX_HOME="$TMP/home-plain" "$AGX" -q --registry plain install acme/weather
AGX_HOME="$TMP/home-signed" "$AGX" -q --registry signed install acme/weather

echo
echo "== 1. install acme/weather from $PACKAGES packages, warm cache: signed / unsigned"
hyperfine -N --warmup 2 --runs "$RUNS" \
    --prepare "env AGX_HOME=$TMP/home-plain $AGX -q uninstall acme/weather acme/geo" \
    -n unsigned "env AGX_HOME=$TMP/home-plain $AGX -q --registry plain install acme/weather" \
    --prepare "env AGX_HOME=$TMP/home-signed $AGX -q uninstall acme/weather acme/geo" \
    -n signed "env AGX_HOME=$TMP/home-signed $AGX -q --registry signed install acme/weather"

echo
echo "== 2. registry add of one package (a new version each run)"
# The prepare step writes the next version into the package folder, so that every timed
# run publishes (a version published before would be a no-op).
mkdir -p "$TMP/next/agx/tools"
cat >"$TMP/bump.sh" <<'EOF'
#!/bin/sh
n=$(cat "$1/counter" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" >"$1/counter"
printf '[package]\nname = "bench/added"\nversion = "1.0.%s"\ndescription = "A package published by the benchmark"\n' "$n" >"$1/next/agx.toml"
EOF
hyperfine -N --warmup 2 --runs "$RUNS" \
    --prepare "sh $TMP/bump.sh $TMP" \
    -n "unsigned add" "$AGX -q registry add $PLAIN $TMP/next" \
    --prepare "sh $TMP/bump.sh $TMP" \
    -n "signed add --keys" "$AGX -q registry add $SIGNED $TMP/next --keys $TMP/keys"

if "$PYTHON" -c 'import tuf.ngclient' 2>/dev/null; then
    echo
    echo "== 3. a fresh client: refresh and download one target (python-tuf is the anchor)"
    cat >"$TMP/ngclient.py" <<'PY'
import sys, tempfile
from tuf.ngclient import Updater
url, root = sys.argv[1], open(sys.argv[2], "rb").read()
with tempfile.TemporaryDirectory() as md, tempfile.TemporaryDirectory() as tg:
    u = Updater(metadata_dir=md, metadata_base_url=url + "/metadata/",
                target_base_url=url + "/", target_dir=tg, bootstrap=root)
    u.refresh()
    u.download_target(u.get_targetinfo("packages/acme/weather.json"))
PY
    cat >"$TMP/agx_client.sh" <<EOF
#!/bin/sh
d=\$(mktemp -d)
mkdir "\$d/m" "\$d/t"
"$TUF_CLIENT" --metadata-dir "\$d/m" init "$SIGNED/metadata/1.root.json"
"$TUF_CLIENT" --metadata-dir "\$d/m" --metadata-url "$SIGNED_URL/metadata" \
    --target-name packages/acme/weather.json --target-base-url "$SIGNED_URL/" --target-dir "\$d/t" download
rm -rf "\$d"
EOF
    chmod +x "$TMP/agx_client.sh"
    hyperfine -N --warmup 2 --runs "$RUNS" \
        -n "python-tuf ngclient" "$PYTHON $TMP/ngclient.py $SIGNED_URL $SIGNED/metadata/1.root.json" \
        -n "agx-tuf (tuf_client)" "sh $TMP/agx_client.sh"
else
    echo "(step 3 skipped: $PYTHON has no tuf; set PYTHON to one that does)"
fi
