package org.dsmscope.ciat.table;

/**
 * Per-byte-location state shared by CIAT's communication and memory-usage analyses (seed 001 §5.1: one entry per
 * accessed location): pages of 4096 locations found through a {@link PageMap}, each a {@code long[]}, so that one
 * location's state lies in one cache line.
 *
 * <p><b>Wide layout</b> (17 to 64 processors, or up to 64 processors and more than 4095 threads): {@link #stride()}
 * = 2 words per location. Word 0 holds packed fields (see the {@code *_SHIFT} constants); word 1 the communication
 * reader bitmask (one bit per processor).
 *
 * <p><b>Sparse layout</b> ({@link #sparse()}, more than 64 processors): two words per location as in the wide
 * layout, word 1 a {@link ReaderSets} set word (up to four readers inline, more in a pooled bitmask), so that a
 * location costs 16 bytes whatever the processor count; and a page's words are kept in {@value #CHUNKS} chunks of
 * {@value #CHUNK} locations ({@link #chunk}), each allocated when a location of it is first touched, so that a
 * thread that touches a few bytes of its own page (its stack) costs 4 KiB, not 64 KiB. Pages are still the
 * 4 KiB pages of the slots, partitions and memory usage records.
 *
 * <p><b>Packed layout</b> ({@link #packed()}, up to 16 processors and 4095 threads): one word per location, the
 * reader bitmask in bits 0&ndash;15, the writer + 1 in bits 16&ndash;20, the anchor in bit 21, the first thread
 * + 1 in bits 24&ndash;35, the other fields as in word 0 of the wide layout; and the words are kept per aligned
 * <em>group</em> of {@value #GROUP} locations: a page is {@value #GROUPS} words. A page starts <em>wide</em>:
 * {@value #WIDE_GROUPS} words, one per aligned group of {@value #WIDE} locations, uniform as below, while every access
 * of it covers whole groups of 8 (8-, 16-, 32- and 64-byte data aligned to 8: 1 byte of state per location); the
 * first access (or code fetch) that covers part of a group of 8 turns it into a page of groups of 4 ({@link #narrow}),
 * each taking its group of 8's word. The array's length tells the kind ({@link #groupShift}). A group word without the
 * {@link #SPLIT} bit is <em>uniform</em>: it is the word of the group's first location, and the other three hold
 * the same word without the fields that belong to one byte only ({@link #BYTE0_ONLY}: anchor, instruction start,
 * access count), which are zero there. Accesses that cover whole groups (aligned 4-, 8-, 16-, 32- and 64-byte
 * accesses, the usual ones) keep groups uniform, so they update one word per 4 bytes: 2 bytes of state per
 * location, four times as many locations per cache line as one word each. The first access that covers part of a
 * group <em>splits</em> it ({@link #split}): its four words move to a side table ({@link #side()}, four words per
 * entry) and the group word holds {@link #SPLIT} and the entry's index (bits 32&ndash;62); a split group stays
 * split. Results are exactly those of one word per location ({@link #word}). Not thread-safe.
 */
public final class LocationState {
    /** log2 of the page size. */
    public static final int PAGE_SHIFT = 12;
    /** Locations per page. */
    public static final int PAGE = 1 << PAGE_SHIFT;
    /** log2 of the locations per group (packed layout). */
    public static final int GROUP_SHIFT = 2;
    /** Locations per group (packed layout). */
    public static final int GROUP = 1 << GROUP_SHIFT;
    /** Group words per page (packed layout). */
    public static final int GROUPS = PAGE >> GROUP_SHIFT;
    /** log2 of the locations per group of a wide page (packed layout). */
    public static final int WIDE_SHIFT = 3;
    /** Locations per group of a wide page (packed layout). */
    public static final int WIDE = 1 << WIDE_SHIFT;
    /** Group words per wide page (packed layout). */
    public static final int WIDE_GROUPS = PAGE >> WIDE_SHIFT;

    /** Word 0, bits 0&ndash;15: last writer + 1 (0 = none). */
    public static final long WRITER_MASK = 0xFFFFL;
    /** Word 0, bit 16: anchor of the current write epoch. */
    public static final long ANCHOR = 1L << 16;
    /** Word 0, bits 20&ndash;35: first thread that touched the location + 1 (0 = untouched). */
    public static final int FIRST_SHIFT = 20;
    /** Mask of the first-thread field (after shifting). */
    public static final long FIRST_MASK = 0xFFFFL;
    /** Word 0, bit 36: touched by a data access. */
    public static final long DATA = 1L << 36;
    /** Word 0, bit 37: touched by an instruction fetch (the code bit). */
    public static final long CODE = 1L << 37;
    /** Word 0, bit 38: an instruction starts here. */
    public static final long INSN = 1L << 38;
    /** Word 0, bit 39: touched by more than one thread. */
    public static final long MULTI = 1L << 39;
    /** Word 0, bits 40&ndash;63: data accesses anchored at the location (saturating; the rest kept elsewhere). */
    public static final int COUNT_SHIFT = 40;
    /** The largest count word 0 holds. */
    public static final long COUNT_MAX = (1L << 24) - 1;
    /** Packed layout: reader bitmask (bits 0&ndash;15). */
    public static final long P_READERS = 0xFFFFL;
    /** Packed layout: shift of the writer + 1 field (5 bits). */
    public static final int P_WRITER_SHIFT = 16;
    /** Packed layout: writer field mask (after shifting). */
    public static final long P_WRITER_MASK = 0x1FL;
    /** Packed layout: anchor bit. */
    public static final long P_ANCHOR = 1L << 21;
    /** Packed layout, group word: the group is split; bits 32&ndash;62 hold its side-table entry. */
    public static final long SPLIT = 1L << 22;
    /** Packed layout: the fields a uniform group holds for its first location only. */
    public static final long BYTE0_ONLY = P_ANCHOR | INSN | (COUNT_MAX << COUNT_SHIFT);
    /** Packed layout: shift of the first-thread + 1 field (12 bits). */
    public static final int P_FIRST_SHIFT = 24;
    /** Packed layout: the most processors. */
    public static final int P_MAX_PROCESSORS = 16;
    /** Packed layout: the most threads. */
    public static final int P_MAX_THREADS = 4095;

    /** log2 of the locations per chunk (sparse layout). */
    public static final int CHUNK_SHIFT = 8;
    /** Locations per chunk (sparse layout). */
    public static final int CHUNK = 1 << CHUNK_SHIFT;
    /** Chunks per page (sparse layout). */
    public static final int CHUNKS = PAGE >> CHUNK_SHIFT;
    /** The most processors of the wide layout (one bitmask word); more take the sparse layout. */
    public static final int WIDE_MAX_PROCESSORS = 64;

    /** Most words of the side table: 2^28 split groups (8 GiB). */
    static final int MAX_SIDE = 1 << 30;

    private final PageMap pages = new PageMap();
    private final int stride;
    private final boolean packed;
    private final boolean sparse;
    private final int pageWords;
    private long[][] state = new long[64][];
    /** Sparse layout: per slot, its chunks (null until touched); else null. */
    private long[][][] chunks;
    /** Sparse layout: the reader sets; else null. */
    private final ReaderSets readers;
    /** Split groups (packed layout): four location words per entry. */
    private long[] side = new long[4 * 256];
    private int sideUsed;
    /** Words held by all page arrays (not the sparse layout's chunks). */
    private long pageWordsHeld;

    /** State for {@code processors} processors in the wide layout, or the sparse one above 64 processors. */
    public LocationState(int processors) {
        this(processors, Integer.MAX_VALUE);
    }

    /**
     * State for {@code processors} processors and {@code threads} threads: the packed layout (one word per
     * location, grouped) when they fit it, else the wide one up to 64 processors, else the sparse one.
     */
    public LocationState(int processors, int threads) {
        this.packed = processors <= P_MAX_PROCESSORS && threads <= P_MAX_THREADS;
        this.sparse = processors > WIDE_MAX_PROCESSORS;
        this.stride = packed ? 1 : 2;
        this.pageWords = packed ? GROUPS : sparse ? 0 : PAGE * stride;
        this.chunks = sparse ? new long[64][][] : null;
        this.readers = sparse ? new ReaderSets(processors) : null;
    }

    /** True in the packed layout (grouped words). */
    public boolean packed() {
        return packed;
    }

    /** True in the sparse layout (more than 64 processors: chunked pages, {@link ReaderSets} reader words). */
    public boolean sparse() {
        return sparse;
    }

    /** The reader sets of the sparse layout (null in the others). */
    public ReaderSets readers() {
        return readers;
    }

    /** Shift of the first-thread + 1 field in word 0. */
    public int firstShift() {
        return packed ? P_FIRST_SHIFT : FIRST_SHIFT;
    }

    /** Mask of the first-thread + 1 field in word 0 (in place). */
    public long firstMask() {
        return packed ? 0xFFFL << P_FIRST_SHIFT : FIRST_MASK << FIRST_SHIFT;
    }

    /** Words per location (wide and sparse layouts; 1 in the packed layout, whose pages hold group words). */
    public int stride() {
        return stride;
    }

    /** The slot of {@code page}, allocating its state on first use. */
    public int slot(long page) {
        int s = pages.getOrAdd(page);
        if (s == state.length) {
            state = java.util.Arrays.copyOf(state, s * 2);
            if (sparse) {
                chunks = java.util.Arrays.copyOf(chunks, s * 2);
            }
        }
        if (state[s] == null) {
            if (sparse) {
                chunks[s] = new long[CHUNKS][];
                state[s] = EMPTY;
            } else {
                int w = packed ? WIDE_GROUPS : pageWords;
                state[s] = new long[w];
                pageWordsHeld += w;
            }
        }
        return s;
    }

    /**
     * log2 of the locations per group word of packed page array {@code m}: {@value #WIDE_SHIFT} for a wide page,
     * {@value #GROUP_SHIFT} for a page of groups of 4.
     */
    public static int groupShift(long[] m) {
        return m.length == GROUPS ? GROUP_SHIFT : WIDE_SHIFT;
    }

    /**
     * The page array of slot {@code s} (packed layout) as {@value #GROUPS} groups of 4: a wide page is turned into
     * one first, each group of 8 giving its word to its two groups of 4 (the second without the fields of one byte,
     * {@link #BYTE0_ONLY}), so that every location's word stays what it was.
     */
    public long[] narrow(int s) {
        long[] m = state[s];
        if (m.length != WIDE_GROUPS) {
            return m;
        }
        long[] n = new long[GROUPS];
        for (int g = 0; g < WIDE_GROUPS; g++) {
            long w = m[g];
            n[g << 1] = w;
            n[(g << 1) + 1] = w & ~BYTE0_ONLY;
        }
        state[s] = n;
        pageWordsHeld += GROUPS - WIDE_GROUPS;
        return n;
    }

    /**
     * The page array of slot {@code s} (packed layout) for an access of locations {@code off .. off + n - 1} of it:
     * a wide page stays wide when they cover whole groups of 8, else it is {@link #narrow}ed first.
     */
    public long[] stateFor(int s, int off, int n) {
        long[] m = state[s];
        if (m.length == WIDE_GROUPS && ((off | n) & (WIDE - 1)) != 0) {
            return narrow(s);
        }
        return m;
    }

    private static final long[] EMPTY = new long[0];

    /** The slot of {@code page}, or -1 if the page has no state yet (allocates nothing). */
    public int findSlot(long page) {
        return pages.get(page);
    }

    /** The state array of {@code page}'s slot, or null if the page has no state yet (allocates nothing). */
    public long[] find(long page) {
        int s = pages.get(page);
        return s < 0 ? null : state[s];
    }

    /**
     * The state array of a slot (packed layout: {@value #WIDE_GROUPS} or {@value #GROUPS} group words, see
     * {@link #groupShift}; wide: stride words a location; sparse: empty, see {@link #chunk}).
     */
    public long[] state(int slot) {
        return state[slot];
    }

    /**
     * Sparse layout: the chunk of slot {@code slot} that holds location {@code off} of the page (two words per
     * location, at {@link #chunkIndex}), allocated on first use.
     */
    public long[] chunk(int slot, int off) {
        long[][] c = chunks[slot];
        long[] m = c[off >>> CHUNK_SHIFT];
        if (m == null) {
            m = new long[CHUNK * 2];
            c[off >>> CHUNK_SHIFT] = m;
        }
        return m;
    }

    /** Sparse layout: chunk {@code c} of slot {@code slot}, or null if no location of it was touched. */
    public long[] chunkIfAny(int slot, int c) {
        return chunks[slot][c];
    }

    /** Sparse layout: the index of location {@code off}'s word 0 in its {@link #chunk}. */
    public static int chunkIndex(int off) {
        return (off & (CHUNK - 1)) << 1;
    }

    /** The side table of split groups (packed layout); re-read it after {@link #split}, which may grow it. */
    public long[] side() {
        return side;
    }

    /**
     * Splits group {@code g} of page array {@code m} (packed layout, groups of 4: see {@link #narrow}) if it is
     * uniform, and returns the index in
     * {@link #side()} of its first location's word (its four words follow).
     */
    public int split(long[] m, int g) {
        long w = m[g];
        if ((w & SPLIT) != 0) {
            return (int) (w >>> 32) << GROUP_SHIFT;
        }
        int b = sideUsed << GROUP_SHIFT;
        if (b >= side.length) {
            if (side.length >= MAX_SIDE) {
                throw new IllegalStateException("location table: more than " + (MAX_SIDE >> GROUP_SHIFT)
                        + " split groups (bytes accessed in pieces smaller than their aligned group of "
                        + GROUP + ")");
            }
            side = java.util.Arrays.copyOf(side, Math.min(side.length * 2, MAX_SIDE));
        }
        int idx = sideUsed++;
        long rest = w & ~BYTE0_ONLY;
        side[b] = w;
        side[b + 1] = rest;
        side[b + 2] = rest;
        side[b + 3] = rest;
        m[g] = SPLIT | ((long) idx << 32);
        return b;
    }

    /**
     * Memory usage's mark on a location word touched by the thread whose first-thread field (in place, see
     * {@link #firstShift}) is {@code me}: the first thread if none yet, else MULTI if it differs; and {@code bit}
     * (DATA or CODE).
     */
    public static long mark(long w, long me, long firstField, long bit) {
        long t = w & firstField;
        if (t == 0) {
            return w | me | bit;
        }
        return w | ((t != me) ? (bit | MULTI) : bit);
    }

    /** The word of location {@code off} of a slot's page (any layout: word 0 in the wide and sparse ones). */
    public long word(int slot, int off) {
        if (sparse) {
            long[] c = chunks[slot][off >>> CHUNK_SHIFT];
            return c == null ? 0 : c[chunkIndex(off)];
        }
        long[] m = state[slot];
        if (!packed) {
            return m[off * stride];
        }
        int gs = groupShift(m);
        long w = m[off >> gs];
        if ((w & SPLIT) != 0) {
            return side[((int) (w >>> 32) << GROUP_SHIFT) + (off & (GROUP - 1))];
        }
        return (off & ((1 << gs) - 1)) == 0 ? w : w & ~BYTE0_ONLY;
    }

    /** Pages allocated. */
    public int pages() {
        return pages.size();
    }

    /** Split groups (packed layout). */
    public int splitGroups() {
        return sideUsed;
    }

    /** The page number of a slot. */
    public long pageNumber(int slot) {
        return pages.page(slot);
    }

    /** Slots in increasing page order. */
    public int[] slotsByPage() {
        return pages.slotsByPage();
    }

    /** Bytes of state held: page arrays (chunks and reader sets), the side table of split groups and the page map. */
    public long footprintBytes() {
        long b = pageWordsHeld * 8L + side.length * 8L + pages.footprintBytes() + state.length * 8L;
        if (sparse) {
            for (int s = 0; s < pages.size(); s++) {
                b += CHUNKS * 8L;
                for (long[] c : chunks[s]) {
                    b += c == null ? 0 : c.length * 8L;
                }
            }
            b += chunks.length * 8L + readers.footprintBytes();
        }
        return b;
    }
}
