package org.dsmscope.monitor;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.event.Level;

/**
 * Trace routing of seed 002 §4.2: holds the sinks (recorder, live listeners), the classes of events switched on
 * (changeable while the program runs) and the timer that flushes every process's buffer at least every
 * {@code flushIntervalMs} (default 200 ms). One router per JVM serves all its monitored processes. While a live
 * viewer watches, the route server asks for a shorter interval ({@link #setFlushInterval}, {@link #LIVE_FLUSH_MS}):
 * seed 002 §4.2's timer bounds how old the newest event a viewer can see is.
 *
 * <p>Threading: sinks and monitors are copy-on-write lists; the enabled mask and the interval are volatile; the
 * timer is one daemon thread.
 */
public final class Router implements AutoCloseable {
    /** Default timer flush interval (ms). */
    public static final long DEFAULT_FLUSH_MS = 200;
    /** Timer flush interval (ms) while a live viewer is attached to the route. */
    public static final long LIVE_FLUSH_MS = 50;

    private final List<EventSink> sinks = new CopyOnWriteArrayList<>();
    private final List<Monitor> monitors = new CopyOnWriteArrayList<>();
    private final long defaultFlushMs;
    private volatile long flushIntervalMs;
    private final Thread timer;
    private volatile int enabled = Level.ALL;
    private volatile boolean closed;
    private volatile long lastTimerFlush;

    /** A router with the default 200 ms timer. */
    public Router() {
        this(DEFAULT_FLUSH_MS);
    }

    /** A router whose timer flushes every {@code flushIntervalMs} milliseconds. */
    public Router(long flushIntervalMs) {
        this.defaultFlushMs = flushIntervalMs;
        this.flushIntervalMs = flushIntervalMs;
        timer = new Thread(this::timerLoop, "dsmscope-monitor-timer");
        timer.setDaemon(true);
        timer.start();
    }

    private void timerLoop() {
        while (!closed) {
            long wait = flushIntervalMs;
            java.util.concurrent.locks.LockSupport.parkNanos(this, wait * 1_000_000L);
            if (Thread.interrupted()) {
                return;
            }
            if (closed) {
                return;
            }
            for (Monitor m : monitors) {
                m.flush();
            }
            lastTimerFlush = System.nanoTime();
        }
    }

    /**
     * Sets the timer's interval: {@code ms} > 0 that many milliseconds (from the next tick on; a shorter one wakes
     * the timer at once), else the interval this router was made with.
     */
    public void setFlushInterval(long ms) {
        long before = flushIntervalMs;
        flushIntervalMs = ms > 0 ? ms : defaultFlushMs;
        if (flushIntervalMs < before) {
            java.util.concurrent.locks.LockSupport.unpark(timer);
        }
    }

    /** The timer's current interval (ms). */
    public long flushInterval() {
        return flushIntervalMs;
    }

    /** Adds a sink (recorder, live viewer); events flushed from now on reach it. */
    public void addSink(EventSink sink) {
        sinks.add(sink);
        for (Monitor m : monitors) {
            sink.process(m.proc(), m.name());
            sink.host(m.proc(), HostInfo.local());
        }
    }

    /** Removes a sink. */
    public void removeSink(EventSink sink) {
        sinks.remove(sink);
    }

    /** Creates the monitor of one process. */
    public Monitor monitor(int proc, String name) {
        return monitor(proc, name, 0);
    }

    /** Creates the monitor of one process whose clock runs {@code skewNanos} ahead (tests of clock alignment). */
    public Monitor monitor(int proc, String name, long skewNanos) {
        Monitor m = new Monitor(this, proc, name, skewNanos);
        monitors.add(m);
        for (EventSink s : sinks) {
            s.process(proc, name);
            s.host(proc, HostInfo.local());
        }
        return m;
    }

    void remove(Monitor m) {
        monitors.remove(m);
    }

    /** True when events of {@code level} are recorded. */
    public boolean enabled(Level level) {
        return (enabled & level.bit()) != 0;
    }

    /** Switches a class of events on or off while the program runs. */
    public void setEnabled(Level level, boolean on) {
        synchronized (this) {
            enabled = on ? enabled | level.bit() : enabled & ~level.bit();
        }
    }

    /** The enabled-classes mask (bits of {@link Level#bit()}). */
    public int enabledMask() {
        return enabled;
    }

    /** Sets the enabled-classes mask. */
    public void setEnabledMask(int mask) {
        enabled = mask & Level.ALL;
    }

    /** Passes one line of a process's standard output or error to the sinks ({@link EventSink#output}). */
    void output(int proc, long time, int stream, String line) {
        for (EventSink s : sinks) {
            s.output(proc, time, stream, line);
        }
    }

    void deliver(EventBuffer buf) {
        for (EventSink s : sinks) {
            s.accept(buf);
        }
    }

    /** Flushes every process's buffer and every sink. */
    public void flushAll() {
        for (Monitor m : monitors) {
            m.flush();
        }
        for (EventSink s : sinks) {
            s.flush();
        }
    }

    /** Flushes everything and stops the timer (sinks are closed by their owners). */
    @Override
    public void close() {
        flushAll();
        closed = true;
        timer.interrupt();
    }
}
