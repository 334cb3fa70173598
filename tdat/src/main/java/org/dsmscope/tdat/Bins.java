package org.dsmscope.tdat;

import java.util.Arrays;

/**
 * Event counts per bin (seed 000 §6, SPEC §7): bin k holds the events with {@code k × width <= clock < (k + 1) ×
 * width}; bins start at clock 0 and run to the bin of the last (largest-clock) event, empty bins included. Events
 * may come in any clock order (several files, replay order). The counts live in a growable {@code long[]}, at most
 * {@link #MAX_BINS} of them (800 MB).
 */
public final class Bins {
    /** The most bins a run may need. */
    public static final long MAX_BINS = 100_000_000L;
    private final long width;
    private long[] counts = new long[1024];
    private int size;
    private long total;

    /** Empty bins of {@code width} clocks ({@code width > 0}). */
    public Bins(long width) {
        if (width <= 0) {
            throw new IllegalArgumentException("bin width " + width);
        }
        this.width = width;
    }

    /** The bin width in clocks. */
    public long width() {
        return width;
    }

    /**
     * Counts an event at {@code clock} ({@code >= 0}); returns false, counting nothing, if its bin would be bin
     * {@link #MAX_BINS} or later.
     */
    public boolean add(long clock) {
        long k = clock / width;
        if (k >= size) {
            if (k >= MAX_BINS) {
                return false;
            }
            if (k >= counts.length) {
                grow((int) k);
            }
            size = (int) k + 1;
        }
        counts[(int) k]++;
        total++;
        return true;
    }

    private void grow(int k) {
        long want = Math.max(k + 1L, Math.min(2L * counts.length, MAX_BINS));
        counts = Arrays.copyOf(counts, (int) want);
    }

    /** Number of bins: the last event's bin + 1, 0 if there is no event. */
    public int size() {
        return size;
    }

    /** Events counted. */
    public long total() {
        return total;
    }

    /** Events in bin {@code k} ({@code 0 <= k < size()}). */
    public long count(int k) {
        if (k < 0 || k >= size) {
            throw new IndexOutOfBoundsException("bin " + k + " of " + size);
        }
        return counts[k];
    }

    /** The counts of bins 0 .. size() - 1, a copy. */
    public long[] counts() {
        return Arrays.copyOf(counts, size);
    }

    /** The smallest bin width that keeps {@code clock} within {@link #MAX_BINS} bins. */
    public static long minimumWidth(long clock) {
        return clock / MAX_BINS + 1;
    }
}
