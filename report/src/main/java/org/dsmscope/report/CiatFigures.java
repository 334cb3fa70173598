package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The CIAT figures of seed 001 §5 from CIAT JSON results of one program: Table 2 (general characteristics),
 * Figure 2 (instruction mix), Figure 3 (access-age CDF with its knees; miss-ratio curves at line granularities),
 * Figure 5 (busy / idle / imbalance / contention and the speedup), Figure 6 (communication shares), Figures 7 and 8
 * (sharing and invalidation degree), Figure 9 (processor-pair matrix), Figures 10 and 11 (sizes and accesses of
 * code, private and shared data) and Table 3 (disk I/O). Several results (thread counts) are drawn as the seed
 * draws them: one bar or point per number of processors.
 */
final class CiatFigures {
    private static final String[] LOAD_CLASSES = {"byte", "halfword", "three-byte", "word", "double-word-fixed",
        "float", "double-float", "vector", "other"};
    private static final String[] STORE_CLASSES = {"zero-byte", "byte", "halfword", "three-byte", "word",
        "double-word-fixed", "float", "double-float", "vector", "other"};

    private final String prefix;
    private final List<Result> rs;
    private final List<String> labels;
    /** The results drawn in the access-age figures: {@link #rs} and the age-only results, thread scope first. */
    private final List<Result> ages;

    CiatFigures(String prefix, List<Result> sorted) {
        this(prefix, sorted, List.of());
    }

    /**
     * The figures of {@code sorted} (by processors); {@code ageOnly} are results of another access-age scope at the
     * same processors ({@link #ageOnly}), drawn in the access-age and miss-ratio figures only.
     */
    CiatFigures(String prefix, List<Result> sorted, List<Result> ageOnly) {
        this.prefix = prefix;
        this.rs = sorted;
        this.labels = Labels.of(sorted);
        this.times = times(sorted);
        List<Result> a = new ArrayList<>(sorted);
        a.addAll(ageOnly);
        a.sort(java.util.Comparator.<Result>comparingInt(r -> r.processors).thenComparing(r -> !"thread".equals(
                scope(r))));
        this.ages = a;
    }

    /** The access-age scope of a result ({@code thread} or {@code global}). */
    static String scope(Result r) {
        return agg(r).path("accessAge").path("scope").asText();
    }

    /**
     * Whether a result only adds its access age to the figures: a global-scope result of a program that has a
     * thread-scope result at the same number of processors (a study runs both scopes; its other figures would
     * repeat the thread-scope run's).
     */
    static boolean ageOnly(Result r, List<Result> all) {
        if (!"global".equals(scope(r))) {
            return false;
        }
        for (Result o : all) {
            if (o != r && o.processors == r.processors && "thread".equals(scope(o))) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode agg(Result r) {
        return r.json.get("aggregate");
    }

    List<Figure> all() {
        List<Figure> f = new ArrayList<>();
        f.add(general());
        f.add(mix());
        f.add(accessAge());
        Figure miss = missRatio();
        if (miss != null) {
            f.add(miss);
        }
        f.add(concurrency());
        f.add(perThread());
        f.add(speedup());
        f.add(communication());
        f.add(degree("sharing-degree", "RAW sharing degree", "seed 001 Figure 7", "sharingDegree", "S",
                "Each bar is the share of RAW events read by k processors after a store (S[k] × 100 / ΣS): bars at"
                        + " small k mean producer-consumer pairs, bars at large k widely shared data."));
        f.add(degree("invalidation-degree", "WAR invalidation degree", "seed 001 Figure 8", "invalidationDegree", "I",
                "Each bar is the share of WAR events whose store found k processors having loaded the location"
                        + " (I[k] × 100 / ΣI): the invalidations or updates one store sends."));
        f.add(matrix());
        f.add(sizes());
        f.add(accesses());
        f.add(diskIo());
        return f;
    }

    private String id(String s) {
        return prefix + "-" + s;
    }

    private Figure general() {
        Figure f = new Figure(id("general"), "General characteristics", "seed 001 Table 2",
                "One column per run: sizes touched, instructions, the share of memory instructions, instructions per"
                        + " taken branch and synchronization counts.");
        f.header(perRun("characteristic"));
        String[][] names = {{"threads", "threads"}, {"processors", "processors"}, {"phases", "phases"},
            {"code size", "code"}, {"data size", "data"}, {"instructions", "instr"},
            {"memory instructions", "mem"}, {"memory instructions (% of instructions)", "mempct"},
            {"instructions per taken branch", "perbranch"}, {"barriers", "barrier"}, {"locks", "locks"},
            {"speedup", "speedup"}};
        for (String[] n : names) {
            List<String> row = new ArrayList<>(List.of(n[0]));
            for (Result r : rs) {
                JsonNode a = agg(r);
                long fetched = Json.l(a, "instructionStream/fetched");
                long instr = instructions(r);
                long mem = Json.l(a, "accesses/loads") + Json.l(a, "accesses/stores");
                long branches = Json.l(a, "instructionStream/takenBranches");
                row.add(switch (n[1]) {
                    case "threads" -> Fmt.count(r.json.path("threads").asLong());
                    case "processors" -> Fmt.count(r.ownProcessors);
                    case "phases" -> Fmt.count(r.json.path("phases").size());
                    case "code" -> Fmt.count(Json.l(a, "memory/touchedCodeBytes")) + " B";
                    case "data" -> Fmt.count(Json.l(a, "memory/touchedDataBytes")) + " B";
                    case "instr" -> Fmt.count(instr) + (fetched > 0 ? "" : " (busy)");
                    case "mem" -> Fmt.count(mem);
                    case "mempct" -> fetched > 0 ? Fmt.pct(100.0 * mem / fetched) : "n/a (no instruction fetches)";
                    case "perbranch" -> branches > 0 ? Fmt.count(Math.round(10.0 * instr / branches) / 10.0)
                            : "n/a (no taken branches)";
                    case "barrier" -> Fmt.count(calls(a, "barrier", "count"));
                    case "locks" -> Fmt.count(calls(a, "begin_critical", "count") + calls(a, "ldcw", "count")
                            + calls(a, "semop", "count"));
                    default -> speedupText(r);
                });
            }
            f.row(row);
        }
        return f;
    }

    /** Instructions executed: fetched instructions when traced, else the busy time (in instructions). */
    static long instructions(Result r) {
        long fetched = Json.l(agg(r), "instructionStream/fetched");
        return fetched > 0 ? fetched : Json.sum(Json.at(agg(r), "concurrency/busy"));
    }

    static long calls(JsonNode a, String type, String field) {
        long n = 0;
        for (JsonNode c : a.path("calls")) {
            if (type.equals(c.path("type").asText())) {
                n += c.path(field).asLong();
            }
        }
        return n;
    }

    /** The table's header: {@code first}, then one column per run. */
    private List<String> perRun(String first) {
        List<String> h = new ArrayList<>(List.of(first));
        h.addAll(labels);
        return h;
    }

    /**
     * Adds one series of counts (one per run) to a chart as shares of the runs' totals, and its row (count and share
     * per run) to the figure's table; a series of zeros only when {@code keepZeros}.
     */
    private static void shares(BarChart c, Figure f, String name, long[] n, long[] total, boolean keepZeros) {
        double[] hs = new double[n.length];
        String[] raw = new String[n.length];
        boolean any = false;
        List<String> row = new ArrayList<>(List.of(name));
        for (int i = 0; i < n.length; i++) {
            hs[i] = total[i] == 0 ? 0 : 100.0 * n[i] / total[i];
            raw[i] = Long.toString(n[i]);
            any |= n[i] > 0;
            row.add(Fmt.count(n[i]) + " (" + Fmt.pct(hs[i]) + ")");
        }
        if (any || keepZeros) {
            c.add(name, hs, raw);
            f.row(row);
        }
    }

    private Figure mix() {
        Figure f = new Figure(id("mix"), "Instruction mix", "seed 001 Figure 2",
                "Each bar splits one run's memory instructions by type (load or store) and size of the data"
                        + " accessed, as a share of all memory instructions.");
        BarChart c = new BarChart(id("mix-chart"), "processors", "% of memory instructions", true, true, labels);
        f.header(perRun("instruction"));
        long[] total = new long[rs.size()];
        for (int i = 0; i < rs.size(); i++) {
            total[i] = Json.l(agg(rs.get(i)), "accesses/loads") + Json.l(agg(rs.get(i)), "accesses/stores");
        }
        for (String kind : new String[] {"load", "store"}) {
            for (String cls : kind.equals("load") ? LOAD_CLASSES : STORE_CLASSES) {
                long[] n = new long[rs.size()];
                for (int i = 0; i < rs.size(); i++) {
                    n[i] = Json.l(agg(rs.get(i)), "accesses/" + kind + "/" + cls);
                }
                shares(c, f, kind + " " + cls, n, total, false);
            }
        }
        if (!c.isEmpty()) {
            f.svg(c.svg());
        }
        return f;
    }

    /** Knees of a CDF in percent: a rise of at least 5 points into a point, followed by at most a quarter of it. */
    static boolean[] knees(double[] y) {
        boolean[] k = new boolean[y.length];
        for (int i = 0; i < y.length; i++) {
            double rise = y[i] - (i == 0 ? 0 : y[i - 1]);
            double next = i + 1 < y.length ? y[i + 1] - y[i] : 0;
            k[i] = rise >= 5 && next <= rise / 4;
        }
        return k;
    }

    private Figure accessAge() {
        Figure f = new Figure(id("access-age"), "Working sets: access-age CDF", "seed 001 Figure 3",
                "A point (x, y) says that y% of the accesses (first accesses left out) have an access age of at most"
                        + " x bytes; a rise to a plateau at x (ringed: a knee) marks a working set of at most x bytes."
                        + " Solid lines: each thread's own stream (its cache); dashed, in the same colour: the global,"
                        + " interleaved stream of the same run (one cache shared by all).");
        LineChart c = new LineChart(id("access-age-chart"), "access age (bytes)", "% of accesses", true, true,
                v -> Fmt.bytes(Math.round(v)));
        f.header(List.of("run", "scope", "granularity", "age ≤ bytes", "accesses", "% of finite-age accesses", "knee"));
        List<String> names = Labels.of(ages, CiatFigures::scope);
        List<Integer> colours = new ArrayList<>();
        for (int i = 0; i < ages.size(); i++) {
            Result r = ages.get(i);
            JsonNode age = agg(r).path("accessAge");
            JsonNode cdf = age.path("cdf");
            long finite = age.path("accesses").asLong() - age.path("infinite").asLong();
            double[] x = new double[cdf.size()];
            double[] y = new double[cdf.size()];
            String[] raw = new String[cdf.size()];
            for (int k = 0; k < cdf.size(); k++) {
                x[k] = cdf.get(k).path("bytes").asDouble();
                long n = cdf.get(k).path("accesses").asLong();
                y[k] = finite <= 0 ? 0 : 100.0 * n / finite;
                raw[k] = Long.toString(n);
            }
            boolean[] knee = knees(y);
            String scope = scope(r);
            String name = names.get(i) + ", " + scope + " scope";
            if (!colours.contains(r.processors)) {
                colours.add(r.processors);
            }
            c.add(name, x, y, raw, knee, colours.indexOf(r.processors), !"thread".equals(scope));
            for (int k = 0; k < x.length; k++) {
                f.row(List.of(names.get(i), scope, age.path("granularity").asText(),
                        Fmt.bytes((long) x[k]), Fmt.count(Double.parseDouble(raw[k])), Fmt.pct(y[k]),
                        knee[k] ? "knee" : ""));
            }
        }
        if (!c.isEmpty()) {
            f.svg(c.svg());
        }
        return f;
    }

    private Figure missRatio() {
        LineChart c = new LineChart(id("miss-ratio-chart"), "cache size (bytes)", "miss ratio %", true, true,
                v -> Fmt.bytes(Math.round(v)));
        Figure f = new Figure(id("miss-ratio"), "Miss ratio of a fully associative LRU cache", "seed 001 §5.2",
                "From an access-age CDF at line granularity G: the share of accesses that miss in a fully associative"
                        + " LRU cache of x bytes with G-byte lines (first accesses are compulsory misses).");
        f.header(List.of("run", "scope", "line (granularity)", "cache bytes", "misses", "miss ratio"));
        List<String> names = Labels.of(ages, CiatFigures::scope);
        List<Integer> colours = new ArrayList<>();
        for (int i = 0; i < ages.size(); i++) {
            JsonNode age = agg(ages.get(i)).path("accessAge");
            if (age.path("granularity").asLong() <= 1) {
                continue;
            }
            JsonNode cdf = age.path("cdf");
            long all = age.path("accesses").asLong();
            double[] x = new double[cdf.size()];
            double[] y = new double[cdf.size()];
            String[] raw = new String[cdf.size()];
            for (int k = 0; k < cdf.size(); k++) {
                x[k] = cdf.get(k).path("bytes").asDouble();
                long miss = all - cdf.get(k).path("accesses").asLong();
                y[k] = all == 0 ? 0 : 100.0 * miss / all;
                raw[k] = Long.toString(miss);
                f.row(List.of(names.get(i), scope(ages.get(i)), age.path("granularity").asText() + " B",
                        Fmt.bytes((long) x[k]), Fmt.count(miss), Fmt.pct(y[k])));
            }
            Result r = ages.get(i);
            if (!colours.contains(r.processors)) {
                colours.add(r.processors);
            }
            c.add(names.get(i) + ", " + scope(r) + ", " + age.path("granularity").asText() + " B", x, y, raw, null,
                    colours.indexOf(r.processors), !"thread".equals(scope(r)));
        }
        return c.isEmpty() ? null : f.svg(c.svg());
    }

    /** The time classes drawn: spin only where some result has spin time (ciat/README.md "Spin time"). */
    private final String[] times;

    private static String[] times(List<Result> rs) {
        for (Result r : rs) {
            if (Json.sum(Json.at(agg(r), "concurrency/spin")) > 0) {
                return new String[] {"busy", "spin", "idle", "imbalance", "contention"};
            }
        }
        return new String[] {"busy", "idle", "imbalance", "contention"};
    }

    /** {@code first} followed by the time classes, each with {@code suffix}. */
    private List<String> timeHeader(String first, String suffix) {
        List<String> h = new ArrayList<>(List.of(first));
        for (String t : times) {
            h.add(t + suffix);
        }
        return h;
    }

    private Figure concurrency() {
        Result one = null;
        for (Result r : rs) {
            if (r.processors == 1) {
                one = r;
                break;
            }
        }
        double base = 0;
        if (one != null) {
            for (String t : times) {
                base += Json.sum(Json.at(agg(one), "concurrency/" + t));
            }
        }
        boolean normal = base > 0;
        Figure f = new Figure(id("concurrency"), "Concurrency and load balance", "seed 001 Figure 5",
                normal ? "Each bar is the processors' total time (in instructions) busy, idle in serial phases, waiting"
                        + " at barriers and joins (imbalance) and on locks (contention), and spinning on a location another"
                        + " thread writes (spin, where there is any), as a share of the one-processor run's time: perfect"
                        + " speedup keeps the bars at 100%."
                        : "Each bar is the processors' total time (in instructions) busy, idle in serial phases,"
                        + " waiting at barriers and joins (imbalance) and on locks (contention).");
        BarChart c = new BarChart(id("concurrency-chart"), "processors",
                normal ? "% of one-processor time" : "instructions", true, normal, labels);
        f.header(perRun("time"));
        for (String t : times) {
            double[] hs = new double[rs.size()];
            String[] raw = new String[rs.size()];
            List<String> row = new ArrayList<>(List.of(t));
            for (int i = 0; i < rs.size(); i++) {
                long n = Json.sum(Json.at(agg(rs.get(i)), "concurrency/" + t));
                hs[i] = normal ? 100.0 * n / base : n;
                raw[i] = Long.toString(n);
                row.add(Fmt.count(n) + (normal ? " (" + Fmt.pct(hs[i]) + ")" : ""));
            }
            c.add(t, hs, raw);
            f.row(row);
        }
        return f.svg(c.svg());
    }

    private Figure perThread() {
        Result r = rs.get(rs.size() - 1);
        String label = labels.get(rs.size() - 1);
        Figure f = new Figure(id("concurrency-threads"), "Busy, idle, imbalance and contention per thread and phase ("
                + label + ")", "seed 001 Figures 4, 5",
                "The first chart stacks each thread's time, the second each phase's time summed over threads: a"
                        + " thread with little busy time and much imbalance waited for the others.");
        int threads = Json.at(agg(r), "concurrency/busy").size();
        List<String> cats = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            cats.add("T" + t);
        }
        BarChart c = new BarChart(id("threads-chart"), "thread", "instructions", true, false, cats);
        f.header(timeHeader("block", ""));
        for (String t : times) {
            long[] v = Json.longs(Json.at(agg(r), "concurrency/" + t));
            double[] hs = new double[threads];
            String[] raw = new String[threads];
            for (int i = 0; i < threads; i++) {
                hs[i] = i < v.length ? v[i] : 0;
                raw[i] = Long.toString(i < v.length ? v[i] : 0);
            }
            c.add(t, hs, raw);
        }
        for (int i = 0; i < threads; i++) {
            List<String> row = new ArrayList<>(List.of("thread " + i));
            for (String t : times) {
                row.add(Fmt.count(Json.at(agg(r), "concurrency/" + t).path(i).asLong()));
            }
            f.row(row);
        }
        f.svg(c.svg());
        JsonNode phases = r.json.path("phases");
        List<String> pc = new ArrayList<>();
        for (JsonNode p : phases) {
            pc.add(p.path("id").asText() + " " + p.path("kind").asText());
        }
        if (!pc.isEmpty()) {
            BarChart pch = new BarChart(id("phases-chart"), "phase", "instructions", true, false, pc);
            for (String t : times) {
                double[] hs = new double[pc.size()];
                String[] raw = new String[pc.size()];
                for (int i = 0; i < pc.size(); i++) {
                    long n = Json.sum(phases.get(i).path("concurrency").path(t));
                    hs[i] = n;
                    raw[i] = Long.toString(n);
                }
                pch.add(t, hs, raw);
            }
            for (int i = 0; i < pc.size(); i++) {
                List<String> row = new ArrayList<>(List.of("phase " + pc.get(i)));
                for (String t : times) {
                    row.add(Fmt.count(Json.sum(phases.get(i).path("concurrency").path(t))));
                }
                f.row(row);
            }
            f.svg(pch.svg());
        }
        return f;
    }

    /**
     * A run's speedup: the one its result holds, else (no Busy(1) given to CIAT) the seed's formula with Busy(1) from
     * a one-processor result of the same program; NaN when neither exists.
     */
    double speedupOf(Result r) {
        JsonNode s = agg(r).path("concurrency").path("speedup");
        if (s.isNumber()) {
            return s.asDouble();
        }
        for (Result one : rs) {
            if (one.processors == 1) {
                double total = 0;
                for (String t : times) {
                    total += Json.sum(Json.at(agg(r), "concurrency/" + t));
                }
                double b1 = Json.sum(Json.at(agg(one), "concurrency/busy"));
                return total == 0 ? Double.NaN : b1 / (total / r.ownProcessors);
            }
        }
        return Double.NaN;
    }

    private String speedupText(Result r) {
        double v = speedupOf(r);
        if (Double.isNaN(v)) {
            return "unknown";
        }
        return String.format(java.util.Locale.ROOT, "%.4f", v)
                + (agg(r).path("concurrency").path("speedup").isNumber() ? "" : " (Busy(1) of the p=1 run)");
    }

    private Figure speedup() {
        Figure f = new Figure(id("speedup"), "Speedup", "seed 001 §5.3",
                "Busy(1) / ((Busy(p) + Spin(p) + Idle(p) + Imbalance(p) + Contention(p)) / p) for each number of processors p;"
                        + " the dashed line is perfect speedup (unknown without Busy(1): ciat --busy1 or a one-thread run).");
        List<String> h = timeHeader("processors", "(p)");
        h.add(1, "speedup");
        f.header(h);
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        List<String> raws = new ArrayList<>();
        for (Result r : rs) {
            double s = speedupOf(r);
            List<String> row = new ArrayList<>(List.of(Integer.toString(r.processors), speedupText(r)));
            for (String t : times) {
                row.add(Fmt.count(Json.sum(Json.at(agg(r), "concurrency/" + t))));
            }
            f.row(row);
            if (!Double.isNaN(s)) {
                xs.add((double) r.processors);
                ys.add(s);
                raws.add(Fmt.raw(s));
            }
        }
        if (!xs.isEmpty()) {
            double[] x = xs.stream().mapToDouble(Double::doubleValue).toArray();
            double[] y = ys.stream().mapToDouble(Double::doubleValue).toArray();
            LineChart c = new LineChart(id("speedup-chart"), "processors", "speedup", false, false, Fmt::tick);
            c.add("speedup", x, y, raws.toArray(new String[0]), null);
            c.reference("perfect", x, x.clone());
            f.svg(c.svg());
        }
        return f;
    }

    private Figure communication() {
        Figure f = new Figure(id("communication"), "Communication patterns", "seed 001 Figure 6",
                "Each bar splits one run's communication accesses into RAW, WAR, WAW and RAR, as shares of all data"
                        + " accesses considered (synchronization variables left out): taller bars communicate more.");
        BarChart c = new BarChart(id("communication-chart"), "processors", "% of data accesses", true, true, labels);
        f.header(perRun("pattern"));
        long[] total = new long[rs.size()];
        for (int i = 0; i < rs.size(); i++) {
            total[i] = Json.l(agg(rs.get(i)), "communication/dataAccesses");
        }
        for (String t : new String[] {"raw", "war", "waw", "rar"}) {
            long[] n = new long[rs.size()];
            for (int i = 0; i < rs.size(); i++) {
                n[i] = Json.l(agg(rs.get(i)), "communication/" + t);
            }
            shares(c, f, t.toUpperCase(java.util.Locale.ROOT), n, total, true);
        }
        return f.svg(c.svg());
    }

    private Figure degree(String key, String title, String seed, String field, String letter, String guide) {
        Figure f = new Figure(id(key), title, seed, guide);
        int maxP = 0;
        for (Result r : rs) {
            maxP = Math.max(maxP, Json.at(agg(r), "communication/" + field).size());
        }
        List<String> cats = new ArrayList<>();
        for (int k = 1; k <= maxP; k++) {
            cats.add(Integer.toString(k));
        }
        BarChart c = new BarChart(id(key + "-chart"), "degree k", "% of events", false, true, cats);
        List<String> h = new ArrayList<>(List.of("k"));
        for (String l : labels) {
            h.add(letter + "[k], " + l);
        }
        f.header(h);
        for (int i = 0; i < rs.size(); i++) {
            long[] v = Json.longs(Json.at(agg(rs.get(i)), "communication/" + field));
            long sum = 0;
            for (long x : v) {
                sum += x;
            }
            double[] hs = new double[maxP];
            String[] raw = new String[maxP];
            for (int k = 0; k < maxP; k++) {
                long n = k < v.length ? v[k] : 0;
                hs[k] = k >= v.length ? Double.NaN : sum == 0 ? 0 : 100.0 * n / sum;
                raw[k] = Long.toString(n);
            }
            c.add(labels.get(i), hs, raw);
        }
        for (int k = 0; k < maxP; k++) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(k + 1)));
            for (Result r : rs) {
                JsonNode v = Json.at(agg(r), "communication/" + field);
                row.add(k < v.size() ? Fmt.count(v.get(k).asLong()) : "");
            }
            f.row(row);
        }
        return f.svg(c.svg());
    }

    private Figure matrix() {
        Figure f = new Figure(id("matrix"), "Communication per processor pair", "seed 001 Figure 9",
                "Row i, column j: communication events from processor Pi to Pj (darker = more; hover for the count):"
                        + " a diagonal band is nearest-neighbour exchange, a full row one producer.");
        f.header(List.of("run", "from", "to each processor 0, 1, …"));
        for (int i = 0; i < rs.size(); i++) {
            JsonNode m = Json.at(agg(rs.get(i)), "communication/matrix");
            long[][] a = new long[m.size()][];
            for (int r = 0; r < a.length; r++) {
                a[r] = Json.longs(m.get(r));
                StringBuilder b = new StringBuilder();
                for (long v : a[r]) {
                    b.append(b.length() == 0 ? "" : " ").append(v);
                }
                f.row(List.of(labels.get(i), "P" + r, b.toString()));
            }
            f.svg(HeatMap.svg(id("matrix-" + Labels.slug(labels.get(i))), labels.get(i), a));
        }
        return f;
    }

    private Figure sizes() {
        Figure f = new Figure(id("sizes"), "Code, private and shared data size", "seed 001 Figure 10",
                "Each bar is one run's touched locations (bytes): code, data touched by one thread (private) and data"
                        + " touched by several (shared); more processors usually share more.");
        BarChart c = new BarChart(id("sizes-chart"), "processors", "bytes", true, false, labels);
        f.header(List.of("run", "code bytes", "private data bytes", "shared data bytes", "shared %"));
        double[][] hs = new double[3][rs.size()];
        String[][] raw = new String[3][rs.size()];
        for (int i = 0; i < rs.size(); i++) {
            JsonNode m = agg(rs.get(i)).path("memory");
            long code = m.path("touchedCodeBytes").asLong();
            long data = m.path("touchedDataBytes").asLong();
            long shared = Math.min(m.path("sharedBytes").asLong(), data);
            long[] v = {code, data - shared, shared};
            for (int s = 0; s < 3; s++) {
                hs[s][i] = v[s];
                raw[s][i] = Long.toString(v[s]);
            }
            f.row(List.of(labels.get(i), Fmt.count(code), Fmt.count(data - shared), Fmt.count(shared),
                    Fmt.pct(data == 0 ? 0 : 100.0 * shared / data)));
        }
        c.add("code", hs[0], raw[0]).add("private data", hs[1], raw[1]).add("shared data", hs[2], raw[2]);
        return f.svg(c.svg());
    }

    private Figure accesses() {
        long base = 0;
        String baseLabel = null;
        for (int i = 0; i < rs.size(); i++) {
            if (rs.get(i).processors == 1) {
                base = agg(rs.get(i)).path("memory").path("dataAccesses").asLong();
                baseLabel = labels.get(i);
                break;
            }
        }
        if (base == 0) {
            base = agg(rs.get(0)).path("memory").path("dataAccesses").asLong();
            baseLabel = labels.get(0);
        }
        Figure f = new Figure(id("accesses"), "Private and shared data accesses", "seed 001 Figure 11",
                "Each bar is one run's data accesses to private and to shared locations, relative to all data accesses"
                        + " of the run at " + baseLabel + ": growth above 100% is work the extra threads add.");
        BarChart c = new BarChart(id("accesses-chart"), "processors", "% of data accesses at " + baseLabel, true, true,
                labels);
        f.header(List.of("run", "private data accesses", "shared data accesses", "relative to " + baseLabel));
        double[][] hs = new double[2][rs.size()];
        String[][] raw = new String[2][rs.size()];
        for (int i = 0; i < rs.size(); i++) {
            JsonNode m = agg(rs.get(i)).path("memory");
            long data = m.path("dataAccesses").asLong();
            long shared = m.path("sharedDataAccesses").asLong();
            long[] v = {data - shared, shared};
            for (int s = 0; s < 2; s++) {
                hs[s][i] = base == 0 ? 0 : 100.0 * v[s] / base;
                raw[s][i] = Long.toString(v[s]);
            }
            f.row(List.of(labels.get(i), Fmt.count(v[0]), Fmt.count(v[1]), Fmt.pct(base == 0 ? 0 : 100.0 * data / base)));
        }
        c.add("private", hs[0], raw[0]).add("shared", hs[1], raw[1]);
        return f.svg(c.svg());
    }

    private Figure diskIo() {
        Figure f = new Figure(id("disk-io"), "Disk I/O", "seed 001 Table 3",
                "Per run: file reads and writes the trace recorded, their average chunk and the I/O bytes per"
                        + " instruction (prefetching hides predictable large reads).");
        f.header(perRun("characteristic"));
        String[] names = {"disk read calls", "average read chunk", "disk write calls", "average write chunk",
            "disk I/O bytes per instruction"};
        for (int k = 0; k < names.length; k++) {
            List<String> row = new ArrayList<>(List.of(names[k]));
            for (Result r : rs) {
                JsonNode a = agg(r);
                long rc = calls(a, "file_read", "count");
                long rb = calls(a, "file_read", "bytes");
                long wc = calls(a, "file_write", "count");
                long wb = calls(a, "file_write", "bytes");
                long instr = instructions(r);
                row.add(switch (k) {
                    case 0 -> Fmt.count(rc);
                    case 1 -> rc == 0 ? "n/a" : Fmt.count(Math.round(10.0 * rb / rc) / 10.0) + " B";
                    case 2 -> Fmt.count(wc);
                    case 3 -> wc == 0 ? "n/a" : Fmt.count(Math.round(10.0 * wb / wc) / 10.0) + " B";
                    default -> instr == 0 ? "n/a" : String.format(java.util.Locale.ROOT, "%.4f",
                            (double) (rb + wb) / instr);
                });
            }
            f.row(row);
        }
        return f;
    }
}
