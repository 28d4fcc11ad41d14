#!/usr/bin/env bash
# The VS Code extension (editors/vscode, docs/vscode.md): installs its pinned npm packages
# with `npm ci` (npm's cache outside the clone), type-checks it against @types/vscode, runs its
# tests against the real agx binary, packages the .vsix with vsce and checks what is in it.
#
#   AGX_CI_CACHE  folder for npm's cache (default: $HOME/.cache/agx-ci)
#   AGX_BIN       the agx binary (default: target/debug/agx, built with `cargo build`)
set -euo pipefail
cd "$(dirname "$0")/../.."

. scripts/agx-bin.sh
AGX_BIN="$(agx_bin debug)"
export AGX_BIN
CACHE="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/npm"

cd editors/vscode
npm ci --cache "$CACHE" --prefer-offline --no-audit --no-fund --loglevel=error
npm run --silent typecheck
npm test
rm -f agx-vscode.vsix
npm run --silent package >/dev/null

# The package holds the manifest, the README and the compiled extension: no tests, sources
# or node_modules.
contents="$(unzip -Z1 agx-vscode.vsix | sort)"
expected="$(sort <<'LIST'
[Content_Types].xml
extension.vsixmanifest
extension/package.json
extension/readme.md
extension/out/src/agx.js
extension/out/src/commands.js
extension/out/src/extension.js
extension/out/src/provider.js
extension/out/src/watch.js
LIST
)"
if [[ "$contents" != "$expected" ]]; then
    echo "agx-vscode.vsix does not hold what it should:"
    diff <(echo "$expected") <(echo "$contents") || true
    exit 1
fi
# VS Code finds the provider through the contribution, and activates the extension for it.
unzip -p agx-vscode.vsix extension/package.json | node -e '
const m = JSON.parse(require("fs").readFileSync(0, "utf8"));
const ids = (m.contributes.mcpServerDefinitionProviders || []).map((p) => p.id);
if (ids.join() !== "agx" || m.main !== "./out/src/extension.js" || !m.engines.vscode.includes("1.101")) {
  console.error("the packaged package.json lacks the provider contribution, main or engine:", JSON.stringify(m));
  process.exit(1);
}'
echo "VS Code extension: ok (editors/vscode/agx-vscode.vsix)"
