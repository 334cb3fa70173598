package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** {@link LongIntMap} against a {@link HashMap}. */
class LongIntMapTest {

    /** Random puts and adds over few or many keys (growing the table): the same values, entries and size. */
    @Property(tries = 100)
    void putsAndAdds_matchAHashMap(@ForAll long seed) {
        Random r = new Random(seed);
        int range = 1 + r.nextInt(r.nextBoolean() ? 10 : 5000);
        LongIntMap m = new LongIntMap(1 + r.nextInt(20));
        Map<Long, Integer> ref = new HashMap<>();
        for (int i = 0, n = r.nextInt(4000); i < n; i++) {
            long key = r.nextBoolean() ? r.nextInt(range) : (long) r.nextInt(range) << 40;
            int v = r.nextInt(1000);
            if (r.nextBoolean()) {
                m.put(key, v);
                ref.put(key, v);
            } else {
                m.add(key, v);
                ref.merge(key, v, Integer::sum);
            }
            long probe = r.nextInt(range);
            assertEquals(ref.getOrDefault(probe, -1), m.get(probe));
        }
        assertEquals(ref.size(), m.size());
        Map<Long, Integer> seen = new HashMap<>();
        m.forEach((k, v) -> assertEquals(null, seen.put(k, v), "key " + k + " twice"));
        assertEquals(ref, seen);
    }

    @Test
    void add_stopsAtTheLargestInt() {
        LongIntMap m = new LongIntMap(4);
        m.add(7, Integer.MAX_VALUE - 1);
        m.add(7, 5);
        assertEquals(Integer.MAX_VALUE, m.get(7));
    }
}
