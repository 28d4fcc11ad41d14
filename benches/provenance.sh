#!/usr/bin/env bash
# Benchmark: what verifying a Sigstore bundle adds to an install (docs/registry.md,
# "Provenance"). `agx install acme/geo@=1.0.0` from a folder registry whose entry names a
# bundle (registry-fixtures/sigstore, verified against that instance's trusted root), against
# the same archive from a registry without one, with `agx --version` in the same run as the
# anchor. Each run starts with the package not installed.      (target: < 5 ms added)
# Then an MCPB bundle with and without its signature block (`mcpb sign`'s PKCS#7), and the
# verification alone: examples/sigstore_client on a public-good bundle of the Sigstore
# conformance suite (happy-path-v0.3, against the public-good root agx ships), beside
# `sigstore verify identity --offline` (sigstore-python) of the same bundle.
#
#   AGX_BIN          agx binary (default: a fresh `cargo build --release`)
#   SIGSTORE_CLIENT  examples/sigstore_client (default: built beside AGX_BIN's profile)
#   SIGSTORE_VENV    a venv with sigstore-python (default: $HOME/.cache/agx-ci/sigstore-venv,
#                    made by scripts/ci/sigstore-reference.sh); skipped when absent
#   RUNS             hyperfine runs per command (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
RUNS="${RUNS:-30}"
CLIENT="${SIGSTORE_CLIENT:-$(dirname "$AGX")/examples/sigstore_client}"
[ -x "$CLIENT" ] || { echo "no sigstore_client at $CLIENT (cargo build --release --example sigstore_client)" >&2; exit 1; }
VENV="${SIGSTORE_VENV:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/sigstore-venv}"
FIXTURES="$PWD/registry-fixtures/sigstore"
CASE="$PWD/registry-fixtures/sigstore-conformance/bundle-verify"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
export AGX_TRUSTED_ROOT="$FIXTURES/trusted_root.json"
unset AGX_PROJECT AGX_REGISTRY XDG_CONFIG_HOME || true
mkdir -p "$HOME"

archive="$FIXTURES/packages/acme-geo-1.0.0.tar.gz"
"$AGX" -q registry init "$TMP/signed" >/dev/null
"$AGX" -q registry add "$TMP/signed" "$archive" --bundle "$archive.sigstore.json" >/dev/null
"$AGX" -q registry init "$TMP/unsigned" >/dev/null
"$AGX" -q registry add "$TMP/unsigned" "$archive" >/dev/null

echo "== install acme/geo 1.0.0: with a bundle, without one, and agx --version"
hyperfine -N --warmup 3 --runs "$RUNS" --export-markdown "$TMP/install.md" \
    --prepare "sh -c '$AGX -q uninstall acme/geo >/dev/null 2>&1 || true'" \
    -n "agx --version" "$AGX --version" \
    -n "install, unsigned" "$AGX -q --registry $TMP/unsigned install acme/geo@=1.0.0" \
    -n "install, bundle verified" "$AGX -q --registry $TMP/signed install acme/geo@=1.0.0"
cat "$TMP/install.md"

# An MCPB bundle: the signature block `mcpb sign` appended checked (registry-fixtures/mcpb/
# hello-signed.mcpb), against the same bundle with the block cut off.
signed_mcpb="$PWD/registry-fixtures/mcpb/hello-signed.mcpb"
unsigned_mcpb="$TMP/hello.mcpb"
python3 - "$signed_mcpb" "$unsigned_mcpb" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(data[: data.rindex(b"MCPB_SIG_V1")])
PY
echo "== install an MCPB bundle: signature checked, no signature, and agx --version"
hyperfine -N --warmup 3 --runs "$RUNS" --export-markdown "$TMP/mcpb.md" \
    --prepare "sh -c '$AGX -q uninstall mcpb/hello-bundle >/dev/null 2>&1 || true'" \
    -n "agx --version" "$AGX --version" \
    -n "install .mcpb, unsigned" "$AGX -q install $unsigned_mcpb" \
    -n "install .mcpb, signature checked" "$AGX -q install $signed_mcpb"
cat "$TMP/mcpb.md"

identity="https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main"
issuer="https://token.actions.githubusercontent.com"
verify=(verify-bundle --bundle "$CASE/happy-path-v0.3/bundle.sigstore.json"
    --certificate-identity "$identity" --certificate-oidc-issuer "$issuer" "$CASE/a.txt")
anchors=()
if [ -x "$VENV/bin/sigstore" ]; then
    # sigstore-python's offline mode reads the public-good root from its own cache.
    anchors=(-n "sigstore-python verify identity --offline"
        "$VENV/bin/sigstore verify identity --offline --bundle $CASE/happy-path-v0.3/bundle.sigstore.json --cert-identity $identity --cert-oidc-issuer $issuer $CASE/a.txt")
fi
echo "== one public-good bundle verified: agx's verifier and sigstore-python"
hyperfine -N --warmup 3 --runs "$RUNS" --export-markdown "$TMP/verify.md" \
    -n "agx --version" "$AGX --version" \
    -n "sigstore_client verify-bundle" "$CLIENT ${verify[*]}" \
    "${anchors[@]}"
cat "$TMP/verify.md"
