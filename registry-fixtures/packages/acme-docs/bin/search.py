#!/usr/bin/env python3
"""search (acme/docs): rank built-in documentation pages by word overlap. JSON on stdin."""

import json
import sys

PAGES = [
    ("https://docs.acme.example/install", "Installing Acme CLI",
     "Install the Acme CLI with the installer script, then run acme login to connect your account."),
    ("https://docs.acme.example/config", "Configuration file",
     "The configuration file acme.toml sets the default region, output format and proxy settings."),
    ("https://docs.acme.example/weather-api", "Weather API",
     "The weather API returns forecasts and alerts for coordinates; geocode place names first."),
    ("https://docs.acme.example/rate-limits", "Rate limits",
     "Requests are limited to 60 per minute per token; a 429 response carries Retry-After."),
    ("https://docs.acme.example/tokens", "API tokens",
     "Create API tokens in the dashboard; tokens can be scoped to read-only access."),
]


def main():
    raw = sys.stdin.read()
    args = json.loads(raw) if raw.strip() else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True, "tool": "search", "package": "acme/docs"}))
        return
    words = {w.strip(".,?!").lower() for w in str(args.get("query", "")).split() if w}
    limit = int(args.get("limit", 5))
    scored = []
    for url, title, text in PAGES:
        page_words = {w.strip(".,;").lower() for w in (title + " " + text).split()}
        score = len(words & page_words)
        if score:
            scored.append((-score, url, title, text))
    scored.sort()
    results = [{"url": u, "title": t, "snippet": s, "score": -n} for n, u, t, s in scored[:limit]]
    print(json.dumps({"source": "acme/docs", "query": args.get("query", ""), "results": results}))


if __name__ == "__main__":
    main()
