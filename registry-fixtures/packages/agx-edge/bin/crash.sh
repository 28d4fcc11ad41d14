#!/bin/sh
# Fails: messages on stderr, exit status 3.
# The self-test call {"__test__": true} gets {"ok": true} at once (agx validate --probe).
input=$(cat)
case $input in *"\"__test__\""*) echo "{\"ok\": true}"; exit 0;; esac
echo 'starting' >&2
echo 'Traceback: something broke' >&2
exit 3
