package org.dsmscope.bench.replay;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
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
 * CPU-time harness for the engines of a routed partitioned replay alone (SPEC §4 "Partitioning", replay/README.md
 * "Partitioned replay"): routes a trace set once as CIAT routes it ({@link CiatRouter}) or as CDAT routes for
 * configuration file CFG ({@link CdatRouter}), into the words a routed run's pipes carry, held in memory
 * ({@link InProcessRoutes}: the same splitter, steps, blocks and run records as {@code runRouted}'s routers), then
 * replays every partition from its streams one after the other on this thread, {@code reps} times, with a counting
 * analysis ({@code noop}: the engine's own cost, reading the streams included), CIAT ({@code ciat}) or CDAT
 * ({@code cdat}) without output files, and prints each rep's summed thread CPU time over the partitions (no router,
 * no pipes, no other partition on the same cores: the first rep is the only JIT warm-up, as on a machine with a core
 * per partition). It first prints the gap records the routing wrote; {@code -Dbench.gapsBySize=true} makes gaps end
 * where the access size changes, as where a marker may stop all threads. Usage: {@code java -cp
 * bench/target/benchmarks.jar org.dsmscope.bench.replay.PartitionCpu noop|ciat|cdat PREFIX PARTS REPS [CFG]} (CFG:
 * default {@code examples/cdat/dsm4.cfg}; {@code noop} with a CFG routes as CDAT does for it, so its count of the
 * accesses delivered, theirs and those filled into short gaps, is CDAT's).
 */
public final class PartitionCpu {
    private PartitionCpu() {
    }

    /** Entry point: {@code noop|ciat|cdat PREFIX PARTS REPS [CFG]}. */
    public static void main(String[] args) {
        String kind = args.length < 4 ? "" : args[0];
        if (!List.of("noop", "ciat", "cdat").contains(kind)) {
            System.err.println("usage: PartitionCpu noop|ciat|cdat TRACE_PREFIX PARTS REPS [CFG]");
            System.exit(2);
        }
        TraceSet ts = TraceSet.ofPrefix(args[1]);
        int parts = Integer.parseInt(args[2]);
        int reps = Integer.parseInt(args[3]);
        CiatOptions co = new CiatOptions();
        co.writeFiles = false;
        // cdat, or noop with a CFG: routed as CDAT routes for it
        CdatConfig cfg = kind.equals("cdat") || kind.equals("noop") && args.length > 4
                ? CdatConfig.parse(Path.of(args.length > 4 ? args[4] : "examples/cdat/dsm4.cfg")) : null;
        CdatOptions cdo = new CdatOptions();
        cdo.writeFiles = false;
        Function<ReplayContext, Replay.Router> routing = cfg != null ? CdatRouter.of(List.of(cfg), false, parts)
                : CiatRouter.of(co, parts);
        Replay.Plan plan = new Replay(ts, null, new ReplayOptions()).plan(parts, true);
        if (!plan.routable()) {
            System.err.println(args[1] + ": does not route");
            System.exit(2);
        }
        boolean bySize = Boolean.getBoolean("bench.gapsBySize");
        InProcessRoutes routes = InProcessRoutes.route(plan, ts, new ReplayOptions(), routing, bySize);
        System.out.printf("%s %s %d partitions: %d gap records%s%n", kind, args[1], parts, routes.gaps(),
                bySize ? " (gaps end at size changes)" : "");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < reps; i++) {
            double sum = 0;
            double max = 0;
            long delivered = 0;
            for (int k = 0; k < parts; k++) {
                long c0 = mx.getCurrentThreadCpuTime();
                Analysis a = kind.equals("ciat") ? new Ciat(co) : kind.equals("cdat") ? new Cdat(cfg, cdo)
                        : new RoutedCpu.Count();
                routes.replay(new Replay(ts, null, new ReplayOptions()), k, a);
                double s = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
                sum += s;
                max = Math.max(max, s);
                if (a instanceof RoutedCpu.Count) {
                    delivered += ((RoutedCpu.Count) a).accesses;
                }
            }
            System.out.printf("%s %s %d partitions run %d: CPU of the partitions %.3f s in all, %.3f s the largest"
                    + "%s%n", kind, args[1], parts, i, sum, max, kind.equals("noop") ? "; " + delivered
                    + " delivered" : "");
        }
    }
}
