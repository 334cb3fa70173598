package org.dsmscope.replay;

/** One execution phase (seed 000 §3): serial, parallel, or user-defined (delimited by markers). */
public final class Phase {
    /** Kinds of phase. */
    public enum Kind {
        /** Thread 0 alone is active. */
        SERIAL,
        /** More than one traced thread is active. */
        PARALLEL,
        /** Started by a marker (SPEC §4). */
        USER;

        /** The lower-case name used in reports and JSON. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final int id;
    private final Kind kind;
    private final long startClock;
    private final int markerNum;
    private long endClock = -1;

    /** A phase numbered {@code id} (from 1) starting at {@code startClock}; {@code markerNum} -1 unless USER. */
    public Phase(int id, Kind kind, long startClock, int markerNum) {
        this.id = id;
        this.kind = kind;
        this.startClock = startClock;
        this.markerNum = markerNum;
    }

    /** Phase number, from 1. */
    public int id() {
        return id;
    }

    /** Serial, parallel or user-defined. */
    public Kind kind() {
        return kind;
    }

    /** Synchronized clock at which the phase began. */
    public long startClock() {
        return startClock;
    }

    /** Synchronized clock at which the phase ended; -1 while it runs. */
    public long endClock() {
        return endClock;
    }

    /** Sets the end clock (engine only). */
    public void end(long clock) {
        this.endClock = clock;
    }

    /** The marker's num for a user-defined phase, else -1. */
    public int markerNum() {
        return markerNum;
    }
}
