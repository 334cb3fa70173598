package org.dsmscope.ciat.comm;

import org.dsmscope.ciat.table.LocationState;
import org.dsmscope.ciat.table.PageOwners;
import org.dsmscope.ciat.table.ReaderSets;

/**
 * Inherent communication per byte location (seed 000 §4.4, seed 001 §5.4 and §5.6), exactly as SPEC §5 defines
 * it. Per location: W, the last writer (none before the first store), and R, the set of processors other than W
 * that loaded the location since the last store (since the start if never stored); plus an anchor bit marking the
 * lowest byte of the store that opened the current write epoch, on which the sharing degree is counted.
 *
 * <ul>
 * <li>load by P, stored before: P &ne; W and P &notin; R &rarr; RAW; add P to R.
 * <li>load by P, never stored: P &notin; R and R &ne; &empty; &rarr; RAR; add P to R (the first reader too).
 * <li>store by P: L = R \ {P}; L &ne; &empty; &rarr; WAR of degree |L|; else W exists and W &ne; P &rarr; WAW.
 *     Then W = P, R = &empty;.
 * <li>S[|R|] += 1 when a store closes an epoch (or at {@link #finish}) with |R| &ge; 1, on the anchor byte only.
 * <li>An access counts once: a load is RAW if any byte is, else RAR if any is; a store WAR if any byte is, else
 *     WAW; its invalidation degree is the largest |L| among its bytes. COMM_MAT gets 1 for each distinct pair
 *     (W, P) of a RAW or WAW byte and (P, j), j &isin; L, of a WAR byte.
 * </ul>
 *
 * <p>State layout: the shared {@link LocationState} (one {@code long[]} per page of 4096 locations). Packed
 * layout (≤ 16 processors), here: one word per location with readers, writer and anchor, kept per aligned group of
 * four locations while the accesses cover groups whole (see {@link LocationState}). Wide layout (17 to 64
 * processors) and sparse layout (more than 64, {@link ReaderSets} words): two words per location, in
 * {@link TwoWordLayouts}. The pairs of COMM_MAT are counted once per access by {@link AccessPairs}. No allocation
 * per access (a split group may grow the side table). Not thread-safe.
 */
public final class Communication {
    private static final int PAGE_SHIFT = LocationState.PAGE_SHIFT;
    private static final int PAGE = LocationState.PAGE;
    private static final long P_READERS = LocationState.P_READERS;
    private static final int P_WRITER_SHIFT = LocationState.P_WRITER_SHIFT;
    private static final long P_WRITER = LocationState.P_WRITER_MASK << P_WRITER_SHIFT;
    private static final long P_ANCHOR = LocationState.P_ANCHOR;
    private static final long SPLIT = LocationState.SPLIT;
    private static final int GROUP_SHIFT = LocationState.GROUP_SHIFT;
    private static final int GROUP = LocationState.GROUP;
    private static final long DATA = LocationState.DATA;
    private static final long P_FIRST = 0xFFFL << LocationState.P_FIRST_SHIFT;
    private static final int COUNT_SHIFT = LocationState.COUNT_SHIFT;
    private static final long COUNT_MAX = LocationState.COUNT_MAX;

    private final int processors;
    private final int words;
    private final LocationState loc;
    private final boolean packed;
    /** The current access's COMM_MAT pairs, each counted once. */
    private final AccessPairs pairs;
    /** The wide and sparse layouts' byte-by-byte rules (null in the packed layout). */
    private final TwoWordLayouts twoWord;
    private final PairCounts scratch;
    private int part;
    private int parts = 1;
    /** Owner of every page in a partitioned run, else null. */
    private PageOwners owners;
    /** Packed layout, {@link #accessTouching}: the accessing thread's first-thread field (0: no memory usage). */
    private long touchMe;
    /** {@link #accessTouching}: the access's count did not fit its anchor word. */
    private boolean countFull;

    /** Communication state for {@code processors} processors, in its own location table. */
    public Communication(int processors) {
        this(processors, new LocationState(processors));
    }

    /** Communication state for {@code processors} processors in a shared location table. */
    public Communication(int processors, LocationState loc) {
        if (processors < 1 || processors > 32767) {
            throw new IllegalArgumentException("processors out of range: " + processors);
        }
        this.processors = processors;
        this.words = (processors + 63) >>> 6;
        this.loc = loc;
        this.packed = loc.packed();
        ReaderSets readers = loc.readers();
        if (packed ? processors > LocationState.P_MAX_PROCESSORS
                : words == 1 ? loc.sparse() : readers == null || readers.blockWords() != words) {
            throw new IllegalArgumentException("location table sized for another processor count");
        }
        this.pairs = new AccessPairs(processors);
        this.twoWord = packed ? null : new TwoWordLayouts(this, loc, words, pairs);
        this.scratch = new PairCounts(processors);
    }

    /**
     * Keeps state only for the 4 KiB pages of partition {@code part} of {@code parts} in a partitioned replay (those
     * of the page slots {@code slotOwners} gives it; index: page number mod its length, a power of two); bytes on
     * other pages are skipped.
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

    /** True if {@code page} is another partition's. */
    boolean foreign(long page) {
        PageOwners o = owners;
        return o != null && o.owner(page) != part;
    }

    /** Number of byte locations with communication state (data locations touched). */
    public long locations() {
        return (long) loc.pages() * PAGE;
    }

    /** Pages with state. */
    public int pages() {
        return loc.pages();
    }

    /**
     * One data access by processor {@code cpu}; updates location state and {@code st}; reports the access's event
     * (if any) to {@code sink} (may be null). Returns the event type or -1.
     */
    public int access(int cpu, long clock, boolean store, long address, int size, CommStats st, CommEventSink sink) {
        if (size <= 0) {
            return -1;
        }
        int result = raw(cpu, store, address, size, st, st.matrix);
        int type;
        int degree = 0;
        if (store) {
            if (result > 0) {
                st.war++;
                st.invalidation[result]++;
                type = CommEventSink.WAR;
                degree = result;
            } else if (result < 0) {
                st.waw++;
                type = CommEventSink.WAW;
                degree = 1;
            } else {
                return -1;
            }
        } else {
            if (result == 2) {
                st.raw++;
                type = CommEventSink.RAW;
            } else if (result == 1) {
                st.rar++;
                type = CommEventSink.RAR;
            } else {
                return -1;
            }
        }
        if (sink != null) {
            sink.event(clock, type, cpu, degree);
        }
        return type;
    }

    /**
     * {@link #access}, and in the same pass over the location words the data-access marks of memory usage for
     * thread {@code thread} (packed layout only, see {@link #fuses}; partitioned: only for an access on one page of
     * this partition): the first thread, DATA and MULTI bits of each byte and the access count of its lowest byte,
     * exactly as {@code MemoryUsage.data} would set them, which must not be called for this access as well. Returns false if the count did not fit the location word (the
     * caller counts it in memory usage's overflow map).
     */
    public boolean accessTouching(int cpu, int thread, long clock, boolean store, long address, int size,
            CommStats st, CommEventSink sink) {
        return accessTouching(-1, cpu, thread, clock, store, address, size, st, sink);
    }

    /**
     * {@link #accessTouching}, given the slot of the access's page when the caller has looked it up already
     * ({@link HeldAccesses}' first loop; packed layout), or -1.
     */
    boolean accessTouching(int slot, int cpu, int thread, long clock, boolean store, long address, int size,
            CommStats st, CommEventSink sink) {
        int off = (int) address & (PAGE - 1);
        if (packed && (size == 8 || size == 4) && (off & (GROUP - 1)) == 0 && off + size <= PAGE
                && !foreign(address >>> PAGE_SHIFT)) {
            // The common case (aligned 4- and 8-byte accesses, groups not split): one or two group words at once
            // (an aligned 8-byte access on a wide page: one).
            long[] m = loc.stateFor(slot >= 0 ? slot : loc.slot(address >>> PAGE_SHIFT), off, size);
            int gs = LocationState.groupShift(m);
            int g = off >>> gs;
            int h = (off + size - 1) >>> gs;
            if (((m[g] | m[h]) & SPLIT) == 0) {
                return store ? storeWords(m, g, h, cpu, thread, clock, st, sink)
                        : loadWords(m, g, h, cpu, thread, clock, st, sink);
            }
        }
        touchMe = (long) (thread + 1) << LocationState.P_FIRST_SHIFT;
        countFull = false;
        access(cpu, clock, store, address, size, st, sink);
        touchMe = 0;
        return !countFull;
    }

    /**
     * A load of whole unsplit group words g..h (h = g or g + 1) of page array m with memory usage's marks, as
     * {@link #accessTouching} through {@link #loadAt} would do it: returns false if the count is full.
     */
    private boolean loadWords(long[] m, int g, int h, int cpu, int thread, long clock, CommStats st,
            CommEventSink sink) {
        long me = (long) (thread + 1) << LocationState.P_FIRST_SHIFT;
        long bit = 1L << cpu;
        long w = LocationState.mark(m[g], me, P_FIRST, DATA);
        boolean fits = (w >>> COUNT_SHIFT) != COUNT_MAX;
        if (fits) {
            w += 1L << COUNT_SHIFT;
        }
        int r = 0;
        int wr0 = -1;
        if ((w & bit) == 0) {
            int wr = (int) ((w & P_WRITER) >>> P_WRITER_SHIFT) - 1;
            if (wr < 0) {
                r = (w & P_READERS) != 0 ? 1 : 0;
                w |= bit;
            } else if (wr != cpu) {
                r = 2;
                wr0 = wr;
                st.matrix.increment(wr * processors + cpu);
                w |= bit;
            }
        }
        m[g] = w;
        if (h != g) {
            w = LocationState.mark(m[h], me, P_FIRST, DATA);
            if ((w & bit) == 0) {
                int wr = (int) ((w & P_WRITER) >>> P_WRITER_SHIFT) - 1;
                if (wr < 0) {
                    if ((w & P_READERS) != 0 && r == 0) {
                        r = 1;
                    }
                    w |= bit;
                } else if (wr != cpu) {
                    r = 2;
                    if (wr != wr0) {
                        st.matrix.increment(wr * processors + cpu);
                    }
                    w |= bit;
                }
            }
            m[h] = w;
        }
        if (r == 2) {
            st.raw++;
            if (sink != null) {
                sink.event(clock, CommEventSink.RAW, cpu, 0);
            }
        } else if (r == 1) {
            st.rar++;
            if (sink != null) {
                sink.event(clock, CommEventSink.RAR, cpu, 0);
            }
        }
        return fits;
    }

    /**
     * A store to whole unsplit group words g..h (h = g or g + 1) with memory usage's marks, as
     * {@link #accessTouching} through {@link #storeAt} would do it: returns false if the count is full.
     */
    private boolean storeWords(long[] m, int g, int h, int cpu, int thread, long clock, CommStats st,
            CommEventSink sink) {
        long me = (long) (thread + 1) << LocationState.P_FIRST_SHIFT;
        long bit = 1L << cpu;
        long set = (long) (cpu + 1) << P_WRITER_SHIFT;
        long w0 = LocationState.mark(m[g], me, P_FIRST, DATA);
        boolean fits = (w0 >>> COUNT_SHIFT) != COUNT_MAX;
        if (fits) {
            w0 += 1L << COUNT_SHIFT;
        }
        long w1 = h != g ? LocationState.mark(m[h], me, P_FIRST, DATA) : 0;
        long rr0 = w0 & P_READERS;
        long rr1 = w1 & P_READERS;
        if ((w0 & P_ANCHOR) != 0 && rr0 != 0) {
            st.sharing[Long.bitCount(rr0)]++;
        }
        if ((w1 & P_ANCHOR) != 0 && rr1 != 0) {
            st.sharing[Long.bitCount(rr1)]++;
        }
        long l0 = rr0 & ~bit;
        long l1 = rr1 & ~bit;
        int wr0 = (int) ((w0 & P_WRITER) >>> P_WRITER_SHIFT) - 1;
        int wr1 = (int) ((w1 & P_WRITER) >>> P_WRITER_SHIFT) - 1;
        // a byte without other readers whose writer is another processor is a WAW byte
        boolean waw0 = l0 == 0 && wr0 >= 0 && wr0 != cpu;
        boolean waw1 = l1 == 0 && wr1 >= 0 && wr1 != cpu;
        m[g] = (w0 & ~(P_READERS | P_WRITER | P_ANCHOR)) | set | P_ANCHOR;
        if (h != g) {
            m[h] = (w1 & ~(P_READERS | P_WRITER | P_ANCHOR)) | set;
        }
        PairCounts mat = st.matrix;
        long l = l0 | l1;
        while (l != 0) {
            int j = Long.numberOfTrailingZeros(l);
            l &= l - 1;
            mat.increment(cpu * processors + j);
        }
        if (waw0) {
            mat.increment(wr0 * processors + cpu);
        }
        if (waw1 && !(waw0 && wr1 == wr0)) {
            mat.increment(wr1 * processors + cpu);
        }
        int d = Math.max(Long.bitCount(l0), Long.bitCount(l1));
        if (d > 0) {
            st.war++;
            st.invalidation[d]++;
            if (sink != null) {
                sink.event(clock, CommEventSink.WAR, cpu, d);
            }
        } else if (waw0 || waw1) {
            st.waw++;
            if (sink != null) {
                sink.event(clock, CommEventSink.WAW, cpu, 1);
            }
        }
        return fits;
    }

    /**
     * True if {@link #accessTouching} may be used: the packed layout (in a partitioned replay, for accesses that lie
     * wholly on this partition's page).
     */
    public boolean fuses() {
        return packed;
    }

    /** A packed word with the memory-usage marks of {@link #accessTouching} applied (none outside it). */
    private long touched(long w, boolean first) {
        long me = touchMe;
        if (me == 0) {
            return w;
        }
        w = LocationState.mark(w, me, P_FIRST, DATA);
        if (first) {
            if ((w >>> COUNT_SHIFT) != COUNT_MAX) {
                w += 1L << COUNT_SHIFT;
            } else {
                countFull = true;
            }
        }
        return w;
    }

    /** Updates the bytes' state; returns the per-access result code (see the load and store methods). */
    private int raw(int cpu, boolean store, long address, int size, CommStats st, PairCounts mat) {
        pairs.start(mat);
        if (packed) {
            return store ? storeP(cpu, address, size, st) : loadP(cpu, address, size, st);
        }
        TwoWordLayouts t = twoWord;
        return store ? (words == 1 ? t.store1(cpu, address, size, st) : t.storeS(cpu, address, size, st))
                : (words == 1 ? t.load1(cpu, address, size, st) : t.loadS(cpu, address, size, st));
    }

    /**
     * An access in a partitioned replay whose bytes lie on pages of several partitions: updates this partition's
     * bytes (sharing degrees go to {@code st}) and returns its partial result for {@link PartialLog} instead of
     * counting the access: load 2 = RAW byte seen, 1 = RAR byte seen, 0 = none; store the largest |L| of a WAR
     * byte, -1 = WAW byte, 0 = none. The COMM_MAT pairs of this partition's bytes are added to {@code log}.
     */
    public int accessPartial(int cpu, boolean store, long address, int size, CommStats st, PartialLog log) {
        int result = raw(cpu, store, address, size, st, scratch);
        scratch.forEach((k, n) -> log.pair(k));
        scratch.clear();
        return result;
    }

    /**
     * Load, packed layout (≤ 16 processors, grouped words); as {@link #load1}. A group the access covers whole is
     * updated in its one word; a group it covers in part is split and its bytes updated one by one.
     */
    private int loadP(int cpu, long address, int size, CommStats st) {
        long bit = 1L << cpu;
        int result = 0;
        boolean first = true;
        long a = address;
        int rem = size;
        while (rem > 0) {
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            if (foreign(a >>> PAGE_SHIFT)) {
                a += n;
                rem -= n;
                continue;
            }
            long[] m = loc.stateFor(loc.slot(a >>> PAGE_SHIFT), off, n);
            int gs = LocationState.groupShift(m);
            int gz = 1 << gs;
            for (int x = off, e = off + n; x < e; ) {
                int g = x >>> gs;
                if ((m[g] & SPLIT) == 0 && (x & (gz - 1)) == 0 && x + gz <= e) {
                    result = loadAt(m, g, cpu, bit, result, first);
                    first = false;
                    x += gz;
                } else {
                    int end = Math.min(e, (g + 1) << GROUP_SHIFT);
                    result = loadSplit(m, g, x, end, cpu, bit, result, first);
                    first = false;
                    x = end;
                }
            }
            a += n;
            rem -= n;
        }
        return result;
    }

    /**
     * Locations x..end-1 (one group, g) loaded by cpu, one by one in the side table (the group is split first if
     * it is uniform): the load's result so far, updated. Kept out of {@link #loadP} so that the common path stays
     * small enough to be compiled inline.
     */
    private int loadSplit(long[] m, int g, int x, int end, int cpu, long bit, int result, boolean first) {
        int b = loc.split(m, g);
        long[] sd = loc.side();
        int r = result;
        boolean f = first;
        for (int i = x; i < end; i++) {
            r = loadAt(sd, b + (i & (GROUP - 1)), cpu, bit, r, f);
            f = false;
        }
        return r;
    }

    /** Locations x..end-1 of group g stored by cpu in the side table, as {@link #loadSplit} for stores. */
    private int storeSplit(long[] m, int g, int x, int end, int cpu, long bit, long me, long anchor, int r,
            CommStats st) {
        int b = loc.split(m, g);
        long[] sd = loc.side();
        long a = anchor;
        int res = r;
        for (int i = x; i < end; i++) {
            res = storeAt(sd, b + (i & (GROUP - 1)), cpu, bit, me | a, res, st, a != 0);
            a = 0;
        }
        return res;
    }

    /**
     * One packed location word (or uniform group) loaded by cpu ({@code first}: the access's lowest byte): the
     * load's result so far, updated.
     */
    private int loadAt(long[] m, int i, int cpu, long bit, int result, boolean first) {
        long w = touched(m[i], first);
        if ((w & bit) != 0) {
            m[i] = w;
            return result;
        }
        int wr = (int) ((w & P_WRITER) >>> P_WRITER_SHIFT) - 1;
        if (wr >= 0) {
            if (wr != cpu) {
                pairs.pair(wr, cpu);
                m[i] = w | bit;
                return 2;
            }
            m[i] = w;
            return result;
        }
        m[i] = w | bit;
        return (w & P_READERS) != 0 && result == 0 ? 1 : result;
    }

    /** Store, packed layout; as {@link #store1}, grouped as {@link #loadP}. */
    private int storeP(int cpu, long address, int size, CommStats st) {
        long bit = 1L << cpu;
        int r = 0;
        long me = (long) (cpu + 1) << P_WRITER_SHIFT;
        long a = address;
        int rem = size;
        long anchor = P_ANCHOR;
        while (rem > 0) {
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            if (foreign(a >>> PAGE_SHIFT)) {
                a += n;
                rem -= n;
                anchor = 0;
                continue;
            }
            long[] m = loc.stateFor(loc.slot(a >>> PAGE_SHIFT), off, n);
            int gs = LocationState.groupShift(m);
            int gz = 1 << gs;
            for (int x = off, e = off + n; x < e; ) {
                int g = x >>> gs;
                if ((m[g] & SPLIT) == 0 && (x & (gz - 1)) == 0 && x + gz <= e) {
                    r = storeAt(m, g, cpu, bit, me | anchor, r, st, anchor != 0);
                    anchor = 0;
                    x += gz;
                } else {
                    int end = Math.min(e, (g + 1) << GROUP_SHIFT);
                    r = storeSplit(m, g, x, end, cpu, bit, me, anchor, r, st);
                    anchor = 0;
                    x = end;
                }
            }
            a += n;
            rem -= n;
        }
        return r;
    }

    /**
     * One packed location word (or uniform group) stored by cpu, {@code set} the new writer field and anchor;
     * {@code r} the store's result so far (the largest |L| of a WAR byte, else -1 after a WAW byte, else 0),
     * updated.
     */
    private int storeAt(long[] m, int i, int cpu, long bit, long set, int r, CommStats st, boolean first) {
        long w = touched(m[i], first);
        long rr = w & P_READERS;
        if ((w & P_ANCHOR) != 0 && rr != 0) {
            st.sharing[Long.bitCount(rr)]++;
        }
        long l = rr & ~bit;
        if (l != 0) {
            int d = Long.bitCount(l);
            if (d > r) {
                r = d;
            }
            while (l != 0) {
                int j = Long.numberOfTrailingZeros(l);
                l &= l - 1;
                pairs.pair(cpu, j);
            }
        } else {
            int wr = (int) ((w & P_WRITER) >>> P_WRITER_SHIFT) - 1;
            if (wr >= 0 && wr != cpu) {
                if (r == 0) {
                    r = -1;
                }
                pairs.pair(wr, cpu);
            }
        }
        m[i] = (w & ~(P_READERS | P_WRITER | P_ANCHOR)) | set;
        return r;
    }

    /**
     * Closes every open write epoch at the end of the analysis: S[|R|] += 1 on each anchor byte with |R| ≥ 1 (of
     * this partition's pages: state kept before a live plan gave a page to another partition is passed over).
     */
    public void finish(CommStats st) {
        if (packed) {
            for (int s = 0; s < loc.pages(); s++) {
                if (foreign(loc.pageNumber(s))) {
                    continue; // state kept before a live plan gave the page to another partition
                }
                long[] m = loc.state(s);
                for (int g = 0; g < m.length; g++) {
                    if ((m[g] & SPLIT) == 0) {
                        closeEpoch(m, g, st);
                    } else {
                        long[] sd = loc.side();
                        for (int b = (int) (m[g] >>> 32) << GROUP_SHIFT, e = b + GROUP; b < e; b++) {
                            closeEpoch(sd, b, st);
                        }
                    }
                }
            }
            return;
        }
        for (int s = 0; s < loc.pages(); s++) {
            if (foreign(loc.pageNumber(s))) {
                continue;
            }
            if (words == 1) {
                TwoWordLayouts.closeEpochs(loc.state(s), st, false);
                continue;
            }
            for (int c = 0; c < LocationState.CHUNKS; c++) {
                long[] m = loc.chunkIfAny(s, c);
                if (m != null) {
                    TwoWordLayouts.closeEpochs(m, st, true);
                }
            }
        }
    }

    /** Closes the write epoch of packed word m[i] if it is an anchor: S[|R|] += 1 when |R| ≥ 1. */
    private static void closeEpoch(long[] m, int i, CommStats st) {
        long w = m[i];
        if ((w & P_ANCHOR) != 0) {
            if ((w & P_READERS) != 0) {
                st.sharing[Long.bitCount(w & P_READERS)]++;
            }
            m[i] = w & ~P_ANCHOR;
        }
    }

    /**
     * Bytes of state held by the location table (shared with memory usage): page arrays, split groups and the
     * page map.
     */
    public long footprintBytes() {
        return loc.footprintBytes();
    }
}
