#!/bin/sh
# Benchmark: `agx discover` of a generated folder of N scripts (default 50: a third each of
# simple-JSON Python with a schema dump, argparse Python read from --help, and shell scripts
# with a help block), release binary. Probes run in parallel, as many as there are cores:
# the figure is the wall time of all probes against the sum of every probe's own time, from
# one run (`probe_time_ms` and `elapsed_ms` of --json), then hyperfine's wall time.
# Target: bounded by the slowest probes run in parallel (wall ≈ sum ÷ cores, not the sum).
#   benches/discover.sh
#   N=200 AGX_BIN=path/to/agx benches/discover.sh
set -eu
cd "$(dirname "$0")/.."
N=${N:-50}

command -v hyperfine >/dev/null 2>&1 || {
    echo "hyperfine is needed: apt-get install -y hyperfine (or cargo install hyperfine)" >&2
    exit 2
}
. scripts/agx-bin.sh
agx="$(agx_bin release)"
# The real interpreter, not a pyenv shim (which adds ~250 ms to every start).
PATH="$(dirname "$(python3 -c 'import sys; print(sys.executable)')"):$PATH"
export PATH

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dir="$work/scripts"
mkdir -p "$dir"
i=0
while [ "$i" -lt "$N" ]; do
    case $((i % 3)) in
    0) sed "s/\"weather\"/\"weather_$i\"/" registry-fixtures/scripts/weather.py >"$dir/weather_$i.py" ;;
    1) cp registry-fixtures/scripts/forecast.py "$dir/forecast_$i.py" ;;
    2) cp registry-fixtures/scripts/convert.sh "$dir/convert_$i.sh" ;;
    esac
    i=$((i + 1))
done

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
"$agx" discover --json --timeout 2000 "$dir" >"$work/found.json"
python3 - "$work/found.json" "$cores" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["discovery"]
cores = int(sys.argv[2])
tools, skipped = len(d["tools"]), len(d["skipped"])
wall, total = d["elapsed_ms"], d["probe_time_ms"]
print(f"{tools} tools found, {skipped} scripts skipped, on {cores} cores")
print(f"probes: wall {wall} ms; sum of each probe's own time {total} ms; "
      f"wall / sum = {wall / total:.2f} (1/{cores} = {1 / cores:.2f} would be perfectly parallel)")
if skipped:
    sys.exit(f"a generated script was skipped: {d['skipped'][0]}")
PY
hyperfine --warmup 1 --runs 5 -N "$agx discover --timeout 2000 $dir"
