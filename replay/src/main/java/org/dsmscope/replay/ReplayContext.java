package org.dsmscope.replay;

import org.dsmscope.trace.TraceSet;

/** What an analysis may ask of the replay it is plugged into. */
public interface ReplayContext {
    /** Number of traces (threads or processes). */
    int threads();

    /** Number of processors (= threads for thread traces; p with {@code -i p}). */
    int processors();

    /** The detailed trace set being replayed (outputs are named from its {@link TraceSet#base()}). */
    TraceSet traces();

    /**
     * True if {@code address} is a synchronization variable: argument 1 of a lock, barrier, latch, semaphore,
     * condition or load-and-clear-word call anywhere in the traces (SPEC §5 leaves them out of communication).
     * Known for the whole run before the first record is replayed.
     */
    boolean isSyncVariable(long address);

    /** The current pseudo clock of a thread. */
    long clock(int thread);
}
