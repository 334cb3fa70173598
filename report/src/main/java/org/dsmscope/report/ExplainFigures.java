package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The EXPLAIN figures (seed 003 §3–4; explain/README.md's JSON, format {@code dsmscope-explain 1}) of one result:
 * the communication profiles by cause, by data structure and by source line, the cost per pattern, the pages
 * (lines) by cost, and at line granularity the falsely shared lines.
 */
final class ExplainFigures {
    /** The six patterns of seed 003 §4, as the JSON names them. */
    static final String[] PATTERNS = {"single-producer-single-consumer", "single-producer-multiple-consumer",
        "multiple-producer-single-consumer", "multiple-producer-multiple-consumer", "migratory", "cold-start"};
    /** Rows of a figure's table; the JSON holds the rest. */
    private static final int TABLE_ROWS = 50;

    private final String id;
    private final String suffix;
    private final JsonNode json;
    private final String unit;

    private ExplainFigures(String id, String suffix, JsonNode json) {
        this.id = id;
        this.suffix = suffix;
        this.json = json;
        this.unit = json.path("granularity").asText();
    }

    /** The figures of every EXPLAIN result of a program, in the order given. */
    static List<Figure> of(String prefix, List<Result> rs) {
        List<Figure> out = new ArrayList<>();
        for (Result r : rs) {
            String gran = Labels.slug(r.json.path("granularity").asText());
            int same = 0;
            for (Result o : rs) {
                same += Labels.slug(o.json.path("granularity").asText()).equals(gran) ? 1 : 0;
            }
            String id = prefix + "-explain-" + gran + (same > 1 ? "-" + Labels.slug(r.file.getFileName().toString())
                    : "");
            String suffix = " (" + gran + "s of " + r.json.path("unitSize").asLong() + " bytes, p=" + r.processors
                    + (same > 1 ? ", " + r.file.getFileName() : "") + ")";
            out.addAll(new ExplainFigures(id, suffix, r.json).all());
        }
        return out;
    }

    private List<Figure> all() {
        List<Figure> f = new ArrayList<>();
        f.add(profile("causes", "Communication cost by cause", "byCause", "cause",
                "Each bar is the cost of the faults (or, for invalidations, of the write notices) with one immediate"
                        + " cause: which writes, delivered at which synchronization, cost most."));
        f.add(profile("data", "Communication cost by data structure", "byDataStructure", "data structure",
                "Each bar is the cost of the faults on one data structure (a Java type with its allocation site,"
                        + " else a " + unit + "): where in the data the communication happens."));
        f.add(profile("lines", "Communication cost by source line", "bySourceLine", "source line",
                "Each bar is the cost of the faults at one source line (the accessing instruction's line, from a"
                        + " level-3 trace): where in the code the communication happens."));
        f.add(patterns());
        f.add(units());
        if (json.has("falseSharing")) {
            f.add(falseSharing());
        }
        return f;
    }

    /** One profile: sorted bars with shares (the JSON's order, largest cost first), the rows as a table. */
    private Figure profile(String part, String title, String field, String what, String guide) {
        Figure f = new Figure(id + "-" + part, title + suffix, "seed 003 §4", guide);
        f.header(List.of(what, "share", "cost (µs)", "remote requests", "faults", "pattern", unit + "s"));
        RankedBars c = new RankedBars(id + "-" + part + "-chart", "cost", "µs");
        int n = 0;
        for (JsonNode r : json.path(field)) {
            String label = r.path("label").asText();
            String pat = r.path("pattern").isNull() ? "-" : r.path("pattern").asText();
            c.add(label, r.path("cost").asDouble(), Json.raw(r.path("cost")), Json.raw(r.path("share")), pat);
            if (n++ < TABLE_ROWS) {
                f.row(List.of(label, Fmt.pct(100 * r.path("share").asDouble()), Fmt.count(r.path("cost").asDouble()),
                        Fmt.count(r.path("remote").asLong()), Fmt.count(r.path("faults").asLong()), pat,
                        Fmt.count(r.path("units").asLong())));
            }
        }
        if (n > TABLE_ROWS) {
            f.row(List.of("… " + (n - TABLE_ROWS) + " more in the JSON", "", "", "", "", "", ""));
        }
        for (JsonNode note : json.path("notes")) {
            f.row(List.of("note: " + note.asText(), "", "", "", "", "", ""));
        }
        return c.isEmpty() ? f : f.svg(c.svg());
    }

    /**
     * Cost per pattern (the JSON's {@code costByPattern}) as sorted bars with each one's share of the total cost;
     * the table adds how many pages (lines), data structures and source lines have each pattern as their costliest.
     */
    private Figure patterns() {
        Figure f = new Figure(id + "-patterns", "Communication cost by sharing pattern" + suffix, "seed 003 §4",
                "Each bar is the cost of the remote requests in one of the six patterns (S single, M multiple, P"
                        + " producer, C consumer), with its share of the total cost (" + (unit.equals("line")
                        ? "upgrades" : "twins") + " are not remote requests and have no pattern): producer-consumer"
                        + " data can be pushed or prefetched, migratory data wants an update protocol or less"
                        + " locking. The table counts the " + unit + "s, data structures and source lines whose"
                        + " costliest pattern each is.");
        List<String> cats = List.of(PATTERNS);
        String[][] parts = {{"units", unit + "s"}, {"byDataStructure", "data structures"},
            {"bySourceLine", "source lines"}};
        long[][] counts = new long[parts.length][PATTERNS.length];
        for (int i = 0; i < parts.length; i++) {
            for (JsonNode r : json.path(parts[i][0])) {
                int k = cats.indexOf(r.path("pattern").asText());
                if (k >= 0) {
                    counts[i][k]++;
                }
            }
        }
        JsonNode cost = json.path("costByPattern");
        double total = json.path("totalCost").asDouble();
        Integer[] order = new Integer[PATTERNS.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(cost.path(PATTERNS[b]).asDouble(),
                cost.path(PATTERNS[a]).asDouble()));
        RankedBars c = new RankedBars(id + "-patterns-chart", "cost", "µs");
        f.header(List.of("pattern", "share", "cost (µs)", unit + "s", "data structures", "source lines"));
        for (int k : order) {
            double v = cost.path(PATTERNS[k]).asDouble();
            String share = Fmt.raw(total == 0 ? 0.0 : v / total);
            String what = parts[0][1] + " " + counts[0][k] + ", " + parts[1][1] + " " + counts[1][k] + ", "
                    + parts[2][1] + " " + counts[2][k];
            c.add(PATTERNS[k], v, Json.raw(cost.path(PATTERNS[k])), share, what);
            f.row(List.of(PATTERNS[k], Fmt.pct(total == 0 ? 0 : 100 * v / total), Fmt.count(v),
                    Fmt.count(counts[0][k]), Fmt.count(counts[1][k]), Fmt.count(counts[2][k])));
        }
        return f.svg(c.svg());
    }

    /** The pages (lines) by cost: bars with shares; the table adds each one's pattern and explanation shape. */
    private Figure units() {
        Figure f = new Figure(id + "-units", "Communication cost by " + unit + suffix, "seed 003 §4",
                "Each bar is the cost of the faults on one " + unit + ", largest first; the table gives its"
                        + " pattern and the shape of its explanations (C the faulting processor, P1, P2 … the"
                        + " others, R or W: the path back to the processor's previous fault).");
        RankedBars c = new RankedBars(id + "-units-chart", "cost", "µs");
        f.header(List.of(unit, "pattern", "share", "cost (µs)", "explanation shape"));
        int n = 0;
        for (JsonNode u : json.path("units")) {
            String pat = u.path("pattern").isNull() ? "-" : u.path("pattern").asText();
            c.add(unitName(u.path("unit").asLong()), u.path("cost").asDouble(), Json.raw(u.path("cost")),
                    Json.raw(u.path("share")), pat);
            if (n++ < TABLE_ROWS) {
                f.row(List.of(unitName(u.path("unit").asLong()), pat, Fmt.pct(100 * u.path("share").asDouble()),
                        Fmt.count(u.path("cost").asDouble()), u.path("shape").asText()));
            }
        }
        if (n > TABLE_ROWS) {
            f.row(List.of("… " + (n - TABLE_ROWS) + " more in the JSON", "", "", "", ""));
        }
        return c.isEmpty() ? f : f.svg(c.svg());
    }

    /** The falsely shared lines: misses, false-sharing misses and those separating the parts removes; the table. */
    private Figure falseSharing() {
        Figure f = new Figure(id + "-false-sharing", "False sharing" + suffix, "seed 003 §4 at line granularity",
                "Per falsely shared line, its coherence misses, those where the processor touched bytes no causing"
                        + " write wrote, and the misses a replay with each processor's part on its own line removes.");
        f.header(List.of("line", "bytes", "coherence misses", "false sharing", "with the parts separated", "removed",
                "what each processor touched", "fix"));
        List<String> cats = new ArrayList<>();
        JsonNode lines = json.path("falseSharing");
        for (JsonNode l : lines) {
            cats.add(unitName(l.path("line").asLong()));
        }
        String[][] parts = {{"misses", "coherence misses"}, {"falseSharingMisses", "false-sharing misses"},
            {"removed", "removed by separating"}};
        BarChart c = new BarChart(id + "-false-sharing-chart", "line", "misses", false, false, cats);
        for (String[] p : parts) {
            if (p[0].equals("removed") && !lines.isEmpty() && lines.get(0).path("removed").isNull()) {
                continue;
            }
            double[] hs = new double[cats.size()];
            String[] raw = new String[cats.size()];
            for (int i = 0; i < cats.size(); i++) {
                hs[i] = lines.get(i).path(p[0]).asDouble();
                raw[i] = Json.raw(lines.get(i).path(p[0]));
            }
            c.add(p[1], hs, raw);
        }
        long size = json.path("unitSize").asLong();
        for (JsonNode l : lines) {
            StringBuilder who = new StringBuilder();
            for (Map.Entry<String, JsonNode> e : l.path("touched").properties()) {
                List<String> what = new ArrayList<>();
                e.getValue().forEach(w -> what.add(w.asText()));
                who.append(who.length() == 0 ? "" : "; ").append("processor ").append(e.getKey()).append(": ")
                        .append(String.join(", ", what));
            }
            long a = l.path("address").asLong();
            f.row(List.of(unitName(l.path("line").asLong()), hex(a) + ".." + hex(a + size - 1),
                    Fmt.count(l.path("misses").asLong()), Fmt.count(l.path("falseSharingMisses").asLong()),
                    counted(l.path("missesSeparated")), counted(l.path("removed")),
                    who.toString(), l.path("fix").asText()));
        }
        if (cats.isEmpty()) {
            f.row(List.of("no falsely shared line", "", "", "", "", "", "", ""));
            return f;
        }
        return f.svg(c.svg()).open();
    }

    /** A count, or "not counted" where the JSON holds null (a fault trace explained without its trace set). */
    private static String counted(JsonNode v) {
        return v.isNull() ? "not counted" : Fmt.count(v.asLong());
    }

    private String unitName(long u) {
        return unit + " " + hex(u);
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
