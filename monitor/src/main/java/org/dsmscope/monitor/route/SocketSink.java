package org.dsmscope.monitor.route;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.HostInfo;

/**
 * Routes a member JVM's flushed buffers over a loopback TCP connection to the {@link RouteServer} of the launching
 * tool (seed 002 §4.2: trace data travels from each process to the tool), and applies the enabled-classes mask
 * the tool sends back, so classes of events can be switched while the program runs, and the flush interval it
 * asks for while a live viewer watches. If the connection fails, the sink goes quiet and the application keeps
 * running.
 */
public final class SocketSink implements EventSink, AutoCloseable {
    private final Socket socket;
    private final DataOutputStream out;
    private volatile boolean broken;

    /** Connects to 127.0.0.1:port and listens for mask changes for {@code router}. */
    public SocketSink(int port, Router router) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    int kind = in.readByte();
                    if (kind == RouteServer.MASK) {
                        router.setEnabledMask(in.readByte());
                    } else if (kind == RouteServer.FLUSH) {
                        router.setFlushInterval(in.readInt());
                    }
                }
            } catch (IOException ex) {
                broken = true;
            }
        }, "dsmscope-route-control");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public synchronized void process(int proc, String name) {
        if (broken) {
            return;
        }
        try {
            out.writeByte(RouteServer.PROC);
            out.writeInt(proc);
            out.writeUTF(name);
            out.flush();
        } catch (IOException ex) {
            broken = true;
        }
    }

    @Override
    public synchronized void host(int proc, HostInfo h) {
        if (broken) {
            return;
        }
        try {
            out.writeByte(RouteServer.HOST);
            out.writeInt(proc);
            out.writeUTF(h.host);
            out.writeUTF(h.arch);
            out.writeUTF(h.os);
            out.writeInt(h.cores);
            out.writeUTF(h.jvm);
            out.flush();
        } catch (IOException ex) {
            broken = true;
        }
    }

    @Override
    public synchronized void output(int proc, long time, int stream, String line) {
        if (broken) {
            return;
        }
        try {
            out.writeByte(RouteServer.OUTPUT);
            out.writeInt(proc);
            out.writeLong(time);
            out.writeByte(stream);
            out.writeUTF(line.length() > 16_000 ? line.substring(0, 16_000) : line);
            out.flush();
        } catch (IOException ex) {
            broken = true;
        }
    }

    @Override
    public synchronized void accept(EventBuffer b) {
        if (broken) {
            return;
        }
        try {
            out.writeByte(RouteServer.BATCH);
            out.writeInt(b.size());
            for (int i = 0; i < b.size(); i++) {
                out.writeLong(b.time[i]);
                out.writeInt(b.proc[i]);
                out.writeByte(b.type[i]);
                out.writeInt(b.peer[i]);
                out.writeLong(b.a[i]);
                out.writeLong(b.b[i]);
                out.writeLong(b.c[i]);
                out.writeLong(b.d[i]);
                out.writeLong(b.e[i]);
            }
            out.flush();
        } catch (IOException ex) {
            broken = true;
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.flush();
            socket.close();
        } catch (IOException ex) {
            broken = true;
        }
    }
}
