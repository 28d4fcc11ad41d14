#!/bin/sh
# alerts: simulated weather alerts for a region (no network).
# Input mode "argv": the arguments arrive as one JSON object in the last argument.
set -eu

for last in "$@"; do :; done
json=${last:-"{}"}

case $json in
*'"__test__"'*)
    printf '{"ok": true, "tool": "alerts"}\n'
    exit 0
    ;;
esac

# Pull one string or boolean field out of the flat JSON object (POSIX sed, no jq needed).
field() {
    printf '%s' "$json" | tr -d '\\' |
        sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\{0,1\}\([^\",}]*\).*/\1/p"
}

region=$(field region)
severity=$(field severity)
active_only=$(field active_only)

if [ -z "$region" ]; then
    printf '{"error": "missing argument: region"}\n'
    exit 0
fi

# The same region always gets the same alerts: a checksum picks them.
sum=$(printf '%s' "$region" | cksum | cut -d' ' -f1)
rank() {
    case $1 in minor) echo 1 ;; moderate) echo 2 ;; severe) echo 3 ;; *) echo 0 ;; esac
}
min_rank=$(rank "${severity:-minor}")

alerts=""
add() { # level, event, expired
    [ "$(rank "$1")" -ge "$min_rank" ] || return 0
    [ "$3" = "true" ] && [ "${active_only:-true}" = "true" ] && return 0
    item=$(printf '{"severity": "%s", "event": "%s", "region": "%s", "expired": %s}' "$1" "$2" "$region" "$3")
    alerts="${alerts:+$alerts, }$item"
}

case $((sum % 4)) in
0) add minor "Frost advisory" false ;;
1) add moderate "Strong wind warning" false; add minor "Fog advisory" true ;;
2) add severe "Heavy rain warning" false; add moderate "Flood watch" false ;;
3) ;;
esac

printf '{"region": "%s", "alerts": [%s]}\n' "$region" "$alerts"
