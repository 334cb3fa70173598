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
 * {@code flushIntervalMs} (default 200 ms). One router per JVM serves all its monitored processes.
 *
 * <p>Threading: sinks and monitors are copy-on-write lists; the enabled mask is volatile; the timer is one daemon
 * thread.
 */
public final class Router implements AutoCloseable {
    /** Default timer flush interval (ms). */
    public static final long DEFAULT_FLUSH_MS = 200;

    private final List<EventSink> sinks = new CopyOnWriteArrayList<>();
    private final List<Monitor> monitors = new CopyOnWriteArrayList<>();
    private final long flushIntervalMs;
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
        this.flushIntervalMs = flushIntervalMs;
        timer = new Thread(this::timerLoop, "dsmscope-monitor-timer");
        timer.setDaemon(true);
        timer.start();
    }

    private void timerLoop() {
        while (!closed) {
            try {
                Thread.sleep(flushIntervalMs);
            } catch (InterruptedException e) {
                return;
            }
            for (Monitor m : monitors) {
                m.flush();
            }
            lastTimerFlush = System.nanoTime();
        }
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
