package org.dsmscope.replay;

import java.util.Arrays;

/**
 * Open-addressing map from long keys to long values; keys must not be {@link Long#MIN_VALUE}. Holds the clock at
 * which each (synchronization object, sequence number) wake-up or release was replayed.
 */
final class LongLongMap {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private long[] vals;
    private int size;
    private int mask;

    LongLongMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        vals = new long[cap];
        Arrays.fill(keys, EMPTY);
        mask = cap - 1;
    }

    /** True if {@code key} is present. */
    boolean contains(long key) {
        for (int i = LongIntMap.slot(key, mask);; i = (i + 1) & mask) {
            if (keys[i] == EMPTY) {
                return false;
            }
            if (keys[i] == key) {
                return true;
            }
        }
    }

    /** The value of {@code key}, or {@code dflt}. */
    long get(long key, long dflt) {
        for (int i = LongIntMap.slot(key, mask);; i = (i + 1) & mask) {
            if (keys[i] == EMPTY) {
                return dflt;
            }
            if (keys[i] == key) {
                return vals[i];
            }
        }
    }

    /** Sets {@code key} to {@code value}. */
    void put(long key, long value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        for (int i = LongIntMap.slot(key, mask);; i = (i + 1) & mask) {
            if (keys[i] == EMPTY) {
                keys[i] = key;
                vals[i] = value;
                size++;
                return;
            }
            if (keys[i] == key) {
                vals[i] = value;
                return;
            }
        }
    }

    private void grow() {
        long[] ok = keys;
        long[] ov = vals;
        keys = new long[ok.length * 2];
        vals = new long[ok.length * 2];
        Arrays.fill(keys, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != EMPTY) {
                put(ok[i], ov[i]);
            }
        }
    }
}
