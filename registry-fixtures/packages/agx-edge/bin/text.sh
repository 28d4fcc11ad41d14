#!/bin/sh
cat >/dev/null
echo "plain text from $AGX_TOOL"
