package org.dsmscope.ciat.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * COMM_MAT's counts cost what was counted (issue 23 item 9): a CommStats of 6,000 processors holds the pairs that
 * communicated, not 6,000² counters (288 MB per phase before), and gives the same counts as a dense array.
 */
class PairCountsTest {
    @Test
    void sixThousandProcessors_costWhatCommunicated() {
        CommStats st = new CommStats(6000);
        assertTrue(st.matrix.entries() <= 64, "an empty matrix of 6000 processors holds " + st.matrix.entries());
        for (int i = 0; i < 6000; i++) {
            st.matrix.increment(i * 6000 + (i + 1) % 6000);
        }
        assertTrue(st.matrix.entries() <= 4 * 6000, "6000 pairs held in " + st.matrix.entries() + " entries");
        assertEquals(1, st.matrix(5999, 0));
        assertEquals(0, st.matrix(0, 5999));
        CommStats sum = new CommStats(6000);
        sum.add(st);
        sum.add(st);
        assertEquals(2, sum.matrix(17, 18));
    }

    @Test
    void sparseCounts_equalDenseCounts() {
        Random rnd = new Random(9);
        int p = PairCounts.DENSE_MAX + 1;
        PairCounts sparse = new PairCounts(p);
        long[] dense = new long[p * p];
        for (int n = 0; n < 20_000; n++) {
            int k = rnd.nextInt(p * p / 50);
            sparse.increment(k);
            dense[k]++;
        }
        assertArrayEquals(dense, sparse.toDense());
        sparse.clear();
        assertArrayEquals(new long[p * p], sparse.toDense());
    }
}
