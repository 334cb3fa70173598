package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.dsmscope.ciat.comm.CommEventSink;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.replay.Phase;
import org.junit.jupiter.api.Test;

/** {@link CiatOptions#listener}: every communication event, with the access that caused it (a viewer's marks). */
class CommEventListenerTest {
    private static FakeReplay replay(int threads, List<long[]> seen) {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        o.listener = (clock, type, cpu, degree, thread, address, size) ->
                seen.add(new long[] {clock, type, cpu, degree, thread, address, size});
        return new FakeReplay(threads, o);
    }

    @Test
    void theSeedsRawAndWar_comeWithTheirThreadAndAddress() {
        List<long[]> seen = new ArrayList<>();
        FakeReplay r = replay(2, seen).start(Phase.Kind.PARALLEL);
        r.store(0, 0x1000, 4); // first touch: no event
        r.load(1, 0x1000, 4); // RAW: thread 1 reads what processor 0 wrote
        r.store(0, 0x1000, 4); // WAR: invalidates processor 1's copy (degree 1)
        r.finish();
        assertEquals(2, seen.size());
        assertEquals(List.of((long) CommEventSink.RAW, 1L, 1L, 0x1000L, 4L),
                List.of(seen.get(0)[1], seen.get(0)[2], seen.get(0)[4], seen.get(0)[5], seen.get(0)[6]));
        assertEquals(List.of((long) CommEventSink.WAR, 0L, 1L, 0L, 0x1000L),
                List.of(seen.get(1)[1], seen.get(1)[2], seen.get(1)[3], seen.get(1)[4], seen.get(1)[5]));
    }

    @Property(tries = 50)
    void theListenerGetsAsManyEventsOfEachTypeAsCiatCounts(@ForAll long seed) {
        Random rnd = new Random(seed);
        List<long[]> seen = new ArrayList<>();
        FakeReplay r = replay(3, seen).start(Phase.Kind.PARALLEL);
        for (int i = 0; i < 400; i++) {
            int t = rnd.nextInt(3);
            long a = 0x2000 + 4L * rnd.nextInt(24);
            boolean store = rnd.nextBoolean();
            if (store) {
                r.store(t, a, 4);
            } else {
                r.load(t, a, 4);
            }
        }
        CommStats c = r.finish().aggregate.comm;
        long[] counts = new long[4];
        for (long[] e : seen) {
            counts[(int) e[1]]++;
            assertEquals(e[4], e[2], "one thread per processor here");
        }
        assertEquals(List.of(c.raw, c.war, c.waw, c.rar), List.of(counts[0], counts[1], counts[2], counts[3]));
    }
}
