#!/usr/bin/env bash
# Benchmark: `agx install` of a skill from a `.well-known` site (docs/registry.md, "Skills
# from a web site") served on 127.0.0.1, warm (the index cached, answered 304), with
# `agx --version` in the same run as the anchor. Each run starts with the skill not
# installed (`--prepare` uninstalls it). Two skills: a `skill-md` one (one file) and an
# `archive` one (a .tar.gz with a script).                        (target < 20 ms)
# With SKILLS_CLI set to the npm `skills` CLI (`npx skills`), `skills add URL --skill NAME`
# of the same site runs as a second anchor.
#
#   AGX_BIN     agx binary (default: a fresh `cargo build --release`)
#   RUNS        hyperfine runs per command (default 30)
#   SKILLS_CLI  the `skills` CLI, when there is one to compare with
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hyperfine is not installed (apt-get install hyperfine)" >&2; exit 1; }
. scripts/agx-bin.sh
AGX="$(agx_bin release)"
RUNS="${RUNS:-30}"

TMP="$(mktemp -d)"
SERVER_PID=
cleanup() {
    [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home" AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
unset AGX_PROJECT AGX_REGISTRY XDG_CONFIG_HOME || true
mkdir -p "$HOME"

SITE="$TMP/site/.well-known/agent-skills"
mkdir -p "$SITE/review" "$TMP/deploy/scripts"
printf -- '---\nname: review\ndescription: Review a change before it is merged.\n---\nRead the diff first.\n' > "$SITE/review/SKILL.md"
printf -- '---\nname: deploy\ndescription: Deploy the site with its script.\n---\nRun [the script](scripts/deploy.sh).\n' > "$TMP/deploy/SKILL.md"
printf '#!/bin/sh\necho deployed\n' > "$TMP/deploy/scripts/deploy.sh"
chmod +x "$TMP/deploy/scripts/deploy.sh"
(cd "$TMP/deploy" && tar czf "$SITE/deploy.tar.gz" SKILL.md scripts)
python3 - "$SITE" <<'PY'
import hashlib, json, sys
site = sys.argv[1]
def digest(rel):
    return "sha256:" + hashlib.sha256(open(f"{site}/{rel}", "rb").read()).hexdigest()
json.dump({"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": [
    {"name": "review", "type": "skill-md", "description": "Review a change before it is merged.",
     "url": "review/SKILL.md", "digest": digest("review/SKILL.md")},
    {"name": "deploy", "type": "archive", "description": "Deploy the site with its script.",
     "url": "deploy.tar.gz", "digest": digest("deploy.tar.gz"), "version": "1.0.0"}]},
    open(f"{site}/index.json", "w"))
PY
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
(cd "$TMP/site" && exec python3 -m http.server "$PORT" --bind 127.0.0.1 >/dev/null 2>&1) &
SERVER_PID=$!
URL="http://127.0.0.1:$PORT"
for _ in $(seq 50); do curl -fs "$URL/.well-known/agent-skills/index.json" >/dev/null && break; sleep 0.1; done

"$AGX" registry add-source docs "$URL" >/dev/null 2>&1
"$AGX" install docs/review docs/deploy >/dev/null 2>&1   # warms the index cache

anchors=()
if [ -n "${SKILLS_CLI:-}" ]; then
    anchors=(-n 'skills add (npm skills CLI)' "$SKILLS_CLI add $URL --skill review -y")
fi
hyperfine -N --warmup 3 --runs "$RUNS" \
    --prepare "sh -c '$AGX uninstall docs/review >/dev/null 2>&1 || true'" \
    -n 'agx --version' "$AGX --version" \
    -n 'agx install docs/review (skill-md)' "$AGX install docs/review" \
    "${anchors[@]}"
hyperfine -N --warmup 3 --runs "$RUNS" \
    --prepare "sh -c '$AGX uninstall docs/deploy >/dev/null 2>&1 || true'" \
    -n 'agx --version' "$AGX --version" \
    -n 'agx install docs/deploy (archive)' "$AGX install docs/deploy"
