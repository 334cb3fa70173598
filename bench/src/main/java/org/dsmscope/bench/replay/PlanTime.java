package org.dsmscope.bench.replay;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;

/**
 * What a partitioned run does before its first access, cold (SPEC §4 "Partitioning", replay/README.md "Partitioned
 * replay"): in a fresh JVM, the prescan and plan of {@code parts} partitions ({@code Replay.plan}: synchronization
 * variables, skeletons, work profile with private pages, and for more than one partition the route check), timed
 * once, with the JVM's start-up time beside it, and the CPU it took by thread group: the command's thread, the
 * prescan's helper threads (all the process's CPU that is neither that thread's, the JIT's nor the collector's:
 * nothing else runs meanwhile), the C1 and C2 compiler threads and the collector's (from {@code /proc/self/task},
 * 10 ms steps; a group reads 0 where it is not there). Run it in a fresh JVM per figure, with the cli jar on the
 * class path (it needs nothing else, so it runs where only a runtime and the jar were carried): {@code java -cp
 * dsmscope.jar:bench/target/classes org.dsmscope.bench.replay.PlanTime PREFIX PARTS}.
 */
public final class PlanTime {
    private PlanTime() {
    }

    /** Prints one line: partitions, JVM start-up, prescan and plan (wall, CPU by group), whether the set routes. */
    public static void main(String[] a) {
        long up = ManagementFactory.getRuntimeMXBean().getUptime();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean();
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] jit0 = jvmThreads();
        long cpu0 = os.getProcessCpuTime();
        long main0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        int parts = Integer.parseInt(a[1]);
        Replay.Plan p = new Replay(TraceSet.ofPrefix(a[0]), null, new ReplayOptions()).plan(parts, parts > 1);
        long t1 = System.nanoTime();
        long main = mx.getCurrentThreadCpuTime() - main0;
        long cpu = os.getProcessCpuTime() - cpu0;
        long[] jit1 = jvmThreads();
        long c1 = jit1[0] - jit0[0];
        long c2 = jit1[1] - jit0[1];
        long gc = jit1[2] - jit0[2];
        System.out.printf(Locale.ROOT, "parts=%d jvm-start=%d ms prescan+plan=%.3f s routable=%b cpu %.2f s: command"
                + " thread %.2f, helpers %.2f, C1 %.2f, C2 %.2f, GC %.2f%n", parts, up, (t1 - t0) / 1e9,
                p.routable(), cpu / 1e9, main / 1e9, Math.max(0, cpu - main - c1 - c2 - gc) / 1e9, c1 / 1e9,
                c2 / 1e9, gc / 1e9);
    }

    /** CPU nanoseconds so far of the JVM's C1 compiler threads, C2 compiler threads and collector threads. */
    private static long[] jvmThreads() {
        long[] sum = new long[3];
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return sum;
        }
        try (java.util.stream.Stream<Path> s = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) s::iterator) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String name = stat.substring(open + 1, close);
                String[] f = stat.substring(close + 2).split(" ");
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
                int g = name.startsWith("C1 ") ? 0 : name.startsWith("C2 ") ? 1
                        : name.startsWith("GC ") || name.startsWith("G1 ") ? 2 : -1;
                if (g >= 0) {
                    sum[g] += ticks * 10_000_000L;
                }
            }
        } catch (IOException e) {
            return sum;
        }
        return sum;
    }
}
