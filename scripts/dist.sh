#!/usr/bin/env bash
# Builds, from the repo, the release artifacts this machine can build, each target once:
#
#   OUT_DIR/agx-x86_64-unknown-linux-musl     static Linux binary (any distribution)
#   OUT_DIR/agx-x86_64-pc-windows-gnu.exe     Windows binary (mingw-w64)
#   OUT_DIR/agx_cli-VERSION-py3-none-*.whl    PyPI `agx-cli` (maturin, bindings = "bin"): the
#                                             musl binary, tagged manylinux and musllinux
#   OUT_DIR/agx-VERSION.tgz                   npm `agx`: the launcher, with one optional
#   OUT_DIR/agx-cli-PLATFORM-VERSION.tgz      dependency per platform (@agx-cli/PLATFORM)
#
#   scripts/dist.sh OUT_DIR
#
# Profile: `dist` (Cargo.toml: release without LTO, 16 codegen units, opt-level 1,
# stripped), so a cold build fits CI's time on 2 cores; AGX_DIST_PROFILE=release builds the
# published form.
# Cargo's target folder is $AGX_CI_CACHE/dist-target (default ~/.cache/agx-ci), outside the
# clone; maturin builds the musl binary and the binary file is taken from that build, so the
# wheel, the npm package and the static binary are the same bytes. Installs musl-tools and
# mingw-w64 from apt, the Rust targets with rustup and maturin (pinned) into a venv in the
# cache when missing. Prints the time of each build. Measured cold on 2 cores, every
# dependency built: musl 463 s, Windows 383 s of wall time (at opt-level 3 they had taken
# 1106 s and 817 s, with other builds sharing the cores); after a source change only agx's
# own crates are rebuilt.
set -euo pipefail
OUT="${1:?usage: scripts/dist.sh OUT_DIR}"
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
CACHE="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}"
PROFILE="${AGX_DIST_PROFILE:-dist}"
TARGET_DIR="$CACHE/dist-target"
MATURIN_VERSION=1.16.0
MUSL=x86_64-unknown-linux-musl
WINDOWS=x86_64-pc-windows-gnu
export CARGO_INCREMENTAL=0 CARGO_TERM_COLOR=never
VERSION="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"

installed="$(rustup target list --installed)"
for target in "$MUSL" "$WINDOWS"; do
    grep -qx "$target" <<<"$installed" || rustup target add "$target"
done
if ! command -v musl-gcc >/dev/null || ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    sudo_if_needed=$([ "$(id -u)" = 0 ] || echo sudo)
    $sudo_if_needed apt-get update -qq
    $sudo_if_needed apt-get install -y -qq musl-tools gcc-mingw-w64-x86-64 >/dev/null
fi
maturin="$CACHE/maturin-$MATURIN_VERSION/bin/maturin"
if ! "$maturin" --version 2>/dev/null | grep -qx "maturin $MATURIN_VERSION"; then
    rm -rf "$CACHE/maturin-$MATURIN_VERSION"
    python3 -m venv "$CACHE/maturin-$MATURIN_VERSION"
    "$CACHE/maturin-$MATURIN_VERSION/bin/pip" install --quiet --disable-pip-version-check \
        "maturin==$MATURIN_VERSION"
fi

# `ring` compiles C: musl-gcc for musl, mingw-w64 for Windows.
export CC_x86_64_unknown_linux_musl=musl-gcc
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar

echo "==> wheel agx-cli $VERSION with the static $MUSL binary (maturin, profile $PROFILE)"
start=$SECONDS
rm -f "$OUT"/agx_cli-*.whl
# A static binary needs no glibc: the manylinux tag lets pip on glibc systems take the same
# wheel that musllinux (Alpine) systems take.
(cd packaging/pypi && "$maturin" build --quiet --profile "$PROFILE" --target "$MUSL" \
    --target-dir "$TARGET_DIR" --compatibility manylinux2014 musllinux_1_2 --out "$OUT")
cp "$TARGET_DIR/$MUSL/$PROFILE/agx" "$OUT/agx-$MUSL"
echo "    $MUSL: $((SECONDS - start)) s"

echo "==> $WINDOWS binary (profile $PROFILE)"
start=$SECONDS
cargo build --quiet --profile "$PROFILE" --target "$WINDOWS" --target-dir "$TARGET_DIR" --bin agx
cp "$TARGET_DIR/$WINDOWS/$PROFILE/agx.exe" "$OUT/agx-$WINDOWS.exe"
echo "    $WINDOWS: $((SECONDS - start)) s"
scripts/ci/prune-target.sh "$TARGET_DIR"

echo "==> npm packages agx and @agx-cli/{linux-x64,win32-x64} $VERSION"
rm -f "$OUT"/agx-*.tgz
python3 packaging/npm/pack.py platform "$OUT" "$VERSION" linux-x64 "$OUT/agx-$MUSL"
python3 packaging/npm/pack.py platform "$OUT" "$VERSION" win32-x64 "$OUT/agx-$WINDOWS.exe"
python3 packaging/npm/pack.py main "$OUT" "$VERSION" linux-x64 win32-x64
ls -l "$OUT"
