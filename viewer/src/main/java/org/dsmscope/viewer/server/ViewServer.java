package org.dsmscope.viewer.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.viewer.model.Filter;
import org.dsmscope.viewer.model.Source;
import org.dsmscope.viewer.model.Timeline;
import org.dsmscope.viewer.model.Window;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;

/**
 * The viewer's web server (SPEC §9, seed 002 §4.3): Jetty 12's core handler API, serving the page's own resources
 * (a fixed list, read from the jar) and a JSON API over the inputs named on the command line; no request path ever
 * reaches the file system. Bound to loopback by default, where requests must name the server by its loopback
 * address (a DNS-rebinding page cannot); bound elsewhere, every request must carry the run's random token (query
 * parameter {@code token}, or the cookie the page gets with it), else 401. The live page's push channel
 * ({@code /api/push}, a WebSocket: {@link Push}) passes the same check before its upgrade, and its {@code Origin}
 * must be this server's own.
 */
public final class ViewServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[][] ASSETS = {
        {"/", "index.html", "text/html; charset=utf-8"},
        {"/index.html", "index.html", "text/html; charset=utf-8"},
        {"/view.css", "view.css", "text/css; charset=utf-8"},
        {"/core.js", "core.js", "text/javascript; charset=utf-8"},
        {"/data.js", "data.js", "text/javascript; charset=utf-8"},
        {"/spacetime.js", "spacetime.js", "text/javascript; charset=utf-8"},
        {"/views.js", "views.js", "text/javascript; charset=utf-8"},
        {"/input.js", "input.js", "text/javascript; charset=utf-8"},
        {"/panels.js", "panels.js", "text/javascript; charset=utf-8"},
        {"/main.js", "main.js", "text/javascript; charset=utf-8"},
        {"/live.js", "live.js", "text/javascript; charset=utf-8"},
    };
    private static final String COOKIE = "dsmscope_token";

    private final List<Source> sources;
    private final String token;
    private final boolean loopback;
    private final Server server;
    private final ServerConnector connector;
    private final Map<String, byte[]> assets = new HashMap<>();
    private volatile Launches launches;
    private final Push push;
    private final ServerWebSocketContainer sockets;
    /**
     * The latest window and table answers by input, content version and query: a window asked again at the same
     * level of detail (zooming back, a second tab, the live page between arrivals) is answered from here. Guarded
     * by itself; at most {@link #CACHED} answers.
     */
    private final Map<String, byte[]> answers = new LinkedHashMap<>(2 * CACHED, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, byte[]> e) {
            return size() > CACHED;
        }
    };
    private static final int CACHED = 64;

    /**
     * A server for {@code sources} on {@code bind}:{@code port} (0: a free port); {@code token} null on loopback
     * (then only loopback host names are accepted), required elsewhere.
     */
    public ViewServer(List<Source> sources, String bind, int port, String token) throws IOException {
        this.sources = new java.util.concurrent.CopyOnWriteArrayList<>(sources);
        this.token = token;
        InetAddress addr = InetAddress.getByName(bind);
        this.loopback = addr.isLoopbackAddress();
        if (!loopback && token == null) {
            throw new IllegalArgumentException("a token is required to bind " + bind);
        }
        for (String[] a : ASSETS) {
            try (InputStream in = ViewServer.class.getResourceAsStream("/org/dsmscope/viewer/web/" + a[1])) {
                if (in == null) {
                    throw new IOException("viewer resource missing: " + a[1]);
                }
                assets.put(a[1], in.readAllBytes());
            }
        }
        QueuedThreadPool pool = new QueuedThreadPool(16, 2);
        pool.setName("dsmscope-view");
        pool.setDaemon(true);
        server = new Server(pool);
        push = new Push(this.sources);
        sockets = ServerWebSocketContainer.ensure(server);
        sockets.setIdleTimeout(Duration.ofMillis(3 * Push.ALIVE_MS)); // a page that never reads is closed then
        sockets.setMaxTextMessageSize(1024); // the page sends nothing
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(bind);
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request req, Response resp, Callback cb) {
                try {
                    serve(req, resp, cb);
                } catch (IllegalArgumentException e) {
                    send(resp, cb, 400, "application/json", error(e.getMessage()));
                } catch (Exception e) {
                    send(resp, cb, 500, "application/json", error(e.toString()));
                }
                return true;
            }
        });
        try {
            server.start();
        } catch (Exception e) {
            close();
            throw new IOException("cannot listen on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** Offers the page's form that starts DSM programs ({@code /api/launch}); their runs die with this server. */
    public void launches(Launches l) {
        launches = l;
    }

    /** The launch form's runs, or null (tests). */
    Launches launchesForTest() {
        return launches;
    }

    /** A random token of 128 bits, hex. */
    public static String newToken() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The port listened on. */
    public int port() {
        return connector.getLocalPort();
    }

    /** The page's URL (with the token when one is required). */
    public String url() {
        String host = connector.getHost();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + port() + "/" + (token == null ? "" : "?token=" + token);
    }

    private static byte[] error(String msg) {
        try {
            return JSON.writeValueAsBytes(Map.of("error", msg == null ? "error" : msg));
        } catch (IOException e) {
            return "{\"error\":\"error\"}".getBytes(StandardCharsets.UTF_8);
        }
    }

    private static void send(Response resp, Callback cb, int status, String type, byte[] body) {
        resp.setStatus(status);
        resp.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        resp.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        resp.getHeaders().put("X-Content-Type-Options", "nosniff");
        resp.getHeaders().put("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:");
        resp.write(true, ByteBuffer.wrap(body), cb);
    }

    private boolean allowed(Request req, Fields q) {
        if (token == null) {
            String host = req.getHeaders().get(HttpHeader.HOST);
            if (host == null) {
                return false;
            }
            String h = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1)
                    : host.contains(":") ? host.substring(0, host.lastIndexOf(':')) : host;
            return h.equals("127.0.0.1") || h.equals("localhost") || h.equals("[::1]");
        }
        String given = q.getValue("token");
        if (given == null) {
            for (HttpCookie c : Request.getCookies(req)) {
                if (COOKIE.equals(c.getName())) {
                    given = c.getValue();
                }
            }
        }
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    private void serve(Request req, Response resp, Callback cb) throws IOException {
        Fields q = Request.extractQueryParameters(req);
        if (!allowed(req, q)) {
            send(resp, cb, 401, "text/plain; charset=utf-8",
                    "401: this viewer needs the token printed when it started (?token=...)\n"
                            .getBytes(StandardCharsets.UTF_8));
            return;
        }
        if (token != null && q.getValue("token") != null) {
            Response.addCookie(resp, HttpCookie.build(COOKIE, token).path("/").httpOnly(true)
                    .sameSite(HttpCookie.SameSite.STRICT).build());
        }
        String path = req.getHttpURI().getPath();
        if (path.equals("/api/push")) {
            push(req, resp, cb);
            return;
        }
        for (String[] a : ASSETS) {
            if (a[0].equals(path)) {
                send(resp, cb, 200, a[2], assets.get(a[1]));
                return;
            }
        }
        Map<String, String> p = new HashMap<>();
        for (Fields.Field f : q) {
            p.put(f.getName(), f.getValue());
        }
        switch (path) {
            case "/api/inputs":
                json(resp, cb, inputs());
                return;
            case "/api/meta":
                json(resp, cb, Api.meta(source(p).timeline()));
                return;
            case "/api/window": {
                Timeline tl = source(p).timeline();
                long t0 = num(p, "t0", 0), t1 = num(p, "t1", Math.max(1, tl.end()));
                Filter f = Filter.parse(p);
                int bins = (int) num(p, "bins", 800);
                String key = cacheKey(path, p, tl, t0 + "," + t1 + "," + bins);
                byte[] body = cached(key);
                if (body == null) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
                    try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
                        Window.write(tl, t0, t1, bins, f, g);
                    }
                    body = remember(key, out.toByteArray());
                }
                send(resp, cb, 200, "application/json", body);
                return;
            }
            case "/api/event": {
                Source s = source(p);
                Map<String, Object> e = Api.event(s.timeline(), (int) num(p, "id", -1));
                String data = s.describe((int) num(p, "id", -1));
                if (data != null) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> f = (Map<String, Object>) e.get("fields");
                    f.put("data", data);
                }
                json(resp, cb, e);
                return;
            }
            case "/api/arrow":
                json(resp, cb, Api.arrow(source(p).timeline(), (int) num(p, "id", -1)));
                return;
            case "/api/search":
                json(resp, cb, Api.search(source(p).timeline(), p.getOrDefault("q", ""), num(p, "from", -1),
                        !"prev".equals(p.get("dir")), Filter.parse(p)));
                return;
            case "/api/tables": {
                Source s = source(p);
                long t0 = num(p, "t0", 0), t1 = num(p, "t1", Math.max(1, s.timeline().end()));
                String key = cacheKey(path, p, s.timeline(), t0 + "," + t1);
                byte[] body = cached(key);
                if (body == null) {
                    body = remember(key, JSON.writeValueAsBytes(s.tables(t0, t1)));
                }
                send(resp, cb, 200, "application/json", body);
                return;
            }
            case "/api/output": {
                Source s = source(p);
                json(resp, cb, Api.output(s.timeline(), s.outputs(), num(p, "at", Long.MAX_VALUE),
                        (int) num(p, "limit", 200)));
                return;
            }
            case "/api/launch":
                launch(req, p, resp, cb);
                return;
            case "/api/levels": {
                Source s = source(p);
                if (!(s instanceof LiveControl)) {
                    throw new IllegalArgumentException("input " + p.get("input") + " is not live");
                }
                ((LiveControl) s).levels(p.getOrDefault("levels", "all"));
                json(resp, cb, Map.of("levels", p.getOrDefault("levels", "all")));
                return;
            }
            default:
                send(resp, cb, 404, "application/json", error("no such resource: " + path));
        }
    }

    /**
     * The launch form's API: GET tells whether it is offered and what ran; POST starts a run. A POST must carry the
     * header {@code X-Dsmscope: launch} (a page of another origin cannot send it without a CORS pre-flight, which
     * this server never grants) and, when the browser names its {@code Origin}, come from this server's own.
     */
    private void launch(Request req, Map<String, String> p, Response resp, Callback cb) throws IOException {
        Launches l = launches;
        if (!"POST".equals(req.getMethod())) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("enabled", l != null);
            m.put("programs", l == null ? List.of() : l.programs());
            m.put("maxMembers", Launches.MAX_MEMBERS);
            m.put("runs", l == null ? List.of() : l.runs());
            json(resp, cb, m);
            return;
        }
        String origin = req.getHeaders().get(HttpHeader.ORIGIN);
        String host = req.getHeaders().get(HttpHeader.HOST);
        if (l == null || !"launch".equals(req.getHeaders().get("X-Dsmscope"))
                || (origin != null && !origin.equals("http://" + host))) {
            send(resp, cb, 403, "application/json", error(l == null ? "this viewer was started without --launch"
                    : "a launch must come from this viewer's own page"));
            return;
        }
        int input;
        try {
            input = l.start(p.getOrDefault("program", ""), (int) num(p, "members", 0), p.getOrDefault("args", ""),
                    parseLoss(p.get("loss")), s -> {
                        synchronized (sources) {
                            sources.add(s);
                            push.watch(s);
                            return sources.size() - 1;
                        }
                    });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        json(resp, cb, Map.of("input", input));
    }

    /**
     * The push channel: a WebSocket upgrade, allowed (like every request) only with the token or on loopback host
     * names, and only from this server's own page when the browser names an {@code Origin} (a page of another site
     * could otherwise open it: WebSockets are not bound by the same-origin rule).
     */
    private void push(Request req, Response resp, Callback cb) {
        String origin = req.getHeaders().get(HttpHeader.ORIGIN);
        String host = req.getHeaders().get(HttpHeader.HOST);
        if (origin != null && !origin.equals("http://" + host)) {
            send(resp, cb, 403, "application/json", error("the push channel is for this viewer's own page"));
            return;
        }
        if (!sockets.upgrade((rq, rs, c) -> new PushSocket(push), req, resp, cb)) {
            send(resp, cb, 400, "application/json", error("/api/push is a WebSocket: send an upgrade request"));
        }
    }

    private static double parseLoss(String v) {
        try {
            return v == null || v.isEmpty() ? 0 : Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("loss: not a number: '" + v + "'");
        }
    }

    /** A source that switches the running members' event classes (the live stream's {@code levels} command). */
    public interface LiveControl {
        /** Sends {@code levels LIST}. */
        void levels(String list) throws IOException;
    }

    private List<Object> inputs() {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            Timeline tl = sources.get(i).timeline();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("input", i);
            m.put("title", tl.title);
            m.put("source", tl.source);
            m.put("damage", tl.damage);
            out.add(m);
        }
        return out;
    }

    /** The cache key of an answer: path, input, content version, the given numbers, and the filters by name. */
    private static String cacheKey(String path, Map<String, String> p, Timeline tl, String numbers) {
        StringBuilder k = new StringBuilder(path).append('|').append(p.getOrDefault("input", "0")).append('|')
                .append(tl.version()).append('|').append(numbers);
        for (String name : new java.util.TreeSet<>(p.keySet())) {
            if (!List.of("input", "t0", "t1", "bins", "token").contains(name)) {
                k.append('|').append(name).append('=').append(p.get(name));
            }
        }
        return k.toString();
    }

    private byte[] cached(String key) {
        synchronized (answers) {
            return answers.get(key);
        }
    }

    private byte[] remember(String key, byte[] body) {
        synchronized (answers) {
            answers.put(key, body);
        }
        return body;
    }

    private Source source(Map<String, String> p) {
        long i = num(p, "input", 0);
        if (i < 0 || i >= sources.size()) {
            throw new IllegalArgumentException("no input " + i + " (0.." + (sources.size() - 1) + ")");
        }
        return sources.get((int) i);
    }

    private static long num(Map<String, String> p, String name, long dflt) {
        String v = p.get(name);
        if (v == null || v.isEmpty()) {
            return dflt;
        }
        try {
            return Math.round(Double.parseDouble(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not a number: '" + v + "'");
        }
    }

    private static void json(Response resp, Callback cb, Object value) throws IOException {
        send(resp, cb, 200, "application/json", JSON.writeValueAsBytes(value));
    }

    @Override
    public void close() {
        Launches l = launches;
        if (l != null) {
            l.close();
        }
        if (push != null) {
            push.close();
        }
        try {
            server.stop();
        } catch (Exception e) {
            // stopping a server that failed to start: nothing left to release
        }
        for (Source s : sources) {
            s.close();
        }
    }
}
