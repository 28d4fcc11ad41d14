#!/usr/bin/env python3
"""sunrise: approximate sunrise and sunset (UTC) from the standard solar equations.

Input mode "argv": the arguments arrive as one JSON object in the last argument."""

import json
import sys


def sun_times(lat, lon, date):
    import math

    day_of_year = date.timetuple().tm_yday
    declination = -23.44 * math.cos(math.radians(360 / 365 * (day_of_year + 10)))
    cos_hour = -math.tan(math.radians(lat)) * math.tan(math.radians(declination))
    if cos_hour <= -1:
        return None, None, "midnight sun"
    if cos_hour >= 1:
        return None, None, "polar night"
    half_day = math.degrees(math.acos(cos_hour)) / 15  # hours
    solar_noon = 12 - lon / 15  # UTC hours

    def clock(hours):
        minutes = int(round((hours % 24) * 60)) % (24 * 60)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"

    return clock(solar_noon - half_day), clock(solar_noon + half_day), None


def main():
    args = json.loads(sys.argv[-1]) if len(sys.argv) > 1 else {}
    if args.get("__test__"):
        print(json.dumps({"ok": True, "tool": "sunrise"}))
        return
    import datetime  # only real calls need it; the self-test answers without it

    try:
        date = datetime.date.fromisoformat(args["date"])
    except ValueError:
        print(json.dumps({"error": f"date must be YYYY-MM-DD, got {args['date']!r}"}))
        return
    lat, lon = float(args["lat"]), float(args["lon"])
    rise, set_, note = sun_times(lat, lon, date)
    result = {"date": date.isoformat(), "lat": lat, "lon": lon, "sunrise_utc": rise, "sunset_utc": set_}
    if note:
        result["note"] = note
    print(json.dumps(result))


if __name__ == "__main__":
    main()
