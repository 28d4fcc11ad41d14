#!/usr/bin/env python3
"""geocode: look a city up in a built-in table (no network). Arguments on stdin as JSON."""

import json
import sys

CITIES = [
    ("Oslo", "NO", 59.9139, 10.7522),
    ("Paris", "FR", 48.8566, 2.3522),
    ("Paris", "US", 33.6609, -95.5555),
    ("London", "GB", 51.5072, -0.1276),
    ("London", "CA", 42.9849, -81.2453),
    ("Tokyo", "JP", 35.6762, 139.6503),
    ("New York", "US", 40.7128, -74.0060),
    ("Sydney", "AU", -33.8688, 151.2093),
    ("Nairobi", "KE", -1.2921, 36.8219),
    ("Lima", "PE", -12.0464, -77.0428),
    ("Munich", "DE", 48.1351, 11.5820),
    ("Reykjavik", "IS", 64.1466, -21.9426),
]


def main():
    raw = sys.stdin.read()
    args = json.loads(raw) if raw.strip() else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True, "tool": "geocode"}))
        return
    query = str(args.get("query", "")).strip()
    name, _, country = (part.strip() for part in query.partition(","))
    limit = int(args.get("limit", 3))
    matches = [
        {"name": city, "country": code, "lat": lat, "lon": lon}
        for city, code, lat, lon in CITIES
        if city.lower().startswith(name.lower()) and (not country or code.lower() == country.lower())
    ]
    if not name or not matches:
        print(json.dumps({"error": f"no city matches {query!r}; known cities: "
                          + ", ".join(sorted({c[0] for c in CITIES}))}))
        return
    print(json.dumps({"query": query, "results": matches[:max(limit, 1)]}))


if __name__ == "__main__":
    main()
