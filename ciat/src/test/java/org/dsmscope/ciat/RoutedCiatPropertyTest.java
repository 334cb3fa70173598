package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.report.JsonReport;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * The routed partitioned replay ({@code Replay.runRouted}, module README "Parallel analysis") writes exactly a
 * serial run's bytes: report, memory usage file, event trace and JSON, on random thread trace sets (1–6 threads,
 * spawn and join, so a serial, a parallel and a serial phase; locks, barriers, accesses of 1 to 8 bytes that cross
 * pages, a few hot words that several threads read and write at equal clocks, 64-bit addresses; with procedure,
 * branch and procedure-call records in some tries, whose threads are routed by address (ReplayOptions
 * streamsByAddress) while every partition
 * reconstructs their instruction streams, replay/README.md "Threads with an instruction stream"), in 2, 3, 7 and 16
 * partitions, with pipes of a few bytes in some tries (the router then waits on almost every chunk).
 */
class RoutedCiatPropertyTest {
    private static final int[] PARTS = {2, 3, 7, 16};
    private static final long HOT = 0x10000FF0L;
    private static final long SHARED = 0x10001000L;
    private static final long LOCKS = 0x0F000000L;
    private static final long BARRIER = 0x0F100000L;
    private static final long CODE = 0x00400000L;

    @Property(tries = 30)
    void routedRun_writesTheSameBytesAsASerialRun(@ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll long seed, @ForAll boolean global,
            @ForAll boolean events, @ForAll boolean tiny, @ForAll boolean branches) throws IOException {
        check(PARTS[partsIndex], threads, seed, global, events, tiny, branches);
    }

    /**
     * A trace set whose threads' private pages (below 4 GiB and above, where the plan looks them up in the profile's
     * hash table) the work profile knows: routed, its pages go with their threads, and the bytes are the serial
     * run's.
     */
    @org.junit.jupiter.api.Test
    void routedRun_withPrivatePagesKnown_writesTheSameBytesAsASerialRun() throws IOException {
        Path dir = Files.createTempDirectory("ciat-private");
        try {
            TraceSet set = write(dir, "r", 4, 12345);
            org.dsmscope.replay.WorkProfile[] profile = new org.dsmscope.replay.WorkProfile[1];
            new Replay(set, null, new ReplayOptions()).add(new org.dsmscope.replay.Analysis() {
                @Override
                public boolean wantsWorkProfile() {
                    return true;
                }

                @Override
                public void begin(org.dsmscope.replay.ReplayContext c) {
                    profile[0] = c.workProfile();
                }
            }).run();
            int[] below = new int[4];
            int[] above = new int[4];
            profile[0].forEachPrivatePage((page, t) -> (page < 1 << 20 ? below : above)[t]++);
            for (int t = 0; t < 4; t++) {
                org.junit.jupiter.api.Assertions.assertTrue(below[t] > 0 && above[t] > 0,
                        "thread " + t + ": " + below[t] + " private pages below 4 GiB, " + above[t] + " above");
            }
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
        for (int parts : new int[] {2, 3}) {
            check(parts, 4, 12345, false, true, false, false);
            check(parts, 4, 12345, true, false, false, true);
        }
    }

    private static void check(int parts, int threads, long seed, boolean global, boolean events, boolean tiny,
            boolean branches) throws IOException {
        Path dir = Files.createTempDirectory("ciat-routed");
        try {
            assertRoutedWritesTheSerialBytes(write(dir, "r", threads, seed, branches), parts, json -> options(global, json,
                    events), tiny ? seed & 63 : -1);
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Analyses {@code set} serially and routed in {@code parts} partitions ({@code capacity}: of the pipes, -1 the
     * default), with the options {@code options} makes for a JSON file: asserts that the run was routed and that
     * the report, memory usage file, event trace (if on) and JSON are the serial run's bytes; returns the serial
     * result.
     */
    static CiatResult assertRoutedWritesTheSerialBytes(TraceSet set, int parts,
            java.util.function.Function<Path, CiatOptions> options, long capacity) throws IOException {
        String base = set.base();
        Path dir = Path.of(base).toAbsolutePath().getParent();
        Path sj = dir.resolve("s.json");
        CiatOptions so = options.apply(sj);
        Ciat serial = new Ciat(so);
        new Replay(set, null, new ReplayOptions()).add(serial).run();
        List<String> ext = new ArrayList<>(List.of(".ciat_report", ".memory"));
        if (so.events) {
            ext.add(".ciat_events");
        }
        List<String> expected = new ArrayList<>();
        for (String e : ext) {
            expected.add(Files.readString(Path.of(base + e)));
            Files.delete(Path.of(base + e));
        }
        Path pj = dir.resolve("p.json");
        CiatOptions po = options.apply(pj);
        ReplayOptions ro = new ReplayOptions();
        ro.streamsByAddress = true; // threads with branch records too
        Replay routed = new Replay(set, null, ro);
        if (capacity >= 0) {
            routed.routedCapacity(capacity);
        }
        List<Ciat> ps = routed.runRouted(parts, k -> new Ciat(po), CiatRouter.of(po, parts));
        assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
        CiatResult res = Partitioned.mergeAndWrite(ps, routed, new ArrayList<>());
        for (int i = 0; i < ext.size(); i++) {
            assertEquals(expected.get(i), Files.readString(Path.of(base + ext.get(i))), ext.get(i));
        }
        assertEquals(Files.readString(sj), Files.readString(pj));
        assertEquals(JsonReport.toJson(serial.result()), JsonReport.toJson(res));
        return serial.result();
    }

    private static CiatOptions options(boolean global, Path json, boolean events) {
        CiatOptions o = new CiatOptions();
        o.events = events;
        o.json = json;
        o.ageScope = global ? AccessAge.Scope.GLOBAL : AccessAge.Scope.THREAD;
        return o;
    }

    /**
     * A random fork-join program: thread 0 fills part of the shared data, spawns the others, all run segments
     * separated by barriers, thread 0 joins and reads. Every third access of a thread is a store, so no run of
     * loads is long enough to be taken for a spin (such traces are routed).
     */
    static TraceSet write(Path dir, String name, int n, long seed) {
        return write(dir, name, n, seed, false);
    }

    /**
     * The same; with {@code branches} each thread starts with a procedure start and has a branch, or a procedure
     * call and start, before about every fifth access, to code on a few pages (some of them shared by threads).
     */
    static TraceSet write(Path dir, String name, int n, long seed, boolean branches) {
        List<Path> files = new ArrayList<>();
        SplittableRandom top = new SplittableRandom(seed);
        int barriers = top.nextInt(3);
        int len = 1 + top.nextInt(400);
        for (int t = 0; t < n; t++) {
            Path f = dir.resolve(TraceSet.fileName(name, n, t));
            SplittableRandom rnd = new SplittableRandom(seed * 31 + t);
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().addr64(true))) {
                long[] time = {0};
                int[] k = {0};
                long[] pc = branches ? new long[] {CODE + 0x1000L * t} : null;
                if (branches) {
                    w.procStart(pc[0]);
                }
                if (t == 0) {
                    accesses(w, rnd, pc, t, 1 + rnd.nextInt(50), k);
                    if (n > 1) {
                        call(w, time, CallType.SPAWN, 1, n - 1);
                    }
                }
                for (int b = 0; b <= barriers; b++) {
                    int m = rnd.nextInt(len);
                    for (int i = 0; i < m; i++) {
                        if (rnd.nextInt(40) == 0) {
                            long lock = LOCKS + 64L * rnd.nextInt(2);
                            call(w, time, CallType.BEGIN_CRITICAL, lock, 0);
                            accesses(w, rnd, pc, t, 1 + rnd.nextInt(4), k);
                            call(w, time, CallType.END_CRITICAL, lock, 0);
                        } else {
                            accesses(w, rnd, pc, t, 1, k);
                        }
                    }
                    if (b < barriers && n > 1) {
                        call(w, time, CallType.BARRIER, BARRIER, n);
                    }
                }
                if (n > 1) {
                    call(w, time, CallType.JOIN, 0, 0);
                }
                if (t == 0) {
                    accesses(w, rnd, pc, t, rnd.nextInt(50), k);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve(name + "." + n).toString(), files);
    }

    private static void call(TraceWriter w, long[] time, int type, long a1, long a2) {
        w.call(type, time[0], time[0] + 1, a1, a2, 0, 0);
        time[0] += 2;
    }

    /** {@code m} accesses: hot words, shared words (some crossing a page), private ones, 64-bit ones. */
    private static void accesses(TraceWriter w, SplittableRandom rnd, long[] pc, int t, int m, int[] k) {
        for (int i = 0; i < m; i++) {
            if (pc != null && rnd.nextInt(5) == 0) {
                long source = pc[0] + 4L * rnd.nextInt(6);
                long target = CODE + 4L * rnd.nextInt(4 * 1024);
                if (rnd.nextBoolean()) {
                    w.branch(source, target);
                } else {
                    w.procCall(source, target);
                    w.procStart(target);
                }
                pc[0] = target;
            }
            if (pc != null) {
                pc[0] += 4;
            }
            boolean store = k[0]++ % 3 == 2;
            int size = 1 << rnd.nextInt(4);
            long a;
            switch (rnd.nextInt(5)) {
                case 0: a = HOT + 8 * rnd.nextInt(4); break;
                case 1: a = SHARED + 4096L * rnd.nextInt(6) - rnd.nextInt(8); break;
                case 2: a = SHARED + rnd.nextInt(6 * 4096); break;
                case 3: a = 0x7F0000000000L + 0x100000L * t + 8 * rnd.nextInt(2048); break;
                default: a = 0x20000000L + 0x100000L * t + 8 * rnd.nextInt(4096); break;
            }
            w.memory(store ? MemType.STORE : MemType.LOAD, size, MemType.FIXED, a);
        }
    }
}
