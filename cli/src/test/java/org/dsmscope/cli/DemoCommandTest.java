package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.trace.memory.MemoryUsageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end test of {@code dsmscope demo}: real agent, real example programs, real CIAT. */
class DemoCommandTest {
    @TempDir
    Path dir;

    /** Runs the demo into {@code out} with more options, asserts exit 0 and returns what it printed. */
    private static String demo(Path out, String... options) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        StringWriter err = new StringWriter();
        int status;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            picocli.CommandLine cl = Main.commandLine();
            cl.setErr(new PrintWriter(err, true));
            String[] args = new String[options.length + 3];
            args[0] = "demo";
            args[1] = "-o";
            args[2] = out.toString();
            System.arraycopy(options, 0, args, 3, options.length);
            status = cl.execute(args);
        } finally {
            System.setOut(saved);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, err + "\n" + text);
        return text;
    }

    @Test
    void demo_tracesBothExamples_writesReports_andMatMulResultRowsArePrivate() throws Exception {
        Path out = dir.resolve("demo");
        String text = demo(out, "--matmul-size", "24", "--sor-size", "16");
        for (String name : new String[] {"matmul.4", "sor.4"}) {
            assertTrue(Files.size(out.resolve(name + ".ciat_report")) > 0, name);
            assertTrue(Files.size(out.resolve(name + ".memory")) > 0, name);
            for (int t = 0; t < 4; t++) {
                assertTrue(Files.isRegularFile(out.resolve(name + "." + t)), name + "." + t);
            }
        }
        JsonNode mm = new ObjectMapper().readTree(out.resolve("matmul.4.ciat.json").toFile());
        assertEquals(4, mm.path("threads").asInt());
        JsonNode comm = mm.path("aggregate").path("communication");
        // Each thread writes only its own rows of C, and A and B are written once by thread 0 before the others
        // read them: no store ever follows another processor's load or store of the same byte.
        assertEquals(0, comm.path("war").asLong(), text);
        assertEquals(0, comm.path("waw").asLong(), text);
        assertTrue(comm.path("raw").asLong() > 0, text);
        long loads = mm.path("aggregate").path("accesses").path("loads").asLong();
        // Each of the n^2 result elements needs n loads of A and n loads of B.
        assertTrue(loads >= 2L * 24 * 24 * 24, "loads " + loads);
        JsonNode sor = new ObjectMapper().readTree(out.resolve("sor.4.ciat.json").toFile());
        assertTrue(sor.path("aggregate").path("communication").path("war").asLong() > 0,
                "SOR's border rows are read by neighbours and then rewritten");
        // the memory usage file CIAT wrote reads back through the shared reader CDAT's page policies use (RR2, Oracle)
        long[] pages = {0, 0};
        MemoryUsageFile.read(out.resolve("matmul.4.memory"), p -> {
            pages[0]++;
            pages[1] += p.shared() ? 1 : 0;
        });
        JsonNode memory = mm.path("aggregate").path("memory");
        assertEquals(memory.path("touchedPages").asLong(), pages[0]);
        assertEquals(memory.path("sharedPages").asLong(), pages[1]);
        assertTrue(text.contains("communication (share of data accesses): RAW"), text);
        assertTrue(text.contains("working set"), text);
        assertTrue(text.contains("reports: " + out.resolve("matmul.4")), text);
        // CDAT on one node per thread: every access CIAT counted is simulated; SOR's border rows move from cache
        // to cache between nodes
        for (String name : new String[] {"matmul.4", "sor.4"}) {
            JsonNode ciat = new ObjectMapper().readTree(out.resolve(name + ".ciat.json").toFile()).path("aggregate");
            JsonNode cdat = new ObjectMapper().readTree(out.resolve(name + ".cdat.json").toFile());
            JsonNode data = cdat.path("aggregate").path("streams").path("data");
            assertEquals("4", cdat.path("config").path("nodes").asText());
            assertEquals(ciat.path("accesses").path("loads").asLong() + ciat.path("accesses").path("stores").asLong(),
                    data.path("hits").asLong() + data.path("misses").asLong(), name);
            assertTrue(Files.size(out.resolve(name + ".cdat_report")) > 0, name);
        }
        JsonNode sorData = new ObjectMapper().readTree(out.resolve("sor.4.cdat.json").toFile()).path("aggregate")
                .path("streams").path("data");
        assertTrue(sorData.path("remoteCache").asLong() > sorData.path("misses").asLong() / 2, sorData.toString());
        assertTrue(text.contains("traffic: ") && text.contains("average latency"), text);
        assertDemoReport(out, text);
    }

    /** The demo's last step: the report of both examples over 1, 2 and 4 threads, its path and URL printed. */
    private static void assertDemoReport(Path out, String text) throws Exception {
        Path report = out.resolve("report.html");
        assertTrue(text.contains(report.toAbsolutePath().toUri().toString()), text);
        String page = Files.readString(report);
        for (String program : new String[] {"matmul", "sor"}) {
            int at = page.indexOf("<section id=\"program-" + program + "\">");
            assertTrue(at >= 0, program);
            String section = page.substring(at, page.indexOf("</section>", at));
            for (String p : new String[] {"1", "2", "4"}) {
                assertTrue(section.contains("data-series=\"speedup\" data-x=\"" + p + "\""), program + " speedup at " + p);
            }
        }
    }

    /**
     * Every command the demo echoes can be pasted as it is (the launcher's own path, the examples jar's real path;
     * the echoed CIAT command gives the demo's JSON byte for byte), and every figure has its unit, one number
     * format (thousands grouped) and nouns that agree with their counts.
     */
    @Test
    void demo_echoesCommandsThatCanBePasted_withUnitsAndOneNumberFormat() throws Exception {
        Path out = dir.resolve("paste");
        String text;
        System.setProperty("dsmscope.launcher", "bin/dsmscope");
        try {
            text = demo(out, "--matmul-size", "20", "--sor-size", "12");
        } finally {
            System.clearProperty("dsmscope.launcher");
        }
        int traces = 0;
        String ciatLine = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("-- trace: ")) {
                traces++;
                assertTrue(line.startsWith("-- trace: bin/dsmscope trace --level 2 -o "), line);
                String[] words = line.split(" ");
                int cp = java.util.Arrays.asList(words).indexOf("-cp");
                assertTrue(cp > 0 && Files.isRegularFile(Path.of(words[cp + 1])), "not a jar here: " + line);
            }
            if (line.startsWith("-- CIAT: ") && ciatLine == null) {
                ciatLine = line;
            }
            if (line.startsWith("   ") && !line.contains(out.toString())) {
                assertFalse(line.matches(".*(?<![\\w.,])\\d{4,}(?![\\w.,]).*"), "a count without grouping: " + line);
                assertFalse(line.matches(".*(?<![\\d,])1 [a-z]+s\\b.*"), "plural after 1: " + line);
            }
        }
        assertEquals(2, traces, text);
        assertTrue(text.contains("machine: 4 nodes of 1 processor, protocol 1, page placement RR1,"
                + " data cache 32K, 4-way, lru replacement"), text);
        assertTrue(text.matches("(?s).*average latency \\d+\\.\\d\\d critical-path transactions per request.*"),
                text);
        assertTrue(text.contains("sharing degree, write epochs read by 1..p processors: ["), text);
        assertTrue(text.contains("concurrency, pseudo-clock instructions per thread: busy ["), text);
        assertFalse(text.contains("ciat: wrote"), "the sub-commands' own lines are kept back: " + text);
        // the echoed CIAT command, pasted, writes the same JSON
        String[] words = ciatLine.substring("-- CIAT: bin/dsmscope ".length()).split(" ");
        Path json = Path.of(words[words.length - 1]);
        byte[] demoJson = Files.readAllBytes(json);
        Files.delete(json);
        picocli.CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        assertEquals(0, cl.execute(words), String.join(" ", words));
        assertTrue(java.util.Arrays.equals(demoJson, Files.readAllBytes(json)), "pasted CIAT differs");
    }

    @Test
    void cache_inWords() {
        assertEquals("32K, 4-way, lru replacement", DemoCommand.cache("32K 4 lru"));
        assertEquals("1M, fully associative, random replacement", DemoCommand.cache("1M full random"));
        assertEquals("0", DemoCommand.cache("0"));
    }

    @Test
    void quote_keepsPlainWordsAndQuotesTheRest() {
        assertEquals("demo-out/matmul.4", DemoCommand.quote("demo-out/matmul.4"));
        assertEquals("'my demo/matmul.4'", DemoCommand.quote("my demo/matmul.4"));
        assertEquals("'it'\\''s'", DemoCommand.quote("it's"));
    }

    @Test
    void plural_agreesWithTheCount() {
        assertEquals("1 processor", DemoCommand.plural(1, "processor"));
        assertEquals("0 nodes", DemoCommand.plural(0, "node"));
        assertEquals("12,345 touched pages", DemoCommand.plural(12345, "touched page"));
    }

    /**
     * The working-set knees: the smallest power-of-two size holding 50%, 90%, 99% of the accesses; a fraction that
     * only first accesses (infinite age) would complete is said to be so.
     */
    @Test
    void workingSetKnees_fromTheAgeDistribution() throws Exception {
        ObjectMapper m = new ObjectMapper();
        JsonNode age = m.readTree("{\"accesses\":100,\"infinite\":5,\"cdf\":[{\"bytes\":1,\"accesses\":0},"
                + "{\"bytes\":1024,\"accesses\":50},{\"bytes\":2048,\"accesses\":94},"
                + "{\"bytes\":4096,\"accesses\":95}]}");
        assertEquals("50% of accesses within 1 KiB, 90% of accesses within 2 KiB, 99% of accesses not within any"
                + " size (first accesses are 5.0%)", DemoCommand.knees(age));
        age = m.readTree("{\"accesses\":100,\"infinite\":1,\"cdf\":[{\"bytes\":8,\"accesses\":60},"
                + "{\"bytes\":16,\"accesses\":99}]}");
        assertEquals("50% of accesses within 8 B, 90% of accesses within 16 B, 99% of accesses within 16 B;"
                + " first accesses 1.0%", DemoCommand.knees(age));
    }

    @Test
    void demoOptionsOutOfRange_exit2WithTheOption() {
        StringWriter err = new StringWriter();
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("demo", "-o", dir.resolve("d").toString(), "--level", "5"));
        assertTrue(err.toString().contains("option --level: value 5 out of range (2 or 3)"), err.toString());
        assertEquals(2, cl.execute("demo", "-o", dir.resolve("d").toString(), "--threads", "0"));
        assertTrue(err.toString().contains("option --threads: value 0 out of range (1..64)"), err.toString());
    }
}
