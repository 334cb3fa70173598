package org.dsmscope.ciat.memory;

import java.io.IOException;
import java.io.Writer;
import org.dsmscope.ciat.table.LocationState;
import org.dsmscope.ciat.table.PageOwners;

/**
 * Memory usage (seed 000 §4.5, seed 001 §5.1 and §5.7): per byte location a code bit, a data bit, an
 * instruction-start bit, the first thread that touched it and whether another thread did; per page the same for
 * pages. Data and code accesses are attributed to the lowest byte of the access (its anchor) so that an access is
 * counted once; an access is "to a shared location" when its anchor byte is shared at the end of the run.
 *
 * <p>"Thread" here is the trace (thread or process) index: sharing of memory is between threads (seed 000 §4.5).
 * Synchronization variables are included (the memory usage file places pages; a lock's page is shared).
 * Layout: the flags and first thread live in word 0 of the shared {@link LocationState} (beside the
 * communication state; in the packed layout one word per aligned group of four locations while accesses cover
 * groups whole; in the sparse layout in chunks of 256 locations), with the data access count (saturating at 2^24 - 1, the rest in an overflow map); code access
 * counts in {@code int} arrays allocated per page on first fetch.
 * Not thread-safe.
 */
public final class MemoryUsage {
    /** Page size in bytes (the memory usage file's unit). */
    public static final int PAGE = LocationState.PAGE;
    private static final int PAGE_SHIFT = LocationState.PAGE_SHIFT;
    private static final long DATA = LocationState.DATA;
    private static final long CODE = LocationState.CODE;
    private static final long INSN = LocationState.INSN;
    private static final long MULTI = LocationState.MULTI;
    private static final int COUNT_SHIFT = LocationState.COUNT_SHIFT;
    private static final long COUNT_MAX = LocationState.COUNT_MAX;
    private static final long SPLIT = LocationState.SPLIT;
    private static final long BYTE0_ONLY = LocationState.BYTE0_ONLY;
    private static final int GROUP_SHIFT = LocationState.GROUP_SHIFT;
    private static final int GROUP = LocationState.GROUP;

    private final LocationState loc;
    private final int stride;
    private final boolean packed;
    private final boolean sparse;
    private final int firstShift;
    private final long firstMask;
    private final java.util.HashMap<Long, Long> countOverflow = new java.util.HashMap<>();
    private int[][] codeCount = new int[64][];
    private long dataBytesAccessed;
    private long zeroByteStores;
    private long fetchedInstructions;
    private int part;
    private int parts = 1;
    /** Owner of every page in a partitioned run, else null. */
    private PageOwners owners;

    /** Memory usage in its own location table. */
    public MemoryUsage() {
        this(new LocationState(1));
    }

    /** Memory usage in a shared location table. */
    public MemoryUsage(LocationState loc) {
        this.loc = loc;
        this.stride = loc.stride();
        this.packed = loc.packed();
        this.sparse = loc.sparse();
        this.firstShift = loc.firstShift();
        this.firstMask = loc.firstMask();
    }

    /**
     * Keeps only the 4 KiB pages of partition {@code part} of {@code parts} ({@code slotOwners}: the owner of each
     * page slot; index: page number mod its length, a power of two); partition 0 also keeps the totals that belong
     * to no page (bytes accessed, fetches, zero-byte stores).
     */
    public void partition(int part, int parts, short[] slotOwners) {
        partition(part, parts, PageOwners.ofSlots(slotOwners));
    }

    /** Keeps only the 4 KiB pages of partition {@code part} of {@code parts} ({@code owners}: the owner of each). */
    public void partition(int part, int parts, PageOwners owners) {
        this.part = part;
        this.parts = parts;
        this.owners = parts > 1 ? owners : null;
    }

    private boolean foreign(long page) {
        PageOwners o = owners;
        return o != null && o.owner(page) != part;
    }

    /** A data access of {@code size} bytes (0 for a zero-byte store) by {@code thread}. */
    public void data(int thread, long address, int size) {
        if (size <= 0) {
            if (part == 0) {
                zeroByteStores++;
            }
            return;
        }
        if (part == 0) {
            dataBytesAccessed += size;
        }
        int s = touch(thread, address, size, DATA);
        if (s < 0) {
            return;
        }
        int off = (int) (address & (PAGE - 1));
        long[] m;
        int i;
        if (sparse) {
            m = loc.chunk(s, off);
            i = LocationState.chunkIndex(off);
        } else {
            i = index(s, off);
            m = i >= 0 ? loc.state(s) : loc.side();
            i = i >= 0 ? i : -i - 1;
        }
        long w = m[i];
        if ((w >>> COUNT_SHIFT) != COUNT_MAX) {
            m[i] = w + (1L << COUNT_SHIFT);
        } else {
            countOverflow(address); // rare: more than 16 M accesses anchored at one byte
        }
    }

    /**
     * The totals of a data access of {@code size} &ge; 1 bytes whose location marks and count another pass over
     * the location words set ({@code Communication.accessTouching}).
     */
    public void dataTotals(int size) {
        if (part == 0) {
            dataBytesAccessed += size;
        }
    }

    /** One more data access anchored at {@code address} whose location word's count is full. */
    public void countOverflow(long address) {
        countOverflow.merge(address, 1L, Long::sum);
    }

    /**
     * A data access of {@code size} &ge; 1 bytes that lies wholly on another partition's page (partitioned runs):
     * only the totals that partition 0 keeps change.
     */
    public void foreignData(int size) {
        if (part == 0) {
            dataBytesAccessed += size;
        }
    }

    /** An instruction fetch of {@code size} bytes by {@code thread}. */
    public void code(int thread, long address, int size) {
        if (part == 0) {
            fetchedInstructions++;
        }
        codeOne(thread, address, Math.max(size, 1));
    }

    /** One fetched instruction of {@code n} &ge; 1 bytes, not counted in {@link #fetchedInstructions}. */
    private void codeOne(int thread, long address, int n) {
        int s = touch(thread, address, n, CODE);
        if (s >= 0) {
            instruction(s, (int) (address & (PAGE - 1)));
        }
    }

    /**
     * {@code count} instructions of {@code size} bytes fetched one after the other from {@code address} by {@code
     * thread}: the same as that many {@link #code} calls, with one page lookup per page instead of one per
     * instruction.
     */
    public void codeRun(int thread, long address, int count, int size) {
        if (part == 0) {
            fetchedInstructions += count;
        }
        int n = Math.max(size, 1);
        int off0 = (int) (address & (PAGE - 1));
        if (count > 0 && n < 256 && thread < (1 << 22) && off0 + (long) count * n <= PAGE) {
            // a run within one page: a run this thread fetched before changes no mark (they only ever add), so
            // it only counts its instructions again, added up per run and entered at the end (flushRuns)
            if (foreign(address >>> PAGE_SHIFT)) {
                return;
            }
            int e = runs.find(address, ((long) thread << 40) | ((long) count << 8) | n);
            if (e >= 0) {
                runs.reps[e]++;
                runsPending = true;
                return;
            }
        }
        long me = (long) (thread + 1) << firstShift;
        long a = address;
        int left = count;
        while (left > 0) {
            int off = (int) (a & (PAGE - 1));
            int fit = (PAGE - off) / n;
            if (fit == 0) {
                codeOne(thread, a, n); // an instruction across a page boundary
                a += n;
                left--;
                continue;
            }
            int k = Math.min(left, fit);
            if (!foreign(a >>> PAGE_SHIFT)) {
                int s = loc.slot(a >>> PAGE_SHIFT);
                for (int j = 0, o = off; j < k; j++, o += n) {
                    mark(s, me, o, n, CODE);
                    instruction(s, o);
                }
            }
            a += (long) k * n;
            left -= k;
        }
    }

    /**
     * Runs of instructions already marked (key: start address; thread, count and size), with the fetches of each
     * not yet added to {@link #codeCount}: a hot loop's runs are marked once per thread and counted in bulk.
     */
    private final RunTable runs = new RunTable();
    private boolean runsPending;

    /** Adds the repeated runs' fetches to the per-instruction counts (before anything reads them). */
    private void flushRuns() {
        runsPending = false;
        for (int e = 0; e < runs.capacity(); e++) {
            long reps = runs.reps[e];
            if (reps == 0) {
                continue;
            }
            runs.reps[e] = 0;
            long address = runs.address[e];
            long k = runs.key[e];
            int count = (int) ((k >>> 8) & 0xFFFFFFFFL);
            int n = (int) (k & 0xFF);
            int s = loc.slot(address >>> PAGE_SHIFT);
            for (int j = 0, o = (int) (address & (PAGE - 1)); j < count; j++, o += n) {
                codeCount[s][o] += (int) reps;
            }
        }
    }

    /**
     * An open-addressing table of instruction runs (address, key) inserted on first sight, with a repetition
     * count each; at most {@link #MAX} runs (then runs are no longer remembered and are marked each time).
     */
    static final class RunTable {
        static final int MAX = 1 << 20;
        long[] address = new long[256];
        long[] key = new long[256];
        long[] reps = new long[256];
        private boolean[] used = new boolean[256];
        private int size;

        int capacity() {
            return used.length;
        }

        /** The entry of (a, k), or -1 after inserting it (first sight) or when the table is full. */
        int find(long a, long k) {
            int mask = used.length - 1;
            int i = home(a, k, mask);
            while (used[i]) {
                if (address[i] == a && key[i] == k) {
                    return i;
                }
                i = (i + 1) & mask;
            }
            if (size >= MAX) {
                return -1;
            }
            used[i] = true;
            address[i] = a;
            key[i] = k;
            reps[i] = 0;
            if (++size * 2 > used.length) {
                grow();
            }
            return -1;
        }

        /** The first slot probed for (a, k). */
        private static int home(long a, long k, int mask) {
            long h = (a * 0x9E3779B97F4A7C15L) ^ (k * 0xC2B2AE3D27D4EB4FL);
            return (int) (h ^ (h >>> 29)) & mask;
        }

        private void grow() {
            long[] oa = address;
            long[] ok = key;
            long[] or = reps;
            boolean[] ou = used;
            address = new long[oa.length * 2];
            key = new long[oa.length * 2];
            reps = new long[oa.length * 2];
            used = new boolean[oa.length * 2];
            int mask = used.length - 1;
            for (int j = 0; j < ou.length; j++) {
                if (ou[j]) {
                    int i = home(oa[j], ok[j], mask);
                    while (used[i]) {
                        i = (i + 1) & mask;
                    }
                    used[i] = true;
                    address[i] = oa[j];
                    key[i] = ok[j];
                    reps[i] = or[j];
                }
            }
        }
    }

    /** Counts an instruction starting at offset {@code off} of the page in slot {@code s} (touched before). */
    private void instruction(int s, int off) {
        if (s >= codeCount.length) {
            codeCount = java.util.Arrays.copyOf(codeCount, Math.max(s + 1, codeCount.length * 2));
        }
        int[] cc = codeCount[s];
        if (cc == null) {
            cc = new int[PAGE];
            codeCount[s] = cc;
        }
        cc[off]++;
        if (sparse) {
            loc.chunk(s, off)[LocationState.chunkIndex(off)] |= INSN;
            return;
        }
        int i = index(s, off);
        if (i >= 0) {
            loc.state(s)[i] |= INSN;
        } else {
            loc.side()[-i - 1] |= INSN;
        }
    }

    /**
     * Where the word of location {@code off} of slot s is: an index into the page array, or -(index into the side
     * table) - 1. Called for the lowest byte of an access after {@link #touch}: in the packed layout that byte's
     * group is either split or starts there (an access that starts inside a group splits it).
     */
    private int index(int s, int off) {
        if (!packed) {
            return off * stride;
        }
        long[] m = loc.state(s);
        int g = off >>> LocationState.groupShift(m);
        long w = m[g];
        if ((w & SPLIT) != 0) {
            return -(((int) (w >>> 32) << GROUP_SHIFT) + (off & (GROUP - 1))) - 1;
        }
        return g;
    }

    /** Marks the bytes touched; returns the slot of the first byte's page, -1 if another partition owns it. */
    private int touch(int thread, long address, int size, long bit) {
        long me = (long) (thread + 1) << firstShift;
        long a = address;
        int rem = size;
        int firstSlot = -1;
        boolean first = true;
        while (rem > 0) {
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            if (foreign(a >>> PAGE_SHIFT)) {
                a += n;
                rem -= n;
                first = false;
                continue;
            }
            int s = loc.slot(a >>> PAGE_SHIFT);
            if (first) {
                firstSlot = s;
                first = false;
            }
            mark(s, me, off, n, bit);
            a += n;
            rem -= n;
        }
        return firstSlot;
    }

    /** Marks bytes off .. off + n - 1 (within one page) of the page in slot {@code s} as touched by {@code me}. */
    private void mark(int s, long me, int off, int n, long bit) {
        long firstField = firstMask;
        long[] m = loc.state(s);
        if (packed) {
            // whole groups in one word (a code page is kept in groups of 4, whose first locations hold the
            // instruction starts); a group covered in part is split and marked byte by byte
            m = bit == CODE ? loc.narrow(s) : loc.stateFor(s, off, n);
            int gs = LocationState.groupShift(m);
            int gz = 1 << gs;
            for (int x = off, e = off + n; x < e; ) {
                int g = x >>> gs;
                if ((m[g] & SPLIT) == 0 && (x & (gz - 1)) == 0 && x + gz <= e) {
                    m[g] = LocationState.mark(m[g], me, firstField, bit);
                    x += gz;
                } else {
                    int b = loc.split(m, g);
                    long[] sd = loc.side();
                    for (int end = Math.min(e, (g + 1) << GROUP_SHIFT); x < end; x++) {
                        int i = b + (x & (GROUP - 1));
                        sd[i] = LocationState.mark(sd[i], me, firstField, bit);
                    }
                }
            }
        } else if (sparse) {
            for (int x = off, e = off + n; x < e; ) {
                long[] c = loc.chunk(s, x);
                int end = Math.min(e, (x | (LocationState.CHUNK - 1)) + 1);
                for (int i = LocationState.chunkIndex(x), ie = i + ((end - x) << 1); i < ie; i += 2) {
                    c[i] = LocationState.mark(c[i], me, firstField, bit);
                }
                x = end;
            }
        } else {
            for (int i = off * stride, e = (off + n) * stride; i < e; i += stride) {
                m[i] = LocationState.mark(m[i], me, firstField, bit);
            }
        }
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
        /** The first-thread field (in place) of the touched locations, while they agree; 0 before the first. */
        long first;
        /** Touched by more than one thread (a location is, or two locations' first threads differ). */
        boolean multi;
    }

    /**
     * Fills {@code r} for the page in {@code slot}; false if no location of it was touched or the page is another
     * partition's (state this one kept before a live plan, see {@code Ciat}). The page's owner
     * follows from its locations: it is shared when a location is, or two locations have different first threads;
     * else its owner is the one first thread.
     */
    private boolean page(int slot, PageRecord r) {
        if (runsPending) {
            flushRuns();
        }
        if (foreign(loc.pageNumber(slot))) {
            return false; // state kept before a live plan gave the page to another partition
        }
        r.page = loc.pageNumber(slot);
        r.touched = 0;
        r.code = 0;
        r.shared = 0;
        r.dataAccesses = 0;
        r.codeAccesses = 0;
        r.sharedDataAccesses = 0;
        r.sharedCodeAccesses = 0;
        r.instructions = 0;
        r.first = 0;
        r.multi = false;
        long[] m = loc.state(slot);
        int[] cc = slot < codeCount.length ? codeCount[slot] : null;
        long pageBase = loc.pageNumber(slot) << PAGE_SHIFT;
        if (packed) {
            long[] sd = loc.side();
            int gs = LocationState.groupShift(m);
            for (int g = 0; g < m.length; g++) {
                long w = m[g];
                int i = g << gs;
                if ((w & SPLIT) != 0) {
                    int b = (int) (w >>> 32) << GROUP_SHIFT;
                    for (int k = 0; k < GROUP; k++) {
                        location(r, sd[b + k], cc, pageBase, i + k);
                    }
                } else if ((w & (DATA | CODE)) != 0) {
                    location(r, w, cc, pageBase, i);
                    for (int k = 1, z = 1 << gs; k < z; k++) {
                        location(r, w & ~BYTE0_ONLY, cc, pageBase, i + k);
                    }
                }
            }
        } else if (sparse) {
            for (int c = 0; c < LocationState.CHUNKS; c++) {
                long[] ch = loc.chunkIfAny(slot, c);
                for (int k = 0; ch != null && k < LocationState.CHUNK; k++) {
                    location(r, ch[k << 1], cc, pageBase, (c << LocationState.CHUNK_SHIFT) + k);
                }
            }
        } else {
            for (int i = 0; i < PAGE; i++) {
                location(r, m[i * stride], cc, pageBase, i);
            }
        }
        r.owner = r.multi ? -1 : (int) (r.first >>> firstShift) - 1;
        return r.touched > 0;
    }

    /** Adds location {@code i} of a page (word {@code b}) to its record. */
    private void location(PageRecord r, long b, int[] cc, long pageBase, int i) {
        if ((b & (DATA | CODE)) == 0) {
            return;
        }
        long d = b >>> COUNT_SHIFT;
        if (d == COUNT_MAX && !countOverflow.isEmpty()) {
            d += countOverflow.getOrDefault(pageBase + i, 0L);
        }
        int c = cc == null ? 0 : cc[i];
        r.touched++;
        long f = b & firstMask;
        if (r.first == 0) {
            r.first = f;
        } else if (f != r.first) {
            r.multi = true;
        }
        if ((b & CODE) != 0) {
            r.code++;
        }
        if ((b & INSN) != 0) {
            r.instructions++;
        }
        r.dataAccesses += d;
        r.codeAccesses += c;
        if ((b & MULTI) != 0) {
            r.multi = true;
            r.shared++;
            r.sharedDataAccesses += d;
            r.sharedCodeAccesses += c;
        }
    }

    /** The twenty figures of seed 000 §4.5, with {@code ranges} deciding range-shared pages. */
    public MemoryFigures figures(AddressRanges ranges) {
        MemoryFigures m = new MemoryFigures();
        long[] c = m.counts;
        PageRecord r = new PageRecord();
        long instructions = 0;
        for (int s = 0; s < loc.pages(); s++) {
            if (!page(s, r)) {
                continue;
            }
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
        m.dataBytesAccessed = dataBytesAccessed;
        m.fetchedInstructions = fetchedInstructions;
        m.instructionStarts = instructions;
        m.indices();
        return m;
    }

    /** Format name and version on the memory usage file's first line. */
    public static final String FORMAT = "dsmscope-memory 1";

    /**
     * Writes the memory usage file (format {@value #FORMAT}, documented in the module README): header lines
     * starting with {@code #}, then one record per touched page in increasing page order.
     */
    public void write(Writer out) throws IOException {
        header(out);
        PageRecord r = new PageRecord();
        StringBuilder sb = new StringBuilder(128);
        for (int s : loc.slotsByPage()) {
            if (!page(s, r)) {
                continue;
            }
            sb.setLength(0);
            sb.append(r.page).append(' ').append(r.touched).append(' ').append(r.code).append(' ')
                    .append(r.shared).append(' ').append(r.dataAccesses).append(' ').append(r.codeAccesses)
                    .append(' ').append(r.sharedDataAccesses).append(' ').append(r.sharedCodeAccesses).append(' ')
                    .append(r.owner).append('\n');
            out.write(sb.toString());
        }
    }

    /** The memory usage file's records of this partition's pages: {page, 8 fields}, in increasing page order. */
    public java.util.List<long[]> pageRows() {
        java.util.List<long[]> rows = new java.util.ArrayList<>();
        PageRecord r = new PageRecord();
        for (int s : loc.slotsByPage()) {
            if (!page(s, r)) {
                continue;
            }
            rows.add(new long[] {r.page, r.touched, r.code, r.shared, r.dataAccesses, r.codeAccesses,
                r.sharedDataAccesses, r.sharedCodeAccesses, r.owner});
        }
        return rows;
    }

    /** Writes the memory usage file from page rows (of one or several partitions, in any order). */
    public static void write(Writer out, java.util.List<long[]> rows) throws IOException {
        header(out);
        java.util.List<long[]> sorted = new java.util.ArrayList<>(rows);
        sorted.sort((x, y) -> Long.compareUnsigned(x[0], y[0]));
        StringBuilder sb = new StringBuilder(128);
        for (long[] r : sorted) {
            sb.setLength(0);
            for (int i = 0; i < r.length; i++) {
                sb.append(i == 0 ? "" : " ").append(r[i]);
            }
            sb.append('\n');
            out.write(sb.toString());
        }
    }

    private static void header(Writer out) throws IOException {
        out.write("# " + FORMAT + "\n");
        out.write("# page_size " + PAGE + "\n");
        out.write("# fields: page touched_bytes code_bytes shared_bytes data_accesses code_accesses"
                + " shared_data_accesses shared_code_accesses owner\n");
    }

    /** Touched pages. */
    public int pages() {
        return loc.pages();
    }
}
