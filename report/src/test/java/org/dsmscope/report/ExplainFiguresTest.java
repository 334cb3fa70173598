package org.dsmscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The EXPLAIN section of the report, read from {@code dsmscope explain --json} results of the bundled examples
 * (FalseSharing at line granularity, ProducerConsumer at page granularity, both traced by the agent at level 3):
 * the plotted values are the JSON's.
 */
class ExplainFiguresTest {
    private static final Path FS = Paths.get("src/test/resources/explain/falsesharing.2.explain.json");
    private static final Path PC = Paths.get("src/test/resources/explain/producerconsumer.2.explain.json");
    private static final ObjectMapper OM = new ObjectMapper();
    private static final Pattern BAR = Pattern.compile("<rect class=\"bar\" x=\"([0-9.]+)\" y=\"[0-9.]+\" width=\""
            + "([0-9.]+)\"[^>]* data-series=\"([^\"]*)\" data-x=\"([^\"]*)\" data-value=\"([^\"]*)\""
            + "(?: data-share=\"([^\"]*)\")?>");

    @TempDir
    Path dir;

    /** A bar as drawn: its width, series, category, value and share. */
    private record Bar(double width, String series, String x, String value, String share) {
    }

    private static String page(Path... files) {
        return Report.html(Inputs.read(List.of(files), true));
    }

    /** The bars of the chart {@code <svg id="ID">} of a page. */
    private static List<Bar> bars(String page, String id) {
        int start = page.indexOf("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + id + "\"");
        assertTrue(start >= 0, "chart " + id + " drawn");
        String svg = page.substring(start, page.indexOf("</svg>", start));
        List<Bar> out = new ArrayList<>();
        Matcher m = BAR.matcher(svg);
        while (m.find()) {
            out.add(new Bar(Double.parseDouble(m.group(2)), m.group(3), m.group(4), m.group(5), m.group(6)));
        }
        return out;
    }

    private static String unesc(String s) {
        return s.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }

    @Test
    void profileBars_areTheJsonsRows_inItsOrder_withCostAndShare_andLengthsProportional() throws Exception {
        for (Path file : List.of(FS, PC)) {
            JsonNode json = OM.readTree(file.toFile());
            String gran = json.path("granularity").asText();
            String program = Result.programOf(file);
            String page = page(file);
            String[][] parts = {{"causes", "byCause"}, {"data", "byDataStructure"}, {"lines", "bySourceLine"}};
            for (String[] p : parts) {
                List<Bar> bars = bars(page, program + "-explain-" + gran + "-" + p[0] + "-chart");
                JsonNode rows = json.path(p[1]);
                assertEquals(Math.min(rows.size(), RankedBars.MAX_ROWS), bars.size(), file + " " + p[1] + " bars");
                double max = rows.get(0).path("cost").asDouble();
                double widest = bars.get(0).width();
                for (int i = 0; i < bars.size(); i++) {
                    JsonNode r = rows.get(i);
                    Bar b = bars.get(i);
                    assertEquals(r.path("label").asText(), unesc(b.x()), file + " " + p[1] + " row " + i);
                    assertEquals(r.path("cost").asDouble(), Double.parseDouble(b.value()), 0.0, "cost as in JSON");
                    assertEquals(r.path("share").asDouble(), Double.parseDouble(b.share()), 0.0, "share as in JSON");
                    assertEquals(r.path("cost").asDouble() / max * widest, b.width(), 0.6,
                            "bar length proportional to cost: " + r.path("label").asText());
                }
            }
        }
    }

    @Test
    void patternBars_areTheCostPerPattern_largestFirst_withShareOfTheTotal_andCountsInTheTable() throws Exception {
        for (Path file : List.of(FS, PC)) {
            JsonNode json = OM.readTree(file.toFile());
            String gran = json.path("granularity").asText();
            String id = Result.programOf(file) + "-explain-" + gran + "-patterns";
            String page = page(file);
            List<Bar> bars = bars(page, id + "-chart");
            assertEquals(ExplainFigures.PATTERNS.length, bars.size(), "a bar per pattern");
            double total = json.path("totalCost").asDouble();
            double before = Double.MAX_VALUE;
            for (Bar b : bars) {
                double cost = json.path("costByPattern").path(b.x()).asDouble();
                assertEquals(cost, Double.parseDouble(b.value()), 0.0, file + " " + b.x() + " cost as in JSON");
                assertEquals(cost / total, Double.parseDouble(b.share()), 1e-12, file + " " + b.x() + " share");
                assertTrue(cost <= before, "largest cost first");
                before = cost;
            }
            int fig = page.indexOf("<figure id=\"" + id + "\"");
            String table = page.substring(fig, page.indexOf("</figure>", fig));
            for (String k : ExplainFigures.PATTERNS) {
                StringBuilder counts = new StringBuilder();
                for (String part : List.of("units", "byDataStructure", "bySourceLine")) {
                    long n = 0;
                    for (JsonNode r : json.path(part)) {
                        n += r.path("pattern").asText().equals(k) ? 1 : 0;
                    }
                    counts.append("<td>").append(Fmt.count(n)).append("</td>");
                }
                int at = table.indexOf("<td>" + k + "</td>");
                assertTrue(at >= 0, file + ": table row of " + k);
                String tr = table.substring(at, table.indexOf("</tr>", at));
                assertTrue(tr.endsWith(counts.toString()), file + " " + k + ": counts " + counts + " in " + tr);
            }
        }
        List<Bar> fs = bars(page(FS), "falsesharing-explain-line-patterns-chart");
        assertEquals("migratory", fs.get(0).x(), "the falsely shared line of FalseSharing ping-pongs: migratory"
                + " costs most");
    }

    @Test
    void unitBars_areTheJsonsUnits_inItsOrder() throws Exception {
        JsonNode json = OM.readTree(PC.toFile());
        List<Bar> bars = bars(page(PC), "producerconsumer-explain-page-units-chart");
        JsonNode units = json.path("units");
        assertEquals(Math.min(units.size(), RankedBars.MAX_ROWS), bars.size());
        for (int i = 0; i < bars.size(); i++) {
            assertEquals("page 0x" + Long.toHexString(units.get(i).path("unit").asLong()), bars.get(i).x());
            assertEquals(units.get(i).path("cost").asDouble(), Double.parseDouble(bars.get(i).value()), 0.0);
        }
    }

    @Test
    void falseSharing_barsCarryTheMisses_andTheOpenTableNamesWhatEachProcessorTouchedAndTheFix() throws Exception {
        JsonNode json = OM.readTree(FS.toFile());
        JsonNode line = json.path("falseSharing").get(0);
        String page = page(FS);
        List<Bar> bars = bars(page, "falsesharing-explain-line-false-sharing-chart");
        String x = "line 0x" + Long.toHexString(line.path("line").asLong());
        String[][] series = {{"coherence misses", "misses"}, {"false-sharing misses", "falseSharingMisses"},
            {"removed by separating", "removed"}};
        for (String[] s : series) {
            Bar b = bars.stream().filter(e -> e.series().equals(s[0])).findFirst().orElseThrow();
            assertEquals(x, b.x());
            assertEquals(line.path(s[1]).asText(), b.value(), s[0]);
        }
        int fig = page.indexOf("<figure id=\"falsesharing-explain-line-false-sharing\"");
        String figure = page.substring(fig, page.indexOf("</figure>", fig));
        assertTrue(figure.contains("<details open>"), "the false-sharing table is open by default");
        for (JsonNode what : line.path("touched").path("0")) {
            assertTrue(figure.contains("processor 0: " + Fmt.esc(what.asText())), what.asText());
        }
        assertTrue(figure.contains("long[0] at offset 16 written") && figure.contains("long[1] at offset 24 written"),
                "both elements named with their offsets");
        assertTrue(figure.contains(Fmt.esc(line.path("fix").asText())), "the fix");
    }

    @Test
    void pageResult_hasNoFalseSharingFigure_andALineResultWithoutFalseSharingSaysSo() throws Exception {
        String pc = page(PC);
        assertTrue(pc.contains("id=\"producerconsumer-explain-page-causes\""));
        assertFalse(pc.contains("false-sharing"), "false sharing only at line granularity");
        ObjectNode json = (ObjectNode) OM.readTree(FS.toFile());
        json.putArray("falseSharing");
        Path padded = dir.resolve("padded.2.explain.json");
        OM.writeValue(padded.toFile(), json);
        String page = page(padded);
        assertTrue(page.contains("<td>no falsely shared line</td>"), "an empty list is said, not left out");
        assertFalse(page.contains("id=\"padded-explain-line-false-sharing-chart\""), "no chart without a line");
    }

    @Test
    void falseSharingOfAFaultTraceWithoutItsTraceSet_saysTheSplitMissesAreNotCounted() throws Exception {
        ObjectNode json = (ObjectNode) OM.readTree(FS.toFile());
        ObjectNode line = (ObjectNode) json.path("falseSharing").get(0);
        line.putNull("missesSeparated");
        line.putNull("removed");
        Path read = dir.resolve("fromfaults.2.explain.json");
        OM.writeValue(read.toFile(), json);
        String page = page(read);
        List<Bar> bars = bars(page, "fromfaults-explain-line-false-sharing-chart");
        assertTrue(bars.stream().noneMatch(b -> b.series().equals("removed by separating")), "no made-up bar");
        assertEquals(line.path("misses").asText(), bars.get(0).value());
        int fig = page.indexOf("<figure id=\"fromfaults-explain-line-false-sharing\"");
        String figure = page.substring(fig, page.indexOf("</figure>", fig));
        assertTrue(figure.contains("<td>not counted</td><td>not counted</td>"), figure);
    }

    @Test
    void explainResultWithoutAProfile_isRefusedNamingTheField_andItsProgramLosesTheSuffix() throws Exception {
        ObjectNode json = (ObjectNode) OM.readTree(PC.toFile());
        json.remove("bySourceLine");
        Path bad = dir.resolve("pc.explain.json");
        OM.writeValue(bad.toFile(), json);
        String msg = assertThrows(BadResultException.class, () -> Inputs.read(List.of(bad), false)).getMessage();
        assertEquals(bad + ": field bySourceLine missing", msg);
        assertEquals("producerconsumer", Result.programOf(PC));
    }

    @Test
    void twoResultsOfOneGranularity_getFiguresOfTheirOwn() throws Exception {
        Path copy = dir.resolve("falsesharing.4.explain.json");
        OM.writeValue(copy.toFile(), OM.readTree(FS.toFile()));
        String page = page(FS, copy);
        assertTrue(page.contains("id=\"falsesharing-explain-line-falsesharing-2-explain-json-causes\""));
        assertTrue(page.contains("id=\"falsesharing-explain-line-falsesharing-4-explain-json-causes\""));
        assertEquals(page, page(FS, copy), "same inputs, same bytes");
    }
}
