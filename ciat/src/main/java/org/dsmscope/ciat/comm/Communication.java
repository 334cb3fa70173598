package org.dsmscope.ciat.comm;

import org.dsmscope.ciat.table.PageMap;

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
 * <p>State layout: pages of 4096 byte locations found through a {@link PageMap}; per location a {@code short}
 * writer (processor + 1, 0 = none), {@code words} longs of reader bitmask and one anchor bit (packed in a
 * {@code long[]} per page). No allocation per access. Not thread-safe.
 */
public final class Communication {
    private static final int PAGE_SHIFT = 12;
    private static final int PAGE = 1 << PAGE_SHIFT;

    private final int processors;
    private final int words;
    private final PageMap pages = new PageMap();
    private short[][] writer = new short[64][];
    private long[][] readers = new long[64][];
    private long[][] anchors = new long[64][];
    private final int[] pairStamp;
    private int accessSeq;
    private final long[] scratch;

    /** Communication state for {@code processors} processors. */
    public Communication(int processors) {
        if (processors < 1 || processors > 32767) {
            throw new IllegalArgumentException("processors out of range: " + processors);
        }
        this.processors = processors;
        this.words = (processors + 63) >>> 6;
        this.pairStamp = new int[processors * processors];
        this.scratch = new long[words];
    }

    /** Number of byte locations with communication state (data locations touched). */
    public long locations() {
        return (long) pages.size() * PAGE;
    }

    /** Pages with state. */
    public int pages() {
        return pages.size();
    }

    /**
     * One data access by processor {@code cpu}; updates location state and {@code st}; reports the access's event
     * (if any) to {@code sink} (may be null). Returns the event type or -1.
     */
    public int access(int cpu, long clock, boolean store, long address, int size, CommStats st, CommEventSink sink) {
        st.considered++;
        if (size <= 0) {
            return -1;
        }
        if (++accessSeq == 0) {
            java.util.Arrays.fill(pairStamp, 0);
            accessSeq = 1;
        }
        int result = store ? (words == 1 ? store1(cpu, address, size, st) : storeN(cpu, address, size, st))
                : (words == 1 ? load1(cpu, address, size, st) : loadN(cpu, address, size, st));
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

    private int slot(long page) {
        int s = pages.getOrAdd(page);
        if (s == writer.length) {
            int n = s * 2;
            writer = java.util.Arrays.copyOf(writer, n);
            readers = java.util.Arrays.copyOf(readers, n);
            anchors = java.util.Arrays.copyOf(anchors, n);
        }
        if (writer[s] == null) {
            writer[s] = new short[PAGE];
            readers[s] = new long[PAGE * words];
            anchors[s] = new long[PAGE / 64];
        }
        return s;
    }

    private void pair(int i, int j, CommStats st) {
        int k = i * processors + j;
        if (pairStamp[k] != accessSeq) {
            pairStamp[k] = accessSeq;
            st.matrix[k]++;
        }
    }

    /** Load, ≤ 64 processors. Returns 2 if any byte is RAW, else 1 if any is RAR, else 0. */
    private int load1(int cpu, long address, int size, CommStats st) {
        long bit = 1L << cpu;
        int result = 0;
        long a = address;
        int rem = size;
        while (rem > 0) {
            int s = slot(a >>> PAGE_SHIFT);
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            short[] w = writer[s];
            long[] r = readers[s];
            for (int i = off, e = off + n; i < e; i++) {
                long rr = r[i];
                if ((rr & bit) != 0) {
                    continue;
                }
                int wr = w[i] - 1;
                if (wr >= 0) {
                    if (wr != cpu) {
                        result = 2;
                        pair(wr, cpu, st);
                        r[i] = rr | bit;
                    }
                } else {
                    if (rr != 0 && result == 0) {
                        result = 1;
                    }
                    r[i] = rr | bit;
                }
            }
            a += n;
            rem -= n;
        }
        return result;
    }

    /** Store, ≤ 64 processors. Returns the largest |L| if any byte is WAR, else -1 if any is WAW, else 0. */
    private int store1(int cpu, long address, int size, CommStats st) {
        long bit = 1L << cpu;
        int maxL = 0;
        boolean waw = false;
        short me = (short) (cpu + 1);
        long a = address;
        int rem = size;
        boolean first = true;
        while (rem > 0) {
            int s = slot(a >>> PAGE_SHIFT);
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            short[] w = writer[s];
            long[] r = readers[s];
            long[] anc = anchors[s];
            for (int i = off, e = off + n; i < e; i++) {
                long rr = r[i];
                int wr = w[i] - 1;
                long am = 1L << (i & 63);
                if ((anc[i >>> 6] & am) != 0) {
                    if (rr != 0) {
                        st.sharing[Long.bitCount(rr)]++;
                    }
                    anc[i >>> 6] &= ~am;
                }
                long l = rr & ~bit;
                if (l != 0) {
                    int d = Long.bitCount(l);
                    if (d > maxL) {
                        maxL = d;
                    }
                    while (l != 0) {
                        int j = Long.numberOfTrailingZeros(l);
                        l &= l - 1;
                        pair(cpu, j, st);
                    }
                } else if (wr >= 0 && wr != cpu) {
                    waw = true;
                    pair(wr, cpu, st);
                }
                w[i] = me;
                r[i] = 0;
                if (first) {
                    anc[i >>> 6] |= am;
                    first = false;
                }
            }
            a += n;
            rem -= n;
        }
        return maxL > 0 ? maxL : (waw ? -1 : 0);
    }

    /** Load, any number of processors. */
    private int loadN(int cpu, long address, int size, CommStats st) {
        int word = cpu >>> 6;
        long bit = 1L << (cpu & 63);
        int result = 0;
        long a = address;
        int rem = size;
        while (rem > 0) {
            int s = slot(a >>> PAGE_SHIFT);
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            short[] w = writer[s];
            long[] r = readers[s];
            for (int i = off, e = off + n; i < e; i++) {
                int base = i * words;
                if ((r[base + word] & bit) != 0) {
                    continue;
                }
                int wr = w[i] - 1;
                if (wr >= 0) {
                    if (wr != cpu) {
                        result = 2;
                        pair(wr, cpu, st);
                        r[base + word] |= bit;
                    }
                } else {
                    if (result == 0 && !empty(r, base)) {
                        result = 1;
                    }
                    r[base + word] |= bit;
                }
            }
            a += n;
            rem -= n;
        }
        return result;
    }

    /** Store, any number of processors. */
    private int storeN(int cpu, long address, int size, CommStats st) {
        int word = cpu >>> 6;
        long bit = 1L << (cpu & 63);
        int maxL = 0;
        boolean waw = false;
        short me = (short) (cpu + 1);
        long a = address;
        int rem = size;
        boolean first = true;
        while (rem > 0) {
            int s = slot(a >>> PAGE_SHIFT);
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            short[] w = writer[s];
            long[] r = readers[s];
            long[] anc = anchors[s];
            for (int i = off, e = off + n; i < e; i++) {
                int base = i * words;
                int wr = w[i] - 1;
                long am = 1L << (i & 63);
                int count = 0;
                for (int k = 0; k < words; k++) {
                    count += Long.bitCount(r[base + k]);
                }
                if ((anc[i >>> 6] & am) != 0) {
                    if (count != 0) {
                        st.sharing[count]++;
                    }
                    anc[i >>> 6] &= ~am;
                }
                int d = count - ((r[base + word] & bit) != 0 ? 1 : 0);
                if (d > 0) {
                    if (d > maxL) {
                        maxL = d;
                    }
                    for (int k = 0; k < words; k++) {
                        long l = r[base + k];
                        if (k == word) {
                            l &= ~bit;
                        }
                        while (l != 0) {
                            int j = Long.numberOfTrailingZeros(l);
                            l &= l - 1;
                            pair(cpu, (k << 6) + j, st);
                        }
                    }
                } else if (wr >= 0 && wr != cpu) {
                    waw = true;
                    pair(wr, cpu, st);
                }
                w[i] = me;
                for (int k = 0; k < words; k++) {
                    r[base + k] = 0;
                }
                if (first) {
                    anc[i >>> 6] |= am;
                    first = false;
                }
            }
            a += n;
            rem -= n;
        }
        return maxL > 0 ? maxL : (waw ? -1 : 0);
    }

    private boolean empty(long[] r, int base) {
        for (int k = 0; k < words; k++) {
            if (r[base + k] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Closes every open write epoch at the end of the analysis: S[|R|] += 1 on each anchor byte with |R| ≥ 1. */
    public void finish(CommStats st) {
        for (int s = 0; s < pages.size(); s++) {
            long[] anc = anchors[s];
            long[] r = readers[s];
            for (int wi = 0; wi < anc.length; wi++) {
                long m = anc[wi];
                while (m != 0) {
                    int i = (wi << 6) + Long.numberOfTrailingZeros(m);
                    m &= m - 1;
                    int count = 0;
                    for (int k = 0; k < words; k++) {
                        count += Long.bitCount(r[i * words + k]);
                    }
                    if (count > 0) {
                        st.sharing[count]++;
                    }
                }
                anc[wi] = 0;
            }
        }
    }

    /** Bytes of state per touched page (excluding the page map): writer, readers, anchor bits. */
    public long bytesPerPage() {
        return PAGE * 2L + PAGE * 8L * words + PAGE / 8;
    }
}
