#!/bin/sh
# word_count: counts for the "text" argument. Arguments arrive as JSON on stdin; python3
# decodes them, since JSON strings may hold escapes and newlines (standard library only;
# -S skips site-packages for a fast start).
set -eu
exec python3 -S -c '
import json, sys
args = json.load(sys.stdin)
if args.get("__test__"):
    print(json.dumps({"ok": True, "tool": "word_count"}))
    sys.exit(0)
text = str(args.get("text", ""))
print(json.dumps({"lines": len(text.splitlines()), "words": len(text.split()), "characters": len(text)}))
'
