#!/bin/sh
# stamp: echo the arguments back with a fixed stamp (simple JSON, no schema)
case "${1:-}" in
--*) exit 2 ;;
esac
printf '{"stamp": "2026-01-01", "received": %s}\n' "${1:-null}"
