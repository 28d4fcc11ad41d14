"""The symbol ordering file of a PGO build (scripts/pgo.sh). Standard library only.

usage: order.py LLVM_PROFDATA FIRST_PROFILE WHOLE_PROFILE OUT

Writes the symbols of every function the training ran, one per line, for lld's
--symbol-ordering-file, which places them together at the start of the code: the pages a
start and a serving `agx serve` touch are then few and adjacent instead of spread over the
whole binary. The functions of FIRST_PROFILE (the `agx serve` sessions) come first, then the
rest of WHOLE_PROFILE (the other commands), each group the most-run first (by the count of a
function's busiest block).
"""
import re
import subprocess
import sys


def runs(tool, profile):
    """{symbol: count of its busiest block} of the functions `profile` saw run."""
    dump = subprocess.run([tool, "show", "--all-functions", "--counts", profile],
                          capture_output=True, text=True, check=True).stdout
    counts = {}
    name = None
    for line in dump.splitlines():
        header = re.match(r"^  (\S.*):$", line)
        if header:
            # Local functions are keyed `file;symbol`; the linker knows the symbol.
            name = header.group(1).rsplit(";", 1)[-1]
            continue
        blocks = re.match(r"^    Block counts: \[(.*)\]$", line)
        if blocks and name and blocks.group(1):
            most = max(int(c) for c in blocks.group(1).split(", "))
            if most > 0:
                counts[name] = max(counts.get(name, 0), most)
    return counts


def main():
    tool, first_profile, whole_profile, out = sys.argv[1:5]
    first, whole = runs(tool, first_profile), runs(tool, whole_profile)
    rest = {s: c for s, c in whole.items() if s not in first}
    with open(out, "w") as f:
        for group in (first, rest):
            for symbol in sorted(group, key=lambda s: (-group[s], s)):
                f.write(symbol + "\n")


if __name__ == "__main__":
    main()
