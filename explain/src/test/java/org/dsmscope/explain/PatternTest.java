package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 003's six access patterns (SPEC §8), one hand-written fault trace each: the pattern of the faults that the
 * writes caused, and of the page and the source line (by cost).
 */
class PatternTest {
    /** Two processors reading then writing one page in turn under a lock (the first 9 records: up to fault 6). */
    private static final String[] MIGRATORY = {
        "F 0 1 0 0x10 R - Inc.java:7",
        "F 1 2 0 0x10 W - Inc.java:7",
        "F 2 3 1 0x10 R - Inc.java:7",
        "F 3 4 1 0x10 W - Inc.java:7",
        "S 5 0 acquire 0x10:3",
        "F 4 6 0 0x10 R - Inc.java:7",
        "F 5 7 0 0x10 W - Inc.java:7",
        "S 8 1 acquire 0x10:5",
        "F 6 9 1 0x10 R - Inc.java:7",
        "F 7 10 1 0x10 W - Inc.java:7",
        "S 11 0 acquire 0x10:7",
        "F 8 12 0 0x10 R - Inc.java:7"};

    @TempDir
    Path dir;

    private static Profiles profiles(Explainer e) {
        return new Profiles(e, new Sources(e.trace(), null, null, true), 0.1);
    }

    private static Pattern pagePattern(Explainer e) {
        return profiles(e).units.get(0).row.pattern();
    }

    private static Pattern linePattern(Explainer e, String site) {
        for (Profiles.Row r : profiles(e).bySite) {
            if (r.label.equals(site)) {
                return r.pattern();
            }
        }
        throw new AssertionError("no row for " + site);
    }

    @Test
    void oneWriterOneReader_isSingleProducerSingleConsumer() {
        Explainer e = new Explainer(Traces.pages(dir, 2,
                "F 0 10 0 0x10 W 0x10008 Prod.java:5",
                "F 1 11 1 0x10 R 0x10008 Cons.java:9",
                "F 2 20 0 0x10 W 0x10008 Prod.java:5",
                "S 30 1 acquire 0x10:2",
                "F 3 31 1 0x10 R 0x10008 Cons.java:9",
                "F 4 40 0 0x10 W 0x10008 Prod.java:5",
                "S 50 1 acquire 0x10:4",
                "F 5 51 1 0x10 R 0x10008 Cons.java:9"), CostModel.pages());
        assertEquals(Explainer.INVALIDATION, e.cause(3));
        assertEquals(2, e.notices(3)[0], "the immediate cause: the write whose notice invalidated the copy");
        assertEquals(Pattern.SPSC, e.pattern(3));
        assertEquals(Pattern.SPSC, e.pattern(5));
        assertEquals(Explainer.TWIN, e.cause(2));
        assertNull(e.pattern(2), "a twin is not a remote request");
        assertEquals(Pattern.SPSC, pagePattern(e));
        assertEquals(Pattern.SPSC, linePattern(e, "Cons.java:9"));
    }

    @Test
    void oneWriterTwoReaders_isSingleProducerMultipleConsumer() {
        Explainer e = new Explainer(Traces.pages(dir, 3,
                "F 0 1 0 0x10 W - Prod.java:5",
                "F 1 2 1 0x10 R - Cons.java:9",
                "F 2 3 2 0x10 R - Cons.java:9",
                "F 3 4 0 0x10 W - Prod.java:5",
                "S 5 1 barrier 0x10:3",
                "S 5 2 barrier 0x10:3",
                "F 4 6 1 0x10 R - Cons.java:9",
                "F 5 6 2 0x10 R - Cons.java:9"), CostModel.pages());
        assertEquals(Pattern.SPMC, e.pattern(4));
        assertEquals(Pattern.SPMC, e.pattern(5));
        assertEquals(Pattern.SPMC, linePattern(e, "Cons.java:9"));
    }

    @Test
    void twoWritersOneReader_isMultipleProducerSingleConsumer() {
        Explainer e = new Explainer(Traces.pages(dir, 3,
                "F 0 1 0 0x10 W - A.java:1",
                "F 1 2 1 0x10 W - B.java:2",
                "F 2 3 2 0x10 R - C.java:3",
                "S 4 2 barrier 0x10:0,1",
                "F 3 5 2 0x10 R - C.java:3"), CostModel.pages());
        assertEquals(Pattern.MPSC, e.pattern(3));
        assertEquals(2, e.notices(3).length);
        assertEquals(Pattern.MPSC, linePattern(e, "C.java:3"));
    }

    @Test
    void twoWritersTwoReaders_isMultipleProducerMultipleConsumer() {
        Explainer e = new Explainer(Traces.pages(dir, 4,
                "F 0 1 0 0x10 W - A.java:1",
                "F 1 2 1 0x10 W - A.java:1",
                "F 2 3 2 0x10 R - C.java:3",
                "F 3 3 3 0x10 R - C.java:3",
                "S 4 2 barrier 0x10:0,1",
                "S 4 3 barrier 0x10:0,1",
                "F 4 5 2 0x10 R - C.java:3",
                "F 5 5 3 0x10 R - C.java:3"), CostModel.pages());
        assertEquals(Pattern.MPMC, e.pattern(4));
        assertEquals(Pattern.MPMC, e.pattern(5));
        assertEquals(Pattern.MPMC, pagePattern(e));
    }

    @Test
    void readThenWriteInTurn_isMigratory() {
        Explainer e = new Explainer(Traces.pages(dir, 2, MIGRATORY), CostModel.pages());
        assertEquals(Pattern.MIGRATORY, e.pattern(4));
        assertEquals(Pattern.MIGRATORY, e.pattern(6));
        assertEquals(Pattern.SPSC, e.pattern(8), "the last consumer writes no more: nothing migrates on");
        assertEquals(Pattern.MIGRATORY, pagePattern(e));
        assertEquals(Pattern.MIGRATORY, linePattern(e, "Inc.java:7"));
    }

    @Test
    void firstTouches_areColdStart() {
        Explainer e = new Explainer(Traces.pages(dir, 2,
                "F 0 1 0 0x10 R - Init.java:3",
                "F 1 2 1 0x11 W - Init.java:4"), CostModel.pages());
        assertEquals(Explainer.COLD, e.cause(0));
        assertEquals(Pattern.COLD_START, e.pattern(0));
        assertEquals(Pattern.COLD_START, e.pattern(1));
        assertEquals(Pattern.COLD_START, pagePattern(e));
    }

    @Test
    void explanation_isThePathsBackToTheConsumersPreviousFault() {
        Explainer e = new Explainer(Traces.pages(dir, 2, java.util.Arrays.copyOf(MIGRATORY, 9)),
                CostModel.pages());
        java.util.List<String> shapes = new java.util.ArrayList<>();
        for (int[] p : e.explanation(6)) {
            shapes.add(java.util.Arrays.toString(p) + " " + e.shape(p, 6));
        }
        assertEquals(java.util.List.of("[3, 4, 5, 6] C:W > P1:R > P1:W > C:R", "[4, 5, 6] ... > P1:R > P1:W > C:R"),
                shapes.stream().sorted().toList());
        assertEquals(3, e.previous(6));
    }
}
