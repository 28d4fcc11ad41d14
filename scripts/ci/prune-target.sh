#!/usr/bin/env bash
# Keeps a cached Cargo target folder from growing with every clone: a path dependency's
# artifact names hash its path, so each clone at a new path adds a full build of agx's own
# crates (several GB in the fuzz folder) beside the last one. For each of agx's crates (and
# any extra names given) this keeps only the newest build in every deps/ folder under
# TARGET_DIR; third-party crates are left alone (two versions of one may both be current).
# Only for folders that hold one build of each crate per target (`cargo build`, `cargo fuzz
# build`): `--all-targets` or test builds keep two of a crate, with different hashes.
# Usage: scripts/ci/prune-target.sh TARGET_DIR [EXTRA_CRATE_NAME…]
set -euo pipefail
target_dir="$1"
shift
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ -d "$target_dir" ] || exit 0

names=(agx "$@")
for crate in "$root"/crates/*/; do
    names+=("$(basename "$crate" | tr - _)")
done

while IFS= read -r -d '' deps; do
    for name in "${names[@]}"; do
        name="${name//-/_}"
        for prefix in "lib$name" "$name"; do
            # (ls fails on a pattern that matches nothing; the other may still have matched)
            newest="$(ls -t "$deps/$prefix"-???????????????? "$deps/$prefix"-????????????????.* 2>/dev/null | head -n1 || true)"
            [ -n "$newest" ] || continue
            keep="$(basename "$newest" | sed -E 's/^(.*-[0-9a-f]{16}).*/\1/')"
            for file in "$deps/$prefix"-????????????????*; do
                case "$(basename "$file")" in "$keep" | "$keep".*) ;; *) rm -rf "$file" ;; esac
            done
        done
    done
done < <(find "$target_dir" -type d -name deps -print0)
