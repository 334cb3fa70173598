package org.dsmscope.monitor.event;

/**
 * Where flushed event buffers go (seed 002 §4.2): the recorder, a live viewer, a route to another JVM. Called
 * from several threads; the buffer is reused after {@link #accept} returns, so a sink copies or encodes it.
 */
public interface EventSink {
    /** Receives a batch of events of one process. */
    void accept(EventBuffer batch);

    /** Registers a process name (called once per process, before its events). */
    default void process(int proc, String name) {
    }

    /** Flushes anything buffered. */
    default void flush() {
    }
}
