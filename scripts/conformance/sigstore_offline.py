"""pytest plugin: the Sigstore conformance suite's verification tests without network.

The suite's `client` fixture downloads a live OIDC token (storage.googleapis.com) even for
verification, where the token is only decoded for its email, issuer and expiry. This plugin
answers that fixture with an unsigned token of the same shape, so `--skip-signing` runs need
no network (scripts/conformance/sigstore.sh).
"""
import base64
import json

import pytest


def _b64(doc: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(doc).encode()).rstrip(b"=").decode()


DUMMY_TOKEN = ".".join([
    _b64({"alg": "none", "typ": "JWT"}),
    _b64({
        "email": "untrusted-sa@sigstore-conformance.iam.gserviceaccount.com",
        "iss": "https://accounts.google.com",
        "exp": 4102444800,  # 2100-01-01
    }),
    "offline-dummy-signature",
])


@pytest.hookimpl(tryfirst=True)
def pytest_fixture_setup(fixturedef, request):
    if fixturedef.argname == "identity_token":
        fixturedef.cached_result = (DUMMY_TOKEN, fixturedef.cache_key(request), None)
        return DUMMY_TOKEN
    return None
