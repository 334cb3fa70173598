package org.dsmscope.viewer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The output view's index: per process, the latest lines at a time, against a scan of every line. */
class OutputsTest {
    private static Timeline timeline(int lanes, long origin) {
        Timeline tl = new Timeline("t", "recording", "ns", new String[] {"computation"}, new Timeline.Kind[128]);
        for (int l = 0; l < lanes; l++) {
            tl.addLane("m" + l);
        }
        tl.origin = origin;
        return tl;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theLatestLinesAtATime_perProcess_relativeToTheOrigin() {
        Timeline tl = timeline(2, 1000);
        Outputs o = new Outputs();
        o.add(0, 1010, 1, "a");
        o.add(1, 1005, 2, "b");
        o.add(0, 1020, 1, "c");
        o.add(0, 1030, 1, "d");
        List<Object> at = o.latest(tl, 20, 2);
        Map<String, Object> m0 = (Map<String, Object>) at.get(0);
        assertEquals(List.of(List.of(10L, "out", "a"), List.of(20L, "out", "c")), m0.get("lines"));
        assertEquals(3, m0.get("total"));
        assertEquals(2, m0.get("upToTime"));
        Map<String, Object> m1 = (Map<String, Object>) at.get(1);
        assertEquals(List.of(List.of(5L, "err", "b")), m1.get("lines"));
    }

    @Property(tries = 200)
    @SuppressWarnings("unchecked")
    void latestEqualsTheLastLinesUpToTheTime_inTimeOrder(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 200) int n, @ForAll @IntRange(min = 0, max = 12) int limit) {
        Random r = new Random(seed);
        Timeline tl = timeline(3, 0);
        Outputs o = new Outputs();
        List<long[]> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t = r.nextInt(100);
            int lane = r.nextInt(3);
            o.add(lane, t, 1, "l" + i);
            all.add(new long[] {lane, t, i});
        }
        long at = r.nextInt(110) - 5;
        List<Object> got = o.latest(tl, at, limit);
        for (int lane = 0; lane < 3; lane++) {
            List<long[]> mine = new ArrayList<>();
            for (long[] x : all) {
                if (x[0] == lane && x[1] <= at) {
                    mine.add(x);
                }
            }
            mine.sort((a, b) -> a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[2], b[2]));
            List<Object> want = new ArrayList<>();
            for (long[] x : mine.subList(Math.max(0, mine.size() - limit), mine.size())) {
                want.add(List.of(x[1], "out", "l" + x[2]));
            }
            assertEquals(want, ((Map<String, Object>) got.get(lane)).get("lines"), "lane " + lane + " at " + at);
        }
    }
}
