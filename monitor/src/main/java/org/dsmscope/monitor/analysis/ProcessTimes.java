package org.dsmscope.monitor.analysis;

/**
 * Time of one process split as seed 002 §4.3 / §4.5 colour it: computation (outside the DSM library), overhead
 * (inside library calls, not waiting) and blocked (waiting in await, getUpdates, getTicket, ...).
 */
public final class ProcessTimes {
    /** Process id. */
    public final int proc;
    /** Process name. */
    public String name = "";
    /** First and last event time (aligned ns). */
    public long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
    /** Nanoseconds inside library calls, and the blocked part of it. */
    public long inLibrary, blocked;
    /** Events recorded for the process. */
    public long events;
    /** True when the process recorded its normal end. */
    public boolean ended;

    /** Times of process {@code proc}. */
    public ProcessTimes(int proc) {
        this.proc = proc;
    }

    /** Wall time covered (ns). */
    public long span() {
        return end > start ? end - start : 0;
    }

    /** Overhead: library time not blocked (ns). */
    public long overhead() {
        return Math.max(0, inLibrary - blocked);
    }

    /** Computation: the rest of the span (ns). */
    public long computation() {
        return Math.max(0, span() - overhead() - blocked);
    }

    /** Percentage of the span. */
    public double pct(long ns) {
        long s = span();
        return s == 0 ? 0 : 100.0 * ns / s;
    }
}
