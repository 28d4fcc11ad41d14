#!/usr/bin/env bash
# The short fuzz pass of .ci/run: build every target once, then run each for
# $AGX_FUZZ_SECONDS (30 by default) from its committed seeds. The corpus a run grows goes to a
# temp folder and is thrown away; a crash fails the pass, its input saved in
# fuzz/artifacts/<target>/. Skipped (with a note) where there is no nightly toolchain or
# cargo-fuzz cannot be installed.
set -euo pipefail
cd "$(dirname "$0")"

CARGO_FUZZ_VERSION=0.13.2
seconds="${AGX_FUZZ_SECONDS:-30}"
cache="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}"
fuzz_root="$cache/cargo-fuzz-$CARGO_FUZZ_VERSION"

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "skipped: no nightly toolchain here (cargo +nightly fails); install one to fuzz"
    exit 0
fi
if [ ! -x "$fuzz_root/bin/cargo-fuzz" ]; then
    if ! cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --root "$fuzz_root"; then
        echo "skipped: cargo-fuzz $CARGO_FUZZ_VERSION could not be installed"
        exit 0
    fi
fi
export PATH="$fuzz_root/bin:$PATH"

# One build for every target, kept in the cache so an unchanged tree rebuilds nothing. A
# development build without a sanitizer: this pass is a 30-second smoke test on a fresh CI
# machine, where an optimised, address-sanitised build of every dependency takes half an
# hour; the long runs (fuzz/README.md) use the optimised build.
flags=(--dev --sanitizer none --target-dir "$cache/fuzz-target")
if ! cargo +nightly fuzz build "${flags[@]}"; then
    # CI once saw the linker crash here (rust-lld, no message of its own): say what the
    # machine had left, then try once more, one job at a time, which needs half the memory.
    echo "the fuzz build failed; disk and memory left:" >&2
    df -h "$cache" . >&2 || true
    free -m >&2 || true
    CARGO_BUILD_JOBS=1 cargo +nightly fuzz build "${flags[@]}"
fi
# Builds from clones at other paths would pile up in the cache at ~4 GB each.
../scripts/ci/prune-target.sh "$cache/fuzz-target" $(cargo +nightly fuzz list)

corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
# AGX_FUZZ_SKIP="target …" skips targets by name, for a finding that is open (fuzz/README.md,
# "Open findings") while it is being fixed: a known failure would stop every CI run without
# telling anything new. None is skipped by default.
skip=" ${AGX_FUZZ_SKIP-} "
for target in $(cargo +nightly fuzz list); do
    if [[ "$skip" == *" $target "* ]]; then
        echo "--- $target: skipped (AGX_FUZZ_SKIP)"
        continue
    fi
    echo "--- $target: ${seconds} s"
    mkdir -p "$corpus/$target"
    log="$corpus/$target.log"
    # -timeout turns a hang into a failure; one process, the machine is shared.
    if ! cargo +nightly fuzz run "${flags[@]}" "$target" "$corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1; then
        # The panic and libFuzzer's verdict, then the input itself: a CI log may be all
        # that is left of the machine that found it.
        grep -E -A12 "panicked at|==[0-9]+== ?ERROR|deadly signal|SUMMARY" "$log" | head -n 60 >&2 || true
        for input in "artifacts/$target"/*; do
            [ -f "$input" ] || continue
            echo "input $(basename "$input") as base64 (base64 -d > input; cargo fuzz run $target input):" >&2
            head -c 8192 "$input" | base64 -w 100 >&2
        done
        echo "FAILED: fuzz target $target; the crashing input is in fuzz/artifacts/$target/" >&2
        exit 1
    fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)|(INITED|DONE) +cov:' "$log" || true
done
echo "fuzz pass: every target that ran did so for ${seconds} s without a crash"
