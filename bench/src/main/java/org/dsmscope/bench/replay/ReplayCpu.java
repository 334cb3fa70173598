package org.dsmscope.bench.replay;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;

/**
 * CPU-time harness for the replay engine (SPEC §4; issue 4's speed requirement): replays a trace set
 * {@code reps} times on this thread with a no-op analysis ({@code noop}: the replay's own cost) or the full CIAT
 * analysis without output files ({@code ciat}: what {@code dsmscope ciat} costs), and prints each run's
 * {@code ThreadMXBean} CPU time, which a machine loaded by other processes distorts far less than wall time.
 * Usage: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.replay.ReplayCpu noop|ciat PREFIX REPS}.
 */
public final class ReplayCpu {
    private ReplayCpu() {
    }

    /** Counts memory accesses; otherwise does nothing. */
    static final class Count implements Analysis {
        long accesses;

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            accesses++;
        }
    }

    /** Entry point: {@code noop|ciat PREFIX REPS}. */
    public static void main(String[] args) {
        if (args.length != 3 || !(args[0].equals("noop") || args[0].equals("ciat"))) {
            System.err.println("usage: ReplayCpu noop|ciat TRACE_PREFIX REPS");
            System.exit(2);
        }
        boolean ciat = args[0].equals("ciat");
        TraceSet ts = TraceSet.ofPrefix(args[1]);
        int reps = Integer.parseInt(args[2]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long accesses = -1;
        for (int i = 0; i < reps; i++) {
            Replay r = new Replay(ts, null, new ReplayOptions());
            Count count = new Count();
            if (ciat) {
                CiatOptions co = new CiatOptions();
                co.writeFiles = false;
                r.add(new Ciat(co));
            } else {
                r.add(count);
            }
            long c0 = mx.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            r.run();
            double cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
            double wall = (System.nanoTime() - w0) / 1e9;
            if (!ciat) {
                accesses = count.accesses;
            }
            System.out.printf("%s %s run %d: %d records, cpu %.3f s, wall %.3f s: %.2f M records/s of CPU time%s%n",
                    args[0], args[1], i, r.records(), cpu, wall, r.records() / cpu / 1e6,
                    accesses >= 0 ? String.format(" (%d accesses: %.2f M/s)", accesses, accesses / cpu / 1e6) : "");
        }
    }
}
