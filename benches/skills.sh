#!/usr/bin/env bash
# Benchmark: Agent Skills (docs/skills.md) from a folder registry, with `agx --version` in
# the same run as the anchor (process start alone):
#   - `agx sync` of a project with 20 skills × 6 clients (claude-code, codex, gemini,
#     vscode, cursor, opencode: 40 copies in .claude/skills and .agents/skills) when nothing
#     changed                                         (target < 10 ms)
#   - `agx install-skill all` of one skill: its two copies written and recorded (each run
#     starts without them: `--prepare` removes them with `agx uninstall-skill all`, then
#     `sync`s, so that a run does not also pay for flushing the removal)  (target < 20 ms)
# The 20 skills come from benches/gen-package.sh.
#
#   AGX_BIN  agx binary (default: a fresh `cargo build --release`)
#   RUNS     hyperfine runs per command (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }
. scripts/agx-bin.sh
AGX="$(agx_bin release)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
unset AGX_PROJECT XDG_CONFIG_HOME || true
mkdir -p "$HOME"
export AGX_REGISTRY="$TMP/registry"
"$AGX" registry init "$AGX_REGISTRY" >/dev/null
sh "$ROOT/benches/gen-package.sh" "$TMP/src/skills" 1 20
"$AGX" registry add "$AGX_REGISTRY" "$TMP/src/skills" >/dev/null

PROJECT="$TMP/repo"
mkdir -p "$PROJECT"
{
    printf '[project]\nclients = ["claude-code", "codex", "gemini", "vscode", "cursor", "opencode"]\n\n[skills]\n'
    for i in $(seq 1 20); do printf 'skill-%s = { skill = "bench/many-tools/skill-%s", version = "^1" }\n' "$i" "$i"; done
} > "$PROJECT/agx.toml"
"$AGX" sync --project "$PROJECT" >/dev/null 2>&1
"$AGX" sync --check --project "$PROJECT" >/dev/null
[ "$(ls "$PROJECT/.agents/skills" | wc -l)" -eq 20 ] && [ "$(ls "$PROJECT/.claude/skills" | wc -l)" -eq 20 ]
"$AGX" install bench/many-tools >/dev/null 2>&1

RUNS="${RUNS:-30}"
hyperfine -N --warmup 3 --runs "$RUNS" \
    -n 'agx --version' "$AGX --version" \
    -n 'agx sync (20 skills x 6 clients, nothing changed)' "$AGX sync --project $PROJECT"
hyperfine -N --warmup 3 --runs "$RUNS" \
    --prepare "sh -c '$AGX uninstall-skill all bench/many-tools/skill-1 && sync'" \
    -n 'agx --version' "$AGX --version" \
    -n 'agx install-skill all (one skill, two copies)' "$AGX install-skill all bench/many-tools/skill-1"
