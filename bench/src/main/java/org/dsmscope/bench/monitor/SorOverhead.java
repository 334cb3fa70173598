package org.dsmscope.bench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.dsmscope.dsm.Dsm;
import org.dsmscope.dsm.DsmConfig;
import org.dsmscope.examples.dsm.Sor;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.record.Recorder;

/**
 * Timed harness (not JMH: each run forms a JGroups group): SOR iterations per second with the monitor off
 * (no probe, no events) and with all three levels on and recorded to a file (seed 002 §4.2's concern: the cost of
 * routing trace data). Runs alternate to spread machine noise; the median of each is reported, together with the
 * process CPU time per iteration (all members and JGroups threads of this JVM), which a loaded machine disturbs
 * far less than wall time.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.monitor.SorOverhead [members=4]
 * [N=256] [iterations=150] [rounds=5] [levels=7 (bit mask: 1 program, 2 message, 4 transport)]}
 */
public final class SorOverhead {
    private static int mask;

    private SorOverhead() {
    }

    /** Runs the comparison and prints the figures. */
    public static void main(String[] args) throws Exception {
        int members = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int iters = args.length > 2 ? Integer.parseInt(args[2]) : 150;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        mask = args.length > 4 ? Integer.parseInt(args[4]) : org.dsmscope.monitor.event.Level.ALL;
        java.util.logging.LogManager.getLogManager().reset();
        run(members, n, 20, false, null, true); // warm-up, results checked against a sequential run
        run(members, n, 20, true, null, true);
        double[] off = new double[rounds];
        double[] on = new double[rounds];
        double[] cpuOff = new double[rounds];
        double[] cpuOn = new double[rounds];
        long events = 0;
        for (int r = 0; r < rounds; r++) {
            long[] ev = new long[2];
            off[r] = run(members, n, iters, false, ev, false);
            cpuOff[r] = ev[1] / (double) iters;
            on[r] = run(members, n, iters, true, ev, false);
            cpuOn[r] = ev[1] / (double) iters;
            events = ev[0];
        }
        Arrays.sort(off);
        Arrays.sort(on);
        Arrays.sort(cpuOff);
        Arrays.sort(cpuOn);
        double mOff = off[rounds / 2];
        double mOn = on[rounds / 2];
        System.out.printf(Locale.ROOT, "SOR %d members, %dx%d, %d iterations, %d rounds%n", members, n, n, iters,
                rounds);
        System.out.printf(Locale.ROOT, "unmonitored: %.1f iterations/s (median; all %s)%n", mOff, Arrays.toString(off));
        System.out.printf(Locale.ROOT, "monitored:   %.1f iterations/s (median; all %s), %d events recorded%n", mOn,
                Arrays.toString(on), events);
        System.out.printf(Locale.ROOT, "overhead:    %.1f%% of iterations/s (wall time, medians)%n",
                100 * (mOff - mOn) / mOff);
        double cOff = cpuOff[rounds / 2];
        double cOn = cpuOn[rounds / 2];
        System.out.printf(Locale.ROOT, "cpu/iteration: %.0f us unmonitored, %.0f us monitored: overhead %.1f%%%n",
                cOff / 1e3, cOn / 1e3, 100 * (cOn - cOff) / cOff);
    }

    private static double run(int members, int n, int iters, boolean monitored, long[] events, boolean check)
            throws Exception {
        Router router = monitored ? new Router() : null;
        Path file = monitored ? Files.createTempFile("sor", ".dsmrec") : null;
        Recorder rec = monitored ? new Recorder(file) : null;
        if (monitored) {
            router.addSink(rec);
            router.setEnabledMask(mask);
        }
        String cluster = "bench-" + System.nanoTime();
        List<Dsm> ds = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(members);
        try {
            for (int r = 0; r < members; r++) {
                DsmConfig c = DsmConfig.of(r, members);
                c.cluster = cluster;
                c.router = router;
                ds.add(Dsm.start(c));
            }
            for (Dsm d : ds) {
                d.awaitMembers();
            }
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            List<Future<Sor.Result>> fs = new ArrayList<>();
            for (Dsm d : ds) {
                fs.add(pool.submit(() -> Sor.solve(d, n, iters, 0.8, check)));
            }
            long worst = 0;
            for (Future<Sor.Result> f : fs) {
                Sor.Result res = f.get(300, TimeUnit.SECONDS);
                if (check && res.maxError != 0) {
                    throw new IllegalStateException("SOR result wrong");
                }
                worst = Math.max(worst, res.nanos);
            }
            if (events != null) {
                events[1] = os.getProcessCpuTime() - cpu0;
            }
            return iters / (worst / 1e9);
        } finally {
            for (int i = ds.size() - 1; i >= 0; i--) {
                ds.get(i).close(); // coordinator (member 0) last
            }
            pool.shutdownNow();
            if (monitored) {
                router.close();
                rec.close();
                if (events != null) {
                    events[0] = rec.events();
                }
                Files.deleteIfExists(file);
            }
        }
    }
}
