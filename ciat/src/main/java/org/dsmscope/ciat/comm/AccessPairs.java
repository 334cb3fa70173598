package org.dsmscope.ciat.comm;

/**
 * The COMM_MAT pairs of one access, each counted once (seed 001 §5.6, SPEC §5: an access adds 1 for each distinct
 * pair among its bytes' (W, P) and (P, j)): a stamp per pair, dense up to {@link PairCounts#DENSE_MAX} processors,
 * above that a list of the current access's pairs. Not thread-safe.
 */
final class AccessPairs {
    private final int processors;
    /** Per pair, the access that last counted it; null above {@link PairCounts#DENSE_MAX} processors. */
    private final int[] pairStamp;
    /** Above {@link PairCounts#DENSE_MAX} processors, the current access's pairs. */
    private int[] pairSeen = new int[8];
    private int pairsSeen;
    private int accessSeq;
    /** Where the current access's pairs are counted. */
    private PairCounts mat;

    AccessPairs(int processors) {
        this.processors = processors;
        this.pairStamp = processors <= PairCounts.DENSE_MAX ? new int[processors * processors] : null;
    }

    /** Starts an access whose pairs are counted in {@code into}. */
    void start(PairCounts into) {
        mat = into;
        if (++accessSeq == 0) {
            if (pairStamp != null) {
                java.util.Arrays.fill(pairStamp, 0);
            }
            accessSeq = 1;
        }
        pairsSeen = 0;
    }

    /** Pair (i, j), row i = from, counted unless the current access counted it already. */
    void pair(int i, int j) {
        int k = i * processors + j;
        int[] stamp = pairStamp;
        if (stamp != null) {
            if (stamp[k] != accessSeq) {
                stamp[k] = accessSeq;
                mat.increment(k);
            }
            return;
        }
        for (int q = 0; q < pairsSeen; q++) {
            if (pairSeen[q] == k) {
                return;
            }
        }
        if (pairsSeen == pairSeen.length) {
            pairSeen = java.util.Arrays.copyOf(pairSeen, pairsSeen * 2);
        }
        pairSeen[pairsSeen++] = k;
        mat.increment(k);
    }
}
