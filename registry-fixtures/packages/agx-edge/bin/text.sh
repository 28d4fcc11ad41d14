#!/bin/sh
# Plain text output.
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *"\"__test__\""*) echo "{\"ok\": true}"; exit 0;; esac
echo "plain text from $AGX_TOOL"
