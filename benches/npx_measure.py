"""Measurements for benches/npx_vs_agx.sh. Standard library only.

usage: npx_measure.py RUNS "AGX COMMAND" "NPX COMMAND"

Each run spawns the command, sends `initialize` and stops the clock when the answer's line
arrives: start → `initialize` answered, the figure the target names. The clock runs inside
this one driver process, so the ~150 ms a Python interpreter takes to start (which a
hyperfine timing of a driver per run adds to both sides alike) is not counted.
"""
import json
import shlex
import statistics
import subprocess
import sys
import time

REQUEST = (json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "bench", "version": "1"}},
}) + "\n").encode()


def start_to_initialized(argv):
    """Seconds from spawning argv to its answer to `initialize`."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    try:
        proc.stdin.write(REQUEST)
        proc.stdin.flush()
        for line in proc.stdout:
            if json.loads(line).get("id") == 1:
                return time.perf_counter() - start
        sys.exit(f"{shlex.join(argv)} closed without answering initialize")
    finally:
        proc.kill()
        proc.wait()


def measure(command, runs):
    argv = shlex.split(command)
    for _ in range(3):  # warm-up: page cache, npm cache
        start_to_initialized(argv)
    return [start_to_initialized(argv) for _ in range(runs)]


def main():
    runs, agx_command, npx_command = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    figures = {"agx serve": measure(agx_command, runs), "npx -y": measure(npx_command, runs)}
    print(f"start → initialize answered, {runs} runs each (clock inside one driver)")
    print(f"{'':10} {'median':>10} {'mean':>10} {'stdev':>9}")
    for name, times in figures.items():
        print(f"{name:10} {statistics.median(times) * 1000:8.1f}ms "
              f"{statistics.mean(times) * 1000:8.1f}ms {(statistics.stdev(times) if len(times) > 1 else 0) * 1000:7.1f}ms")
    agx, npx = (statistics.median(figures[n]) for n in ("agx serve", "npx -y"))
    print(f"agx is {npx / agx:.2f}x faster than npx -y (medians; target: at least 3x)")


if __name__ == "__main__":
    main()
