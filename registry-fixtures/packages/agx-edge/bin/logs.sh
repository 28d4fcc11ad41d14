#!/bin/sh
cat >/dev/null
echo 'agx:log {"level": "debug", "message": "debug detail"}' >&2
echo 'agx:log {"level": "info", "message": "info note"}' >&2
echo 'agx:log {"level": "warning", "message": "warning sign", "data": {"code": 7}}' >&2
echo 'agx:log {"level": "error", "message": "error report", "logger": "edge-logger"}' >&2
echo 'a plain stderr line' >&2
echo "logged"
