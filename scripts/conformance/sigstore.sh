#!/usr/bin/env bash
# The Sigstore conformance suite's verification tests (sigstore/sigstore-conformance,
# `pytest test --skip-signing`) against examples/sigstore_client.rs, offline. Not a CI step:
# the suite is a checkout of its own, which CI cannot fetch.
#
#   scripts/conformance/sigstore.sh SUITE_CHECKOUT [pytest args]
#
# Makes a venv in the checkout (.venv) from its hashed requirements.txt, builds the client,
# and runs the suite with scripts/conformance/sigstore_offline.py, which stands in for the
# OIDC token the suite would download. GITHUB_WORKSPACE naming a folder with a checkout of
# woodruffw/cpython-release-tracker adds the CPython release bundles.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
suite="$(cd "${1:?usage: $0 SUITE_CHECKOUT [pytest args]}" && pwd)"
shift
cargo build --quiet --manifest-path "$root/Cargo.toml" --example sigstore_client
client="$root/target/debug/examples/sigstore_client"
if [ ! -x "$suite/.venv/bin/pytest" ]; then
    python3 -m venv "$suite/.venv"
    "$suite/.venv/bin/pip" install --quiet --require-hashes -r "$suite/requirements.txt"
fi
cd "$suite"
PYTHONPATH="$root/scripts/conformance" GHA_SIGSTORE_CONFORMANCE_XFAIL="" \
    exec "$suite/.venv/bin/pytest" -p sigstore_offline --entrypoint="$client" --skip-signing test "$@"
