package org.dsmscope.ciat.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringWriter;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.FakeReplay;
import org.dsmscope.replay.Phase;
import org.junit.jupiter.api.Test;

/** The twenty memory-usage figures of seed 000 §4.5 and the memory usage file, on a small inline case. */
class MemoryUsageTest {

    /**
     * Thread 0 fetches 3 instructions at 0x400000 (page 0x400) and stores a word at 0x1000 (page 1); thread 1
     * fetches the first of those instructions again, loads the word at 0x1000 twice and a byte at 0x1004; thread 1
     * alone stores a double at 0x5000 (page 5).
     */
    private static FakeReplay scenario(CiatOptions o) {
        o.writeFiles = false;
        FakeReplay r = new FakeReplay(2, o).start(Phase.Kind.PARALLEL);
        r.fetch(0, 0x400000, 4).fetch(0, 0x400004, 4).fetch(0, 0x400008, 4).store(0, 0x1000, 4);
        r.fetch(1, 0x400000, 4).load(1, 0x1000, 4).load(1, 0x1000, 4).load(1, 0x1004, 1);
        r.store(1, 0x5000, 8);
        return r;
    }

    @Test
    void twentyFigures_onASmallCase() {
        CiatResult res = scenario(new CiatOptions()).finish();
        MemoryFigures m = res.memory;
        assertEquals(3, m.get(1), "touched pages");
        assertEquals(2, m.get(2), "shared pages: code page and page 1");
        assertEquals(2, m.get(3), "range-shared pages = shared pages without declared ranges");
        assertEquals(12 + 5 + 8, m.get(4), "touched bytes");
        assertEquals(13, m.get(5), "touched data bytes");
        assertEquals(12, m.get(6), "touched code bytes");
        assertEquals(4 + 4, m.get(7), "shared bytes: the word at 0x1000 and the first instruction");
        assertEquals(12 + 5, m.get(8), "page-shared bytes");
        assertEquals(12 + 5, m.get(9), "range-shared bytes");
        assertEquals(5 + 4, m.get(10), "accesses");
        assertEquals(5, m.get(11), "data accesses");
        assertEquals(3, m.get(12), "data accesses to shared locations");
        assertEquals(4, m.get(13), "data accesses to shared pages");
        assertEquals(4, m.get(14), "data accesses to range-shared pages");
        assertEquals(4, m.get(15), "code accesses");
        assertEquals(2, m.get(16), "code accesses to shared locations");
        assertEquals(4, m.get(17), "code accesses to shared pages");
        assertEquals(4, m.get(18), "code accesses to range-shared pages");
        assertEquals((4 + 4 + 4 + 1 + 8) / 13.0, m.dataLocalityIndex, 1e-12);
        assertEquals(4 / 3.0, m.codeLocalityIndex, 1e-12);
    }

    @Test
    void hpux_makesPagesOutsideThePrivateRangeRangeShared() {
        CiatOptions o = new CiatOptions();
        o.ranges = new AddressRanges().hpux();
        MemoryFigures m = scenario(o).finish().memory;
        // page 5 (0x5000) is outside 0x40000000-0x7fffffff: range-shared although private
        assertEquals(3, m.get(3));
        assertEquals(25, m.get(9));
        assertEquals(5, m.get(14));
    }

    @Test
    void privateRangePage_isNotRangeSharedUnderHpux() {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        o.ranges = new AddressRanges().hpux();
        FakeReplay r = new FakeReplay(1, o).start(Phase.Kind.SERIAL);
        r.store(0, 0x40001000L, 4);
        assertEquals(0, r.finish().memory.get(3));
    }

    @Test
    void memoryFile_hasHeaderAndOneRecordPerPage_ownerMinusOneWhenShared() throws Exception {
        FakeReplay r = scenario(new CiatOptions());
        r.finish();
        StringWriter w = new StringWriter();
        r.ciat().memoryUsage().write(w);
        assertEquals("# dsmscope-memory 1\n# page_size 4096\n"
                + "# fields: page touched_bytes code_bytes shared_bytes data_accesses code_accesses"
                + " shared_data_accesses shared_code_accesses owner\n"
                + "1 5 0 4 4 0 3 0 -1\n"
                + "5 8 0 0 1 0 0 0 1\n"
                + "1024 12 12 4 0 4 0 2 -1\n", w.toString());
    }

    @Test
    void rangeOption_parsesHexAndRejectsBackwardsRanges() {
        long[] r = AddressRanges.parse("--shared-range", "0x1000-0x1fff");
        assertEquals(0x1000, r[0]);
        assertEquals(0x1fff, r[1]);
        org.junit.jupiter.api.Assertions.assertThrows(org.dsmscope.trace.BadInputException.class,
                () -> AddressRanges.parse("--shared-range", "0x2000-0x1000"));
    }

    @Test
    void accessCountsBeyondTheInlineField_areKeptExactly() {
        overflow(new MemoryUsage(), 0x2000);
    }

    @Test
    void accessCountsBeyondTheInlineField_areKeptExactly_inUniformAndSplitGroups() {
        overflow(new MemoryUsage(new org.dsmscope.ciat.table.LocationState(2, 2)), 0x2000);
        overflow(new MemoryUsage(new org.dsmscope.ciat.table.LocationState(2, 2)), 0x2002);
    }

    private static void overflow(MemoryUsage m, long address) {
        long n = (1L << 24) + 5;
        for (long i = 0; i < n; i++) {
            m.data(0, address, 4);
        }
        m.data(1, address, 4);
        MemoryFigures f = m.figures(new AddressRanges());
        assertEquals(n + 1, f.get(11));
        assertEquals(n + 1, f.get(12), "all to a location two threads touched");
    }
}
