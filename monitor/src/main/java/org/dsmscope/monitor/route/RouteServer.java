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

/**
 * The tool's end of trace routing (seed 002 §4.2): accepts member connections on 127.0.0.1, passes every batch
 * to the sinks (the recorder, live viewers) and can switch classes of events on and off in all members at once.
 * A member that dies mid-run only ends its own connection.
 */
public final class RouteServer implements AutoCloseable {
    static final byte PROC = 'P';
    static final byte BATCH = 'B';
    static final byte MASK = 'M';

    private final ServerSocket server;
    private final List<EventSink> sinks = new CopyOnWriteArrayList<>();
    private final List<Socket> conns = new CopyOnWriteArrayList<>();
    private final List<Thread> readers = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** Classes of events switched on; sent to each member when it connects and whenever it changes. */
    private volatile int mask = org.dsmscope.monitor.event.Level.ALL;

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

    /** Adds a sink for routed events. */
    public void addSink(EventSink s) {
        sinks.add(s);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                conns.add(s);
                int m = mask;
                if (m != org.dsmscope.monitor.event.Level.ALL) {
                    sendMask(s, m);
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
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16))) {
            while (true) {
                byte kind = in.readByte();
                if (kind == PROC) {
                    int p = in.readInt();
                    String name = in.readUTF();
                    for (EventSink k : sinks) {
                        k.process(p, name);
                    }
                } else if (kind == BATCH) {
                    int n = in.readInt();
                    if (n < 0 || n > (1 << 24)) {
                        return;
                    }
                    if (buf.capacity() < n) {
                        buf = new EventBuffer(n);
                    }
                    buf.clear();
                    for (int i = 0; i < n; i++) {
                        buf.add(in.readLong(), in.readInt(), in.readByte(), in.readInt(), in.readLong(),
                                in.readLong(), in.readLong(), in.readLong(), in.readLong());
                    }
                    for (EventSink k : sinks) {
                        k.accept(buf);
                    }
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

    /**
     * Switches classes of events in every connected member and in members that connect later (bits of
     * {@link org.dsmscope.monitor.event.Level#bit()}).
     */
    public void setMask(int mask) {
        this.mask = mask;
        for (Socket s : conns) {
            sendMask(s, mask);
        }
    }

    /** The classes of events switched on. */
    public int mask() {
        return mask;
    }

    private static void sendMask(Socket s, int mask) {
        try {
            DataOutputStream o = new DataOutputStream(s.getOutputStream());
            synchronized (s) {
                o.writeByte(MASK);
                o.writeByte(mask);
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
