package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routed runs of trace sets with branch, procedure and fetch records, and with {@link ReplayOptions#skipBadRecords}
 * (module README "Partitioned replay"): a thread with fetch records goes whole to every partition, the others
 * (threads with branch and procedure records too) are routed by address; bad records are skipped by the router's
 * reader. Every partition sees the serial
 * run (its accesses, gaps in place, calls, waits, phases, fetches and branches), the replay lists the serial run's
 * problems with the serial run's positions in the trace files, each file is read once after the prescan, and a
 * plan's split streams give every partition the same.
 */
class RoutedStreamsAndSkipTest {
    @TempDir
    Path dir;

    /** {@link RoutedReplayTest.Seen} with the fetches and branches among the other callbacks. */
    static final class Log implements Analysis {
        final RoutedReplayTest.Seen s = new RoutedReplayTest.Seen();

        @Override
        public void begin(ReplayContext c) {
            s.begin(c);
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            s.access(thread, cpu, clock, memType, size, store, address);
        }

        @Override
        public void skipped(int thread, long clock, int count, long bytes) {
            s.skipped(thread, clock, count, bytes);
        }

        @Override
        public void fetch(int thread, int cpu, long clock, long address, int size) {
            s.other.add("F " + thread + " " + clock + " " + Long.toHexString(address) + " " + size);
        }

        @Override
        public void fetchRun(int thread, int cpu, long clock, long address, int count) {
            s.other.add("R " + thread + " " + clock + " " + Long.toHexString(address) + " " + count);
        }

        @Override
        public void branch(int thread, int cpu, long clock, int kind, long source, long target) {
            s.other.add("B " + thread + " " + clock + " " + kind + " " + Long.toHexString(source) + " "
                    + Long.toHexString(target));
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            s.call(thread, cpu, clock, call);
        }

        @Override
        public void waited(int thread, int cpu, long from, long to, int reason) {
            s.waited(thread, cpu, from, to, reason);
        }

        @Override
        public void phaseBegin(Phase phase) {
            s.phaseBegin(phase);
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            s.phaseEnd(phase, times);
        }

        @Override
        public void end(ReplayContext c, PhaseTimes total) {
            s.end(c, total);
        }
    }

    /**
     * A trace set of {@code threads} threads running from the start ({@link TestTraces#parallel}), extended format:
     * each thread is plain, has branch and procedure records, or has fetch records ({@code kinds[t]} 0, 1, 2, drawn
     * here unless given); runs of 1 to 200 accesses to shared pages (some across a page boundary) and private ones,
     * critical sections on two locks, segments between barriers. Loads follow a store to distinct addresses, so no
     * thread has a loop of loads that could be a spin.
     */
    static TraceSet mixed(Path d, String name, int threads, SplittableRandom rnd, int[] kinds) {
        for (int t = 0; t < threads; t++) {
            kinds[t] = rnd.nextInt(3);
        }
        int segments = 1 + rnd.nextInt(3);
        long seed = rnd.nextLong();
        int longest = rnd.nextBoolean() ? 6 : 200;
        TestTraces.T[] ts = new TestTraces.T[threads];
        for (int t = 0; t < threads; t++) {
            int tt = t;
            int kind = kinds[t];
            ts[t] = w -> {
                SplittableRandom r = new SplittableRandom(seed + tt);
                long[] pc = {0x400000L + 0x10000L * tt};
                if (kind == 1) {
                    w.w.procStart(pc[0]);
                } else if (kind == 2) {
                    w.w.fetch(pc[0], 4);
                }
                for (int s = 0; s < segments; s++) {
                    for (int i = 0, ops = 1 + r.nextInt(40); i < ops; i++) {
                        if (r.nextInt(8) == 0) {
                            long lock = 0x100 + 0x40L * r.nextInt(2);
                            w.lock(lock);
                            accesses(w, r, kind, pc, 0x10000L + 4L * r.nextInt(1024), 1 + r.nextInt(3));
                            w.unlock(lock);
                        } else {
                            boolean shared = r.nextBoolean();
                            long base = shared ? 0x10000L + 4L * r.nextInt(4096)
                                    : 0x100000L * (tt + 1) + 4L * r.nextInt(4096);
                            accesses(w, r, kind, pc, base, 1 + r.nextInt(longest));
                        }
                    }
                    if (s + 1 < segments) {
                        w.barrier(0x200, threads);
                    }
                }
            };
        }
        return TestTraces.write(d, name, TraceWriter.Options.classic().extended(true), ts);
    }

    /** A store and then {@code n - 1} loads or stores from {@code base} on, with the thread's kind of code records. */
    private static void accesses(TestTraces.W w, SplittableRandom r, int kind, long[] pc, long base, int n) {
        for (int i = 0; i < n; i++) {
            if (kind == 1 && r.nextInt(5) == 0) {
                jump(w, r, pc, pc[0] + 4L * r.nextInt(6), 0x400000L + 4L * r.nextInt(1 << 16));
            } else if (kind == 2) {
                w.w.fetch(pc[0], 4);
                pc[0] += 4;
            }
            boolean store = i == 0 || r.nextInt(3) == 0;
            int size = r.nextInt(20) == 0 ? 8 : 4;
            long a = r.nextInt(30) == 0 ? 0x10FFC + 4L * r.nextInt(2) : base + 4L * i;
            w.w.memory(store ? MemType.STORE : MemType.LOAD, size, MemType.FIXED, a);
            if (kind == 1) {
                pc[0] += 4;
            }
        }
    }

    /** A branch, or a procedure call and start, from {@code source} to {@code target}; the counter goes there. */
    static void jump(TestTraces.W w, SplittableRandom r, long[] pc, long source, long target) {
        if (r.nextBoolean()) {
            w.w.branch(source, target);
        } else {
            w.w.procCall(source, target);
            w.w.procStart(target);
        }
        pc[0] = target;
    }

    /**
     * Damages trace set {@code set}'s files as {@code rnd} says: words replaced by an unknown call type or record tag
     * (the reader skips one word; in a call record, the parts left are skipped too), or a file cut short, inside a
     * record or not. Returns the number of changes.
     */
    static int damage(TraceSet set, SplittableRandom rnd) throws IOException {
        int changes = 0;
        for (Path f : set.files()) {
            long words = Files.size(f) / 8;
            if (words < 3 || rnd.nextInt(3) == 0) {
                continue;
            }
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                for (int i = 0, n = 1 + rnd.nextInt(4); i < n; i++) {
                    long at = 8 * (1 + rnd.nextLong(words - 1));
                    ByteBuffer b = ByteBuffer.allocate(8).putLong(rnd.nextBoolean() ? 0x00001FF0_00000000L
                            : 0x20000000_12345678L).flip();
                    ch.write(b, at);
                    changes++;
                }
                if (rnd.nextInt(4) == 0) {
                    ch.truncate(Files.size(f) - 1 - rnd.nextInt(Math.min(60, (int) Files.size(f) - 9)));
                    changes++;
                }
            }
        }
        return changes;
    }

    /**
     * Partition k's log against the serial run's: the accesses of whole threads and those the router gives it, in
     * order at the serial numbers and clocks, gaps for the rest; every other callback (fetches and branches too)
     * and the bytes the serial run's.
     */
    static void assertSeesTheSerialRun(Log serial, List<Log> ps, boolean[] whole, Replay.Router router) {
        for (int k = 0; k < ps.size(); k++) {
            RoutedReplayTest.Seen s = ps.get(k).s;
            assertTrue(s.ctx.routed(), "partition " + k + " routed");
            List<Boolean> given = RoutedReplayTest.givenTo(serial.s, router, k);
            List<String> mine = new ArrayList<>();
            for (int i = 0; i < given.size(); i++) {
                int thread = Integer.parseInt(serial.s.all.get(i).split(" ")[0]);
                given.set(i, given.get(i) || whole[thread]);
                if (given.get(i)) {
                    mine.add(serial.s.mine.get(i));
                }
            }
            assertEquals(RoutedReplayTest.numbered(serial.s.all, given), RoutedReplayTest.numbered(s.all, s.given),
                    "partition " + k + ": accesses and gaps in the serial order");
            assertEquals(mine, s.mine, "partition " + k + ": its accesses");
            assertEquals(serial.s.other, s.other, "partition " + k + ": calls, waits, phases, fetches, branches");
            assertEquals(serial.s.bytes, s.bytes, "partition " + k + ": bytes");
        }
    }

    /**
     * The threads that go whole: those with fetch records (kind 2), and those with branch and procedure records
     * (kind 1) unless {@code byAddress} ({@link ReplayOptions#streamsByAddress}).
     */
    private static boolean[] whole(int[] kinds, boolean byAddress) {
        boolean[] w = new boolean[kinds.length];
        for (int t = 0; t < kinds.length; t++) {
            w[t] = kinds[t] == 2 || kinds[t] == 1 && !byAddress;
        }
        return w;
    }

    /** Options of a trace set run from the start, branch threads routed by address or not. */
    private static ReplayOptions parallel(boolean byAddress) {
        ReplayOptions o = TestTraces.parallel();
        o.streamsByAddress = byAddress;
        return o;
    }

    @Property(tries = 40)
    void branchThreadsRouteByAddressOrWhole_fetchThreadsWhole_andEveryPartitionSeesTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll boolean tiny, @ForAll boolean byAddress) throws Exception {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("streams");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            int[] kinds = new int[threads];
            TraceSet set = mixed(d, "mixed", threads, rnd, kinds);
            routeAndCompare(set, parallel(byAddress), parts, tiny ? rnd.nextInt(100) : -1, whole(kinds, byAddress));
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    @Property(tries = 40)
    void skippingBadRecords_routes_withTheSerialRunsProblemsAndPositions(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll boolean tiny, @ForAll boolean byAddress) throws Exception {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("skip");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            int[] kinds = new int[threads];
            TraceSet set = mixed(d, "skip", threads, rnd, kinds);
            damage(set, rnd);
            ReplayOptions o = parallel(byAddress);
            o.skipBadRecords = true;
            routeAndCompare(set, o, parts, tiny ? rnd.nextInt(100) : -1, whole(kinds, byAddress));
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * Damaged fork-join trace sets (spawns, joins, locks, barriers, phases), skipping bad records; with {@code
     * routers} above 0 cut into chunks of a few records ({@link Chunks}) routed on that many router threads: each
     * chunk's reader skips what the whole file's reader skips in its range; with branch records too (threads that
     * go whole, or routed by address whose partitions reconstruct their instruction streams), whose partitions may
     * end before they have read every chunk (the routers must still finish).
     */
    @Property(tries = 40)
    void damagedForkJoinTraces_skippingBadRecords_routeAsTheyReplaySerially(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll boolean branches, @ForAll @IntRange(min = 0, max = 4) int routers, @ForAll boolean byAddress)
            throws Exception {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("skipfj");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            ForkJoinGen.Params p = new ForkJoinGen.Params();
            p.threads = threads;
            p.instructions = 1 + rnd.nextInt(3000);
            p.lockRate = rnd.nextInt(3) * 0.02;
            p.barriers = rnd.nextInt(4);
            p.sharedFraction = rnd.nextDouble();
            p.branches = branches;
            p.seed = seed;
            TraceSet set = ForkJoinGen.write(d, "fj", p);
            damage(set, rnd);
            ReplayOptions o = new ReplayOptions();
            o.skipBadRecords = true;
            o.streamsByAddress = byAddress;
            boolean[] whole = new boolean[threads];
            java.util.Arrays.fill(whole, p.branches && !byAddress);
            long capacity = rnd.nextBoolean() ? rnd.nextInt(100) : -1;
            if (routers == 0) {
                routeAndCompare(set, o, parts, capacity, whole);
                return;
            }
            ChunkedRouteTest.withChunks(8L << rnd.nextInt(10), routers, () -> {
                try {
                    routeAndCompare(set, o, parts, capacity, whole);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return null;
            });
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * Replays {@code set} serially and routed by page and thread into {@code parts} partitions (pipes of {@code
     * capacity} bytes unless negative): routed, the serial run's problems and count, every partition sees the
     * serial run; then the same from a serialized plan's split streams, partition by partition, whose problems
     * follow the plan's.
     */
    private static void routeAndCompare(TraceSet set, ReplayOptions o, int parts, long capacity, boolean[] whole)
            throws Exception {
        Log serial = new Log();
        Replay one = new Replay(set, null, o);
        try {
            one.add(serial).run();
        } catch (BadInputException e) {
            // without skipping: the routed run fails with the same message
            Replay routed = new Replay(set, null, o);
            BadInputException r = assertThrows(BadInputException.class,
                    () -> routed.runRouted(parts, k -> new Log(), ctx -> RoutedReplayTest.byPageAndThread(parts)));
            assertEquals(e.getMessage(), r.getMessage());
            return;
        }
        Replay routed = new Replay(set, null, o);
        if (capacity >= 0) {
            routed.routedCapacity(capacity);
        }
        Replay.Router router = RoutedReplayTest.byPageAndThread(parts);
        List<Log> ps = routed.runRouted(parts, k -> new Log(), ctx -> router);
        assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
        assertEquals(one.problems(), routed.problems(), "problems");
        assertEquals(one.problemCount(), routed.problemCount(), "problem count");
        assertEquals(one.records(), routed.records(), "records");
        assertSeesTheSerialRun(serial, ps, whole, router);

        Replay planner = new Replay(set, null, o);
        Replay.Plan plan = PlannedPartitionTest.roundTrip(planner.plan(parts, true));
        assertTrue(plan.routable());
        byte[][][] streams = RouteSplitterTest.split(set, plan, RouteSplitter.router(plan, ctx -> router), o,
                new long[2]);
        List<Log> alone = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            int part = k;
            Replay r = new Replay(set, null, o);
            alone.add(r.runPartition(plan, k, new Log(),
                    t -> Channels.newChannel(new ByteArrayInputStream(streams[t][part]))));
            List<String> problems = new ArrayList<>(planner.problems());
            problems.addAll(r.problems());
            assertEquals(one.problems(), problems, "partition " + k + ": the plan's problems, then its own");
        }
        assertSeesTheSerialRun(serial, alone, whole, router);
    }

    @Test
    void aThreadWithBranchRecords_goesWholeOrByAddressOnRequest_aThreadWithFetchRecordsWhole_eachFileReadOnce() {
        TraceSet set = TestTraces.write(dir, "half", TraceWriter.Options.classic().extended(true), w -> {
            w.w.procStart(0x4000);
            w.stores(200, 0x10000);
            w.w.branch(0x4100, 0x4000);
            w.loads(200, 0x20000);
        }, w -> w.stores(400, 0x30000), w -> {
            for (int i = 0; i < 300; i++) {
                w.w.fetch(0x8000 + 4L * i, 4);
                w.w.memory(MemType.STORE, 4, MemType.FIXED, 0x40000 + 4L * i);
            }
        });
        Log serial = new Log();
        new Replay(set, null, TestTraces.parallel()).add(serial).run();
        Replay.Router router = RoutedReplayTest.byPageAndThread(3);
        List<Log> whole = new Replay(set, null, TestTraces.parallel()).runRouted(3, k -> new Log(), ctx -> router);
        assertSeesTheSerialRun(serial, whole, new boolean[] {true, false, true}, router);
        long before = Prescan.OPENED.get();
        Replay routed = new Replay(set, null, parallel(true));
        List<Log> ps = routed.runRouted(3, k -> new Log(), ctx -> router);
        assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
        assertEquals(3 * 2, Prescan.OPENED.get() - before, "the prescan and the router: each file twice in all");
        assertSeesTheSerialRun(serial, ps, new boolean[] {false, false, true}, router);
        for (Log p : ps) {
            assertEquals(400, p.s.other.stream().filter(x -> x.startsWith("F 0 ")).count(), "thread 0's fetches");
            assertEquals(300, p.s.mine.stream().filter(a -> a.startsWith("2 ")).count(), "thread 2 whole");
        }
        // thread 0 in partition 0, its stores on page 0x10 in partition 1, its loads on page 0x20 in partition 2
        assertEquals(List.of(400L, 200L, 200L), ps.stream().map(p -> p.s.mine.stream()
                .filter(a -> a.startsWith("0 ")).count()).toList(), "thread 0's accesses by partition");
    }

    /**
     * Problems that a routed partition's engine finds name the trace file's byte offsets: a thread ending inside a
     * critical section (entered at a call's offset), records after thread_end that lie in a gap, a bad marker; with
     * skipping they are the serial run's problems, without it the routed run fails with the serial run's message.
     */
    @Test
    void problemsFoundInRoutedPartitions_nameTheTraceFilesPositions() {
        TraceSet set = TestTraces.write(dir, "bad", w -> w.stores(300, 0x10000).lock(0x100).stores(10, 0x11000)
                .call(CallType.MARKER, 9, 0, 0).stores(5, 0x12000),
                w -> w.stores(50, 0x20000).call(CallType.THREAD_END, 0, 0, 0).stores(70, 0x23000));
        ReplayOptions skip = TestTraces.parallel();
        skip.skipBadRecords = true;
        Replay one = new Replay(set, null, skip);
        one.add(new Log()).run();
        assertEquals(3, one.problemCount(), one.problems().toString());
        assertTrue(one.problems().stream().anyMatch(p -> p.contains("byte offset " + (50 * 8 + 48)
                + ": records after the thread_end record")), one.problems().toString());
        for (int parts : new int[] {2, 3, 7}) {
            Replay routed = new Replay(set, null, skip);
            routed.runRouted(parts, k -> new Log(), ctx -> RoutedReplayTest.byPageAndThread(parts));
            assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
            assertEquals(one.problems(), routed.problems(), parts + " partitions");
        }
        BadInputException serial = assertThrows(BadInputException.class,
                () -> new Replay(set, null, TestTraces.parallel()).add(new Log()).run());
        BadInputException routed = assertThrows(BadInputException.class,
                () -> new Replay(set, null, TestTraces.parallel()).runRouted(3, k -> new Log(),
                        ctx -> RoutedReplayTest.byPageAndThread(3)));
        assertEquals(serial.getMessage(), routed.getMessage());
    }

    @Test
    void aDamagedTrace_skippingBadRecords_routes_andListsTheSkippedRecordsOnce() throws IOException {
        TraceSet set = TestTraces.write(dir, "dmg", w -> w.stores(300, 0x10000), w -> w.stores(300, 0x20000));
        try (FileChannel ch = FileChannel.open(set.files().get(1), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(8).putLong(0x20000000_00000000L).flip(), 8 * 100);
            ch.write(ByteBuffer.allocate(8).putLong(0x20000000_00000000L).flip(), 8 * 200);
        }
        ReplayOptions skip = TestTraces.parallel();
        skip.skipBadRecords = true;
        Replay one = new Replay(set, null, skip);
        Log serial = new Log();
        one.add(serial).run();
        Replay routed = new Replay(set, null, skip);
        Replay.Router router = RoutedReplayTest.byPageAndThread(2);
        List<Log> ps = routed.runRouted(2, k -> new Log(), ctx -> router);
        assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
        assertEquals(List.of(set.files().get(1) + ": skipped 2 bad records, the first at byte offset 800: "
                + "unknown record tag 20000000"), routed.problems().stream().map(p -> p.replaceAll(" \\(.*", ""))
                .toList(), routed.problems().toString());
        assertEquals(one.problems(), routed.problems());
        assertEquals(598, serial.s.all.size());
        assertSeesTheSerialRun(serial, ps, new boolean[2], router);
    }

    @Test
    void aSplitterWithoutAPlan_refusesATraceWithBranchRecords() throws IOException {
        TraceSet set = TestTraces.write(dir, "nobranch", w -> w.stores(10, 0x1000).w.branch(0x4010, 0x4000));
        WritableByteChannel[] out = {Channels.newChannel(new ByteArrayOutputStream())};
        try (RouteSplitter s = new RouteSplitter(set.files().get(0), 0, RoutedReplayTest.byPageAndThread(1),
                new ReplayOptions(), out)) {
            BadInputException e = assertThrows(BadInputException.class, () -> {
                while (s.step()) {
                    // until the branch record
                }
            });
            assertTrue(e.getMessage().contains("byte offset 80"), e.getMessage());
        }
        Replay.Plan plan = new Replay(set, null, new ReplayOptions()).plan(2, true);
        assertTrue(plan.routable());
        assertFalse(RouteSplitterTest.split(set, plan, RouteSplitter.router(plan,
                ctx -> RoutedReplayTest.byPageAndThread(2)))[0][1].length == 0);
    }
}
