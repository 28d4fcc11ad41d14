"""Measurements for benches/real_servers.sh. Standard library only.

usage: real_servers_measure.py AGX AGX_HOME RUNS ROOT_DIR KIND|PACKAGE|VERSION|ARGS...

For each server: the medians of start → `initialize` answered (benches/npx_measure.py's
clock) for `agx serve`, for `npx -y`/`uvx`, and for the bare interpreter on the installed
entry point, the three taking turns run by run after two warm-up starts each.
"""
import os
import statistics
import sys
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the clone
from npx_measure import start_to_initialized  # noqa: E402


def store_dir(home, kind, package, version):
    """The installed version folder (an npm scope's `/` is written `+`)."""
    return os.path.join(home, "store-v1", kind, package.replace("/", "+"), version)


def launches(agx, home, kind, package, version, args):
    folder = store_dir(home, kind, package, version)
    servers = os.path.join(folder, "agx", "servers")
    (definition,) = os.listdir(servers)
    with open(os.path.join(servers, definition), "rb") as f:
        server = tomllib.load(f)
    command = server["command"]
    # The definition's paths are relative to the package folder; `node` is looked up on PATH.
    bare = [c if c == "node" or os.path.isabs(c) or "/" not in c else os.path.join(folder, c)
            for c in command]
    if kind == "npm":
        runner = ["npx", "-y", f"{package}@{version}"]
    else:
        script = os.path.basename(command[-1])
        runner = ["uvx", "--from", f"{package}=={version}", script]
    served = ["agx", "serve", f"{kind}/{package}/{server['name']}"]
    served[0] = agx
    extra = ["--"] + args if args else []
    return {"agx": served + extra, "runner": runner + args, "bare": bare + args}


def main():
    agx, home, runs, root = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    rows = []
    for spec in sys.argv[5:]:
        kind, package, version, args = spec.split("|")
        args = [a.replace("@ROOT@", root) for a in args.split()] if args else []
        variants = launches(agx, home, kind, package, version, args)
        for argv in variants.values():
            for _ in range(2):  # warm-up: the runner's download, page cache, caches
                start_to_initialized(argv)
        times = {name: [] for name in variants}
        for _ in range(runs):
            for name, argv in variants.items():
                times[name].append(start_to_initialized(argv))
        medians = {name: statistics.median(t) * 1000 for name, t in times.items()}
        rows.append((kind, package, version, medians))
        print(f"measured {package}", file=sys.stderr)

    print(f"start → initialize answered, median of {runs} runs each (ms; clock inside one driver)")
    print(f"{'server':52} {'agx':>8} {'npx/uvx':>8} {'bare':>8} {'runner/agx':>11} {'bare/agx':>9}")
    runner_ratios, bare_ratios = [], []
    for kind, package, version, m in rows:
        runner_ratio, bare_ratio = m["runner"] / m["agx"], m["bare"] / m["agx"]
        runner_ratios.append(runner_ratio)
        bare_ratios.append(bare_ratio)
        print(f"{kind + ':' + package + '@' + version:52} {m['agx']:8.1f} {m['runner']:8.1f} "
              f"{m['bare']:8.1f} {runner_ratio:10.2f}x {bare_ratio:8.2f}x")
    worst = min(runner_ratios)
    median_bare = statistics.median(bare_ratios)
    print(f"agx vs npx/uvx: {worst:.2f}x at worst, {statistics.median(runner_ratios):.2f}x median "
          f"(target: at least 3x for every server)")
    print(f"agx vs bare interpreter: {median_bare:.2f}x median over the servers (target: above 1x)")
    missed = [name for name, ok in (("3x npx/uvx", worst >= 3), ("bare", median_bare > 1)) if not ok]
    if missed:
        print(f"targets missed: {', '.join(missed)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
