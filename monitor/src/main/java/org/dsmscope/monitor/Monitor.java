package org.dsmscope.monitor;

import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;

/**
 * The instrumentation of one process (seed 002 §4.1, §4.2): events are appended to a per-process buffer and
 * routed when the buffer fills, when the process blocks ({@link #blocking()}: await, getUpdates, receive), and by
 * the router's timer. Timestamps are nanoseconds since the epoch on this process's clock (plus an injected skew
 * for tests); the recording's reader aligns clocks afterwards.
 *
 * <p>Threading: application and JGroups threads emit concurrently into the active buffer under this monitor's
 * lock; a flush only swaps the full buffer into a FIFO queue under that lock and delivers the queue while holding
 * a separate delivery lock, so emitters never wait for a sink and a process's batches stay in order.
 */
public final class Monitor {
    /** Events per buffer. */
    public static final int CAPACITY = 4096;
    private static final long EPOCH_OFFSET = System.currentTimeMillis() * 1_000_000L - System.nanoTime();

    private final Router router;
    private final int proc;
    private final String name;
    private final long skew;
    private EventBuffer active = new EventBuffer(CAPACITY);
    private EventBuffer spare = new EventBuffer(CAPACITY);
    private final java.util.ArrayDeque<EventBuffer> queue = new java.util.ArrayDeque<>();
    private final Object deliverLock = new Object();
    private volatile boolean closed;

    Monitor(Router router, int proc, String name, long skewNanos) {
        this.router = router;
        this.proc = proc;
        this.name = name;
        this.skew = skewNanos;
    }

    /** This process's id. */
    public int proc() {
        return proc;
    }

    /** This process's name. */
    public String name() {
        return name;
    }

    /** The router this monitor flushes to. */
    public Router router() {
        return router;
    }

    /** Now on this process's clock (ns since the epoch, plus the injected skew). */
    public long now() {
        return System.nanoTime() + EPOCH_OFFSET + skew;
    }

    /** True when events of {@code level} are being recorded (callers skip building an event otherwise). */
    public boolean on(Level level) {
        return !closed && router.enabled(level);
    }

    /** Records one event stamped now. */
    public void emit(EventType t, int peer, long a, long b, long c, long d, long e) {
        emitAt(now(), t, peer, a, b, c, d, e);
    }

    /** Records one event with an explicit timestamp on this process's clock. */
    public void emitAt(long time, EventType t, int peer, long a, long b, long c, long d, long e) {
        if (closed || !router.enabled(t.level)) {
            return;
        }
        boolean full;
        synchronized (this) {
            if (active.full()) {
                rotate();
            }
            active.add(time, proc, t.code, peer, a, b, c, d, e);
            full = active.full();
        }
        if (full) {
            flush();
        }
    }

    /** Moves the active buffer to the delivery queue (caller holds this monitor's lock). */
    private void rotate() {
        queue.add(active);
        active = spare != null ? spare : new EventBuffer(CAPACITY);
        spare = null;
    }

    private void drain() {
        synchronized (deliverLock) {
            while (true) {
                EventBuffer b;
                synchronized (this) {
                    b = queue.poll();
                }
                if (b == null) {
                    return;
                }
                router.deliver(b);
                b.clear();
                synchronized (this) {
                    if (spare == null) {
                        spare = b;
                    }
                }
            }
        }
    }

    /**
     * Routes one line this process wrote on standard output or error ({@link EventSink#STDOUT} /
     * {@link EventSink#STDERR}), stamped now on this process's clock; lines are routed whatever classes of events
     * are switched on (they are not events).
     */
    public void output(int stream, String line) {
        if (!closed) {
            router.output(proc, now(), stream, line);
        }
    }

    /** The process is about to block: route the buffered events now, while the wait hides the cost (§4.2). */
    public void blocking() {
        flush();
    }

    /** Routes the buffered events to the sinks. */
    public void flush() {
        synchronized (this) {
            if (active.size() > 0) {
                rotate();
            }
        }
        drain();
    }

    /** Flushes and detaches this process from the router. */
    public void close() {
        flush();
        closed = true;
        router.remove(this);
    }
}
