#!/usr/bin/env python3
"""get_forecast: a deterministic, simulated daily forecast (no network).

Arguments arrive as one JSON object on stdin. The numbers come from the coordinates and the
day index, so the same call always gives the same answer."""

import json
import os
import sys

CONDITIONS = ["sunny", "partly cloudy", "cloudy", "light rain", "showers", "thunderstorms", "windy", "fog"]
ALL_FIELDS = ["summary", "temperature", "precipitation", "wind"]


def seed(lat, lon, day, salt=0):
    # A small integer hash of the inputs; stable across Python versions (unlike hash()).
    value = int(round(lat * 100)) * 73856093 ^ int(round(lon * 100)) * 19349663 ^ (day + 1) * 83492791 ^ salt
    return abs(value) % 1000


def day_forecast(lat, lon, day, metric, fields):
    base = 28.0 - abs(lat) * 0.45
    s = seed(lat, lon, day)
    high = round(base + (s % 9) - 4, 1)
    low = round(high - 6 - (s % 5), 1)
    wind = 5 + s % 40  # km/h
    rain = (s * 7) % 101  # percent
    if not metric:
        high, low = round(high * 9 / 5 + 32, 1), round(low * 9 / 5 + 32, 1)
        wind = round(wind * 0.621371)
    values = {
        "summary": CONDITIONS[s % len(CONDITIONS)],
        "temperature": {"high": high, "low": low, "unit": "C" if metric else "F"},
        "precipitation": {"chance_percent": rain},
        "wind": {"speed": wind, "unit": "km/h" if metric else "mph"},
    }
    out = {"day": day}
    out.update({f: values[f] for f in fields})
    return out


def main():
    raw = sys.stdin.read()
    args = json.loads(raw) if raw.strip() else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True, "tool": "get_forecast"}))
        return
    lat, lon = float(args["lat"]), float(args["lon"])
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        print(json.dumps({"error": f"coordinates out of range: lat={lat}, lon={lon}"}))
        return
    days = int(args.get("days", 3))
    if not 1 <= days <= 7:
        print(json.dumps({"error": f"days must be between 1 and 7, got {days}"}))
        return
    metric = args.get("units", "metric") == "metric"
    fields = args.get("fields") or ALL_FIELDS
    result = {
        "location": {"lat": lat, "lon": lon},
        "model": os.environ.get("ACME_WEATHER_MODEL", "simulated"),
        "release": "1.2.0",
        "days": [day_forecast(lat, lon, d, metric, fields) for d in range(days)],
    }
    if args.get("include_hourly"):
        first = result["days"][0]
        result["hourly"] = [
            {"hour": h, "summary": CONDITIONS[(seed(lat, lon, 0, h) + h) % len(CONDITIONS)]}
            for h in (0, 6, 12, 18)
        ]
        result["hourly_note"] = f"breakdown of day {first['day']}"
    print(json.dumps(result))


if __name__ == "__main__":
    main()
