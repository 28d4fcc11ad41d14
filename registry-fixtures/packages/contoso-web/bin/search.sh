#!/bin/sh
# search (contoso/web): canned "web" results for a query (no network).
# Input mode "stdin": the arguments arrive as one JSON object on standard input.
set -eu

json=$(cat)

case $json in
*'"__test__"'*)
    printf '{"ok": true, "tool": "search", "package": "contoso/web"}\n'
    exit 0
    ;;
esac

query=$(printf '%s' "$json" | tr -d '\\' |
    sed -n 's/.*"query"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
if [ -z "$query" ]; then
    printf '{"error": "missing argument: query"}\n'
    exit 0
fi

# URL slug: lowercase words joined by "-".
slug=$(printf '%s' "$query" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/^-//; s/-$//')

printf '{"source": "contoso/web", "query": "%s", "results": [' "$query"
printf '{"title": "%s - Wikipedia", "url": "https://en.wikipedia.example/wiki/%s"}, ' "$query" "$slug"
printf '{"title": "What is %s? A beginner guide", "url": "https://guides.contoso.example/%s"}, ' "$query" "$slug"
printf '{"title": "%s news and updates", "url": "https://news.contoso.example/topic/%s"}' "$query" "$slug"
printf ']}\n'
