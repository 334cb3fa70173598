#!/usr/bin/env python3
# usage: python3 bench/scripts/progress_probe.py java -jar dsmscope.jar ciat --progress --partitions N TRACE
# Timestamps a command's standard error (progress lines split on \r): when the prescan ended, when it finished.
import subprocess, sys, time, re
t0 = time.time()
p = subprocess.Popen(sys.argv[1:], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
buf = b''; first = None; last = ''
while True:
    c = p.stderr.read(1)
    if not c: break
    if c in b'\r\n':
        line = buf.decode(errors='replace'); buf = b''
        m = re.match(r'ciat: ([0-9.]+) M of', line)
        if m and first is None and float(m.group(1)) > 0: first = time.time() - t0
        if line.strip(): last = line.strip()
    else:
        buf += c
rc = p.wait()
print("rc=%d first-progress=%s total=%.2f last=%s" % (rc, "%.2f" % first if first else "-", time.time() - t0, last[:100]))
