package org.dsmscope.replay;

/**
 * A call record as the replay hands it to analyses: reused by the engine, never keep a reference. Times are
 * microseconds from the first record of the run, unwrapped where the 32-bit field wrapped, and taken from the
 * call trace when one is given (SPEC §4).
 */
public final class CallEvent {
    /** Call type ({@link org.dsmscope.trace.CallType}). */
    public int type;
    /** Start time, µs. */
    public long startTime;
    /** End time, µs. */
    public long endTime;
    /** Argument 1 (unsigned 32 bits). */
    public long arg1;
    /** Argument 2. */
    public long arg2;
    /** Argument 3. */
    public long arg3;
    /** Argument 4. */
    public long arg4;
    /** Pseudo-clock instructions the thread waited at this call (contention or imbalance), 0 if none. */
    public long waitClocks;

    /** Time spent in the call, µs. */
    public long duration() {
        return endTime - startTime;
    }
}
