#!/usr/bin/env bash
# agx's private Sigstore test instance (registry-fixtures/sigstore/) against the reference
# verifier: sigstore-python's CLI verifies every bundle of cases.json offline against the
# instance's own trust (trust_config.json, a ClientTrustConfig wrapping trusted_root.json)
# with the identity policy (`verify identity --cert-identity … --cert-oidc-issuer …`):
#   * each "pass" case verifies: the leaf chains to the test CA at the log's integrated time,
#     its embedded SCT verifies against the test CT log key, the Rekor entry's inclusion
#     proof, signed checkpoint and signed entry timestamp verify against the test log key,
#     the signature (message or DSSE, whose in-toto subject must be the artifact's digest)
#     and the entry agree with the artifact, and the SAN and OIDC issuer are the expected
#     ones. For GitHub identities, sigstore-python's policy API then also checks the
#     certificate's source repository (1.3.6.1.4.1.57264.1.12), ref (.1.14) and build
#     signer (.1.9) extensions against the case.
#   * each "fail" case is rejected, and for the reason the case names
#     (`sigstore_python_error`, a piece of sigstore-python's message): a changed artifact, a
#     DSSE subject of another archive, an untrusted CA, an untrusted CT log, a tampered
#     signed entry timestamp or inclusion proof, another identity or issuer.
#   * "unsigned" cases (no bundle) are listed and skipped.
# One line per case; exits non-zero when any outcome differs from cases.json.
#
#   scripts/ci/sigstore-reference.sh [VENV]
#   VENV or SIGSTORE_VENV  an existing venv with sigstore==$SIGSTORE_VERSION; without one, the
#                  venv is $AGX_CI_CACHE/sigstore-venv (default $HOME/.cache/agx-ci), made or
#                  updated with the pinned sigstore when it lacks it
#
# Needs python3 (with venv) and PyPI (once, for the pinned sigstore); verification itself
# is offline.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

SIGSTORE_VERSION=4.5.1
given_venv="${1:-${SIGSTORE_VENV:-}}"
venv="${given_venv:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/sigstore-venv}"
installed="$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('sigstore'))" 2>/dev/null || true)"
if [ "$installed" != "$SIGSTORE_VERSION" ]; then
    if [ -n "$given_venv" ]; then
        echo "$venv has sigstore '${installed:-none}', not $SIGSTORE_VERSION" >&2
        exit 1
    fi
    echo "==> pip install sigstore==$SIGSTORE_VERSION into $venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "sigstore==$SIGSTORE_VERSION"
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# No TUF cache or config of the user's is read: the trust config is given explicitly.
export HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache" XDG_DATA_HOME="$TMP/data"
export COLUMNS=400 NO_COLOR=1 TERM=dumb
mkdir -p "$HOME"

echo "==> sigstore-python $SIGSTORE_VERSION against registry-fixtures/sigstore/cases.json"
cd "$ROOT/registry-fixtures/sigstore"
"$venv/bin/python" - "$venv/bin/sigstore" <<'EOF'
import json
import subprocess
import sys

from sigstore.models import Bundle, ClientTrustConfig
from sigstore.verify import Verifier, policy
from sigstore._utils import sha256_digest

sigstore_cli = sys.argv[1]
spec = json.load(open("cases.json"))
config = spec["trust_config"]
verifier = Verifier(trusted_root=ClientTrustConfig.from_json(open(config).read()).trusted_root)
counts = {"passed": 0, "failed": 0, "skipped": 0}


def report(ok, name, text):
    counts["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {text}")


for case in spec["cases"]:
    name, expect = case["name"], case["expect"]
    if case["bundle"] is None:
        counts["skipped"] += 1
        print(f"skip {name}: {expect} (no bundle)")
        continue
    run = subprocess.run(
        [sigstore_cli, "--trust-config", config, "verify", "identity", "--offline",
         "--bundle", case["bundle"], "--cert-identity", case["identity"],
         "--cert-oidc-issuer", case["issuer"], case["artifact"]],
        capture_output=True, text=True,
    )
    # One line, whatever rich's wrapping did to the log messages.
    out = " ".join((run.stdout + run.stderr).split())
    if expect == "pass":
        if run.returncode != 0:
            report(False, name, f"expected pass, sigstore exited {run.returncode}: {out[-600:]}")
            continue
        detail = "verified"
        if "source_repository" in case:
            # The GitHub extensions agx reads, through sigstore-python's own policies.
            with open(case["artifact"], "rb") as f:
                hashed = sha256_digest(f)
            bundle = Bundle.from_json(open(case["bundle"], "rb").read())
            checks = policy.AllOf([
                policy.Identity(identity=case["identity"], issuer=case["issuer"]),
                policy.OIDCSourceRepositoryURI(case["source_repository"]),
                policy.OIDCSourceRepositoryRef(case["source_ref"]),
                policy.OIDCBuildSignerURI(case["build_signer"]),
            ])
            try:
                if bundle._dsse_envelope:
                    verifier.verify_dsse(bundle, checks)
                else:
                    verifier.verify_artifact(hashed, bundle, checks)
            except Exception as exc:  # noqa: BLE001
                report(False, name, f"verified, but not its GitHub extensions: {exc}")
                continue
            detail += f", source {case['source_repository']}@{case['source_ref']}"
        report(True, name, f"{detail} ({case['identity']})")
    elif expect == "fail":
        reason = case.get("sigstore_python_error", "")
        if run.returncode == 0:
            report(False, name, "expected failure, but sigstore verified it")
        elif reason not in out:
            report(False, name, f"failed, but not with '{reason}': {out[-600:]}")
        else:
            report(True, name, f"rejected ({reason})")
    else:
        report(False, name, f"unknown expectation {expect!r}")

print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
sys.exit(1 if counts["failed"] else 0)
EOF
