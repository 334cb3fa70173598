package org.dsmscope.ciat.memory;

import java.io.IOException;
import java.io.Writer;
import org.dsmscope.ciat.table.PageMap;

/**
 * Memory usage (seed 000 §4.5, seed 001 §5.1 and §5.7): per byte location a code bit, a data bit, an
 * instruction-start bit, the first thread that touched it and whether another thread did; per page the same for
 * pages. Data and code accesses are attributed to the lowest byte of the access (its anchor) so that an access is
 * counted once; an access is "to a shared location" when its anchor byte is shared at the end of the run.
 *
 * <p>"Thread" here is the trace (thread or process) index: sharing of memory is between threads (seed 000 §4.5).
 * Synchronization variables are included (the memory usage file places pages; a lock's page is shared).
 * Layout: pages of 4096 locations through a {@link PageMap}; {@code byte} flags, {@code short} first thread,
 * {@code int} data and code access counts per location. Not thread-safe.
 */
public final class MemoryUsage {
    /** Page size in bytes (the memory usage file's unit). */
    public static final int PAGE = 4096;
    private static final int PAGE_SHIFT = 12;
    private static final int DATA = 1;
    private static final int CODE = 2;
    private static final int INSN = 4;
    private static final int MULTI = 8;

    private final PageMap pages = new PageMap();
    private byte[][] flags = new byte[64][];
    private short[][] first = new short[64][];
    private int[][] dataCount = new int[64][];
    private int[][] codeCount = new int[64][];
    private short[] pageFirst = new short[64];
    private boolean[] pageMulti = new boolean[64];
    private long dataBytesAccessed;
    private long zeroByteStores;
    private long fetchedInstructions;

    /** A data access of {@code size} bytes (0 for a zero-byte store) by {@code thread}. */
    public void data(int thread, long address, int size) {
        if (size <= 0) {
            zeroByteStores++;
            return;
        }
        dataBytesAccessed += size;
        touch(thread, address, size, DATA);
        int s = pages.get(address >>> PAGE_SHIFT);
        dataCount[s][(int) (address & (PAGE - 1))]++;
    }

    /** An instruction fetch of {@code size} bytes by {@code thread}. */
    public void code(int thread, long address, int size) {
        fetchedInstructions++;
        int n = Math.max(size, 1);
        touch(thread, address, n, CODE);
        int s = pages.get(address >>> PAGE_SHIFT);
        int off = (int) (address & (PAGE - 1));
        codeCount[s][off]++;
        flags[s][off] |= INSN;
    }

    private void touch(int thread, long address, int size, int bit) {
        short me = (short) (thread + 1);
        long a = address;
        int rem = size;
        while (rem > 0) {
            int s = slot(a >>> PAGE_SHIFT);
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            byte[] f = flags[s];
            short[] fs = first[s];
            for (int i = off, e = off + n; i < e; i++) {
                short t = fs[i];
                if (t == 0) {
                    fs[i] = me;
                    f[i] |= bit;
                } else {
                    f[i] |= (t != me) ? (bit | MULTI) : bit;
                }
            }
            if (pageFirst[s] == 0) {
                pageFirst[s] = me;
            } else if (pageFirst[s] != me) {
                pageMulti[s] = true;
            }
            a += n;
            rem -= n;
        }
    }

    private int slot(long page) {
        int s = pages.getOrAdd(page);
        if (s == flags.length) {
            int n = s * 2;
            flags = java.util.Arrays.copyOf(flags, n);
            first = java.util.Arrays.copyOf(first, n);
            dataCount = java.util.Arrays.copyOf(dataCount, n);
            codeCount = java.util.Arrays.copyOf(codeCount, n);
            pageFirst = java.util.Arrays.copyOf(pageFirst, n);
            pageMulti = java.util.Arrays.copyOf(pageMulti, n);
        }
        if (flags[s] == null) {
            flags[s] = new byte[PAGE];
            first[s] = new short[PAGE];
            dataCount[s] = new int[PAGE];
            codeCount[s] = new int[PAGE];
        }
        return s;
    }

    /** One page's record of the memory usage file. */
    public static final class PageRecord {
        /** Page number (address / 4096). */
        public long page;
        /** Touched bytes. */
        public long touched;
        /** Touched code bytes. */
        public long code;
        /** Shared bytes (touched by more than one thread). */
        public long shared;
        /** Data accesses. */
        public long dataAccesses;
        /** Code accesses. */
        public long codeAccesses;
        /** Data accesses to shared locations. */
        public long sharedDataAccesses;
        /** Code accesses to shared locations. */
        public long sharedCodeAccesses;
        /** The owning thread of a private page; -1 for a shared page. */
        public int owner;
        /** Touched instruction starts. */
        long instructions;
    }

    /** Fills {@code r} for the page in {@code slot}. */
    private void page(int slot, PageRecord r) {
        r.page = pages.page(slot);
        r.touched = 0;
        r.code = 0;
        r.shared = 0;
        r.dataAccesses = 0;
        r.codeAccesses = 0;
        r.sharedDataAccesses = 0;
        r.sharedCodeAccesses = 0;
        r.instructions = 0;
        byte[] f = flags[slot];
        int[] dc = dataCount[slot];
        int[] cc = codeCount[slot];
        for (int i = 0; i < PAGE; i++) {
            int b = f[i];
            if (b == 0) {
                continue;
            }
            r.touched++;
            if ((b & CODE) != 0) {
                r.code++;
            }
            if ((b & INSN) != 0) {
                r.instructions++;
            }
            r.dataAccesses += dc[i];
            r.codeAccesses += cc[i];
            if ((b & MULTI) != 0) {
                r.shared++;
                r.sharedDataAccesses += dc[i];
                r.sharedCodeAccesses += cc[i];
            }
        }
        r.owner = pageMulti[slot] ? -1 : pageFirst[slot] - 1;
    }

    /** The twenty figures of seed 000 §4.5, with {@code ranges} deciding range-shared pages. */
    public MemoryFigures figures(AddressRanges ranges) {
        MemoryFigures m = new MemoryFigures();
        long[] c = m.counts;
        PageRecord r = new PageRecord();
        long instructions = 0;
        for (int s = 0; s < pages.size(); s++) {
            page(s, r);
            boolean shared = r.owner < 0;
            boolean range = shared || ranges.inSharedRange(r.page << PAGE_SHIFT);
            c[0]++;
            c[1] += shared ? 1 : 0;
            c[2] += range ? 1 : 0;
            c[3] += r.touched;
            c[4] += r.touched - r.code;
            c[5] += r.code;
            c[6] += r.shared;
            c[7] += shared ? r.touched : 0;
            c[8] += range ? r.touched : 0;
            c[10] += r.dataAccesses;
            c[11] += r.sharedDataAccesses;
            c[12] += shared ? r.dataAccesses : 0;
            c[13] += range ? r.dataAccesses : 0;
            c[14] += r.codeAccesses;
            c[15] += r.sharedCodeAccesses;
            c[16] += shared ? r.codeAccesses : 0;
            c[17] += range ? r.codeAccesses : 0;
            instructions += r.instructions;
        }
        c[10] += zeroByteStores;
        c[9] = c[10] + c[14];
        m.dataLocalityIndex = c[4] == 0 ? 0 : (double) dataBytesAccessed / c[4];
        m.codeLocalityIndex = instructions == 0 ? 0 : (double) fetchedInstructions / instructions;
        return m;
    }

    /** Format name and version on the memory usage file's first line. */
    public static final String FORMAT = "dsmscope-memory 1";

    /**
     * Writes the memory usage file (format {@value #FORMAT}, documented in the module README): header lines
     * starting with {@code #}, then one record per touched page in increasing page order.
     */
    public void write(Writer out) throws IOException {
        out.write("# " + FORMAT + "\n");
        out.write("# page_size " + PAGE + "\n");
        out.write("# fields: page touched_bytes code_bytes shared_bytes data_accesses code_accesses"
                + " shared_data_accesses shared_code_accesses owner\n");
        PageRecord r = new PageRecord();
        StringBuilder sb = new StringBuilder(128);
        for (int s : pages.slotsByPage()) {
            page(s, r);
            sb.setLength(0);
            sb.append(r.page).append(' ').append(r.touched).append(' ').append(r.code).append(' ')
                    .append(r.shared).append(' ').append(r.dataAccesses).append(' ').append(r.codeAccesses)
                    .append(' ').append(r.sharedDataAccesses).append(' ').append(r.sharedCodeAccesses).append(' ')
                    .append(r.owner).append('\n');
            out.write(sb.toString());
        }
    }

    /** Touched pages. */
    public int pages() {
        return pages.size();
    }

    /** Bytes of state per touched page. */
    public static long bytesPerPage() {
        return PAGE * (1L + 2 + 4 + 4);
    }
}
