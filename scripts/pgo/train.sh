#!/usr/bin/env bash
# The training run of a PGO build (scripts/pgo.sh): what agx's users run most, driven through
# AGX in a temporary HOME and agx home, against the fixture registry only. `.ci/run` runs it
# on the debug binary, so the training keeps working as the commands change.
#   scripts/pgo/train.sh AGX
set -euo pipefail
cd "$(dirname "$0")/../.."
agx=${1:?usage: scripts/pgo/train.sh AGX}
python="$(command -v python3 || command -v python)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" AGX_HOME="$work/agx-home" AGX_NO_PROGRESS=1 NO_COLOR=1 \
    AGX_OFFICIAL_REGISTRY=off AGX_LOG=error AGX_KEYRING=file
mkdir -p "$HOME"
registry=registry-fixtures/registry
# With AGX_PGO_RAW (scripts/pgo.sh), the counts of the commands and of `agx serve` go to
# files of their own there, so the layout can put the code `agx serve` runs first.
phase() {
    if [[ -n ${AGX_PGO_RAW:-} ]]; then
        export LLVM_PROFILE_FILE="$AGX_PGO_RAW/$1-%m.profraw"
    fi
}

# The README's main job and the commands around it, a few times each.
phase commands
for _ in 1 2 3; do
    "$agx" -q --registry "$registry" install acme/weather
    "$agx" list
    "$agx" info acme/weather
    "$agx" info acme/weather/forecast
    "$agx" --registry "$registry" search weather
    "$agx" -q --registry "$registry" outdated
    "$agx" tools acme/weather/forecast
    "$agx" -q validate registry-fixtures/packages/acme-weather
    "$agx" -q pack registry-fixtures/packages/acme-weather --output "$work/pack"
    "$agx" -q install-server cursor acme/weather/forecast
    "$agx" clients
    "$agx" -q doctor
    "$agx" -q uninstall-server cursor acme/weather/forecast
    "$agx" call acme/weather/get_forecast --arg lat=59.9 --arg lon=10.7
    "$agx" -q uninstall acme/weather
done >/dev/null
# `agx serve`, far more often than anything else: clients start it on every launch.
"$agx" -q --registry "$registry" install acme/weather >/dev/null
bash benches/serve-packages.sh "$agx" "$work"
phase serve
"$python" scripts/pgo/train.py "$agx"
