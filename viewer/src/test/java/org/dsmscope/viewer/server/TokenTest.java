package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.viewer.model.Source;
import org.dsmscope.viewer.model.Timeline;
import org.junit.jupiter.api.Test;

/** The server's security model: the token on every request, loopback host names, nothing but its own resources. */
class TokenTest {
    static Source empty() {
        Timeline tl = new Timeline("t", "recording", "ns", new String[] {"computation"}, new Timeline.Kind[1]);
        return new Source() {
            @Override
            public Timeline timeline() {
                return tl;
            }

            @Override
            public Map<String, Object> tables(long t0, long t1) {
                return new LinkedHashMap<>();
            }
        };
    }

    static HttpResponse<String> get(String url, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status code of a GET sent as raw bytes (no client normalizes the path or the Host header). */
    static int raw(int port, String path, String host) throws Exception {
        try (java.net.Socket so = new java.net.Socket("127.0.0.1", port)) {
            so.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(so.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    @Test
    void withAToken_everyRequestWithoutItGets401_andWithItTheCookieServesTheRest() throws Exception {
        String token = ViewServer.newToken();
        assertEquals(32, token.length());
        try (ViewServer s = new ViewServer(List.of(empty()), "127.0.0.1", 0, token)) {
            String base = "http://127.0.0.1:" + s.port();
            for (String path : new String[] {"/", "/core.js", "/api/inputs", "/api/window", "/api/meta?token=wrong"}) {
                assertEquals(401, get(base + path).statusCode(), path);
            }
            HttpResponse<String> page = get(s.url());
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("dsmscope view"));
            String cookie = page.headers().firstValue("set-cookie").orElseThrow();
            assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie);
            HttpResponse<String> api = get(base + "/api/inputs", "Cookie", cookie.split(";")[0]);
            assertEquals(200, api.statusCode());
            assertTrue(api.body().contains("\"title\":\"t\""), api.body());
        }
    }

    @Test
    void onLoopback_onlyLoopbackHostNames_andNoPathReachesTheFileSystem() throws Exception {
        try (ViewServer s = new ViewServer(List.of(empty()), "127.0.0.1", 0, null)) {
            String base = "http://127.0.0.1:" + s.port();
            assertEquals(200, get(base + "/api/inputs").statusCode());
            assertEquals(401, raw(s.port(), "/api/inputs", "evil.example:" + s.port()),
                    "a page of another site resolving its name to 127.0.0.1 gets nothing");
            for (String path : new String[] {"/../../etc/passwd", "/etc/passwd", "/org/dsmscope/viewer/web/core.js",
                "/api/../pom.xml", "/%2e%2e/pom.xml"}) {
                int code = raw(s.port(), path, "127.0.0.1:" + s.port());
                assertTrue(code == 404 || code == 400, path + ": " + code);
            }
            assertEquals(400, get(base + "/api/meta?input=7").statusCode());
            assertEquals(400, get(base + "/api/window?t0=x").statusCode());
        }
    }
}
