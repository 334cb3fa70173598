package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dsmscope explain} end to end (issue 26): the pattern examples traced by the real agent and explained, the
 * expected pattern at the expected source line and data structure; the false-sharing example names both array
 * elements and its padded fix shows none; a fault trace written by the replay explained again with {@code
 * --faults}, at line granularity naming the same false sharing; the same outputs, byte for byte, from a replay in
 * partitions; bad fault traces refused with one line naming the file and line.
 */
class ExplainCommandTest {
    @TempDir
    Path dir;

    private static final class Run {
        int status;
        String out;
        String err;
    }

    private static Run run(String... args) {
        picocli.CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        Run r = new Run();
        r.status = cl.execute(args);
        r.out = out.toString();
        r.err = err.toString();
        return r;
    }

    /** Traces {@code main} of the examples at {@code level} on 2 or more threads; returns the trace set's prefix. */
    private String trace(String name, int level, String mainClass, String... args) {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> a = new ArrayList<>(List.of("trace", "--level", Integer.toString(level), "-o",
                dir.resolve(name).toString(), "--", java, "-cp", DemoCommand.findExamplesJar().toString(),
                "org.dsmscope.examples." + mainClass));
        a.addAll(List.of(args));
        Run r = run(a.toArray(new String[0]));
        assertEquals(0, r.status, r.err);
        return dir.resolve(name + "." + args[0]).toString();
    }

    /** The source line of the examples' file holding {@code text}: {@code File.java:N}. */
    private static String line(String file, String text) throws IOException {
        Path src = Paths.get("..", "examples", "src", "main", "java", "org", "dsmscope", "examples", file);
        List<String> lines = Files.readAllLines(src);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return file + ":" + (i + 1);
            }
        }
        throw new AssertionError(text + " not in " + src);
    }

    private JsonNode explain(String set, String... options) throws IOException {
        Path json = dir.resolve(Paths.get(set).getFileName() + ".json");
        List<String> a = new ArrayList<>(List.of("explain", "--json", json.toString()));
        a.addAll(List.of(options));
        a.add(set);
        Run r = run(a.toArray(new String[0]));
        assertEquals(0, r.status, r.err);
        assertTrue(Files.readString(Paths.get(set + ".explain_report")).startsWith("dsmscope-explain-report 1\n"));
        return new ObjectMapper().readTree(json.toFile());
    }

    private static JsonNode row(JsonNode rows, String label) {
        for (JsonNode r : rows) {
            if (r.path("label").asText().equals(label)) {
                return r;
            }
        }
        throw new AssertionError("no row " + label + " in " + rows);
    }

    private static JsonNode top(JsonNode rows) {
        return rows.get(0);
    }

    @Test
    void producerConsumer_isSingleProducerAtTheConsumersReadAndTheBuffer() throws IOException {
        String set = trace("pc", 3, "ProducerConsumer", "2", "4");
        JsonNode root = explain(set);
        assertEquals("dsmscope-explain 1", root.path("format").asText());
        String read = line("ProducerConsumer.java", "s += (long) buffer[i]");
        assertEquals(read, top(root.path("bySourceLine")).path("label").asText());
        assertEquals("single-producer-single-consumer", row(root.path("bySourceLine"), read).path("pattern").asText());
        JsonNode data = top(root.path("byDataStructure"));
        assertTrue(data.path("label").asText().startsWith("double[] allocated at org.dsmscope.examples."
                + "ProducerConsumer.run:"), data.toString());
        assertEquals("single-producer-single-consumer", data.path("pattern").asText());
        String write = line("ProducerConsumer.java", "buffer[i] = (i * 31");
        assertTrue(top(root.path("byCause")).path("label").asText().endsWith("by a write at " + write),
                root.path("byCause").toString());

        String set3 = trace("pc", 3, "ProducerConsumer", "3", "4");
        JsonNode root3 = explain(set3);
        assertEquals("single-producer-multiple-consumer", row(root3.path("bySourceLine"), read).path("pattern")
                .asText());
    }

    @Test
    void migratoryCounter_isMigratoryAtTheTurnsFirstReadAndTheCounter() throws IOException {
        String set = trace("mig", 3, "MigratoryCounter", "2", "200");
        JsonNode root = explain(set);
        String turn = line("MigratoryCounter.java", "while (counter.count != i)");
        assertEquals("migratory", row(root.path("bySourceLine"), turn).path("pattern").asText());
        assertEquals(turn, top(root.path("bySourceLine")).path("label").asText(), "the turn's first read faults");
        JsonNode data = top(root.path("byDataStructure"));
        assertTrue(data.path("label").asText().startsWith("org.dsmscope.examples.MigratoryCounter$Counter allocated"
                + " at "), data.toString());
        assertEquals("migratory", data.path("pattern").asText());
        assertTrue(root.path("costByPattern").path("migratory").asDouble() > 0.5 * root.path("totalCost")
                .asDouble(), root.path("costByPattern").toString());
    }

    @Test
    void falseSharing_namesBothElements_andThePaddedVersionShowsNone() throws IOException {
        String set = trace("fs", 2, "FalseSharing", "2", "2000");
        JsonNode root = explain(set, "--granularity", "line", "--line-size", "64");
        JsonNode fs = root.path("falseSharing");
        assertEquals(1, fs.size(), fs.toString());
        JsonNode l = fs.get(0);
        assertEquals(List.of("long[0] at offset 16 written"), texts(l.path("touched").path("0")));
        assertEquals(List.of("long[1] at offset 24 written"), texts(l.path("touched").path("1")));
        assertTrue(l.path("misses").asInt() > 1000, l.toString());
        assertEquals(0, l.path("missesSeparated").asInt(), "each counter on its own line: no coherence miss left");
        assertEquals(l.path("misses").asInt(), l.path("removed").asInt());
        assertTrue(l.path("fix").asText().contains("per-thread"), l.toString());
        assertTrue(root.path("notes").get(0).asText().contains("level-3"), "level 2: lines need level 3");

        String padded = trace("pad", 2, "FalseSharingPadded", "2", "2000");
        JsonNode p = explain(padded, "--granularity", "line");
        assertEquals(0, p.path("falseSharing").size(), p.path("falseSharing").toString());
        assertEquals(0, p.path("faults").path("invalidation").asInt(), "no coherence miss at all");
    }

    @Test
    void fieldFalseSharing_namesBothFieldsWithTheirOffsets_andThePaddedVersionShowsNone() throws IOException {
        String set = trace("ff", 3, "FieldFalseSharing", "2", "3000");
        JsonNode root = explain(set, "--granularity", "line");
        JsonNode fs = root.path("falseSharing");
        assertEquals(1, fs.size(), fs.toString());
        JsonNode l = fs.get(0);
        String counter = "org.dsmscope.examples.FieldFalseSharing$Counter";
        assertEquals(List.of(counter + ".hits at offset 16 written"), texts(l.path("touched").path("0")));
        assertEquals(List.of(counter + ".misses at offset 24 written"), texts(l.path("touched").path("1")));
        assertTrue(l.path("misses").asInt() > 1000, l.toString());
        assertEquals(l.path("misses").asInt(), l.path("falseSharingMisses").asInt(), "no miss shares a field");
        assertEquals(0, l.path("missesSeparated").asInt(), "each field on its own line: no coherence miss left");
        assertEquals(l.path("misses").asInt(), l.path("removed").asInt());
        assertTrue(l.path("fix").asText().contains("@jdk.internal.vm.annotation.Contended")
                && l.path("fix").asText().contains("padding"), l.toString());
        JsonNode data = top(root.path("byDataStructure"));
        assertTrue(data.path("label").asText().startsWith(counter + " allocated at "), data.toString());
        String text = Files.readString(Paths.get(set + ".explain_report"));
        assertTrue(text.contains("processor 0: " + counter + ".hits at offset 16 written")
                && text.contains("processor 1: " + counter + ".misses at offset 24 written"), text);

        String padded = trace("fp", 3, "FieldFalseSharingPadded", "2", "3000");
        JsonNode p = explain(padded, "--granularity", "line");
        assertEquals(0, p.path("falseSharing").size(), p.path("falseSharing").toString());
        assertEquals(0, p.path("faults").path("invalidation").asInt(), "no coherence miss at all");
        assertTrue(Files.readString(Paths.get(padded + ".explain_report")).contains("== false sharing\nnone:"));
    }

    private static List<String> texts(JsonNode a) {
        List<String> l = new ArrayList<>();
        a.forEach(x -> l.add(x.asText()));
        return l;
    }

    @Test
    void lineFaultTraceOfTheReplay_explainedAgain_namesTheSameFalseSharingFromTheTraceAlone() throws IOException {
        String set = trace("ffl", 3, "FieldFalseSharing", "2", "3000");
        JsonNode replayed = explain(set, "--granularity", "line");
        Path faults = Paths.get(set + ".line_faults");
        assertTrue(Files.readString(faults).startsWith("dsmscope-faults 2\nunit line 64\n"));
        Path again = dir.resolve("ffl-again.json");
        Run r = run("explain", "--faults", faults.toString(), "--json", again.toString());
        assertEquals(0, r.status, r.err);
        JsonNode read = new ObjectMapper().readTree(again.toFile());
        assertEquals(replayed.path("faults"), read.path("faults"));
        JsonNode a = replayed.path("falseSharing");
        JsonNode b = read.path("falseSharing");
        assertEquals(1, a.size(), a.toString());
        assertEquals(a.size(), b.size(), b.toString());
        for (String field : List.of("line", "address", "misses", "falseSharingMisses", "touched", "fix")) {
            assertEquals(a.get(0).path(field), b.get(0).path(field), field);
        }
        assertTrue(texts(b.get(0).path("touched").path("0")).get(0).endsWith("Counter.hits at offset 16 written"));
        assertTrue(b.get(0).path("missesSeparated").isNull() && b.get(0).path("removed").isNull(),
                "the misses a split removes need the replay: " + b);
        String text = Files.readString(Paths.get(faults + ".explain_report"));
        assertTrue(text.contains("those separating the parts removes not counted (that needs a replay of the trace"
                + " set)"), text);
        assertSameInPartitions(set, "3", "--granularity", "line");
    }

    /** Explains {@code set} again in {@code parts} partitions: the report, fault trace and JSON of the serial run. */
    private void assertSameInPartitions(String set, String parts, String... options) throws IOException {
        Path report = dir.resolve("parts.explain_report");
        Path faults = dir.resolve("parts.faults");
        Path json = dir.resolve("parts.json");
        List<String> a = new ArrayList<>(List.of("explain", "--partitions", parts, "-o", report.toString(),
                "--fault-trace", faults.toString(), "--json", json.toString()));
        a.addAll(List.of(options));
        a.add(set);
        Run r = run(a.toArray(new String[0]));
        assertEquals(0, r.status, r.err);
        boolean lines = List.of(options).contains("line");
        assertEquals(Files.readString(Paths.get(set + ".explain_report")), Files.readString(report), "report");
        assertEquals(Files.readString(Paths.get(set + (lines ? ".line_faults" : ".faults"))),
                Files.readString(faults), "fault trace");
        assertEquals(Files.readString(dir.resolve(Paths.get(set).getFileName() + ".json")), Files.readString(json),
                "JSON");
    }

    @Test
    void faultTraceOfTheReplay_explainedAgain_givesTheSameFaultsAndCost() throws IOException {
        String set = trace("mig", 2, "MigratoryCounter", "2", "100");
        JsonNode replayed = explain(set);
        assertSameInPartitions(set, "2");
        Path again = dir.resolve("again.json");
        Run r = run("explain", "--faults", set + ".faults", "--json", again.toString());
        assertEquals(0, r.status, r.err);
        JsonNode read = new ObjectMapper().readTree(again.toFile());
        assertEquals(replayed.path("faults"), read.path("faults"));
        assertEquals(replayed.path("totalCost"), read.path("totalCost"));
        assertEquals(replayed.path("costByPattern"), read.path("costByPattern"));
        Run g = run("explain", "--faults", set + ".faults", "--graph", "0x20002");
        assertEquals(0, g.status, g.err);
        assertTrue(g.out.startsWith("digraph \"page 0x20002\" {"), g.out);
        assertTrue(g.out.contains("migratory"), g.out);
    }

    @Test
    void badFaultTrace_isOneLineNamingFileAndLine_exitStatus2() throws IOException {
        Path f = dir.resolve("bad.faults");
        Files.writeString(f, "dsmscope-faults 1\nunit page 4096\nprocessors 2\nF 0 9 0 0x10 W - -\nF 1 4 1 0x10 R - -\n");
        Run r = run("explain", "--faults", f.toString());
        assertEquals(2, r.status);
        assertEquals("dsmscope: " + f + ": line 5: time 4 goes backwards (the record before is at 9)",
                r.err.strip());
        Files.writeString(f, "dsmscope-faults 1\nunit page 4096\nprocessors 2\nF 0 9 3 0x10 W - -\n");
        r = run("explain", "--faults", f.toString());
        assertEquals(2, r.status);
        assertTrue(r.err.strip().endsWith("line 4: processor 3 does not exist (processors 2)"), r.err);
        Files.writeString(f, "dsmscope-faults 1\nunit page 4096\nprocessors 2\nF 0 9 0 0x10 W - -\nS 10 1 acquire"
                + " 0x11:0\n");
        r = run("explain", "--faults", f.toString());
        assertEquals(2, r.status);
        assertTrue(r.err.strip().endsWith("line 5: synchronization names unknown page 0x11: no fault on it before"),
                r.err);
        r = run("explain", "--faults", f.toString(), "--latency", "-1");
        assertEquals(2, r.status);
        assertTrue(r.err.contains("option --latency: must be a number >= 0"), r.err);
    }
}
