#!/usr/bin/env bash
# Signed registries against the reference TUF implementation (issue 34): python-tuf's client
# reads a registry agx signed, and agx's client reads a registry python-tuf signed.
#
# (a) a copy of registry-fixtures/registry signed by `agx registry sign`, served over HTTP
#     on 127.0.0.1: tuf.ngclient refreshes and downloads every file of it as a target; after
#     `agx registry add` of a new version, it refreshes again (from its persisted metadata)
#     and downloads the new archive too.
# (b) the same files signed by python-tuf (scripts/ci/tuf_reference.py sign: succinct hashed
#     bins), served the same way: `agx registry add-source --root` and `agx install` succeed;
#     once one byte of an archive is changed, a fresh install fails with "tampered".
#
#   AGX_CI_CACHE  cache folder; the venv lives in $AGX_CI_CACHE/tuf-venv (default $HOME/.cache/agx-ci)
#   AGX_BIN       the agx binary (default: target/debug/agx, built with `cargo build`)
#
# Needs python3 (with venv) and PyPI (once, for the pinned tuf). Everything else runs on
# 127.0.0.1 with a temp HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

TUF_VERSION=7.0.0
# tuf's own requirement, with the extra that signs (pyca/cryptography).
SSLIB_VERSION=1.4.0
venv="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/tuf-venv"
installed="$("$venv/bin/python" -c "import cryptography, importlib.metadata as m; print(m.version('tuf'), m.version('securesystemslib'))" 2>/dev/null || true)"
if [ "$installed" != "$TUF_VERSION $SSLIB_VERSION" ]; then
    echo "==> pip install tuf==$TUF_VERSION securesystemslib[crypto]==$SSLIB_VERSION into $venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "tuf==$TUF_VERSION" "securesystemslib[crypto]==$SSLIB_VERSION"
fi
PY="$venv/bin/python"

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

TMP="$(mktemp -d)"
SERVER_PID=
cleanup() {
    [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT
export HOME="$TMP/home"
export AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
export AGX_LOG="${AGX_LOG:-warn}"
unset AGX_REGISTRY || true
mkdir -p "$HOME"

# Serve folder $1 on a free port of 127.0.0.1 (one server at a time); sets URL.
serve() {
    [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true
    local port
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    python3 -m http.server --bind 127.0.0.1 --directory "$1" "$port" >"$TMP/http.log" 2>&1 &
    SERVER_PID=$!
    URL="http://127.0.0.1:$port"
    for _ in $(seq 50); do
        python3 -c "import urllib.request; urllib.request.urlopen('$URL/config.json')" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "the HTTP server on $URL did not start" >&2
    cat "$TMP/http.log" >&2
    return 1
}

echo "==> (a) python-tuf $TUF_VERSION's client against a registry agx signed"
REG="$TMP/agx-signed"
KEYS="$TMP/keys"
cp -R "$ROOT/registry-fixtures/registry" "$REG"
"$AGX" -q registry keys generate "$KEYS"
"$AGX" -q registry sign "$REG" --keys "$KEYS"
serve "$REG"
"$PY" "$ROOT/scripts/ci/tuf_reference.py" client "$URL" "$REG" "$TMP/python-client"

# A version the registry does not have yet: acme/geo 1.0.0 as 1.0.1.
cp -R "$ROOT/registry-fixtures/packages/acme-geo" "$TMP/acme-geo"
sed -i.orig 's/^version = "1.0.0"$/version = "1.0.1"/' "$TMP/acme-geo/agx.toml"
rm "$TMP/acme-geo/agx.toml.orig"
grep -q '^version = "1.0.1"$' "$TMP/acme-geo/agx.toml"
"$AGX" -q registry add "$REG" "$TMP/acme-geo" --keys "$KEYS"
NEW="$(cd "$REG" && find dl/acme/geo -name '1.0.1*' -type f)"
[ -n "$NEW" ] || { echo "agx registry add wrote no archive of acme/geo 1.0.1" >&2; exit 1; }
"$PY" "$ROOT/scripts/ci/tuf_reference.py" client "$URL" "$REG" "$TMP/python-client" "$NEW"

echo "==> (b) agx's client against a registry python-tuf $TUF_VERSION signed"
REG="$TMP/python-signed"
cp -R "$ROOT/registry-fixtures/registry" "$REG"
"$PY" "$ROOT/scripts/ci/tuf_reference.py" sign "$REG"
serve "$REG"
"$AGX" -q registry add-source corp "$URL" --root "$REG/metadata/1.root.json"
"$AGX" -q --registry corp install acme/weather
"$AGX" -q list | grep -q 'acme/weather' || { echo "acme/weather is not installed" >&2; exit 1; }

# One byte of the archive changed (same length): only the signed hash can tell.
ARCHIVE="$REG/dl/acme/weather/1.2.0.tar.gz"
"$PY" - "$ARCHIVE" <<'EOF'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
data[len(data) // 2] ^= 0xFF
open(path, "wb").write(data)
EOF
"$AGX" -q uninstall acme/weather
status=0
"$AGX" -q --registry corp install acme/weather 2>"$TMP/stderr" || status=$?
if [ "$status" != 1 ] || ! grep -qi tampered "$TMP/stderr"; then
    echo "installing a tampered archive: exit $status (1 expected), stderr:" >&2
    cat "$TMP/stderr" >&2
    exit 1
fi
echo "agx refused the tampered archive: $(head -n1 "$TMP/stderr")"
echo "tuf reference checks passed"
