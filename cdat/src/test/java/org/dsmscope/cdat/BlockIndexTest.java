package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The directory's numbering of lines (cdat/README.md "Speed"): {@link BlockIndex} gives each key one id, distinct keys
 * distinct ids, the keys of one aligned block neighbouring ids in key order, all below {@link BlockIndex#capacity};
 * and a partition's lines ({@link CacheArray.Deal#line}) are numbered densely, in line order, without collisions.
 */
class BlockIndexTest {

    /** Against a map from key to first id: the same key always gets the same id, and no two keys share one. */
    @Property(tries = 100)
    void eachKeyKeepsOneIdOfItsOwn(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int bits,
            @ForAll @IntRange(min = 0, max = 3) int spread) {
        SplittableRandom rnd = new SplittableRandom(seed);
        BlockIndex index = new BlockIndex(bits, 16);
        Map<Long, Integer> ids = new HashMap<>();
        Set<Integer> used = new HashSet<>();
        long range = 16L << (4 * spread);
        for (int i = 0; i < 5000; i++) {
            // neighbouring lines, lines far apart and negative keys (replicated pages' keys)
            long key = rnd.nextInt(8) == 0 ? rnd.nextLong() : rnd.nextLong(range) - (spread == 3 ? range / 2 : 0);
            int id = index.id(key);
            Integer before = ids.putIfAbsent(key, id);
            if (before == null) {
                assertTrue(used.add(id), "id " + id + " of key " + key + " was another key's");
            } else {
                assertEquals(before.intValue(), id, "key " + key);
            }
            assertTrue(id >= 0 && id < index.capacity(), "id " + id + " within " + index.capacity());
        }
        assertTrue(index.capacity() <= (ids.size() << bits), "capacity: at most a block per key");
    }

    @Test
    void keysOfOneBlockGetNeighbouringIdsInKeyOrder() {
        BlockIndex index = new BlockIndex(4, 16);
        assertEquals(0, index.id(0x1003) - 3);
        assertEquals(16, index.id(0x5000)); // a new block: the next 16 ids
        assertEquals(15, index.id(0x100F));
        assertEquals(17, index.id(0x5001));
        assertEquals(32, index.id(-16)); // the block of -16 .. -1
        assertEquals(47, index.id(-1));
        assertEquals(48, index.capacity());
    }

    /** A partition's lines numbered among themselves: in line order, with no gap and no two alike. */
    @Property(tries = 60)
    void aPartitionsLinesAreNumberedDenselyInOrder(@ForAll @IntRange(min = 0, max = 7) int dealtLog,
            @ForAll @IntRange(min = 1, max = 16) int parts, @ForAll @IntRange(min = 0, max = 15) int part) {
        int dealt = 1 << dealtLog;
        int k = part % parts;
        CacheArray.Deal deal = new CacheArray.Deal(dealt, k, parts);
        long next = 0;
        for (long ln = 0; ln < 64L * dealt; ln++) {
            if (CacheArray.Deal.partOf(ln & (dealt - 1), dealtLog, parts) == k) {
                assertEquals(next++, deal.line(ln), "line " + ln);
            }
        }
        long first = ((long) k * dealt + parts - 1) / parts; // the partition's first set index
        long far = (1L << 40) * dealt + first;
        if (CacheArray.Deal.partOf(first, dealtLog, parts) == k) {
            assertEquals((1L << 40) * deal.held(dealt), deal.line(far), "a far line, its block's first");
        }
    }
}
