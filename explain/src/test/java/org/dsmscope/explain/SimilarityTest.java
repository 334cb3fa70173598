package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merging similar explanations (SPEC §8): pages with the same pattern and shape whose cost shares differ by no
 * more than the tolerance merge; a larger difference, or another shape, keeps them apart.
 */
class SimilarityTest {
    @TempDir
    Path dir;

    /** Page 0x10: producer-consumer with 2 rounds; page 0x11: the same with 3 rounds (other shares). */
    private Profiles twoPages(double tolerance) {
        Explainer e = new Explainer(Traces.pages(dir, 2,
                "F 0 1 0 0x10 W - P.java:1",
                "F 1 1 0 0x11 W - P.java:1",
                "F 2 2 1 0x10 R - C.java:1",
                "F 3 2 1 0x11 R - C.java:1",
                "F 4 3 0 0x10 W - P.java:1",
                "F 5 3 0 0x11 W - P.java:1",
                "S 4 1 acquire 0x10:4 0x11:5",
                "F 6 5 1 0x10 R - C.java:1",
                "F 7 5 1 0x11 R - C.java:1",
                "F 8 6 0 0x11 W - P.java:1",
                "S 7 1 acquire 0x11:8",
                "F 9 8 1 0x11 R - C.java:1"), new CostModel(10, 100, 3, 1));
        return new Profiles(e, new Sources(e.trace(), null, null, true), tolerance);
    }

    @Test
    void sharesWithinTheTolerance_merge() {
        Profiles p = twoPages(0.2);
        // page 0x10: cold 240, twin 3, invalidation 21 -> shares .909 / .080 / .011; page 0x11 .839 / .147 / .022
        List<Profiles.Group> g = p.mergedBySite.get("C.java:1");
        assertEquals(1, g.size());
        assertEquals(2, g.get(0).units.size());
        assertEquals(Pattern.SPSC, g.get(0).pattern);
    }

    @Test
    void sharesBeyondTheTolerance_stayApart() {
        Profiles p = twoPages(0.05);
        assertEquals(2, p.mergedBySite.get("C.java:1").size());
    }

    @Test
    void similar_needsTheSamePatternAndShape() {
        Profiles p = twoPages(1.0);
        Profiles.Unit a = p.units.get(0);
        Profiles.Unit b = p.units.get(1);
        assertEquals(true, Profiles.similar(a, b, 1.0));
        String shape = b.shape;
        b.shape = "C:W > P1:R > P1:W > C:R";
        assertEquals(false, Profiles.similar(a, b, 1.0));
        b.shape = shape;
    }
}
