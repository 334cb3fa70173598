package org.dsmscope.cluster;

import java.io.Serializable;

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

    Outcome(int part, Serializable value, String error, String where, boolean inMap, long received) {
        this.part = part;
        this.value = value;
        this.error = error;
        this.where = where;
        this.inMap = inMap;
        this.received = received;
    }
}
