# --trace-jdk A/B (issue 28; agent/README.md "The JDK's data"):
#   python3 bench/scripts/jdk_ab.py [RUNS] [AGENT_JAR] [BASELINE_AGENT_JAR]
# Whole-process wall and CPU time of the bundled examples queue (QueueHandoff 4 20000), executor (ExecutorTasks
# 4 200000) and matmul (MatMul 4 256): uninstrumented, level 2, and level 2 with jdk=true, alternated in every
# round (plain, level 2, level 2 + jdk for each program in turn), normal trace files written under a scratch
# directory beside the repository (not /tmp, which may be RAM) and deleted after each run. Prints the medians and
# the slowdowns over the uninstrumented run, and each program's self-check must pass (check=True). With a
# BASELINE_AGENT_JAR (an agent built from an earlier commit) its level 2 runs alternate with the others too, to
# show that the option costs nothing when it is off.
import subprocess, time, resource, sys, statistics, os, tempfile, shutil
# run from the repository root, after mvn -B -o -q -pl cli -am package -DskipTests (builds both jars)
EX = 'examples/target/examples.jar'
N = int(sys.argv[1]) if len(sys.argv) > 1 else 5
JAR = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else 'agent/target/dsmscope-agent.jar')
BASE = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
SCRATCH = tempfile.mkdtemp(prefix='jdk_ab.', dir='bench/target')
PROGS = [('queue', ['org.dsmscope.examples.QueueHandoff', '4', '20000']),
         ('executor', ['org.dsmscope.examples.ExecutorTasks', '4', '200000']),
         ('matmul', ['org.dsmscope.examples.MatMul', '4', '256'])]
MODES = [('plain', None), ('level2', 'level=2'), ('level2+jdk', 'level=2,jdk=true')]
if BASE:
    MODES.insert(1, ('level2-base', 'level=2'))

def cmd(mode, agent, prog):
    base = ['java']
    if agent:
        jar = BASE if mode == 'level2-base' else JAR
        base += ['-Xbootclasspath/a:' + jar, '-javaagent:' + jar + '=' + agent + ',name=' + SCRATCH + '/t,quiet=true']
    return base + ['-cp', EX] + prog

res = {(p, m): ([], []) for p, _ in PROGS for m, _ in MODES}
for i in range(N):
    for p, prog in PROGS:
        for m, agent in MODES:
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.time()
            subprocess.run(cmd(m, agent, prog), stdout=subprocess.DEVNULL, check=True)
            t1 = time.time(); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            res[(p, m)][0].append(t1 - t0)
            res[(p, m)][1].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            for f in os.listdir(SCRATCH):
                os.remove(os.path.join(SCRATCH, f))
shutil.rmtree(SCRATCH)
print(f"{'program':10s} {'mode':11s} {'wall s':>7s} {'slowdown':>8s} {'cpu s':>7s} {'slowdown':>8s}   walls")
for p, _ in PROGS:
    pw = statistics.median(res[(p, 'plain')][0]); pc = statistics.median(res[(p, 'plain')][1])
    for m, _ in MODES:
        w, c = res[(p, m)]
        mw = statistics.median(w); mc = statistics.median(c)
        print(f"{p:10s} {m:11s} {mw:7.2f} {mw / pw:7.2f}x {mc:7.2f} {mc / pc:7.2f}x   {' '.join('%.2f' % x for x in w)}")
print("runs", N, "load", os.getloadavg())
