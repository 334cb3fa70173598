package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code dsmscope view}: the real command serving a replayed trace set, a failed replay's banner, mistakes. */
@Timeout(300)
class ViewCommandTest {
    @TempDir
    Path dir;

    /** The command running on a thread of its own until stopped, and the URL it printed. */
    static final class Serving implements AutoCloseable {
        final Thread thread;
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        volatile int status = -1;
        String url;

        Serving(String... args) throws InterruptedException {
            picocli.CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            thread = new Thread(() -> status = cl.execute(args));
            thread.start();
            Pattern p = Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+/)");
            long deadline = System.currentTimeMillis() + 120_000;
            while (System.currentTimeMillis() < deadline && thread.isAlive()) {
                Matcher m = p.matcher(out.toString());
                if (m.find()) {
                    url = m.group(1);
                    return;
                }
                Thread.sleep(20);
            }
            throw new AssertionError("no URL printed: " + out + err);
        }

        JsonNode get(String path) throws Exception {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(url + path)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            return new ObjectMapper().readTree(r.body());
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join(30_000);
        }
    }

    @Test
    void withLaunch_andNoInput_servesTheFormOfferingTheBundledExamples() throws Exception {
        Serving s = new Serving("view", "--launch");
        try (s) {
            long deadline = System.currentTimeMillis() + 30_000;
            while (!s.out.toString().contains("view: Ctrl-C stops") && System.currentTimeMillis() < deadline) {
                Thread.sleep(20); // the lines after the URL
            }
            assertTrue(s.out.toString().contains("view: 0 inputs at http://127.0.0.1:"), s.out.toString());
            assertTrue(s.out.toString().contains("view: the page can start MatMul, Sor, WorkQueue"), s.out.toString());
            JsonNode launch = s.get("api/launch");
            assertTrue(launch.path("enabled").asBoolean());
            assertEquals("org.dsmscope.examples.dsm.WorkQueue", launch.path("programs").get(2).asText());
            assertEquals(0, s.get("api/inputs").size());
        }
        assertEquals(0, s.status);
    }

    @Test
    void servesAReplayedTraceSet_oneLanePerThread_andStopsCleanly() throws Exception {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "--threads", "3", "--instructions", "20000",
                "--lock-rate", "0.02", "-o", dir.toString(), "--name", "fj").status());
        String set = dir.resolve("fj.3").toString();
        Serving s = new Serving("view", set, "--no-progress");
        try (s) {
            assertTrue(s.out.toString().contains("view: 1 input at http://127.0.0.1:"), s.out.toString());
            JsonNode meta = s.get("api/meta");
            assertEquals("replay", meta.path("source").asText());
            assertEquals(3, meta.path("lanes").size());
            assertTrue(meta.path("damage").isNull());
            JsonNode w = s.get("api/window?t0=0&t1=" + meta.path("end").asLong() + "&bins=400");
            assertEquals(3, w.path("lanes").size());
            assertTrue(w.path("arrows").path("byKind").path("lock").asInt() > 0, "lock hand-offs");
            // CIAT's communication events as marks: as many of each kind as `ciat` counts
            Path json = dir.resolve("fj.json");
            assertEquals(0, CiatCommandTest.run("ciat", set, "--json", json.toString(), "--no-progress").status());
            JsonNode comm = new ObjectMapper().readTree(json.toFile()).path("aggregate").path("communication");
            assertTrue(comm.path("raw").asLong() > 0, comm.toString());
            for (String kind : new String[] {"raw", "war", "waw", "rar"}) {
                JsonNode k = s.get("api/window?t0=0&t1=" + meta.path("end").asLong() + "&bins=400&level="
                        + kind.toUpperCase(java.util.Locale.ROOT));
                assertEquals(comm.path(kind).asLong(), k.path("marks").path("count").asLong(), kind);
            }
        }
        assertEquals(0, s.status, s.err.toString());
    }

    @Test
    void aTraceSetWithBadRecords_showsTheReplaysErrorInThePage() throws Exception {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "--threads", "2", "--instructions", "20000",
                "-o", dir.toString(), "--name", "bad").status());
        Path t1 = dir.resolve("bad.2.1");
        byte[] b = Files.readAllBytes(t1);
        for (int i = b.length / 2; i < b.length / 2 + 64 && i < b.length; i++) {
            b[i] = (byte) 0xFF;
        }
        Files.write(t1, b);
        try (Serving s = new Serving("view", dir.resolve("bad.2").toString(), "--no-progress")) {
            JsonNode meta = s.get("api/meta");
            assertTrue(meta.path("damage").asText().startsWith("replay failed: "), meta.toString());
            assertTrue(meta.path("damage").asText().contains("bad.2.1"), "names the file: " + meta);
            assertTrue(s.err.toString().contains("replay failed"), s.err.toString());
        }
    }

    @Test
    void mistakes_oneLineAndStatus2() throws Exception {
        CiatCommandTest.Run r = CiatCommandTest.run("view");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("view: nothing to show"), r.err());
        Path bad = dir.resolve("bad.dsmrec");
        Files.write(bad, "DSMSCOPE-REC\u0000\u0009\u0000\u0000".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        r = CiatCommandTest.run("view", bad.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("unsupported recording version 9"), r.err());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
        r = CiatCommandTest.run("view", bad.toString(), "--port", "70000");
        assertEquals(2, r.status());
        r = CiatCommandTest.run("view", dir.resolve("nothing").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().split("\n").length <= 2, r.err());
    }
}
