"""Measurements for benches/profile.sh. Standard library only.

usage: profile_measure.py AGX SERVER FILTERS_FILE CALLS ALLOW_DIR

Starts `AGX serve SERVER` twice: first in ALLOW_DIR, whose agx.toml serves it with
`on-change = "allow"` and no filter (agx execs the server: the direct path), then, after
writing a filter for SERVER into FILTERS_FILE, with one (agx proxies it). Both stay up; `tools/call` of `echo` alternates between them, CALLS times each. Prints
one line of JSON with the p50 and p99 of each path and what the proxy adds.
"""
import json
import statistics
import sys

from mcp_session import Session

CALL = {"name": "echo", "arguments": {"message": "bench"}}


def timed_call(session):
    return session.timed("tools/call", CALL)[0]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def main():
    agx, server, filters_file, calls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    direct = Session(agx, server, cwd=sys.argv[5]).initialize()
    with open(filters_file, "w") as f:
        f.write(f'version = 1\n[servers."{server}".tools]\ndeny = ["printEnv"]\n')
    proxied = Session(agx, server).initialize()
    listed = proxied.request("tools/list", {})["result"]["tools"]
    assert not any(t["name"] == "printEnv" for t in listed), "the filter is not applied"
    for s in (direct, proxied):  # warm both paths
        for _ in range(20):
            timed_call(s)
    times = {"direct": [], "proxied": []}
    for _ in range(calls):
        times["direct"].append(timed_call(direct))
        times["proxied"].append(timed_call(proxied))
    direct.close()
    proxied.close()
    out = {"calls": calls}
    for name, values in times.items():
        out[f"{name}_p50_ms"] = round(statistics.median(values), 4)
        out[f"{name}_p99_ms"] = round(percentile(values, 99), 4)
    out["added_p50_ms"] = round(out["proxied_p50_ms"] - out["direct_p50_ms"], 4)
    out["added_p99_ms"] = round(out["proxied_p99_ms"] - out["direct_p99_ms"], 4)
    print(json.dumps(out))


main()
