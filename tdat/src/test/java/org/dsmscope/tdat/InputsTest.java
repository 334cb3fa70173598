package org.dsmscope.tdat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading each input kind, detected from the first line, and the selection by --types, --processors, --nodes. */
class InputsTest {
    static final String CIAT = EventReader.CIAT_HEADER + "\n# fields: clock type processor degree\n"
            + "10 RAW 1 0\n"
            + "20 WAR 0 2\n"
            + "\n"
            + "1500 WAW 2 1\n"
            + "2600\tRAR  3 0\n";
    /** Processor 0 of node 0 in a 2 × 1 machine: two requests and a wait (92 ... 91) between them. */
    static final String GENERAL_0 = "100 4096 2 0 0 1 1 1 0 0 -1\n"
            + "250 0 92 0 0 0 0 0 0 0 -1\n"
            + "900 0 91 0 0 0 0 0 0 0 -1\n"
            + "1200 8192 3 0 0 0 0 2 0 1 -1\n";
    /** Processor 1 of node 1. */
    static final String GENERAL_1 = "1300 8192 21 1 1 0 0 4 0 1 -1\n";
    /**
     * Every class of fields: requests and returns (proc node bank hnode), responses and recalls (bank hnode proc
     * node), cache-to-cache (proc node proc node), recall responses (proc node bank hnode). The processor side's
     * node: 0 0 1 0 0 1 1.
     */
    static final String DETAILED = "100 4096 2 0 0 1 1\n"
            + "101 4096 12 1 1 0 0\n"
            + "500 8192 3 1 1 0 0\n"
            + "501 8192 34 0 0 0 0\n"
            + "502 8192 53 0 0 0 0\n"
            + "503 8192 13 0 0 1 1\n"
            + "1500 4096 41 1 1 0 0\n";

    @TempDir
    Path dir;

    private Path file(String name, String content) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, content);
        return f;
    }

    private static Tdat run(String types, String processors, String nodes, Path... files) {
        TdatOptions o = TdatOptions.of(1000, 2);
        o.selection = Selection.parse(types, processors, nodes);
        Tdat t = new Tdat(o);
        for (Path f : files) {
            t.read(f);
        }
        return t;
    }

    @Test
    void ciatEventTrace_everyEventByDefault_commentsAndBlankLinesSkipped() throws Exception {
        Path f = file("a.ciat_events", CIAT);
        Tdat t = run(null, null, null, f);
        Tdat.Input in = t.result().inputs.get(0);
        assertEquals(InputKind.CIAT_EVENTS, in.kind());
        assertEquals(4, in.records());
        assertEquals(4, in.events());
        assertArrayEquals(new long[] {2, 1, 1}, t.bins().counts());
    }

    @Test
    void ciatEventTrace_selectedByTypeAndProcessor_nodesIgnored() throws Exception {
        Path f = file("a.ciat_events", CIAT);
        assertArrayEquals(new long[] {1, 1}, run("raw,WAW", null, null, f).bins().counts());
        assertArrayEquals(new long[] {1, 1}, run(null, "1-2", null, f).bins().counts());
        assertArrayEquals(new long[] {1}, run(null, "0", null, f).bins().counts());
        assertArrayEquals(new long[] {0, 0, 1}, run("RAR,WAR", "3,7", null, f).bins().counts());
        assertArrayEquals(new long[] {2, 1, 1}, run(null, null, "5", f).bins().counts(), "--nodes: CDAT only");
        assertEquals(0, run("read_shar", null, null, f).result().events, "no CIAT type in the list");
    }

    @Test
    void generalTrace_transactionsByDefault_statusRecordsOnlyWhenNamed() throws Exception {
        Path g0 = file("fj.4.cdat_general.0", GENERAL_0);
        Path g1 = file("fj.4.cdat_general.1", GENERAL_1);
        Tdat t = run(null, null, null, g0, g1);
        assertEquals(InputKind.CDAT_GENERAL, t.result().inputs.get(0).kind());
        assertEquals(4, t.result().inputs.get(0).records());
        assertEquals(2, t.result().inputs.get(0).events());
        assertArrayEquals(new long[] {1, 2}, t.bins().counts());
        assertArrayEquals(new long[] {2}, run("92,start_active", null, null, g0, g1).bins().counts());
        assertArrayEquals(new long[] {1, 1}, run("START_IDLE,write_back", null, null, g0, g1).bins().counts());
        assertArrayEquals(new long[] {1, 1}, run(null, null, "0", g0, g1).bins().counts());
        assertArrayEquals(new long[] {0, 1}, run(null, null, "1", g0, g1).bins().counts());
        assertArrayEquals(new long[] {1, 2}, run(null, "3", null, g0, g1).bins().counts(), "--processors: CIAT only");
    }

    @Test
    void detailedTrace_nodeOfTheProcessorSide_byClassOfCode() throws Exception {
        Path d = file("fj.4.cdat_detailed", DETAILED);
        Tdat all = run(null, null, null, d);
        assertEquals(InputKind.CDAT_DETAILED, all.result().inputs.get(0).kind());
        assertArrayEquals(new long[] {6, 1}, all.bins().counts());
        assertArrayEquals(new long[] {2, 1}, run(null, null, "1", d).bins().counts());
        assertArrayEquals(new long[] {4}, run(null, null, "0", d).bins().counts());
        assertArrayEquals(new long[] {2}, run("read_priv_own,2", null, null, d).bins().counts());
        assertArrayEquals(new long[] {1}, run("read_priv_own,2", null, "1", d).bins().counts());
    }

    @Test
    void severalFiles_ofDifferentKinds_oneTypeList() throws Exception {
        Path c = file("a.ciat_events", CIAT);
        Path d = file("b.cdat_detailed", DETAILED);
        Path e = file("empty", "\n\n");
        Tdat t = run("RAW,2", null, null, c, d, e);
        assertArrayEquals(new long[] {2}, t.bins().counts(), "RAW at 10 and read_shar_or_priv at 100");
        List<Tdat.Input> ins = t.result().inputs;
        assertEquals(List.of(InputKind.CIAT_EVENTS, InputKind.CDAT_DETAILED, InputKind.EMPTY),
                ins.stream().map(Tdat.Input::kind).toList());
        assertEquals(0, ins.get(2).records());
        assertEquals(List.of("RAW", "read_shar_or_priv"), t.result().selection.types());
        String text = TextReport.toText(t.result());
        assertEquals(true, text.contains("\nselect_types RAW,read_shar_or_priv\n"), text);
        assertEquals(true, text.contains("\ninput empty 0 0 " + e + "\n"), text);
    }

    @Test
    void selection_listsAreCanonicalInTheReport() {
        Selection s = Selection.parse("waw,Read_Shar,1,WAW", "3,0-2,7", "1");
        assertEquals(List.of("WAW", "read_shar"), s.types());
        assertEquals("0-3,7", s.processors());
        assertEquals("1", s.nodes());
        Selection all = Selection.all();
        assertEquals(null, all.types());
        assertEquals(true, all.cdat(2, 0));
        assertEquals(false, all.cdat(91, 0));
        assertEquals(false, all.cdat(92, 0));
        assertEquals(true, all.ciat(3, 1_000_000));
    }
}
