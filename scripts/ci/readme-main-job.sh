#!/usr/bin/env bash
# Runs the README's first quick-start command exactly as written, in a temporary HOME, and
# checks that it installed what it says. Keeps README and CI from drifting apart.
#
#   scripts/ci/readme-main-job.sh [AGX_COMMAND...]
#
# With AGX_COMMAND (an installed agx: `/venv/bin/agx`, `npx --prefix DIR agx`), it stands in
# for the command's `cargo run -q --`, so an installed artifact runs the same job.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmd="$(awk '/^## Quick start/{quick=1} quick && /^```sh$/{getline; print; exit}' README.md)"
[ -n "$cmd" ] || { echo "README.md has no command under ## Quick start"; exit 1; }
agx=(target/debug/agx)
if [ $# -gt 0 ]; then
    agx=("$@")
    cmd="${cmd//cargo run -q --/$(printf '%q ' "$@")}"
fi
# cargo and rustup find their toolchain through HOME unless told otherwise.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "+ $cmd"
HOME="$tmp" AGX_HOME="$tmp/agx-home" AGX_NO_PROGRESS=1 bash -c "$cmd"
HOME="$tmp" AGX_HOME="$tmp/agx-home" "${agx[@]}" list | grep -q '^acme/weather ' \
    || { echo "the README's first command did not install acme/weather"; exit 1; }
echo "README main job: ok"
