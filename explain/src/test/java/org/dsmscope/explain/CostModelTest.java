package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cost model's weights on a hand-written trace: cold faults, twins, one or two writers, edges. */
class CostModelTest {
    private static final CostModel CM = new CostModel(10, 100, 3, 1);
    @TempDir
    Path dir;

    @Test
    void coldFault_costsARequestAndAPageTransfer_twinCostsDiffCreation() {
        Explainer e = new Explainer(Traces.pages(dir, 2,
                "F 0 1 0 0x10 R - A.java:1",
                "F 1 2 0 0x10 W - A.java:2"), CM);
        assertEquals(2 * 10 + 100, e.cost(0));
        assertEquals(3, e.cost(1));
        assertEquals(123, e.totalCost());
    }

    @Test
    void invalidationFault_costsARequestPerWriterAndADiffPerNotice() {
        Explainer e = new Explainer(Traces.pages(dir, 3,
                "F 0 1 0 0x10 W - A.java:1",
                "F 1 2 1 0x10 W - B.java:1",
                "F 2 3 2 0x10 R - C.java:1",
                "S 4 0 acquire 0x10:1",
                "F 3 5 0 0x10 W - A.java:1",
                "S 6 2 barrier 0x10:0,1,3",
                "F 4 7 2 0x10 R - C.java:1"), CM);
        // fault 4: notices 0 and 3 by processor 0, 1 by processor 1: two writers, three diffs
        assertEquals(3, e.notices(4).length);
        assertEquals(2 * (2 * 10) + 3 * 1, e.cost(4));
        assertEquals(21, e.edgeWeight(4, 0), "processor 0's first edge carries the request");
        assertEquals(21, e.edgeWeight(4, 1), "processor 1's first edge");
        assertEquals(1, e.edgeWeight(4, 2), "processor 0's second diff comes with the same reply");
        // fault 3: processor 0 writes its invalidated copy: one writer, one diff
        assertEquals(21, e.cost(3));
    }

    @Test
    void profiles_sumTheCostsWithShares() {
        Explainer e = new Explainer(Traces.pages(dir, 2,
                "F 0 1 0 0x10 W - P.java:1",
                "F 1 2 1 0x10 R - C.java:1",
                "F 2 3 0 0x10 W - P.java:1",
                "S 4 1 acquire 0x10:2",
                "F 3 5 1 0x10 R - C.java:1"), CM);
        Profiles p = new Profiles(e, new Sources(e.trace(), null, null, true), 0.1);
        assertEquals(120 + 120 + 3 + 21, p.total);
        assertEquals("P.java:1", p.bySite.get(1).label);
        assertEquals(123, p.bySite.get(1).cost);
        assertEquals("C.java:1", p.bySite.get(0).label, "largest first");
        assertEquals(141, p.bySite.get(0).cost);
        assertEquals("invalidated at acquire by a write at P.java:1", p.byCause.get(1).label);
        assertEquals(21, p.byCause.get(1).cost);
        assertEquals(3, p.byCause.get(2).cost);
    }
}
