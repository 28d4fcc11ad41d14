#!/usr/bin/env bash
# Benchmark: what the organisation's policy (docs/policy.md) adds to `agx serve` start. One
# installed server is started to its `initialize` response, taking turns:
#   1. with no policy anywhere (the anchor: agx looks for the files and finds none), in a
#      project whose agx.toml has no `[policy]`;
#   2. with a full user policy (every rule) and that project's agx.toml with a `[policy]`
#      that tightens it, so agx reads, parses and checks both layers, the package's receipt
#      and every program's confinement before it answers.
# Target (issue 36): the policy adds under 0.5 ms. Prints the medians and the difference;
# exits 1 when the target is missed.
#
#   AGX_BIN  agx binary (default: a fresh `cargo build --release`)
#   RUNS     starts per variant (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
RUNS="${RUNS:-200}"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG=error
mkdir -p "$HOME" "$TMP/src/tame/agx/tools" "$TMP/src/tame/agx/servers" "$TMP/project"

# One package, confined within what the policy allows.
cat > "$TMP/src/tame/agx.toml" <<'TOML'
[package]
name = "acme/tame"
version = "1.0.0"
description = "A server within the policy"

[extension]
servers = ["main"]
tools = ["echo"]

[extension.permissions]
network = "loopback"
write = ["{project}/out"]
env = ["ACME_TOKEN"]
TOML
printf 'name = "echo"\ndescription = "Echo"\ncommand = ["echo", "hi"]\n' > "$TMP/src/tame/agx/tools/echo.toml"
printf 'name = "main"\ntools = ["echo"]\n' > "$TMP/src/tame/agx/servers/main.toml"
"$AGX" registry init "$TMP/corp" >/dev/null
"$AGX" registry add "$TMP/corp" "$TMP/src/tame" >/dev/null
"$AGX" registry add-source corp "$TMP/corp" >/dev/null
"$AGX" install acme/tame >/dev/null

POLICY_TEXT='require = "checksum"
[sources]
allow = ["corp", "official", "oci://ghcr.io/acme/*"]
[publishers]
allow = ["acme", "acme-*"]
deny = ["acme-legacy"]
[packages]
deny = ["acme/old-*", "acme/deprecated-*"]
[permissions.max]
network = "loopback"
write = ["{project}", "{home}/.cache/acme"]
env = ["ACME_*"]
[clients]
allow = ["claude-code", "cursor", "vscode"]'
PROJECT_TEXT='[project]
clients = ["claude-code"]'
PROJECT_POLICY='
[policy.sources]
allow = ["corp"]'
printf '%s\n' "$PROJECT_TEXT" > "$TMP/project/agx.toml"

python3 "$ROOT/benches/policy_measure.py" "$AGX" "$AGX_HOME/policy.toml" "$POLICY_TEXT" \
    "$TMP/project" "$PROJECT_TEXT" "$PROJECT_POLICY" "$RUNS"
