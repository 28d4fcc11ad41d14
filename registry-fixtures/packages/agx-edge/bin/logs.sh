#!/bin/sh
# Log lines on stderr at several levels, and one plain line.
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *"\"__test__\""*) echo "{\"ok\": true}"; exit 0;; esac
echo 'agx:log {"level": "debug", "message": "debug detail"}' >&2
echo 'agx:log {"level": "info", "message": "info note"}' >&2
echo 'agx:log {"level": "warning", "message": "warning sign", "data": {"code": 7}}' >&2
echo 'agx:log {"level": "error", "message": "error report", "logger": "edge-logger"}' >&2
echo 'a plain stderr line' >&2
echo "logged"
