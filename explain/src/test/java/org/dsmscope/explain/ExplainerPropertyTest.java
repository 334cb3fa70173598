package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The {@link Explainer}'s causes, intervals and patterns (pending notices in recycled nodes, unit-indexed slots, the
 * union-find run during the causes pass) against {@link ReferenceExplainer}, the straightforward algorithm (notices
 * gathered into a list and sorted per fault, intervals found afterwards): on fault traces from the page
 * simulation of random programs, and on random fault traces such as a DSM elsewhere may write (notices out of
 * order, delivered twice, to processors that never held the page), the same causes, notices, edge weights, costs,
 * patterns.
 */
class ExplainerPropertyTest {
    /** Asserts that the explainer and the reference agree on every fault of {@code t}. */
    static void assertSame(FaultTrace t) {
        Explainer e = new Explainer(t, CostModel.pages());
        ReferenceExplainer r = new ReferenceExplainer(t, CostModel.pages());
        for (int f = 0; f < t.faults(); f++) {
            String at = "fault " + f;
            assertEquals(r.cause[f], e.cause(f), at);
            assertArrayEquals(r.notices[f], e.notices(f), at);
            for (int k = 0; k < e.noticeCount(f); k++) {
                assertEquals(r.kinds[f][k], e.noticeKind(f, k), at);
                assertEquals(r.weights[f][k], e.edgeWeight(f, k), at);
            }
            assertEquals(r.cost[f], e.cost(f), at);
            assertEquals(r.prevSame[f], e.previous(f), at);
            assertEquals(r.pattern[f], e.pattern(f) == null ? -1 : e.pattern(f).ordinal(), at);
        }
    }

    @Property(tries = 200)
    void simulatedPrograms_explainedAsTheReferenceDoes(@ForAll @IntRange(min = 2, max = 4) int n,
            @ForAll @Size(max = 400) List<@IntRange(min = 0, max = 100_000) Integer> ops) {
        FaultTrace t = new FaultTrace(false, 4096, n);
        LrcPropertyTest.run(n, ops, t);
        assertSame(t);
    }

    @Property(tries = 300)
    void randomFaultTraces_explainedAsTheReferenceDoes(@ForAll @IntRange(min = 1, max = 5) int n,
            @ForAll @IntRange(min = 1, max = 6) int units, @ForAll @IntRange(max = 300) int records,
            @ForAll @LongRange(max = 1L << 40) long seed) {
        assertSame(random(n, units, records, seed));
    }

    @Test
    void manyProcessorsAndUnits_useTheHashedSlots() {
        // 3000 units x 2000 processors exceed the flat slots: the same results through the hash table
        SplittableRandom r = new SplittableRandom(5);
        FaultTrace t = new FaultTrace(false, 4096, 2000);
        List<Integer> writes = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            int f = t.faults();
            long unit = r.nextInt(3000);
            boolean w = r.nextBoolean();
            t.fault(f, i, r.nextInt(2000), unit, w, unit * 4096, -1);
            if (w) {
                writes.add(f);
            }
            if (r.nextInt(4) == 0 && !writes.isEmpty()) {
                int wf = writes.get(r.nextInt(writes.size()));
                t.sync(i, r.nextInt(2000), FaultSink.ACQUIRE, new long[] {t.unit(wf)}, new int[] {wf}, 1);
            }
        }
        assertSame(t);
    }

    /**
     * A random fault trace: faults on a few units, and synchronization records naming random earlier write
     * faults, in random order and with repeats, to any processor.
     */
    static FaultTrace random(int n, int units, int records, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        FaultTrace t = new FaultTrace(false, 4096, n);
        List<Integer> writes = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            if (writes.isEmpty() || r.nextInt(3) > 0) {
                int f = t.faults();
                boolean w = r.nextBoolean();
                long unit = r.nextInt(units);
                t.fault(f, i, r.nextInt(n), unit, w, unit * 4096 + 8 * r.nextInt(4), -1);
                if (w) {
                    writes.add(f);
                }
            } else {
                int m = 1 + r.nextInt(4);
                long[] us = new long[m];
                int[] fs = new int[m];
                for (int k = 0; k < m; k++) {
                    fs[k] = writes.get(r.nextInt(writes.size()));
                    us[k] = t.unit(fs[k]);
                }
                t.sync(i, r.nextInt(n), r.nextInt(FaultSink.KIND_NAMES.length - 1), us, fs, m);
            }
        }
        return t;
    }

    @Test
    void noticesOutOfOrderAndRepeated_sortedKeepingTheSmallestKind() {
        // fault 2's notices arrive as 1 (barrier), then 0 (acquire), then 1 again (acquire)
        FaultTrace t = new FaultTrace(false, 4096, 2);
        t.fault(0, 0, 0, 7, true, -1, -1);
        t.fault(1, 1, 0, 7, true, -1, -1);
        t.fault(2, 2, 1, 7, false, -1, -1);
        t.sync(3, 1, FaultSink.BARRIER, new long[] {7}, new int[] {1}, 1);
        t.sync(4, 1, FaultSink.ACQUIRE, new long[] {7, 7}, new int[] {0, 1}, 2);
        t.fault(3, 5, 1, 7, false, -1, -1);
        Explainer e = new Explainer(t, CostModel.pages());
        assertArrayEquals(new int[] {0, 1}, e.notices(3));
        assertEquals(FaultSink.ACQUIRE, e.noticeKind(3, 0));
        assertEquals(FaultSink.ACQUIRE, e.noticeKind(3, 1));
        assertSame(t);
    }
}
