package org.dsmscope.ciat.table;

/**
 * An open-addressing hash map from a page number (any non-negative {@code long}) to a dense slot number
 * 0, 1, 2, &hellip; in order of first insertion, with a one-entry cache for the last page looked up; pages below
 * 2^20 (addresses below 4 GiB, the usual case) are found through a two-level direct table instead of hashing
 * (one 4 KiB leaf per 4 MiB of address space touched) once the map holds {@value #DIRECT_AFTER} pages: a map of a
 * few pages (one per thread's access-age tracker, and threads may be thousands) stays a few hundred bytes. The per-byte
 * state of CIAT's analyses lives in arrays indexed by slot (seed 001 §5.1: "a hash table with an entry for each
 * accessed location"), so the hot path does one probe per access and allocates nothing. Not thread-safe.
 */
public final class PageMap {
    /** Entry i: key (page + 1; 0 = empty) at 2i, slot at 2i + 1: one cache line per probe. */
    private long[] tab;
    private int mask;
    private int size;
    private long lastKey = -1;
    private int lastVal = -1;
    private long[] pageOfSlot;
    /**
     * Pages below 2^20 (addresses below 4 GiB) are also found without hashing once the map holds
     * {@value #DIRECT_AFTER} pages (null before): slot + 1 at {@code direct[page >>> 10][page & 1023]} (0 = absent),
     * leaves of 1024 allocated on first use. Every page is in the hash table as well.
     */
    private int[][] direct;

    /** Pages held when the direct table is built. */
    static final int DIRECT_AFTER = 16;

    private static final int DIRECT_BITS = 20;
    private static final int LEAF_BITS = 10;
    private static final int LEAF = 1 << LEAF_BITS;

    /** An empty map. */
    public PageMap() {
        // small at first (grown on demand): one map per thread's access-age tracker, and threads may be thousands
        tab = new long[32];
        mask = 15;
        pageOfSlot = new long[8];
    }

    /** Number of pages (slots handed out). */
    public int size() {
        return size;
    }

    /** The page number held in {@code slot}. */
    public long page(int slot) {
        return pageOfSlot[slot];
    }

    /** The slot of {@code page}, or -1 if absent. */
    public int get(long page) {
        if (page == lastKey) {
            return lastVal;
        }
        if (page >>> DIRECT_BITS == 0 && direct != null) {
            int[] d = direct[(int) (page >>> LEAF_BITS)];
            int v = d == null ? 0 : d[(int) page & (LEAF - 1)];
            if (v == 0) {
                return -1;
            }
            lastKey = page;
            lastVal = v - 1;
            return v - 1;
        }
        long k = page + 1;
        int i = mix(k) & mask;
        while (true) {
            long kk = tab[2 * i];
            if (kk == k) {
                lastKey = page;
                lastVal = (int) tab[2 * i + 1];
                return lastVal;
            }
            if (kk == 0) {
                return -1;
            }
            i = (i + 1) & mask;
        }
    }

    /** The slot of {@code page}, adding it (as slot {@link #size()}) if absent. */
    public int getOrAdd(long page) {
        if (page == lastKey) {
            return lastVal;
        }
        if (page >>> DIRECT_BITS == 0 && direct != null) {
            int[] d = direct[(int) (page >>> LEAF_BITS)];
            if (d != null) {
                int v = d[(int) page & (LEAF - 1)];
                if (v != 0) {
                    lastKey = page;
                    lastVal = v - 1;
                    return v - 1;
                }
            }
        }
        long k = page + 1;
        int i = mix(k) & mask;
        while (true) {
            long kk = tab[2 * i];
            if (kk == k) {
                lastKey = page;
                lastVal = (int) tab[2 * i + 1];
                return lastVal;
            }
            if (kk == 0) {
                return add(i, k, page);
            }
            i = (i + 1) & mask;
        }
    }

    private int add(int i, long k, long page) {
        int slot = size++;
        tab[2 * i] = k;
        tab[2 * i + 1] = slot;
        if (slot == pageOfSlot.length) {
            pageOfSlot = java.util.Arrays.copyOf(pageOfSlot, slot * 2);
        }
        pageOfSlot[slot] = page;
        if (direct != null) {
            direct(page, slot);
        } else if (size == DIRECT_AFTER) {
            direct = new int[1 << (DIRECT_BITS - LEAF_BITS)][];
            for (int s = 0; s < size; s++) {
                direct(pageOfSlot[s], s);
            }
        }
        if (size * 2 > mask + 1) {
            grow();
        }
        lastKey = page;
        lastVal = slot;
        return slot;
    }

    /** Enters a page below 2^20 in the direct table (others are only hashed). */
    private void direct(long page, int slot) {
        if (page >>> DIRECT_BITS != 0) {
            return;
        }
        int[] d = direct[(int) (page >>> LEAF_BITS)];
        if (d == null) {
            d = new int[LEAF];
            direct[(int) (page >>> LEAF_BITS)] = d;
        }
        d[(int) page & (LEAF - 1)] = slot + 1;
    }

    private void grow() {
        long[] old = tab;
        tab = new long[old.length * 2];
        mask = (tab.length >> 1) - 1;
        for (int j = 0; j < old.length; j += 2) {
            if (old[j] != 0) {
                int i = mix(old[j]) & mask;
                while (tab[2 * i] != 0) {
                    i = (i + 1) & mask;
                }
                tab[2 * i] = old[j];
                tab[2 * i + 1] = old[j + 1];
            }
        }
    }

    /** Slots in increasing page order (for deterministic output). */
    public int[] slotsByPage() {
        Integer[] boxed = new Integer[size];
        for (int s = 0; s < size; s++) {
            boxed[s] = s;
        }
        java.util.Arrays.sort(boxed, (a, b) -> Long.compareUnsigned(pageOfSlot[a], pageOfSlot[b]));
        int[] out = new int[size];
        for (int s = 0; s < size; s++) {
            out[s] = boxed[s];
        }
        return out;
    }

    /** Bytes held by the map's own arrays (for memory figures). */
    public long footprintBytes() {
        long d = 0;
        if (direct != null) {
            d = direct.length * 8L;
            for (int[] leaf : direct) {
                d += leaf == null ? 0 : LEAF * 4L;
            }
        }
        return tab.length * 8L + pageOfSlot.length * 8L + d;
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }
}
