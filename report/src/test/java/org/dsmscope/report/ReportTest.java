package org.dsmscope.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report from result files: what it refuses, what it draws, and that it is deterministic and self-contained. */
class ReportTest {
    private static final Path STUDY = Paths.get("src/test/resources/study");
    private static final Path CIAT4 = STUDY.resolve("t4/matmul.ciat.json");

    @TempDir
    Path dir;

    private Path file(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static String refused(List<Path> files, boolean mixed) {
        return assertThrows(BadResultException.class, () -> Inputs.read(files, mixed)).getMessage();
    }

    @Test
    void unknownFormat_isRefusedNamingTheFileAndTheFormat() throws Exception {
        Path f = file("x.json", "{\"format\": \"dsmscope-nothing 1\"}");
        String m = refused(List.of(f), false);
        assertTrue(m.startsWith(f + ": unknown format 'dsmscope-nothing 1'"), m);
    }

    @Test
    void otherVersion_isRefusedNamingTheVersion() throws Exception {
        Path f = file("x.json", Files.readString(CIAT4).replace("dsmscope-ciat-json 1", "dsmscope-ciat-json 2"));
        assertEquals(f + ": format dsmscope-ciat-json version 2 is not supported (the report reads version 1)",
                refused(List.of(f), false));
    }

    @Test
    void truncatedJson_isRefusedAsTruncatedWithItsPosition() throws Exception {
        String all = Files.readString(CIAT4);
        Path f = file("cut.ciat.json", all.substring(0, all.length() / 2));
        String m = refused(List.of(f), false);
        assertTrue(m.startsWith(f + ": truncated JSON at line "), m);
        assertFalse(m.contains("\n"), "one line");
    }

    @Test
    void resultWithoutAFigureField_isRefusedNamingTheField() throws Exception {
        Path f = file("x.ciat.json", "{\"format\": \"dsmscope-ciat-json 1\", \"processors\": 2, \"phases\": []}");
        assertEquals(f + ": field aggregate.accesses missing", refused(List.of(f), false));
    }

    @Test
    void emptyFile_notJson_andMissingFile_areRefused() throws Exception {
        Path empty = file("e.json", "  \n");
        assertEquals(empty + ": empty file, not a dsmscope result", refused(List.of(empty), false));
        Path text = file("t.json", "hello");
        assertTrue(refused(List.of(text), false).startsWith(text + ": not a dsmscope result"));
        Path none = dir.resolve("none.json");
        assertEquals(none + ": no such file", refused(List.of(none), false));
    }

    @Test
    void emptyList_isRefused() {
        assertTrue(refused(List.of(), false).startsWith("no result files given"));
    }

    @Test
    void resultsOfTwoPrograms_areRefusedWithoutAllowMixed_andGetASectionEachWithIt() throws Exception {
        Path other = dir.resolve("sor.4.ciat.json");
        Files.copy(CIAT4, other);
        Path mm = dir.resolve("matmul.4.ciat.json");
        Files.copy(CIAT4, mm);
        String m = refused(List.of(mm, other), false);
        assertEquals(other + ": a result of program 'sor', but " + mm + " is of 'matmul' (one program per report;"
                + " --allow-mixed puts several in one)", m);
        String page = Report.html(Inputs.read(List.of(mm, other), true));
        assertTrue(page.contains("<section id=\"program-matmul\">") && page.contains("<section id=\"program-sor\">"));
    }

    @Test
    void tdatTimeFile_withABadLine_isRefusedNamingTheLine() throws Exception {
        Path f = file("a.tdat.time", "# dsmscope-tdat-time 1 bin 10 processors 2\n0 4\n20 1\n");
        assertEquals(f + ": line 3: expected 'bin_start events' with bin_start 10", refused(List.of(f), false));
    }

    @Test
    void programOfAFile_isItsNameWithoutKindAndThreadCount() {
        assertEquals("matmul", Result.programOf(Paths.get("d/matmul.4.ciat.json")));
        assertEquals("matmul", Result.programOf(Paths.get("matmul.16.cdat.json")));
        assertEquals("sor", Result.programOf(Paths.get("sor.2.tdat.time")));
        assertEquals("r", Result.programOf(Paths.get("r.json")));
    }

    @Test
    void spinTime_isDrawnAsItsOwnClass_onlyWhereAResultHasIt() throws Exception {
        String without = Report.html(Inputs.read(List.of(CIAT4), false));
        assertFalse(without.contains("data-series=\"spin\""), "no spin series when no result has spin time");
        com.fasterxml.jackson.databind.ObjectMapper om = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode json =
                (com.fasterxml.jackson.databind.node.ObjectNode) om.readTree(CIAT4.toFile());
        com.fasterxml.jackson.databind.node.ArrayNode spin =
                ((com.fasterxml.jackson.databind.node.ObjectNode) json.path("aggregate").path("concurrency"))
                        .putArray("spin");
        int threads = json.path("aggregate").path("concurrency").path("busy").size();
        for (int t = 0; t < threads; t++) {
            spin.add(1000L * (t + 1));
        }
        Path withSpin = dir.resolve("matmul.4.ciat.json");
        om.writeValue(withSpin.toFile(), json);
        String page = Report.html(Inputs.read(List.of(withSpin), false));
        assertTrue(page.contains("data-series=\"spin\" data-x=\"T0\" data-value=\"1000\""), "per-thread spin bar");
        long total = 1000L * threads * (threads + 1) / 2;
        assertTrue(page.contains("data-series=\"spin\" data-x=\"p=" + threads + "\" data-value=\"" + total + "\""),
                "the run's spin bar carries the summed spin time");
    }

    @Test
    void sameInputs_giveTheSameBytes() throws Exception {
        List<Path> in = List.of(STUDY.resolve("study.json"), Paths.get("src/test/resources/matmul.4.sweep.json"));
        Path a = dir.resolve("a.html");
        Path b = dir.resolve("b.html");
        Report.write(Inputs.read(in, false), a);
        Report.write(Inputs.read(in, false), b);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }

    @Test
    void page_namesItsFormat_andRefersToNothingOutsideItself() throws Exception {
        String page = Report.html(Inputs.read(List.of(STUDY.resolve("study.json")), false));
        assertTrue(page.startsWith("<!DOCTYPE html>\n<!-- dsmscope-report 1 -->\n"));
        assertTrue(page.contains("<meta name=\"generator\" content=\"dsmscope-report 1\">"));
        Matcher urls = Pattern.compile("(https?:)?//[A-Za-z0-9.-]+").matcher(page);
        while (urls.find()) {
            assertEquals("http://www.w3.org", urls.group(), "only the SVG namespace names a URL");
        }
        for (String tag : new String[] {"<link", "<img", "<iframe", " src=", "@import", "url("}) {
            assertFalse(page.contains(tag), tag);
        }
    }

    @Test
    void study_drawsEveryKind_andNamesAFailedRun() throws Exception {
        Path s = dir.resolve("study.json");
        String manifest = Files.readString(STUDY.resolve("study.json"))
                .replace("\"threads\" : 2,\n    \"status\" : \"ok\",\n    \"message\" : null,",
                        "\"threads\" : 2,\n    \"status\" : \"failed\",\n    \"message\" : \"the program exited with"
                                + " status 1\",")
                .replace("\"t1/", "\"" + STUDY.toAbsolutePath() + "/t1/")
                .replace("\"t2/", "\"" + STUDY.toAbsolutePath() + "/t2/")
                .replace("\"t4/", "\"" + STUDY.toAbsolutePath() + "/t4/");
        Files.writeString(s, manifest);
        String page = Report.html(Inputs.read(List.of(s), false));
        assertTrue(page.contains("<p class=\"failed\" data-threads=\"2\">The run with 2 threads failed: the program"
                + " exited with status 1; its figures are missing.</p>"), page.substring(0, 3000));
        for (String id : new String[] {"matmul-general", "matmul-mix", "matmul-access-age", "matmul-concurrency",
            "matmul-speedup", "matmul-communication", "matmul-sharing-degree", "matmul-invalidation-degree",
            "matmul-matrix", "matmul-sizes", "matmul-accesses", "matmul-disk-io", "matmul-tdat-rate",
            "matmul-tdat-density", "matmul-cdat-streams", "matmul-cdat-transactions", "matmul-cdat-states",
            "matmul-cdat-latency", "matmul-cdat-utilization"}) {
            assertTrue(page.contains("<figure id=\"" + id + "\">"), id);
        }
    }

    @Test
    void sweep_getsAFigurePerVariedItem() throws Exception {
        String page = Report.html(Inputs.read(List.of(Paths.get("src/test/resources/matmul.4.sweep.json")), false));
        assertTrue(page.contains("<figure id=\"matmul-sweep-matmul-4-sweep-json-protocol\">"), page);
        assertTrue(page.contains("data-series=\"all\" data-x=\"3\""));
    }

    @Test
    void figures_areWrittenAsSvgAndPng() throws Exception {
        Path figs = dir.resolve("figs");
        int n = Report.writeFigures(Inputs.read(List.of(CIAT4), false), figs);
        assertTrue(n >= 10, "charts " + n);
        String svg = Files.readString(figs.resolve("matmul-access-age.svg"));
        assertTrue(svg.startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns="), svg);
        byte[] png = Files.readAllBytes(figs.resolve("matmul-access-age.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4));
        assertTrue(Files.isRegularFile(figs.resolve("matmul-matrix.png")));
    }

    /** Seed 001 §5.2: a rise to a plateau at x marks a working set of at most x (MatMul: rows at 2 KiB, B at 128 KiB). */
    @Test
    void knees_areTheTopsOfSteepRisesBeforePlateaus() {
        double[] y = {0, 0, 1.3, 4.2, 4.2, 4.2, 68, 68, 68.3, 98.9, 100};
        boolean[] k = CiatFigures.knees(y);
        assertArrayEquals(new boolean[] {false, false, false, false, false, false, true, false, false, true, false}, k);
    }

    /** The numbers the page carries read back exactly as the JSON's doubles. */
    @Property
    void rawNumbers_readBackExactly(@ForAll double v) {
        if (Double.isFinite(v)) {
            assertEquals(v, Double.parseDouble(Fmt.raw(v)), 0.0);
        }
    }

    /** The escaped text, unescaped, is the text (reference: replace the five entities back). */
    @Property
    void escapedText_unescapesToItself(@ForAll String s) {
        String e = Fmt.esc(s);
        assertFalse(e.contains("<") || e.contains(">") || e.contains("\""));
        assertEquals(s, e.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&"));
    }

    @Test
    void pageOfAFiveRunStudy_isUnderTwoMegabytes() throws Exception {
        String page = Report.html(Inputs.read(List.of(STUDY.resolve("study.json"),
                Paths.get("src/test/resources/matmul.4.sweep.json")), false));
        assertTrue(page.getBytes(StandardCharsets.UTF_8).length < 2_000_000 * 3 / 5, "3 runs of 5: "
                + page.length());
    }

    /** The attributes {@code attr} of the elements of chart {@code id} whose tag matches {@code filter}. */
    private static List<String> attrs(String page, String id, String filter, String attr) {
        int at = page.indexOf("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + id + "\"");
        assertTrue(at >= 0, "chart " + id);
        String svg = page.substring(at, page.indexOf("</svg>", at));
        List<String> out = new java.util.ArrayList<>();
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
    void globalScopeResultBesideAThreadScopeOne_addsOnlyItsCdf_dashedInTheRunsColour() throws Exception {
        String page = Report.html(Inputs.read(List.of(STUDY.resolve("study.json")), false));
        for (String p : new String[] {"1", "2", "4"}) {
            com.fasterxml.jackson.databind.JsonNode cdf = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                    STUDY.resolve("t" + p + "/matmul.global.ciat.json").toFile()).path("aggregate").path("accessAge");
            assertEquals("global", cdf.path("scope").asText());
            List<String> counts = new java.util.ArrayList<>();
            for (com.fasterxml.jackson.databind.JsonNode point : cdf.path("cdf")) {
                counts.add(point.path("accesses").asText());
            }
            assertEquals(counts, attrs(page, "matmul-access-age-chart", "data-series=\"p=" + p + ", global scope\"",
                    "data-value"), "p=" + p);
            assertFalse(attrs(page, "matmul-access-age-chart", "data-series=\"p=" + p + ", thread scope\"",
                    "data-value").isEmpty(), "p=" + p + " thread scope");
        }
        // the global results are in no other figure: one speedup point and one matrix per thread count
        assertEquals(List.of("1", "2", "4"), attrs(page, "matmul-speedup-chart", "class=\"pt\"", "data-x"));
        assertEquals(3, page.split("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"matmul-matrix-p-").length - 1);
        assertTrue(page.contains("stroke-dasharray=\"5 3\""), "the global scope's lines are dashed");
    }

    @Test
    void globalScopeResult_alone_isAnOrdinaryRun() throws Exception {
        Path g = STUDY.resolve("t4/matmul.global.ciat.json");
        assertFalse(CiatFigures.ageOnly(new Result(g, Kind.CIAT, "matmul", 4, new com.fasterxml.jackson.databind
                .ObjectMapper().readTree(g.toFile()), 0, null), List.of()));
        assertEquals("matmul", Result.programOf(g));
        String page = Report.html(Inputs.read(List.of(g), false));
        assertEquals(16, attrs(page, "matmul-matrix-p-4", "class=\"cell\"", "data-value").size(), "its matrix drawn");
        assertEquals(List.of("p=4, global scope"), new java.util.ArrayList<>(new java.util.LinkedHashSet<>(attrs(page,
                "matmul-access-age-chart", "class=\"pt", "data-series"))));
    }

    @Test
    void tdatOfCdatTraffic_getsItsOwnFiguresAfterCiats_withTheJsonsDensity() throws Exception {
        String page = Report.html(Inputs.read(List.of(STUDY.resolve("study.json")), false));
        int ciat = page.indexOf("<figure id=\"matmul-tdat-density\">");
        int rate = page.indexOf("<figure id=\"matmul-tdat-cdat-numa4-rate\">");
        int density = page.indexOf("<figure id=\"matmul-tdat-cdat-numa4-density\">");
        assertTrue(ciat > 0 && rate > ciat && density > rate, "CDAT's traffic figures follow CIAT's");
        assertTrue(page.contains("CDAT transaction rate over time (numa4)"));
        com.fasterxml.jackson.databind.JsonNode t = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                STUDY.resolve("t4/matmul.numa4.tdat.json").toFile());
        assertEquals("cdat-detailed", t.path("inputs").get(0).path("kind").asText());
        List<String> want = new java.util.ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode d : t.path("density")) {
            want.add(Json.raw(d.path("density")));
        }
        assertEquals(want, attrs(page, "matmul-tdat-cdat-numa4-density-chart", "data-series=\"p=4\"", "data-value"));
        String fig = page.substring(rate, density);
        for (String p : new String[] {"1", "2", "4"}) {
            assertTrue(fig.contains("<tr><td>p=" + p + "</td>"), "row of p=" + p);
        }
    }

    @Test
    void sourceOfATdatResult_isTheFileNameBetweenProgramAndTdat() {
        assertEquals("", TdatFigures.source(new Result(Paths.get("t4/matmul.tdat.json"), Kind.TDAT, "matmul", 4, null,
                0, null)));
        assertEquals("dsm4", TdatFigures.source(new Result(Paths.get("t4/matmul.dsm4.tdat.time"), Kind.TDAT_TIME,
                "matmul", 4, null, 0, null)));
        assertEquals("", TdatFigures.source(new Result(Paths.get("matmul.4.tdat.json"), Kind.TDAT, "matmul", 4, null,
                0, null)));
    }

    @Test
    void page_marksItselfReadyAfterItsFirstFrame() throws Exception {
        String page = Report.html(Inputs.read(List.of(CIAT4), false));
        assertTrue(page.contains("performance.mark('dsmscope-ready')")
                && page.contains("setAttribute('data-ready','1')"), "the ready mark of the open-time harness");
    }
}
