package org.dsmscope.cdat.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random valid configurations: the canonical text reads back to an equal configuration (and the same text), and
 * every replay processor maps to a processor of the machine, spread and fill one-to-one on the first
 * processors() replay processors.
 */
class CdatConfigPropertyTest {
    private static final String NAME_CHARS = "abcXYZ019._+-";

    @Provide
    Arbitrary<CdatConfig.Builder> builders() {
        return Arbitraries.randomValue(CdatConfigPropertyTest::randomBuilder);
    }

    static CdatConfig.Builder randomBuilder(Random r) {
        int nodes = 1 + r.nextInt(32);
        int ppn = 1 + r.nextInt(128 / nodes);
        int lineShift = 2 + r.nextInt(11);
        int line = 1 << lineShift;
        StringBuilder name = new StringBuilder();
        for (int i = 1 + r.nextInt(r.nextBoolean() ? 64 : 8); i > 0; i--) {
            name.append(NAME_CHARS.charAt(r.nextInt(NAME_CHARS.length())));
        }
        CdatConfig.Builder b = CdatConfig.builder().name(name.toString()).nodes(nodes).processorsPerNode(ppn)
                .banksPerNode(1 + r.nextInt(32)).lineSize(line).pageSize(1 << (lineShift + r.nextInt(31 - lineShift)))
                .protocol(1 + r.nextInt(8)).pagePolicy(PagePolicy.values()[r.nextInt(4)])
                .generalTrace(r.nextBoolean()).detailedTrace(r.nextBoolean());
        if (r.nextInt(4) > 0) {
            b.dataCache(cache(r, line));
        }
        if (r.nextInt(4) > 0) {
            b.instructionCache(cache(r, line));
        }
        b.interconnectCache(r.nextBoolean() ? cache(r, line) : null);
        switch (r.nextInt(3)) {
            case 0 -> b.threadMap(ThreadMap.SPREAD);
            case 1 -> b.threadMap(ThreadMap.FILL);
            default -> {
                List<ThreadMap.Slot> slots = new ArrayList<>();
                for (int i = 1 + r.nextInt(200); i > 0; i--) {
                    slots.add(new ThreadMap.Slot(r.nextInt(nodes), r.nextInt(ppn)));
                }
                b.threadMap(ThreadMap.list(slots));
            }
        }
        return b;
    }

    /** A cache of at most 1 GiB: any associativity (not only powers of two) times a power of two of sets. */
    private static CacheGeometry cache(Random r, int line) {
        int assoc = r.nextInt(4) == 0 ? 1 + r.nextInt(24) : 1 << r.nextInt(5);
        long maxSets = (1L << 30) / ((long) line * assoc);
        int setsShift = r.nextInt(63 - Long.numberOfLeadingZeros(maxSets) + 1);
        long size = (long) line * assoc << setsShift;
        return new CacheGeometry(size, line, assoc, Replacement.values()[r.nextInt(3)]);
    }

    @Property(tries = 500)
    void canonicalTextReadsBack(@ForAll("builders") CdatConfig.Builder b) {
        CdatConfig c = b.build();
        String text = c.toText();
        CdatConfig back = CdatConfig.parse("any-name", text);
        assertEquals(c, back, text);
        assertEquals(c.hashCode(), back.hashCode());
        assertEquals(text, back.toText());
        assertEquals(c, c.toBuilder().build());
        assertTrue(text.startsWith(CdatConfig.FORMAT + "\n"));
        assertEquals(Item.values().length + 1, text.lines().count());
        assertTrue(text.lines().allMatch(l -> l.length() <= 120 || l.startsWith("thread_map = ")), text);
    }

    @Property(tries = 300)
    void everyReplayProcessorHasAProcessor(@ForAll("builders") CdatConfig.Builder b) {
        CdatConfig c = b.build();
        int n = c.processors();
        Set<Integer> first = new HashSet<>();
        for (int cpu = 0; cpu < 3 * n + 5; cpu++) {
            int g = c.processorOf(cpu);
            assertTrue(g >= 0 && g < n, "replay processor " + cpu + " -> " + g);
            assertEquals(g, c.nodeOf(g) * c.processorsPerNode + c.processorInNode(g));
            if (cpu < n) {
                first.add(g);
            }
            if (c.threadMap.kind() == ThreadMap.Kind.SPREAD) {
                assertEquals(cpu % c.nodes, c.nodeOf(g));
            }
        }
        if (c.threadMap.kind() != ThreadMap.Kind.LIST) {
            assertEquals(n, first.size(), "spread and fill are one-to-one on the first processors()");
        }
    }
}
