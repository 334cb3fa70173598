package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The TDAT figures (seed 001 §5.5, seed 000 §6) of one program: the rate over time from {@code event.time} files,
 * and the rate density and distribution functions from TDAT JSON results, one line per run; one pair of figures per
 * source of events (CIAT's communication events, each CDAT configuration's traffic trace).
 */
final class TdatFigures {
    /** At most this many points per line of the rate over time (bins are summed into wider ones above it). */
    static final int MAX_POINTS = 400;

    private TdatFigures() {
    }

    /**
     * The figures of every source of events, CIAT's communication events first, then each CDAT configuration's
     * transactions (a study's {@code NAME.CFG.tdat.json} and {@code .time}), beside each other.
     */
    static List<Figure> of(String prefix, List<Result> times, List<Result> stats) {
        Map<String, List<Result>> timeBy = new TreeMap<>();
        Map<String, List<Result>> statBy = new TreeMap<>();
        for (Result r : times) {
            timeBy.computeIfAbsent(source(r), k -> new ArrayList<>()).add(r);
        }
        for (Result r : stats) {
            statBy.computeIfAbsent(source(r), k -> new ArrayList<>()).add(r);
        }
        java.util.TreeSet<String> sources = new java.util.TreeSet<>(timeBy.keySet());
        sources.addAll(statBy.keySet());
        List<Figure> f = new ArrayList<>();
        for (String src : sources) {
            Source s = Source.of(prefix, src, statBy.getOrDefault(src, List.of()));
            if (timeBy.containsKey(src)) {
                f.add(overTime(s, timeBy.get(src)));
            }
            if (statBy.containsKey(src)) {
                f.add(density(s, statBy.get(src)));
            }
        }
        return f;
    }

    /**
     * What a TDAT result counted, from its file name: the words between the program and {@code .tdat} (thread
     * counts left out), empty for a study's CIAT events ({@code t4/matmul.tdat.json}), the configuration's name for
     * its CDAT traffic ({@code t4/matmul.dsm4.tdat.json}).
     */
    static String source(Result r) {
        String n = r.file.getFileName().toString().replaceAll("(?i)\\.(json|time)$", "").replaceAll("\\.tdat$", "");
        if (n.startsWith(r.program + ".")) {
            n = n.substring(r.program.length() + 1);
        } else if (n.equals(r.program)) {
            n = "";
        }
        return String.join(".", java.util.Arrays.stream(n.split("\\.")).filter(w -> !w.matches("[0-9]*"))
                .toList());
    }

    /** The ids, titles and guides of one source's figures. */
    private record Source(String id, String what, String seed, String name) {
        static Source of(String prefix, String src, List<Result> stats) {
            boolean cdat = !src.isEmpty();
            for (Result r : stats) {
                for (JsonNode in : r.json.path("inputs")) {
                    cdat |= in.path("kind").asText().startsWith("cdat");
                }
            }
            if (!cdat) {
                return new Source(prefix + "-tdat", "Communication", "seed 001 §5.5", "");
            }
            String tag = src.isEmpty() ? "cdat" : "cdat-" + Labels.slug(src);
            return new Source(prefix + "-tdat-" + tag, "CDAT transaction", "seed 001 §5.5 on seed 000 Appendix C"
                    + " traffic", src.isEmpty() ? "CDAT" : src);
        }
    }

    private static Figure overTime(Source s, List<Result> times) {
        List<String> labels = Labels.of(times);
        Figure f = new Figure(s.id + "-rate", s.what + " rate over time" + (s.name.isEmpty() ? "" : " (" + s.name
                + ")"), s.seed, s.name.isEmpty()
                ? "Events per bin divided by the bin width and the number of processors, along the run's clock: bursts"
                        + " are communication phases, a regular pattern periodic communication."
                : "The transactions of CDAT's detailed traffic trace per bin, divided by the bin width and the number"
                        + " of processors: the coherence traffic the simulated machine carries, beside the inherent"
                        + " communication above.");
        f.header(List.of("run", "bin width", "bins", "events", "peak rate"));
        LineChart c = new LineChart(s.id + "-rate-chart", "time (clocks)", "events / (clock × processor)", false,
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

    private static Figure density(Source s, List<Result> stats) {
        List<String> labels = Labels.of(stats);
        Figure f = new Figure(s.id + "-density", s.what + " rate density and distribution" + (s.name.isEmpty() ? ""
                : " (" + s.name + ")"), s.seed + ", seed 000 §6",
                "The first chart is the share of non-empty bins at each rate (the density), the second its integral"
                        + " (the distribution): a steep distribution means a steady rate.");
        f.header(List.of("run", "events", "bins", "average rate", "minimum rate", "maximum rate",
                "standard deviation"));
        LineChart d = new LineChart(s.id + "-density-chart", "rate", "density", false, false, Fmt::tick);
        LineChart cum = new LineChart(s.id + "-distribution-chart", "rate", "distribution", false, false,
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
