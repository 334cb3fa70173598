package org.dsmscope.cdat;

import java.util.Arrays;

/**
 * Numbers long keys densely in the order they are first met (0, 1, 2, ...), so that per-key state can live in
 * parallel primitive arrays: open addressing with linear probing, no per-entry objects. Any long is a valid key.
 */
final class LongIndex {
    private long[] keys;
    private int[] ids; // id + 1; 0 = empty slot
    private int mask;
    private int size;

    LongIndex(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        ids = new int[cap];
        mask = cap - 1;
    }

    private static int hash(long k, int mask) {
        long h = (k ^ (k >>> 32)) * 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 31)) & mask;
    }

    /** The id of {@code key}, or -1 if it was never added. */
    int find(long key) {
        for (int i = hash(key, mask);; i = (i + 1) & mask) {
            int id = ids[i];
            if (id == 0) {
                return -1;
            }
            if (keys[i] == key) {
                return id - 1;
            }
        }
    }

    /** The id of {@code key}, numbering it next if it is new (then {@link #size()} grows by one). */
    int add(long key) {
        for (int i = hash(key, mask);; i = (i + 1) & mask) {
            int id = ids[i];
            if (id == 0) {
                keys[i] = key;
                ids[i] = ++size;
                if (size * 2 > keys.length) {
                    grow();
                }
                return size - 1;
            }
            if (keys[i] == key) {
                return id - 1;
            }
        }
    }

    /** Number of keys. */
    int size() {
        return size;
    }

    private void grow() {
        long[] ok = keys;
        int[] oi = ids;
        keys = new long[ok.length * 2];
        ids = new int[ok.length * 2];
        mask = keys.length - 1;
        for (int j = 0; j < ok.length; j++) {
            if (oi[j] != 0) {
                int i = hash(ok[j], mask);
                while (ids[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = ok[j];
                ids[i] = oi[j];
            }
        }
    }

    /** A capacity for per-id arrays that holds {@code size() + 1} ids, grown by doubling. */
    static int capacity(int current, int needed) {
        int c = Math.max(current, 16);
        while (c < needed) {
            c *= 2;
        }
        return c;
    }

    static long[] fit(long[] a, int needed) {
        return needed <= a.length ? a : Arrays.copyOf(a, capacity(a.length, needed));
    }

    static int[] fit(int[] a, int needed) {
        return needed <= a.length ? a : Arrays.copyOf(a, capacity(a.length, needed));
    }

    static byte[] fit(byte[] a, int needed) {
        return needed <= a.length ? a : Arrays.copyOf(a, capacity(a.length, needed));
    }
}
