#!/bin/sh
cat >/dev/null
cat <<'JSON'
{"description": "from a command", "messages": [
  {"role": "user", "content": {"type": "text", "text": "first"}},
  {"role": "assistant", "content": {"type": "text", "text": "second"}}
]}
JSON
