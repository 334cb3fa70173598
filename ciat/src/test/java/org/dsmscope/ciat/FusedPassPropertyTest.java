package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.dsmscope.ciat.comm.CommEventSink;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.comm.Communication;
import org.dsmscope.ciat.memory.AddressRanges;
import org.dsmscope.ciat.memory.MemoryFigures;
import org.dsmscope.ciat.memory.MemoryUsage;
import org.dsmscope.ciat.table.LocationState;
import org.junit.jupiter.api.Test;

/**
 * The one-pass data access (communication setting memory usage's marks, {@link Communication#accessTouching})
 * against the two passes it replaces ({@link MemoryUsage#data} then {@link Communication#access}), each in its
 * own packed location table, on random streams: same communication results, same memory usage file records.
 */
class FusedPassPropertyTest {

    /** One random data access by thread {@code t} on processor {@code cpu}. */
    record Acc(int t, int cpu, boolean store, long address, int size) {
    }

    /** The events an analysis reported, as (clock, type, processor, degree) rows. */
    static final class Events implements CommEventSink {
        final List<long[]> rows = new ArrayList<>();

        @Override
        public void event(long clock, int type, int cpu, int degree) {
            rows.add(new long[] {clock, type, cpu, degree});
        }
    }

    @Provide
    Arbitrary<List<Acc>> streams() {
        // aligned accesses (whole groups: the one pass's short path for 4 and 8 bytes) around a page boundary
        Arbitrary<Acc> aligned = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 3), Arbitraries.of(true, false),
                Arbitraries.longs().between(0, 15), Arbitraries.of(4, 8, 8, 16))
                .as((t, cpu, st, a, sz) -> new Acc(t, cpu, st, 0x7FE0 + 4 * a, sz));
        Arbitrary<Acc> small = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 3), Arbitraries.of(true, false),
                Arbitraries.longs().between(0, 63), Arbitraries.of(1, 2, 3, 5))
                .as((t, cpu, st, a, sz) -> new Acc(t, cpu, st, 0x7FE0 + a, sz));
        return Arbitraries.frequencyOf(Tuple.of(4, aligned), Tuple.of(1, small)).list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 600)
    void onePassEqualsTwoPasses(@ForAll("streams") List<Acc> stream) {
        LocationState one = new LocationState(4, 4);
        Communication fused = new Communication(4, one);
        MemoryUsage fusedMem = new MemoryUsage(one);
        CommStats fusedStats = new CommStats(4);
        LocationState two = new LocationState(4, 4);
        Communication comm = new Communication(4, two);
        MemoryUsage mem = new MemoryUsage(two);
        CommStats stats = new CommStats(4);
        assertTrue(fused.fuses());
        Events fusedEvents = new Events();
        Events events = new Events();
        long clock = 0;
        for (Acc a : stream) {
            clock++;
            fusedMem.dataTotals(a.size);
            assertTrue(fused.accessTouching(a.cpu, a.t, clock, a.store, a.address, a.size, fusedStats,
                    fusedEvents));
            mem.data(a.t, a.address, a.size);
            comm.access(a.cpu, clock, a.store, a.address, a.size, stats, events);
        }
        assertEquals(events.rows.size(), fusedEvents.rows.size(), "events");
        for (int i = 0; i < events.rows.size(); i++) {
            assertArrayEquals(events.rows.get(i), fusedEvents.rows.get(i), "event " + i);
        }
        fused.finish(fusedStats);
        comm.finish(stats);
        assertEquals(stats.raw, fusedStats.raw);
        assertEquals(stats.war, fusedStats.war);
        assertEquals(stats.waw, fusedStats.waw);
        assertEquals(stats.rar, fusedStats.rar);
        assertArrayEquals(stats.sharing, fusedStats.sharing);
        assertArrayEquals(stats.invalidation, fusedStats.invalidation);
        assertArrayEquals(stats.matrix.toDense(), fusedStats.matrix.toDense());
        List<long[]> expected = mem.pageRows();
        List<long[]> rows = fusedMem.pageRows();
        assertEquals(expected.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(expected.get(i), rows.get(i), "page record " + i);
        }
        MemoryFigures f = fusedMem.figures(new AddressRanges());
        MemoryFigures g = mem.figures(new AddressRanges());
        assertArrayEquals(g.counts, f.counts);
        assertEquals(g.dataBytesAccessed, f.dataBytesAccessed);
    }

    @Test
    void aFullCountIsHandedToTheOverflowMap() {
        LocationState loc = new LocationState(2, 2);
        Communication comm = new Communication(2, loc);
        MemoryUsage mem = new MemoryUsage(loc);
        CommStats st = new CommStats(2);
        long n = (1L << 24) + 5;
        int full = 0;
        for (long i = 0; i < n; i++) {
            if (!comm.accessTouching(0, 0, i, false, 0x2000, 8, st, null)) {
                mem.countOverflow(0x2000);
                full++;
            }
        }
        assertEquals(6, full, "counts beyond 2^24 - 1");
        assertFalse(comm.accessTouching(1, 1, n, true, 0x2000, 8, st, null));
        mem.countOverflow(0x2000);
        MemoryFigures f = mem.figures(new AddressRanges());
        assertEquals(n + 1, f.get(11), "data accesses");
        assertEquals(n + 1, f.get(12), "all to a location two threads touched");
    }
}
