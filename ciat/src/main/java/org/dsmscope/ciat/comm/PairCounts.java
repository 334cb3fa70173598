package org.dsmscope.ciat.comm;

/**
 * COMM_MAT's counts (seed 000 §4.4, SPEC §5): events from processor i to processor j, by pair index {@code i * p +
 * j}. Up to {@link #DENSE_MAX} processors a dense p × p array (one array increment on the hot path); above, an
 * open-addressing table of the pairs that communicated, so that the memory of a run with thousands of threads is
 * what its threads touched, not p² per phase (6,000 threads: 288 MB per phase densely).
 */
public final class PairCounts implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Processors up to which the counts are a dense array (256: 512 KiB). */
    public static final int DENSE_MAX = 256;
    private static final int EMPTY = -1;

    private final int processors;
    private final long[] dense;
    private int[] keys;
    private long[] values;
    private int size;

    /** Zero counts for {@code processors} processors. */
    public PairCounts(int processors) {
        this.processors = processors;
        if (processors <= DENSE_MAX) {
            dense = new long[processors * processors];
        } else {
            dense = null;
            keys = new int[16];
            java.util.Arrays.fill(keys, EMPTY);
            values = new long[16];
        }
    }

    /** Number of processors. */
    public int processors() {
        return processors;
    }

    /** Adds one to pair {@code k} ({@code i * p + j}). */
    public void increment(int k) {
        long[] d = dense;
        if (d != null) {
            d[k]++;
        } else {
            add(k, 1);
        }
    }

    /** Adds {@code n} to pair {@code k}. */
    public void add(int k, long n) {
        if (dense != null) {
            dense[k] += n;
            return;
        }
        int mask = keys.length - 1;
        for (int s = mix(k) & mask;; s = (s + 1) & mask) {
            if (keys[s] == k) {
                values[s] += n;
                return;
            }
            if (keys[s] == EMPTY) {
                keys[s] = k;
                values[s] = n;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
        }
    }

    /** The count of events from processor {@code i} to processor {@code j}. */
    public long get(int i, int j) {
        int k = i * processors + j;
        if (dense != null) {
            return dense[k];
        }
        int mask = keys.length - 1;
        for (int s = mix(k) & mask;; s = (s + 1) & mask) {
            if (keys[s] == k) {
                return values[s];
            }
            if (keys[s] == EMPTY) {
                return 0;
            }
        }
    }

    /** Something that takes the pairs with a count. */
    public interface PairConsumer {
        /** Pair {@code k} ({@code i * p + j}) has count {@code n} (not 0). */
        void pair(int k, long n);
    }

    /** Gives every pair with a count to {@code c} (dense: in index order; sparse: in table order). */
    public void forEach(PairConsumer c) {
        if (dense != null) {
            for (int k = 0; k < dense.length; k++) {
                if (dense[k] != 0) {
                    c.pair(k, dense[k]);
                }
            }
            return;
        }
        for (int s = 0; s < keys.length; s++) {
            if (keys[s] != EMPTY && values[s] != 0) {
                c.pair(keys[s], values[s]);
            }
        }
    }

    /** Adds every count of {@code o} (same processors). */
    public void add(PairCounts o) {
        o.forEach(this::add);
    }

    /** Sets every count to 0. */
    public void clear() {
        if (dense != null) {
            java.util.Arrays.fill(dense, 0);
        } else if (size > 0) {
            java.util.Arrays.fill(keys, EMPTY);
            size = 0;
        }
    }

    /** Every count as a dense p × p array, row-major (for tests and small runs: p² entries). */
    public long[] toDense() {
        long[] out = new long[processors * processors];
        forEach((k, n) -> out[k] = n);
        return out;
    }

    /** Pairs with a count (sparse) or p² (dense): what the counts cost, in entries. */
    public long entries() {
        return dense != null ? dense.length : keys.length;
    }

    private void grow() {
        int[] ok = keys;
        long[] ov = values;
        keys = new int[ok.length * 2];
        java.util.Arrays.fill(keys, EMPTY);
        values = new long[ok.length * 2];
        size = 0;
        for (int s = 0; s < ok.length; s++) {
            if (ok[s] != EMPTY) {
                add(ok[s], ov[s]);
            }
        }
    }

    private static int mix(int k) {
        int h = k * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
