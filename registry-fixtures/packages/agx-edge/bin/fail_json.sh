#!/bin/sh
# A JSON error result.
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *"\"__test__\""*) echo "{\"ok\": true}"; exit 0;; esac
echo '{"error": "no such city: Atlantis"}'
