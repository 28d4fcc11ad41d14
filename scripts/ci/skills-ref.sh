#!/usr/bin/env bash
# The reference Agent Skills validator (PyPI `skills-ref`, pinned) against agx:
# every skill copy `agx install-skill` writes passes `agentskills validate`, and for every
# fixture skill the reference validator refuses, `agx validate` reports a finding in that
# SKILL.md about the same field (scripts/ci/skills_ref_check.py).
# Environment: AGX_CI_CACHE (default ~/.cache/agx-ci): the venv lives there; AGX_BIN (default
# target/debug/agx).
set -euo pipefail
SKILLS_REF_VERSION=0.1.1
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}"
VENV="$CACHE/skills-ref-$SKILLS_REF_VERSION"
if [ ! -x "$VENV/bin/agentskills" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "skills-ref==$SKILLS_REF_VERSION"
fi
AGX="${AGX_BIN:-$ROOT/target/debug/agx}"
[ -x "$AGX" ] || (cd "$ROOT" && cargo build -q)
exec python3 "$ROOT/scripts/ci/skills_ref_check.py" "$AGX" "$VENV/bin/agentskills" "$ROOT"
