# Partition scaling of dsmscope ciat (issue 27; replay/README.md "Partitioned replay", ciat/README.md "Parallel
# analysis"):
#   JAVA=java JAR=cli/target/dsmscope.jar python3 bench/scripts/partition_scaling.py [options] [N ...]
# Generates a fork-join trace set (dsmscope gen forkjoin, once, under --dir) unless --trace names one, then runs
# `dsmscope ciat` serially (--partitions 1) and with each N (default 1 2 4 8 16) in every round, alternating, whole
# command in a fresh JVM each time, and prints per configuration the median wall time, the speed-up over the serial
# median, the median CPU time (user + system of the child) and every wall time. --modes routed,replays also runs
# each N > 1 with -Ddsmscope.partitions.mode=replays (one replay of the trace files per partition), to compare.
# Needs only a Java runtime and the cli jar (no Maven): JAVA is the java binary (e.g. a jlinked runtime's
# bin/java), JAR the cli jar; JAVA_OPTS adds JVM options (default -Xmx8g). Outputs of every run are compared with
# the serial run's (report, memory file: cmp), so a figure is never of a wrong result.
import argparse, filecmp, os, resource, shutil, statistics, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument('parts', nargs='*', type=int, default=[1, 2, 4, 8, 16])
ap.add_argument('--rounds', type=int, default=5)
ap.add_argument('--threads', type=int, default=4)
ap.add_argument('--instructions', type=int, default=2500000)
ap.add_argument('--shared', default='0.3')
ap.add_argument('--dir', default='bench/target/partition_scaling')
ap.add_argument('--trace', help='an existing trace set (NAME.p) instead of generating one')
ap.add_argument('--modes', default='routed', help='routed, or routed,replays')
a = ap.parse_args()
JAVA = os.environ.get('JAVA', 'java')
JAR = os.environ.get('JAR', 'cli/target/dsmscope.jar')
OPTS = os.environ.get('JAVA_OPTS', '-Xmx8g').split()
os.makedirs(a.dir, exist_ok=True)
if a.trace:
    base = a.trace
else:
    base = os.path.join(a.dir, 'fj.%d' % a.threads)
    if not os.path.exists(base + '.0'):
        subprocess.run([JAVA] + OPTS + ['-jar', JAR, 'gen', 'forkjoin', '-o', a.dir, '--name', 'fj', '--threads',
                        str(a.threads), '--instructions', str(a.instructions), '--shared', a.shared], check=True,
                       stdout=subprocess.DEVNULL)

configs = [('serial', 1, None)]
for n in a.parts:
    for m in a.modes.split(','):
        if n == 1 and m != 'routed':
            continue
        configs.append(('%s %d' % (m, n), n, m))

def run(n, mode):
    props = ['-Ddsmscope.partitions.mode=replays'] if mode == 'replays' else []
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    subprocess.run([JAVA] + OPTS + props + ['-jar', JAR, 'ciat', '--no-progress', '--partitions', str(n), base],
                   check=True, stdout=subprocess.DEVNULL)
    t1 = time.time()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return t1 - t0, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime

# the serial outputs, kept for comparison
run(1, None)
for ext in ('.ciat_report', '.memory'):
    shutil.copy(base + ext, base + ext + '.serial')
res = {c[0]: ([], []) for c in configs}
for i in range(a.rounds):
    for name, n, mode in configs:
        w, c = run(n, mode)
        res[name][0].append(w)
        res[name][1].append(c)
        for ext in ('.ciat_report', '.memory'):
            if not filecmp.cmp(base + ext, base + ext + '.serial', shallow=False):
                sys.exit('%s: %s differs from the serial run' % (name, ext))
serial = statistics.median(res['serial'][0])
print('%-12s %8s %8s %8s   %s' % ('config', 'wall s', 'speedup', 'cpu s', 'walls'))
for name, _, _ in configs:
    w, c = res[name]
    mw = statistics.median(w)
    print('%-12s %8.2f %7.2fx %8.2f   %s' % (name, mw, serial / mw, statistics.median(c),
                                           ' '.join('%.2f' % x for x in w)))
print('rounds', a.rounds, 'cpus', os.cpu_count(), 'load', os.getloadavg(), 'trace', base)
