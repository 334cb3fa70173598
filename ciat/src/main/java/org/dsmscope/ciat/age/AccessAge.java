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
        this.trackers = new AgeTracker[scope == Scope.GLOBAL ? 1 : threads];
        for (int i = 0; i < trackers.length; i++) {
            trackers[i] = new AgeTracker();
        }
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

    /** One data access of {@code size} ≥ 1 bytes at {@code address} by {@code thread}; records its age in st. */
    public void access(int thread, long address, int size, AgeStats st) {
        long first = address >>> shift;
        long lastKey = (address + size - 1) >>> shift;
        AgeTracker tr = trackers[scope == Scope.GLOBAL ? 0 : thread];
        if (threshold >= (1L << 24)) {
            long age = tr.access(first, lastKey);
            st.record(age < 0 ? -1 : age << shift, 1);
            return;
        }
        long block = first >>> 3;
        if (hash(block) >= threshold) {
            return;
        }
        long end = Math.min(lastKey, (block << 3) | 7);
        long age = tr.access(first, end);
        st.record(age < 0 ? -1 : Math.round((age << shift) / rate), weight);
    }

    private static long hash(long block) {
        long h = block * 0xBF58476D1CE4E5B9L;
        h ^= h >>> 31;
        h *= 0x94D049BB133111EBL;
        h ^= h >>> 29;
        return h & 0xFFFFFF;
    }

    /** Bytes of state held by all trackers. */
    public long footprintBytes() {
        long b = 0;
        for (AgeTracker t : trackers) {
            b += t.footprintBytes();
        }
        return b;
    }

    /** Key pages allocated over all trackers (4096 keys each). */
    public long pages() {
        long n = 0;
        for (AgeTracker t : trackers) {
            n += t.pages();
        }
        return n;
    }
}
