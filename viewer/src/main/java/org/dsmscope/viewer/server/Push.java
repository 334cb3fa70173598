package org.dsmscope.viewer.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.dsmscope.viewer.model.Source;

/**
 * The push channel of the live view (seed 002 §4.3: "display trace information as the program runs"; the
 * {@code dsmscope-view-push 1} messages of viewer/README.md): one thread wakes when a live input's reader has new
 * content ({@link Source#onArrival}), takes it into the timeline (the indexing that a request would otherwise do)
 * and tells every connected page the input's new end time and counts, at most once per {@link #GAP_MS}. The pages
 * then fetch only the window they draw.
 *
 * <p>A page never holds up the server or another page: each {@link Client} has at most one message in flight and,
 * per input, one waiting; a newer update replaces the waiting one and the replaced ones are counted ({@code missed}
 * in the message that finally goes), since each update describes the whole input (a page that missed some only
 * refetches). Sending is asynchronous (the {@link Peer}); a page that never reads keeps its one message in flight
 * until the connection's idle timeout closes it.
 */
final class Push implements AutoCloseable {
    /** Format name of the channel's messages (the {@code hello} message carries it and the version). */
    static final String FORMAT = "dsmscope-view-push";
    /** Version of the messages. */
    static final int VERSION = 1;
    /** Least time between two updates of one input (ms): arrivals within it are told together. */
    static final long GAP_MS = 20;
    /** An {@code alive} message goes to every page after this long without one (ms). */
    static final long ALIVE_MS = 15_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HELLO = -2;
    private static final int ALIVE = -1;

    /** One connected page's end of the channel, as the server sends to it. */
    interface Peer {
        /** Sends {@code text} without blocking; exactly one of {@code done} and {@code failed} runs later. */
        void send(String text, Runnable done, Consumer<Throwable> failed);

        /** Closes the connection. */
        void close();
    }

    /** A connected page: at most one message in flight, and the newest waiting update per input. */
    static final class Client {
        private final Peer peer;
        private boolean inFlight;
        private final LinkedHashMap<Integer, String> waiting = new LinkedHashMap<>();
        private final Map<Integer, Integer> missed = new HashMap<>();
        private volatile boolean gone;

        Client(Peer peer) {
            this.peer = peer;
        }

        /** Updates replaced before they could go, not yet reported in a sent message. */
        synchronized int missedNow() {
            int n = 0;
            for (int v : missed.values()) {
                n += v;
            }
            return n;
        }

        /**
         * Queues {@code text} for {@code input} ({@link #HELLO}, {@link #ALIVE}: not an update), replacing a waiting
         * one of the same input.
         */
        void offer(int input, String text) {
            String now;
            synchronized (this) {
                if (gone) {
                    return;
                }
                if (waiting.put(input, text) != null && input >= 0) {
                    missed.merge(input, 1, Integer::sum);
                }
                if (inFlight) {
                    return;
                }
                now = next();
            }
            go(now);
        }

        /** The next message to send, or null (caller holds this). */
        private String next() {
            var it = waiting.entrySet().iterator();
            if (!it.hasNext()) {
                return null;
            }
            var e = it.next();
            it.remove();
            Integer m = missed.remove(e.getKey());
            inFlight = true;
            String text = e.getValue();
            return m == null ? text : text.substring(0, text.length() - 1) + ",\"missed\":" + m + "}";
        }

        private void go(String text) {
            if (text != null) {
                try {
                    peer.send(text, this::done, x -> gone());
                } catch (RuntimeException e) {
                    gone(); // a connection that cannot even take the message: the other pages still get theirs
                }
            }
        }

        private void done() {
            String now;
            synchronized (this) {
                inFlight = false;
                now = gone ? null : next();
            }
            go(now);
        }

        void gone() {
            gone = true;
            peer.close();
        }

        boolean isGone() {
            return gone;
        }
    }

    private final List<Source> sources;
    private final Set<Client> clients = ConcurrentHashMap.newKeySet();
    /** The latest update told per input (a page that connects gets these); guards telling and joining. */
    private final Map<Integer, String> last = new HashMap<>();
    private final Thread thread;
    private boolean dirty;
    private volatile boolean closed;
    private volatile long updates;

    /** A channel over {@code sources} (the server's list: inputs added later are watched with {@link #watch}). */
    Push(List<Source> sources) {
        this.sources = sources;
        thread = new Thread(this::run, "dsmscope-view-push");
        thread.setDaemon(true);
        thread.start();
        for (Source s : sources) {
            watch(s);
        }
    }

    /** Watches a live input for arrivals (no-op for the others). */
    void watch(Source s) {
        if (s.live()) {
            s.onArrival(this::signal);
        }
    }

    /** New content somewhere: wakes the channel's thread (never blocks the reader). */
    private void signal() {
        synchronized (this) {
            dirty = true;
            notifyAll();
        }
    }

    /** A page connected: greets it with the format and the live inputs' current state. */
    Client add(Peer peer) {
        Client c = new Client(peer);
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("kind", "hello");
        hello.put("format", FORMAT);
        hello.put("version", VERSION);
        hello.put("gapMs", GAP_MS);
        hello.put("aliveMs", ALIVE_MS);
        c.offer(HELLO, text(hello));
        synchronized (last) { // no update told between the snapshot and joining the list
            for (Map.Entry<Integer, String> e : last.entrySet()) {
                c.offer(e.getKey(), e.getValue());
            }
            clients.add(c);
        }
        return c;
    }

    /** A page went away. */
    void remove(Client c) {
        clients.remove(c);
        c.gone = true;
    }

    /** Pages connected now. */
    int clients() {
        return clients.size();
    }

    /** Updates told so far (all inputs). */
    long updates() {
        return updates;
    }

    private void run() {
        long lastAlive = System.nanoTime();
        while (!closed) {
            try {
                synchronized (this) {
                    long wait = ALIVE_MS - (System.nanoTime() - lastAlive) / 1_000_000;
                    while (!dirty && !closed && wait > 0) {
                        wait(wait);
                        wait = ALIVE_MS - (System.nanoTime() - lastAlive) / 1_000_000;
                    }
                    dirty = false;
                }
                if (closed) {
                    return;
                }
                boolean told = tell();
                if (System.nanoTime() - lastAlive >= ALIVE_MS * 1_000_000) {
                    lastAlive = System.nanoTime();
                    broadcast(ALIVE, "{\"kind\":\"alive\"}");
                }
                if (told) {
                    Thread.sleep(GAP_MS);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // one bad update must not end the channel: the next arrival tells again
            }
        }
    }

    /** Takes each live input's new content in and tells the pages where it changed; true if any was told. */
    private boolean tell() {
        boolean told = false;
        for (int i = 0; i < sources.size(); i++) {
            Source s = sources.get(i);
            if (!s.live()) {
                continue;
            }
            String u = text(Api.update(i, s.timeline()));
            synchronized (last) {
                if (!u.equals(last.get(i))) {
                    last.put(i, u);
                    updates++;
                    broadcast(i, u);
                    told = true;
                }
            }
        }
        return told;
    }

    private void broadcast(int input, String text) {
        for (Client c : clients) {
            if (c.isGone()) {
                clients.remove(c);
            } else {
                c.offer(input, text);
            }
        }
    }

    private static String text(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        for (Client c : clients) {
            c.gone();
        }
        clients.clear();
    }
}
