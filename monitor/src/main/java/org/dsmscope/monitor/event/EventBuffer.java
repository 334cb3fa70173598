package org.dsmscope.monitor.event;

import java.util.Arrays;

/**
 * A batch of events in primitive arrays (seed 002 §4.2 "buffering support"): one slot per event, no per-event
 * objects. Not thread-safe: a {@link org.dsmscope.monitor.Monitor} fills it under its own lock and hands it to
 * sinks, which must copy or encode it before returning.
 */
public final class EventBuffer {
    /** Timestamps (ns since the epoch, on the emitting process's clock). */
    public final long[] time;
    /** Emitting process ids. */
    public final int[] proc;
    /** Event type codes ({@link EventType#code}). */
    public final byte[] type;
    /** Peer process ids (-1: none or multicast). */
    public final int[] peer;
    /** Generic fields a..e, named per type by {@link EventType#fields}. */
    public final long[] a, b, c, d, e;
    private int size;

    /** A buffer holding up to {@code capacity} events. */
    public EventBuffer(int capacity) {
        time = new long[capacity];
        proc = new int[capacity];
        type = new byte[capacity];
        peer = new int[capacity];
        a = new long[capacity];
        b = new long[capacity];
        c = new long[capacity];
        d = new long[capacity];
        e = new long[capacity];
    }

    /** Number of events held. */
    public int size() {
        return size;
    }

    /** Capacity in events. */
    public int capacity() {
        return time.length;
    }

    /** True when no further event fits. */
    public boolean full() {
        return size == time.length;
    }

    /** Empties the buffer. */
    public void clear() {
        size = 0;
    }

    /** Appends one event; the caller checks {@link #full()} first. */
    public void add(long t, int p, int code, int pr, long fa, long fb, long fc, long fd, long fe) {
        int i = size++;
        time[i] = t;
        proc[i] = p;
        type[i] = (byte) code;
        peer[i] = pr;
        a[i] = fa;
        b[i] = fb;
        c[i] = fc;
        d[i] = fd;
        e[i] = fe;
    }

    /** Copies event {@code i} of {@code src} to the end of this buffer. */
    public void addFrom(EventBuffer src, int i) {
        add(src.time[i], src.proc[i], src.type[i], src.peer[i], src.a[i], src.b[i], src.c[i], src.d[i], src.e[i]);
    }

    /** The event type of event {@code i}. */
    public EventType typeAt(int i) {
        return EventType.of(type[i]);
    }

    /** A readable one-line rendering of event {@code i} (for tests and dumps). */
    public String describe(int i) {
        EventType t = typeAt(i);
        StringBuilder sb = new StringBuilder();
        sb.append(time[i]).append(" p").append(proc[i]).append(' ').append(t == null ? "?" + type[i] : t.seedName());
        sb.append(" peer=").append(peer[i]);
        long[] v = {a[i], b[i], c[i], d[i], e[i]};
        for (int k = 0; k < 5; k++) {
            if (t != null && !"-".equals(t.fields[k])) {
                sb.append(' ').append(t.fields[k]).append('=').append(v[k]);
            }
        }
        return sb.toString();
    }

    /** Grows nothing: buffers are fixed; this returns a copy with exactly the held events (tests). */
    public EventBuffer copy() {
        EventBuffer out = new EventBuffer(Math.max(1, size));
        for (int i = 0; i < size; i++) {
            out.addFrom(this, i);
        }
        return out;
    }

    @Override
    public String toString() {
        return "EventBuffer[" + size + "/" + capacity() + "]" + Arrays.toString(Arrays.copyOf(type, size));
    }
}
