package org.dsmscope.replay;

import java.util.List;
import org.dsmscope.trace.TraceSet;

/** What an analysis may ask of the replay it is plugged into. */
public interface ReplayContext {
    /** Number of traces (threads or processes). */
    int threads();

    /** Number of processors (= threads for thread traces; p with {@code -i p}). */
    int processors();

    /**
     * True if process traces are interleaved on {@link #processors()} processors by the slice scheduler ({@code -i
     * p}): then {@link Analysis#waited} intervals are a process's, not a processor's.
     */
    default boolean interleaved() {
        return false;
    }

    /**
     * With {@code -i p}: the instructions processor {@code cpu} executes in the whole run, from the slice schedule
     * (the run is one parallel phase); -1 otherwise.
     */
    default long processorBusy(int cpu) {
        return -1;
    }

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

    /**
     * Number of I/O processors that {@link Analysis#io} numbers from 0: none without {@code -handle_io}, one with
     * centered I/O, one per processor with {@code -distributed_io}.
     */
    default int ioProcessors() {
        return 0;
    }

    /**
     * This replay's partition in a partitioned run ({@link Replay#runPartitioned}), from 0; 0 in a plain run.
     * Every partition receives every callback in the same order and clocks; an analysis keeps the per-address state
     * of its own addresses only ({@link #partitionOf}), so partitions divide the work and their results merge.
     */
    default int partition() {
        return 0;
    }

    /** Number of partitions (1 in a plain run). */
    default int partitions() {
        return 1;
    }

    /**
     * True in a partition of a routed replay ({@link Replay#runRouted}): it gets only the data accesses its
     * analysis said it needs ({@link Replay.Router}), the others as {@link Analysis#skipped} gaps; every other
     * record and callback is the serial run's. The partition that detects spins gets more ({@link #possibleSpin}).
     */
    default boolean routed() {
        return false;
    }

    /**
     * True if the prescan of a routed run found in thread {@code thread}'s trace a run of loads that a {@link
     * SpinDetector} could take for a spin ({@code RouteCheck}; every thread where a marker stops all threads): a
     * routed run gives every access of such a thread to its router's {@link Replay.Router#spinPartition}, and of
     * the other threads only the stores that may touch such a run's locations, so that partition's detector, fed
     * these threads' accesses and every store, decides as a serial run's. False in other runs.
     */
    default boolean possibleSpin(int thread) {
        return false;
    }

    /**
     * True if a marker may stop a thread (command 1 or 3, seed 001's marker commands), so that whether one of its
     * accesses is delivered or dropped depends on where the replay's order puts the marker: a router that keeps
     * state from the accesses it routes (CDAT's first references) must not count on any one access of a thread
     * being delivered. From the prescan of a routed run; true for live streams, which have none; false in other
     * runs.
     */
    default boolean dropsAccesses() {
        return false;
    }

    /**
     * How the trace set's data accesses spread over threads and page slots, counted by the prescan of a
     * partitioned replay ({@link Replay#runInPartitions}, or an analysis that {@link Analysis#wantsWorkProfile}),
     * so that an analysis can balance its partitions; null when not counted (live streams, plain runs).
     */
    default WorkProfile workProfile() {
        return null;
    }

    /** The partition that owns {@code address}: 4 KiB pages dealt round-robin over the partitions. */
    default int partitionOf(long address) {
        int n = partitions();
        return n == 1 ? 0 : (int) Long.remainderUnsigned(address >>> 12, n);
    }

    /**
     * Problems the replay continued past so far (only with {@link ReplayOptions#skipBadRecords}: skipped records,
     * deadlocks, threads ending in critical sections, ...), in the order met, at most 1000; the results of a run
     * with problems cover only what could be analysed, and its outputs should say so.
     */
    default List<String> problems() {
        return List.of();
    }

    /** Number of problems continued past so far (may exceed {@code problems().size()}). */
    default long problemCount() {
        return 0;
    }
}
