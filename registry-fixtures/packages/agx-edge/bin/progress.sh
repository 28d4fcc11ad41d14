#!/bin/sh
cat >/dev/null
for i in 1 2 3; do
    echo "agx:progress {\"progress\": $i, \"total\": 3, \"message\": \"step $i\"}" >&2
done
echo "finished 3 steps"
