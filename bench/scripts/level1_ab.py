# Level 1 A/B (agent/README.md "Measured"): python3 bench/scripts/level1_ab.py RUNS [AGENT_JAR ...]; medians of
# alternated runs of MatMulWorkload 4 512, uninstrumented and under each jar at level 1 (wall, and CPU of the child).
import subprocess, time, resource, sys, statistics, os, tempfile
# run from the repository root
CP='bench/target/classes'
OUT=tempfile.mkdtemp(prefix='level1_ab.')  # the traces (a few KB each)
N=int(sys.argv[1]) if len(sys.argv)>1 else 7
jars=sys.argv[2:] or ['agent/target/dsmscope-agent.jar']
def cmd(j):
    base=['java']
    if j: base+=['-Xbootclasspath/a:'+j,'-javaagent:'+j+'=level=1,name='+OUT+'/l1,quiet=true']
    return base+['-cp',CP,'org.dsmscope.bench.agent.MatMulWorkload','4','512']
res={k:([],[]) for k in ['plain']+jars}
for i in range(N):
    for k in ['plain']+jars:
        r0=resource.getrusage(resource.RUSAGE_CHILDREN); t0=time.time()
        subprocess.run(cmd(None if k=='plain' else k),stdout=subprocess.DEVNULL,check=True)
        t1=time.time(); r1=resource.getrusage(resource.RUSAGE_CHILDREN)
        res[k][0].append(t1-t0); res[k][1].append(r1.ru_utime-r0.ru_utime+r1.ru_stime-r0.ru_stime)
pw=statistics.median(res['plain'][0]); pc=statistics.median(res['plain'][1])
for k,(w,c) in res.items():
    mw=statistics.median(w); mc=statistics.median(c)
    print(f"{os.path.basename(k):10s} wall {mw:.3f} s ({mw/pw:.2f}x)  cpu {mc:.3f} s ({mc/pc:.2f}x)   walls {' '.join('%.2f'%x for x in w)}")
print("load", os.getloadavg())
