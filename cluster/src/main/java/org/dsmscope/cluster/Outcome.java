package org.dsmscope.cluster;

import java.io.Serializable;
import java.util.ArrayList;
import org.dsmscope.replay.Replay;

/**
 * What one Spark task sends back: its partition's value, or the user's mistake that stopped it (a bad record, a
 * trace file the executor cannot read), which would stop a retry just the same, so it is returned, not thrown.
 */
final class Outcome implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The partition. */
    final int part;
    /** Its value, or null if it failed. */
    final Serializable value;
    /** The error's one-line message, or null. */
    final String error;
    /** Where the task ran (executor and host), for the error line. */
    final String where;
    /** The error was met reading a trace file in a shuffle's map task (else in the partition's replay). */
    final boolean inMap;
    /** Bytes of routed streams the partition received through the shuffle (0: it read the trace set). */
    final long received;
    /**
     * Partition 0's replay: the problems its engine continued past ({@code --skip-bad-records}; the prescan's are
     * the driver's), at most 1000 kept, in the order met; empty for the other partitions, which find the same.
     */
    final ArrayList<String> problems;
    /** The number of those problems (may exceed the list's size). */
    final long problemCount;

    Outcome(int part, Serializable value, String error, String where, boolean inMap, long received) {
        this(part, value, error, where, inMap, received, new ArrayList<>(), 0);
    }

    private Outcome(int part, Serializable value, String error, String where, boolean inMap, long received,
            ArrayList<String> problems, long problemCount) {
        this.part = part;
        this.value = value;
        this.error = error;
        this.where = where;
        this.inMap = inMap;
        this.received = received;
        this.problems = problems;
        this.problemCount = problemCount;
    }

    /** Partition {@code part}'s value, with the problems its replay continued past ({@code replay}'s). */
    static Outcome of(int part, Serializable value, String where, Replay replay) {
        return part == 0 ? new Outcome(part, value, null, where, false, 0, new ArrayList<>(replay.problems()),
                replay.problemCount()) : new Outcome(part, value, null, where, false, 0);
    }

    /** This outcome of a reduce task that received {@code bytes} of routed streams. */
    Outcome received(long bytes) {
        return new Outcome(part, value, error, where, false, bytes, problems, problemCount);
    }
}
