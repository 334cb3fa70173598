package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.trace.CallType;
import org.junit.jupiter.api.Test;

/**
 * The lazy-release-consistency simulation ({@link DsmSimulator}, vector timestamps and interval arrays) against a
 * simple reference model (sets of the intervals each processor has seen, lists of writes): on random programs of
 * accesses, lock acquires and releases and barriers, the same faults and synchronization records in the same order.
 */
class LrcPropertyTest {
    private static final int PAGE = 4096;

    /** Records what a sink receives, one string a record. */
    private static final class Recorder implements FaultSink {
        final List<String> out = new ArrayList<>();

        @Override
        public void fault(int id, long time, int proc, long unit, boolean write, long address, long site, int offset,
                int size) {
            out.add("F " + id + " " + proc + " " + unit + (write ? " W" : " R"));
        }

        @Override
        public void sync(long time, int proc, int kind, long[] units, int[] faults, int n) {
            StringBuilder sb = new StringBuilder("S " + proc + " " + KIND_NAMES[kind]);
            for (int i = 0; i < n; i++) {
                sb.append(' ').append(units[i]).append(':').append(faults[i]);
            }
            out.add(sb.toString());
        }
    }

    /** The reference: per processor the set of intervals seen, per interval the list of writes. */
    private static final class Reference {
        final int n;
        final Map<Long, Integer> state = new HashMap<>();
        final List<List<List<long[]>>> intervals = new ArrayList<>();
        final List<Set<Long>> seen = new ArrayList<>();
        final List<List<long[]>> current = new ArrayList<>();
        final Map<Integer, Set<Long>> objects = new HashMap<>();
        final List<String> out = new ArrayList<>();
        int faults;

        Reference(int n) {
            this.n = n;
            for (int t = 0; t < n; t++) {
                intervals.add(new ArrayList<>());
                seen.add(new HashSet<>());
                current.add(new ArrayList<>());
            }
        }

        int st(int t, long page) {
            return state.getOrDefault(page * 100 + t, 0);
        }

        void access(int t, long page, boolean store) {
            int s = st(t, page);
            if (store ? (s & 2) != 0 : (s & 1) != 0) {
                return;
            }
            int id = faults++;
            out.add("F " + id + " " + t + " " + page + (store ? " W" : " R"));
            state.put(page * 100 + t, store ? 7 : 5 | (s & 2));
            if (store) {
                current.get(t).add(new long[] {page, id});
            }
        }

        void release(int t) {
            if (current.get(t).isEmpty()) {
                return;
            }
            int k = intervals.get(t).size();
            intervals.get(t).add(new ArrayList<>(current.get(t)));
            seen.get(t).add(((long) t << 32) | k);
            for (long[] w : current.get(t)) {
                state.put(w[0] * 100 + t, st(t, w[0]) & ~2);
            }
            current.get(t).clear();
        }

        void acquire(int t, Set<Long> s, String kind) {
            List<long[]> pairs = new ArrayList<>();
            for (long iv : s) {
                int j = (int) (iv >>> 32);
                if (j == t || seen.get(t).contains(iv)) {
                    continue;
                }
                for (long[] w : intervals.get(j).get((int) iv)) {
                    if ((st(t, w[0]) & 4) != 0) {
                        state.put(w[0] * 100 + t, 4);
                        pairs.add(w);
                    }
                }
            }
            seen.get(t).addAll(s);
            if (!pairs.isEmpty()) {
                pairs.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
                StringBuilder sb = new StringBuilder("S " + t + " " + kind);
                for (long[] p : pairs) {
                    sb.append(' ').append(p[0]).append(':').append(p[1]);
                }
                out.add(sb.toString());
            }
        }

        void lock(int t, int obj) {
            acquire(t, objects.getOrDefault(obj, Set.of()), "acquire");
        }

        void unlock(int t, int obj) {
            release(t);
            objects.computeIfAbsent(obj, o -> new HashSet<>()).addAll(seen.get(t));
        }

        void barrier() {
            Set<Long> all = new HashSet<>();
            for (int t = 0; t < n; t++) {
                release(t);
                all.addAll(seen.get(t));
            }
            for (int t = 0; t < n; t++) {
                acquire(t, all, "barrier");
            }
        }
    }

    /** Runs the program {@code ops} (see {@link #sameFaultsAsTheReference}) on both; returns [simulator, reference]. */
    static List<List<String>> run(int n, List<Integer> ops) {
        Recorder rec = new Recorder();
        List<String> ref = run(n, ops, rec);
        return List.of(rec.out, ref);
    }

    /** Runs the program {@code ops} on the simulator writing into {@code sink}; the reference's records. */
    static List<String> run(int n, List<Integer> ops, FaultSink sink) {
        DsmSimulator sim = new DsmSimulator(false, PAGE, sink, null);
        sim.begin(new DirectContext(n));
        Reference ref = new Reference(n);
        CallEvent c = new CallEvent();
        long clock = 0;
        for (int x : ops) {
            int t = (x / 10) % n;
            int obj = (x / 40) % 2;
            clock++;
            switch (x % 10) {
                case 6:
                case 7:
                    c.type = CallType.BEGIN_CRITICAL;
                    c.arg1 = 0x100 + obj;
                    sim.call(t, t, clock, c);
                    ref.lock(t, obj);
                    break;
                case 8:
                    c.type = CallType.END_CRITICAL;
                    c.arg1 = 0x100 + obj;
                    sim.call(t, t, clock, c);
                    ref.unlock(t, obj);
                    break;
                case 9:
                    c.type = CallType.BARRIER;
                    c.arg1 = 0x200;
                    c.arg2 = n;
                    for (int u = 0; u < n; u++) {
                        sim.call(u, u, clock, c);
                    }
                    ref.barrier();
                    break;
                default:
                    long page = (x / 40) % 4;
                    boolean store = (x / 160) % 2 == 1;
                    sim.access(t, t, clock, 0, 8, store, page * PAGE + 8 * (x % 7));
                    ref.access(t, page, store);
            }
        }
        return ref.out;
    }

    @Property(tries = 300)
    void sameFaultsAsTheReference(@ForAll @IntRange(min = 2, max = 4) int n,
            @ForAll @Size(max = 300) List<@IntRange(min = 0, max = 100_000) Integer> ops) {
        List<List<String>> r = run(n, ops);
        assertEquals(r.get(1), r.get(0));
    }

    @Test
    void producerConsumerUnderALock_invalidatesTheConsumersCopyAtItsAcquire() {
        // 0 writes page 0 (cold) and unlocks, 1 reads it (cold), 0 writes again (twin: a new interval) and
        // unlocks, 1 locks: both intervals' notices invalidate its copy, and its next read faults
        List<Integer> ops = Arrays.asList(160, 8, 11, 160, 8, 17, 11);
        List<List<String>> r = run(2, ops);
        assertEquals(List.of("F 0 0 0 W", "F 1 1 0 R", "F 2 0 0 W", "S 1 acquire 0:0 0:2", "F 3 1 0 R"), r.get(0));
        assertEquals(r.get(1), r.get(0));
    }
}
