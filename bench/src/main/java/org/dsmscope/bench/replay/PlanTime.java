package org.dsmscope.bench.replay;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;

/**
 * What a partitioned run does before its first access, cold (SPEC §4 "Partitioning", replay/README.md "Partitioned
 * replay"): in a fresh JVM, the prescan and plan of {@code parts} partitions ({@code Replay.plan}: synchronization
 * variables, skeletons, work profile with private pages, and for more than one partition the route check), timed
 * once, with the JVM's start-up time beside it. Run it in a fresh JVM per figure, with the cli jar on the class path
 * (it needs nothing else, so it runs where only a runtime and the jar were carried): {@code java -cp
 * dsmscope.jar:bench/target/classes org.dsmscope.bench.replay.PlanTime PREFIX PARTS}.
 */
public final class PlanTime {
    private PlanTime() {
    }

    /** Prints one line: partitions, JVM start-up, prescan and plan, whether the trace set routes. */
    public static void main(String[] a) {
        long up = ManagementFactory.getRuntimeMXBean().getUptime();
        long t0 = System.nanoTime();
        int parts = Integer.parseInt(a[1]);
        Replay.Plan p = new Replay(TraceSet.ofPrefix(a[0]), null, new ReplayOptions()).plan(parts, parts > 1);
        long t1 = System.nanoTime();
        System.out.printf(Locale.ROOT, "parts=%d jvm-start=%d ms prescan+plan=%.3f s routable=%b%n", parts, up,
                (t1 - t0) / 1e9, p.routable());
    }
}
