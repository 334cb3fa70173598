package org.dsmscope.bench.replay;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatRouter;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.RouteSplitter;
import org.dsmscope.trace.TraceSet;

/**
 * CPU-time harness for the engines of a routed partitioned replay alone (SPEC §4 "Partitioning", replay/README.md
 * "Partitioned replay"): routes a trace set once as CIAT routes it ({@link CiatRouter}, through
 * {@link RouteSplitter} into streams in memory), then replays every partition from its streams one after the other
 * on this thread ({@link Replay#runPartition}), {@code reps} times, with a counting analysis ({@code noop}: the
 * engine's own cost, reading the streams included) or CIAT without output files ({@code ciat}), and prints each
 * rep's summed thread CPU time over the partitions (no router, no pipes, no other partition on the same cores).
 * Usage: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.replay.PartitionCpu noop|ciat PREFIX PARTS
 * REPS}.
 */
public final class PartitionCpu {
    private PartitionCpu() {
    }

    /** Entry point: {@code noop|ciat PREFIX PARTS REPS}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 4 || !(args[0].equals("noop") || args[0].equals("ciat"))) {
            System.err.println("usage: PartitionCpu noop|ciat TRACE_PREFIX PARTS REPS");
            System.exit(2);
        }
        boolean ciat = args[0].equals("ciat");
        TraceSet ts = TraceSet.ofPrefix(args[1]);
        int parts = Integer.parseInt(args[2]);
        int reps = Integer.parseInt(args[3]);
        CiatOptions co = new CiatOptions();
        co.writeFiles = false;
        Replay.Plan plan = new Replay(ts, null, new ReplayOptions()).plan(parts, true);
        if (!plan.routable()) {
            System.err.println(args[1] + ": does not route");
            System.exit(2);
        }
        Replay.Router router = RouteSplitter.router(plan, CiatRouter.of(co, parts));
        byte[][][] streams = new byte[ts.size()][parts][];
        for (int t = 0; t < ts.size(); t++) {
            ByteArrayOutputStream[] bytes = new ByteArrayOutputStream[parts];
            WritableByteChannel[] ch = new WritableByteChannel[parts];
            for (int p = 0; p < parts; p++) {
                bytes[p] = new ByteArrayOutputStream();
                ch[p] = Channels.newChannel(bytes[p]);
            }
            try (RouteSplitter s = new RouteSplitter(ts.files().get(t), t, router, new ReplayOptions(), ch)) {
                while (s.step()) {
                    // routes the whole trace
                }
            }
            for (int p = 0; p < parts; p++) {
                streams[t][p] = bytes[p].toByteArray();
            }
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < reps; i++) {
            double sum = 0;
            double max = 0;
            long delivered = 0;
            for (int k = 0; k < parts; k++) {
                int part = k;
                long c0 = mx.getCurrentThreadCpuTime();
                Analysis a = ciat ? new Ciat(co) : new RoutedCpu.Count();
                new Replay(ts, null, new ReplayOptions()).runPartition(plan, k, a,
                        t -> Channels.newChannel(new ByteArrayInputStream(streams[t][part])));
                double s = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
                sum += s;
                max = Math.max(max, s);
                if (!ciat) {
                    delivered += ((RoutedCpu.Count) a).accesses;
                }
            }
            System.out.printf("%s %s %d partitions run %d: CPU of the partitions %.3f s in all, %.3f s the largest"
                    + "%s%n", args[0], args[1], parts, i, sum, max, ciat ? "" : "; " + delivered + " delivered");
        }
    }

}
