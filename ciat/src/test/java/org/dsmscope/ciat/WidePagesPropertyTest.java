package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.dsmscope.ciat.FusedPassPropertyTest.Events;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.comm.Communication;
import org.dsmscope.ciat.comm.HeldAccesses;
import org.dsmscope.ciat.memory.AddressRanges;
import org.dsmscope.ciat.memory.MemoryFigures;
import org.dsmscope.ciat.memory.MemoryUsage;
import org.dsmscope.ciat.table.LocationState;
import org.junit.jupiter.api.Test;

/**
 * The packed location table's wide pages (one word per aligned group of 8 locations while every access of the page
 * covered whole groups of 8, then groups of 4 and split groups) against the two-word layout, which keeps every
 * location apart: random streams of mostly 8-aligned data over three pages with accesses of 1 to 64 bytes at every
 * alignment and code fetches between them, so that pages change kind in mid-run, analysed by the held accesses
 * and the one-pass path as a serial run does, give the same events, communication results, memory usage records
 * and figures.
 */
class WidePagesPropertyTest {

    /** One random record: a data access, or a code fetch ({@code code}) of {@code size} bytes. */
    record Rec(int t, int cpu, boolean store, boolean code, long address, int size) {
    }

    private static final long BASE = 0x7000;

    @Provide
    Arbitrary<List<Rec>> streams() {
        Arbitrary<Rec> wide = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.of(true, false), Arbitraries.longs().between(0, 3 * 512 - 8),
                Arbitraries.of(8, 8, 8, 16, 32, 64))
                .as((t, st, g, sz) -> new Rec(t, t, st, false, BASE + 8 * g, sz));
        // near the ends of the pages, so that they cross them too
        Arbitrary<Rec> near = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.of(true, false), Arbitraries.of(0L, 4032L, 4088L, 4096L, 8184L),
                Arbitraries.of(8, 16, 64))
                .as((t, st, a, sz) -> new Rec(t, t, st, false, BASE + a, sz));
        Arbitrary<Rec> any = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.of(true, false), Arbitraries.longs().between(0, 3 * 4096 - 64),
                Arbitraries.integers().between(1, 64))
                .as((t, st, a, sz) -> new Rec(t, t, st, false, BASE + a, sz));
        Arbitrary<Rec> code = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.longs().between(0, 3 * 4096 - 8), Arbitraries.of(2, 4, 8))
                .as((t, a, sz) -> new Rec(t, t, false, true, BASE + a, sz));
        return Arbitraries.frequencyOf(Tuple.of(40, wide), Tuple.of(6, near), Tuple.of(2, any), Tuple.of(1, code))
                .list().ofMinSize(1).ofMaxSize(600);
    }

    @Property(tries = 400)
    void widePagesGiveTheResultsOfOneWordPerLocation(@ForAll("streams") List<Rec> stream) {
        LocationState packed = new LocationState(4, 4);
        assertTrue(packed.packed());
        Communication comm = new Communication(4, packed);
        MemoryUsage mem = new MemoryUsage(packed);
        HeldAccesses held = new HeldAccesses(comm, packed);
        CommStats stats = new CommStats(4);
        Events events = new Events();
        LocationState two = new LocationState(4);
        Communication refComm = new Communication(4, two);
        MemoryUsage refMem = new MemoryUsage(two);
        CommStats refStats = new CommStats(4);
        Events refEvents = new Events();
        long clock = 0;
        for (Rec r : stream) {
            clock++;
            if (r.code) {
                held.run();
                mem.code(r.t, r.address, r.size);
                refMem.code(r.t, r.address, r.size);
                continue;
            }
            mem.dataTotals(r.size);
            if (held.add(r.cpu, r.t, clock, r.store, r.address, r.size, stats, events)) {
                assertEquals(0, held.run(), "no count is full");
            }
            refMem.data(r.t, r.address, r.size);
            refComm.access(r.cpu, clock, r.store, r.address, r.size, refStats, refEvents);
        }
        assertEquals(0, held.run(), "no count is full");
        assertEquals(refEvents.rows.size(), events.rows.size(), "events");
        for (int i = 0; i < events.rows.size(); i++) {
            assertArrayEquals(refEvents.rows.get(i), events.rows.get(i), "event " + i);
        }
        comm.finish(stats);
        refComm.finish(refStats);
        assertEquals(refStats.raw, stats.raw, "RAW");
        assertEquals(refStats.war, stats.war, "WAR");
        assertEquals(refStats.waw, stats.waw, "WAW");
        assertEquals(refStats.rar, stats.rar, "RAR");
        assertArrayEquals(refStats.sharing, stats.sharing, "S");
        assertArrayEquals(refStats.invalidation, stats.invalidation, "I");
        assertArrayEquals(refStats.matrix.toDense(), stats.matrix.toDense(), "COMM_MAT");
        List<long[]> expected = refMem.pageRows();
        List<long[]> rows = mem.pageRows();
        assertEquals(expected.size(), rows.size(), "pages");
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(expected.get(i), rows.get(i), "page record " + i);
        }
        MemoryFigures f = mem.figures(new AddressRanges());
        MemoryFigures g = refMem.figures(new AddressRanges());
        assertArrayEquals(g.counts, f.counts, "figures");
    }

    @Test
    void aPageOfEightByteDataKeepsOneWordPerEightLocationsUntilAFourByteAccess() {
        LocationState loc = new LocationState(2, 2);
        Communication comm = new Communication(2, loc);
        CommStats st = new CommStats(2);
        for (int i = 0; i < 512; i++) {
            comm.accessTouching(i & 1, i & 1, i, (i & 2) != 0, 0x3000 + 8L * i, 8, st, null);
            comm.accessTouching(0, 0, i, false, 0x5000 + 8L * i, 8, st, null);
        }
        int a = loc.findSlot(3);
        int b = loc.findSlot(5);
        assertEquals(LocationState.WIDE_GROUPS, loc.state(a).length, "one word per 8 locations");
        assertEquals(LocationState.WIDE_GROUPS, loc.state(b).length);
        long[] before = new long[LocationState.PAGE];
        for (int off = 0; off < LocationState.PAGE; off++) {
            before[off] = loc.word(a, off);
        }
        long wide = loc.footprintBytes();
        comm.accessTouching(1, 1, 600, false, 0x3000 + 8 * 100 + 4, 4, st, null);
        assertEquals(LocationState.GROUPS, loc.state(a).length, "groups of 4 after a 4-byte access");
        assertEquals(LocationState.WIDE_GROUPS, loc.state(b).length, "the other page stays wide");
        assertEquals(wide + 8L * (LocationState.GROUPS - LocationState.WIDE_GROUPS), loc.footprintBytes());
        for (int off = 0; off < LocationState.PAGE; off++) {
            if (off < 8 * 100 + 4 || off >= 8 * 100 + 8) {
                assertEquals(before[off], loc.word(a, off), "location " + off + " keeps its word");
            }
        }
        assertEquals(0, loc.splitGroups(), "an aligned 4-byte access splits no group");
    }
}
