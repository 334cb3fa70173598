package org.dsmscope.bench.replay;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.CdatRouter;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatRouter;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.InProcessRoutes;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;

/**
 * CPU-time harness for the routed partitioned replay (SPEC §4 "Partitioning", replay/README.md "Partitioned
 * replay"): runs a trace set {@code reps} times in {@code parts} partitions, routed as CIAT routes
 * ({@link CiatRouter}) or as CDAT routes for configuration file CFG ({@link CdatRouter}), or with one replay per
 * partition, feeding each partition a counting analysis ({@code noop} and {@code cdatcount}: what the router, the
 * pipes and the partitions' replays cost, and how many accesses each partition is given), CIAT ({@code ciat}) or
 * CDAT ({@code cdat}) without output files, and prints the CPU time of the partitions' threads and of the router
 * threads, sampled every 5 ms ({@code ThreadMXBean}; a thread's last sample before it ends, so each figure may miss
 * up to 5 ms a thread). In one JVM, after the first run, the JIT's work is out of the figures. With {@code routes}
 * instead of {@code routed}, it times the routing alone: after one prescan, each repetition routes the trace set on
 * the calling thread with the routers' splitter into words held in memory ({@link InProcessRoutes}), no partition
 * beside it, and prints that thread's CPU. Usage: {@code java -cp bench/target/benchmarks.jar
 * org.dsmscope.bench.replay.RoutedCpu noop|ciat|cdat|cdatcount PREFIX PARTS REPS [routed|replays|routes] [CFG]}
 * (CFG, for {@code cdat} and {@code cdatcount}: default {@code examples/cdat/dsm4.cfg}).
 */
public final class RoutedCpu {
    private RoutedCpu() {
    }

    /** Counts delivered and skipped accesses and the {@code skipped} calls. */
    static final class Count implements Analysis {
        long accesses;
        long skipped;
        long skips;

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            accesses++;
        }

        @Override
        public void skipped(int thread, long clock, int count, long bytes) {
            skipped += count;
            skips++;
        }
    }

    /** Samples the CPU time of every live thread until stopped; keeps each thread's last sample by name. */
    private static final class Sampler extends Thread {
        final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        final Map<Long, Long> cpu = new HashMap<>();
        final Map<Long, String> names = new HashMap<>();
        volatile boolean stop;

        @Override
        public void run() {
            while (!stop) {
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    long c = mx.getThreadCpuTime(t.getId());
                    if (c > 0) {
                        cpu.put(t.getId(), c);
                        names.put(t.getId(), t.getName());
                    }
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** CPU seconds of the busiest thread whose name starts with {@code prefix}. */
        double most(String prefix) {
            double s = 0;
            for (Map.Entry<Long, Long> e : cpu.entrySet()) {
                if (names.get(e.getKey()).startsWith(prefix)) {
                    s = Math.max(s, e.getValue() / 1e9);
                }
            }
            return s;
        }

        /** CPU seconds of the threads whose names start with {@code prefix}. */
        double seconds(String prefix) {
            double s = 0;
            for (Map.Entry<Long, Long> e : cpu.entrySet()) {
                if (names.get(e.getKey()).startsWith(prefix)) {
                    s += e.getValue() / 1e9;
                }
            }
            return s;
        }
    }

    /** Routes {@code ts} into {@code parts} partitions {@code reps} times on this thread; prints each time's CPU. */
    private static void routes(TraceSet ts, int parts, int reps, Function<ReplayContext, Replay.Router> router) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ReplayOptions o = new ReplayOptions();
        Replay.Plan plan = new Replay(ts, null, o).plan(parts, true);
        for (int i = 0; i < reps; i++) {
            long c0 = mx.getCurrentThreadCpuTime();
            InProcessRoutes routes = InProcessRoutes.route(plan, ts, o, router);
            double cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
            long words = 0;
            for (int t = 0; t < ts.size(); t++) {
                for (int k = 0; k < parts; k++) {
                    words += routes.words(t, k);
                }
            }
            System.out.printf("routes %d partitions run %d: CPU %.3f s; %d words, %d gaps%n", parts, i, cpu, words,
                    routes.gaps());
        }
    }

    /** Entry point: {@code noop|ciat|cdat|cdatcount PREFIX PARTS REPS [routed|replays] [CFG]}. */
    public static void main(String[] args) throws InterruptedException {
        String kind = args.length < 4 ? "" : args[0];
        if (!List.of("noop", "ciat", "cdat", "cdatcount").contains(kind)) {
            System.err.println("usage: RoutedCpu noop|ciat|cdat|cdatcount TRACE_PREFIX PARTS REPS [routed|replays]"
                    + " [CFG]");
            System.exit(2);
        }
        if (args.length > 4 && !List.of("routed", "replays", "routes").contains(args[4])) {
            System.err.println("RoutedCpu: " + args[4] + ": expected routed, replays or routes");
            System.exit(2);
        }
        boolean counting = kind.equals("noop") || kind.equals("cdatcount");
        TraceSet ts = TraceSet.ofPrefix(args[1]);
        int parts = Integer.parseInt(args[2]);
        int reps = Integer.parseInt(args[3]);
        boolean routed = args.length < 5 || args[4].equals("routed");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        CiatOptions co = new CiatOptions();
        co.writeFiles = false;
        CdatConfig cfg = kind.startsWith("cdat")
                ? CdatConfig.parse(Path.of(args.length > 5 ? args[5] : "examples/cdat/dsm4.cfg")) : null;
        CdatOptions cdo = new CdatOptions();
        cdo.writeFiles = false;
        IntFunction<Analysis> make = kind.equals("ciat") ? k -> new Ciat(co)
                : kind.equals("cdat") ? k -> new Cdat(cfg, cdo) : k -> new Count();
        Function<ReplayContext, Replay.Router> router = kind.startsWith("cdat")
                ? CdatRouter.of(List.of(cfg), false, parts) : CiatRouter.of(co, parts);
        if (args.length > 4 && args[4].equals("routes")) {
            routes(ts, parts, reps, router);
            return;
        }
        for (int i = 0; i < reps; i++) {
            Sampler sampler = new Sampler();
            sampler.setDaemon(true);
            sampler.start();
            long main0 = mx.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            Replay r = new Replay(ts, null, new ReplayOptions());
            List<? extends Analysis> out = routed ? r.runRouted(parts, make, router) : r.runInPartitions(parts, make);
            double wall = (System.nanoTime() - w0) / 1e9;
            double mainCpu = (mx.getCurrentThreadCpuTime() - main0) / 1e9;
            sampler.stop = true;
            sampler.join();
            String counts = "";
            if (counting) {
                StringBuilder each = new StringBuilder();
                long acc = 0;
                long sk = 0;
                long skips = 0;
                for (Analysis a : out) {
                    Count c = (Count) a;
                    acc += c.accesses;
                    sk += c.skipped;
                    skips += c.skips;
                    each.append(each.length() == 0 ? "" : " ").append(c.accesses).append('/').append(c.skips);
                }
                counts = String.format("; %d accesses delivered, %d skipped in %d calls (per partition delivered/"
                        + "calls: %s)", acc, sk, skips, each);
            }
            System.out.printf("%s %s %d partitions (%s) run %d: wall %.2f s, CPU partitions %.2f s (with the prescan"
                    + " on this thread), router %.2f s (%.2f s on the busiest router thread), prescan helpers %.2f s%s%n",
                    kind, args[1], parts, r.partitionMode(), i, wall,
                    mainCpu + sampler.seconds("dsmscope-replay-partition"), sampler.seconds("dsmscope-router"),
                    sampler.most("dsmscope-router"), sampler.seconds("dsmscope-prescan"), counts);
        }
    }
}
