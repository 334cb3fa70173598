package org.dsmscope.monitor.route;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.dsmscope.monitor.analysis.ClockAligner;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.event.Level;

/**
 * Live viewing (seed 002 §4.2: trace data routed to the display while the program runs). Accepts viewer
 * connections on 127.0.0.1 and streams the routed events to each in the "dsmscope-live" format, version 1 (JSON
 * lines, documented in the monitor README), with clock-aligned timestamps once message pairs relate the processes'
 * clocks. Each viewer chooses its classes of events (command {@code levels LIST} on its connection); members emit
 * the union of what the recorder and the viewers want.
 *
 * <p>A viewer never slows the members: the route thread only copies events into the viewer's bounded queue and
 * drops what does not fit (counted, reported to the viewer as a {@code dropped} line); a writer thread per viewer
 * encodes and sends. A viewer that connects late gets the process names and the events from then on; one that
 * disconnects is forgotten.
 */
public final class LiveServer implements AutoCloseable {
    /** Format name, the first word of the first line a viewer receives. */
    public static final String FORMAT = "dsmscope-live";
    /** Format version, the second word of that line. */
    public static final int VERSION = 1;
    /** Default capacity of a viewer's queue, in events. */
    public static final int DEFAULT_QUEUE = 65_536;
    private static final long ALIGN_EVERY_NS = 200_000_000L;

    private final RouteServer route;
    private final ServerSocket server;
    private final int initialMask;
    private final int queueEvents;
    private final JsonFactory json = new JsonFactory();
    private final List<Viewer> viewers = new CopyOnWriteArrayList<>();
    private final Map<Integer, String> names = new ConcurrentHashMap<>();
    private final Map<Integer, HostInfo> hosts = new ConcurrentHashMap<>();
    private final ClockAligner clock = new ClockAligner(100_000);
    private final RouteServer.Subscription clockSub;
    private volatile Map<Integer, Long> offsets = Map.of();
    private long lastAlign;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicInteger connected = new AtomicInteger();
    private volatile boolean closed;

    /**
     * Listens on 127.0.0.1:{@code port} (0: any free port) for viewers of the events routed through {@code route};
     * a new viewer wants the classes in {@code initialMask} until it says otherwise, and its queue holds
     * {@code queueEvents} events.
     */
    public LiveServer(RouteServer route, int port, int initialMask, int queueEvents) throws IOException {
        this.route = route;
        this.initialMask = initialMask & Level.ALL;
        this.queueEvents = Math.max(1, queueEvents);
        json.setRootValueSeparator(null);
        server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        clockSub = route.subscribe(new EventSink() {
            @Override
            public void accept(EventBuffer b) {
                align(b);
            }

            @Override
            public void process(int proc, String name) {
                names.put(proc, name);
            }

            @Override
            public void host(int proc, HostInfo h) {
                hosts.put(proc, h);
            }
        }, Level.MESSAGE.bit(), true);
        Thread t = new Thread(this::acceptLoop, "dsmscope-live-accept");
        t.setDaemon(true);
        t.start();
    }

    /** The port viewers connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Viewers connected now. */
    public int viewers() {
        return viewers.size();
    }

    /** Events dropped so far because a viewer's queue was full (all viewers). */
    public long dropped() {
        return dropped.get();
    }

    /** Waits up to {@code millis} until {@code n} viewers have connected (since the start); true if they have. */
    public boolean awaitViewers(int n, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (connected.get() < n) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    private void align(EventBuffer b) {
        synchronized (clock) {
            clock.add(b);
            long now = System.nanoTime();
            if (now - lastAlign < ALIGN_EVERY_NS) {
                return;
            }
            lastAlign = now;
            TreeMap<Integer, Long> off = clock.offsets();
            Map<Integer, Long> linked = new HashMap<>();
            for (int p : clock.linked()) {
                linked.put(p, off.get(p));
            }
            offsets = Map.copyOf(linked);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                Viewer v = new Viewer(s);
                v.start();
                viewers.add(v);
                connected.incrementAndGet();
            } catch (IOException ex) {
                return;
            }
        }
    }

    /**
     * The run is over: each viewer gets the rest of its queue and a last line {@code end} with {@code status};
     * waits up to {@code millis} for them, then closes every connection.
     */
    public void finish(int status, long millis) throws InterruptedException {
        for (Viewer v : viewers) {
            v.end = status;
        }
        long deadline = System.currentTimeMillis() + millis;
        for (Viewer v : viewers) {
            long left = deadline - System.currentTimeMillis();
            if (left > 0) {
                v.writer.join(left);
            }
        }
        close();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ex) {
            // already closed
        }
        for (Viewer v : viewers) {
            v.gone();
        }
        clockSub.cancel();
    }

    /** One connected viewer: its subscription, bounded queue, writer and command reader. */
    private final class Viewer implements EventSink {
        final Socket socket;
        final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(4096);
        final ConcurrentLinkedQueue<EventBuffer> free = new ConcurrentLinkedQueue<>();
        final AtomicInteger queued = new AtomicInteger();
        final AtomicLong droppedHere = new AtomicLong();
        final Thread writer;
        final Thread reader;
        volatile RouteServer.Subscription sub;
        volatile boolean isGone;
        volatile Integer end;

        Viewer(Socket socket) {
            this.socket = socket;
            writer = new Thread(this::write, "dsmscope-live-writer");
            writer.setDaemon(true);
            reader = new Thread(this::read, "dsmscope-live-commands");
            reader.setDaemon(true);
        }

        void start() {
            sub = route.subscribe(this, initialMask, false, org.dsmscope.monitor.Router.LIVE_FLUSH_MS);
            for (Map.Entry<Integer, String> e : new TreeMap<>(names).entrySet()) {
                process(e.getKey(), e.getValue());
                HostInfo h = hosts.get(e.getKey());
                if (h != null) {
                    host(e.getKey(), h);
                }
            }
            writer.start();
            reader.start();
        }

        /** Called on a route thread: copies what fits into the queue, never blocks. */
        @Override
        public void accept(EventBuffer b) {
            if (isGone) {
                return;
            }
            int n = b.size();
            int take = Math.min(n, queueEvents - queued.get());
            if (take > 0) {
                EventBuffer copy = free.poll();
                if (copy == null || copy.capacity() < take) {
                    copy = new EventBuffer(Math.max(take, 1024));
                }
                copy.clear();
                for (int i = 0; i < take; i++) {
                    copy.addFrom(b, i);
                }
                queued.addAndGet(take);
                if (!queue.offer(copy)) {
                    queued.addAndGet(-take);
                    take = 0;
                }
            }
            if (take < n) {
                droppedHere.addAndGet(n - take);
                dropped.addAndGet(n - take);
            }
        }

        @Override
        public void process(int proc, String name) {
            if (!isGone) {
                queue.offer(new Object[] {"process", proc, name});
            }
        }

        @Override
        public void host(int proc, HostInfo h) {
            if (!isGone) {
                queue.offer(new Object[] {"host", proc, h});
            }
        }

        /** Called on a route thread: queues the line, or counts it as dropped when the queue is full. */
        @Override
        public void output(int proc, long time, int stream, String line) {
            if (!isGone && !queue.offer(new Object[] {"output", proc, time, stream, line})) {
                droppedHere.incrementAndGet();
                dropped.incrementAndGet();
            }
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    command(line.strip());
                }
            } catch (IOException ex) {
                // the viewer went away
            }
            gone(); // a viewer that closes its sending side has stopped viewing
        }

        private void command(String cmd) {
            if (cmd.isEmpty()) {
                return;
            }
            if (!cmd.startsWith("levels ")) {
                queue.offer(new Object[] {"error", "unknown command '" + cmd + "' (expected: levels LIST)"});
                return;
            }
            try {
                int m = Level.parseMask(cmd.substring(7));
                sub.setMask(m);
                queue.offer(new Object[] {"levels", Level.describe(m)});
            } catch (IllegalArgumentException e) {
                queue.offer(new Object[] {"error", e.getMessage()});
            }
        }

        void gone() {
            if (!isGone) {
                isGone = true;
                RouteServer.Subscription s = sub;
                if (s != null) {
                    s.cancel();
                }
                viewers.remove(this);
            }
            try {
                socket.close();
            } catch (IOException ex) {
                // closed already
            }
        }

        private void write() {
            try {
                OutputStream raw = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
                raw.write((FORMAT + " " + VERSION + "\n").getBytes(StandardCharsets.UTF_8));
                JsonGenerator g = json.createGenerator(raw);
                g.writeStartObject();
                g.writeStringField("kind", "hello");
                g.writeStringField("levels", Level.describe(initialMask));
                g.writeNumberField("queue", queueEvents);
                g.writeEndObject();
                g.writeRaw('\n');
                long reported = 0;
                while (!isGone) {
                    Object o = queue.poll(100, TimeUnit.MILLISECONDS);
                    long d = droppedHere.get();
                    if (d != reported) {
                        LiveFormat.counts(g, "dropped", "events", d - reported, "total", d);
                        reported = d;
                    }
                    if (o instanceof EventBuffer) {
                        EventBuffer b = (EventBuffer) o;
                        Map<Integer, Long> off = offsets;
                        for (int i = 0; i < b.size(); i++) {
                            LiveFormat.event(g, b, i, off.get(b.proc[i]));
                        }
                        queued.addAndGet(-b.size());
                        free.offer(b);
                    } else if (o != null && "output".equals(((Object[]) o)[0])) {
                        Object[] n = (Object[]) o;
                        LiveFormat.output(g, (Integer) n[1], (Long) n[2], offsets.get((Integer) n[1]), (Integer) n[3],
                                (String) n[4]);
                    } else if (o != null) {
                        LiveFormat.notice(g, (Object[]) o);
                    }
                    if (queue.isEmpty()) {
                        g.flush(); // may block on a slow viewer while the queue fills again
                        Integer status = end; // read before looking at the queue: nothing is queued after it
                        if (status != null && queue.isEmpty()) {
                            long d2 = droppedHere.get();
                            if (d2 != reported) {
                                LiveFormat.counts(g, "dropped", "events", d2 - reported, "total", d2);
                            }
                            LiveFormat.counts(g, "end", "status", status, "dropped", d2);
                            g.flush();
                            break;
                        }
                    }
                }
            } catch (IOException ex) {
                // the viewer went away or is too slow to be waited for at the end
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            gone();
        }
    }

    /** Encoding of the lines of the format (one JSON object per line). */
    static final class LiveFormat {
        /** Each type's seed name and level label by ordinal, made once (not per event). */
        private static final String[] TYPE = new String[EventType.values().length];
        private static final String[] LEVEL = new String[EventType.values().length];

        static {
            for (EventType t : EventType.values()) {
                TYPE[t.ordinal()] = t.seedName();
                LEVEL[t.ordinal()] = t.level.label();
            }
        }

        private LiveFormat() {
        }

        static void event(JsonGenerator g, EventBuffer b, int i, Long offset) throws IOException {
            EventType t = b.typeAt(i);
            g.writeStartObject();
            g.writeStringField("kind", "event");
            g.writeNumberField("t", b.time[i]);
            if (offset != null) {
                g.writeNumberField("ta", b.time[i] - offset);
            }
            g.writeNumberField("proc", b.proc[i]);
            g.writeStringField("type", t == null ? "?" + b.type[i] : TYPE[t.ordinal()]);
            g.writeStringField("level", t == null ? "?" : LEVEL[t.ordinal()]);
            g.writeNumberField("peer", b.peer[i]);
            g.writeObjectFieldStart("args");
            if (t != null) {
                field(g, t.fields[0], b.a[i]);
                field(g, t.fields[1], b.b[i]);
                field(g, t.fields[2], b.c[i]);
                field(g, t.fields[3], b.d[i]);
                field(g, t.fields[4], b.e[i]);
            }
            g.writeEndObject();
            g.writeEndObject();
            g.writeRaw('\n');
        }

        private static void field(JsonGenerator g, String name, long v) throws IOException {
            if (!"-".equals(name)) {
                g.writeNumberField(name, v);
            }
        }

        static void notice(JsonGenerator g, Object[] n) throws IOException {
            g.writeStartObject();
            g.writeStringField("kind", (String) n[0]);
            if ("process".equals(n[0])) {
                g.writeNumberField("proc", (Integer) n[1]);
                g.writeStringField("name", (String) n[2]);
            } else if ("host".equals(n[0])) {
                HostInfo h = (HostInfo) n[2];
                g.writeNumberField("proc", (Integer) n[1]);
                g.writeStringField("host", h.host);
                g.writeStringField("arch", h.arch);
                g.writeStringField("os", h.os);
                g.writeNumberField("cores", h.cores);
                g.writeStringField("jvm", h.jvm);
            } else if ("levels".equals(n[0])) {
                g.writeStringField("levels", (String) n[1]);
            } else {
                g.writeStringField("message", (String) n[1]);
            }
            g.writeEndObject();
            g.writeRaw('\n');
        }

        /** A line {@code {"kind":"output",...}}: one line of a process's standard output or error. */
        static void output(JsonGenerator g, int proc, long t, Long offset, int stream, String line)
                throws IOException {
            g.writeStartObject();
            g.writeStringField("kind", "output");
            g.writeNumberField("t", t);
            if (offset != null) {
                g.writeNumberField("ta", t - offset);
            }
            g.writeNumberField("proc", proc);
            g.writeStringField("stream", stream == EventSink.STDERR ? "err" : "out");
            g.writeStringField("line", line);
            g.writeEndObject();
            g.writeRaw('\n');
        }

        /** A line {@code {"kind":KIND,K1:V1,K2:V2}} ({@code dropped}, {@code end}). */
        static void counts(JsonGenerator g, String kind, String k1, long v1, String k2, long v2) throws IOException {
            g.writeStartObject();
            g.writeStringField("kind", kind);
            g.writeNumberField(k1, v1);
            g.writeNumberField(k2, v2);
            g.writeEndObject();
            g.writeRaw('\n');
        }
    }
}
