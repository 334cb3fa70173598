#!/usr/bin/env python3
"""Whole-command timing of CIAT on one trace set four ways (cluster/README.md "Timing"):

  serial       dsmscope ciat TRACE
  parts        dsmscope ciat --partitions N TRACE
  local        dsmscope cluster ciat --master local[N] --partitions N TRACE
  standalone   dsmscope cluster ciat --master spark://127.0.0.1:PORT --partitions N TRACE, on a standalone Spark
               master and N workers of one core each, started here on 127.0.0.1 as StandaloneClusterTest starts them
               (the shaded cluster jar as their class path and the executors', a bare SPARK_HOME; the executors map
               the class-data-sharing archive beside the jar, once a local run has made it)

in fresh JVMs, the ways alternating round after round, each run in a folder of its own holding links to the trace
files; after each round the report, memory usage file and JSON of every way are compared byte for byte with the
serial run's. CPU is user + system: of the command and its children (the cluster command's child JVM), and for
the standalone run also what the master, the workers and their executors used meanwhile (from /proc: an executor
ends with the application and its time is then counted in its worker's children). The master and the workers
are started once, before the first round (not timed), and stopped at the end, also after a failure.

A way named WAY@DIR (serial, parts or local) runs with another build's jars, DIR/dsmscope.jar and the newest
DIR/dsmscope-cluster-*-all.jar (e.g. copies of main's), so that two builds alternate in the same rounds; its
outputs are compared with the serial run's as well.

Usage (after `mvn -B -o -pl cli,cluster -am package -DskipTests`), from any folder:
  bench/scripts/cluster_timing.py TRACE_PREFIX [ROUNDS] [N] [WAYS]
  e.g. bench/scripts/cluster_timing.py /tmp/fj.16 3 2 serial,parts,local,standalone
       bench/scripts/cluster_timing.py /tmp/fj.16 3 2 parts,local,local@/tmp/old,parts@/tmp/old
Prints one line per run (wall s, CPU s, load average), then medians per way and their ratios to `parts`.
"""
import glob
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI_JAR = os.path.join(ROOT, "cli", "target", "dsmscope.jar")
# the launcher's JVM options (bin/dsmscope): 4 GiB of heap, C2 ten times later than the JVM's default
LATE_C2 = ("-XX:Tier4InvocationThreshold=50000 -XX:Tier4MinInvocationThreshold=6000 "
           "-XX:Tier4CompileThreshold=150000 -XX:Tier4BackEdgeThreshold=400000")
JAVA_OPTS = ["-Xmx4g"] + LATE_C2.split()
# Spark's own list of JDK internals it needs (cluster/README.md "Java 17 flags")
OPENS = ("-XX:+IgnoreUnrecognizedVMOptions --add-modules=jdk.incubator.vector "
         "--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED "
         "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED "
         "--add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED "
         "--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED "
         "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED "
         "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED "
         "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED --add-opens=java.base/sun.security.action=ALL-UNNAMED "
         "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED "
         "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED "
         "-Dio.netty.tryReflectionSetAccessible=true").split()
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_cpu(pid):
    """User + system seconds of process pid and of its children that ended and were waited for."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) / TICK
    except OSError:
        return 0.0


def tree_cpu(pid):
    """proc_cpu of pid and of every live descendant (a running executor's time is not yet its worker's)."""
    total = proc_cpu(pid)
    try:
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    except OSError:
        kids = []
    for k in kids:
        total += tree_cpu(int(k))
    return total


class Standalone:
    """A standalone Spark master and n one-core workers on 127.0.0.1, each JVM in a process group of its own."""

    def __init__(self, jar, n, home):
        self.jar, self.home, self.procs = jar, home, []
        spark_home = os.path.join(home, "spark")
        os.makedirs(os.path.join(spark_home, "jars"), exist_ok=True)
        self.env = dict(os.environ, SPARK_HOME=spark_home, SPARK_SCALA_VERSION="2.13", SPARK_LOCAL_IP="127.0.0.1",
                        SPARK_LOCAL_DIRS=os.path.join(home, "local"))
        port, ui = free_port(), free_port()
        self.url = "spark://127.0.0.1:%d" % port
        self.start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
                   "--webui-port", str(ui))
        for w in range(n):
            work = os.path.join(home, "work%d" % w)
            os.makedirs(work, exist_ok=True)
            self.start("worker%d" % w, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--port",
                       str(free_port()), "--webui-port", str(free_port()), "--cores", "1", "--memory", "5g",
                       "--work-dir", work, self.url)
        self.await_workers(ui, n)

    def start(self, name, main, *args):
        log = open(os.path.join(self.home, name + ".log"), "w")
        cmd = ["java", "-Xmx512m", "-cp", self.jar] + OPENS + [main] + list(args)
        self.procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                           start_new_session=True))

    def await_workers(self, ui, n):
        until = time.time() + 240
        while time.time() < until:
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError("a Spark JVM ended; logs in " + self.home)
            try:
                body = urllib.request.urlopen("http://127.0.0.1:%d/json/" % ui, timeout=2).read().decode()
                if json.loads(body).get("aliveworkers") == n:
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.5)
        raise RuntimeError("the workers did not register in 4 minutes; logs in " + self.home)

    def cpu(self):
        return sum(tree_cpu(p.pid) for p in self.procs)

    def stop(self):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)  # the JVM's own group: the worker and its executors
            except ProcessLookupError:
                pass
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.procs = []


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    trace = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    ways = (sys.argv[4] if len(sys.argv) > 4 else "serial,parts,local,standalone").split(",")
    jars = sorted(glob.glob(os.path.join(ROOT, "cluster", "target", "dsmscope-cluster-*-all.jar")),
                  key=os.path.getmtime)
    if not os.path.exists(CLI_JAR) or not jars:
        sys.exit("cluster_timing.py: build first: mvn -B -o -pl cli,cluster -am package -DskipTests")
    jar = jars[-1]
    files = [f for f in glob.glob(trace + ".*") if f[len(trace) + 1:].isdigit()]
    if not files:
        sys.exit("cluster_timing.py: no trace files %s.N" % trace)
    base = os.path.basename(trace)
    work = tempfile.mkdtemp(prefix="cluster-timing.")
    cluster = None
    try:
        for w in ways:
            os.makedirs(os.path.join(work, w.replace("/", "_")))
            for f in files:
                os.symlink(f, os.path.join(work, w.replace("/", "_"), os.path.basename(f)))
        if "standalone" in ways:
            cluster = Standalone(jar, n, os.path.join(work, "spark-home"))
        commands = {
            "serial": ["ciat"],
            "parts": ["ciat", "--partitions", str(n)],
            "local": ["cluster", "ciat", "--master", "local[%d]" % n, "--partitions", str(n)],
            "standalone": ["cluster", "ciat", "--master", cluster.url if cluster else "", "--partitions", str(n),
                           "--conf", "spark.executor.extraClassPath=" + jar,
                           "--conf", "spark.executor.memory=4g",
                           "--conf", "spark.executor.extraJavaOptions=" + LATE_C2 + shared(jar)],
        }
        got = {w: [] for w in ways}
        print("trace %s (%d files), %d rounds, %d partitions; %s" % (trace, len(files), rounds, n, jar))
        for r in range(rounds):
            for w in ways:
                d = os.path.join(work, w.replace("/", "_"))
                cli, env = build(w, jar)
                cmd = ["java"] + JAVA_OPTS + ["-jar", cli] + commands[w.split("@")[0]] + ["--json", "o.json", base]
                load = os.getloadavg()[0]
                c0, s0, t0 = children_cpu(), cluster.cpu() if w == "standalone" else 0.0, time.time()
                p = subprocess.run(cmd, cwd=d, env=env, capture_output=True, text=True)
                wall = time.time() - t0
                cpu = children_cpu() - c0 + (cluster.cpu() - s0 if w == "standalone" else 0.0)
                with open(os.path.join(d, "out.txt"), "w") as f:
                    f.write(p.stdout + p.stderr)
                if p.returncode != 0:
                    raise RuntimeError("%s failed (status %d):\n%s%s" % (w, p.returncode, p.stdout, p.stderr))
                got[w].append((wall, cpu))
                print("round %d %-10s wall %7.2f s  cpu %7.2f s  load %5.1f" % (r + 1, w, wall, cpu, load),
                      flush=True)
            for w in ways[1:]:
                for x in (base + ".ciat_report", base + ".memory", "o.json"):
                    if not same(os.path.join(work, ways[0].replace("/", "_"), x),
                                os.path.join(work, w.replace("/", "_"), x)):
                        raise RuntimeError("%s: %s differs from %s's" % (w, x, ways[0]))
            print("round %d: report, memory usage file and JSON identical in all %d ways" % (r + 1, len(ways)),
                  flush=True)
        print("median of %d: way, wall s, cpu s, wall / parts wall, cpu / parts cpu" % rounds)
        ref = got.get("parts")
        for w in ways:
            mw = statistics.median(x[0] for x in got[w])
            mc = statistics.median(x[1] for x in got[w])
            rel = ("  %5.2f  %5.2f" % (mw / statistics.median(x[0] for x in ref),
                                       mc / statistics.median(x[1] for x in ref))) if ref else ""
            print("%-10s %7.2f %7.2f%s" % (w, mw, mc, rel))
    finally:
        if cluster:
            cluster.stop()
        shutil.rmtree(work, ignore_errors=True)


def shared(jar):
    """The executors' class-data-sharing flags: the archive beside the jar (cluster/README.md "Running it"), which
    executors whose class path starts with the jar map as the driver does; none before the first local run."""
    archive = jar[:-4] + ".jsa"
    if not os.path.exists(archive):
        return ""
    return " -XX:SharedArchiveFile=%s -Xlog:cds=off -Xlog:cds+dynamic=off" % archive


def build(way, jar):
    """The cli jar and the environment (the cluster jar) of a way: this checkout's, or WAY@DIR's."""
    if "@" not in way:
        return CLI_JAR, dict(os.environ, DSMSCOPE_CLUSTER_JAR=jar)
    d = way.split("@", 1)[1]
    if way.startswith("standalone@"):
        sys.exit("cluster_timing.py: the standalone way runs this checkout's build only")
    jars = sorted(glob.glob(os.path.join(d, "dsmscope-cluster-*-all.jar")), key=os.path.getmtime)
    if not os.path.exists(os.path.join(d, "dsmscope.jar")) or not jars:
        sys.exit("cluster_timing.py: %s: no dsmscope.jar and dsmscope-cluster-*-all.jar in %s" % (way, d))
    return os.path.join(d, "dsmscope.jar"), dict(os.environ, DSMSCOPE_CLUSTER_JAR=jars[-1])


def same(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        return x.read() == y.read()


if __name__ == "__main__":
    main()
