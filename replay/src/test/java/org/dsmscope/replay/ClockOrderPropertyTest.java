package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.trace.TraceSet;

/**
 * Property: on random multi-thread programs of memory accesses, critical sections and barriers (run with -p), the
 * engine's access sequence and clocks equal those of a simple reference scheduler written from SPEC §4's rules:
 * smallest clock first, ties round-robin after the last thread run, a lock waiter continues at the releaser's
 * clock, a barrier releases everyone at the largest arrival clock, clocks synchronize when one thread is left.
 * Some runs of accesses are long and some threads jump ahead in pseudo time (a taken branch's instruction gap),
 * so the engine's lockstep rounds (several records per thread straight from the readers, among the threads at the
 * smallest clock) are compared too.
 */
class ClockOrderPropertyTest {
    static final int MEM = 0;
    static final int LOCK = 1;
    static final int UNLOCK = 2;
    static final int BARRIER = 3;
    /** A taken branch whose instruction gap advances the thread's clock by arg instructions (no access). */
    static final int GAP = 4;

    /** Random program: per thread a list of {kind, arg}; same barrier count everywhere; locks never nested. */
    static List<int[]>[] program(long seed, int n) {
        Random rnd = new Random(seed);
        int barriers = rnd.nextInt(3);
        @SuppressWarnings({"unchecked", "rawtypes"})
        List<int[]>[] ops = new List[n];
        for (int t = 0; t < n; t++) {
            ops[t] = new ArrayList<>();
            for (int b = 0; b <= barriers; b++) {
                int parts = rnd.nextInt(4);
                for (int i = 0; i < parts; i++) {
                    // sometimes long runs of accesses: threads then run in lockstep rounds for a while
                    int len = rnd.nextInt(5) == 0 ? rnd.nextInt(200) : rnd.nextInt(6);
                    if (rnd.nextInt(3) == 0) {
                        int l = rnd.nextInt(2);
                        ops[t].add(new int[] {LOCK, l});
                        for (int k = 0; k < len; k++) {
                            ops[t].add(new int[] {MEM, 0x1000 * (t + 1) + 4 * ops[t].size()});
                        }
                        ops[t].add(new int[] {UNLOCK, l});
                    } else {
                        for (int k = 0; k < len; k++) {
                            ops[t].add(new int[] {MEM, 0x1000 * (t + 1) + 4 * ops[t].size()});
                        }
                    }
                }
                if (rnd.nextInt(4) == 0) {
                    // a jump ahead in pseudo time: threads at the smaller clock then run without this one
                    ops[t].add(new int[] {GAP, 1 + rnd.nextInt(40)});
                }
                if (b < barriers) {
                    ops[t].add(new int[] {BARRIER, 0});
                }
            }
            if (ops[t].isEmpty()) {
                ops[t].add(new int[] {MEM, 0x1000 * (t + 1)});
            }
        }
        return ops;
    }

    /** The reference: one operation per pick, naive data structures. */
    static List<String> reference(List<int[]>[] ops) {
        int n = ops.length;
        int[] idx = new int[n];
        long[] clock = new long[n];
        boolean[] blocked = new boolean[n];
        boolean[] done = new boolean[n];
        int[] owner = {-1, -1, -1, -1};
        int[] depth = new int[owner.length]; // a lock its owner takes again (re-entered) is left at depth 0
        List<ArrayDeque<Integer>> queues = List.of(new ArrayDeque<>(), new ArrayDeque<>(), new ArrayDeque<>(),
                new ArrayDeque<>());
        List<Integer> arrivals = new ArrayList<>();
        long barrierMax = 0;
        int active = n;
        int last = -1;
        List<String> out = new ArrayList<>();
        for (;;) {
            int best = -1;
            for (int i = 1; i <= n; i++) {
                int u = Math.floorMod(last + i, n);
                if (!done[u] && !blocked[u] && (best < 0 || clock[u] < clock[best])) {
                    best = u;
                }
            }
            if (best < 0) {
                return out;
            }
            int t = best;
            last = t;
            if (idx[t] == ops[t].size()) {
                done[t] = true;
                if (--active == 1) {
                    long e = Arrays.stream(clock).max().getAsLong();
                    Arrays.fill(clock, e);
                }
                continue;
            }
            int[] op = ops[t].get(idx[t]++);
            switch (op[0]) {
                case MEM:
                    out.add(t + " " + t + " " + clock[t] + " L " + Integer.toHexString(op[1]));
                    clock[t]++;
                    break;
                case GAP:
                    clock[t] += op[1];
                    break;
                case LOCK:
                    if (owner[op[1]] < 0 || owner[op[1]] == t) {
                        owner[op[1]] = t;
                        depth[op[1]]++;
                    } else {
                        queues.get(op[1]).add(t);
                        blocked[t] = true;
                    }
                    break;
                case UNLOCK:
                    if (--depth[op[1]] > 0) {
                        break;
                    }
                    owner[op[1]] = -1;
                    if (!queues.get(op[1]).isEmpty()) {
                        int u = queues.get(op[1]).poll();
                        owner[op[1]] = u;
                        depth[op[1]] = 1;
                        clock[u] = Math.max(clock[u], clock[t]);
                        blocked[u] = false;
                    }
                    break;
                default:
                    barrierMax = arrivals.isEmpty() ? clock[t] : Math.max(barrierMax, clock[t]);
                    arrivals.add(t);
                    blocked[t] = true;
                    if (arrivals.size() == n) {
                        for (int u : arrivals) {
                            clock[u] = barrierMax;
                            blocked[u] = false;
                        }
                        arrivals.clear();
                    }
                    break;
            }
        }
    }

    static TraceSet write(Path dir, List<int[]>[] ops) {
        return write(dir, ops, true);
    }

    /**
     * The program as trace files; without {@code stream} no thread has a procedure start (no instruction stream is
     * reconstructed, so lockstep rounds take their fast path) and the program must have no gaps.
     */
    static TraceSet write(Path dir, List<int[]>[] ops, boolean stream) {
        TestTraces.T[] ts = new TestTraces.T[ops.length];
        for (int t = 0; t < ops.length; t++) {
            List<int[]> list = ops[t];
            int n = ops.length;
            long base = 0x100000L * (t + 1);
            ts[t] = w -> {
                // Every thread starts with a procedure start (a record that takes no time: one turn for every
                // thread at clock 0, as in the reference's first round), so that a gap is a taken branch
                long pc = base;
                if (stream) {
                    w.w.procStart(pc);
                }
                for (int[] op : list) {
                    switch (op[0]) {
                        case GAP:
                            pc += 4L * op[1];
                            w.w.branch(pc, pc); // source pc + 4 gap: the gap's instructions, then on at pc
                            break;
                        case MEM:
                            w.loads(1, op[1]);
                            pc += 4;
                            break;
                        case LOCK: w.lock(0x100 + 8L * op[1]); break;
                        case UNLOCK: w.unlock(0x100 + 8L * op[1]); break;
                        default: w.barrier(0x200, n); break;
                    }
                }
            };
        }
        return TestTraces.write(dir, "prop", ts);
    }

    @Property(tries = 80)
    void engineMatchesReferenceScheduler(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int n)
            throws IOException {
        assertMatchesReference(program(seed, n), true);
    }

    /** The engine's accesses and clocks equal the reference's; every thread's phase times add up to the same. */
    static void assertMatchesReference(List<int[]>[] ops, boolean stream) throws IOException {
        Path dir = Files.createTempDirectory("prop");
        try {
            ReplayOptions o = new ReplayOptions();
            o.parallelStart = true;
            Recorder r = TestTraces.replay(write(dir, ops, stream), o);
            assertEquals(reference(ops), r.accesses);
            for (long[][] t : r.phaseTimes) {
                long len = t[0][0] + t[1][0] + t[2][0] + t[3][0];
                for (int th = 1; th < ops.length; th++) {
                    assertEquals(len, t[0][th] + t[1][th] + t[2][th] + t[3][th]);
                }
            }
        } finally {
            delete(dir);
        }
    }

    /**
     * The same without an instruction stream (no procedure starts, no taken branches): memory records only between
     * the calls, so long runs go through the rounds' fast path, whose clocks, order and busy times must be the same.
     */
    @Property(tries = 80)
    void engineMatchesReferenceScheduler_withoutInstructionStream(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int n) throws IOException {
        List<int[]>[] ops = program(seed, n);
        for (List<int[]> l : ops) {
            l.removeIf(op -> op[0] == GAP);
            if (l.isEmpty()) {
                l.add(new int[] {MEM, 0x1000});
            }
        }
        assertMatchesReference(ops, false);
    }

    static void delete(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /**
     * One replay feeding two analyses gives each the callbacks a replay feeding it alone gives (the accesses reach
     * several analyses through the engine's fan-out, one alone directly), with and without the rounds' fast path.
     */
    @Property(tries = 20)
    void twoAnalyses_eachSeeWhatOneAloneSees(@ForAll long seed, @ForAll boolean stream) throws IOException {
        Path dir = Files.createTempDirectory("two");
        TraceSet set = write(dir, program(seed, 4), stream);
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = true;
        try {
            String alone = TestTraces.replay(set, o).log.toString();
            Recorder a = new Recorder();
            Recorder b = new Recorder();
            new Replay(set, null, o).add(a).add(b).run();
            assertEquals(alone, a.log.toString());
            assertEquals(alone, b.log.toString());
        } finally {
            delete(dir);
        }
    }

    @Property(tries = 10)
    void sameInput_sameCallbackSequence(@ForAll long seed) throws IOException {
        Path dir = Files.createTempDirectory("det");
        List<int[]>[] ops = program(seed, 3);
        TraceSet set = write(dir, ops);
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = true;
        try {
            String a = TestTraces.replay(set, o).log.toString();
            String b = TestTraces.replay(set, o).log.toString();
            assertEquals(a, b);
        } finally {
            delete(dir);
        }
    }
}
