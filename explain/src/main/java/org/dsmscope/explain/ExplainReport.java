package org.dsmscope.explain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outputs of EXPLAIN (module README "The report"): the text report "dsmscope-explain-report 1" (top causes
 * first), the same results as JSON (format "dsmscope-explain 1"), and one unit's communication graph as Graphviz
 * DOT.
 */
public final class ExplainReport {
    /** Format line of the text report. */
    public static final String FORMAT = "dsmscope-explain-report 1";
    /** Rows shown per profile in the text report. */
    static final int TOP = 15;
    private final Explainer e;
    private final Profiles p;
    private final Sources src;
    private final List<FalseSharing.Line> falseSharing;

    /** A report of {@code e} with profiles {@code p}, terms {@code src}, false sharing (null: not looked for). */
    public ExplainReport(Explainer e, Profiles p, Sources src, List<FalseSharing.Line> falseSharing) {
        this.e = e;
        this.p = p;
        this.src = src;
        this.falseSharing = falseSharing;
    }

    private static String share(double c, double total) {
        return String.format(Locale.ROOT, "%5.1f%%", total == 0 ? 0.0 : 100 * c / total);
    }

    /** Writes the text report. */
    public void text(PrintWriter out) {
        FaultTrace t = e.trace();
        long[] by = e.countByCause();
        CostModel cm = e.costModel();
        out.println(FORMAT);
        out.printf(Locale.ROOT, "granularity %s %d bytes, %d processors%n", t.unitName(), t.unitSize, t.processors);
        out.printf(Locale.ROOT, "cost model (us): latency %s, transfer %s, diff creation %s, diff application %s%n",
                num(cm.latency()), num(cm.transfer()), num(cm.diffCreate()), num(cm.diffApply()));
        out.printf(Locale.ROOT, "faults %d: cold %d, invalidation %d, %s %d, unexplained %d; synchronizations %d%n",
                t.faults, by[0], by[1], t.lines ? "upgrade" : "twin", by[2], by[3], t.syncs);
        out.printf(Locale.ROOT, "total cost %s us%n", num(p.total));
        for (String s : src.notes()) {
            out.println("note: " + s);
        }
        double[] pat = e.costByPattern();
        out.println();
        out.println("== cost by pattern");
        for (Pattern x : Pattern.values()) {
            if (pat[x.ordinal()] > 0) {
                out.printf(Locale.ROOT, "%s %12s us  %s%n", share(pat[x.ordinal()], p.total),
                        num(pat[x.ordinal()]), x.label);
            }
        }
        rows(out, "top causes", p.byCause);
        rows(out, "by data structure", p.byData);
        if (src.hasLines()) {
            rows(out, "by source line", p.bySite);
        } else {
            out.println();
            out.println("== by source line");
            out.println("none: the trace has no symbol file; source lines need a level-3 trace (dsmscope trace"
                    + " --level 3)");
        }
        out.println();
        out.println("== " + t.unitName() + "s (pattern, explanation shape)");
        for (int i = 0; i < Math.min(TOP, p.units.size()); i++) {
            Profiles.Unit u = p.units.get(i);
            out.printf(Locale.ROOT, "%s %12s us  %s  %s  %s%n", share(u.row.cost, p.total), num(u.row.cost),
                    u.row.label, u.row.pattern() == null ? "-" : u.row.pattern().label, u.shape);
        }
        merged(out, "merged explanations by data structure", p.mergedByData);
        if (src.hasLines()) {
            merged(out, "merged explanations by source line", p.mergedBySite);
        }
        if (falseSharing != null) {
            out.println();
            out.println("== false sharing");
            if (falseSharing.isEmpty()) {
                out.println("none: no line with coherence misses has processors touching disjoint bytes");
            }
            for (FalseSharing.Line l : falseSharing) {
                out.printf(Locale.ROOT, "line 0x%x (bytes 0x%x..0x%x): %d coherence misses (%d false sharing), ",
                        l.line, l.line * t.unitSize, (l.line + 1) * t.unitSize - 1, l.misses, l.falseMisses);
                if (l.counted()) {
                    out.printf(Locale.ROOT, "%d with the parts on separate lines: %d removed%n", l.missesSplit,
                            l.removed());
                } else {
                    out.println("those separating the parts removes not counted (that needs a replay of the trace"
                            + " set)");
                }
                l.touched.forEach((proc, what) -> out.println("  processor " + proc + ": " + String.join(", ",
                        what)));
                out.println("  fix: " + l.fix);
            }
        }
        out.flush();
    }

    private void rows(PrintWriter out, String title, List<Profiles.Row> rows) {
        out.println();
        out.println("== " + title + " (share, cost, remote requests, pattern)");
        for (int i = 0; i < Math.min(TOP, rows.size()); i++) {
            Profiles.Row r = rows.get(i);
            out.printf(Locale.ROOT, "%s %12s us %8d  %s  [%s]%n", share(r.cost, p.total), num(r.cost), r.remote,
                    r.label, r.pattern() == null ? "-" : r.pattern().label);
        }
        if (rows.size() > TOP) {
            out.println("(" + (rows.size() - TOP) + " more in the JSON)");
        }
    }

    private void merged(PrintWriter out, String title, Map<String, List<Profiles.Group>> m) {
        out.println();
        out.println("== " + title + " (tolerance " + num(p.tolerance) + ")");
        int shown = 0;
        for (Map.Entry<String, List<Profiles.Group>> x : m.entrySet()) {
            if (x.getValue().isEmpty()) {
                continue;
            }
            if (shown++ == TOP) {
                break;
            }
            out.println(x.getKey() + ":");
            for (Profiles.Group g : x.getValue()) {
                out.printf(Locale.ROOT, "  %d %s(s) %s us  %s  %s%n", g.units.size(), e.trace().unitName(),
                        num(g.cost), g.pattern == null ? "-" : g.pattern.label, g.shape);
            }
        }
    }

    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** The results as a JSON tree (maps and lists in a fixed order). */
    public Map<String, Object> json() {
        FaultTrace t = e.trace();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", "dsmscope-explain 1");
        root.put("granularity", t.unitName());
        root.put("unitSize", t.unitSize);
        root.put("processors", t.processors);
        CostModel cm = e.costModel();
        root.put("costModel", Map.of("latency", cm.latency(), "transfer", cm.transfer(), "diffCreate",
                cm.diffCreate(), "diffApply", cm.diffApply()));
        long[] by = e.countByCause();
        Map<String, Object> faults = new LinkedHashMap<>();
        faults.put("total", t.faults);
        faults.put("cold", by[0]);
        faults.put("invalidation", by[1]);
        faults.put(t.lines ? "upgrade" : "twin", by[2]);
        faults.put("unexplained", by[3]);
        root.put("faults", faults);
        root.put("synchronizations", t.syncs);
        root.put("totalCost", p.total);
        root.put("notes", src.notes());
        Map<String, Object> pat = new LinkedHashMap<>();
        double[] c = e.costByPattern();
        for (Pattern x : Pattern.values()) {
            pat.put(x.label, c[x.ordinal()]);
        }
        root.put("costByPattern", pat);
        root.put("byCause", rows(p.byCause));
        root.put("byDataStructure", rows(p.byData));
        root.put("bySourceLine", rows(p.bySite));
        List<Object> units = new ArrayList<>();
        for (Profiles.Unit u : p.units) {
            Map<String, Object> m = row(u.row);
            m.put("unit", u.unit);
            m.put("shape", u.shape);
            m.put("shares", Map.of("cold", u.shares[0], "invalidation", u.shares[1], "twin", u.shares[2]));
            units.add(m);
        }
        root.put("units", units);
        root.put("similarityTolerance", p.tolerance);
        root.put("mergedByDataStructure", groups(p.mergedByData));
        root.put("mergedBySourceLine", groups(p.mergedBySite));
        if (falseSharing != null) {
            List<Object> fs = new ArrayList<>();
            for (FalseSharing.Line l : falseSharing) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("line", l.line);
                m.put("address", l.line * t.unitSize);
                m.put("misses", l.misses);
                m.put("falseSharingMisses", l.falseMisses);
                m.put("missesSeparated", l.counted() ? l.missesSplit : null);
                m.put("removed", l.counted() ? l.removed() : null);
                Map<String, Object> who = new LinkedHashMap<>();
                l.touched.forEach((proc, what) -> who.put(Integer.toString(proc), what));
                m.put("touched", who);
                m.put("fix", l.fix);
                fs.add(m);
            }
            root.put("falseSharing", fs);
        }
        return root;
    }

    private List<Object> rows(List<Profiles.Row> rows) {
        List<Object> l = new ArrayList<>();
        for (Profiles.Row r : rows) {
            l.add(row(r));
        }
        return l;
    }

    private Map<String, Object> row(Profiles.Row r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("label", r.label);
        m.put("cost", r.cost);
        m.put("share", p.total == 0 ? 0.0 : r.cost / p.total);
        m.put("remote", r.remote);
        m.put("faults", r.faults);
        m.put("pattern", r.pattern() == null ? null : r.pattern().label);
        m.put("units", r.units);
        return m;
    }

    private Map<String, Object> groups(Map<String, List<Profiles.Group>> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, gs) -> {
            List<Object> l = new ArrayList<>();
            for (Profiles.Group g : gs) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("pattern", g.pattern == null ? null : g.pattern.label);
                x.put("shape", g.shape);
                x.put("cost", g.cost);
                List<Long> us = new ArrayList<>();
                g.units.forEach(u -> us.add(u.unit));
                x.put("units", us);
                l.add(x);
            }
            out.put(k, l);
        });
        return out;
    }

    /** Writes the JSON to {@code f}. */
    public void writeJson(Path f) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(f.toFile(), json());
    }

    /**
     * The communication graph of {@code unit} as Graphviz DOT: a node per fault (processor, R/W, time, cause, site),
     * solid edges from write faults to the faults their notices caused (weight), dashed edges from a processor's
     * previous fault on the unit.
     */
    public void dot(long unit, PrintWriter out) {
        FaultTrace t = e.trace();
        out.println("digraph \"" + t.unitName() + " 0x" + Long.toHexString(unit) + "\" {");
        out.println("  rankdir=TB; node [shape=box, fontsize=10];");
        for (int f = 0; f < t.faults; f++) {
            if (t.unit[f] != unit) {
                continue;
            }
            String cause = e.cause(f) == Explainer.COLD ? "cold" : e.cause(f) == Explainer.TWIN
                    ? (t.lines ? "upgrade" : "twin") : e.cause(f) == Explainer.INVALIDATION ? "invalidation"
                    : "unexplained";
            Pattern pt = e.pattern(f);
            out.printf(Locale.ROOT, "  f%d [label=\"f%d P%d %s t=%d\\n%s%s\\n%s\"];%n", f, f, t.proc[f],
                    t.write[f] ? "W" : "R", t.time[f], cause, pt == null ? "" : " " + pt.label,
                    src.site(f).replace("\"", "'"));
            int[] ns = e.notices(f);
            for (int k = 0; k < ns.length; k++) {
                out.printf(Locale.ROOT, "  f%d -> f%d [label=\"%s\"];%n", ns[k], f, num(e.edgeWeight(f, k)));
            }
            if (e.previous(f) >= 0) {
                out.printf(Locale.ROOT, "  f%d -> f%d [style=dashed];%n", e.previous(f), f);
            }
        }
        out.println("}");
        out.flush();
    }
}
