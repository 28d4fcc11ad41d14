#!/bin/sh
# convert: temperatures between Celsius and Fahrenheit
usage() {
    cat <<'TXT'
Usage: convert.sh --value N [--to UNIT] [--round]

Convert a temperature between Celsius and Fahrenheit.

Options:
  --value N      The temperature to convert (required)
  --to UNIT      Target unit: C or F (default F)
  --round        Round the result to a whole number
  -h, --help     Show this help
TXT
}
value="" to="F" round=""
while [ $# -gt 0 ]; do
    case "$1" in
    -h | --help) usage; exit 0 ;;
    --value) value=$2; shift 2 ;;
    --to) to=$2; shift 2 ;;
    --round) round=1; shift ;;
    *) printf '{"error": "unknown argument: %s"}\n' "$1"; exit 2 ;;
    esac
done
if [ -z "$value" ]; then
    printf '{"error": "--value is required"}\n'
    exit 2
fi
if [ "$to" = "F" ]; then expr="$value * 9 / 5 + 32"; else expr="($value - 32) * 5 / 9"; fi
if [ -n "$round" ]; then result=$(awk "BEGIN { printf \"%d\", ($expr) + 0.5 }")
else result=$(awk "BEGIN { print $expr }"); fi
printf '{"value": %s, "unit": "%s"}\n' "$result" "$to"
