#!/usr/bin/env bash
# A LOCKED Secret Service (docs/settings.md, "Where secrets live"): `agx config set … --stdin`
# for a secret fails with an error naming the backend and the AGX_KEYRING=file fallback,
# exits non-zero and writes nothing (no file in the agx home or HOME changes, no item in the
# keyring); with AGX_KEYRING=file the same command works.
#
# Run by scripts/ci/keyring.sh inside its private D-Bus session, after the daemon has created
# and unlocked the `login` collection: this script locks it over D-Bus (dbus-send, from
# Debian's `dbus`). Nothing can unlock it again without a prompt, so run it last.
#   AGX_BIN   the agx binary (default: target/debug/agx, built with `cargo build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
unset AGX_KEYRING AGX_REGISTRY || true
mkdir -p "$HOME"
SECRET="locked-keyring-canary"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }
secret_service() {
    dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
        "org.freedesktop.Secret.Service.$1" "${@:2}"
}
# Every file under both homes with its content hash: what a failed command must not change.
snapshot() { (cd "$TMP" && find home agx-home -type f -print0 | sort -z | xargs -0 sha256sum); }

"$AGX" -q install "$ROOT/registry-fixtures/packages/acme-quotes"
# A stored non-secret value: the settings file the failed set must leave as it is.
"$AGX" -q config set acme/quotes currency EUR
secret_service Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null
before="$(snapshot)"

for choice in auto os; do
    set +e
    out="$(printf %s "$SECRET" | AGX_KEYRING=$choice "$AGX" config set acme/quotes api_key --stdin 2>&1)"
    status=$?
    set -e
    echo "--- AGX_KEYRING=$choice agx config set acme/quotes api_key --stdin (exit $status)"
    echo "$out"
    [[ $status -ne 0 ]] && pass "$choice: exits non-zero" || fail "$choice: a locked keyring took the secret"
    grep -q "Secret Service keyring refused access (is it locked?)" <<<"$out" \
        && pass "$choice: names the backend and the lock" || fail "$choice: the error does not name the Secret Service and its lock"
    grep -q "unlock the keyring, or keep secrets in a file only you can read with AGX_KEYRING=file ($AGX_HOME/secrets-v1.toml)" <<<"$out" \
        && pass "$choice: names the fallback and its file" || fail "$choice: the hint does not name AGX_KEYRING=file and its file"
    grep -q "$SECRET" <<<"$out" && fail "$choice: the output holds the secret" || true
done

[[ "$(snapshot)" == "$before" ]] && pass "no file under HOME or AGX_HOME changed" \
    || fail "a failed set changed files: $(diff <(echo "$before") <(snapshot) || true)"
# The keyring crate's attributes (`service`: agx:<AGX_HOME>, `username`): no item, locked or
# not, was made for this home (the tests before this script stored their own).
items="$(secret_service SearchItems "dict:string:string:service,agx:$AGX_HOME,username,acme/quotes/api_key")"
grep -q "object path" <<<"$items" && fail "the keyring holds an item for acme/quotes/api_key: $items" \
    || pass "no item in the keyring"

printf %s "$SECRET" | AGX_KEYRING=file "$AGX" config set acme/quotes api_key --stdin
got="$(AGX_KEYRING=file "$AGX" config get acme/quotes api_key --reveal)"
[[ "$got" == "$SECRET" ]] && pass "AGX_KEYRING=file stores and reads the secret" \
    || fail "AGX_KEYRING=file read back '$got'"
[[ "$(stat -c %a "$AGX_HOME/secrets-v1.toml")" == 600 ]] && pass "the secrets file is 0600" \
    || fail "the secrets file has mode $(stat -c %a "$AGX_HOME/secrets-v1.toml")"

if [[ $failures -gt 0 ]]; then
    echo "$failures locked-keyring check(s) failed"
    exit 1
fi
echo "all locked-keyring checks passed"
