#!/usr/bin/env bash
# Installs each artifact scripts/dist.sh built into a clean place and runs agx from there:
#
# - the wheel: `pip install agx-cli --no-index --find-links DIST_DIR` into a fresh venv, then
#   the README's main job with that agx;
# - the npm tarballs: installed into a temp project from the tarballs alone (no registry),
#   `npx agx --version` and the main job; the entry `install-server` writes through that agx
#   names the platform package's real binary (not the Node launcher) and starts without Node
#   on PATH (docs/clients.md, "When agx came from pip, uv or npm");
# - the static musl binary in a root holding nothing else (`unshare --root`): --version and
#   validate of a fixture package.
#
#   scripts/ci/dist-check.sh DIST_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DIST="${1:?usage: scripts/ci/dist-check.sh DIST_DIR (the folder scripts/dist.sh built into)}"
DIST="$(cd "$DIST" && pwd)"
VERSION="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL  $*" >&2; exit 1; }
export AGX_OFFICIAL_REGISTRY=off AGX_NO_PROGRESS=1 NO_COLOR=1
# npm offline throughout: no update check, nothing fetched.
export NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_OFFLINE=true
unset AGX_REGISTRY AGX_HOME || true

echo "==> pip install agx-cli from $DIST alone, into a fresh venv"
python3 -m venv "$TMP/venv"
"$TMP/venv/bin/pip" install --quiet --disable-pip-version-check --no-index \
    --find-links "$DIST" agx-cli
[[ "$("$TMP/venv/bin/agx" --version)" == "agx $VERSION"* ]] || fail "the wheel's agx --version"
scripts/ci/readme-main-job.sh "$TMP/venv/bin/agx"

echo "==> npm: agx and @agx-cli/linux-x64 from their tarballs, into a temp project"
project="$TMP/npm-project"
mkdir -p "$project"
# Every agx package from its tarball: the Windows one is an optional dependency that npm
# skips here (its os field), and nothing is fetched from a registry.
python3 - "$project/package.json" "$DIST" "$VERSION" <<'PY'
import json, pathlib, sys
path, dist, version = sys.argv[1:4]
tarballs = {f"@agx-cli/{t.name[len('agx-cli-'):-len(f'-{version}.tgz')]}": f"file:{t}"
            for t in pathlib.Path(dist).glob(f"agx-cli-*-{version}.tgz")}
json.dump({"name": "agx-dist-check", "private": True,
           "dependencies": {"agx": f"file:{dist}/agx-{version}.tgz"},
           "overrides": tarballs}, open(path, "w"), indent=2)
PY
(cd "$project" && npm install --offline --no-audit --no-fund --loglevel=error >/dev/null)
real_binary="$project/node_modules/@agx-cli/linux-x64/bin/agx"
[[ -x "$real_binary" ]] || fail "npm did not install $real_binary"
[[ "$(cd "$project" && npx --offline agx --version)" == "agx $VERSION"* ]] || fail "npx agx --version"
echo "ok    npx agx --version"
scripts/ci/readme-main-job.sh npx --offline --prefix "$project" agx

echo "==> the entry written by the npm-installed agx launches the real binary"
home="$TMP/npm-home"
mkdir -p "$home"
(cd "$project" && HOME="$home" AGX_HOME="$home/agx-home" npx --offline agx -q \
    --registry "$ROOT/registry-fixtures/registry" install-server cursor acme/weather/forecast)
python3 - "$home/.cursor/mcp.json" "$(realpath "$real_binary")" "$home" <<'PY'
import json, subprocess, sys
client_file, real_binary, home = sys.argv[1:4]
entry = json.load(open(client_file))["mcpServers"]["forecast"]
assert entry["command"] == real_binary, f"the entry runs {entry['command']!r}, not {real_binary!r}"
# No Node on PATH: the entry must not need the launcher.
env = {"HOME": home, "PATH": "/nonexistent", **entry.get("env", {})}
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "dist-check", "version": "1"}}}
server = subprocess.run([entry["command"], *entry["args"]], input=json.dumps(init) + "\n",
                        capture_output=True, text=True, env=env, timeout=60)
answer = json.loads(server.stdout.splitlines()[0])
assert "serverInfo" in answer.get("result", {}), f"initialize answered {server.stdout!r} {server.stderr!r}"
print(f"ok    the entry runs {entry['command']} and it answers initialize")
PY

echo "==> the static musl binary in a root that holds only it (and a fixture package)"
root="$TMP/root"
mkdir -p "$root/pkg"
cp "$DIST/agx-x86_64-unknown-linux-musl" "$root/agx"
cp -r registry-fixtures/packages/acme-weather/. "$root/pkg/"
in_root() { env -i HOME=/ AGX_HOME=/agx-home unshare --root="$root" /agx "$@"; }
[[ "$(in_root --version)" == "agx $VERSION"* ]] || fail "--version in an empty root"
in_root -q validate /pkg || fail "validate in an empty root"
echo "ok    --version and validate with no libc, no /etc, no /tmp"
echo "dist-check: ok"
