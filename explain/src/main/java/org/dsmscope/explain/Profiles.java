package org.dsmscope.explain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Communication profiles and merged explanations (seed 003: "communication profiles, which describe how the
 * communication costs during execution are distributed among data structures, source code lines, and causes";
 * "similar explanations for different pages are combined"). Rows are sorted by cost, largest first, ties by
 * label. Similarity (module README "Merging"): two pages are similar when they have the same pattern, the same
 * explanation shape, and each cost share (cold, invalidation, twin) within {@code tolerance} of the group's first
 * page, which is its representative.
 */
public final class Profiles {
    /** One row of a profile: a label, its cost, remote requests and faults, and its pattern (by cost). */
    public static final class Row {
        /** What the row is about. */
        public final String label;
        /** Summed cost (µs). */
        public double cost;
        /** Faults that fetched data (cold, invalidation, unexplained). */
        public long remote;
        /** All faults, twins included. */
        public long faults;
        /** Cost per pattern, in {@link Pattern} order. */
        public final double[] byPattern = new double[Pattern.values().length];
        /** Number of units (pages or lines) touched. */
        public int units;
        private final LongIntTable unitSet = new LongIntTable(16);
        private long lastUnit = Long.MIN_VALUE;

        Row(String label) {
            this.label = label;
        }

        void addUnit(long u) {
            if (u != lastUnit) {
                lastUnit = u;
                if (unitSet.get(u, 0) == 0) {
                    unitSet.put(u, 1);
                    units++;
                }
            }
        }

        /** True if the row's faults touched unit {@code u}. */
        public boolean touched(long u) {
            return unitSet.get(u, 0) != 0;
        }

        /**
         * The pattern with the largest cost among the faults that writes caused; cold start only when there are
         * none (first touches would otherwise hide every pattern of a short run); null if no remote request.
         */
        public Pattern pattern() {
            int best = -1;
            for (int i = 0; i < Pattern.COLD_START.ordinal(); i++) {
                if (byPattern[i] > 0 && (best < 0 || byPattern[i] > byPattern[best])) {
                    best = i;
                }
            }
            if (best >= 0) {
                return Pattern.values()[best];
            }
            for (int i = 0; i < byPattern.length; i++) {
                if (byPattern[i] > 0 && (best < 0 || byPattern[i] > byPattern[best])) {
                    best = i;
                }
            }
            return best < 0 ? null : Pattern.values()[best];
        }
    }

    /** A page's (line's) summary: its row, explanation shape and cost shares by cause kind. */
    public static final class Unit {
        /** The unit's number. */
        public final long unit;
        /** Its profile row. */
        public final Row row;
        /** The most frequent explanation shape among its first {@link #SHAPE_SAMPLES} invalidation faults. */
        public String shape;
        /** Cost shares of cold (and unexplained), invalidation and twin faults. */
        public final double[] shares = new double[3];
        final Map<String, Integer> shapes = new HashMap<>();
        int shapeSamples;
        final Map<Row, double[]> data = new HashMap<>();
        Row lastData;
        double[] lastDataCost;

        Unit(long unit, Row row) {
            this.unit = unit;
            this.row = row;
        }
    }

    /** A set of similar pages: its representative's pattern and shape, the units and their summed cost. */
    public static final class Group {
        /** Pattern of the group. */
        public final Pattern pattern;
        /** Explanation shape of the group. */
        public final String shape;
        /** The units merged. */
        public final List<Unit> units = new ArrayList<>();
        /** Their summed cost. */
        public double cost;

        Group(Pattern pattern, String shape) {
            this.pattern = pattern;
            this.shape = shape;
        }
    }

    /** Invalidation faults per unit whose explanation shapes are computed (the first ones, in trace order). */
    public static final int SHAPE_SAMPLES = 32;
    /** By data structure. */
    public final List<Row> byData;
    /** By source line. */
    public final List<Row> bySite;
    /** By cause (edges of invalidations apart, by the write that caused them). */
    public final List<Row> byCause;
    /** Per unit, by cost. */
    public final List<Unit> units;
    /** Merged explanations per data structure (label → groups). */
    public final Map<String, List<Group>> mergedByData = new LinkedHashMap<>();
    /** Merged explanations per source line. */
    public final Map<String, List<Group>> mergedBySite = new LinkedHashMap<>();
    /** The similarity tolerance used. */
    public final double tolerance;
    /** Total cost. */
    public final double total;

    /** Profiles of {@code e} in the terms of {@code src}, merging with {@code tolerance}. */
    public Profiles(Explainer e, Sources src, double tolerance) {
        this.tolerance = tolerance;
        FaultTrace t = e.trace();
        Map<String, Row> data = new HashMap<>();
        Map<String, Row> site = new HashMap<>();
        Map<String, Row> cause = new HashMap<>();
        LongIntTable unitIndex = new LongIntTable(1024);
        List<Unit> us = new ArrayList<>();
        double sum = 0;
        for (int f = 0; f < t.faults; f++) {
            double c = e.cost(f);
            sum += c;
            Row d = add(data, src.dataStructure(f), e, f, c);
            add(site, src.site(f), e, f, c);
            int ui = unitIndex.get(t.unit[f], -1);
            if (ui < 0) {
                ui = us.size();
                long x = t.unit[f];
                us.add(new Unit(x, new Row(t.unitName() + " 0x" + Long.toHexString(x))));
                unitIndex.put(x, ui);
            }
            Unit u = us.get(ui);
            add(u.row, e, f, c);
            u.shares[e.cause(f) == Explainer.INVALIDATION ? 1 : e.cause(f) == Explainer.TWIN ? 2 : 0] += c;
            if (u.lastData != d) {
                u.lastData = d;
                u.lastDataCost = u.data.computeIfAbsent(d, x -> new double[1]);
            }
            u.lastDataCost[0] += c;
            if (e.cause(f) == Explainer.INVALIDATION) {
                if (u.shapeSamples < SHAPE_SAMPLES) {
                    u.shapeSamples++;
                    u.shapes.merge(e.explanationShape(f), 1, Integer::sum);
                }
                Pattern pf = e.pattern(f);
                for (int k = 0; k < e.noticeCount(f); k++) {
                    Row r = cause.computeIfAbsent(e.causeLabel(f, k, src), Row::new);
                    double w = e.edgeWeight(f, k);
                    r.cost += w;
                    r.byPattern[pf.ordinal()] += w;
                    r.addUnit(t.unit[f]);
                    if (k == 0) {
                        r.remote++;
                        r.faults++;
                    }
                }
            } else {
                add(cause, e.causeLabel(f, 0, src), e, f, c);
            }
        }
        total = sum;
        for (Unit u : us) {
            double c = u.row.cost;
            for (int i = 0; i < 3; i++) {
                u.shares[i] = c == 0 ? 0 : u.shares[i] / c;
            }
            u.shape = u.shapes.isEmpty() ? (u.row.remote > 0 ? "cold start" : "no remote request")
                    : u.shapes.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
                            .thenComparing(Map.Entry.comparingByKey())).findFirst().get().getKey();
        }
        byData = sorted(data);
        bySite = sorted(site);
        byCause = sorted(cause);
        us.sort(Comparator.comparingDouble((Unit u) -> -u.row.cost).thenComparingLong(u -> u.unit));
        units = us;
        Map<Row, List<Unit>> byMain = new HashMap<>();
        for (Unit u : us) {
            Row main = u.data.entrySet().stream().sorted(Map.Entry.<Row, double[]>comparingByValue(
                    Comparator.comparingDouble((double[] x) -> -x[0])).thenComparing(x -> x.getKey().label))
                    .findFirst().get().getKey();
            byMain.computeIfAbsent(main, x -> new ArrayList<>()).add(u);
        }
        for (Row r : byData) {
            mergedByData.put(r.label, merge(byMain.getOrDefault(r, List.of()), tolerance));
        }
        for (Row r : bySite) {
            List<Unit> members = new ArrayList<>();
            for (Unit u : us) {
                if (r.touched(u.unit)) {
                    members.add(u);
                }
            }
            mergedBySite.put(r.label, merge(members, tolerance));
        }
    }

    private static Row add(Map<String, Row> m, String label, Explainer e, int f, double c) {
        Row r = m.computeIfAbsent(label, Row::new);
        add(r, e, f, c);
        return r;
    }

    private static void add(Row r, Explainer e, int f, double c) {
        r.cost += c;
        r.faults++;
        if (e.remote(f)) {
            r.remote++;
        }
        Pattern p = e.pattern(f);
        if (p != null) {
            r.byPattern[p.ordinal()] += c;
        }
        r.addUnit(e.trace().unit(f));
    }

    private static List<Row> sorted(Map<String, Row> m) {
        List<Row> l = new ArrayList<>(m.values());
        l.sort(Comparator.comparingDouble((Row r) -> -r.cost).thenComparing(r -> r.label));
        return l;
    }

    /**
     * Merges units (in cost order) into groups of similar ones: same pattern, same shape, every share within
     * {@code tolerance} of the group's first unit.
     */
    public static List<Group> merge(List<Unit> units, double tolerance) {
        List<Group> groups = new ArrayList<>();
        for (Unit u : units) {
            Group into = null;
            for (Group g : groups) {
                if (similar(g.units.get(0), u, tolerance)) {
                    into = g;
                    break;
                }
            }
            if (into == null) {
                into = new Group(u.row.pattern(), u.shape);
                groups.add(into);
            }
            into.units.add(u);
            into.cost += u.row.cost;
        }
        return groups;
    }

    /** Two units are similar: same pattern, same shape, and each cost share within {@code tolerance}. */
    public static boolean similar(Unit a, Unit b, double tolerance) {
        if (a.row.pattern() != b.row.pattern() || !a.shape.equals(b.shape)) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            if (Math.abs(a.shares[i] - b.shares[i]) > tolerance + 1e-12) {
                return false;
            }
        }
        return true;
    }
}
