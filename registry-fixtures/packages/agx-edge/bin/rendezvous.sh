#!/bin/sh
# Waits (up to 20 s) until `count` calls are running at once, each leaving a file in `dir`:
# proves that calls run concurrently without measuring time.
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *'"__test__"'*) echo '{"ok": true}'; exit 0;; esac
dir=$(printf '%s' "$input" | sed -n 's/.*"dir": *"\([^"]*\)".*/\1/p')
count=$(printf '%s' "$input" | sed -n 's/.*"count": *\([0-9]*\).*/\1/p')
: > "$dir/$$"
i=0
while [ "$(ls "$dir" | wc -l)" -lt "$count" ] && [ "$i" -lt 2000 ]; do
    sleep 0.01
    i=$((i + 1))
done
if [ "$(ls "$dir" | wc -l)" -ge "$count" ]; then echo '{"met": true}'; else echo '{"met": false}'; fi
