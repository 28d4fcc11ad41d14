#!/usr/bin/env bash
# Profile-guided optimisation of agx, as the release workflow builds the Linux binaries
# (README, "Release builds"):
#   1. build agx and agx-serve instrumented (target/pgo/instrumented);
#   2. train: the README's main job and the commands around it against the fixture registry,
#      then `agx serve` sessions (scripts/pgo/train.py) on the servers of benches/serve.sh and
#      acme/weather, served by agx itself and through agx-serve;
#   3. merge the counts into target/pgo/TARGET.profdata (llvm-profdata of `llvm-tools`) and,
#      for Linux targets, list the functions the training ran, those `agx serve` ran first
#      (scripts/pgo/order.py), for the linker to place together.
# LLVM optimises for the paths the training took, and a start faults in fewer pages and an
# idle `agx serve` keeps fewer resident.
#
#   scripts/pgo.sh flags [TARGET]   run 1–3, print the RUSTFLAGS of the optimised build
#   scripts/pgo.sh build [TARGET]   run 1–3, then `cargo build --release --target TARGET`
#                                   with those flags; print the agx binary's path
# TARGET defaults to the host. The training runs the instrumented binary, so TARGET must run
# on this machine. Needs python3 and `cat` (the benchmark tools' command).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
mode=${1:-}
# Checked before the builds, which take minutes.
[[ $mode == flags || $mode == build ]] || { echo "usage: scripts/pgo.sh flags|build [TARGET]" >&2; exit 2; }
host="$(rustc -vV | sed -n 's/^host: //p')"
target=${2:-$host}
exe=""
[[ $target == *-windows-* ]] && exe=.exe
# `ring` compiles C: musl-gcc for musl targets, unless the caller names a compiler.
if [[ $target == *-linux-musl ]]; then
    cc_var="CC_${target//-/_}"
    export "$cc_var=${!cc_var:-musl-gcc}"
fi

python="$(command -v python3 || command -v python)"
profdata_tool="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata$exe"
if [[ ! -x $profdata_tool ]]; then
    rustup component add llvm-tools >&2
fi

pgo="$ROOT/target/pgo"
rm -rf "$pgo/raw-$target"
mkdir -p "$pgo"
# --target keeps the instrumentation (RUSTFLAGS) off build scripts and procedural macros.
echo "==> instrumented build ($target)" >&2
RUSTFLAGS="-Cprofile-generate=$pgo/raw-$target" CARGO_TARGET_DIR="$pgo/instrumented" \
    cargo build --release --locked --quiet --target "$target" --bins >&2
agx="$pgo/instrumented/$target/release/agx$exe"

echo "==> training" >&2
AGX_PGO_RAW="$pgo/raw-$target" scripts/pgo/train.sh "$agx"

"$profdata_tool" merge -o "$pgo/$target.profdata" "$pgo/raw-$target"
flags="-Cprofile-use=$pgo/$target.profdata"
if [[ $target == *-linux-* ]]; then
    # The functions the training ran, together at the start of the code. That takes lld:
    # rustup's, which only x86_64-unknown-linux-gnu uses by default.
    "$profdata_tool" merge -o "$pgo/$target.serve.profdata" "$pgo/raw-$target"/serve-*.profraw
    "$python" scripts/pgo/order.py "$profdata_tool" "$pgo/$target.serve.profdata" \
        "$pgo/$target.profdata" "$pgo/$target.order"
    flags="$flags -Clink-arg=-Wl,--symbol-ordering-file=$pgo/$target.order"
    flags="$flags -Clink-arg=-Wl,--no-warn-symbol-ordering"
    flags="$flags -Clink-arg=-fuse-ld=lld -Clink-arg=-B$(rustc --print sysroot)/lib/rustlib/$host/bin/gcc-ld"
fi

case $mode in
    flags) echo "$flags" ;;
    build)
        echo "==> optimised build ($target)" >&2
        RUSTFLAGS="$flags" cargo build --release --locked --quiet --target "$target" --bins >&2
        echo "$ROOT/target/$target/release/agx$exe"
        ;;
esac
