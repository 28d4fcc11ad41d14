#!/usr/bin/env bash
# Build registry-fixtures/mcpb/hello-signed.mcpb: the `hello` bundle packed and signed by the
# official MCPB CLI (pinned in scripts/ci/mcpb-cli.sh) with a new self-signed RSA certificate
# (CN=agx test signer) made by openssl; the key is thrown away. agx-provenance's unit tests
# and the sigstore_bundle fuzz target read it. Run from anywhere:
#     bash registry-fixtures/mcpb/make-signed.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="$(bash "$here/../../scripts/ci/mcpb-cli.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here/hello" "$work/hello"
"$cli" pack "$work/hello" "$work/hello-signed.mcpb" >/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=agx test signer/O=agx" \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
"$cli" sign "$work/hello-signed.mcpb" --cert "$work/cert.pem" --key "$work/key.pem" >/dev/null
cp "$work/hello-signed.mcpb" "$here/hello-signed.mcpb"
echo "wrote $here/hello-signed.mcpb"
