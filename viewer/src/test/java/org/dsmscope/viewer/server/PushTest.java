package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.dsmscope.viewer.model.Source;
import org.dsmscope.viewer.model.Timeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The live push channel ({@link Push}, {@code /api/push}): updates told as a live input grows, the token and origin
 * rules before the upgrade, and pages that never read holding up no one.
 */
@Timeout(120)
class PushTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A live input whose growth the test drives: one lane, a computation interval per {@link #grow}. */
    static final class Growing implements Source {
        final Timeline tl = new Timeline("growing", "live", "ns", new String[] {"none", "computation"},
                new Timeline.Kind[1]);
        volatile Runnable signal = () -> { };
        long t;

        Growing() {
            tl.addLane("m0");
        }

        void grow() {
            tl.state(0, t, t + 1000, 1);
            t += 1000;
            signal.run();
        }

        @Override
        public Timeline timeline() {
            return tl;
        }

        @Override
        public Map<String, Object> tables(long t0, long t1) {
            return new LinkedHashMap<>();
        }

        @Override
        public boolean live() {
            return true;
        }

        @Override
        public void onArrival(Runnable s) {
            signal = s;
            s.run();
        }
    }

    /** A peer that records what it is sent and completes each send only when the test says (or never). */
    static final class FakePeer implements Push.Peer {
        final List<String> texts = new CopyOnWriteArrayList<>();
        final List<Runnable> unfinished = new CopyOnWriteArrayList<>();
        final boolean reads;

        FakePeer(boolean reads) {
            this.reads = reads;
        }

        @Override
        public void send(String text, Runnable done, Consumer<Throwable> failed) {
            texts.add(text);
            if (reads) {
                done.run();
            } else {
                unfinished.add(done);
            }
        }

        @Override
        public void close() {
        }

        long lastEnd() throws Exception {
            for (int i = texts.size() - 1; i >= 0; i--) {
                JsonNode n = JSON.readTree(texts.get(i));
                if (n.path("kind").asText().equals("update")) {
                    return n.path("end").asLong();
                }
            }
            return -1;
        }
    }

    private static void waitFor(BooleanSupplier c) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!c.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(c.getAsBoolean(), "condition not reached within 30 s");
    }

    @Test
    void aPageThatNeverReads_holdsOneMessage_missesUpdates_andTheOthersGetEveryNewEnd() throws Exception {
        Growing in = new Growing();
        List<Source> sources = new ArrayList<>(List.of(in));
        try (Push push = new Push(sources)) {
            FakePeer stuck = new FakePeer(false);
            FakePeer good = new FakePeer(true);
            Push.Client stuckClient = push.add(stuck);
            push.add(good);
            assertEquals("dsmscope-view-push", JSON.readTree(good.texts.get(0)).path("format").asText());
            assertEquals(1, JSON.readTree(good.texts.get(0)).path("version").asInt());
            for (int k = 1; k <= 40; k++) {
                in.grow();
                long want = in.t;
                waitFor(() -> {
                    try {
                        return good.lastEnd() == want;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            assertEquals(1, stuck.texts.size(), "one message in flight, nothing more sent to a page that never reads");
            assertEquals(2, push.clients());
            assertTrue(push.updates() >= 40, "an update per growth: " + push.updates());
            assertTrue(stuckClient.missedNow() >= 38, "the replaced updates are counted: " + stuckClient.missedNow());
            // the page reads again: it gets the newest update, saying how many it missed, and nothing older
            stuck.unfinished.get(0).run();
            waitFor(() -> stuck.texts.size() == 2);
            JsonNode n = JSON.readTree(stuck.texts.get(1));
            assertEquals("update", n.path("kind").asText());
            assertEquals(in.t, n.path("end").asLong());
            assertTrue(n.path("missed").asInt() >= 38, n.toString());
        }
    }

    /** A WebSocket client that keeps every message it gets. */
    static final class Listener implements WebSocket.Listener {
        final List<JsonNode> got = new CopyOnWriteArrayList<>();
        private final StringBuilder part = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                try {
                    got.add(JSON.readTree(part.toString()));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                part.setLength(0);
            }
            ws.request(1);
            return null;
        }

        long lastEnd() {
            for (int i = got.size() - 1; i >= 0; i--) {
                if (got.get(i).path("kind").asText().equals("update")) {
                    return got.get(i).path("end").asLong();
                }
            }
            return -1;
        }
    }

    private static CompletableFuture<WebSocket> open(String url, Listener l, String... headers) {
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b.buildAsync(URI.create(url), l);
    }

    private static int refusedWith(CompletableFuture<WebSocket> f) throws Exception {
        try {
            f.get(30, TimeUnit.SECONDS);
            return 101;
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause() instanceof CompletionException ? e.getCause().getCause() : e.getCause();
            assertTrue(c instanceof WebSocketHandshakeException, String.valueOf(c));
            return ((WebSocketHandshakeException) c).getResponse().statusCode();
        }
    }

    @Test
    void withAToken_thePushChannelRefusesAnUpgradeWithoutIt_andAnotherSitesPage() throws Exception {
        String token = ViewServer.newToken();
        Growing in = new Growing();
        try (ViewServer s = new ViewServer(List.of(in), "127.0.0.1", 0, token)) {
            String ws = "ws://127.0.0.1:" + s.port() + "/api/push";
            assertEquals(401, refusedWith(open(ws, new Listener())));
            assertEquals(401, refusedWith(open(ws + "?token=" + "0".repeat(32), new Listener())));
            assertEquals(403, refusedWith(open(ws + "?token=" + token, new Listener(), "Origin",
                    "http://evil.example")));
            Listener l = new Listener();
            WebSocket socket = open(ws + "?token=" + token, l).get(30, TimeUnit.SECONDS);
            waitFor(() -> !l.got.isEmpty());
            assertEquals("hello", l.got.get(0).path("kind").asText());
            in.grow();
            waitFor(() -> l.lastEnd() == in.t);
            socket.abort();
            assertEquals(400, TokenTest.get("http://127.0.0.1:" + s.port() + "/api/push?token=" + token)
                    .statusCode(), "a plain GET is no upgrade");
        }
    }

    @Test
    void aRealSocketThatNeverReads_doesNotStopAnotherPageFromGettingUpdates() throws Exception {
        Growing in = new Growing();
        try (ViewServer s = new ViewServer(List.of(in), "127.0.0.1", 0, null);
                java.net.Socket mute = new java.net.Socket()) {
            mute.setReceiveBufferSize(1024);
            mute.connect(new java.net.InetSocketAddress("127.0.0.1", s.port()));
            mute.getOutputStream().write(("GET /api/push HTTP/1.1\r\nHost: 127.0.0.1:" + s.port() + "\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream head = mute.getInputStream();
            byte[] status = new byte[12];
            assertEquals(12, head.readNBytes(status, 0, 12));
            String got = new String(status, StandardCharsets.US_ASCII);
            if (!got.equals("HTTP/1.1 101")) {
                got += new String(head.readNBytes(2000), StandardCharsets.UTF_8);
            }
            assertEquals("HTTP/1.1 101", got, "upgraded, then never read");
            Listener l = new Listener();
            WebSocket socket = open("ws://127.0.0.1:" + s.port() + "/api/push", l).get(30, TimeUnit.SECONDS);
            for (int k = 0; k < 300; k++) {
                in.grow();
                if (k % 30 == 29) {
                    waitFor(() -> l.lastEnd() == in.t);
                }
            }
            waitFor(() -> l.lastEnd() == in.t);
            assertTrue(l.got.size() >= 10, "the reading page got updates all along: " + l.got.size());
            socket.abort();
        }
    }
}
