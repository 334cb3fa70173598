package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.Replacement;
import org.junit.jupiter.api.Test;

/**
 * A partition's caches (cdat/README.md "Partitions", SPEC §4 "Partitioning"): they hold only the sets of the
 * partition's set indexes, so N partitions together hold one serial run's cache arrays, and on the lines of those
 * sets they make the serial cache's choices (hits, victims, states; random replacement draws from each set's own
 * generator).
 */
class CacheArrayDealTest {

    @Test
    void partitionsTogetherHoldTheSerialCachesSets() {
        CacheGeometry g = new CacheGeometry(64L * 2 * 32, 32, 2, Replacement.LRU); // 64 sets of 2 ways
        for (int parts : new int[] {2, 3, 7, 16}) {
            int sum = 0;
            for (int k = 0; k < parts; k++) {
                CacheArray c = new CacheArray(g, false, new CacheArray.Deal(16, k, parts));
                int indexes = 0;
                for (int i = 0; i < 16; i++) {
                    indexes += CacheArray.Deal.partOf(i, 4, parts) == k ? 1 : 0;
                }
                assertEquals(4 * indexes * 2, c.line.length, parts + " partitions, partition " + k);
                sum += c.line.length;
            }
            assertEquals(64 * 2, sum, parts + " partitions");
        }
    }

    /**
     * A partition's share of the serial directory's first size (its table starts there): its set indexes' part of
     * it, rounded up, so the shares add up to at least the serial size and a partition without sets starts empty.
     */
    @Test
    void directoryShare_isThePartitionsPartOfTheSetIndexes() {
        assertEquals(8192, new CacheArray.Deal(128, 1, 2).share(Machine.DIRECTORY_START));
        assertEquals(4096, new CacheArray.Deal(4, 4, 16).share(Machine.DIRECTORY_START)); // one of the 4 indexes
        assertEquals(0, new CacheArray.Deal(4, 5, 16).share(Machine.DIRECTORY_START)); // none
        for (int parts : new int[] {3, 7}) {
            int sum = 0;
            for (int k = 0; k < parts; k++) {
                int share = new CacheArray.Deal(128, k, parts).share(Machine.DIRECTORY_START);
                int indexes = (int) (((k + 1) * 128L + parts - 1) / parts - (k * 128L + parts - 1) / parts);
                assertEquals((Machine.DIRECTORY_START * indexes + 127) / 128, share);
                sum += share;
            }
            assertEquals(Machine.DIRECTORY_START, sum, 1.0 * parts, parts + " partitions");
        }
    }

    /** The lines of a partition's sets, filled, found, touched and invalidated in both caches: the same choices. */
    @Property(tries = 60)
    void onItsLines_aPartitionsCacheChoosesAsTheSerialCache(@ForAll long seed,
            @ForAll @IntRange(min = 2, max = 16) int parts, @ForAll @IntRange(min = 0, max = 15) int part,
            @ForAll @IntRange(min = 0, max = 2) int replacement, @ForAll @IntRange(min = 0, max = 3) int waysLog) {
        int k = part % parts;
        int ways = 1 << waysLog;
        int dealt = 16;
        CacheGeometry g = new CacheGeometry(64L * ways * 16, 16, ways, Replacement.values()[replacement]);
        CacheArray serial = new CacheArray(g, false);
        CacheArray mine = new CacheArray(g, false, new CacheArray.Deal(dealt, k, parts));
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 3000; i++) {
            long ln = rnd.nextInt(1024);
            if (CacheArray.Deal.partOf(ln & (dealt - 1), 4, parts) != k) {
                continue; // another partition's line: never looked up here (Cdat.owns)
            }
            int op = rnd.nextInt(4);
            int ws = serial.find(ln);
            int wm = mine.find(ln);
            assertEquals(ws < 0, wm < 0, "line " + ln);
            if (ws >= 0) {
                assertEquals(serial.state[ws], mine.state[wm]);
                if (op == 0) {
                    assertEquals(serial.invalidate(ln), mine.invalidate(ln));
                } else {
                    serial.touch(ws);
                    mine.touch(wm);
                }
            } else {
                byte st = (byte) (1 + rnd.nextInt(3));
                serial.fill(ln, st);
                mine.fill(ln, st);
                assertEquals(serial.victimState, mine.victimState, "victim of line " + ln);
                if (serial.victimState != CacheArray.INVALID) {
                    assertEquals(serial.victimLine, mine.victimLine, "victim of line " + ln);
                }
            }
        }
    }
}
