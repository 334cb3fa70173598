# Cost of the agent's interface-typed call sites on a program without java.util.concurrent queues
# (agent/README.md "Interface-typed call sites"): python3 bench/scripts/collection_ab.py RUNS [AGENT_JAR ...].
# RUNS rounds of alternated runs of agent/CollectionAdds 10000000 12 mono|mixed: uninstrumented, then at level 1
# (type suppressed: no files) under each jar (default agent/target/dsmscope-agent.jar; give a jar built before the
# interface hooks to compare). Prints per variant and jar the median of the runs' in-process medians (ns of the
# thread's CPU time per Collection.add on an ArrayList) and its ratio to the uninstrumented one.
# Run from the repository root after: mvn -B -o -pl bench -am package -DskipTests
import subprocess, sys, statistics, os
N = int(sys.argv[1]) if len(sys.argv) > 1 else 5
jars = sys.argv[2:] or ['agent/target/dsmscope-agent.jar']
CP = os.environ.get('BENCH_CLASSES', 'bench/target/classes')
def run(jar, variant):
    cmd = ['java']
    if jar:
        cmd += ['-Xbootclasspath/a:' + jar, '-javaagent:' + jar + '=level=1,type=suppressed,quiet=true']
    cmd += ['-cp', CP, 'org.dsmscope.bench.agent.CollectionAdds', '10000000', '12', variant]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return float(out.split('median ')[1].split()[0])
for variant in ['mono', 'mixed']:
    res = {k: [] for k in [None] + jars}
    for i in range(N):
        for k in res:
            res[k].append(run(k, variant))
    base = statistics.median(res[None])
    for k, v in res.items():
        m = statistics.median(v)
        print(f"{variant:5s} {os.path.basename(k) if k else 'plain':28s} {m:.3f} ns/call ({m / base:.2f}x)  runs "
              + ' '.join('%.3f' % x for x in v))
print('load', os.getloadavg())
