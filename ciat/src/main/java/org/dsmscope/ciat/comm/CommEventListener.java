package org.dsmscope.ciat.comm;

/**
 * Receives each communication event with the access that caused it (seed 000 §4.4's events, as the
 * {@code -ciat_events} trace has them, plus the thread, address and size the trace leaves out): what a viewer
 * needs to mark the event on the accessing thread and describe it. Called on the replay thread, during the
 * access, before later analyses of the same replay see that access.
 */
@FunctionalInterface
public interface CommEventListener {
    /**
     * One event of {@code type} ({@link CommEventSink#RAW} …) at {@code clock} by {@code thread} on
     * {@code processor}; {@code degree} as in the event trace; the access was {@code size} bytes at
     * {@code address}.
     */
    void event(long clock, int type, int processor, int degree, int thread, long address, int size);
}
