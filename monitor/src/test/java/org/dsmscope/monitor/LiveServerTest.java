package org.dsmscope.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.route.LiveClient;
import org.dsmscope.monitor.route.LiveServer;
import org.dsmscope.monitor.route.LiveWatch;
import org.dsmscope.monitor.route.RouteServer;
import org.dsmscope.monitor.route.SocketSink;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.HostInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Live viewing: the dsmscope-live 1 stream, classes switched by a viewer, slow and vanishing viewers. */
@Timeout(120)
class LiveServerTest {
    private static void waitFor(java.util.function.BooleanSupplier c) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!c.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(c.getAsBoolean(), "condition not reached within 30 s");
    }

    /** The next line that is not a process or host line. */
    private static JsonNode next(LiveClient c) throws Exception {
        JsonNode n = c.next();
        while (n != null && (n.path("kind").asText().equals("process") || n.path("kind").asText().equals("host"))) {
            n = c.next();
        }
        return n;
    }

    @Test
    void viewerGetsEachProcessHost_andTheLinesItPrints() throws Exception {
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL, 1000);
                Router r = new Router(20)) {
            try (LiveClient c = LiveClient.connect("127.0.0.1", live.port(), 10_000);
                    SocketSink s = new SocketSink(route.port(), r)) {
                assertEquals("hello", c.next().path("kind").asText());
                r.addSink(s);
                Monitor m = r.monitor(2, "m2");
                JsonNode n = c.next();
                assertEquals("process", n.path("kind").asText());
                n = c.next();
                assertEquals("host", n.path("kind").asText());
                assertEquals(2, n.path("proc").asInt());
                assertEquals(System.getProperty("os.arch"), n.path("arch").asText());
                assertEquals(Runtime.getRuntime().availableProcessors(), n.path("cores").asInt());
                assertEquals(HostInfo.local().host, n.path("host").asText());
                long before = m.now();
                java.io.PrintStream out = OutputCapture.tee(new java.io.PrintStream(
                        java.io.OutputStream.nullOutputStream()), m, EventSink.STDERR);
                out.print("first line\r\nsecond ");
                out.println("line");
                for (String want : new String[] {"first line", "second line"}) {
                    n = c.next();
                    assertEquals("output", n.path("kind").asText());
                    assertEquals(2, n.path("proc").asInt());
                    assertEquals("err", n.path("stream").asText());
                    assertEquals(want, n.path("line").asText());
                    assertTrue(n.path("t").asLong() >= before && n.path("t").asLong() <= m.now());
                }
            }
        }
    }

    @Test
    void whileALiveViewerWatches_membersFlushEveryLiveInterval_andTheirOwnIntervalAfterIt() throws Exception {
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL, 1000);
                Router r = new Router(); SocketSink s = new SocketSink(route.port(), r)) {
            r.addSink(s);
            Monitor m = r.monitor(1, "m1");
            route.addSink(new EventSink() {
                @Override
                public void accept(EventBuffer b) {
                }
            });
            assertEquals(0, route.memberFlush(), "a recorder alone asks for nothing");
            assertEquals(Router.DEFAULT_FLUSH_MS, r.flushInterval());
            try (LiveClient c = LiveClient.connect("127.0.0.1", live.port(), 10_000)) {
                assertEquals("hello", c.next().path("kind").asText());
                waitFor(() -> r.flushInterval() == Router.LIVE_FLUSH_MS);
                assertEquals(Router.LIVE_FLUSH_MS, route.memberFlush());
                m.emit(EventType.ADVANCE, -1, 5, 2, 0, 100, 0); // routed by the timer: no flush, no block
                assertEquals("Advance", next(c).path("type").asText());
            }
            waitFor(() -> r.flushInterval() == Router.DEFAULT_FLUSH_MS);
            assertEquals(0, route.memberFlush());
        }
    }

    @Test
    void viewerGetsEventsInTheFormat_andSwitchesTheMembersClasses() throws Exception {
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL, 1000);
                Router r = new Router(20)) {
            assertEquals(0, route.memberMask(), "nobody listens: members emit nothing");
            try (LiveClient c = LiveClient.connect("127.0.0.1", live.port(), 10_000);
                    SocketSink s = new SocketSink(route.port(), r)) {
                assertEquals("hello", c.next().path("kind").asText());
                waitFor(() -> route.memberMask() == Level.ALL);
                r.addSink(s);
                waitFor(() -> r.enabledMask() == Level.ALL);
                Monitor m = r.monitor(3, "m3");
                m.emit(EventType.ADVANCE, -1, 5, 2, 0, 100, 0);
                m.flush();
                JsonNode n = next(c);
                assertEquals("event", n.path("kind").asText());
                assertEquals("Advance", n.path("type").asText());
                assertEquals("program", n.path("level").asText());
                assertEquals(3, n.path("proc").asInt());
                assertEquals(5, n.path("args").path("event").asInt());
                assertEquals(2, n.path("args").path("value").asInt());

                c.command("levels transport");
                n = next(c);
                assertEquals("levels", n.path("kind").asText());
                assertEquals("transport", n.path("levels").asText());
                waitFor(() -> r.enabledMask() == Level.TRANSPORT.bit());
                m.emit(EventType.ADVANCE, -1, 5, 3, 0, 100, 0); // switched off in the member
                m.emit(EventType.FRAG_SEND, 1, 7, -1, 2, 64, 0);
                m.flush();
                n = next(c);
                assertEquals("Frag_Send", n.path("type").asText());
                assertEquals(7, n.path("args").path("seqno").asInt());

                c.command("levels tcp");
                n = next(c);
                assertEquals("error", n.path("kind").asText());
                assertTrue(n.path("message").asText().contains("unknown monitoring level 'tcp'"));
            }
            waitFor(() -> live.viewers() == 0);
            waitFor(() -> route.memberMask() == 0);
        }
    }

    @Test
    void slowAndVanishingViewers_neverHoldUpTheMembers_andTheSlowOneIsToldWhatItLost() throws Exception {
        AtomicLong recorded = new AtomicLong();
        int events = 300_000;
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL, 2000);
                Router r = new Router(20)) {
            route.addSink(new EventSink() {
                @Override
                public void accept(EventBuffer batch) {
                    recorded.addAndGet(batch.size());
                }
            });
            try (Socket slow = new Socket("127.0.0.1", live.port()); SocketSink s = new SocketSink(route.port(), r)) {
                waitFor(() -> live.viewers() == 1);
                LiveClient gone = LiveClient.connect("127.0.0.1", live.port(), 10_000);
                gone.close(); // connects and vanishes at once
                r.addSink(s);
                Monitor m = r.monitor(0, "m0");
                for (int i = 0; i < events; i++) {
                    m.emit(EventType.FRAG_SEND, 1, i, -1, 2, 1500, 0);
                }
                m.flush();
                // everything reaches the recorder although one viewer reads nothing (~40 MB of JSON for it)
                waitFor(() -> recorded.get() == events);
                assertTrue(live.dropped() > 0, "the slow viewer's queue overflowed");
                s.close();
                route.drain(30_000); // the last batch has reached the viewers too
                // the slow viewer starts reading: it is told how many events it lost, and gets the end
                Thread finisher = new Thread(() -> {
                    try {
                        live.finish(0, 60_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                finisher.start();
                long lost = 0;
                long got = 0;
                long endDropped = -1;
                boolean end = false;
                var in = new java.io.BufferedReader(new java.io.InputStreamReader(slow.getInputStream(),
                        StandardCharsets.UTF_8));
                assertEquals("dsmscope-live 1", in.readLine());
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.contains("\"kind\":\"dropped\"")) {
                        lost += Long.parseLong(line.replaceAll(".*\"events\":(\\d+).*", "$1"));
                    }
                    got += line.split("\"kind\":\"event\"", -1).length - 1;
                    if (line.contains("\"kind\":\"end\"")) {
                        endDropped = Long.parseLong(line.replaceAll(".*\"dropped\":(\\d+).*", "$1"));
                    }
                    end |= line.contains("\"kind\":\"end\"");

                }
                finisher.join();
                assertTrue(lost > 0, "a dropped line tells the slow viewer");
                assertEquals(events, got + lost, "every event was either sent to the viewer or counted as dropped");
                assertEquals(lost, endDropped, "the end line's count agrees with the dropped lines");
                assertTrue(end);
            }
        }
    }

    @Test
    void watchPrintsEventsAndRollups_fromAStream() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL, 1000);
                Router r = new Router(20)) {
            LiveClient c = LiveClient.connect("127.0.0.1", live.port(), 10_000);
            Thread t = new Thread(() -> {
                try (c) {
                    new LiveWatch(out, false, 0).run(c, null, out);
                } catch (Exception e) {
                    out.println("failed: " + e);
                }
            });
            t.start();
            waitFor(() -> route.memberMask() == Level.ALL);
            try (SocketSink s = new SocketSink(route.port(), r)) {
                r.addSink(s);
                waitFor(() -> r.enabledMask() == Level.ALL);
                Monitor m0 = r.monitor(0, "m0");
                Monitor m1 = r.monitor(1, "m1");
                m0.emit(EventType.FRAG_SEND, 1, 1, -1, 2, 100, 0);
                m0.emit(EventType.RETRANS_SEND, 1, 1, -1, 2, 100, 6);
                m1.emit(EventType.FRAG_RECV, 0, 1, -1, 2, 100, 0);
                m1.emit(EventType.DUPLICATE_FRAG, 0, 1, -1, 2, 100, 1);
                m0.flush();
                m1.flush();
                route.drain(100);
                Thread.sleep(500);
            }
            route.drain(5000);
            live.finish(0, 5000);
            t.join(30_000);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("Retrans_Send"), text);
        assertTrue(text.matches("(?s).*m0->m1 +1 +1 +1 +0 +1 +0.*"), text);
        assertTrue(text.contains("run ended with status 0"), text);
    }
}
