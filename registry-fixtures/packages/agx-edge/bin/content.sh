#!/bin/sh
cat >/dev/null
cat <<'JSON'
{"content": [
  {"type": "text", "text": "a picture:"},
  {"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "mimeType": "image/png"}
]}
JSON
