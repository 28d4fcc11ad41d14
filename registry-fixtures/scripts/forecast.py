#!/usr/bin/env python3
"""Daily forecast for a location (simulated data)."""
import argparse
import json

ap = argparse.ArgumentParser(description="Daily forecast for a location (simulated data)")
ap.add_argument("--lat", type=float, required=True, help="Latitude of the location (e.g., 48.8566)")
ap.add_argument("--lon", type=float, required=True, help="Longitude of the location (e.g., 2.3522)")
ap.add_argument("--hours", type=int, default=24, help="Hours ahead")
ap.add_argument("--units", choices=["metric", "imperial"], default="metric", help="Temperature units")
ap.add_argument("--day", action="append", help="Days to include (repeat the flag)")
ap.add_argument("--verbose", action="store_true", help="Add a summary line")
args = ap.parse_args()

out = {"lat": args.lat, "lon": args.lon, "hours": args.hours, "units": args.units,
       "days": args.day or ["today"]}
if args.verbose:
    out["summary"] = f"{len(out['days'])} day(s) of sunshine"
print(json.dumps(out))
