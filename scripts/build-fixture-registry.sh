#!/bin/sh
# Rebuild the fixture registry from the package sources beside it, with the agx binary:
#   registry-fixtures/packages/*/  ->  registry-fixtures/registry/
# Usage: scripts/build-fixture-registry.sh [OUT_DIR]   (default: registry-fixtures/registry)
# AGX=/path/to/agx uses that binary instead of building one with cargo.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/registry-fixtures/registry"}
agx=${AGX:-}
if [ -z "$agx" ]; then
    cargo build --quiet --manifest-path "$root/Cargo.toml"
    agx="$root/target/debug/agx"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$agx" -q registry init "$work/registry" --name fixtures
for package in "$root"/registry-fixtures/packages/*/; do
    # Packages without a publisher (`name = "notes"`) are local-only, never in a registry.
    grep -q '^name = "[^"]*/' "$package/agx.toml" || continue
    "$agx" -q registry add "$work/registry" "$package"
done
rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -R "$work/registry" "$out"
