#!/usr/bin/env bash
# Benchmark: `agx install-server` for an installed package (target: < 10 ms, < 15 MB RSS),
# and, when the npm Claude Code CLI is present, `claude mcp add` writing the same entry
# into the same ~/.claude.json, with the ratio. Each run starts from the same file.
#
#   AGX_BIN     agx binary (default: a fresh `cargo build --release`)
#   CLAUDE_BIN  claude binary (default: `claude` on PATH, else the real-clients cache)
#   RUNS        iterations (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
CLAUDE="${CLAUDE_BIN:-$(command -v claude || true)}"
if [[ -z "$CLAUDE" ]]; then
    cached="${AGX_REAL_CLIENTS_CACHE:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/real-clients}/node_modules/.bin/claude"
    [[ -x "$cached" ]] && CLAUDE="$cached"
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
mkdir -p "$HOME"
PKG="$TMP/src/weather"
mkdir -p "$PKG/agx/servers" "$PKG/agx/tools"
printf '[package]\nname = "acme/weather"\nversion = "1.0.0"\n\n[extension]\nservers = ["forecast"]\ntools = ["now"]\n' > "$PKG/agx.toml"
printf 'name = "forecast"\ntools = ["now"]\n' > "$PKG/agx/servers/forecast.toml"
printf 'name = "now"\ncommand = ["date"]\n' > "$PKG/agx/tools/now.toml"
"$AGX" install "$PKG" >/dev/null 2>&1

python3 - "$AGX" "$CLAUDE" "${RUNS:-30}" "$ROOT/tests/golden/clients/claude-code.before.json" <<'PY'
import os, shutil, statistics, subprocess, sys, time
agx, claude, runs, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
target = os.path.join(os.environ["HOME"], ".claude.json")
agx_real = os.path.realpath(agx)

def measure(argv):
    times, rss = [], []
    for _ in range(runs):
        shutil.copyfile(seed, target)
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - start)
        rss.append(usage.ru_maxrss / 1024)  # KiB -> MiB on Linux
        if status != 0:
            sys.exit(f"{argv[0]} failed with status {status}")
    return statistics.median(times) * 1000, max(rss)

agx_ms, agx_mb = measure([agx, "install-server", "claude-code", "acme/weather/forecast"])
print(f"agx install-server: median {agx_ms:.2f} ms, max RSS {agx_mb:.1f} MiB "
      f"(targets < 10 ms, < 15 MiB)")
if claude:
    cl_ms, cl_mb = measure([claude, "mcp", "add", "-s", "user", "forecast", "--",
                            agx_real, "serve", "acme/weather/forecast"])
    print(f"claude mcp add:     median {cl_ms:.2f} ms, max RSS {cl_mb:.1f} MiB")
    print(f"ratio: agx is {cl_ms / agx_ms:.0f}x faster and uses {cl_mb / agx_mb:.0f}x less memory")
else:
    print("claude CLI not found: skipped the comparison (set CLAUDE_BIN)")
PY
