#!/usr/bin/env bash
# Build times of agx's own code, dependencies already built (hyperfine): a clean build of
# every workspace member (one run: it takes minutes), then rebuilds after touching one file
# of the runtime and one of the CLI (RUNS runs each, 3 by default), for `cargo build` and
# `cargo test --no-run`. Run it on a quiet machine; to compare two trees (before and after a
# change), run it in each, one after the other.
#   RUNTIME_FILE / CLI_FILE  the files touched (default: the runtime's handler and `agx list`)
#   CARGO_INCREMENTAL        as cargo takes it (default 1, a developer's setting)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hyperfine is needed: apt-get install -y hyperfine" >&2; exit 1; }
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-1}"
if [ -z "${RUNTIME_FILE:-}" ]; then
    # The runtime's request handler, in the workspace or (before it) the single crate.
    for RUNTIME_FILE in crates/agx-runtime/src/handler.rs src/runtime/handler.rs; do
        [ -f "$RUNTIME_FILE" ] && break
    done
fi
CLI_FILE="${CLI_FILE:-src/commands/list.rs}"
members=$(cargo metadata --no-deps --offline --format-version 1 |
    python3 -c 'import json,sys; print(" ".join("-p "+p["name"] for p in json.load(sys.stdin)["packages"]))')
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
for build in "build" "test --no-run"; do
    cargo $build --quiet 2>/dev/null # dependencies (and dev-dependencies) built first
    hyperfine --style basic --runs 1 --export-json "$OUT/clean.json" \
        --prepare "cargo clean $members 2>/dev/null" "cargo $build --quiet" >/dev/null
    hyperfine --style basic --runs "${RUNS:-3}" --export-json "$OUT/runtime.json" \
        --prepare "touch $RUNTIME_FILE" "cargo $build --quiet" >/dev/null
    hyperfine --style basic --runs "${RUNS:-3}" --export-json "$OUT/cli.json" \
        --prepare "touch $CLI_FILE" "cargo $build --quiet" >/dev/null
    for case in clean runtime cli; do
        python3 - "$OUT/$case.json" "cargo $build" "$case" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
what = {"clean": "clean build of agx's crates", "runtime": "after touching a runtime file",
        "cli": "after touching a CLI file"}[sys.argv[3]]
print(f"{sys.argv[2]:<20} {what:<34} {r['mean']:8.1f} s")
PY
    done
done
