"""The `agx serve` part of the PGO training run (scripts/pgo.sh). Standard library only.

usage: train.py AGX

Drives `agx serve` the way clients do, through benches/serve_measure.py's session: many short
sessions (start, `initialize`, the lists, stop), then long ones with lists, calls and prompts,
each served by agx itself (what the published single binary does) and through the hand-off
to `agx-serve`. Needs the servers of benches/serve-packages.sh and the fixture registry's
acme/weather installed in the environment's AGX_HOME.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benches"))
sys.dont_write_bytecode = True  # no __pycache__ in the clone
from serve_measure import ARGS, IN_PROCESS, Session  # noqa: E402

SHORT_SESSIONS = 40
LISTS = 200
CALLS = 60


def short_session(argv, env):
    s = Session(argv, env)
    s.initialize()
    s.request("tools/list")
    s.request("prompts/list")
    s.close()


def long_session(argv, env, call):
    s = Session(argv, env)
    s.initialize()
    for method in ("tools/list", "prompts/list", "resources/list", "ping"):
        s.request(method)
    for _ in range(LISTS):
        s.request("tools/list")
    for i in range(CALLS):
        s.request("tools/call", call(i))
    s.close()


def bench_call(i):
    return {"name": f"t{i % 5}_{i % 10}", "arguments": ARGS}


def weather_call(i):
    if i % 2:
        return {"name": "get_forecast", "arguments": {"lat": 59.9, "lon": 10.7, "days": 1 + i % 3}}
    return {"name": "geocode", "arguments": {"query": "Oslo"}}


def main():
    agx = sys.argv[1]
    servers = [([agx, "serve", "bench/p0/all"], bench_call),
               ([agx, "serve", "acme/weather/forecast"], weather_call)]
    for env in (IN_PROCESS, None):
        for argv, call in servers:
            for _ in range(SHORT_SESSIONS):
                short_session(argv, env)
            long_session(argv, env, call)
        s = Session(servers[1][0], env)
        s.initialize()
        for days in ("", "2"):
            s.request("prompts/get", {"name": "weather_report",
                                      "arguments": {"place": "Oslo", "days": days}})
        s.close()


if __name__ == "__main__":
    main()
