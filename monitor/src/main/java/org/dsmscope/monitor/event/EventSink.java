package org.dsmscope.monitor.event;

/**
 * Where flushed event buffers go (seed 002 §4.2): the recorder, a live viewer, a route to another JVM. Called
 * from several threads; the buffer is reused after {@link #accept} returns, so a sink copies or encodes it.
 */
public interface EventSink {
    /** {@link #output} stream: standard output. */
    int STDOUT = 1;
    /** {@link #output} stream: standard error. */
    int STDERR = 2;

    /** Receives a batch of events of one process. */
    void accept(EventBuffer batch);

    /** Registers a process name (called once per process, before its events). */
    default void process(int proc, String name) {
    }

    /** Registers where a process runs (after {@link #process}, once per process). */
    default void host(int proc, HostInfo host) {
    }

    /**
     * One line a process wrote on its standard output ({@code stream} {@link #STDOUT}) or error ({@link #STDERR}),
     * stamped {@code time} on that process's clock (ns since the epoch, as its events).
     */
    default void output(int proc, long time, int stream, String line) {
    }

    /** Flushes anything buffered. */
    default void flush() {
    }
}
