#!/bin/sh
# Exits after reading only the first bytes of its input: agx must cope with the closed pipe
# (a large argument makes agx's write fail part-way).
# The self-test call {"__test__": true} gets {"ok": true} (agx validate --probe).
first=$(head -c 12)
case $first in *__test__*) echo '{"ok": true}'; exit 0;; esac
echo done
