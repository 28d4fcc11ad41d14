#!/bin/sh
# Progress lines on stderr (docs/tool-protocol.md).
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *"\"__test__\""*) echo "{\"ok\": true}"; exit 0;; esac
for i in 1 2 3; do
    echo "agx:progress {\"progress\": $i, \"total\": 3, \"message\": \"step $i\"}" >&2
done
echo "finished 3 steps"
