package org.dsmscope.tdat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;

/**
 * TDAT's report on standard output (the seed's {@code > event.freq}), format {@value #FORMAT}: fixed lines
 * {@code name value}, rates with {@value #RATE} (Locale.ROOT), densities with {@value #FRACTION}; every line is listed
 * in the module README ("Standard output"). The same figures give the same bytes.
 */
public final class TextReport {
    /** Format name and version, on the first line after {@code # }. */
    public static final String FORMAT = "dsmscope-tdat 1";
    /** Format of a rate: six decimals of a mantissa and an exponent ({@code 1.500000e-03}). */
    public static final String RATE = "%.6e";
    /** Format of a density or distribution value: nine decimals ({@code 0.666666667}). */
    public static final String FRACTION = "%.9f";

    private TextReport() {
    }

    /** The report as a string. */
    public static String toText(TdatResult r) {
        StringWriter s = new StringWriter();
        try (PrintWriter w = new PrintWriter(s)) {
            write(w, r);
        }
        return s.toString();
    }

    /** Writes the report to {@code out} (lines end with {@code \n} on every platform). */
    public static void write(PrintWriter out, TdatResult r) {
        StringBuilder sb = new StringBuilder(4096);
        sb.append("# ").append(FORMAT).append('\n');
        for (Tdat.Input in : r.inputs) {
            sb.append("input ").append(in.kind().label()).append(' ').append(in.records()).append(' ')
                    .append(in.events()).append(' ').append(in.file()).append('\n');
        }
        Selection s = r.selection;
        sb.append("select_types ").append(s.types() == null ? "all" : String.join(",", s.types())).append('\n');
        sb.append("select_processors ").append(s.processors() == null ? "all" : s.processors()).append('\n');
        sb.append("select_nodes ").append(s.nodes() == null ? "all" : s.nodes()).append('\n');
        sb.append("events ").append(r.events).append('\n');
        sb.append("bins ").append(r.bins).append('\n');
        sb.append("nonempty_bins ").append(r.nonEmptyBins).append('\n');
        sb.append("bin_width ").append(r.binWidth).append('\n');
        sb.append("processors ").append(r.processors).append('\n');
        if (r.events == 0) {
            sb.append("no events\n");
            out.append(sb);
            out.flush();
            return;
        }
        rate(sb, "average_rate", r.averageRate);
        rate(sb, "minimum_rate", r.minimumRate);
        rate(sb, "maximum_rate", r.maximumRate);
        rate(sb, "standard_deviation", r.standardDeviation);
        sb.append("rate_classes ").append(r.rateBins).append('\n');
        rate(sb, "class_width", r.classWidth());
        sb.append("# upper_bound density distribution\n");
        out.append(sb);
        for (int k = 0; k < r.classes(); k++) {
            out.append(String.format(Locale.ROOT, RATE + " " + FRACTION + " " + FRACTION + "\n", r.upperBound(k),
                    r.density(k), r.distribution(k)));
        }
        out.flush();
    }

    private static void rate(StringBuilder sb, String name, double v) {
        sb.append(name).append(' ').append(String.format(Locale.ROOT, RATE, v)).append('\n');
    }
}
