#!/usr/bin/env bash
# Claude Code's own check of the skill copies agx writes (docs/skills.md, "Checked by the
# clients"): `claude plugin validate --strict` validates a plugin folder, each SKILL.md of
# its `skills/` included (front matter, fields). Claude Code has no check of a bare skills
# folder, so each folder agx writes (`install-skill all` into ~/.claude/skills and
# ~/.agents/skills, and a project's `agx sync` into .claude/skills and .agents/skills) is
# copied under `skills/` of a plugin folder with a complete `.claude-plugin/plugin.json`.
# Offline, with HOME and AGX_HOME in a temp folder.
#
#   AGX_REAL_CLIENTS_CACHE  where scripts/ci/real-clients.sh installed Claude Code (default:
#                           $AGX_CI_CACHE/real-clients, or $HOME/.cache/agx-ci/real-clients)
#   AGX_BIN                 the agx binary (default: target/debug/agx, built with `cargo build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CACHE="${AGX_REAL_CLIENTS_CACHE:-${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/real-clients}"
CLAUDE="$CACHE/node_modules/.bin/claude"
if [[ ! -x "$CLAUDE" ]]; then
    echo "no Claude Code at $CLAUDE: scripts/ci/real-clients.sh installs it (run it first)" >&2
    exit 1
fi
. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP/home" AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
unset XDG_CONFIG_HOME CLAUDE_CONFIG_DIR AGX_REGISTRY AGX_PROJECT || true
mkdir -p "$HOME"
REGISTRY="$ROOT/registry-fixtures/registry"

"$AGX" --registry "$REGISTRY" install acme/dev >/dev/null
for skill in review release-notes; do
    "$AGX" install-skill all "acme/dev/$skill" >/dev/null
done
PROJECT="$HOME/repo"
mkdir -p "$PROJECT"
cat >"$PROJECT/agx.toml" <<'EOF'
[project]
clients = ["claude-code", "codex"]

[skills]
review = { skill = "acme/dev/review", version = "^1" }
release-notes = { skill = "acme/dev/release-notes", version = "^1" }
EOF
(cd "$PROJECT" && "$AGX" --registry "$REGISTRY" sync >/dev/null)

# A plugin folder whose skills/ is a copy of $1, in $2.
plugin_of() {
    mkdir -p "$2/.claude-plugin"
    cat >"$2/.claude-plugin/plugin.json" <<'EOF'
{
  "name": "agx-skill-copies",
  "version": "1.0.0",
  "description": "The skill copies agx wrote, checked by Claude Code",
  "author": { "name": "agx CI" }
}
EOF
    cp -R "$1" "$2/skills"
}

# Claude Code reports only the skills with findings: a control plugin with one broken
# copy must fail, naming it, so a pass means the copies were read.
FOLDERS=("$HOME/.claude/skills" "$HOME/.agents/skills" "$PROJECT/.claude/skills" "$PROJECT/.agents/skills")
plugin_of "${FOLDERS[0]}" "$TMP/control"
printf -- '---\nname: [review\n---\n' >"$TMP/control/skills/review/SKILL.md"
# `claude plugin validate --strict $TMP/$1`: its output in out-$1, its exit code in status-$1.
check() {
    local status=0
    timeout 120 "$CLAUDE" plugin validate --strict "$TMP/$1" >"$TMP/out-$1" 2>&1 || status=$?
    echo "$status" >"$TMP/status-$1"
}
# The five checks in parallel: each starts Claude Code (seconds).
for i in "${!FOLDERS[@]}"; do
    plugin_of "${FOLDERS[$i]}" "$TMP/plugin-$i"
    check "plugin-$i" &
done
check control &
wait

failures=0
if [[ "$(cat "$TMP/status-control")" != 0 ]] && grep -q "skills/review/SKILL.md" "$TMP/out-control"; then
    echo "ok   claude plugin validate --strict refuses a broken copy (the control)"
else
    echo "FAIL claude plugin validate --strict did not refuse a broken skill: the check reads no skills"
    cat "$TMP/out-control"
    failures=$((failures + 1))
fi
for i in "${!FOLDERS[@]}"; do
    folder="${FOLDERS[$i]#"$TMP/"}"
    if [[ "$(cat "$TMP/status-plugin-$i")" == 0 ]]; then
        echo "ok   claude plugin validate --strict accepts the copies in $folder"
    else
        echo "FAIL claude plugin validate --strict refuses the copies in $folder"
        cat "$TMP/out-plugin-$i"
        failures=$((failures + 1))
    fi
done
[[ $failures -eq 0 ]]
