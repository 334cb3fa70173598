package org.dsmscope.tdat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Binning and the statistics on the hand-computed example of the module README: events at clocks 0, 5, 999, 1000
 * and 3500, BIN 1000, p 2.
 */
class BinsAndStatsTest {
    private static final long[] CLOCKS = {0, 5, 999, 1000, 3500};

    @TempDir
    Path dir;

    private static TdatResult example(int rateBins) {
        Bins b = new Bins(1000);
        for (long c : CLOCKS) {
            assertTrue(b.add(c));
        }
        TdatOptions o = TdatOptions.of(1000, 2);
        o.rateBins = rateBins;
        return TdatResult.of(b.counts(), o, List.of());
    }

    @Test
    void bins_startAtZero_runToTheLastEvent_emptyOnesIncluded() {
        Bins b = new Bins(1000);
        // any order: the 3500 event first
        for (long c : new long[] {3500, 0, 5, 999, 1000}) {
            b.add(c);
        }
        assertEquals(4, b.size());
        assertEquals(5, b.total());
        assertArrayEquals(new long[] {3, 1, 0, 1}, b.counts());
        assertEquals(0, new Bins(7).size());
    }

    @Test
    void bins_growPastTheirFirstArray() {
        Bins b = new Bins(1);
        b.add(5_000_000);
        b.add(3);
        assertEquals(5_000_001, b.size());
        assertEquals(1, b.count(3));
        assertEquals(1, b.count(5_000_000));
        assertEquals(0, b.count(4_999_999));
    }

    @Test
    void bins_refuseBinNumberOneHundredMillion_andSayWhichWidthWouldDo() {
        Bins b = new Bins(1);
        assertFalse(b.add(100_000_000L));
        assertEquals(0, b.size());
        assertEquals(0, b.total());
        assertEquals(2, Bins.minimumWidth(100_000_000L));
        assertEquals(1, Bins.minimumWidth(99_999_999L));
        assertEquals(3, Bins.minimumWidth(200_000_000L));
        long w = Bins.minimumWidth(Long.MAX_VALUE);
        assertTrue(Long.MAX_VALUE / w < Bins.MAX_BINS);
        assertTrue(Long.MAX_VALUE / (w - 1) >= Bins.MAX_BINS);
    }

    @Test
    void statistics_asComputedByHand() {
        TdatResult r = example(50);
        assertEquals(5, r.events);
        assertEquals(4, r.bins);
        assertEquals(3, r.nonEmptyBins);
        // rates 3/2000, 1/2000, 0, 1/2000
        assertEquals(0.000625, r.averageRate, 1e-18);
        assertEquals(0.0, r.minimumRate);
        assertEquals(0.0015, r.maximumRate, 1e-18);
        // deviations from 0.000625: 0.000875, -0.000125, -0.000625, -0.000125; squares sum to 1.1875e-6
        assertEquals(Math.sqrt(1.1875e-6 / 4), r.standardDeviation, 1e-15);
        assertEquals(5.448623679e-4, r.standardDeviation, 1e-12);
        // 50 classes of width 0.0015 / 50 = 3e-5: 0.0005 in (16 w, 17 w], 0.0015 in the last
        assertEquals(3e-5, r.classWidth(), 1e-18);
        for (int k = 0; k < 50; k++) {
            double want = k == 16 ? 2.0 / 3 : k == 49 ? 1.0 / 3 : 0;
            assertEquals(want, r.density(k), 1e-15, "class " + k);
            double cum = k < 16 ? 0 : k < 49 ? 2.0 / 3 : 1;
            assertEquals(cum, r.distribution(k), 1e-15, "class " + k);
        }
        assertEquals(1.0, r.distribution(49));
        assertEquals(r.maximumRate, r.upperBound(49));
    }

    @Test
    void rateOnAClassBoundary_fallsInTheLowerClass() {
        // 3 classes of width 0.0005: 0.0005 is the upper bound of class 0, (0, 0.0005]
        TdatResult r = example(3);
        assertEquals(2, r.classCount(0));
        assertEquals(0, r.classCount(1));
        assertEquals(1, r.classCount(2));
        assertEquals(TdatResult.rateClass(1, 3, 3), 0);
        assertEquals(TdatResult.rateClass(2, 3, 3), 1);
        assertEquals(TdatResult.rateClass(3, 3, 3), 2);
        assertEquals(TdatResult.rateClass(1, 1, 10_000), 9_999);
        assertEquals(TdatResult.rateClass(1, Long.MAX_VALUE, 10_000), 0);
        assertEquals(TdatResult.rateClass(Long.MAX_VALUE, Long.MAX_VALUE, 10_000), 9_999);
        assertEquals(TdatResult.rateClass(Long.MAX_VALUE / 2, Long.MAX_VALUE, 10_000), 4_999);
    }

    @Test
    void report_isTheDocumentedLines() {
        String text = TextReport.toText(example(3));
        assertEquals("# dsmscope-tdat 1\n"
                + "select_types all\n"
                + "select_processors all\n"
                + "select_nodes all\n"
                + "events 5\n"
                + "bins 4\n"
                + "nonempty_bins 3\n"
                + "bin_width 1000\n"
                + "processors 2\n"
                + "average_rate 6.250000e-04\n"
                + "minimum_rate 0.000000e+00\n"
                + "maximum_rate 1.500000e-03\n"
                + "standard_deviation 5.448624e-04\n"
                + "rate_classes 3\n"
                + "class_width 5.000000e-04\n"
                + "# upper_bound density distribution\n"
                + "5.000000e-04 0.666666667 0.666666667\n"
                + "1.000000e-03 0.000000000 0.666666667\n"
                + "1.500000e-03 0.333333333 1.000000000\n", text);
    }

    @Test
    void eventTime_andJson_fromAFile() throws Exception {
        Path f = dir.resolve("ev");
        StringBuilder sb = new StringBuilder(EventReader.CIAT_HEADER + "\n# fields: clock type processor degree\n");
        for (long c : CLOCKS) {
            sb.append(c).append(" RAW 1 0\n");
        }
        Files.writeString(f, sb);
        Tdat t = new Tdat(TdatOptions.of(1000, 2));
        t.read(f);
        Path time = dir.resolve("event.time");
        TimeFile.write(time, t.bins(), 2);
        assertEquals("# dsmscope-tdat-time 1 bin 1000 processors 2\n0 3\n1000 1\n2000 0\n3000 1\n",
                Files.readString(time));
        assertFalse(Files.exists(dir.resolve("event.time.partial")));
        TdatResult r = t.result();
        assertTrue(TextReport.toText(r).contains("\ninput ciat-events 5 5 " + f + "\n"));
        Path json = dir.resolve("t.json");
        TdatJson.write(r, json);
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals("dsmscope-tdat 1", j.get("format").asText());
        assertEquals(5, j.get("events").asLong());
        assertEquals(4, j.get("bins").asInt());
        assertEquals(3, j.get("nonEmptyBins").asInt());
        assertEquals(1000, j.get("binWidth").asLong());
        assertEquals(2, j.get("processors").asInt());
        assertEquals(0.000625, j.get("averageRate").asDouble(), 1e-18);
        assertEquals(0.0015, j.get("maximumRate").asDouble(), 1e-18);
        assertEquals(r.standardDeviation, j.get("standardDeviation").asDouble());
        assertEquals(50, j.get("density").size());
        assertEquals(1.0, j.get("density").get(49).get("distribution").asDouble());
        assertEquals(2, j.get("density").get(16).get("bins").asLong());
        assertEquals("ciat-events", j.get("inputs").get(0).get("kind").asText());
        assertTrue(j.get("selection").get("types").isNull());
        assertFalse(j.has("counts"), "bin counts are in event.time only");
        assertEquals(TdatJson.toJson(r), TdatJson.toJson(t.result()), "same figures, same bytes");
    }

    @Test
    void noEvents_noBins_headerOnlyTimeFile_noEventsLine_nullRates() throws Exception {
        Tdat t = new Tdat(TdatOptions.of(1000, 4));
        Path f = dir.resolve("empty");
        Files.writeString(f, EventReader.CIAT_HEADER + "\n# fields: clock type processor degree\n");
        t.read(f);
        TdatResult r = t.result();
        assertEquals(0, r.events);
        assertEquals(0, r.bins);
        assertEquals(0, r.classes());
        String text = TextReport.toText(r);
        assertTrue(text.endsWith("events 0\nbins 0\nnonempty_bins 0\nbin_width 1000\nprocessors 4\nno events\n"), text);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TimeFile.write(out, t.bins(), 4);
        assertEquals("# dsmscope-tdat-time 1 bin 1000 processors 4\n", out.toString(StandardCharsets.US_ASCII));
        JsonNode j = new ObjectMapper().readTree(TdatJson.toJson(r));
        assertTrue(j.get("averageRate").isNull());
        assertTrue(j.get("classWidth").isNull());
        assertEquals(0, j.get("density").size());
    }
}
