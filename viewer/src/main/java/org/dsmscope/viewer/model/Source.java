package org.dsmscope.viewer.model;

import java.util.Map;

/** One input of the viewer: a recording, a replayed trace set or a live run, as a {@link Timeline} and tables. */
public interface Source {
    /** The timeline the views draw. */
    Timeline timeline();

    /**
     * Tables for the window [t0, t1) and the whole run (the transport summary of seed 002 §4.1.3 per process pair,
     * per-process utilization of §4.5) as a JSON-ready tree; empty where the input has none.
     */
    Map<String, Object> tables(long t0, long t1);

    /** Each process's standard output and error, or null where the input has none (a replayed trace set). */
    default Outputs outputs() {
        return null;
    }

    /** A name for event {@code id}'s address (the data map's), or null where the input has none. */
    default String describe(int id) {
        return null;
    }

    /**
     * Asks to be told, by {@code signal} on the source's own thread, when new content arrives that the next
     * {@link #timeline()} will take in; only live inputs ever call it (the push channel's wake-up). The signal must
     * return at once.
     */
    default void onArrival(Runnable signal) {
    }

    /** Whether the input grows while it is shown (a live run). */
    default boolean live() {
        return false;
    }

    /** Stops whatever the source runs (a live connection); a no-op for files. */
    default void close() {
    }
}
