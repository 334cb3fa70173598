package org.dsmscope.explain;

/**
 * Open-addressing map from long keys to int values (linear probing, no per-entry objects), for the per
 * (processor, page) state of the DSM simulation and the explainer; {@link #get} returns a default for a missing
 * key. Keys are any long but {@link Long#MIN_VALUE}, which marks an empty slot.
 */
final class LongIntTable {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private int[] vals;
    private int mask;
    private int size;

    LongIntTable(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        java.util.Arrays.fill(keys, EMPTY);
        vals = new int[cap];
        mask = cap - 1;
    }

    private static int slot(long k, int mask) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** The value of {@code key}, or {@code dflt}. */
    int get(long key, int dflt) {
        for (int i = slot(key, mask);; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return vals[i];
            }
            if (k == EMPTY) {
                return dflt;
            }
        }
    }

    /** Sets {@code key} to {@code value}. */
    void put(long key, int value) {
        for (int i = slot(key, mask);; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                vals[i] = value;
                return;
            }
            if (k == EMPTY) {
                keys[i] = key;
                vals[i] = value;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
        }
    }

    /** Number of keys. */
    int size() {
        return size;
    }

    /** Calls {@code f} with every key and value, in slot order. */
    void forEach(java.util.function.BiConsumer<Long, Integer> f) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY) {
                f.accept(keys[i], vals[i]);
            }
        }
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = vals;
        keys = new long[ok.length * 2];
        java.util.Arrays.fill(keys, EMPTY);
        vals = new int[ok.length * 2];
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != EMPTY) {
                put(ok[i], ov[i]);
            }
        }
    }
}
