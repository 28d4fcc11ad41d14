#!/bin/sh
# Benchmark: `agx validate` of a generated package with N tools (default 500), with
# hyperfine and the release binary. Target: under 100 ms.
#   benches/validate.sh            # N=500
#   N=2000 benches/validate.sh
#   AGX_BIN=path/to/agx benches/validate.sh   # measure a given binary
set -eu
cd "$(dirname "$0")/.."
N=${N:-500}

command -v hyperfine >/dev/null 2>&1 || {
    echo "hyperfine is needed: apt-get install -y hyperfine (or cargo install hyperfine)" >&2
    exit 2
}
. scripts/agx-bin.sh
agx="$(agx_bin release)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg="$work/pkg"
benches/gen-package.sh "$pkg" "$N"

# The generated package must be valid, or the figure means nothing.
"$agx" validate "$pkg"
hyperfine --warmup 3 --min-runs 20 -N "$agx validate $pkg"
