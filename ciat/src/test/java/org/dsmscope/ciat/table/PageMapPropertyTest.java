package org.dsmscope.ciat.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The page map against a HashMap: slots in order of first insertion, lookups of present and absent pages, for
 * page numbers below 2^20 (found directly) and above (hashed, up to Long.MAX_VALUE: page numbers are
 * addresses &gt;&gt;&gt; 12), and the page order.
 */
class PageMapPropertyTest {

    @Provide
    Arbitrary<List<Long>> pages() {
        Arbitrary<Long> small = Arbitraries.longs().between(0, 5000);
        Arbitrary<Long> edge = Arbitraries.longs().between((1L << 20) - 40, (1L << 20) + 40);
        Arbitrary<Long> large = Arbitraries.longs().between(1L << 20, Long.MAX_VALUE);
        return Arbitraries.oneOf(small, edge, large).list().ofMaxSize(3000);
    }

    @Property(tries = 200)
    void matchesAHashMap(@ForAll("pages") List<Long> pages, @ForAll("pages") List<Long> probes) {
        PageMap map = new PageMap();
        Map<Long, Integer> ref = new HashMap<>();
        for (long p : pages) {
            int expected = ref.computeIfAbsent(p, k -> ref.size());
            assertEquals(expected, map.getOrAdd(p), "getOrAdd " + p);
        }
        assertEquals(ref.size(), map.size());
        for (long p : probes) {
            assertEquals(ref.getOrDefault(p, -1).intValue(), map.get(p), "get " + p);
        }
        for (Map.Entry<Long, Integer> e : ref.entrySet()) {
            assertEquals(e.getKey().longValue(), map.page(e.getValue()));
            assertEquals(e.getValue().intValue(), map.get(e.getKey()));
        }
        int[] expectedOrder = ref.entrySet().stream()
                .sorted((x, y) -> Long.compareUnsigned(x.getKey(), y.getKey()))
                .mapToInt(Map.Entry::getValue).toArray();
        assertArrayEquals(expectedOrder, map.slotsByPage());
    }
}
