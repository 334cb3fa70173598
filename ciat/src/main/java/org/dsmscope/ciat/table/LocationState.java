package org.dsmscope.ciat.table;

/**
 * Per-byte-location state shared by CIAT's communication and memory-usage analyses (seed 001 §5.1: one entry per
 * accessed location), interleaved so that one location's state lies in one cache line: pages of 4096 locations
 * found through a {@link PageMap}, each a {@code long[]} with {@link #stride()} words per location. Word 0 holds
 * packed fields (see the {@code *_SHIFT} constants); words 1..stride-1 the communication reader bitmask (one bit
 * per processor). Packed layout ({@link #packed()}, up to 16 processors and 4095 threads): one word per location,
 * the reader bitmask in bits 0&ndash;15, the writer + 1 in bits 16&ndash;20, the anchor in bit 21, the first thread
 * + 1 in bits 24&ndash;35, the other fields as in word 0 of the wide layout: half the memory per location, so
 * twice as many locations per cache line. Not thread-safe.
 */
public final class LocationState {
    /** log2 of the page size. */
    public static final int PAGE_SHIFT = 12;
    /** Locations per page. */
    public static final int PAGE = 1 << PAGE_SHIFT;

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
    /** Packed layout: shift of the first-thread + 1 field (12 bits). */
    public static final int P_FIRST_SHIFT = 24;
    /** Packed layout: the most processors. */
    public static final int P_MAX_PROCESSORS = 16;
    /** Packed layout: the most threads. */
    public static final int P_MAX_THREADS = 4095;

    private final PageMap pages = new PageMap();
    private final int stride;
    private final boolean packed;
    private long[][] state = new long[64][];

    /** State for {@code processors} processors in the wide layout (reader bitmask of ceil(p / 64) words). */
    public LocationState(int processors) {
        this(processors, Integer.MAX_VALUE);
    }

    /**
     * State for {@code processors} processors and {@code threads} threads: the packed layout (one word per
     * location) when they fit it, else the wide one.
     */
    public LocationState(int processors, int threads) {
        this.packed = processors <= P_MAX_PROCESSORS && threads <= P_MAX_THREADS;
        this.stride = packed ? 1 : 1 + ((processors + 63) >>> 6);
    }

    /** True in the packed layout (one word per location). */
    public boolean packed() {
        return packed;
    }

    /** Shift of the first-thread + 1 field in word 0. */
    public int firstShift() {
        return packed ? P_FIRST_SHIFT : FIRST_SHIFT;
    }

    /** Mask of the first-thread + 1 field in word 0 (in place). */
    public long firstMask() {
        return packed ? 0xFFFL << P_FIRST_SHIFT : FIRST_MASK << FIRST_SHIFT;
    }

    /** Words per location. */
    public int stride() {
        return stride;
    }

    /** The slot of {@code page}, allocating its state on first use. */
    public int slot(long page) {
        int s = pages.getOrAdd(page);
        if (s == state.length) {
            state = java.util.Arrays.copyOf(state, s * 2);
        }
        if (state[s] == null) {
            state[s] = new long[PAGE * stride];
        }
        return s;
    }

    /** The state array of a slot. */
    public long[] state(int slot) {
        return state[slot];
    }

    /** Pages allocated. */
    public int pages() {
        return pages.size();
    }

    /** The page number of a slot. */
    public long pageNumber(int slot) {
        return pages.page(slot);
    }

    /** Slots in increasing page order. */
    public int[] slotsByPage() {
        return pages.slotsByPage();
    }

    /** Bytes of state per page. */
    public long bytesPerPage() {
        return PAGE * 8L * stride;
    }
}
