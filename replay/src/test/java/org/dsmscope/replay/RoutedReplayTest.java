package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routed partitioned replay ({@link Replay#runRouted}, module README "Partitioned replay"): every partition
 * gets exactly the serial run's accesses that the router gave it, in the serial order and clocks, the rest as gaps
 * at the serial places, and every other callback of the serial run; each trace file is read once after the
 * prescan; tiny pipes do not deadlock; what cannot be routed runs one replay per partition.
 */
class RoutedReplayTest {
    @TempDir
    Path dir;

    /** Routes by page (page mod parts) and by thread (t mod parts), as CIAT routes by page owner and thread owner. */
    static Replay.Router byPageAndThread(int parts) {
        return (thread, address, size, to) -> {
            int n = 0;
            to[n++] = thread % parts;
            for (long page = address >>> 12; page <= (address + Math.max(size, 1) - 1) >>> 12; page++) {
                int p = (int) (page % parts);
                boolean seen = false;
                for (int i = 0; i < n; i++) {
                    seen |= to[i] == p;
                }
                if (!seen) {
                    to[n++] = p;
                }
            }
            return n;
        };
    }

    /**
     * Routes thread t's accesses to partition k with the probability {@code density[t][k]}, decided per address
     * (and {@code salt}): the same address always goes to the same partitions.
     */
    static Replay.Router byDensity(double[][] density, long salt) {
        return (thread, address, size, to) -> {
            int n = 0;
            for (int k = 0; k < density[thread].length; k++) {
                long h = new SplittableRandom(address * 31 + k + salt).nextLong() >>> 11;
                if (h * 0x1.0p-53 < density[thread][k]) {
                    to[n++] = k;
                }
            }
            return n;
        };
    }

    /**
     * Logs what a partition sees: its accesses, its gaps expanded into one line per skipped access (clocks from
     * the gap's), and everything else; {@code mine} the accesses alone; {@code given} per line of {@code all}
     * whether it was delivered (false: skipped); {@code phaseBytes} the bytes accessed and skipped up to each
     * phase's end.
     */
    static final class Seen implements Analysis {
        final List<String> all = new ArrayList<>();
        final List<Boolean> given = new ArrayList<>();
        final List<String> mine = new ArrayList<>();
        final List<String> other = new ArrayList<>();
        final List<Long> phaseBytes = new ArrayList<>();
        /** Per call, the accesses ({@link #mine}) delivered before it. */
        final List<Integer> callAt = new ArrayList<>();
        long bytes;
        ReplayContext ctx;

        @Override
        public void begin(ReplayContext c) {
            ctx = c;
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            String s = thread + " " + clock;
            all.add(s);
            given.add(true);
            mine.add(s + " " + Long.toHexString(address) + " " + size + (store ? " S" : " L"));
            bytes += size;
        }

        @Override
        public void skipped(int thread, long clock, int count, long b) {
            for (int i = 0; i < count; i++) {
                all.add(thread + " " + (clock + i));
                given.add(false);
            }
            bytes += b;
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            callAt.add(mine.size());
            other.add("C " + thread + " " + clock + " " + call.type + " " + call.waitClocks + " " + call.startTime);
        }

        @Override
        public void waited(int thread, int cpu, long from, long to, int reason) {
            other.add("W " + thread + " " + from + " " + to + " " + reason);
        }

        @Override
        public void phaseBegin(Phase phase) {
            other.add("P " + phase.id() + " " + phase.startClock());
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            other.add("E " + phase.endClock() + " " + java.util.Arrays.deepToString(Recorder.copy(times)));
            phaseBytes.add(bytes);
        }

        @Override
        public void end(ReplayContext c, PhaseTimes total) {
            other.add("end " + java.util.Arrays.deepToString(Recorder.copy(total)));
        }
    }

    /**
     * A fork-join trace set {@code fj} in {@code d} of {@code threads} threads of up to {@code instructions}
     * instructions, with locks, barriers, shared and private pages drawn from {@code rnd}.
     */
    static TraceSet randomForkJoin(Path d, long seed, int threads, int instructions, SplittableRandom rnd) {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = threads;
        p.instructions = 1 + rnd.nextInt(instructions);
        p.lockRate = rnd.nextInt(3) * 0.02;
        p.barriers = rnd.nextInt(4);
        p.sharedBytes = 4096L << rnd.nextInt(4);
        p.sharedFraction = rnd.nextDouble();
        p.seed = seed;
        return ForkJoinGen.write(d, "fj", p);
    }

    @Property(tries = 40)
    void routedPartitions_seeTheSerialRunsAccessesTheyAreGiven_andGapsInPlace(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll boolean tiny) throws IOException {
        routeForkJoin(seed, threads, new int[] {2, 3, 7, 16}[partsIndex], tiny, 0);
    }

    /** Any number of router threads ({@link Replay#ROUTERS_PROPERTY}) routes the same records, tiny pipes or not. */
    @Property(tries = 20)
    void fewerRouterThreadsThanPartitions_routeTheSameRecords(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 6) int threads, @ForAll @IntRange(min = 1, max = 3) int routers,
            @ForAll boolean tiny) throws IOException {
        String before = System.getProperty(Replay.ROUTERS_PROPERTY);
        System.setProperty(Replay.ROUTERS_PROPERTY, Integer.toString(routers));
        try {
            routeForkJoin(seed, threads, 7, tiny, 0);
        } finally {
            if (before == null) {
                System.clearProperty(Replay.ROUTERS_PROPERTY);
            } else {
                System.setProperty(Replay.ROUTERS_PROPERTY, before);
            }
        }
    }

    /**
     * A random fork-join trace set replayed serially and routed by page and thread into {@code parts} partitions
     * (pipes of 0 to 100 bytes if {@code tiny}; gaps of up to {@code fill} accesses given as the accesses): each
     * partition sees the serial run ({@link #assertSeeTheSerialRun}).
     */
    private static void routeForkJoin(long seed, int threads, int parts, boolean tiny, int fill) throws IOException {
        Path d = Files.createTempDirectory("routed");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = randomForkJoin(d, seed, threads, 3000, rnd);
            Seen serial = new Seen();
            new Replay(set, null, new ReplayOptions()).add(serial).run();
            Replay routed = new Replay(set, null, new ReplayOptions());
            if (tiny) {
                routed.routedCapacity(rnd.nextInt(100));
            }
            Replay.Router router = filling(byPageAndThread(parts), fill);
            List<Seen> ps = routed.runRouted(parts, k -> new Seen(), ctx -> router);
            assertSeeTheSerialRun(serial, routed, ps, router);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * Lockstep threads (all running from the start) with runs of stores between barriers, routed so that each
     * partition gets each thread's accesses with its own density, from none (only gaps: every thread of the
     * rounds inside a gap, then one long gap per run) through sparse (long gaps, ending inside rounds) and dense
     * (gaps of a few accesses) to all: every partition keeps the serial run's access numbers, clocks, calls, waits
     * and times.
     */
    @Property(tries = 60)
    void lockstepThreads_withGapsOfEveryLength_keepTheSerialNumbersClocksAndWaits(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 6) int threads, @ForAll @IntRange(min = 0, max = 2) int partsIndex,
            @ForAll boolean tiny) throws IOException {
        int parts = new int[] {2, 3, 7}[partsIndex];
        Path d = Files.createTempDirectory("gaps");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            int runs = 1 + rnd.nextInt(4);
            int[][] lengths = new int[threads][runs];
            for (int[] l : lengths) {
                for (int r = 0; r < runs; r++) {
                    l[r] = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 600);
                }
            }
            TestTraces.T[] ts = new TestTraces.T[threads];
            for (int t = 0; t < threads; t++) {
                int tt = t;
                ts[t] = w -> {
                    for (int r = 0; r < runs; r++) {
                        w.stores(lengths[tt][r], 0x100000L * (tt + 1) + 0x1000L * r);
                        if (r + 1 < runs) {
                            w.barrier(0x100, threads);
                        }
                    }
                };
            }
            TraceSet set = TestTraces.write(d, "gaps", ts);
            double[] densities = {0, 0.002, 0.02, 0.15, 0.6, 1};
            double[][] density = new double[threads][parts];
            for (double[] row : density) {
                for (int k = 0; k < parts; k++) {
                    row[k] = densities[rnd.nextInt(densities.length)];
                }
            }
            Replay.Router router = byDensity(density, rnd.nextLong());
            Seen serial = new Seen();
            new Replay(set, null, TestTraces.parallel()).add(serial).run();
            Replay routed = new Replay(set, null, TestTraces.parallel());
            if (tiny) {
                routed.routedCapacity(rnd.nextInt(100));
            }
            List<Seen> ps = routed.runRouted(parts, k -> new Seen(), ctx -> router);
            assertSeeTheSerialRun(serial, routed, ps, router);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * Every partition of a routed run: its accesses are exactly the serial run's that the router gives it, in
     * order, at the same access numbers and clocks; its calls, waits, phases, times and bytes are the serial run's.
     */
    private static void assertSeeTheSerialRun(Seen serial, Replay routed, List<Seen> ps, Replay.Router router) {
        assertSeeTheSerialRun(serial, routed, ps, router, new long[1]);
    }

    /** The same, where the serial run replayed {@code serialRecords} records (gaps counted: {@link Replay#records}). */
    static void assertSeeTheSerialRun(Seen serial, long serialRecords, Replay routed, List<? extends Seen> ps,
            Replay.Router router) {
        assertSeeTheSerialRun(serial, serialRecords, routed, ps, router, new long[1], false);
    }

    /**
     * The same, for a trace set whose markers stop threads ({@code mayDrop}): the filled runs' lengths are not
     * checked ({@link #assertFilledShort}).
     */
    static void assertSeeTheSerialRun(Seen serial, long serialRecords, Replay routed, List<? extends Seen> ps,
            Replay.Router router, boolean mayDrop) {
        assertSeeTheSerialRun(serial, serialRecords, routed, ps, router, new long[1], mayDrop);
    }

    /** As above, counting the accesses given in place of gaps ({@code filled}, below). */
    private static void assertSeeTheSerialRun(Seen serial, Replay routed, List<Seen> ps, Replay.Router router,
            long[] filled) {
        assertSeeTheSerialRun(serial, serial.all.size() + countCalls(serial), routed, ps, router, filled, false);
    }

    /**
     * As above, where the router may give a partition a short run of accesses it does not need in place of a gap
     * ({@link Replay.Router#fill()}): such accesses count as skipped, and come in runs of at most {@code fill()}
     * accesses of one page each; {@code filled[0]} counts the accesses given so.
     */
    private static void assertSeeTheSerialRun(Seen serial, long serialRecords, Replay routed,
            List<? extends Seen> ps, Replay.Router router, long[] filled, boolean mayDrop) {
        assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
        for (int k = 0; k < ps.size(); k++) {
            Seen s = ps.get(k);
            assertTrue(s.ctx.routed());
            List<Boolean> given = givenTo(serial, router, k);
            List<Boolean> got = new ArrayList<>(s.given);
            List<String> mine = new ArrayList<>();
            for (int i = 0, m = 0; i < Math.min(got.size(), given.size()); i++) {
                if (got.get(i)) {
                    String a = s.mine.get(m++);
                    if (given.get(i)) {
                        mine.add(a);
                    } else {
                        got.set(i, false);
                        filled[0]++;
                    }
                }
            }
            assertFilledShort(serial, given, s.given, mayDrop ? Integer.MAX_VALUE : router.fill(), k);
            assertEquals(numbered(serial.all, given), numbered(s.all, got),
                    "partition " + k + ": accesses and gaps in the serial order");
            assertEquals(serial.other, s.other, "partition " + k + ": calls, waits and phases");
            assertEquals(serial.bytes, s.bytes, "partition " + k + ": bytes");
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < serial.mine.size(); i++) {
                if (given.get(i)) {
                    expected.add(serial.mine.get(i));
                }
            }
            assertEquals(expected, mine, "partition " + k + ": its accesses");
        }
        assertEquals(serialRecords, routed.records(), "records counted with gaps");
    }

    /**
     * Per thread, the accesses partition k does not need ({@code given} false) but was given ({@code got} true)
     * come in runs of at most {@code fill} between two calls, each access of at least one byte within one page.
     * Where markers stop threads the callers pass no bound ({@code fill} = {@link Integer#MAX_VALUE}): a marker
     * stops threads when it is read and its call comes only once every thread has reached its marker, so a stopped
     * thread's needed access after such a run may be dropped with no call in between, and runs the router wrote
     * apart then follow each other in the serial run's accesses.
     */
    private static void assertFilledShort(Seen serial, List<Boolean> given, List<Boolean> got, int fill, int k) {
        if (got.size() != given.size()) {
            return; // the comparison of the numbered lists reports it
        }
        java.util.Map<String, Integer> run = new java.util.HashMap<>();
        for (int i = 0, call = 0; i < serial.mine.size(); i++) {
            if (call < serial.callAt.size() && serial.callAt.get(call) <= i) {
                run.clear();
                while (call < serial.callAt.size() && serial.callAt.get(call) <= i) {
                    call++;
                }
            }
            String[] f = serial.mine.get(i).split(" ");
            boolean filled = got.get(i) && !given.get(i);
            int r = filled ? run.merge(f[0], 1, Integer::sum) : 0;
            if (!filled) {
                run.put(f[0], 0);
                continue;
            }
            long a = Long.parseLong(f[2], 16);
            int size = Integer.parseInt(f[3]);
            assertTrue(size > 0 && (a & 0xFFF) + size <= 0x1000, "partition " + k + ": given in place of a gap: "
                    + serial.mine.get(i));
            assertTrue(r <= fill, "partition " + k + ": " + r + " accesses given in place of a gap, fill " + fill);
        }
    }

    /** {@code router} with {@link Replay.Router#fill()} = {@code fill}. */
    static Replay.Router filling(Replay.Router router, int fill) {
        return new Replay.Router() {
            @Override
            public int route(int thread, long address, int size, int[] to) {
                return router.route(thread, address, size, to);
            }

            @Override
            public int fill() {
                return fill;
            }
        };
    }

    @Property(tries = 40)
    void routersThatFill_giveShortGapsAsTheirAccesses_andKeepTheSerialNumbers(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll @IntRange(min = 1, max = 16) int fill, @ForAll boolean tiny) throws IOException {
        routeForkJoin(seed, threads, new int[] {2, 3, 7, 16}[partsIndex], tiny, fill);
    }

    /**
     * One thread's stores, partition 1 needing every third: with fill 2 it gets them all and no gap; with fill 1
     * the pairs between come as gaps; a store across a page boundary that it does not need is never given.
     */
    @Test
    void aRouterThatFills_givesGapsUpToItsFill_ofAccessesWithinOnePage() {
        TraceSet set = TestTraces.write(dir, "fill", w -> {
            w.stores(300, 0x10000);
            w.w.memory(MemType.STORE, 4, MemType.FIXED, 0x20000);
            w.w.memory(MemType.STORE, 4, MemType.FIXED, 0x20FFE);
            w.w.memory(MemType.STORE, 4, MemType.FIXED, 0x21004);
        }, w -> w.stores(10, 0x90000));
        Replay.Router everyThird = (thread, address, size, to) -> {
            int n = 0;
            to[n++] = 0;
            if (thread == 1 || (address < 0x20000 ? (address - 0x10000) / 4 % 3 == 2 : address != 0x20FFE)) {
                to[n++] = 1;
            }
            return n;
        };
        Seen serial = new Seen();
        new Replay(set, null, TestTraces.parallel()).add(serial).run();
        for (int fill : new int[] {1, 2}) {
            Replay routed = new Replay(set, null, TestTraces.parallel());
            Replay.Router router = filling(everyThird, fill);
            List<Seen> ps = routed.runRouted(2, k -> new Seen(), ctx -> router);
            long[] filled = new long[1];
            assertSeeTheSerialRun(serial, routed, ps, router, filled);
            long skipped = ps.get(1).given.stream().filter(g -> !g).count();
            assertEquals(fill == 1 ? 0 : 200, filled[0], "fill " + fill);
            assertEquals(fill == 1 ? 201 : 1, skipped, "fill " + fill);
        }
    }

    /** Per access of the serial run, in its order, whether the router gives it to partition k. */
    static List<Boolean> givenTo(Seen serial, Replay.Router router, int k) {
        int[] to = new int[64];
        List<Boolean> given = new ArrayList<>();
        for (String a : serial.mine) {
            String[] f = a.split(" ");
            int n = router.route(Integer.parseInt(f[0]), Long.parseLong(f[2], 16), Integer.parseInt(f[3]), to);
            boolean mine = false;
            for (int i = 0; i < n; i++) {
                mine |= to[i] == k;
            }
            given.add(mine);
        }
        return given;
    }

    /**
     * The accesses ("thread clock") given, in order, with "skipped" for each access not given: the numbers of the
     * given accesses (a routed partition may tell the skipped accesses between two given ones in one
     * {@link Analysis#skipped}, of several threads).
     */
    static List<String> numbered(List<String> all, List<Boolean> given) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            out.add(given.get(i) ? all.get(i) : "skipped");
        }
        return out;
    }

    private static long countCalls(Seen s) {
        return s.other.stream().filter(x -> x.startsWith("C ")).count();
    }

    @Test
    void aRoutedReplay_readsEachTraceFileOnceAfterThePrescan() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 5;
        p.instructions = 20000;
        TraceSet set = ForkJoinGen.write(dir, "once", p);
        long before = Prescan.OPENED.get();
        Replay routed = new Replay(set, null, new ReplayOptions());
        routed.runRouted(4, k -> new Seen(), ctx -> byPageAndThread(4));
        assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
        assertEquals(2 * 5, Prescan.OPENED.get() - before, "the prescan and the router: each file twice in all");
        before = Prescan.OPENED.get();
        Replay replays = new Replay(set, null, new ReplayOptions());
        replays.runInPartitions(4, k -> new Seen());
        assertEquals(5 + 4 * 5, Prescan.OPENED.get() - before, "one replay per partition: the prescan, then 4 reads");
    }

    /** Every access to partition 0, spins detected in partition 1 (which then owns nothing but what it needs). */
    private static Replay.Router allToZeroSpinsInOne() {
        return new Replay.Router() {
            @Override
            public int route(int thread, long address, int size, int[] to) {
                to[0] = 0;
                return 1;
            }

            @Override
            public int spinPartition() {
                return 1;
            }
        };
    }

    /**
     * A trace with a loop of loads long enough to be a spin routes; a router that detects spins ({@code
     * spinPartition}) gets there every access of the thread that may spin and the other threads' stores to the
     * loop's location, and nothing more; a loop one load shorter may spin nowhere and adds nothing; in a set with a
     * marker that stops all threads, routed, the spin partition gets every access (any thread may then spin).
     */
    @Test
    void possibleSpins_route_andTheSpinPartitionGetsTheSpinningThreadAndTheStoresToItsLocations() {
        TraceSet spin = TestTraces.write(dir, "spin", w -> w.spawn(1).stores(3, 0x1000).loads(1, 0x2000)
                .loads(1, 0x2000).loads(1, 0x2000).loads(1, 0x2000).loads(1, 0x2000).stores(1, 0x2000).join(),
                w -> w.stores(20, 0x3000).loads(3, 0x5000).stores(1, 0x2000).stores(2, 0x4000));
        Seen serial = new Seen();
        new Replay(spin, null, new ReplayOptions()).add(serial).run();
        Replay r = new Replay(spin, null, new ReplayOptions());
        List<Seen> ps = r.runRouted(2, k -> new Seen(), ctx -> allToZeroSpinsInOne());
        assertEquals(Replay.MODE_ROUTED, r.partitionMode());
        assertTrue(ps.get(1).ctx.possibleSpin(0));
        assertFalse(ps.get(1).ctx.possibleSpin(1));
        assertEquals(serial.mine, ps.get(0).mine);
        assertEquals(serial.all, ps.get(1).all);
        List<String> expected = new java.util.ArrayList<>();
        for (String a : serial.mine) {
            if (a.startsWith("0 ") || a.contains(" 2000 ")) {
                expected.add(a);
            }
        }
        assertEquals(expected, ps.get(1).mine);
        assertTrue(expected.size() > 9 && expected.size() < serial.mine.size(), expected.toString());
        // one load fewer than a spin needs: routed, and the spin partition gets no more than it asks for
        TraceSet four = TestTraces.write(dir, "four", w -> w.spawn(1).loads(1, 0x2000).loads(1, 0x2000)
                .loads(1, 0x2000).loads(1, 0x2000).stores(1, 0x2000).join(), w -> w.stores(20, 0x3000));
        Replay r4 = new Replay(four, null, new ReplayOptions());
        List<Seen> p4 = r4.runRouted(2, k -> new Seen(), ctx -> byPageAndThread(2));
        assertEquals(Replay.MODE_ROUTED, r4.partitionMode());
        assertFalse(p4.get(0).ctx.possibleSpin(0));
        // a marker that stops all threads: routed, every thread may spin, so the spin partition gets every access
        TraceSet stops = TestTraces.write(dir, "stops", w -> w.call(org.dsmscope.trace.CallType.MARKER, 3, 1, 0)
                .stores(2, 0x1000).call(org.dsmscope.trace.CallType.MARKER, 4, 2, 0).spawn(1).stores(3, 0x1000)
                .join(), w -> w.stores(20, 0x3000).loads(3, 0x5000));
        Seen all = new Seen();
        new Replay(stops, null, new ReplayOptions()).add(all).run();
        Replay rs = new Replay(stops, null, new ReplayOptions());
        List<Seen> pstops = rs.runRouted(2, k -> new Seen(), ctx -> allToZeroSpinsInOne());
        assertEquals(Replay.MODE_ROUTED, rs.partitionMode());
        assertEquals(all.mine, pstops.get(1).mine);
    }

    /**
     * A marker that stops all threads (command 3) and the one that resumes them (4) take effect inside another
     * thread's runs, where a routed partition holds a gap of that thread: the set routes, and every partition's
     * engine runs the piece of the gap before the stop, drops the stopped one and runs the rest after the resume,
     * each with its own bytes, so it sees the serial run's accesses, clocks and bytes.
     */
    @Test
    void stopAllMarkers_insideAnotherThreadsGap_routeAndEveryPartitionSeesTheSerialAccessesAndBytes() {
        for (int before = 0; before <= 6; before += 3) {
            for (int inside = 1; inside <= 7; inside += 3) {
                TraceSet set = stopAll(dir, before, inside);
                Seen serial = new Seen();
                Replay one = new Replay(set, null, new ReplayOptions()).add(serial);
                one.run();
                Replay r = new Replay(set, null, new ReplayOptions());
                List<Seen> ps = r.runRouted(2, k -> new Seen(), ctx -> byPageAndThread(2));
                assertSeeTheSerialRun(serial, one.records(), r, ps, byPageAndThread(2));
            }
        }
    }

    /**
     * Two threads: thread 0 stops all threads after {@code before} + 1 stores and resumes them after {@code inside}
     * more, while thread 1 runs 40 stores on another page.
     */
    static TraceSet stopAll(Path dir, int before, int inside) {
        return TestTraces.write(dir, "stopall" + before + "_" + inside, w -> w.spawn(1).stores(before + 1, 0x2000)
                .call(org.dsmscope.trace.CallType.MARKER, 3, 1, 0).stores(inside, 0x2000)
                .call(org.dsmscope.trace.CallType.MARKER, 4, 2, 0).stores(5, 0x2000).join(),
                w -> w.stores(40, 0x3000));
    }

    @Test
    void aFailingPartition_endsTheRoutedReplay_withTheError() {
        // thread 1 ends inside a critical section: every partition's engine finds it; tiny pipes, so the router
        // waits for the partitions when they fail
        TraceSet set = TestTraces.write(dir, "bad", w -> w.spawn(1).stores(500, 0x1000).join(),
                w -> w.lock(0x100).stores(500, 0x2000));
        Replay r = new Replay(set, null, new ReplayOptions()).routedCapacity(0);
        BadInputException e = assertThrows(BadInputException.class,
                () -> r.runRouted(3, k -> new Seen(), ctx -> byPageAndThread(3)));
        assertTrue(e.getMessage().contains("critical section"), e.getMessage());
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertTrue(!t.getName().startsWith("dsmscope-router") || !t.isAlive(), t.getName() + " still runs");
        }
    }

    /**
     * Every loop long enough to be a spin that the detector finds, with the thread's calls and with waits or phase
     * ends anywhere (which the route check does not see), lies in a run the check finds, whose locations it
     * watches; a thread in which the check finds none has no such loop.
     */
    @Property(tries = 300)
    void routeCheck_findsEveryLoopTheSpinDetectorFinds_andWatchesItsLocations(@ForAll long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int n = 80;
        long[] addr = new long[n];
        int[] bytes = new int[n];
        List<long[]> loops = new java.util.ArrayList<>();
        SpinDetector spin = new SpinDetector(1, (t, from, to, state) -> loops.add(new long[] {from, to}));
        SpinRoutes.Builder watch = new SpinRoutes.Builder();
        RouteCheck check = new RouteCheck(watch);
        int locations = 1 + rnd.nextInt(7);
        for (int i = 0; i < n; i++) {
            long a = 0x1000 + 8L * rnd.nextInt(locations);
            int size = rnd.nextInt(10) == 0 ? 4 : 8;
            boolean store = rnd.nextInt(rnd.nextBoolean() ? 12 : 40) == 0;
            addr[i] = a;
            bytes[i] = size;
            spin.access(0, i, size, store, a);
            accessCheck(check, store, size, a);
            int cut = rnd.nextInt(30);
            if (cut == 0) {
                spin.call(0);
                check.record(org.dsmscope.trace.RecordKind.CALL, null);
            } else if (cut == 1) {
                spin.waited(0);
            } else if (cut == 2) {
                spin.phaseEnd();
            }
        }
        spin.phaseEnd();
        SpinRoutes routes = SpinRoutes.of(new boolean[] {check.spins}, watch, false);
        if (!loops.isEmpty()) {
            assertTrue(check.spins, "a loop the detector reports must be a possible spin");
        }
        for (long[] l : loops) {
            for (long i = l[0]; i < l[1]; i++) {
                assertTrue(routes.watches(addr[(int) i], bytes[(int) i]), "location of load " + i + " watched");
            }
        }
        assertTrue(check.routable);
    }

    private static void accessCheck(RouteCheck c, boolean store, int size, long a) {
        int f1 = store ? org.dsmscope.trace.MemType.encode(org.dsmscope.trace.MemType.STORE, size,
                org.dsmscope.trace.MemType.FIXED) : org.dsmscope.trace.MemType.encode(
                org.dsmscope.trace.MemType.LOAD, size, org.dsmscope.trace.MemType.FIXED);
        c.run(new long[] {((long) f1 << 32) | (a & 0xFFFFFFFFL)}, 0, 1, 0);
    }
}
