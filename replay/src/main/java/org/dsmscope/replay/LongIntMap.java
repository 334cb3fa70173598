package org.dsmscope.replay;

import java.util.Arrays;

/**
 * Open-addressing map from long keys to non-negative int values (linear probing, no per-entry objects). Used for
 * the replay's synchronization objects and the sync-variable set (and the viewer's last writer per address), and
 * the work profile's pages ({@link WorkProfile}); {@link #get} returns -1 for a missing key.
 */
public final class LongIntMap implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private long[] keys;
    private int[] vals;
    private int size;
    private int mask;

    /** A map sized for {@code expected} keys (it grows past them). */
    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        vals = new int[cap];
        Arrays.fill(vals, -1);
        mask = cap - 1;
    }

    static int slot(long k, int mask) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47)) & mask;
    }

    /** The value of {@code key}, or -1. */
    public int get(long key) {
        for (int i = slot(key, mask);; i = (i + 1) & mask) {
            if (vals[i] < 0) {
                return -1;
            }
            if (keys[i] == key) {
                return vals[i];
            }
        }
    }

    /** Sets {@code key} to {@code value} (value must be &ge; 0). */
    public void put(long key, int value) {
        int i = entry(key); // before vals is read: entry may grow the table
        vals[i] = value;
    }

    /**
     * Adds {@code delta} (&ge; 0) to the value of {@code key}, which starts at 0 if it is missing; the sum stops at
     * {@link Integer#MAX_VALUE}.
     */
    void add(long key, int delta) {
        int i = entry(key);
        vals[i] = (int) Math.min(Integer.MAX_VALUE, (long) vals[i] + delta);
    }

    /** The index of {@code key}'s entry, made with value 0 if it is missing. */
    private int entry(long key) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        for (int i = slot(key, mask);; i = (i + 1) & mask) {
            if (vals[i] < 0) {
                keys[i] = key;
                vals[i] = 0;
                size++;
                return i;
            }
            if (keys[i] == key) {
                return i;
            }
        }
    }

    /** A key and its value ({@link #forEach}). */
    interface Entry {
        void accept(long key, int value);
    }

    /** Calls {@code f} with every key and its value, in table order (the same for the same insertions). */
    void forEach(Entry f) {
        for (int i = 0; i < keys.length; i++) {
            if (vals[i] >= 0) {
                f.accept(keys[i], vals[i]);
            }
        }
    }

    /** Calls {@code f} with every key. */
    void forEachKey(java.util.function.LongConsumer f) {
        for (int i = 0; i < keys.length; i++) {
            if (vals[i] >= 0) {
                f.accept(keys[i]);
            }
        }
    }

    int size() {
        return size;
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = vals;
        keys = new long[ok.length * 2];
        vals = new int[ok.length * 2];
        Arrays.fill(vals, -1);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ov[i] >= 0) {
                put(ok[i], ov[i]);
            }
        }
    }
}
