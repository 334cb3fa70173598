package org.dsmscope.ciat.age;

/**
 * The renumbering of {@link AgeTracker}'s timestamps (seed 001 §5.2: access age needs only their order): bit t of
 * a bitmap is set when timestamp t holds keys, and a prefix count per 64 timestamps gives the live timestamps
 * below, so a timestamp's new number is a prefix count plus one population count (3/16 of a byte per timestamp,
 * read in the cache, where a rank table of one {@code int} per timestamp would be 4 bytes read at random). Kept
 * between renumberings, so that a renumbering allocates only when the capacity grows.
 */
final class LiveRanks {
    private long[] bits = new long[0];
    private int[] prefix = new int[0];

    /**
     * Marks the live timestamps 0..{@code now} of counts {@code c} (a count not 0), sized for a capacity {@code cap};
     * returns how many are live.
     */
    int mark(byte[] c, int now, int cap) {
        int words = (now >> 6) + 1;
        if (bits.length < words) {
            bits = new long[(cap >> 6) + 1];
            prefix = new int[bits.length];
        }
        int live = 0;
        for (int w = 0; w < words; w++) {
            long m = 0;
            for (int i = 0, t = w << 6, e = Math.min(64, now + 1 - t); i < e; i++) {
                if (c[t + i] != 0) {
                    m |= 1L << i;
                }
            }
            bits[w] = m;
            prefix[w] = live;
            live += Long.bitCount(m);
        }
        return live;
    }

    /** The new number of live timestamp t: the live timestamps up to t. */
    int rank(int t) {
        return prefix[t >> 6] + Long.bitCount(bits[t >> 6] & (-1L >>> (63 - (t & 63))));
    }

    /**
     * Moves the counts of the live timestamps 0..{@code now} of {@code c} to their new numbers in {@code to} (which
     * may be {@code c}: a new number is never above the old one).
     */
    void pack(byte[] c, int now, byte[] to) {
        int r = 0;
        for (int w = 0, words = (now >> 6) + 1; w < words; w++) {
            for (long m = bits[w]; m != 0; m &= m - 1) {
                to[++r] = c[(w << 6) + Long.numberOfTrailingZeros(m)];
            }
        }
    }

    /** Bytes held. */
    long footprintBytes() {
        return bits.length * 8L + prefix.length * 4L;
    }
}
