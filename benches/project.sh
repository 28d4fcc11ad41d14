#!/usr/bin/env bash
# Benchmark: projects (docs/projects.md) on 20 servers × 5 clients (claude-code, cursor,
# vscode, gemini, codex), all synced, from a folder registry:
#   - `agx sync --check`, all up to date        (target < 20 ms)
#   - `agx sync` when nothing changed            (target < 20 ms)
#   - `agx add` of an installed package          (target < 50 ms; each run starts from the
#     project without it)
# with `agx --version` in the same run as the anchor (process start alone).
#
#   AGX_BIN  agx binary (default: a fresh `cargo build --release`)
#   RUNS     hyperfine runs per command (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hyperfine is not installed" >&2; exit 1; }
. scripts/agx-bin.sh
AGX="$(agx_bin release)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
unset AGX_PROJECT XDG_CONFIG_HOME || true
mkdir -p "$HOME"
export AGX_REGISTRY="$TMP/registry"
"$AGX" registry init "$AGX_REGISTRY" >/dev/null

# 21 packages of one server each: 20 for the project, one more for `agx add`.
for i in $(seq -w 1 21); do
    pkg="$TMP/src/p$i"
    mkdir -p "$pkg/agx/servers" "$pkg/agx/tools"
    printf '[package]\nname = "bench/p%s"\nversion = "1.0.0"\ndescription = "bench"\n\n[extension]\nservers = ["s"]\ntools = ["now"]\n' "$i" > "$pkg/agx.toml"
    printf 'name = "s"\ntools = ["now"]\n' > "$pkg/agx/servers/s.toml"
    printf 'name = "now"\ncommand = ["date"]\n' > "$pkg/agx/tools/now.toml"
    "$AGX" registry add "$AGX_REGISTRY" "$pkg" >/dev/null
done

PROJECT="$TMP/repo"
mkdir -p "$PROJECT"
cd "$PROJECT"
{
    printf '[project]\nclients = ["claude-code", "cursor", "vscode", "gemini", "codex"]\n\n[servers]\n'
    for i in $(seq -w 1 20); do printf 's%s = { server = "bench/p%s/s", version = "^1.0" }\n' "$i" "$i"; done
} > agx.toml
"$AGX" sync >/dev/null 2>&1
"$AGX" install bench/p21 >/dev/null 2>&1
"$AGX" sync --check >/dev/null

# `agx add` starts each run from this state.
SNAP="$TMP/snapshot"
mkdir -p "$SNAP"
cp -a "$PROJECT/." "$SNAP/project"
cp -a "$AGX_HOME/projects-v1" "$SNAP/state"
restore="rm -rf '$PROJECT' '$AGX_HOME/projects-v1' && cp -a '$SNAP/project' '$PROJECT' && cp -a '$SNAP/state' '$AGX_HOME/projects-v1'"
# Out of the project folder: restoring replaces it.
cd "$TMP"

RUNS="${RUNS:-30}"
hyperfine -N --warmup 3 --runs "$RUNS" \
    -n 'agx --version' "$AGX --version" \
    -n 'agx sync --check (20 servers x 5 clients)' "$AGX sync --check --project $PROJECT" \
    -n 'agx sync (nothing changed)' "$AGX sync --project $PROJECT"
hyperfine --warmup 2 --runs "$RUNS" --prepare "$restore" \
    -n 'agx add (installed package)' "$AGX add bench/p21/s --project $PROJECT"
