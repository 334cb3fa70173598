package org.dsmscope.ciat.table;

/**
 * Reader sets of the sparse location layout (more than 64 processors, see {@link LocationState}): R of seed 001
 * §5.4 for one location, in one {@code long}, so that a location costs two words whatever the processor count.
 *
 * <p>A set word is 0 (empty), an <em>inline</em> set (bit 63 clear) of up to {@value #INLINE} processors held as
 * processor + 1 in 15-bit fields from bit 0 up, in increasing order, the unused fields 0; or a <em>pooled</em> set
 * (bit 63 set): its size in bits 32&ndash;47 and the index of a block of &lceil;p / 64&rceil; bitmask words in a
 * growable pool in bits 0&ndash;30. A fifth reader moves an inline set to a block; {@link #release} returns the
 * block to a free list when a store empties the set, so the pool holds as many blocks as there are locations with
 * more than {@value #INLINE} readers at once. Members are visited in increasing order in both forms, as in a
 * bitmask. Not thread-safe.
 */
public final class ReaderSets {
    /** Processors an inline set holds at most. */
    public static final int INLINE = 4;
    /** Bit width of an inline field. */
    static final int FIELD = 15;
    /** Mask of an inline field. */
    static final long FIELD_MASK = (1L << FIELD) - 1;
    /** Marks a pooled set. */
    public static final long POOLED = 1L << 63;
    /** Shift of a pooled set's size. */
    static final int SIZE_SHIFT = 32;
    /** Most processors (15-bit fields hold processor + 1). */
    public static final int MAX_PROCESSORS = (int) FIELD_MASK;

    private final int words;
    private final int maxBlocks;
    private long[] pool;
    private int used;
    private int[] free = new int[16];
    private int freeCount;

    /** Reader sets over {@code processors} processors (1 to {@value #MAX_PROCESSORS}). */
    public ReaderSets(int processors) {
        if (processors < 1 || processors > MAX_PROCESSORS) {
            throw new IllegalArgumentException("processors out of range: " + processors);
        }
        this.words = (processors + 63) >>> 6;
        this.maxBlocks = (Integer.MAX_VALUE - 8) / words;
        this.pool = new long[words * 16];
    }

    /** Bitmask words of a pooled block. */
    public int blockWords() {
        return words;
    }

    /** The pool of blocks; re-read it after {@link #add}, which may grow it. */
    public long[] pool() {
        return pool;
    }

    /** The index in {@link #pool()} of a pooled set's first word. */
    public int base(long set) {
        return (int) set * words;
    }

    /** True if {@code cpu} is in {@code set}. */
    public boolean contains(long set, int cpu) {
        if (set < 0) {
            return (pool[base(set) + (cpu >>> 6)] & (1L << (cpu & 63))) != 0;
        }
        long v = cpu + 1;
        for (long s = set; s != 0; s >>>= FIELD) {
            if ((s & FIELD_MASK) == v) {
                return true;
            }
        }
        return false;
    }

    /** The number of processors in {@code set}. */
    public static int size(long set) {
        if (set < 0) {
            return (int) (set >>> SIZE_SHIFT) & 0xFFFF;
        }
        int n = 0;
        for (long s = set; s != 0; s >>>= FIELD) {
            n++;
        }
        return n;
    }

    /** {@code set} with {@code cpu} added (it must not be in it): the new set word, to be stored by the caller. */
    public long add(long set, int cpu) {
        if (set < 0) {
            pool[base(set) + (cpu >>> 6)] |= 1L << (cpu & 63);
            return set + (1L << SIZE_SHIFT);
        }
        int n = size(set);
        if (n < INLINE) {
            long v = cpu + 1;
            // insert in increasing order: fields below the insertion point stay, those above move up one field
            int k = 0;
            while (k < n && ((set >>> (k * FIELD)) & FIELD_MASK) < v) {
                k++;
            }
            long low = k == 0 ? 0 : set & ((1L << (k * FIELD)) - 1);
            long high = (set >>> (k * FIELD)) << ((k + 1) * FIELD);
            return low | (v << (k * FIELD)) | high;
        }
        int b = block();
        long[] p = pool;
        for (long s = set; s != 0; s >>>= FIELD) {
            int r = (int) (s & FIELD_MASK) - 1;
            p[b * words + (r >>> 6)] |= 1L << (r & 63);
        }
        p[b * words + (cpu >>> 6)] |= 1L << (cpu & 63);
        return POOLED | ((long) (n + 1) << SIZE_SHIFT) | b;
    }

    /** Frees a pooled set's block (its bits cleared); an inline set needs nothing. The set is then empty (0). */
    public void release(long set) {
        if (set >= 0) {
            return;
        }
        int b = base(set);
        java.util.Arrays.fill(pool, b, b + words, 0L);
        if (freeCount == free.length) {
            free = java.util.Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = (int) set;
    }

    /** The processor in inline field {@code k} of {@code set}, or -1 if the field is unused. */
    public static int inline(long set, int k) {
        return (int) ((set >>> (k * FIELD)) & FIELD_MASK) - 1;
    }

    /** Blocks in use (locations with a pooled set). */
    public int pooledSets() {
        return used - freeCount;
    }

    /** Bytes held by the pool and its free list. */
    public long footprintBytes() {
        return pool.length * 8L + free.length * 4L;
    }

    private int block() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (used == maxBlocks) {
            throw new IllegalStateException("location table: more than " + maxBlocks
                    + " locations with more than " + INLINE + " readers at once");
        }
        int b = used++;
        if ((long) used * words > pool.length) {
            long n = Math.min((long) pool.length * 2, (long) maxBlocks * words);
            pool = java.util.Arrays.copyOf(pool, (int) Math.max(n, (long) used * words));
        }
        return b;
    }
}
