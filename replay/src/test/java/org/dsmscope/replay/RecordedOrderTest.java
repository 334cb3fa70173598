package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces with a recorded interleaving (SPEC §2, a Lackey import): the turn hand-offs make the replay follow the
 * recorded order, the wait for a turn is idle, the records of one instruction stay together, and sync ranges name
 * synchronization variables.
 */
class RecordedOrderTest {
    @TempDir
    Path dir;

    private static ReplayOptions parallel() {
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = true;
        return o;
    }

    private TraceSet write(String name, List<List<long[]>> threads) {
        return write(dir, name, threads);
    }

    /**
     * Writes an extended (fetch-capable, 64-bit) trace set: per thread its records, {kind, address} with kind 'I',
     * 'L', 'S', or {call type, 64-bit argument (as arguments 1 and 2), argument 3}.
     */
    private static TraceSet write(Path dir, String name, List<List<long[]>> threads) {
        List<Path> files = new ArrayList<>();
        int p = threads.size();
        for (int t = 0; t < p; t++) {
            Path f = dir.resolve(TraceSet.fileName(name, p, t));
            try (TraceWriter w = TraceWriter.create(f, new TraceWriter.Options().addr64(true))) {
                for (long[] r : threads.get(t)) {
                    switch ((int) r[0]) {
                        case 'I':
                            w.fetch(r[1], 3);
                            break;
                        case 'L':
                            w.memory(MemType.LOAD, 4, MemType.VECTOR, r[1]);
                            break;
                        case 'S':
                            w.memory(MemType.STORE, 4, MemType.VECTOR, r[1]);
                            break;
                        default:
                            w.call((int) r[0], 0, 0, r[1] & 0xFFFFFFFFL, r[1] >>> 32, r.length > 2 ? r[2] : 0, 0);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve(name + "." + p).toString(), files);
    }

    private static long[] rec(int kind, long a) {
        return new long[] {kind, a};
    }

    /**
     * A recorded log: segments of (thread, instructions), each instruction a fetch and a load + store of one word
     * (a Lackey {@code M}) or a plain load; files with a hand-off pair at every switch, as the importer writes them.
     * Returns the files' records and, in {@code order}, the accesses in the log's order as the Recorder prints them.
     */
    private static List<List<long[]>> log(long seed, int threads, boolean fetches, List<String> order) {
        Random rnd = new Random(seed);
        List<List<long[]>> files = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            files.add(new ArrayList<>());
        }
        int cur = 0;
        long turn = 0;
        int segments = 1 + rnd.nextInt(12);
        for (int s = 0; s < segments; s++) {
            int next = s == 0 ? 0 : rnd.nextInt(threads);
            if (s > 0 && next != cur) {
                turn++;
                files.get(cur).add(rec(CallType.TURN_RELEASE, turn));
                files.get(next).add(rec(CallType.TURN_ACQUIRE, turn));
            }
            cur = next;
            int n = 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 300 : 8);
            for (int i = 0; i < n; i++) {
                long a = 0x1000 + 8 * rnd.nextInt(16);
                if (fetches) {
                    files.get(cur).add(rec('I', 0x400000 + 3 * i));
                }
                files.get(cur).add(rec('L', a));
                order.add(cur + " L " + Long.toHexString(a));
                if (rnd.nextBoolean()) {
                    files.get(cur).add(rec('S', a));
                    order.add(cur + " S " + Long.toHexString(a));
                }
            }
        }
        return files;
    }

    private static List<String> delivered(Recorder r) {
        List<String> out = new ArrayList<>();
        for (String a : r.accesses) {
            String[] f = a.split(" ");
            out.add(f[0] + " " + f[3] + " " + f[4]);
        }
        return out;
    }

    /**
     * Property: whatever the threads' instruction counts, the replay delivers the accesses in the recorded order
     * (with and without fetch records), since a thread cannot pass its acquire of turn n before turn n was released.
     * Without the hand-offs the replay interleaves by pseudo clock and the order differs for most logs.
     */
    @Property(tries = 60)
    void handoffs_makeTheReplayDeliverTheRecordedOrder(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int n,
            @ForAll boolean fetches) throws IOException {
        List<String> order = new ArrayList<>();
        List<List<long[]>> files = log(seed, n, fetches, order);
        Path sub = Files.createTempDirectory("recorded-order");
        try {
            Recorder r = TestTraces.replay(write(sub, "log", files), parallel());
            assertEquals(order, delivered(r));
            // one thread at a time: the run lasts as long as all the threads' instructions together
            long[][] t = r.total;
            long busy = 0;
            for (int u = 0; u < n; u++) {
                busy += t[0][u];
                assertEquals(0, t[3][u], "no contention: the program's waits are not recorded");
            }
            String last = r.phases.get(r.phases.size() - 1);
            assertEquals(busy, Long.parseLong(last.substring(last.indexOf('-') + 1)), r.phases.toString());
        } finally {
            try (var w = Files.walk(sub)) {
                w.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /**
     * The thread waiting for its turn goes on at the releaser's clock, and that wait is idle (Valgrind's
     * serialisation), not contention or imbalance: thread 0 runs 3 instructions, hands over to thread 1 (4), which
     * hands back (thread 0: 2 more).
     */
    @Test
    void waitForATurn_endsAtTheReleasersClock_andIsIdle() {
        long rel = CallType.TURN_RELEASE;
        long acq = CallType.TURN_ACQUIRE;
        List<long[]> t0 = List.of(rec('L', 0x10), rec('L', 0x14), rec('L', 0x18), rec((int) rel, 1),
                rec((int) acq, 2), rec('L', 0x10), rec('L', 0x14));
        List<long[]> t1 = List.of(rec((int) acq, 1), rec('S', 0x10), rec('S', 0x14), rec('S', 0x18), rec('S', 0x1c),
                rec((int) rel, 2));
        Recorder r = TestTraces.replay(write("w", List.of(t0, t1)), parallel());
        assertEquals(List.of("0 0 0 L 10", "0 0 1 L 14", "0 0 2 L 18", "1 1 3 S 10", "1 1 4 S 14", "1 1 5 S 18",
                "1 1 6 S 1c", "0 0 7 L 10", "0 0 8 L 14"), r.accesses);
        long[][] t = r.total;
        assertEquals(5, t[0][0], "busy 0");
        assertEquals(4, t[1][0], "thread 0 idle from 3 until thread 1 released turn 2 at 7");
        assertEquals(4, t[0][1], "busy 1");
        // thread 1 reads its end at clock 7 after thread 0's tie-breaking turn (7 to 8): imbalance 1, then the
        // serial phase 8 to 9 is idle
        assertEquals(List.of("parallel 0-8", "serial 8-9"), r.phases);
        assertEquals(3 + 1, t[1][1], "thread 1 idle until turn 1 at 3, and in the serial phase after its end");
        assertEquals(1, t[2][1], "thread 1 ended in the parallel phase");
        assertEquals(0, t[2][0] + t[3][0] + t[3][1], "no imbalance of thread 0, no contention");
        assertTrue(r.calls.contains("1 1 3 turn_acquire wait 3 t 0-0"), r.calls.toString());
        assertTrue(r.calls.contains("0 0 7 turn_acquire wait 4 t 0-0"), r.calls.toString());
    }

    @Test
    void acquireWhoseTurnIsNeverReleased_isADeadlockNamingTheTurn() {
        List<long[]> t0 = List.of(rec('L', 0x10), rec(CallType.TURN_RELEASE, 1));
        List<long[]> t1 = List.of(rec(CallType.TURN_ACQUIRE, 2), rec('S', 0x10));
        TraceSet set = write("d", List.of(t0, t1));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set, parallel()));
        assertTrue(e.getMessage().startsWith("deadlock: no thread can proceed; thread 1 ("), e.getMessage());
        assertTrue(e.getMessage().contains("waits for turn 2 of the recorded interleaving, which no thread has"
                + " released."), e.getMessage());
        assertTrue(e.getMessage().contains("to analyse anyway: --skip-bad-records"), e.getMessage());
    }

    /**
     * Without hand-offs (threads replayed by pseudo clock), the load and store of one instruction (a Lackey
     * {@code M}, memory records after their fetch) stay together: thread 0's instruction is not split by thread 1's
     * at the same clock. Before, both fetched at clock 0, then the loads came in turn, then the stores, so the
     * lock word's read-modify-writes looked like a write after another thread's read.
     */
    @Test
    void accessesOfOneInstruction_stayTogether_whenThreadsRunByPseudoClock() {
        List<long[]> t0 = List.of(rec('I', 0x400000), rec('L', 0x50), rec('S', 0x50), rec('I', 0x400003),
                rec('L', 0x60));
        List<long[]> t1 = List.of(rec('I', 0x400100), rec('L', 0x50), rec('S', 0x50), rec('I', 0x400103),
                rec('L', 0x70), rec('S', 0x70));
        Recorder r = TestTraces.replay(write("m", List.of(t0, t1)), parallel());
        assertEquals(List.of("0 0 0 L 50", "0 0 0 S 50", "1 1 0 L 50", "1 1 0 S 50", "0 0 1 L 60", "1 1 1 L 70",
                "1 1 1 S 70"), r.accesses);
        assertEquals(List.of(0x400000L, 0x400100L, 0x400003L, 0x400103L), r.fetches, "fetches by pseudo clock");
    }

    /**
     * Property: on random fetch-mode programs without hand-offs, replayed by pseudo clock with locks that make
     * threads' clocks jump (so that threads run ahead in runs and stop at the bound in the middle of one), the
     * accesses of each instruction (same thread, same clock) are delivered one after the other.
     */
    @Property(tries = 60)
    void accessesOfOneInstruction_areNeverSplit(@ForAll long seed, @ForAll @IntRange(min = 2, max = 5) int n)
            throws IOException {
        Random rnd = new Random(seed);
        List<List<long[]>> files = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            List<long[]> f = new ArrayList<>();
            int instructions = rnd.nextInt(400);
            boolean locked = false;
            for (int i = 0; i < instructions; i++) {
                if (rnd.nextInt(40) == 0) {
                    f.add(new long[] {locked ? CallType.END_CRITICAL : CallType.BEGIN_CRITICAL, 0x9000});
                    locked = !locked;
                }
                f.add(rec('I', 0x400000 + 3 * i));
                for (int k = rnd.nextInt(4); k > 0; k--) {
                    f.add(rec(rnd.nextBoolean() ? 'L' : 'S', 0x1000 + 8 * rnd.nextInt(64)));
                }
            }
            if (locked) {
                f.add(new long[] {CallType.END_CRITICAL, 0x9000});
            }
            files.add(f);
        }
        Path sub = Files.createTempDirectory("together");
        try {
            Recorder r = TestTraces.replay(write(sub, "tg", files), parallel());
            java.util.Set<String> done = new java.util.HashSet<>();
            String prev = null;
            for (String a : r.accesses) {
                String[] f = a.split(" ");
                String instr = f[0] + " " + f[2];
                if (!instr.equals(prev)) {
                    assertTrue(done.add(instr), "instruction " + instr + " split: " + r.accesses);
                    prev = instr;
                }
            }
        } finally {
            try (var w = Files.walk(sub)) {
                w.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** A sync_range record makes every byte of its range a synchronization variable, before the first access. */
    @Test
    void syncRange_makesAccessesStartingInItSynchronization() {
        long base = 0x1ffefff000L;
        List<long[]> t0 = List.of(new long[] {CallType.SYNC_RANGE, base, 40}, rec('L', base - 4), rec('L', base),
                rec('L', base + 36), rec('L', base + 39), rec('L', base + 40));
        Recorder r = TestTraces.replay(write("s", List.of(t0)), new ReplayOptions());
        assertEquals(List.of(false, true, true, true, false), r.syncSeen);
    }
}
