#!/usr/bin/env bash
# agx sbom against the reference JSON Schema validator (PyPI `jsonschema`, issue 36): the
# installed packages of a home (from the fixture registry) and a project's lock, each as
# CycloneDX 1.6 and SPDX 2.3, validated against the official schemas with format checks.
#
#   AGX_CI_CACHE  cache folder; the venv lives in $AGX_CI_CACHE/sbom-venv
#   AGX_BIN       the agx binary (default: target/debug/agx, built with `cargo build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

JSONSCHEMA_VERSION=4.23.0
venv="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/sbom-venv"
installed="$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('jsonschema'))" 2>/dev/null || true)"
if [ "$installed" != "$JSONSCHEMA_VERSION" ]; then
    echo "==> pip install jsonschema[format]==$JSONSCHEMA_VERSION into $venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "jsonschema[format]==$JSONSCHEMA_VERSION"
fi
PY="$venv/bin/python"

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
unset AGX_REGISTRY || true
mkdir -p "$HOME" "$TMP/project"

"$AGX" -q --registry "$ROOT/registry-fixtures/registry" install acme/weather acme/docs >/dev/null
(cd "$TMP/project" && "$AGX" -q --registry "$ROOT/registry-fixtures/registry" add acme/weather/forecast@~1.1 >/dev/null)
for format in cyclonedx spdx; do
    "$AGX" sbom --format "$format" -o "$TMP/installed.$format.json"
    "$PY" scripts/ci/sbom_validate.py "$format" "$TMP/installed.$format.json"
    "$AGX" sbom --project "$TMP/project" --format "$format" -o "$TMP/project.$format.json"
    "$PY" scripts/ci/sbom_validate.py "$format" "$TMP/project.$format.json"
done
echo "sbom-schemas: ok"
