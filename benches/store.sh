#!/bin/sh
# Benchmarks of the local store, with hyperfine and the release binary:
#   1. `agx list` with 1,000 installed packages                        target < 50 ms
#   2. `agx list --include-remote` against a cached 10,000-package
#      catalog (loopback HTTP registry; a conditional request, 304)    target < 150 ms
#   3. installing a 50 MB package from a loopback HTTP registry         target >= 150 MB/s,
#                                                                       peak RSS < 40 MB
#   4. a no-op install of an installed package                          target < 10 ms
#
#   benches/store.sh                 # all four
#   INSTALLED=200 CATALOG=2000 BIG_MB=10 benches/store.sh   # smaller, quicker
set -eu
cd "$(dirname "$0")/.."
INSTALLED=${INSTALLED:-1000}
CATALOG=${CATALOG:-10000}
BIG_MB=${BIG_MB:-50}

for tool in hyperfine python3 /usr/bin/time; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "$tool is needed (apt-get install -y hyperfine time python3)" >&2
        exit 2
    }
done
. scripts/agx-bin.sh
agx="$(agx_bin release)"
gen=$PWD/benches/gen_store_fixtures.py

work=$(mktemp -d)
server_pids=""
cleanup() {
    for pid in $server_pids; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off HOME="$work/home"
mkdir -p "$HOME"

# Serve a folder on a free loopback port (Python's server answers If-Modified-Since with 304)
# and set served_url. Not called in a command substitution: that would run it in a subshell,
# and the server's PID would never reach cleanup.
serve() {
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 -m http.server --bind 127.0.0.1 --directory "$1" "$port" >/dev/null 2>&1 &
    server_pids="$server_pids $!"
    for _ in $(seq 50); do
        python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/config.json')" 2>/dev/null && break
        sleep 0.1
    done
    served_url="http://127.0.0.1:$port"
}

echo "== generating $INSTALLED packages, a $CATALOG-package catalog and a $BIG_MB MB package" >&2
python3 "$gen" sources "$work/src" "$INSTALLED"
"$agx" -q registry init "$work/registry"
for dir in "$work"/src/pkg-*; do
    "$agx" -q registry add "$work/registry" "$dir" >/dev/null
done
python3 "$gen" catalog "$work/catalog" "$CATALOG"
python3 "$gen" big "$work/big" "$BIG_MB"
"$agx" -q registry init "$work/big-registry"
"$agx" -q registry add "$work/big-registry" "$work/big" >/dev/null

# 1 and 4: a home with INSTALLED packages from the folder registry.
export AGX_HOME="$work/agx-home"
names=$(cd "$work/src" && for d in pkg-*; do printf 'bench/%s ' "$d"; done)
# shellcheck disable=SC2086
"$agx" -q --registry "$work/registry" install $names
count=$("$agx" list | wc -l)
[ "$count" -eq "$INSTALLED" ] || { echo "expected $INSTALLED installed packages, got $count" >&2; exit 1; }

echo "== 1. agx list with $INSTALLED installed packages (target < 50 ms)" >&2
hyperfine --warmup 3 --min-runs 20 -N --output=null "$agx list"

echo "== 4. no-op install of an installed package (target < 10 ms)" >&2
hyperfine --warmup 3 --min-runs 50 -N --output=null "$agx install bench/pkg-0007"

# 2: the catalog over loopback HTTP, cached by a first run.
serve "$work/catalog"
catalog_url=$served_url
export AGX_HOME="$work/agx-home-remote"
"$agx" -q --registry "$catalog_url" list --include-remote >/dev/null
echo "== 2. agx list --include-remote, cached $CATALOG-package catalog (target < 150 ms)" >&2
hyperfine --warmup 3 --min-runs 20 -N --output=null \
    "$agx --registry $catalog_url list --include-remote" \
    "$agx --registry $catalog_url --offline list --include-remote"

# 3: a BIG_MB package over loopback HTTP, into a fresh home each run.
serve "$work/big-registry"
big_url=$served_url
export AGX_HOME="$work/agx-home-big"
size=$(stat -c %s "$work"/big-registry/dl/bench/big/1.0.0.tar.gz)
echo "== 3. install a $BIG_MB MB package ($size bytes compressed) from $big_url (target >= 150 MB/s, RSS < 40 MB)" >&2
hyperfine --warmup 1 --min-runs 5 -N --output=null \
    --prepare "rm -rf $work/agx-home-big" \
    --export-json "$work/big.json" \
    "$agx --registry $big_url install bench/big"
python3 - "$work/big.json" "$size" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))["results"][0]
size = int(sys.argv[2])
print(f"   throughput: {size / result['mean'] / 1e6:.0f} MB/s (mean), "
      f"{size / result['min'] / 1e6:.0f} MB/s (best)", file=sys.stderr)
EOF
rm -rf "$work/agx-home-big"
/usr/bin/time -v "$agx" -q --registry "$big_url" install bench/big 2>"$work/time.txt"
grep -E "Maximum resident set size|Elapsed" "$work/time.txt" >&2
