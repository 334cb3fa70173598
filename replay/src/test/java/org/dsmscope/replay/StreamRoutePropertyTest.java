package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.dsmscope.trace.sidecar.SymbolFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threads with an instruction stream routed by address ({@link ReplayOptions#streamsByAddress}; module README
 * "Threads with an instruction stream"; {@link StreamGaps}): random trace sets whose threads have procedure, branch and procedure-call records, with and without
 * a symbol sidecar (exact reconstruction, where a skipped access may fetch several instructions), with locks,
 * barriers, markers that stop and resume threads, page-crossing accesses, routed by page and thread or by a random
 * density per thread and partition, with and without filled gaps, in 2, 3 and 7 partitions: every partition's
 * accesses are the serial run's that the router gives it, at the serial numbers and clocks, and its fetches,
 * branches, calls, waits, phases and times are the serial run's; the same from a serialized plan's split streams.
 */
class StreamRoutePropertyTest {
    @TempDir
    Path dir;

    /** First address of the code: thread t starts at CODE + 0x10000 t; methods of the sidecar cover 1 MiB of it. */
    private static final long CODE = 0x400000L;

    @Property(tries = 60)
    void branchThreads_routedByAddress_everyPartitionSeesTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll @IntRange(min = 0, max = 2) int partsIndex,
            @ForAll boolean symbols, @ForAll boolean markers, @ForAll boolean density) throws Exception {
        int parts = new int[] {2, 3, 7}[partsIndex];
        Path d = Files.createTempDirectory("streams");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = write(d, "st", threads, rnd, symbols, markers);
            Replay.Router router = density ? RoutedReplayTest.filling(RoutedReplayTest.byDensity(
                    densities(threads, parts, rnd), rnd.nextLong()), rnd.nextInt(3) * 4)
                    : RoutedReplayTest.byPageAndThread(parts);
            compare(set, parts, router, rnd.nextBoolean() ? rnd.nextInt(200) : -1);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /** Per thread and partition: the share of its accesses the partition needs, none, all or in between. */
    private static double[][] densities(int threads, int parts, SplittableRandom rnd) {
        double[][] dens = new double[threads][parts];
        for (double[] row : dens) {
            for (int k = 0; k < parts; k++) {
                int c = rnd.nextInt(4);
                row[k] = c == 0 ? 0 : c == 1 ? 1 : rnd.nextDouble();
            }
        }
        return dens;
    }

    /**
     * The seed's example (procedure start 4C00, three loads, branch 4C18 to 4D20) with a sidecar placing the
     * memory-access instructions at 4C08, 4C10, 4C14, and a second thread: each load fetches the instructions up to
     * its own, so in a partition given none of thread 0's loads the gaps still fetch 4C00 to 4C14 at the serial
     * clocks, and the branch then fetches nothing more.
     */
    @Test
    void theSeedExample_withExactReconstruction_fetchesInTheGapsAsSerially() throws Exception {
        TraceSet set = TestTraces.write(dir, "seedx", w -> {
            w.w.procStart(0x4C00);
            w.loads(3, 0x9000);
            w.w.raw(0x80004C18, 0x00004D20);
            w.w.memory(MemType.LOAD, 4, MemType.FIXED, 0x9100);
        }, w -> w.stores(10, 0x30000));
        try (SymbolFile.Writer s = SymbolFile.writer(SymbolFile.pathFor(set.base()))) {
            s.method(0x4C00, 0x4D00, "C", "m", "()V", "C.java").accesses(0x8, 0x10, 0x14);
            s.method(0x4D00, 0x4E00, "C", "n", "()V", "C.java").accesses(0x20);
        }
        Replay.Router threadZeroToZero = (thread, address, size, to) -> {
            to[0] = thread == 0 ? 0 : 1;
            return 1;
        };
        List<RoutedStreamsAndSkipTest.Log> ps = compare(set, 2, threadZeroToZero, -1);
        List<String> fetches = new ArrayList<>();
        for (String x : ps.get(1).s.other) {
            if (x.startsWith("R 0 ") || x.startsWith("F 0 ")) {
                fetches.add(x);
            }
        }
        assertEquals(List.of("R 0 0 4c00 2", "F 0 2 4c08 4", "R 0 3 4c0c 1", "F 0 4 4c10 4", "F 0 5 4c14 4",
                "F 0 6 4d20 4"), fetches, "partition 1 fetches thread 0's instructions");
        assertTrue(ps.get(1).s.mine.stream().noneMatch(a -> a.startsWith("0 ")), "no access of thread 0");
    }

    /**
     * Replays {@code set} serially and routed into {@code parts} partitions by {@code router} (pipes of {@code
     * capacity} bytes unless negative), then from a serialized plan's split streams: every partition sees the serial
     * run. Returns the routed run's partitions.
     */
    static List<RoutedStreamsAndSkipTest.Log> compare(TraceSet set, int parts, Replay.Router router, long capacity)
            throws Exception {
        ReplayOptions o = TestTraces.parallel();
        o.streamsByAddress = true;
        RoutedStreamsAndSkipTest.Log serial = new RoutedStreamsAndSkipTest.Log();
        Replay one = new Replay(set, null, o);
        one.add(serial).run();
        Replay routed = new Replay(set, null, o);
        if (capacity >= 0) {
            routed.routedCapacity(capacity);
        }
        List<RoutedStreamsAndSkipTest.Log> ps = routed.runRouted(parts, k -> new RoutedStreamsAndSkipTest.Log(),
                ctx -> router);
        // where markers stop threads (the prescan says so) a stopped thread may drop the access after a filled run
        boolean mayDrop = ps.get(0).s.ctx.dropsAccesses();
        RoutedReplayTest.assertSeeTheSerialRun(serial.s, one.records(), routed, seen(ps), router, mayDrop);

        Replay planner = new Replay(set, null, o);
        Replay.Plan plan = PlannedPartitionTest.roundTrip(planner.plan(parts, true));
        assertTrue(plan.routable());
        byte[][][] streams = RouteSplitterTest.split(set, plan, RouteSplitter.router(plan, ctx -> router), o,
                new long[2]);
        List<RoutedStreamsAndSkipTest.Log> alone = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            int part = k;
            alone.add(new Replay(set, null, o).runPartition(plan, k, new RoutedStreamsAndSkipTest.Log(),
                    t -> Channels.newChannel(new ByteArrayInputStream(streams[t][part]))));
        }
        RoutedReplayTest.assertSeeTheSerialRun(serial.s, one.records(), routed, seen(alone), router, mayDrop);
        return ps;
    }

    private static List<RoutedReplayTest.Seen> seen(List<RoutedStreamsAndSkipTest.Log> logs) {
        List<RoutedReplayTest.Seen> s = new ArrayList<>();
        for (RoutedStreamsAndSkipTest.Log l : logs) {
            s.add(l.s);
        }
        return s;
    }

    /**
     * A trace set of {@code threads} threads running from the start: each has procedure and branch records or is
     * plain (at least one has them), runs of 1 to 120 accesses to shared pages (some across a page boundary) and
     * private ones, critical sections on two locks, segments ended by a barrier or (with {@code markers}) a marker
     * of the same number in every thread whose command (0 to 2) stops or resumes the thread; with {@code
     * symbols} a sidecar whose methods cover the first MiB of code with random memory-access offsets. Loads follow
     * a store to distinct addresses, so no thread has a loop of loads that could be a spin.
     */
    static TraceSet write(Path d, String name, int threads, SplittableRandom rnd, boolean symbols, boolean markers)
            throws IOException {
        boolean[] code = new boolean[threads];
        for (int t = 0; t < threads; t++) {
            code[t] = t == 0 || rnd.nextInt(4) != 0;
        }
        int segments = 1 + rnd.nextInt(4);
        long seed = rnd.nextLong();
        int[][] commands = new int[segments][threads];
        for (int[] row : commands) {
            for (int t = 0; t < threads; t++) {
                row[t] = rnd.nextInt(3);
            }
        }
        TestTraces.T[] ts = new TestTraces.T[threads];
        for (int t = 0; t < threads; t++) {
            int tt = t;
            ts[t] = w -> {
                SplittableRandom r = new SplittableRandom(seed + tt);
                long[] pc = {CODE + 0x10000L * tt};
                if (code[tt]) {
                    w.w.procStart(pc[0]);
                }
                for (int s = 0; s < segments; s++) {
                    for (int i = 0, ops = 1 + r.nextInt(30); i < ops; i++) {
                        if (r.nextInt(8) == 0) {
                            long lock = 0x100 + 0x40L * r.nextInt(2);
                            w.lock(lock);
                            accesses(w, r, code[tt], pc, 0x10000L + 4L * r.nextInt(1024), 1 + r.nextInt(3));
                            w.unlock(lock);
                        } else {
                            boolean shared = r.nextBoolean();
                            long base = shared ? 0x10000L + 4L * r.nextInt(4096)
                                    : 0x100000L * (tt + 1) + 4L * r.nextInt(4096);
                            accesses(w, r, code[tt], pc, base, 1 + r.nextInt(r.nextBoolean() ? 8 : 120));
                        }
                    }
                    if (s + 1 < segments) {
                        if (markers) {
                            w.call(CallType.MARKER, commands[s][tt], s + 1, 0);
                        } else {
                            w.barrier(0x200, threads);
                        }
                    }
                }
            };
        }
        TraceSet set = TestTraces.write(d, name, TraceWriter.Options.classic(), ts);
        if (symbols) {
            try (SymbolFile.Writer s = SymbolFile.writer(SymbolFile.pathFor(set.base()))) {
                for (long m = CODE; m < CODE + (1 << 20); m += 0x1000) {
                    java.util.TreeSet<Integer> offs = new java.util.TreeSet<>();
                    for (int i = 0, n = rnd.nextInt(40); i < n; i++) {
                        offs.add(4 * rnd.nextInt(0x400));
                    }
                    s.method(m, m + 0x1000, "C", "m" + Long.toHexString(m), "()V", "C.java")
                            .accesses(offs.stream().mapToInt(Integer::intValue).toArray());
                }
            }
        }
        return set;
    }

    /**
     * A store and then {@code n - 1} loads or stores from {@code base} on; with {@code code} a branch, or a
     * procedure call and start, before about every fifth, to a target anywhere in the code (sometimes beyond the
     * sidecar's methods, or below the counter: no fetches, the counter resynchronizes).
     */
    private static void accesses(TestTraces.W w, SplittableRandom r, boolean code, long[] pc, long base, int n) {
        for (int i = 0; i < n; i++) {
            if (code && r.nextInt(5) == 0) {
                RoutedStreamsAndSkipTest.jump(w, r, pc, pc[0] + 4L * (r.nextInt(8) - 1),
                        CODE + 4L * r.nextInt(r.nextInt(10) == 0 ? 1 << 19 : 1 << 18));
            }
            boolean store = i == 0 || r.nextInt(3) == 0;
            int size = r.nextInt(20) == 0 ? 8 : 4;
            long a = r.nextInt(30) == 0 ? 0x10FFC + 4L * r.nextInt(2) : base + 4L * i;
            w.w.memory(store ? MemType.STORE : MemType.LOAD, size, MemType.FIXED, a);
            if (code) {
                pc[0] += 4;
            }
        }
    }
}
