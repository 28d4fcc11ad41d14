#!/usr/bin/env bash
# The MCP conformance suite (npm package @modelcontextprotocol/conformance, server mode)
# against `agx serve --http` on the agx/conformance fixture (issue 4), then against a profile
# holding it and a profile holding it wrapped and filtered (docs/profiles.md). Scenarios agx does not
# offer are listed in scripts/ci/conformance-baseline.yml; the suite fails the run on any other
# failing scenario, and also when a listed scenario starts passing (a stale baseline). The
# fixture declares permissions, so its programs run in the sandbox (docs/sandbox.md).
#
#   AGX_CI_CACHE  cache folder; Node 22 (scripts/ci/node22.sh) and the suite live in
#                 $AGX_CI_CACHE/node22
#                 (default $HOME/.cache/agx-ci)
#   AGX_BIN       the agx binary (default: target/debug/agx, built with `cargo build`)
#
# Needs npm (any version) and python3 (the fixture's tools are Python), network access to the
# npm registry only. Arguments go to `conformance server` (e.g. --scenario tools-list).
# Exits non-zero on any unexpected result.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

# The pinned suite and Node 22: SUITE_VERSION, NODE, NODE_VERSION, SUITE.
. scripts/ci/conformance-suite.sh

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

TMP="$(mktemp -d)"
SERVER_PID=
stop_server() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap stop_server EXIT
export HOME="$TMP/home"
export AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1 AGX_LOG="${AGX_LOG:-warn}"
unset AGX_REGISTRY || true
mkdir -p "$HOME"

echo "==> agx install registry-fixtures/packages/agx-conformance"
"$AGX" install --quiet "$ROOT/registry-fixtures/packages/agx-conformance"
# The fixture declares permissions: its programs run in the sandbox (docs/sandbox.md).
. scripts/ci/require-confined.sh
require_confined "$AGX" agx/conformance

# Run the suite against `agx serve --http TARGET`; prints the summary, returns its status.
run_suite() {
    local target="$1"
    shift
    SERVER_PID=
    # Port 0: the server picks a free loopback port and names it on stderr. The log is
    # emptied first: the background shell truncates it only once it runs.
    : > "$TMP/serve.log"
    "$AGX" serve --http 127.0.0.1:0 "$target" 2>"$TMP/serve.log" &
    SERVER_PID=$!
    URL=
    for _ in $(seq 100); do
        URL="$(sed -n 's|^agx serve: listening on \(http://127\.0\.0\.1:[0-9]*/mcp\)$|\1|p' \
            "$TMP/serve.log")"
        [[ -n "$URL" ]] && break
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "error: agx serve exited before listening:" >&2
            cat "$TMP/serve.log" >&2
            return 1
        fi
        sleep 0.1
    done
    if [[ -z "$URL" ]]; then
        echo "error: agx serve did not report its address within 10 s:" >&2
        cat "$TMP/serve.log" >&2
        return 1
    fi

    echo "==> conformance server --url $URL: agx serve $target (suite $SUITE_VERSION, Node ${NODE_VERSION#v})"
    rm -rf "$TMP/results"
    set +e
    # The per-scenario progress lines name result folders that are deleted on exit: left out.
    (cd "$TMP" && "$NODE" "$SUITE/dist/index.js" server --url "$URL" \
        --expected-failures "$ROOT/scripts/ci/conformance-baseline.yml" --output-dir "$TMP/results" "$@") \
        | grep --line-buffered -v -e '^Running client scenario ' -e '^Results saved to '
    STATUS=${PIPESTATUS[0]}
    set -e

    # What failed and why (from each scenario's checks.json), then one summary line.
    EXPECTED="$(sed -n 's/^  - \([a-z0-9-]*\).*$/\1/p' "$ROOT/scripts/ci/conformance-baseline.yml")"
    "$NODE" - "$TMP/results" "$EXPECTED" <<'JS'
const fs = require("fs");
const path = require("path");
const [dir, expectedList] = process.argv.slice(2);
const expected = new Set(expectedList.split("\n").filter(Boolean));
const scenarios = new Map();
for (const entry of fs.readdirSync(dir)) {
  const checks = JSON.parse(fs.readFileSync(path.join(dir, entry, "checks.json"), "utf8"));
  const name = entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
  scenarios.set(name, checks.filter((check) => check.status === "FAILURE"));
}
let passed = 0;
const expectedFailures = [];
for (const [name, failures] of [...scenarios].sort()) {
  if (failures.length === 0) {
    passed += 1;
    continue;
  }
  if (expected.has(name)) {
    expectedFailures.push(name);
    continue;
  }
  for (const failure of failures) {
    console.log(`unexpected failure: ${name}: ${failure.id}: ${failure.errorMessage ?? failure.description}`);
  }
}
const unexpected = scenarios.size - passed - expectedFailures.length;
const stale = [...expected].filter((name) => scenarios.has(name) && scenarios.get(name).length === 0);
for (const name of stale) console.log(`stale baseline entry (now passes): ${name}`);
console.log(
  `conformance: ${passed} of ${scenarios.size} scenarios passed, ` +
    `${expectedFailures.length} failed as the baseline expects, ${unexpected} failed unexpectedly`,
);
JS
    if [[ $STATUS -ne 0 ]]; then
        echo "==> agx serve log (last 40 lines)"
        tail -n 40 "$TMP/serve.log"
    fi
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    return $STATUS
}

# The fixture served alone; then as the one server of a profile (docs/profiles.md), which
# `agx serve --http @NAME` serves session by session (`namespace = "none"` keeps the names
# the suite calls); then the fixture wrapped as a package's own program with a filter,
# which agx proxies, inside a profile (`--http` serves wrapped servers only in profiles).
. scripts/ci/wrapped-conformance.sh
make_wrapped_conformance "$AGX" "$TMP/wrapped-conformance"
cat > "$AGX_HOME/profiles-v1.toml" <<'TOML'
[profiles.conformance]
servers = ["agx/conformance/everything"]
namespace = "none"

[profiles.filtered]
servers = ["acme/wrapped-conformance/wrapped"]
namespace = "none"
TOML
STATUS_ALL=0
for target in agx/conformance/everything @conformance @filtered; do
    run_suite "$target" "$@" || STATUS_ALL=1
done
exit $STATUS_ALL
