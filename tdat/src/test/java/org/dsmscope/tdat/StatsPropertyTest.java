package org.dsmscope.tdat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Property: on any list of event clocks, TDAT's bins and figures equal those of a simple reference: a HashMap from
 * bin number to count and plain double arithmetic over a list of rates. The reference finds a bin's class by a
 * linear scan for the first class whose upper bound is not below the rate, compared exactly (count × N <= (k + 1) ×
 * max), so that a rate on a boundary is not left to rounding in either.
 */
class StatsPropertyTest {

    @Provide
    Arbitrary<List<Long>> clocks() {
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 50_000), Arbitraries.longs().between(0, 300),
                Arbitraries.of(0L, 999L, 1000L, 1001L, 49_999L)).list().ofMaxSize(300);
    }

    /** What the reference finds. */
    record Ref(long events, int bins, int nonEmpty, double avg, double min, double max, double sd, long[] classes,
            long[] counts) {
    }

    static Ref reference(List<Long> clocks, long width, int p, int n) {
        Map<Long, Long> bins = new HashMap<>();
        long last = -1;
        for (long c : clocks) {
            bins.merge(c / width, 1L, Long::sum);
            last = Math.max(last, c / width);
        }
        int nb = (int) (last + 1);
        long[] counts = new long[nb];
        List<Double> rates = new ArrayList<>();
        for (int k = 0; k < nb; k++) {
            counts[k] = bins.getOrDefault((long) k, 0L);
            rates.add(counts[k] / ((double) width * p));
        }
        double sum = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double r : rates) {
            sum += r;
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        double avg = nb == 0 ? 0 : sum / nb;
        double sq = 0;
        for (double r : rates) {
            sq += (r - avg) * (r - avg);
        }
        double sd = nb == 0 ? 0 : Math.sqrt(sq / nb);
        long cmax = 0;
        for (long c : counts) {
            cmax = Math.max(cmax, c);
        }
        long[] classes = new long[nb == 0 ? 0 : n];
        int nonEmpty = 0;
        for (long c : counts) {
            if (c == 0) {
                continue;
            }
            nonEmpty++;
            for (int k = 0; k < n; k++) {
                if (c * n <= (k + 1) * cmax) {
                    classes[k]++;
                    break;
                }
            }
        }
        return new Ref(clocks.size(), nb, nonEmpty, avg, nb == 0 ? 0 : min, max, sd, classes, counts);
    }

    private static void check(Ref ref, TdatResult r, long[] counts) {
        assertEquals(ref.events(), r.events);
        assertEquals(ref.bins(), r.bins);
        assertEquals(ref.nonEmpty(), r.nonEmptyBins);
        org.junit.jupiter.api.Assertions.assertArrayEquals(ref.counts(), counts);
        double tol = 1e-12 * Math.max(1, ref.max());
        assertEquals(ref.avg(), r.averageRate, tol);
        assertEquals(ref.min(), r.minimumRate, tol);
        assertEquals(ref.max(), r.maximumRate, tol);
        assertEquals(ref.sd(), r.standardDeviation, 1e-9 * Math.max(ref.max(), 1e-12));
        assertEquals(ref.classes().length, r.classes());
        double cum = 0;
        for (int k = 0; k < r.classes(); k++) {
            assertEquals(ref.classes()[k], r.classCount(k), "class " + k);
            double density = (double) ref.classes()[k] / ref.nonEmpty();
            cum += density;
            assertEquals(density, r.density(k), 1e-12);
            assertEquals(cum, r.distribution(k), 1e-9);
        }
        if (r.classes() > 0) {
            assertEquals(1.0, r.distribution(r.classes() - 1));
            assertEquals(r.maximumRate, r.upperBound(r.classes() - 1), 1e-15 * r.maximumRate);
        }
    }

    @Property
    void figures_matchTheReference(@ForAll("clocks") List<Long> clocks, @ForAll @LongRange(min = 1, max = 5000)
            long width, @ForAll @IntRange(min = 1, max = 16) int p, @ForAll @IntRange(min = 1, max = 60) int n) {
        Bins b = new Bins(width);
        for (long c : clocks) {
            b.add(c);
        }
        TdatOptions o = TdatOptions.of(width, p);
        o.rateBins = n;
        check(reference(clocks, width, p, n), TdatResult.of(b.counts(), o, List.of()), b.counts());
    }

    /** The same through a CIAT event trace file read by {@link Tdat}, with a processor selection. */
    @Property(tries = 60)
    void figures_fromAnEventTraceFile_matchTheReference(@ForAll("clocks") List<Long> clocks,
            @ForAll @LongRange(min = 1, max = 3000) long width, @ForAll @IntRange(min = 1, max = 60) int n)
            throws Exception {
        Path f = Files.createTempFile("tdat-prop", ".ciat_events");
        try {
            StringBuilder sb = new StringBuilder(EventReader.CIAT_HEADER + "\n# fields: clock type processor degree\n");
            List<Long> selected = new ArrayList<>();
            for (int i = 0; i < clocks.size(); i++) {
                int proc = i % 3;
                sb.append(clocks.get(i)).append(' ').append(Selection.CIAT_TYPES[i % 4]).append(' ').append(proc)
                        .append(" 1\n");
                if (proc != 1) {
                    selected.add(clocks.get(i));
                }
            }
            Files.writeString(f, sb);
            TdatOptions o = TdatOptions.of(width, 3);
            o.rateBins = n;
            o.selection = Selection.parse(null, "0,2", null);
            Tdat t = new Tdat(o);
            Tdat.Input in = t.read(f);
            assertEquals(clocks.size(), in.records());
            assertEquals(selected.size(), in.events());
            check(reference(selected, width, 3, n), t.result(), t.bins().counts());
        } finally {
            Files.deleteIfExists(f);
        }
    }
}
