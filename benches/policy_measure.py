"""Measurements for benches/policy.sh. Standard library only.

usage: policy_measure.py AGX POLICY_FILE POLICY_TEXT PROJECT_DIR PROJECT_TEXT PROJECT_POLICY RUNS

Starts `agx serve acme/tame/main` in PROJECT_DIR to its initialize response RUNS times without
a policy (no user file; agx.toml = PROJECT_TEXT) and RUNS times with one (the user's file
written; agx.toml = PROJECT_TEXT + PROJECT_POLICY, which tightens it), alternating so that the machine's drift falls on both alike; prints both medians and the
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
    agx, policy_file, policy_text, project, project_text, project_policy, runs = sys.argv[1:8]
    runs = int(runs)
    manifest = os.path.join(project, "agx.toml")

    def write(path, text):
        with open(path, "w") as f:
            f.write(text + "\n")

    without, with_policy = [], []
    for _ in range(runs):
        if os.path.exists(policy_file):
            os.remove(policy_file)
        write(manifest, project_text)
        without.append(start(agx, project))
        write(policy_file, policy_text)
        write(manifest, project_text + "\n" + project_policy)
        with_policy.append(start(agx, project))
    # The policy held: a policy that denies the publisher refuses the start.
    write(policy_file, policy_text.replace('deny = ["acme-legacy"]', 'deny = ["acme"]'))
    proc = subprocess.run([agx, "serve", "acme/tame/main"], input=INIT, capture_output=True,
                          cwd=project)
    assert proc.returncode != 0 and b"publishers.deny" in proc.stdout, proc.stdout
    a, b = statistics.median(without), statistics.median(with_policy)
    print(f"agx serve start, no policy (anchor):      {a:7.3f} ms (median of {runs})")
    print(f"agx serve start, user + project policy:   {b:7.3f} ms (median of {runs})")
    print(f"policy adds:                              {b - a:7.3f} ms ({b / a:.3f}x the anchor); target < {TARGET_MS} ms")
    sys.exit(0 if b - a < TARGET_MS else 1)


main()
