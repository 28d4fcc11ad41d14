#!/usr/bin/env bash
# Benchmark: what a sign-in adds to `agx serve` of a remote (docs/auth.md). The remote is the
# loopback fixture registry-fixtures/oauth/server.py, once wanting a sign-in (agx attaches the
# token kept by `agx auth login`) and once with none (`--open`); the same `tools/call`
# through both bridges, interleaved call by call (benches/auth_measure.py): target, the
# sign-in adds < 1 ms to the median. Then the start (serve, initialize, one call, exit) of
# each with hyperfine, `agx --version` in the same run as the anchor, and the metadata
# requests the signed-in starts made (target: none; the sign-in keeps the metadata).
#
#   AGX_BIN  agx binary (default: a fresh `cargo build --release`)
#   RUNS     hyperfine runs per command (default 20); ROUNDS calls per bridge (default 400)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
RUNS="${RUNS:-20}"
ROUNDS="${ROUNDS:-400}"

TMP="$(mktemp -d)"
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error AGX_KEYRING=file
mkdir -p "$HOME"

start_fixture() { # NAME OPTIONS…: the fixture's base URL in $TMP/NAME.url
    local name=$1; shift
    python3 "$ROOT/registry-fixtures/oauth/server.py" "$@" > "$TMP/$name.out" &
    PIDS+=($!)
    for _ in $(seq 100); do grep -q "listening on" "$TMP/$name.out" && break; sleep 0.05; done
    sed -n 's/^listening on //p' "$TMP/$name.out" > "$TMP/$name.url"
}
remote_package() { # NAME URL
    mkdir -p "$TMP/src/$1/agx/servers"
    printf '[package]\nname = "bench/%s"\nversion = "1.0.0"\ndescription = "A remote"\nlicense = "MIT"\n\n[extension]\nservers = ["%s"]\n' "$1" "$1" > "$TMP/src/$1/agx.toml"
    printf 'name = "%s"\ndescription = "A remote"\nurl = "%s/mcp"\n' "$1" "$2" > "$TMP/src/$1/agx/servers/$1.toml"
    "$AGX" install --quiet "$TMP/src/$1"
}
start_fixture signed
start_fixture open --open
remote_package signed "$(cat "$TMP/signed.url")"
remote_package open "$(cat "$TMP/open.url")"
AGX_BROWSER="python3 $ROOT/registry-fixtures/oauth/browser.py" "$AGX" -q auth login bench/signed

echo "==> tools/call through the bridge, signed in vs no sign-in ($ROUNDS rounds, interleaved)"
python3 benches/auth_measure.py "$ROUNDS" "$AGX serve bench/signed" "$AGX serve bench/open"

metadata_before=$(curl -s "$(cat "$TMP/signed.url")/admin/log" | grep -o '"metadata"' | wc -l)
echo "==> a start: serve, initialize, one call, exit ($RUNS runs)"
hyperfine --warmup 3 --runs "$RUNS" -N \
    -n "agx --version" "$AGX --version" \
    -n "no sign-in" "python3 benches/auth_measure.py --once '$AGX serve bench/open'" \
    -n "signed in" "python3 benches/auth_measure.py --once '$AGX serve bench/signed'"
metadata_after=$(curl -s "$(cat "$TMP/signed.url")/admin/log" | grep -o '"metadata"' | wc -l)
echo "metadata requests during the signed-in starts: $((metadata_after - metadata_before))"
