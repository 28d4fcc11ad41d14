#!/usr/bin/env bash
# The OCI registry and client the tests use (tests/it/oci_source.rs, scripts/ci/oci-reference.sh):
# Debian's `docker-registry` (CNCF distribution) and `skopeo`, with `htpasswd` (apache2-utils)
# and `openssl` for the registry with basic auth and TLS; from apt when missing.
set -euo pipefail
missing=()
command -v docker-registry >/dev/null || missing+=(docker-registry)
command -v skopeo >/dev/null || missing+=(skopeo)
command -v htpasswd >/dev/null || missing+=(apache2-utils)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
    sudo_if_needed=$([ "$(id -u)" = 0 ] || echo sudo)
    $sudo_if_needed apt-get update -qq
    $sudo_if_needed apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The package starts a system service on install; the tests start their own registries.
if command -v systemctl >/dev/null && systemctl is-active --quiet docker-registry 2>/dev/null; then
    $([ "$(id -u)" = 0 ] || echo sudo) systemctl stop docker-registry || true
fi
docker-registry --version
skopeo --version
