package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.trace.TraceSet;

/**
 * Lockstep rounds of many threads ({@link LockstepRounds}, module README "How a replay runs" and "Partitioned
 * replay"): threads that run long runs of accesses together, with short critical sections inside the runs (a call
 * leaves its thread's round with holes, and the rounds go on from there), barriers between the runs, and, in a
 * routed partition, gaps of random lengths, many at once, several ending in the same round, some while other
 * threads wait at a barrier. The serial engine matches the reference scheduler; every routed partition sees the
 * serial run ({@link GapQueueTest} checks the rounds' gap queue).
 */
class LockstepGapsPropertyTest {
    /**
     * A program of {@code n} threads in {@link ClockOrderPropertyTest}'s form: per thread and barrier interval a run
     * of 1 to 30 or 1 to 400 accesses, each access replaced with the probability of the program's lock rate (none,
     * sparse or dense) by a critical section on one of two locks holding 0 to 2 accesses.
     */
    static List<int[]>[] program(SplittableRandom rnd, int n) {
        return program(rnd, n, new double[] {0, 0.004, 0.04}[rnd.nextInt(3)], false);
    }

    /**
     * {@link #program(SplittableRandom, int)} with critical sections at {@code lockRate}, and with {@code nested}
     * sections on four locks that often hold a second one inside (the same lock again, or a later one, so that no
     * two threads wait for each other), with 0 to 2 accesses between the calls: calls one after the other, on
     * locks free, held by the caller, or held by another thread.
     */
    static List<int[]>[] program(SplittableRandom rnd, int n, double lockRate, boolean nested) {
        int barriers = rnd.nextInt(3);
        @SuppressWarnings({"unchecked", "rawtypes"})
        List<int[]>[] ops = new List[n];
        for (int t = 0; t < n; t++) {
            List<int[]> l = new ArrayList<>();
            for (int b = 0; b <= barriers; b++) {
                int len = 1 + rnd.nextInt(rnd.nextBoolean() ? 30 : 400);
                for (int i = 0; i < len; i++) {
                    if (rnd.nextDouble() < lockRate) {
                        int lock = rnd.nextInt(nested ? 4 : 2);
                        int inner = nested && rnd.nextBoolean() ? lock + rnd.nextInt(4 - lock) : -1;
                        l.add(new int[] {ClockOrderPropertyTest.LOCK, lock});
                        accesses(l, t, rnd.nextInt(3));
                        if (inner >= 0) {
                            l.add(new int[] {ClockOrderPropertyTest.LOCK, inner});
                            accesses(l, t, rnd.nextInt(3));
                            l.add(new int[] {ClockOrderPropertyTest.UNLOCK, inner});
                            accesses(l, t, rnd.nextInt(3));
                        }
                        l.add(new int[] {ClockOrderPropertyTest.UNLOCK, lock});
                    } else {
                        l.add(new int[] {ClockOrderPropertyTest.MEM, 0x1000 * (t + 1) + 4 * l.size()});
                    }
                }
                if (b < barriers) {
                    l.add(new int[] {ClockOrderPropertyTest.BARRIER, 0});
                }
            }
            ops[t] = l;
        }
        return ops;
    }

    private static void accesses(List<int[]> l, int t, int k) {
        for (; k > 0; k--) {
            l.add(new int[] {ClockOrderPropertyTest.MEM, 0x1000 * (t + 1) + 4 * l.size()});
        }
    }

    /**
     * Critical sections dense and nested, replayed inside the rounds where they block and wake nobody
     * ({@link ThreadCalls#inRounds}: the rounds' order then starts after the calling thread) and ending them where
     * they do: the serial engine matches the reference scheduler.
     */
    @Property(tries = 60)
    void nestedAndBackToBackCriticalSections_insideTheRounds_runAsTheReferenceScheduler(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 24) int threads) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        ClockOrderPropertyTest.assertMatchesReference(program(rnd, threads, rnd.nextBoolean() ? 0.02 : 0.15, true),
                false);
    }

    @Property(tries = 60)
    void manyThreadsInLockstep_withCallsInsideTheRounds_runAsTheReferenceScheduler(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 24) int threads) throws IOException {
        ClockOrderPropertyTest.assertMatchesReference(program(new SplittableRandom(seed), threads), false);
    }

    /**
     * Routes thread t's access at address a to partition k when a / 4 is a multiple of {@code period[t][k]} (0:
     * never): threads of one period have their gaps end in the same rounds.
     */
    static Replay.Router periodic(int[][] period) {
        return (thread, address, size, to) -> {
            int n = 0;
            for (int k = 0; k < period[thread].length; k++) {
                int p = period[thread][k];
                if (p > 0 && (address >>> 2) % p == 0) {
                    to[n++] = k;
                }
            }
            return n;
        };
    }

    /**
     * Many threads in lockstep with critical sections (some dense and nested) and barriers, routed with a density
     * per thread and partition
     * (from none to all, so that gaps are long, short, or hold every thread) or with a period per thread and
     * partition (gaps of equal length, ending in the same rounds), in 2, 3, 7 or 16 partitions with default or
     * tiny pipes: every partition keeps the serial run's access numbers, clocks, calls, waits and times.
     */
    @Property(tries = 60)
    void manyThreadsInGaps_routed_keepTheSerialNumbersClocksAndWaits(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 24) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll boolean periodic, @ForAll boolean tiny, @ForAll boolean nested) throws IOException {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        SplittableRandom rnd = new SplittableRandom(seed);
        Path d = Files.createTempDirectory("lockstep-gaps");
        try {
            TraceSet set = ClockOrderPropertyTest.write(d,
                    nested ? program(rnd, threads, 0.1, true) : program(rnd, threads), false);
            Replay.Router router;
            if (periodic) {
                int[] periods = {0, 1, 2, 3, 7, 50, 300};
                int[][] period = new int[threads][parts];
                for (int[] row : period) {
                    for (int k = 0; k < parts; k++) {
                        row[k] = periods[rnd.nextInt(periods.length)];
                    }
                }
                router = periodic(period);
            } else {
                double[] densities = {0, 0.002, 0.02, 0.15, 0.6, 1};
                double[][] density = new double[threads][parts];
                for (double[] row : density) {
                    for (int k = 0; k < parts; k++) {
                        row[k] = densities[rnd.nextInt(densities.length)];
                    }
                }
                router = RoutedReplayTest.byDensity(density, rnd.nextLong());
            }
            RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
            new Replay(set, null, TestTraces.parallel()).add(serial).run();
            Replay routed = new Replay(set, null, TestTraces.parallel());
            if (tiny) {
                routed.routedCapacity(rnd.nextInt(100));
            }
            List<RoutedReplayTest.Seen> ps = routed.runRouted(parts, k -> new RoutedReplayTest.Seen(), ctx -> router);
            long calls = serial.other.stream().filter(x -> x.startsWith("C ")).count();
            RoutedReplayTest.assertSeeTheSerialRun(serial, serial.all.size() + calls, routed, ps, router);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }
}
