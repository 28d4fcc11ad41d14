# Sourced by CI scripts: `require_confined AGX PACKAGE` fails when the installed PACKAGE
# declares no permissions (its programs would run unconfined, docs/sandbox.md), and prints
# what this machine enforces of them.
require_confined() {
    local info
    info="$("$1" info "$2")"
    if grep -q "declares no permissions" <<<"$info"; then
        echo "error: $2 declares no permissions: the suite would run its programs unconfined" >&2
        return 1
    fi
    sed -n "s|^  enforced: |$2 runs confined: |p" <<<"$info"
}
