package org.dsmscope.replay;

/**
 * Concurrency times per thread (seed 001 §5.3), in pseudo-clock instructions: busy (executing), idle (not active,
 * e.g. other threads in a serial phase), imbalance (waiting at a barrier, join or latch for other threads'
 * progress), contention (waiting for a lock or other resource held by another thread), and spin (executing a
 * spin-wait, SPEC §5: the replay books none; an analysis that runs a {@link SpinDetector} moves it out of busy with
 * {@link SpinDetector#book}). For every thread of a phase busy + spin + idle + imbalance + contention = the phase's
 * length.
 */
public final class PhaseTimes implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Busy time per thread. */
    public final long[] busy;
    /** Idle time per thread. */
    public final long[] idle;
    /** Imbalance time per thread. */
    public final long[] imbalance;
    /** Contention time per thread. */
    public final long[] contention;
    /** Spin time per thread (0 unless a {@link SpinDetector} booked some). */
    public final long[] spin;

    /** Zeroed times for {@code threads} threads. */
    public PhaseTimes(int threads) {
        busy = new long[threads];
        idle = new long[threads];
        imbalance = new long[threads];
        contention = new long[threads];
        spin = new long[threads];
    }

    /** Number of threads. */
    public int threads() {
        return busy.length;
    }

    /** Adds another set of times to this one. */
    public void add(PhaseTimes o) {
        for (int t = 0; t < busy.length; t++) {
            busy[t] += o.busy[t];
            idle[t] += o.idle[t];
            imbalance[t] += o.imbalance[t];
            contention[t] += o.contention[t];
            spin[t] += o.spin[t];
        }
    }
}
