package org.dsmscope.ciat.age;

/**
 * The timestamp ranges of {@link AgeTracker}'s accesses of more than {@link AgeTracker#TIMESTAMP_KEYS} keys (seed
 * 001 §5.2: an access's keys are all accessed at once): such an access takes consecutive timestamps, and an age
 * measured from inside its range counts from the range's start, so every result is that of one timestamp for all
 * its keys. Ranges are kept in increasing order; there are none in the usual trace, and then nothing else looks
 * at them.
 */
final class ManyKeyRanges {
    private int[] start = new int[0];
    private int[] end = new int[0];
    private int count;

    /** True if a many-key access has a range of live timestamps. */
    boolean any() {
        return count != 0;
    }

    /** Remembers range [from, to], after every range held. */
    void add(int from, int to) {
        if (count == start.length) {
            start = java.util.Arrays.copyOf(start, Math.max(8, 2 * count));
            end = java.util.Arrays.copyOf(end, start.length);
        }
        start[count] = from;
        end[count] = to;
        count++;
    }

    /** The start of the range that holds timestamp p, or p. */
    int rangeStart(int p) {
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int m = (lo + hi) >>> 1;
            if (end[m] < p) {
                lo = m + 1;
            } else if (start[m] > p) {
                hi = m - 1;
            } else {
                return start[m];
            }
        }
        return p;
    }

    /**
     * Renumbers the ranges as {@code ranks} renumbers timestamps with counts {@code c}: each from its first to its
     * last live timestamp; a range left with one live timestamp is an ordinary one and is dropped.
     */
    void renumber(byte[] c, LiveRanks ranks) {
        int ranges = 0;
        for (int i = 0; i < count; i++) {
            int lo = start[i];
            int hi = end[i];
            while (lo <= hi && c[lo] == 0) {
                lo++;
            }
            while (hi > lo && c[hi] == 0) {
                hi--;
            }
            if (lo < hi) {
                start[ranges] = ranks.rank(lo);
                end[ranges] = ranks.rank(hi);
                ranges++;
            }
        }
        count = ranges;
    }
}
