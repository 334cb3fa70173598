package org.dsmscope.explain;

import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.TraceSet;

/**
 * A replay context for driving a {@link DsmSimulator} by hand, without a replay (tests, benchmarks, synthetic
 * programs): {@code n} thread traces on {@code n} processors, no trace files, no synchronization variables.
 */
public final class DirectContext implements ReplayContext {
    private final int n;
    private final int part;
    private final int parts;

    /** A context of {@code n} threads. */
    public DirectContext(int n) {
        this(n, 0, 1);
    }

    /** A context of {@code n} threads for partition {@code part} of {@code parts}. */
    public DirectContext(int n, int part, int parts) {
        this.n = n;
        this.part = part;
        this.parts = parts;
    }

    @Override
    public int partition() {
        return part;
    }

    @Override
    public int partitions() {
        return parts;
    }

    @Override
    public int threads() {
        return n;
    }

    @Override
    public int processors() {
        return n;
    }

    @Override
    public TraceSet traces() {
        return null;
    }

    @Override
    public boolean isSyncVariable(long address) {
        return false;
    }

    @Override
    public long clock(int thread) {
        return 0;
    }
}
