#!/usr/bin/env bash
# Benchmark: installing from an OCI registry (docs/organizations.md). On loopback, a real
# registry (Debian's docker-registry) holds one package of SIZE_MB of incompressible data,
# published with `agx publish`; hyperfine compares, each from nothing (no store, no output
# folder):
#   1. `agx install` of it (tags, manifest, the layer pulled by digest and checked, unpacked
#      into the store);
#   2. oras-py's `pull` of the same artifact (the anchor: the reference ORAS client);
#   3. `skopeo copy` of it to a folder (a second anchor).
# Target: agx at least as fast as the anchor.
#
#   AGX_BIN   agx binary (default: a fresh `cargo build --release`)
#   SIZE_MB   the package's data (default 50)
#   RUNS      hyperfine runs per command (default 10)
#
# Needs hyperfine, docker-registry and skopeo (scripts/ci/oci-tools.sh) and the oras venv of
# scripts/ci/oci-reference.sh (made when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
SIZE_MB="${SIZE_MB:-50}"
RUNS="${RUNS:-10}"
command -v hyperfine >/dev/null || { echo "hyperfine is not installed" >&2; exit 1; }
scripts/ci/oci-tools.sh >/dev/null
. scripts/ci/oci-lib.sh
PY="$(oras_python)"

TMP="$(mktemp -d)"
REGISTRY_PID=
cleanup() {
    [ -z "$REGISTRY_PID" ] || kill "$REGISTRY_PID" 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT
export HOME="$TMP/home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
mkdir -p "$HOME"

start_oci_registry "$TMP/registry"
REGISTRY_PID=$OCI_REGISTRY_PID
HOST=$OCI_HOST
SOURCE="oci://$HOST/bench"

# A package with one tool and SIZE_MB of random data beside it.
PKG="$TMP/big"
mkdir -p "$PKG/agx/tools" "$PKG/data"
cat >"$PKG/agx.toml" <<TOML
[package]
name = "bench/big"
version = "1.0.0"
description = "A package with ${SIZE_MB} MB of data"
license = "MIT"
TOML
cat >"$PKG/agx/tools/size.toml" <<TOML
name = "size"
description = "Prints the size of the data file"
command = ["sh", "-c", "wc -c < data/blob.bin"]
TOML
head -c "$((SIZE_MB * 1024 * 1024))" /dev/urandom >"$PKG/data/blob.bin"
AGX_HOME="$TMP/publisher" "$AGX" -q publish "$PKG" --to "$SOURCE"
REF="$HOST/bench/bench/big:1.0.0"

export AGX_HOME="$TMP/agx-home"
hyperfine --runs "$RUNS" --warmup 1 --export-markdown "$TMP/oci.md" \
    --prepare "rm -rf '$TMP/agx-home' '$TMP/oras-out' '$TMP/skopeo-out'" \
    -n "agx install ($SIZE_MB MB)" "'$AGX' -q --registry '$SOURCE' install bench/big" \
    -n "oras-py pull" "'$PY' '$ROOT/scripts/ci/oci_reference.py' pull '$REF' '$TMP/oras-out'" \
    -n "skopeo copy" "skopeo copy -q --src-tls-verify=false docker://$REF dir:$TMP/skopeo-out"
cat "$TMP/oci.md"
