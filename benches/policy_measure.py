"""Measurements for benches/policy.sh. Standard library only.

usage: policy_measure.py AGX POLICY_FILE POLICY_TEXT PROJECT_DIR RUNS

Starts `agx serve acme/tame/main` to its initialize response RUNS times without a policy and
RUNS times with one (the user's file written, run in the project whose agx.toml tightens it),
alternating so that the machine's drift falls on both alike; prints both medians and the
difference, and exits 1 when the policy adds 0.5 ms or more.
"""
import json
import os
import statistics
import subprocess
import sys
import time

INIT = (json.dumps({
    "jsonrpc": "2.0", "id": 0, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "bench", "version": "1"}},
}) + "\n").encode()

TARGET_MS = 0.5


def start(agx, cwd):
    began = time.perf_counter()
    proc = subprocess.Popen([agx, "serve", "acme/tame/main"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd)
    proc.stdin.write(INIT)
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    took = (time.perf_counter() - began) * 1000
    assert "result" in answer, answer
    proc.stdin.close()
    proc.wait()
    return took


def main():
    agx, policy_file, policy_text, project, runs = sys.argv[1:6]
    runs = int(runs)
    bare = os.path.dirname(project)  # no agx.toml here
    without, with_policy = [], []
    for _ in range(runs):
        if os.path.exists(policy_file):
            os.remove(policy_file)
        without.append(start(agx, bare))
        with open(policy_file, "w") as f:
            f.write(policy_text)
        with_policy.append(start(agx, project))
    # The policy held: a policy that denies the publisher refuses the start.
    with open(policy_file, "w") as f:
        f.write(policy_text.replace('deny = ["acme-legacy"]', 'deny = ["acme"]'))
    proc = subprocess.run([agx, "serve", "acme/tame/main"], input=INIT, capture_output=True,
                          cwd=project)
    assert proc.returncode != 0 and b"publishers.deny" in proc.stdout, proc.stdout
    a, b = statistics.median(without), statistics.median(with_policy)
    print(f"agx serve start, no policy (anchor):      {a:7.3f} ms (median of {runs})")
    print(f"agx serve start, user + project policy:   {b:7.3f} ms (median of {runs})")
    print(f"policy adds:                              {b - a:7.3f} ms ({b / a:.3f}x the anchor); target < {TARGET_MS} ms")
    sys.exit(0 if b - a < TARGET_MS else 1)


main()
