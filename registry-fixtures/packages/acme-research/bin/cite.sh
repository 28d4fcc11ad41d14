#!/bin/sh
# cite: format a title and URL as a citation. Input mode "argv": JSON in the last argument.
set -eu

for last in "$@"; do :; done
json=${last:-"{}"}

case $json in
*'"__test__"'*)
    printf '{"ok": true, "tool": "cite"}\n'
    exit 0
    ;;
esac

field() {
    printf '%s' "$json" | tr -d '\\' |
        sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\([^\"]*\)\".*/\1/p"
}
title=$(field title)
url=$(field url)
style=$(field style)

if [ -z "$title" ] || [ -z "$url" ]; then
    printf '{"error": "cite needs both title and url"}\n'
    exit 0
fi
if [ "${style:-markdown}" = "plain" ]; then
    printf '{"citation": "%s <%s>"}\n' "$title" "$url"
else
    printf '{"citation": "[%s](%s)"}\n' "$title" "$url"
fi
