package org.dsmscope.monitor.route;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.event.Level;

/**
 * The tool's end of trace routing (seed 002 §4.2): accepts member connections on 127.0.0.1, passes every batch
 * to the sinks (the recorder, live viewers) and switches classes of events on and off in all members at once.
 * Each sink is a {@link Subscription} with the classes it wants; members emit the union of what the sinks want
 * (nothing while no one listens) and each sink gets only its own classes. A sink may also ask for prompt delivery
 * (a live viewer): while one does, members flush their buffers every that many milliseconds instead of their
 * default (the {@code F} control message, {@link org.dsmscope.monitor.Router#setFlushInterval}); the recorder
 * alone leaves the members' flush as it is. A member that dies mid-run only ends its own connection.
 */
public final class RouteServer implements AutoCloseable {
    static final byte PROC = 'P';
    static final byte BATCH = 'B';
    static final byte MASK = 'M';
    static final byte HOST = 'H';
    static final byte OUTPUT = 'O';
    static final byte FLUSH = 'F';

    /** A sink and the classes of events it wants (bits of {@link Level#bit()}), changeable while members run. */
    public final class Subscription {
        final EventSink sink;
        final boolean passive;
        final boolean followsDefault;
        final long flushMs;
        volatile int mask;

        Subscription(EventSink sink, int mask, boolean passive, boolean followsDefault, long flushMs) {
            this.sink = sink;
            this.mask = mask & Level.ALL;
            this.passive = passive;
            this.followsDefault = followsDefault;
            this.flushMs = Math.max(0, flushMs);
        }

        /** Switches the classes this sink wants; members are told at once if the union changes. */
        public void setMask(int m) {
            mask = m & Level.ALL;
            pushMask();
        }

        /** The classes this sink wants. */
        public int mask() {
            return mask;
        }

        /** Stops delivering to this sink. */
        public void cancel() {
            subs.remove(this);
            pushMask();
        }
    }

    private final ServerSocket server;
    private final List<Subscription> subs = new CopyOnWriteArrayList<>();
    private final List<Socket> conns = new CopyOnWriteArrayList<>();
    private final List<Thread> readers = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** Classes wanted by sinks added with {@link #addSink} (the recorder's levels). */
    private volatile int defaultMask = Level.ALL;
    /** Classes the members emit: the union over subscriptions; sent on connect and whenever it changes. */
    private int memberMask = Level.ALL;
    /** The flush interval members are asked for (ms; 0: their own default); sent on connect and on change. */
    private long memberFlush;

    /** Listens on an ephemeral loopback port. */
    public RouteServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "dsmscope-route-accept");
        t.setDaemon(true);
        t.start();
    }

    /** The port members connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Adds a sink that wants the classes set by {@link #setMask} (all by default). */
    public void addSink(EventSink s) {
        subs.add(new Subscription(s, defaultMask, false, true, 0));
        pushMask();
    }

    /**
     * Adds a sink wanting the classes in {@code mask}. A passive sink asks for nothing: it gets the classes of its
     * mask only while other sinks have members emit them (e.g. message events for clock alignment).
     */
    public Subscription subscribe(EventSink s, int mask, boolean passive) {
        return subscribe(s, mask, passive, 0);
    }

    /**
     * As {@link #subscribe(EventSink, int, boolean)}, for a sink that wants events promptly: while it is
     * subscribed, members flush their buffers at least every {@code flushMs} milliseconds (0: no wish).
     */
    public Subscription subscribe(EventSink s, int mask, boolean passive, long flushMs) {
        Subscription sub = new Subscription(s, mask, passive, false, flushMs);
        subs.add(sub);
        pushMask();
        return sub;
    }

    /** The flush interval members are asked for now (ms; 0: their own default). */
    public synchronized long memberFlush() {
        return memberFlush;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                synchronized (this) {
                    conns.add(s);
                    if (memberMask != Level.ALL) {
                        sendControl(s, MASK, memberMask);
                    }
                    if (memberFlush != 0) {
                        sendControl(s, FLUSH, (int) memberFlush);
                    }
                }
                Thread r = new Thread(() -> read(s), "dsmscope-route-reader");
                r.setDaemon(true);
                readers.add(r);
                r.start();
            } catch (IOException ex) {
                return;
            }
        }
    }

    private void read(Socket s) {
        EventBuffer buf = new EventBuffer(org.dsmscope.monitor.Monitor.CAPACITY);
        EventBuffer part = new EventBuffer(org.dsmscope.monitor.Monitor.CAPACITY);
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16))) {
            while (true) {
                byte kind = in.readByte();
                if (kind == PROC) {
                    int p = in.readInt();
                    String name = in.readUTF();
                    for (Subscription k : subs) {
                        k.sink.process(p, name);
                    }
                } else if (kind == HOST) {
                    int p = in.readInt();
                    HostInfo h = new HostInfo(in.readUTF(), in.readUTF(), in.readUTF(), in.readInt(), in.readUTF());
                    for (Subscription k : subs) {
                        k.sink.host(p, h);
                    }
                } else if (kind == OUTPUT) {
                    int p = in.readInt();
                    long t = in.readLong();
                    int stream = in.readByte();
                    String line = in.readUTF();
                    for (Subscription k : subs) {
                        k.sink.output(p, t, stream, line);
                    }
                } else if (kind == BATCH) {
                    int n = in.readInt();
                    if (n < 0 || n > (1 << 24)) {
                        return;
                    }
                    if (buf.capacity() < n) {
                        buf = new EventBuffer(n);
                        part = new EventBuffer(n);
                    }
                    buf.clear();
                    for (int i = 0; i < n; i++) {
                        buf.add(in.readLong(), in.readInt(), in.readByte(), in.readInt(), in.readLong(),
                                in.readLong(), in.readLong(), in.readLong(), in.readLong());
                    }
                    deliver(buf, part);
                } else {
                    return;
                }
            }
        } catch (EOFException ex) {
            // member closed its connection
        } catch (IOException ex) {
            // member died: its events up to here are kept
        }
    }

    /** Passes a batch to every sink, restricted to the classes it wants ({@code part} is scratch space). */
    private void deliver(EventBuffer buf, EventBuffer part) {
        int present = 0;
        for (int i = 0; i < buf.size(); i++) {
            present |= levelBit(buf.type[i]);
        }
        for (Subscription k : subs) {
            int m = k.mask;
            if ((present & m) == 0) {
                continue;
            }
            if ((present & ~m) == 0) {
                k.sink.accept(buf);
                continue;
            }
            part.clear();
            for (int i = 0; i < buf.size(); i++) {
                if ((levelBit(buf.type[i]) & m) != 0) {
                    part.addFrom(buf, i);
                }
            }
            k.sink.accept(part);
        }
    }

    private static int levelBit(byte code) {
        EventType t = EventType.of(code);
        return t == null ? 0 : t.level.bit();
    }

    /**
     * Sets the classes of events wanted by the sinks added with {@link #addSink} (the recorder's levels, bits of
     * {@link Level#bit()}); members are switched at once, also those that connect later.
     */
    public void setMask(int mask) {
        defaultMask = mask & Level.ALL;
        for (Subscription k : subs) {
            if (k.followsDefault) {
                k.mask = defaultMask;
            }
        }
        pushMask();
    }

    /** The classes of events wanted by the sinks added with {@link #addSink}. */
    public int mask() {
        return defaultMask;
    }

    /** The classes of events members emit: the union of what the sinks want. */
    public synchronized int memberMask() {
        return memberMask;
    }

    private synchronized void pushMask() {
        int m = 0;
        long flush = 0;
        for (Subscription k : subs) {
            if (!k.passive) {
                m |= k.mask;
                if (k.flushMs > 0 && (flush == 0 || k.flushMs < flush)) {
                    flush = k.flushMs;
                }
            }
        }
        if (m != memberMask) {
            memberMask = m;
            for (Socket s : conns) {
                sendControl(s, MASK, m);
            }
        }
        if (flush != memberFlush) {
            memberFlush = flush;
            for (Socket s : conns) {
                sendControl(s, FLUSH, (int) flush);
            }
        }
    }

    /** A control message to a member: the mask (one byte) or the flush interval (an int, ms). */
    private static void sendControl(Socket s, byte kind, int value) {
        try {
            DataOutputStream o = new DataOutputStream(s.getOutputStream());
            synchronized (s) {
                o.writeByte(kind);
                if (kind == FLUSH) {
                    o.writeInt(value);
                } else {
                    o.writeByte(value);
                }
                o.flush();
            }
        } catch (IOException ex) {
            // that member is gone
        }
    }

    /** Waits (up to {@code millis}) for all member connections to end, then stops listening. */
    public void drain(long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        for (Thread t : readers) {
            long left = deadline - System.currentTimeMillis();
            if (left > 0) {
                t.join(left);
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : conns) {
            s.close();
        }
    }
}
