# Sourced by the bench and CI scripts: `agx_bin release|debug` prints the absolute path of
# the agx binary to use: $AGX_BIN when set, else a fresh `cargo build` of that profile
# (a no-op when it is up to date). POSIX sh, so `sh` and `bash` scripts can both source it.
agx_bin() {
    if [ -n "${AGX_BIN:-}" ]; then
        bin=$AGX_BIN
    elif [ "$1" = release ]; then
        cargo build --release --quiet >&2 || return 1
        bin=target/release/agx
    else
        cargo build --quiet >&2 || return 1
        bin=target/debug/agx
    fi
    [ -x "$bin" ] || { echo "no agx binary at $bin" >&2; return 1; }
    echo "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
}
