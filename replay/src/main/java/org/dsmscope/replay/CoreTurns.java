package org.dsmscope.replay;

import java.util.concurrent.Semaphore;

/**
 * How many partitions of a routed run over trace files replay at once (SPEC §4 "Partitioning", module README
 * "Partitioned replay", "More partitions than cores"): at most one per core. A partition takes a turn before its
 * replay begins and gives it back when the replay ends, and while it waits for an empty pipe ({@link RoutedPipe}:
 * the partition's thread asks {@link #current}), so the partitions that hold the turns run until their pipes are
 * empty or their replay ends, and the others wait without taking a core. Turns are given in the order asked for.
 *
 * <p>No deadlock beyond the routed run's own: a partition that holds a turn either runs, or waits for records in a
 * pipe and has given its turn back; so a partition waiting for a turn gets one once a holder's pipes are empty, and
 * the routers, which never take a turn, wait only for a partition behind the records they route next (module README
 * "Back-pressure without deadlock"), which holds a turn or gets one. The records, decisions and callbacks of every
 * partition are those of an ungated run: only when a partition's thread runs changes.
 */
final class CoreTurns {
    /**
     * System property: the partitions of a routed run over trace files that replay at once (default: the cores the
     * JVM may use; 0: all of them, no turns).
     */
    static final String PROPERTY = "dsmscope.partitionsAtOnce";

    /** The turns of the partition that runs on this thread, or none. */
    private static final ThreadLocal<CoreTurns> CURRENT = new ThreadLocal<>();

    private final Semaphore turns;

    private CoreTurns(int turns) {
        this.turns = new Semaphore(turns, true);
    }

    /**
     * The turns of a routed run of {@code parts} partitions of which {@code set} replay at once (-1: {@link
     * #PROPERTY}, else {@link Runtime#availableProcessors}; 0: all): null where all may.
     */
    static CoreTurns of(int parts, int set) {
        int at = set >= 0 ? set : org.dsmscope.trace.SystemProperties.intValue(PROPERTY,
                Runtime.getRuntime().availableProcessors(), 0, Integer.MAX_VALUE);
        return at <= 0 || at >= parts ? null : new CoreTurns(at);
    }

    /** The turns the partition on this thread holds one of ({@link #run}), or null. */
    static CoreTurns current() {
        return CURRENT.get();
    }

    /** Runs {@code part} on this thread holding a turn of {@code turns} (if not null), given back at its end. */
    static <A> A run(CoreTurns turns, java.util.function.Supplier<A> part) {
        if (turns == null) {
            return part.get();
        }
        turns.take();
        CURRENT.set(turns);
        try {
            return part.get();
        } finally {
            CURRENT.remove();
            turns.give();
        }
    }

    /** Gives the turn back while this partition waits for records. */
    void give() {
        turns.release();
    }

    /** Takes a turn (waiting for one). */
    void take() {
        turns.acquireUninterruptibly();
    }
}
