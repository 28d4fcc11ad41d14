#!/bin/sh
# Writes its process id to `pid_file` (when given), then sleeps `seconds`.
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *'"__test__"'*) echo '{"ok": true}'; exit 0;; esac
seconds=$(printf '%s' "$input" | sed -n 's/.*"seconds": *\([0-9.]*\).*/\1/p')
pid_file=$(printf '%s' "$input" | sed -n 's/.*"pid_file": *"\([^"]*\)".*/\1/p')
[ -n "$pid_file" ] && echo $$ > "$pid_file"
sleep "$seconds"
echo "{\"slept\": $seconds}"
