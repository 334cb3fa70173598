package org.dsmscope.ciat.comm;

import org.dsmscope.ciat.table.LocationState;
import org.dsmscope.ciat.table.ReaderSets;

/**
 * {@link Communication}'s layouts of two words per location (seed 000 §4.4, seed 001 §5.4 and §5.6, SPEC §5), the
 * rules applied byte by byte. Wide layout (17 to 64 processors): word 0 holds the writer (processor + 1, 0 = none)
 * and the anchor bit, word 1 the reader bitmask, one page array of 2 &times; 4096 words. Sparse layout (more than
 * 64 processors): the same two words in chunks of 256 locations, word 1 a {@link ReaderSets} word (up to four
 * readers inline, more in a pooled bitmask), readers visited in increasing order as in a bitmask. Not thread-safe.
 */
final class TwoWordLayouts {
    private static final int PAGE_SHIFT = LocationState.PAGE_SHIFT;
    private static final int PAGE = LocationState.PAGE;
    private static final long WRITER = LocationState.WRITER_MASK;
    private static final long ANCHOR = LocationState.ANCHOR;
    private static final int CHUNK = LocationState.CHUNK;

    /** The owner of this state: which pages are another partition's. */
    private final Communication comm;
    private final LocationState loc;
    /** The reader sets of the sparse layout, else null. */
    private final ReaderSets readers;
    /** Reader bitmask words per location: 1 in the wide layout. */
    private final int words;
    private final AccessPairs pairs;

    TwoWordLayouts(Communication comm, LocationState loc, int words, AccessPairs pairs) {
        this.comm = comm;
        this.loc = loc;
        this.readers = loc.readers();
        this.words = words;
        this.pairs = pairs;
    }

    /** Load, ≤ 64 processors. Returns 2 if any byte is RAW, else 1 if any is RAR, else 0. */
    int load1(int cpu, long address, int size, CommStats st) {
        long bit = 1L << cpu;
        int result = 0;
        long a = address;
        int rem = size;
        while (rem > 0) {
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            if (comm.foreign(a >>> PAGE_SHIFT)) {
                a += n;
                rem -= n;
                continue;
            }
            long[] m = loc.state(loc.slot(a >>> PAGE_SHIFT));
            for (int i = off << 1, e = (off + n) << 1; i < e; i += 2) {
                long rr = m[i + 1];
                if ((rr & bit) != 0) {
                    continue;
                }
                int wr = (int) (m[i] & WRITER) - 1;
                if (wr >= 0) {
                    if (wr != cpu) {
                        result = 2;
                        pairs.pair(wr, cpu);
                        m[i + 1] = rr | bit;
                    }
                } else {
                    if (rr != 0 && result == 0) {
                        result = 1;
                    }
                    m[i + 1] = rr | bit;
                }
            }
            a += n;
            rem -= n;
        }
        return result;
    }

    /** Store, ≤ 64 processors. Returns the largest |L| if any byte is WAR, else -1 if any is WAW, else 0. */
    int store1(int cpu, long address, int size, CommStats st) {
        long bit = 1L << cpu;
        int maxL = 0;
        boolean waw = false;
        long me = cpu + 1;
        long a = address;
        int rem = size;
        long anchor = ANCHOR;
        while (rem > 0) {
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            if (comm.foreign(a >>> PAGE_SHIFT)) {
                a += n;
                rem -= n;
                anchor = 0;
                continue;
            }
            long[] m = loc.state(loc.slot(a >>> PAGE_SHIFT));
            for (int i = off << 1, e = (off + n) << 1; i < e; i += 2) {
                long meta = m[i];
                long rr = m[i + 1];
                int wr = (int) (meta & WRITER) - 1;
                if ((meta & ANCHOR) != 0 && rr != 0) {
                    st.sharing[Long.bitCount(rr)]++;
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
                        pairs.pair(cpu, j);
                    }
                } else if (wr >= 0 && wr != cpu) {
                    waw = true;
                    pairs.pair(wr, cpu);
                }
                m[i] = (meta & ~(WRITER | ANCHOR)) | me | anchor;
                m[i + 1] = 0;
                anchor = 0;
            }
            a += n;
            rem -= n;
        }
        return maxL > 0 ? maxL : (waw ? -1 : 0);
    }

    /**
     * Load, more than 64 processors (sparse layout): as {@link #load1}, the reader set of each location a
     * {@link ReaderSets} word beside its word 0 in the page's chunk.
     */
    int loadS(int cpu, long address, int size, CommStats st) {
        ReaderSets rs = readers;
        int result = 0;
        long a = address;
        int rem = size;
        while (rem > 0) {
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            if (comm.foreign(a >>> PAGE_SHIFT)) {
                a += n;
                rem -= n;
                continue;
            }
            int s = loc.slot(a >>> PAGE_SHIFT);
            for (int x = off, e = off + n; x < e; ) {
                long[] m = loc.chunk(s, x);
                int end = Math.min(e, (x | (CHUNK - 1)) + 1);
                for (int i = LocationState.chunkIndex(x), ie = i + ((end - x) << 1); i < ie; i += 2) {
                    long rr = m[i + 1];
                    if (rr != 0 && rs.contains(rr, cpu)) {
                        continue;
                    }
                    int wr = (int) (m[i] & WRITER) - 1;
                    if (wr >= 0) {
                        if (wr != cpu) {
                            result = 2;
                            pairs.pair(wr, cpu);
                            m[i + 1] = rs.add(rr, cpu);
                        }
                    } else {
                        if (rr != 0 && result == 0) {
                            result = 1;
                        }
                        m[i + 1] = rs.add(rr, cpu);
                    }
                }
                x = end;
            }
            a += n;
            rem -= n;
        }
        return result;
    }

    /** Store, more than 64 processors (sparse layout): as {@link #store1}; the emptied reader sets are released. */
    int storeS(int cpu, long address, int size, CommStats st) {
        ReaderSets rs = readers;
        int maxL = 0;
        boolean waw = false;
        long me = cpu + 1;
        long a = address;
        int rem = size;
        long anchor = ANCHOR;
        while (rem > 0) {
            int off = (int) (a & (PAGE - 1));
            int n = Math.min(rem, PAGE - off);
            if (comm.foreign(a >>> PAGE_SHIFT)) {
                a += n;
                rem -= n;
                anchor = 0;
                continue;
            }
            int s = loc.slot(a >>> PAGE_SHIFT);
            for (int x = off, e = off + n; x < e; ) {
                long[] m = loc.chunk(s, x);
                int end = Math.min(e, (x | (CHUNK - 1)) + 1);
                for (int i = LocationState.chunkIndex(x), ie = i + ((end - x) << 1); i < ie; i += 2) {
                    long meta = m[i];
                    long rr = m[i + 1];
                    int wr = (int) (meta & WRITER) - 1;
                    int count = ReaderSets.size(rr);
                    if ((meta & ANCHOR) != 0 && count != 0) {
                        st.sharing[count]++;
                    }
                    int d = count - (rr != 0 && rs.contains(rr, cpu) ? 1 : 0);
                    if (d > 0) {
                        if (d > maxL) {
                            maxL = d;
                        }
                        pairReaders(cpu, rr);
                    } else if (wr >= 0 && wr != cpu) {
                        waw = true;
                        pairs.pair(wr, cpu);
                    }
                    m[i] = (meta & ~(WRITER | ANCHOR)) | me | anchor;
                    if (rr != 0) {
                        rs.release(rr);
                        m[i + 1] = 0;
                    }
                    anchor = 0;
                }
                x = end;
            }
            a += n;
            rem -= n;
        }
        return maxL > 0 ? maxL : (waw ? -1 : 0);
    }

    /** COMM_MAT pairs (cpu, j) of a WAR byte: j over reader set {@code rr} but cpu, in increasing order. */
    private void pairReaders(int cpu, long rr) {
        if (rr < 0) {
            long[] pool = readers.pool();
            int b = readers.base(rr);
            for (int k = 0; k < words; k++) {
                long l = pool[b + k];
                if (k == cpu >>> 6) {
                    l &= ~(1L << (cpu & 63));
                }
                while (l != 0) {
                    int j = Long.numberOfTrailingZeros(l);
                    l &= l - 1;
                    pairs.pair(cpu, (k << 6) + j);
                }
            }
            return;
        }
        for (int k = 0; k < ReaderSets.INLINE; k++) {
            int j = ReaderSets.inline(rr, k);
            if (j < 0) {
                break;
            }
            if (j != cpu) {
                pairs.pair(cpu, j);
            }
        }
    }

    /**
     * Closes the write epochs of the anchor locations of a wide page or ({@code sparse}) a sparse chunk {@code m}
     * (two words a location: word 1 a bitmask or a {@link ReaderSets} word).
     */
    static void closeEpochs(long[] m, CommStats st, boolean sparse) {
        for (int base = 0; base < m.length; base += 2) {
            if ((m[base] & ANCHOR) == 0) {
                continue;
            }
            long rr = m[base + 1];
            int count = sparse ? ReaderSets.size(rr) : Long.bitCount(rr);
            if (count > 0) {
                st.sharing[count]++;
            }
            m[base] &= ~ANCHOR;
        }
    }
}
