#!/bin/sh
# Never finishes, and leaves a child behind (timeout kills the process group).
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *"\"__test__\""*) echo "{\"ok\": true}"; exit 0;; esac
sleep 120 &
sleep 120
