#!/usr/bin/env bash
# OCI registries as package sources against the reference ORAS client, oras-py (issue 36):
# on a real registry (Debian's docker-registry) on 127.0.0.1,
# (a) what `agx publish` pushed, oras-py pulls: the file is the package's archive, byte for
#     byte (its sha256 is the one agx reported);
# (b) what oras-py pushes (an archive made by `agx pack`, in oras-py's own manifest form),
#     `agx install` installs, and agx's store holds the files of that archive;
# (c) a skill oras-py pushes in ToolHive's skill-artifact form installs, and `install-skill
#     all` copies it into Claude Code's and the shared skills folders.
#
#   AGX_CI_CACHE  cache folder; the venv lives in $AGX_CI_CACHE/oras-venv
#   AGX_BIN       the agx binary (default: target/debug/agx, built with `cargo build`)
#
# Needs docker-registry and skopeo (scripts/ci/oci-tools.sh) and PyPI once, for the pinned oras.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

. scripts/ci/oci-lib.sh
PY="$(oras_python)"

. scripts/agx-bin.sh
AGX="$(agx_bin debug)"

TMP="$(mktemp -d)"
REGISTRY_PID=
cleanup() {
    [ -z "$REGISTRY_PID" ] || kill "$REGISTRY_PID" 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT
export HOME="$TMP/home"
export AGX_HOME="$TMP/agx-home"
export AGX_NO_PROGRESS=1 AGX_OFFICIAL_REGISTRY=off NO_COLOR=1
unset AGX_REGISTRY || true
mkdir -p "$HOME"

start_oci_registry "$TMP/registry"
REGISTRY_PID=$OCI_REGISTRY_PID
HOST=$OCI_HOST

"$AGX" registry add-source corp "oci://$HOST/corp"

echo "==> (a) agx publish, then oras-py pulls the archive"
published="$("$AGX" publish "$ROOT/registry-fixtures/packages/acme-geo" --to corp --json)"
sha="$(printf '%s' "$published" | python3 -c 'import json, sys; print(json.load(sys.stdin)["sha256"])')"
pulled="$("$PY" scripts/ci/oci_reference.py pull "$HOST/corp/acme/geo:1.0.0" "$TMP/pulled")"
[ "$(printf '%s\n' "$pulled" | wc -l)" = 1 ] || { echo "oras-py pulled more than one file: $pulled" >&2; exit 1; }
got="$(sha256sum "$pulled" | cut -d' ' -f1)"
[ "$got" = "$sha" ] || { echo "oras-py pulled $got, agx published $sha" >&2; exit 1; }
echo "oras-py pulled $(basename "$pulled"), sha256 $got: the archive agx published"

echo "==> (b) oras-py pushes an archive of agx pack, agx installs it"
"$AGX" pack "$ROOT/registry-fixtures/packages/acme-quotes" -o "$TMP/packed" >"$TMP/pack.out"
archive="$(sed -n 's/^path: *//p' "$TMP/pack.out")"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/registry-fixtures/packages/acme-quotes/agx.toml" | head -1)"
"$PY" scripts/ci/oci_reference.py push "$HOST/corp/acme/quotes:$version" "$archive"
"$AGX" install acme/quotes
receipt="$AGX_HOME/receipts-v1/acme/quotes.toml"
grep -q "sha256 = \"$(sha256sum "$archive" | cut -d' ' -f1)\"" "$receipt" \
    || { echo "the receipt does not name the pushed archive:" >&2; cat "$receipt" >&2; exit 1; }
grep -q "registry = \"oci://$HOST/corp\"" "$receipt"
echo "agx installed acme/quotes $version from what oras-py pushed"

echo "==> (c) oras-py pushes a skill as ToolHive does, agx installs it into the clients"
mkdir -p "$TMP/skill/review/references"
printf -- '---\nname: review\ndescription: Review a change before it is merged.\n---\nRead the diff, then [the guide](references/guide.md).\n' >"$TMP/skill/review/SKILL.md"
printf 'Check the tests first.\n' >"$TMP/skill/review/references/guide.md"
"$PY" scripts/ci/oci_reference.py push-skill "$HOST/corp/skills/review:1.0.0" "$TMP/skill/review"
"$AGX" install skills/review
"$AGX" install-skill all skills/review/review
for folder in "$HOME/.claude/skills/review" "$HOME/.agents/skills/review"; do
    cmp "$TMP/skill/review/SKILL.md" "$folder/SKILL.md"
    cmp "$TMP/skill/review/references/guide.md" "$folder/references/guide.md"
done
echo "agx installed the skill oras-py pushed into ~/.claude/skills and ~/.agents/skills"
echo "oci-reference: ok"
