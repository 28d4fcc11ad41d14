#!/usr/bin/env bash
# Clippy for the targets this machine cannot run: macOS (aarch64, the Macs most users have)
# and Windows (x86_64-pc-windows-gnu), with warnings as errors. agx's macOS code is the same
# on both Mac architectures (no `target_arch` cfg outside Linux's seccomp), so x86_64 macOS
# is left to the release builds: it added 4 minutes to a cold run for no line of its own. Checking needs no linker for the target,
# only a C compiler for the C code of dependencies (ring): `zig cc` from the PyPI `ziglang`
# package (pinned, in a venv) for macOS, mingw-w64 from apt for Windows.
# Everything it installs and builds lives in $AGX_CI_CACHE (default ~/.cache/agx-ci), outside
# the clone, so a fresh clone in CI reuses it: the target folder is cross-target/ there.
set -euo pipefail
cd "$(dirname "$0")/../.."
ZIGLANG_VERSION=0.15.2
TARGETS=(aarch64-apple-darwin x86_64-pc-windows-gnu)
AGX_CI_CACHE="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}"
mkdir -p "$AGX_CI_CACHE"
export CARGO_INCREMENTAL=0

# Rust's standard library for each target (a no-op when installed).
installed="$(rustup target list --installed)"
for target in "${TARGETS[@]}"; do
    grep -qx "$target" <<<"$installed" || rustup target add "$target"
done

# zig, for macOS's C code.
venv="$AGX_CI_CACHE/zig-venv"
if ! "$venv/bin/python" -m ziglang version 2>/dev/null | grep -qx "$ZIGLANG_VERSION"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "ziglang==$ZIGLANG_VERSION"
fi
export AGX_ZIG_PYTHON="$venv/bin/python"

# mingw-w64, for Windows's C code.
if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    sudo_if_needed=$([ "$(id -u)" = 0 ] || echo sudo)
    $sudo_if_needed apt-get update -qq
    $sudo_if_needed apt-get install -y -qq gcc-mingw-w64-x86-64 >/dev/null
fi

zig_wrappers="$PWD/scripts/ci"
for target in "${TARGETS[@]}"; do
    echo "--- cargo clippy --all-targets --target $target -- -D warnings"
    env_name="${target//-/_}"
    case "$target" in
        *-apple-darwin)
            export "CC_$env_name=$zig_wrappers/zig-cc" "AR_$env_name=$zig_wrappers/zig-ar"
            export AGX_ZIG_TARGET="${target%%-*}-macos"
            ;;
        *-windows-gnu)
            export "CC_$env_name=x86_64-w64-mingw32-gcc" "AR_$env_name=x86_64-w64-mingw32-ar"
            ;;
    esac
    start=$SECONDS
    cargo clippy --quiet --all-targets --target "$target" \
        --target-dir "$AGX_CI_CACHE/cross-target" -- -D warnings
    echo "    $target: clean ($((SECONDS - start)) s)"
done
