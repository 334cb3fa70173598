package org.dsmscope.ciat.age;

/**
 * Access age for CIAT (seed 001 §5.2, SPEC §5): per-thread streams (scope {@code thread}, the working set of each
 * thread's cache) or one interleaved stream (scope {@code global}), at a granularity of G bytes (1 by default; a
 * line size gives miss-ratio curves for line-sized caches: ages are then distinct lines × G bytes).
 *
 * <p>Sampled mode (SHARDS, Waldspurger et al., FAST 2015, fixed-rate spatial sampling): a location belongs to the
 * sample when a hash of its aligned block of 8 keys is below rate × 2^24, so every aligned access of at most 8
 * keys is sampled whole or not at all. Only sampled keys enter the tracker; a sampled access's age is scaled by
 * 1/rate and its count weighted by 1/rate. The estimate is unbiased in expectation; its error is statistical and
 * shrinks with the number of sampled distinct blocks (see the module README for the bound used and measured).
 */
public final class AccessAge {
    /** Age scope. */
    public enum Scope {
        /** Each thread's own stream. */
        THREAD,
        /** The interleaved stream of all threads. */
        GLOBAL;

        /** Lower-case name used in reports and JSON. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Scope scope;
    private final int granularity;
    private final int shift;
    private final double rate;
    private final long threshold;
    private final long weight;
    private final AgeTracker[] trackers;
    /**
     * Accesses held per stream before they are analysed (see {@link #access}): 1024, fewer with more than 1024
     * streams so that all held accesses stay within about 12 MiB (at least 64 per stream).
     */
    private final int run;
    private final long[][] heldAddress;
    private final int[][] heldSize;
    private final int[] held;
    private AgeStats heldStats;
    /** The page slots {@link AgeTracker#peekRun} found for the run being analysed. */
    private final int[] slotBuf;
    /** The group words {@link AgeTracker#peekRun} loaded for the run being analysed. */
    private final int[] wordBuf;

    /**
     * Access age for {@code threads} threads; {@code granularity} a power of two; {@code rate} in (0, 1], 1 for
     * exact.
     */
    public AccessAge(int threads, Scope scope, int granularity, double rate) {
        if (Integer.bitCount(granularity) != 1) {
            throw new IllegalArgumentException("granularity must be a power of two: " + granularity);
        }
        this.scope = scope;
        this.granularity = granularity;
        this.shift = Integer.numberOfTrailingZeros(granularity);
        this.rate = rate;
        this.threshold = rate >= 1 ? (1L << 24) : (long) Math.floor(rate * (1L << 24));
        this.weight = rate >= 1 ? 1 : Math.round(1 / rate);
        // a stream's tracker is made at its first analysed access: a partition keeps the streams of some threads
        // only (ciat/README.md "Parallel analysis"), and an empty tracker takes about 1.8 KB
        this.trackers = new AgeTracker[scope == Scope.GLOBAL ? 1 : threads];
        run = Math.max(64, Math.min(1024, (1 << 20) / trackers.length));
        heldAddress = new long[trackers.length][];
        heldSize = new int[trackers.length][];
        held = new int[trackers.length];
        slotBuf = new int[run];
        wordBuf = new int[run];
    }

    /** The scope. */
    public Scope scope() {
        return scope;
    }

    /** Granularity in bytes. */
    public int granularity() {
        return granularity;
    }

    /** Sampling rate (1 = exact). */
    public double rate() {
        return rate;
    }

    /** True when sampling. */
    public boolean sampled() {
        return rate < 1;
    }

    /**
     * One data access of {@code size} ≥ 1 bytes at {@code address} by {@code thread}; its age is recorded in st
     * by the next {@link #flush} at the latest. Accesses are held per stream and analysed a run of one stream at a
     * time: a stream's ages depend only on its own order, and a run of one stream keeps that stream's tree and
     * recent pages in the cache, where the interleaved threads of a replay would evict them access by access.
     * Held accesses share one {@code st}: a different one flushes them first.
     */
    public void access(int thread, long address, int size, AgeStats st) {
        if (st != heldStats) {
            flush();
            heldStats = st;
        }
        int i = scope == Scope.GLOBAL ? 0 : thread;
        long[] a = heldAddress[i];
        if (a == null) {
            a = new long[run];
            heldAddress[i] = a;
            heldSize[i] = new int[run];
        }
        int n = held[i];
        a[n] = address;
        heldSize[i][n] = size;
        if (++n == run) {
            held[i] = 0;
            analyse(i, n);
        } else {
            held[i] = n;
        }
    }

    /** Analyses every held access (call before reading the stats given to {@link #access}). */
    public void flush() {
        for (int i = 0; i < held.length; i++) {
            int n = held[i];
            if (n > 0) {
                held[i] = 0;
                analyse(i, n);
            }
        }
    }

    private void analyse(int i, int n) {
        AgeTracker tr = trackers[i];
        if (tr == null) {
            tr = new AgeTracker();
            if (rate >= 1) {
                tr.bucketsOnly(shift); // only buckets are recorded (sampled ages are scaled first)
            }
            trackers[i] = tr;
        }
        AgeStats st = heldStats;
        long[] addr = heldAddress[i];
        int[] sizes = heldSize[i];
        // Touch the run's group words, then their counts and block sums, first: independent loads whose misses
        // overlap (the tracker's updates depend on each other, so without this each access would wait for its own
        // miss); their page slots are kept.
        int[] slots = slotBuf;
        tr.peekRun(addr, n, shift, slots, wordBuf);
        for (int k = 0; k < n; k++) {
            analyse(tr, addr[k], sizes[k], slots[k], st);
        }
    }

    private void analyse(AgeTracker tr, long address, int size, int slot, AgeStats st) {
        long first = address >>> shift;
        long lastKey = (address + size - 1) >>> shift;
        if (threshold >= (1L << 24)) {
            long age = tr.access(first, lastKey, slot);
            st.record(age < 0 ? -1 : age << shift, 1);
            return;
        }
        long block = first >>> 3;
        if (hash(block) >= threshold) {
            return;
        }
        long end = Math.min(lastKey, (block << 3) | 7);
        long age = tr.access(first, end, slot);
        st.record(age < 0 ? -1 : Math.round((age << shift) / rate), weight);
    }

    private static long hash(long block) {
        long h = block * 0xBF58476D1CE4E5B9L;
        h ^= h >>> 31;
        h *= 0x94D049BB133111EBL;
        h ^= h >>> 29;
        return h & 0xFFFFFF;
    }

    /** Bytes of state held by all trackers (a stream without accesses has none). */
    public long footprintBytes() {
        long b = 0;
        for (int i = 0; i < trackers.length; i++) {
            b += (trackers[i] == null ? 0 : trackers[i].footprintBytes()) + (heldAddress[i] == null ? 0 : run * 12L);
        }
        return b;
    }

    /** Key pages allocated over all trackers (4096 keys each). */
    public long pages() {
        long n = 0;
        for (AgeTracker t : trackers) {
            n += t == null ? 0 : t.pages();
        }
        return n;
    }
}
