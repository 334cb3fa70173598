package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dsmscope.cdat.config.CdatConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dsmscope study} end to end: the bundled MatMul traced by the real agent over 1, 2 and 4 threads with
 * on-the-fly CIAT and CDAT, TDAT on the event traces, and the report drawn over the thread counts; a failing run named
 * in the report while the study goes on; a usage error or a missing program stopping it at once.
 */
class StudyCommandTest {
    @TempDir
    Path dir;

    private static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs the command; returns {status, standard error}. */
    private static Object[] run(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int status;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            picocli.CommandLine cl = Main.commandLine();
            cl.setErr(new PrintWriter(err, true));
            status = cl.execute(args);
        } finally {
            System.setOut(saved);
        }
        return new Object[] {status, err + out.toString(StandardCharsets.UTF_8)};
    }

    /** The values of {@code attr} of the SVG elements of {@code chart} that match {@code filter}. */
    private static List<String> values(String page, String chart, String filter, String attr) {
        int s = page.indexOf("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + chart + "\"");
        assertTrue(s >= 0, "chart " + chart);
        String svg = page.substring(s, page.indexOf("</svg>", s));
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<(rect|circle) [^>]*" + Pattern.quote(filter) + "[^>]*>").matcher(svg);
        while (m.find()) {
            Matcher a = Pattern.compile(" " + attr + "=\"([^\"]*)\"").matcher(m.group());
            if (a.find()) {
                out.add(a.group(1));
            }
        }
        return out;
    }

    @Test
    void studyOfMatMul_overOneTwoFourThreads_speedupIsOneAtOneThread_andEachFigureHasAPointPerThreadCount()
            throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path cfg = dir.resolve("numa2.cfg");
        Files.writeString(cfg, CdatConfig.builder().name("numa2").nodes(2).protocol(1).build().toText());
        Path out = dir.resolve("mm");
        Object[] r = run("study", "--threads", "4,1,2", "--cdat", cfg.toString(), "-o", out.toString(), "--", java(),
                "-Ddsmscope.jar=" + System.getProperty("java.class.path"), "-cp",
                DemoCommand.findExamplesJar().toString(), "org.dsmscope.examples.MatMul", "{threads}", "16");
        assertEquals(0, r[0], (String) r[1]);
        JsonNode manifest = new ObjectMapper().readTree(out.resolve("study.json").toFile());
        assertEquals("dsmscope-study 1", manifest.path("format").asText());
        assertEquals("matmul", manifest.path("program").asText());
        int[] counts = {1, 2, 4};
        for (int i = 0; i < 3; i++) {
            JsonNode run = manifest.path("runs").get(i);
            assertEquals(counts[i], run.path("threads").asInt());
            assertEquals("ok", run.path("status").asText(), run.toString());
            String t = "t" + counts[i] + "/matmul.";
            assertEquals(List.of(t + "ciat.json", t + "global.ciat.json", t + "numa2.cdat.json", t + "numa2.tdat.json",
                    t + "numa2.tdat.time", t + "tdat.json", t + "tdat.time"),
                    new ObjectMapper().convertValue(run.path("results"), List.class));
            JsonNode global = new ObjectMapper().readTree(out.resolve(t + "global.ciat.json").toFile());
            assertEquals("global", global.path("aggregate").path("accessAge").path("scope").asText());
            JsonNode traffic = new ObjectMapper().readTree(out.resolve(t + "numa2.tdat.json").toFile());
            assertEquals("cdat-detailed", traffic.path("inputs").get(0).path("kind").asText());
            assertTrue(traffic.path("events").asLong() > 0, "CDAT transactions counted");
        }
        // Busy(1) of the one-thread run went to CIAT for the others
        long busy1 = StudyCommand.busyOf(out.resolve("t1/matmul.ciat.json"));
        JsonNode four = new ObjectMapper().readTree(out.resolve("t4/matmul.ciat.json").toFile()).path("aggregate");
        long total = 0;
        for (String t : new String[] {"busy", "idle", "imbalance", "contention"}) {
            for (JsonNode v : four.path("concurrency").path(t)) {
                total += v.asLong();
            }
        }
        assertEquals((double) busy1 / (total / 4.0), four.path("concurrency").path("speedup").asDouble(), 1e-12);
        String page = Files.readString(out.resolve("report.html"));
        assertEquals(List.of("1", "2", "4"), values(page, "matmul-speedup-chart", "class=\"pt\"", "data-x"));
        assertEquals("1", values(page, "matmul-speedup-chart", "data-x=\"1\"", "data-value").get(0));
        for (String chart : new String[] {"matmul-communication-chart", "matmul-mix-chart", "matmul-sizes-chart",
            "matmul-accesses-chart", "matmul-concurrency-chart", "matmul-cdat-streams-data",
            "matmul-cdat-latency-chart"}) {
            List<String> xs = values(page, chart, "class=\"bar\"", "data-x");
            for (String p : new String[] {"1", "2", "4"}) {
                assertTrue(xs.stream().anyMatch(x -> x.startsWith("p=" + p)), chart + " p=" + p + ": " + xs);
            }
        }
        // the rate over time: a row per thread count (one thread: no communication, no line)
        String rate = page.substring(page.indexOf("<figure id=\"matmul-tdat-rate\">"));
        rate = rate.substring(0, rate.indexOf("</figure>"));
        for (String p : new String[] {"1", "2", "4"}) {
            assertTrue(rate.contains("<tr><td>p=" + p + "</td>"), rate);
        }
        assertEquals(2, rate.split("<path d=").length - 1, "lines of the runs with communication");
        assertTrue(Files.isRegularFile(out.resolve("t4/matmul.tdat.freq")));
        assertFalse(Files.exists(out.resolve("t4/matmul.4.ciat_events")), "event traces are not kept");
        try (var left = Files.newDirectoryStream(out.resolve("t4"), "*.cdat_detailed")) {
            assertFalse(left.iterator().hasNext(), "traffic traces are not kept");
        }
        // Figure 3 per thread and global: both scopes at every thread count; TDAT on the CDAT traffic beside CIAT's
        for (String p : new String[] {"1", "2", "4"}) {
            for (String scope : new String[] {"thread", "global"}) {
                assertFalse(values(page, "matmul-access-age-chart", "data-series=\"p=" + p + ", " + scope + " scope\"",
                        "data-value").isEmpty(), "p=" + p + " " + scope);
            }
        }
        assertTrue(page.contains("<figure id=\"matmul-tdat-cdat-numa2-rate\">")
                && page.contains("<figure id=\"matmul-tdat-cdat-numa2-density\">"), "TDAT on CDAT's traffic");
        assertTrue(Files.readString(out.resolve("numa2.traffic.cfg")).contains("detailed_trace = 1"));
    }

    @Test
    void failingRun_isNamedInTheReport_andTheStudyGoesOn() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path out = dir.resolve("f");
        Path cfg = dir.resolve("numa2.cfg");
        Files.writeString(cfg, CdatConfig.builder().name("numa2").nodes(2).protocol(1).build().toText());
        Object[] r = run("study", "--threads", "1,2,3", "--keep-traces", "--cdat", cfg.toString(), "-o", out.toString(),
                "--", java(), "-cp",
                Paths.get("target/test-classes").toAbsolutePath().toString(), "org.dsmscope.tracedprog.FailsAtTwo",
                "{threads}");
        assertEquals(0, r[0], (String) r[1]);
        assertTrue(((String) r[1]).contains("study: the run with 2 threads failed: the program exited with status 1;"
                + " going on with the others"), (String) r[1]);
        JsonNode runs = new ObjectMapper().readTree(out.resolve("study.json").toFile()).path("runs");
        assertEquals("ok", runs.get(0).path("status").asText());
        assertEquals("failed", runs.get(1).path("status").asText());
        assertEquals("the program exited with status 1", runs.get(1).path("message").asText());
        assertEquals("ok", runs.get(2).path("status").asText());
        String page = Files.readString(out.resolve("report.html"));
        assertTrue(page.contains("The run with 2 threads failed: the program exited with status 1"), page);
        // the x axis is the study's thread count (the program's main thread makes the trace's count one more)
        assertEquals(List.of("1", "3"), values(page, "failsattwo-speedup-chart", "class=\"pt\"", "data-x"));
        assertTrue(Files.isRegularFile(out.resolve("t3/failsattwo.3.0")) || Files.isRegularFile(out.resolve(
                "t3/failsattwo.4.0")), "traces kept");
        // the kept set's second CIAT (global access age) and its CDAT traffic trace, named for the configuration
        List<String> results = new ObjectMapper().convertValue(runs.get(2).path("results"), List.class);
        assertEquals(List.of("ciat.json", "global.ciat.json", "numa2.cdat.json", "numa2.tdat.json", "numa2.tdat.time"),
                results.subList(0, 5).stream().map(f -> f.replace("t3/failsattwo.", "")).toList());
        try (var kept = Files.newDirectoryStream(out.resolve("t3"), "failsattwo.numa2.*.cdat_detailed")) {
            assertTrue(kept.iterator().hasNext(), "the traffic trace is kept");
        }
    }

    @Test
    void programUsageError_stopsTheStudyAtOnce() {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path out = dir.resolve("u");
        Object[] r = run("study", "--threads", "1,2", "-o", out.toString(), "--", java(), "-cp",
                Paths.get("target/test-classes").toAbsolutePath().toString(), "org.dsmscope.tracedprog.FailsAtTwo",
                "{threads}", "extra");
        assertEquals(2, r[0]);
        assertTrue(((String) r[1]).contains("dsmscope: study: the program exited with status 2 (a usage error) with 1"
                + " thread: "), (String) r[1]);
        assertFalse(Files.exists(out.resolve("study.json")));
        assertFalse(Files.exists(out.resolve("t2")), "no second run");
    }

    @Test
    void programNotFound_orNoThreadsPlaceholder_stopsAtOnce() {
        Object[] r = run("study", "--threads", "1,2", "-o", dir.resolve("n").toString(), "--", java(), "-cp",
                dir.toString(), "NoSuchMain", "{threads}");
        assertEquals(2, r[0]);
        assertEquals("dsmscope: main class NoSuchMain not found on class path " + dir, ((String) r[1]).trim());
        r = run("study", "--threads", "1", "-o", dir.resolve("n").toString(), "--", java(), "-cp", dir.toString(),
                "Main", "4");
        assertEquals(2, r[0]);
        assertEquals("dsmscope: the program's arguments must contain {threads} (replaced by each thread count)",
                ((String) r[1]).trim());
        r = run("study", "--threads", "0,2", "-o", dir.resolve("n").toString(), "--", java(), "Main", "{threads}");
        assertEquals("dsmscope: option --threads: value 0 out of range (1..4096)", ((String) r[1]).trim());
        r = run("study", "--threads", "1", "--ciat-options", "--age-scope nowhere", "-o", dir.resolve("o").toString(),
                "--", java(), "Main", "{threads}");
        assertEquals(2, r[0]);
        assertTrue(((String) r[1]).startsWith("dsmscope: --ciat-options: "), (String) r[1]);
        assertFalse(Files.exists(dir.resolve("o")), "nothing run");
    }
}
