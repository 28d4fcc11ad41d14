#!/usr/bin/env bash
# The Windows agx (agx-x86_64-pc-windows-gnu.exe from scripts/dist.sh) under Wine: --version,
# validate of the fixture packages (and one invalid one), install from the fixture folder
# registry, list --json, a package whose tool is itself a Windows program (scripts/ci/wine/
# echo_tool.rs, built here for the same target), install-server into the Cursor file under a
# Wine HOME (the entry must launch the .exe by its Windows path), and that entry started by
# the official MCP Python SDK client on the Linux side: initialize, tools/list, tools/call.
#
#   scripts/ci/wine.sh DIST_DIR     (DIST_DIR: what scripts/dist.sh built)
#
# Installs wine64 and mingw-w64 from apt when missing. The Wine prefix is cached in
# $AGX_CI_CACHE/wine-prefix (default ~/.cache/agx-ci); every run uses its own HOME and
# AGX_HOME in a temp folder, so the prefix holds nothing of a run.
#
# Test-only workaround: Debian's Wine 8 has no ProcessPrng in bcryptprimitives.dll, which
# Rust binaries import, so they do not start under it. scripts/ci/wine/processprng.c is a
# stand-in DLL exporting it (see that file); it goes into the prefix only, never into a
# release.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DIST="${1:?usage: scripts/ci/wine.sh DIST_DIR (the folder scripts/dist.sh built into)}"
DIST="$(cd "$DIST" && pwd)"
AGX_EXE="$DIST/agx-x86_64-pc-windows-gnu.exe"
[[ -f "$AGX_EXE" ]] || { echo "no $AGX_EXE: run scripts/dist.sh $DIST first" >&2; exit 1; }
CACHE="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}"
start=$SECONDS

if ! command -v wine >/dev/null || ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    sudo_if_needed=$([ "$(id -u)" = 0 ] || echo sudo)
    $sudo_if_needed apt-get update -qq
    $sudo_if_needed apt-get install -y -qq wine64 gcc-mingw-w64-x86-64 >/dev/null
fi
# Debian's `wine` wrapper asks for wine32 on every start; the 64-bit loader alone is enough.
WINE=/usr/lib/wine/wine64
[[ -x "$WINE" ]] || WINE="$(command -v wine)"

export WINEPREFIX="$CACHE/wine-prefix" WINEDEBUG=-all
# The stand-in bcryptprimitives.dll before Wine's own; no Mono/Gecko installers, no menus.
export WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree,mshtml=;winemenubuilder.exe=d"
if [[ ! -f "$WINEPREFIX/system.reg" ]]; then
    echo "==> creating the Wine prefix $WINEPREFIX"
    wineboot -i >/dev/null 2>&1
    wineserver -w
fi
x86_64-w64-mingw32-gcc -O2 -shared -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
    scripts/ci/wine/processprng.c scripts/ci/wine/processprng.def -ladvapi32

TMP="$(mktemp -d)"
trap 'wineserver -k 2>/dev/null || true; rm -rf "$TMP"' EXIT
winpath() { winepath -w "$1" 2>/dev/null; }
# A folder with a space, so the entry's command must carry the path as one argument.
mkdir -p "$TMP/Program Files/agx" "$TMP/home"
cp "$AGX_EXE" "$TMP/Program Files/agx/agx.exe"
AGX_WIN="$(winpath "$TMP/Program Files/agx/agx.exe")"
# The HOME and AGX_HOME the Windows agx sees: Windows paths into the temp folder.
export WIN_HOME="$(winpath "$TMP/home")" WIN_AGX_HOME="$(winpath "$TMP/agx-home")"
# Wine gives Windows programs no HOME of their own (agx then takes USERPROFILE, inside the
# shared prefix); WINEHOME becomes HOME in their environment.
agx() {
    WINEHOME="$WIN_HOME" AGX_HOME="$WIN_AGX_HOME" AGX_OFFICIAL_REGISTRY=off AGX_NO_PROGRESS=1 \
        NO_COLOR=1 "$WINE" "$TMP/Program Files/agx/agx.exe" "$@"
}
fail() { echo "FAIL  $*" >&2; exit 1; }
section() { echo "==> $* ($((SECONDS - start)) s)"; }

section "agx.exe --version"
version="$(agx --version | tr -d '\r')"
expected="agx $(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
[[ "$version" == "$expected"* ]] || fail "--version printed '$version', expected '$expected'"
echo "ok    $version"

section "agx.exe validate of every fixture package, and one invalid one"
for pkg in registry-fixtures/packages/*/; do
    agx -q validate "$(winpath "$ROOT/$pkg")" || fail "validate ${pkg%/}"
done
if out="$(agx validate "$(winpath "$ROOT/registry-fixtures/invalid/missing-key")" 2>&1)"; then
    fail "validate of registry-fixtures/invalid/missing-key succeeded"
fi
grep -q "missing-key" <<<"$out" || grep -q "agx.toml" <<<"$out" \
    || fail "validate of an invalid package did not name the file: $out"
echo "ok    every fixture package is valid; an invalid one is refused"

section "agx.exe install from the fixture folder registry, list --json"
agx -q --registry "$(winpath "$ROOT/registry-fixtures/registry")" install acme/weather
agx list --json | tr -d '\r' | python3 -c '
import json, sys
names = sorted(p["name"] for p in json.load(sys.stdin)["packages"])
assert names == ["acme/geo", "acme/weather"], names
print("ok    list --json:", ", ".join(names))'

section "a package whose tool is a Windows program"
pkg="$TMP/wine-echo"
mkdir -p "$pkg/agx/servers" "$pkg/agx/tools" "$pkg/bin"
rustc --edition 2021 -O --target x86_64-pc-windows-gnu -o "$pkg/bin/echo_tool.exe" \
    scripts/ci/wine/echo_tool.rs
cat > "$pkg/agx.toml" <<'TOML'
[package]
name = "wine/echo"
version = "0.1.0"
description = "A Windows program as a tool, for the Wine check"

[extension]
servers = ["echo"]
tools = ["echo", "linger"]
TOML
printf 'name = "echo"\ndescription = "Echo under Wine"\ntools = ["echo"]\n' >"$pkg/agx/servers/echo.toml"
cat > "$pkg/agx/tools/echo.toml" <<'TOML'
name = "echo"
description = "Answers with the arguments it was given, the OS it runs on and its own path"
command = ["bin/echo_tool.exe"]

[[parameters]]
name = "text"
type = "string"
description = "Anything"
TOML
cat > "$pkg/agx/tools/linger.toml" <<'TOML'
name = "linger"
description = "Answers at once and leaves a child running"
command = ["bin/echo_tool.exe", "linger"]
TOML
# The pids of echo_tool.exe's `sleep` mode: Wine shows a process's Windows command line
# (`"Z:\…\echo_tool.exe" sleep`) as its Linux one.
lingering() {
    python3 - <<'PY'
import pathlib
for cmdline in pathlib.Path("/proc").glob("[0-9]*/cmdline"):
    try:
        line = cmdline.read_bytes().replace(b"\0", b" ").replace(b'"', b"").strip()
    except OSError:
        continue
    if line.endswith(b"echo_tool.exe sleep"):
        print(cmdline.parent.name)
PY
}
# The check sees a child linger leaves when agx is not there to end it.
"$WINE" "$pkg/bin/echo_tool.exe" linger >/dev/null
for _ in $(seq 100); do [[ -n "$(lingering)" ]] && break; sleep 0.2; done
[[ -n "$(lingering)" ]] || fail "cannot see the child echo_tool.exe linger leaves"
kill $(lingering)
for _ in $(seq 100); do [[ -z "$(lingering)" ]] && break; sleep 0.2; done
# A Windows program's first start under Wine takes longer than the 200 ms a tool has.
AGX_PROBE_TIMEOUT_MS=30000 agx -q validate --probe "$(winpath "$pkg")" \
    || fail "validate --probe of the Windows tools"
# The probe's Job Object ends the child `linger` left; give Wine a moment to reap it.
for _ in $(seq 100); do [[ -z "$(lingering)" ]] && break; sleep 0.2; done
[[ -z "$(lingering)" ]] || fail "validate --probe left linger's child running: pid $(lingering)"
agx -q install "$(winpath "$pkg")"
echo "ok    wine/echo passes validate --probe (ending what its tool left running) and installs"

section "agx.exe install-server cursor wine/echo/echo (the Cursor file under the Wine HOME)"
agx -q install-server cursor wine/echo/echo
client_file="$TMP/home/.cursor/mcp.json"
[[ -f "$client_file" ]] || fail "install-server wrote no $client_file"
python3 - "$client_file" "$AGX_WIN" <<'PY'
import json, sys
entry = json.load(open(sys.argv[1], encoding="utf-8"))["mcpServers"]["echo"]
assert entry["command"] == sys.argv[2], f"entry command {entry['command']!r}, expected {sys.argv[2]!r}"
assert entry["args"] == ["serve", "wine/echo/echo"], entry["args"]
print(f"ok    the entry launches {entry['command']}")
PY

section "the MCP Python SDK starts that entry under Wine: initialize, tools/list, tools/call"
. scripts/ci/mcp-venv.sh
PY="$(mcp_python)"
WINEHOME="$WIN_HOME" "$PY" scripts/ci/wine/wine_client.py "$WINE" "$client_file" echo echo

echo "wine: ok ($((SECONDS - start)) s)"
