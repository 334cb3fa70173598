package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end runs of {@code dsmscope tdat} on the event traces {@code dsmscope ciat} and {@code dsmscope cdat} write
 * for a generated fork-join trace set: TDAT's totals are CIAT's and CDAT's counts.
 */
class TdatCommandTest {
    @TempDir
    static Path dir;
    static String fj;

    @BeforeAll
    static void generate() {
        CiatCommandTest.Run g = CiatCommandTest.run("gen", "forkjoin", "--threads", "4", "--instructions", "20000",
                "--shared", "0.3", "-o", dir.toString(), "--name", "fj");
        assertEquals(0, g.status(), g.err());
        fj = dir.resolve("fj.4").toString();
    }

    private static JsonNode json(Path p) throws IOException {
        return new ObjectMapper().readTree(p.toFile());
    }

    /** Sum of the counts of an event.time file, after checking its header and that bins follow each other. */
    private static long timeTotal(Path time, long bin, int p) throws IOException {
        List<String> lines = Files.readAllLines(time);
        assertEquals("# dsmscope-tdat-time 1 bin " + bin + " processors " + p, lines.get(0));
        long sum = 0;
        for (int k = 1; k < lines.size(); k++) {
            String[] f = lines.get(k).split(" ");
            assertEquals(2, f.length, lines.get(k));
            assertEquals((k - 1) * bin, Long.parseLong(f[0]));
            sum += Long.parseLong(f[1]);
        }
        return sum;
    }

    private static void checkDistribution(JsonNode t, int classes) {
        JsonNode d = t.get("density");
        assertEquals(classes, d.size());
        assertEquals(1.0, d.get(classes - 1).get("distribution").asDouble());
        assertEquals(t.get("maximumRate").asDouble(), d.get(classes - 1).get("upperBound").asDouble());
        long bins = 0;
        for (JsonNode c : d) {
            bins += c.get("bins").asLong();
        }
        assertEquals(t.get("nonEmptyBins").asLong(), bins);
    }

    @Test
    void ciatEventTrace_totalIsCiatsCommunication_timeFileSumsToIt_distributionEndsAtOne() throws IOException {
        Path cj = dir.resolve("c.json");
        CiatCommandTest.Run c = CiatCommandTest.run("ciat", "-ciat_events", "--json", cj.toString(), fj);
        assertEquals(0, c.status(), c.err());
        JsonNode comm = json(cj).get("aggregate").get("communication");
        long want = comm.get("raw").asLong() + comm.get("war").asLong() + comm.get("waw").asLong()
                + comm.get("rar").asLong();
        assertTrue(want > 0, "the generated program communicates");

        Path time = dir.resolve("ev.time");
        Path tj = dir.resolve("t.json");
        CiatCommandTest.Run r = CiatCommandTest.run("tdat", fj + ".ciat_events", time.toString(), "1000", "4",
                "--json", tj.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        JsonNode t = json(tj);
        assertEquals("dsmscope-tdat 1", t.get("format").asText());
        assertEquals(want, t.get("events").asLong());
        assertEquals(want, timeTotal(time, 1000, 4));
        assertEquals(Files.readAllLines(time).size() - 1, t.get("bins").asInt());
        checkDistribution(t, 50);
        assertTrue(r.out().startsWith("# dsmscope-tdat 1\ninput ciat-events " + want + " " + want + " " + fj
                + ".ciat_events\n"), r.out());
        assertTrue(r.out().contains("\nevents " + want + "\n"), r.out());
        assertTrue(r.out().endsWith(" 1.000000000\n"), r.out());
        assertFalse(Files.exists(dir.resolve("ev.time.partial")));

        // the same input and options give the same bytes; the selection splits the total by type
        CiatCommandTest.Run again = CiatCommandTest.run("tdat", fj + ".ciat_events", time.toString(), "1000", "4",
                "--json", tj.toString());
        assertEquals(r.out(), again.out());
        long byType = 0;
        for (String type : new String[] {"RAW", "WAR", "WAW", "RAR"}) {
            CiatCommandTest.Run one = CiatCommandTest.run("tdat", "--types", type, "--rate-bins", "7",
                    fj + ".ciat_events", dir.resolve(type + ".time").toString(), "1000", "4");
            assertEquals(0, one.status(), one.err());
            assertEquals(comm.get(type.toLowerCase(java.util.Locale.ROOT)).asLong(),
                    timeTotal(dir.resolve(type + ".time"), 1000, 4), type);
        }
        for (String type : new String[] {"raw", "war", "waw", "rar"}) {
            byType += comm.get(type).asLong();
        }
        assertEquals(want, byType);
    }

    @Test
    void cdatTraces_requestsCountedAreCdatsTransactions() throws IOException {
        Path cfg = dir.resolve("two.cfg");
        Files.writeString(cfg, "nodes = 2\ngeneral_trace = 1\ndetailed_trace = 1\n");
        Path dj = dir.resolve("d.json");
        CiatCommandTest.Run c = CiatCommandTest.run("cdat", "--json", dj.toString(), fj, cfg.toString());
        assertEquals(0, c.status(), c.err());
        JsonNode byType = json(dj).get("aggregate").get("byType");
        long want = byType.get("read_shar_or_priv").asLong() + byType.get("read_priv_own").asLong();
        assertTrue(want > 0);

        Path tj = dir.resolve("td.json");
        CiatCommandTest.Run r = CiatCommandTest.run("tdat", fj + ".cdat_detailed", dir.resolve("d.time").toString(),
                "1000", "4", "--types", "read_shar_or_priv,read_priv_own", "--json", tj.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode t = json(tj);
        assertEquals(want, t.get("events").asLong());
        assertEquals("cdat-detailed", t.get("inputs").get(0).get("kind").asText());
        assertEquals(want, timeTotal(dir.resolve("d.time"), 1000, 4));
        checkDistribution(t, 50);

        // the processor requests are in the general traces too, one file per processor; by node they add up
        List<String> args = new ArrayList<>(List.of("tdat", "--types", "2,3"));
        for (int g = 0; g < 2; g++) {
            args.add(fj + ".cdat_general." + g);
        }
        args.addAll(List.of(dir.resolve("g.time").toString(), "1000", "4", "--json", dir.resolve("g.json")
                .toString()));
        CiatCommandTest.Run g = CiatCommandTest.run(args.toArray(new String[0]));
        assertEquals(0, g.status(), g.err());
        assertEquals(want, json(dir.resolve("g.json")).get("events").asLong());
        long byNode = 0;
        for (int node = 0; node < 2; node++) {
            List<String> a = new ArrayList<>(args);
            a.addAll(List.of("--nodes", String.valueOf(node)));
            assertEquals(0, CiatCommandTest.run(a.toArray(new String[0])).status());
            byNode += json(dir.resolve("g.json")).get("events").asLong();
        }
        assertEquals(want, byNode);
    }

    @Test
    void noEventSelected_reportsNoEvents_headerOnlyTimeFile() throws IOException {
        Path ev = dir.resolve("none.ciat_events");
        Files.writeString(ev, "# dsmscope-ciat-events 1\n# fields: clock type processor degree\n5 RAW 0 0\n");
        Path time = dir.resolve("none.time");
        CiatCommandTest.Run r = CiatCommandTest.run("tdat", "--processors", "3", ev.toString(), time.toString(),
                "100", "2");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().endsWith("\nevents 0\nbins 0\nnonempty_bins 0\nbin_width 100\nprocessors 2\nno events\n"),
                r.out());
        assertEquals("# dsmscope-tdat-time 1 bin 100 processors 2\n", Files.readString(time));
    }

    @Test
    void mistakes_oneLine_exitTwo_nothingWritten() throws IOException {
        Path ev = dir.resolve("m.ciat_events");
        Files.writeString(ev, "# dsmscope-ciat-events 1\n# fields: clock type processor degree\n5 RAW 0 0\n"
                + "6 XYZ 0 0\n");
        String e = ev.toString();
        String t = dir.resolve("m.time").toString();
        String[][] cases = {
            {"tdat: expected event_trace(s), event.time, BIN and p, got 3 argument(s); usage: tdat [options]"
                + " event_trace [event_trace ...] event.time BIN p", "tdat", e, t, "1000"},
            {"tdat: BIN '0' is not a positive integer", "tdat", e, t, "0", "4"},
            {"tdat: BIN '1e3' is not a positive integer", "tdat", e, t, "1e3", "4"},
            {"tdat: p 'x' is not a positive integer", "tdat", e, t, "1000", "x"},
            {"option --rate-bins: value 0 out of range (1..10000)", "tdat", "--rate-bins", "0", e, t, "1000", "4"},
            {"option --types: unknown event type 'bogus'", "tdat", "--types", "RAW,bogus", e, t, "1000", "4"},
            {dir.resolve("nope") + ": no such file", "tdat", dir.resolve("nope").toString(), t, "1000", "4"},
            {e + ": line 4: unknown event type 'XYZ' (RAW, WAR, WAW or RAR)", "tdat", e, t, "1000", "4"},
            {e + ": is an input of this run", "tdat", e, e, "1000", "4"},
            {t + ": is also another output of this run", "tdat", "--json", t, e, t, "1000", "4"},
            {"cannot write: folder", "tdat", e, dir.resolve("no/such/m.time").toString(), "1000", "4"},
        };
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            CiatCommandTest.Run r = CiatCommandTest.run(args);
            assertEquals(2, r.status(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().startsWith("dsmscope: ") && r.err().contains(c[0]), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertEquals("", r.out());
            assertFalse(Files.exists(Path.of(t)), "nothing written");
        }
    }

    @Test
    void help() {
        CiatCommandTest.Run r = CiatCommandTest.run("tdat", "--help");
        assertEquals(0, r.status());
        for (String s : new String[] {"event.time BIN p", "--rate-bins", "--types", "--processors", "--nodes",
            "--json", "CIAT event traces only", "CDAT traces only"}) {
            assertTrue(r.out().contains(s), s + " in " + r.out());
        }
    }
}
