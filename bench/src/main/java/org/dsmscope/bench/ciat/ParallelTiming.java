package org.dsmscope.bench.ciat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.ParallelCiat;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;

/**
 * Serial versus parallel CIAT (issue 4 "Speed and memory", module README "Parallel analysis") on a trace set, in
 * one JVM, modes alternating: wall time, process CPU time, the replay thread's CPU time and each worker's CPU
 * time, so that the critical path on idle cores can be estimated on a loaded machine. Usage:
 * {@code ParallelTiming TRACE_PREFIX ITERATIONS MODES} with MODES a comma list of {@code null} (replay only),
 * {@code 1} (serial CIAT), worker counts N and {@code pN} (the same; {@code p1} runs the parallel machinery
 * with one worker, to show its overhead against {@code 1}) and {@code rN} (N partitions that each replay the
 * trace on their own thread, {@code Replay.runPartitioned}, merged by {@code Partitioned.merge}) and {@code oK/N}
 * (partition K of N alone on this thread: one partition's own work, its result not a whole one; dealt by the
 * prescan's work profile as in the command, since session 12: before, by the round-robin plan) and {@code lK/N}
 * (the same without a work profile, as on-the-fly partitions run: the pages dealt by the live plan, module README
 * "Parallel analysis"; round-robin before session 13). After the last
 * iteration it prints, per mode, the median and fastest wall time of the iterations after the first (warm-up), and
 * per iteration the ratio of the first mode's wall time to each other mode's (the speed-up when the first mode is
 * {@code 1}), with its median.
 */
public final class ParallelTiming {
    private ParallelTiming() {
    }

    /** Runs the comparison. */
    public static void main(String[] a) {
        TraceSet set = TraceSet.ofPrefix(a[0]);
        int iterations = Integer.parseInt(a[1]);
        ThreadMXBean tb = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        String[] modes = a[2].split(",");
        double[][] walls = new double[modes.length][iterations];
        for (int it = 0; it < iterations; it++) {
            for (int m = 0; m < modes.length; m++) {
                String mode = modes[m];
                System.gc();
                long w0 = System.nanoTime();
                long p0 = os.getProcessCpuTime();
                long t0 = tb.getCurrentThreadCpuTime();
                Replay r = new Replay(set, null, new ReplayOptions());
                CiatOptions o = new CiatOptions();
                o.writeFiles = false;
                // lK/N: -Ddsmscope.live.planAt as for on-the-fly runs (0: the round-robin plan)
                o.livePlanAt = org.dsmscope.trace.SystemProperties.longValue("dsmscope.live.planAt", o.livePlanAt, 0,
                        Long.MAX_VALUE);
                Ciat serial = null;
                ParallelCiat par = null;
                CiatResult rep = null;
                if (mode.startsWith("o") || mode.startsWith("l")) {
                    // oK/N: partition K of N alone, on this thread (one partition's work without the others'); lK/N
                    // the same without a work profile, as live streams run (the pages dealt after the first accesses)
                    String[] kn = mode.substring(1).split("/");
                    setPartition(r, Integer.parseInt(kn[0]), Integer.parseInt(kn[1]));
                    if (mode.startsWith("o")) {
                        prescanWithProfile(r, set);
                    }
                    serial = new Ciat(o);
                    r.add(serial);
                } else if (mode.startsWith("r")) {
                    // rN: N partitions that each replay the trace (Replay.runPartitioned), results merged
                    java.util.List<Ciat> ps = Replay.runPartitioned(set, null, new ReplayOptions(),
                            Integer.parseInt(mode.substring(1)), k -> new Ciat(o));
                    rep = org.dsmscope.ciat.Partitioned.merge(ps);
                    r = null;
                } else if (mode.equals("null")) {
                    r.add(new Analysis() { });
                } else if (mode.equals("1")) {
                    serial = new Ciat(o);
                    r.add(serial);
                } else {
                    // N: N workers; pN: the same (p1 = the parallel machinery with one worker, for its overhead)
                    par = new ParallelCiat(o, Integer.parseInt(mode.startsWith("p") ? mode.substring(1) : mode));
                    r.add(par);
                }
                if (r != null) {
                    r.run();
                }
                long w = System.nanoTime() - w0;
                walls[m][it] = w / 1e9;
                long p = os.getProcessCpuTime() - p0;
                long t = tb.getCurrentThreadCpuTime() - t0;
                CiatResult res = serial != null ? serial.result() : par != null ? par.result() : rep;
                long acc = res == null ? 0 : res.aggregate.mix.totalLoads(-1) + res.aggregate.mix.totalStores(-1);
                StringBuilder workers = new StringBuilder();
                if (par != null) {
                    for (long ns : par.workerCpuNanos()) {
                        workers.append(String.format(Locale.ROOT, " %.2f", ns / 1e9));
                    }
                    par.close();
                }
                System.out.printf(Locale.ROOT, "%s it %d mode %s wall %.2f s process-cpu %.2f s replay-thread-cpu"
                        + " %.2f s workers-cpu [%s ] accesses %d%n", a[0], it, mode, w / 1e9, p / 1e9, t / 1e9,
                        workers.toString(), acc);
            }
        }
        summary(a[0], modes, walls);
    }

    /** Makes {@code r} partition k of n (private fields: a measurement aid, not an API). */
    /**
     * Runs the replay's prescan with the work profile, as {@code Replay.runInPartitions} (what the command runs) does,
     * so that partition K of N alone deals threads and pages by the same plan (without it: the round-robin plan).
     */
    private static void prescanWithProfile(Replay r, TraceSet set) {
        try {
            Class<?> pc = Class.forName("org.dsmscope.replay.Prescan");
            java.lang.reflect.Field problems = Replay.class.getDeclaredField("problems");
            problems.setAccessible(true);
            java.lang.reflect.Constructor<?> make = pc.getDeclaredConstructor(int.class, ReplayOptions.class,
                    problems.getType());
            make.setAccessible(true);
            Object pre = make.newInstance(set.size(), new ReplayOptions(), problems.get(r));
            java.lang.reflect.Method count = pc.getDeclaredMethod("countWork");
            count.setAccessible(true);
            count.invoke(pre);
            java.lang.reflect.Method run = pc.getDeclaredMethod("run", TraceSet.class, TraceSet.class, boolean.class);
            run.setAccessible(true);
            run.invoke(pre, set, null, false);
            java.lang.reflect.Field f = Replay.class.getDeclaredField("pre");
            f.setAccessible(true);
            f.set(r, pre);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void setPartition(Replay r, int k, int n) {
        try {
            java.lang.reflect.Field f = Replay.class.getDeclaredField("partition");
            f.setAccessible(true);
            f.setInt(r, k);
            f = Replay.class.getDeclaredField("partitions");
            f.setAccessible(true);
            f.setInt(r, n);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Medians and minima of the warm iterations, and the per-iteration ratios to the first mode. */
    private static void summary(String trace, String[] modes, double[][] walls) {
        int n = walls[0].length;
        if (n < 2) {
            return;
        }
        for (int m = 0; m < modes.length; m++) {
            double[] w = java.util.Arrays.copyOfRange(walls[m], 1, n);
            System.out.printf(Locale.ROOT, "%s summary mode %s wall median %.3f s min %.3f s (%d warm iterations)%n",
                    trace, modes[m], median(w), java.util.Arrays.stream(w).min().orElse(0), w.length);
        }
        for (int m = 1; m < modes.length; m++) {
            double[] r = new double[n - 1];
            for (int it = 1; it < n; it++) {
                r[it - 1] = walls[0][it] / walls[m][it];
            }
            double[] sorted = r.clone();
            java.util.Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "%s summary mode %s / mode %s per iteration %s median %.2f%n", trace,
                    modes[0], modes[m], java.util.Arrays.toString(sorted).replaceAll("(\\.\\d\\d)\\d*", "$1"),
                    median(r));
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        int k = s.length;
        return k % 2 == 1 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
    }
}
