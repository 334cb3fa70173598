# Level-2 slowdown of issue 28's programs and of the bundled examples, side by side in one run (agent/README.md,
# bench/RESULTS.md): python3 bench/scripts/juc_slowdown.py RUNS [AGENT_JAR ...]. For every program, RUNS rounds
# of alternated runs: uninstrumented, then traced at level 2 (type normal, files in a temporary directory deleted
# after each run) under each agent jar (default agent/target/dsmscope-agent.jar; give a second jar, e.g. one built
# from main, to compare two agents on the same machine in the same run). Prints the median wall time of each and
# its ratio to the uninstrumented median, and the same for the child's CPU time (user + system: less sensitive to
# other load on the machine). Programs: JucWorkloads queue|pool|futures|stream 20000 (bench module),
# MatMulWorkload 4 192 (the agent harness's matrix multiply),
# then every example at its small size (Examples.all(): THREADS 4). Extra JVM flags for the program: JUC_JAVA_OPTS;
# BENCH_CLASSES replaces bench/target/classes; JUC_TRACE_DIR: where the traces go (default: the system's temp
# dir); JUC_ONLY=queue,stream,... runs only the programs named.
# Run from the repository root after: mvn -B -o -pl bench -am package -DskipTests
import subprocess, time, sys, statistics, os, tempfile, shutil, resource
N = int(sys.argv[1]) if len(sys.argv) > 1 else 3
jars = sys.argv[2:] or ['agent/target/dsmscope-agent.jar']
examples_jar = 'examples/target/examples.jar'  # self-contained (the examples call the marker API)
CP = os.environ.get('BENCH_CLASSES', 'bench/target/classes') + os.pathsep + examples_jar
opts = os.environ.get('JUC_JAVA_OPTS', '').split()
progs = [(w, ['org.dsmscope.bench.agent.JucWorkloads', w, '20000']) for w in ['queue', 'pool', 'futures', 'stream']]
progs.append(('MatMul 4 192', ['org.dsmscope.bench.agent.MatMulWorkload', '4', '192']))
only = os.environ.get('JUC_ONLY')  # a comma-separated subset of the program names
small = subprocess.run(['java', '-cp', CP, 'org.dsmscope.bench.agent.ExampleSizes'], capture_output=True,
                       text=True, check=True).stdout.splitlines()
for l in small:
    name, cls, threads, size = l.split()
    progs.append((name, [cls, threads, size]))
if only:
    progs = [p for p in progs if p[0] in only.split(',')]
def run(prog, jar):
    cmd = ['java'] + opts
    out = None
    if jar:
        out = tempfile.mkdtemp(prefix='juc_slowdown.', dir=os.environ.get('JUC_TRACE_DIR'))
        cmd += ['-Xbootclasspath/a:' + jar, '-javaagent:' + jar + '=level=2,quiet=true,name=' + out + '/t']
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    subprocess.run(cmd + ['-cp', CP] + prog, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    t = time.time() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out:
        shutil.rmtree(out)
    return t, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
keys = ['plain'] + jars
for i, j in enumerate(jars):
    print('jar%d = %s' % (i + 1, j))
print('%-14s %9s %9s ' % ('program', 'plain s', 'cpu s') + ' '.join('%30s' % ('jar%d level 2: wall, cpu' % (i + 1))
      for i in range(len(jars))))
for name, prog in progs:
    res = {k: [] for k in keys}
    for i in range(N):
        for k in keys:
            res[k].append(run(prog, None if k == 'plain' else k))
    def med(k, i):
        return statistics.median(x[i] for x in res[k])
    p, pc = med('plain', 0), med('plain', 1)
    cells = ['%7.3f s %5.1fx %7.3f s %5.1fx' % (med(j, 0), med(j, 0) / p, med(j, 1), med(j, 1) / pc) for j in jars]
    print('%-14s %9.3f %9.3f ' % (name, p, pc) + ' '.join('%30s' % c for c in cells), flush=True)
print('load', os.getloadavg())
