#!/usr/bin/env bash
# Runs the README's first command exactly as written, in a temporary HOME, and checks that
# it installed what it says. Keeps README and CI from drifting apart.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmd="$(awk '/^```sh$/{getline; print; exit}' README.md)"
[ -n "$cmd" ] || { echo "README.md has no first command"; exit 1; }
# cargo and rustup find their toolchain through HOME unless told otherwise.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "+ $cmd"
HOME="$tmp" AGX_HOME="$tmp/agx-home" AGX_NO_PROGRESS=1 bash -c "$cmd"
HOME="$tmp" AGX_HOME="$tmp/agx-home" target/debug/agx list | grep -q '^acme/weather ' \
    || { echo "the README's first command did not install acme/weather"; exit 1; }
echo "README main job: ok"
