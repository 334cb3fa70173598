package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The TDAT figures (seed 001 §5.5, seed 000 §6) of one program: the communication rate over time from
 * {@code event.time} files, and the rate density and distribution functions from TDAT JSON results, one line per
 * run.
 */
final class TdatFigures {
    /** At most this many points per line of the rate over time (bins are summed into wider ones above it). */
    static final int MAX_POINTS = 400;

    private TdatFigures() {
    }

    static List<Figure> of(String prefix, List<Result> times, List<Result> stats) {
        List<Figure> f = new ArrayList<>();
        if (!times.isEmpty()) {
            f.add(overTime(prefix, times));
        }
        if (!stats.isEmpty()) {
            f.add(density(prefix, stats));
        }
        return f;
    }

    private static Figure overTime(String prefix, List<Result> times) {
        List<String> labels = Labels.of(times);
        Figure f = new Figure(prefix + "-tdat-rate", "Communication rate over time", "seed 001 §5.5",
                "Events per bin divided by the bin width and the number of processors, along the run's clock: bursts"
                        + " are communication phases, a regular pattern periodic communication.");
        f.header(List.of("run", "bin width", "bins", "events", "peak rate"));
        LineChart c = new LineChart(prefix + "-tdat-rate-chart", "time (clocks)", "events / (clock × processor)", false,
                false, Fmt::tick).withoutDots();
        for (int i = 0; i < times.size(); i++) {
            Result r = times.get(i);
            int group = Math.max(1, (r.bins.length + MAX_POINTS - 1) / MAX_POINTS);
            int n = (r.bins.length + group - 1) / group;
            double[] x = new double[n];
            double[] y = new double[n];
            String[] raw = new String[n];
            long events = 0;
            double peak = 0;
            for (int k = 0; k < n; k++) {
                long sum = 0;
                int width = 0;
                for (int j = k * group; j < Math.min(r.bins.length, (k + 1) * group); j++) {
                    sum += r.bins[j];
                    width++;
                }
                x[k] = (double) k * group * r.binWidth;
                y[k] = (double) sum / ((double) width * r.binWidth * Math.max(r.ownProcessors, 1));
                raw[k] = Long.toString(sum);
                events += sum;
                peak = Math.max(peak, y[k]);
            }
            c.add(labels.get(i), x, y, raw, null);
            f.row(List.of(labels.get(i), Fmt.count(r.binWidth) + (group > 1 ? " (drawn " + Fmt.count(group * r.binWidth)
                    + ")" : ""), Fmt.count(r.bins.length), Fmt.count(events), String.format(java.util.Locale.ROOT,
                    "%.6g", peak)));
        }
        return f.svg(c.svg());
    }

    private static Figure density(String prefix, List<Result> stats) {
        List<String> labels = Labels.of(stats);
        Figure f = new Figure(prefix + "-tdat-density", "Communication rate density and distribution",
                "seed 001 §5.5, seed 000 §6",
                "The first chart is the share of non-empty bins at each rate (the density), the second its integral"
                        + " (the distribution): a steep distribution means a steady rate.");
        f.header(List.of("run", "events", "bins", "average rate", "minimum rate", "maximum rate",
                "standard deviation"));
        LineChart d = new LineChart(prefix + "-tdat-density-chart", "rate", "density", false, false, Fmt::tick);
        LineChart cum = new LineChart(prefix + "-tdat-distribution-chart", "rate", "distribution", false, false,
                Fmt::tick);
        for (int i = 0; i < stats.size(); i++) {
            JsonNode j = stats.get(i).json;
            JsonNode den = j.path("density");
            double[] x = new double[den.size()];
            double[] y = new double[den.size()];
            double[] z = new double[den.size()];
            String[] ry = new String[den.size()];
            String[] rz = new String[den.size()];
            for (int k = 0; k < den.size(); k++) {
                x[k] = den.get(k).path("upperBound").asDouble();
                y[k] = den.get(k).path("density").asDouble();
                z[k] = den.get(k).path("distribution").asDouble();
                ry[k] = Json.raw(den.get(k).path("density"));
                rz[k] = Json.raw(den.get(k).path("distribution"));
            }
            d.add(labels.get(i), x, y, ry, null);
            cum.add(labels.get(i), x, z, rz, null);
            f.row(List.of(labels.get(i), Fmt.count(j.path("events").asLong()), Fmt.count(j.path("bins").asLong()),
                    rate(j, "averageRate"), rate(j, "minimumRate"), rate(j, "maximumRate"),
                    rate(j, "standardDeviation")));
        }
        if (!d.isEmpty()) {
            f.svg(d.svg()).svg(cum.svg());
        }
        return f;
    }

    private static String rate(JsonNode j, String field) {
        JsonNode v = j.path(field);
        return v.isNumber() ? Json.raw(v) : "n/a";
    }
}
