package org.dsmscope.ciat.comm;

/** Receives each communication event (for the {@code -ciat_events} trace, seed 000 §4.4). */
public interface CommEventSink {
    /** Event types as written in the event trace. */
    int RAW = 0;
    /** Write after read. */
    int WAR = 1;
    /** Write after write. */
    int WAW = 2;
    /** Read after read. */
    int RAR = 3;

    /** One event: {@code degree} is the invalidation degree for WAR, 1 for WAW, 0 for RAW and RAR. */
    void event(long clock, int type, int processor, int degree);
}
