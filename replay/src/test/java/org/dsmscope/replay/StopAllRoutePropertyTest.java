package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.RoutedReplayTest.Seen;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * Markers that stop and resume all threads (commands 3 and 4, seed 001's marker commands) at random places of a
 * routed run (SPEC §4 "Partitioning", module README "Partitioned replay"): such a marker takes effect inside other
 * threads' runs of accesses, where a partition holds gaps of them. A gap's accesses are of one size, so the
 * partition's engine runs the piece before the stop with its own bytes and drops the stopped piece, as the serial run
 * runs and drops those accesses; these properties check that every partition sees the serial run: its accesses, the
 * skipped accesses with their clocks and numbers, the bytes accessed and skipped at every phase end, calls, waits,
 * phases and times.
 */
class StopAllRoutePropertyTest {
    /** First address of the code: thread t's counter starts at CODE + 0x10000 t. */
    private static final long CODE = 0x400000L;
    private static final int[] SIZES = {1, 2, 4, 8};

    /**
     * Trace files, routed in 2, 3 and 7 partitions by page and thread or by a random density per thread and
     * partition (short gaps filled or not), default or tiny pipes, some threads with branch and procedure records
     * (routed by address, their gaps run access by access): the routed run and the partitions replayed from a
     * serialized plan's split streams (a Spark map task's bytes) see the serial run.
     */
    @Property(tries = 80)
    void stopAllMarkersAtRandomPlaces_routedThreadTraces_everyPartitionSeesTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll @IntRange(min = 0, max = 2) int partsIndex,
            @ForAll boolean code, @ForAll boolean density) throws Exception {
        int parts = new int[] {2, 3, 7}[partsIndex];
        Path d = Files.createTempDirectory("stopall");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = write(d, "sa", threads, rnd, code);
            List<RoutedStreamsAndSkipTest.Log> ps = StreamRoutePropertyTest.compare(set, parts,
                    router(threads, parts, density, rnd), rnd.nextBoolean() ? rnd.nextInt(200) : -1);
            ReplayOptions o = TestTraces.parallel();
            o.streamsByAddress = true;
            RoutedStreamsAndSkipTest.Log serial = new RoutedStreamsAndSkipTest.Log();
            new Replay(set, null, o).add(serial).run();
            for (RoutedStreamsAndSkipTest.Log p : ps) {
                assertEquals(serial.s.phaseBytes, p.s.phaseBytes, "bytes accessed and skipped up to each phase end");
            }
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * Live streams (no prescan), handed over in pieces of any size by sources that block or poll, routed in 2, 3
     * and 7 partitions: every partition sees the serial live replay.
     */
    @Property(tries = 60)
    void stopAllMarkersAtRandomPlaces_routedLiveStreams_everyPartitionSeesTheSerialLiveReplay(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll @IntRange(min = 0, max = 2) int partsIndex,
            @ForAll boolean density, @ForAll boolean polls) throws Exception {
        int parts = new int[] {2, 3, 7}[partsIndex];
        Path d = Files.createTempDirectory("stopalllive");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = write(d, "sl", threads, rnd, false);
            Replay.Router router = router(threads, parts, density, rnd);
            long piece = rnd.nextLong();
            Seen serial = new Seen();
            Replay one = Replay.live(set, new LiveRoutedReplayTest.Chunked(set, piece, polls), TestTraces.parallel())
                    .add(serial);
            one.run();
            Replay routed = Replay.live(set, new LiveRoutedReplayTest.Chunked(set, piece, polls),
                    TestTraces.parallel());
            if (rnd.nextBoolean()) {
                routed.routedCapacity(rnd.nextInt(200));
            }
            List<Seen> ps = routed.runRouted(parts, k -> new Seen(), ctx -> router);
            RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), routed, ps, router, true);
            for (Seen p : ps) {
                assertEquals(serial.phaseBytes, p.phaseBytes, "bytes accessed and skipped up to each phase end");
            }
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * The serial run of such trace sets does stop threads inside runs of accesses, and the routed partitions then
     * hold gaps that a stop splits: the properties above are not vacuous. A partition given none of thread 1's
     * accesses of 1, 2, 4 and 8 bytes, which a marker of thread 0 stops and resumes, counts exactly the bytes the
     * serial run delivers.
     */
    @Property(tries = 30)
    void aStopInsideAGapOfMixedSizes_countsTheSerialBytes(@ForAll @IntRange(min = 0, max = 40) int before,
            @ForAll @IntRange(min = 1, max = 40) int inside, @ForAll long seed) throws Exception {
        Path d = Files.createTempDirectory("stopmixed");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            int[] sizes = new int[120];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = SIZES[rnd.nextInt(SIZES.length)];
            }
            TraceSet set = TestTraces.write(d, "mixed", w -> {
                w.stores(before + 1, 0x2000).call(CallType.MARKER, 3, 1, 0).stores(inside, 0x2000)
                        .call(CallType.MARKER, 4, 2, 0).stores(5, 0x2000);
            }, w -> {
                for (int i = 0; i < sizes.length; i++) {
                    w.w.memory(MemType.STORE, sizes[i], MemType.FIXED, 0x30000 + 8L * i);
                }
            });
            Replay.Router threadToItsPartition = (thread, address, size, to) -> {
                to[0] = thread;
                return 1;
            };
            Seen serial = new Seen();
            Replay one = new Replay(set, null, TestTraces.parallel()).add(serial);
            one.run();
            long all = 0;
            for (int s : sizes) {
                all += s;
            }
            assertTrue(serial.bytes < all + 4L * (before + inside + 6), "the serial run drops some of thread 1's");
            Replay r = new Replay(set, null, TestTraces.parallel());
            List<Seen> ps = r.runRouted(2, k -> new Seen(), ctx -> threadToItsPartition);
            RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), r, ps, threadToItsPartition, true);
            assertEquals(serial.phaseBytes, ps.get(0).phaseBytes);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /** By page and thread, or by a random density per thread and partition, filling short gaps or not. */
    private static Replay.Router router(int threads, int parts, boolean density, SplittableRandom rnd) {
        if (!density) {
            return RoutedReplayTest.byPageAndThread(parts);
        }
        double[][] dens = new double[threads][parts];
        for (double[] row : dens) {
            for (int k = 0; k < parts; k++) {
                int c = rnd.nextInt(4);
                row[k] = c == 0 ? 0 : c == 1 ? 1 : rnd.nextDouble();
            }
        }
        return RoutedReplayTest.filling(RoutedReplayTest.byDensity(dens, rnd.nextLong()), rnd.nextInt(3) * 4);
    }

    /**
     * A trace set of {@code threads} threads running from the start ({@code -p}): segments of runs of 1 to 120
     * accesses of 1, 2, 4 or 8 bytes (sizes changing within runs or not; shared pages, some accesses across a page
     * boundary, private ones) and critical sections, each segment ended by a marker of the same number in every
     * thread whose command (0 to 4; at least one 3 or 4) may stop or resume this thread or all threads; with
     * {@code code} the threads but the last have procedure and branch records. Loads follow a store to distinct
     * addresses, so no thread has a loop of loads that could be a spin.
     */
    static TraceSet write(Path d, String name, int threads, SplittableRandom rnd, boolean code) throws IOException {
        int segments = 2 + rnd.nextInt(4);
        long seed = rnd.nextLong();
        int[][] commands = new int[segments][threads];
        boolean all = false;
        for (int s = 0; s < segments; s++) {
            for (int t = 0; t < threads; t++) {
                int c = rnd.nextInt(8);
                commands[s][t] = c < 5 ? c : rnd.nextBoolean() ? 3 : 4;
                // the last segment ends with no marker
                all |= commands[s][t] >= 3 && s + 1 < segments;
            }
        }
        if (!all) {
            commands[rnd.nextInt(segments - 1)][rnd.nextInt(threads)] = 3;
        }
        TestTraces.T[] ts = new TestTraces.T[threads];
        for (int t = 0; t < threads; t++) {
            int tt = t;
            boolean branches = code && t + 1 < threads;
            ts[t] = w -> {
                SplittableRandom r = new SplittableRandom(seed + tt);
                long[] pc = {CODE + 0x10000L * tt};
                if (branches) {
                    w.w.procStart(pc[0]);
                }
                for (int s = 0; s < segments; s++) {
                    for (int i = 0, ops = 1 + r.nextInt(20); i < ops; i++) {
                        if (r.nextInt(8) == 0) {
                            long lock = 0x100 + 0x40L * r.nextInt(2);
                            w.lock(lock);
                            accesses(w, r, branches, pc, 0x10000L + 4L * r.nextInt(1024), 1 + r.nextInt(3));
                            w.unlock(lock);
                        } else {
                            boolean shared = r.nextBoolean();
                            long base = shared ? 0x10000L + 4L * r.nextInt(4096)
                                    : 0x100000L * (tt + 1) + 4L * r.nextInt(4096);
                            accesses(w, r, branches, pc, base, 1 + r.nextInt(r.nextBoolean() ? 8 : 120));
                        }
                    }
                    if (s + 1 < segments) {
                        w.call(CallType.MARKER, commands[s][tt], s + 1, 0);
                    }
                }
            };
        }
        return TestTraces.write(d, name, TraceWriter.Options.classic(), ts);
    }

    /**
     * A store and then {@code n - 1} loads or stores from {@code base} on, of one size or of sizes changing at
     * random; with {@code code} a branch, or a procedure call and start, before about every fifth.
     */
    private static void accesses(TestTraces.W w, SplittableRandom r, boolean code, long[] pc, long base, int n) {
        boolean mixed = r.nextBoolean();
        int size = SIZES[r.nextInt(SIZES.length)];
        for (int i = 0; i < n; i++) {
            if (code && r.nextInt(5) == 0) {
                RoutedStreamsAndSkipTest.jump(w, r, pc, pc[0] + 4L * (r.nextInt(8) - 1),
                        CODE + 4L * r.nextInt(1 << 18));
            }
            if (mixed && r.nextInt(3) == 0) {
                size = SIZES[r.nextInt(SIZES.length)];
            }
            boolean store = i == 0 || r.nextInt(3) == 0;
            long a = r.nextInt(30) == 0 ? 0x10FFC + 4L * r.nextInt(2) : base + 8L * i;
            w.w.memory(store ? MemType.STORE : MemType.LOAD, size, MemType.FIXED, a);
            if (code) {
                pc[0] += 4;
            }
        }
    }
}
