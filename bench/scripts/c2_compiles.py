#!/usr/bin/env python3
"""C2's work by method from a HotSpot compilation log (replay/README.md "Partitioned replay", "On few cores").

Usage: bench/scripts/c2_compiles.py LOG [TOP]   where LOG comes from
  java -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=LOG -jar cli/target/dsmscope.jar ciat ...
Prints the tier-4 compiles in all (how many, on-stack ones, seconds between start and end as the log stamps them,
which on a loaded machine is wall time, bytes of compiled code, bytes of bytecode inlined), then the TOP (default
25) methods by compile time, a method's on-stack (OSR) compiles apart from its normal ones.
"""
import collections
import re
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    rows = []
    cur = None
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            if line.startswith("<task "):
                method = re.search(r"method='([^']*)'", line)
                level = re.search(r"level='(\d)'", line)
                stamp = re.search(r"stamp='([\d.]+)'", line)
                cur = (method.group(1).replace("&lt;", "<").replace("&gt;", ">"),
                       int(level.group(1)) if level else 4, float(stamp.group(1)), "osr_bci" in line)
            elif line.startswith("<task_done") and cur:
                stamp = float(re.search(r"stamp='([\d.]+)'", line).group(1))
                nm = re.search(r"nmsize='(\d+)'", line)
                inl = re.search(r"inlined_bytes='(\d+)'", line)
                rows.append((cur[0], cur[1], stamp - cur[2], int(nm.group(1)) if nm else 0,
                             int(inl.group(1)) if inl else 0, cur[3]))
                cur = None
    c2 = [r for r in rows if r[1] == 4]
    print("C2: %d compiles (%d on stack), %.2f s, %d bytes of code, %d bytes inlined"
          % (len(c2), sum(r[5] for r in c2), sum(r[2] for r in c2), sum(r[3] for r in c2), sum(r[4] for r in c2)))
    by = collections.defaultdict(lambda: [0, 0.0, 0, 0])
    for r in c2:
        a = by[r[0] + (" (OSR)" if r[5] else "")]
        a[0] += 1
        a[1] += r[2]
        a[2] += r[3]
        a[3] += r[4]
    for name, (n, s, code, inl) in sorted(by.items(), key=lambda x: (-x[1][1], x[0]))[:top]:
        print("%3d  %6.2f s  %7d B code  %6d B inlined  %s" % (n, s, code, inl, name))


if __name__ == "__main__":
    main()
