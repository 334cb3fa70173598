package org.dsmscope.viewer.model;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One visible window of a {@link Timeline} as the page draws it, with level-of-detail aggregation as Jumpshot's
 * preview drawables (seed 002 §4.3's space-time view, §4.5's utilization over time): whatever the zoom, a lane is at
 * most {@code bins} state intervals or {@code bins} columns of state fractions, events at most {@link #MAX_MARKS}
 * (else counts per lane and column), arrows at most {@link #MAX_ARROWS} (else bundles per lane pair and column).
 * The cost is the number of intervals, events and arrows inside the window plus the number of columns.
 */
public final class Window {
    /** Most events drawn one by one. */
    public static final int MAX_MARKS = 3000;
    /** Most arrows drawn one by one. */
    public static final int MAX_ARROWS = 2000;
    /** Most columns. */
    public static final int MAX_BINS = 2000;

    private Window() {
    }

    /** Writes the window [t0, t1) in {@code bins} columns as a JSON object. */
    public static void write(Timeline tl, long t0, long t1, int bins, Filter f, JsonGenerator g) throws IOException {
        synchronized (tl) {
            tl.seal();
            bins = Math.max(1, Math.min(MAX_BINS, bins));
            if (t1 <= t0) {
                t1 = t0 + 1;
            }
            double bw = (double) (t1 - t0) / bins;
            g.writeStartObject();
            g.writeNumberField("t0", t0);
            g.writeNumberField("t1", t1);
            g.writeNumberField("bins", bins);
            g.writeNumberField("end", tl.end());
            g.writeNumberField("version", tl.version());
            int states = tl.states.length;
            double[] util = new double[bins * states];
            g.writeArrayFieldStart("lanes");
            for (int l = 0; l < tl.lanes.size(); l++) {
                lane(tl.lane(l), l, t0, t1, bins, bw, util, states, f, g);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("util");
            for (double v : util) {
                g.writeNumber(Math.round(v * 100) / 100.0);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("queues");
            Index ix = tl.index();
            for (int l = 0; l < tl.lanes.size(); l++) {
                g.writeStartArray();
                for (int k = 0; k < bins; k++) {
                    g.writeNumber(ix.queue(l, t0 + (long) Math.ceil((k + 1) * bw) - 1));
                }
                g.writeEndArray();
            }
            g.writeEndArray();
            marks(tl, t0, t1, bins, bw, f, g);
            arrows(tl, t0, t1, bins, bw, f, g);
            g.writeArrayFieldStart("phases");
            List<long[]> ph = tl.phases();
            List<String> names = tl.phaseNames();
            for (int i = 0; i < ph.size(); i++) {
                if (ph.get(i)[1] > t0 && ph.get(i)[0] < t1) {
                    g.writeStartArray();
                    g.writeNumber(ph.get(i)[0]);
                    g.writeNumber(ph.get(i)[1]);
                    g.writeString(names.get(i));
                    g.writeEndArray();
                }
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void lane(Timeline.Lane ln, int l, long t0, long t1, int bins, double bw, double[] util, int states,
            Filter f, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("lane", l);
        long as = Math.max(t0, ln.start), ae = Math.min(t1, ln.end);
        if (ln.start > ln.end || ae <= as) {
            g.writeStringField("mode", "empty");
            g.writeEndObject();
            return;
        }
        g.writeNumberField("start", as);
        g.writeNumberField("end", ae);
        // time per state in each column from the lane's prefix sums: two binary searches per column boundary,
        // whatever the number of intervals inside
        double[] cov = new double[bins * states];
        long[] inState = new long[states];
        long[] prev = new long[states];
        long[] cur = new long[states];
        long px = as;
        int pk = ln.before(px);
        for (int s = 1; s < states; s++) {
            prev[s] = ln.upTo(s, px, pk);
        }
        int kFirst = pk;
        for (int k = 0; k < bins; k++) {
            long x = Math.min(ae, t0 + (long) Math.ceil((k + 1) * bw));
            if (x <= px) {
                continue;
            }
            int kx = ln.before(x);
            long other = 0;
            for (int s = 1; s < states; s++) {
                cur[s] = ln.upTo(s, x, kx);
                long v = cur[s] - prev[s];
                cov[k * states + s] = v / bw;
                inState[s] += v;
                other += v;
                prev[s] = cur[s];
            }
            cov[k * states] = Math.max(0, (x - px) - other) / bw;
            inState[0] += Math.max(0, (x - px) - other);
            px = x;
            pk = kx;
        }
        int count = pk - kFirst + 1;
        boolean keep = f.lanes == null || f.lanes.contains(l);
        for (int k = 0; keep && k < cov.length; k++) {
            util[k] += cov[k];
        }
        g.writeArrayFieldStart("inWindow");
        for (long v : inState) {
            g.writeNumber(v);
        }
        g.writeEndArray();
        if (count <= bins / 2) {
            g.writeStringField("mode", "exact");
            g.writeArrayFieldStart("iv");
            for (int i = ln.first(as); i < ln.n && ln.is[i] < ae; i++) {
                long s = Math.max(ln.is[i], as), e = Math.min(ln.ie[i], ae);
                if (e > s) {
                    g.writeNumber(s);
                    g.writeNumber(e);
                    g.writeNumber(ln.st[i]);
                }
            }
            g.writeEndArray();
        } else {
            g.writeStringField("mode", "bins");
            g.writeArrayFieldStart("fr");
            for (int k = 0; k < bins; k++) {
                for (int s = 1; s < states; s++) {
                    g.writeNumber((int) Math.round(100 * cov[k * states + s]));
                }
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void marks(Timeline tl, long t0, long t1, int bins, double bw, Filter f, JsonGenerator g)
            throws IOException {
        if (f.segments == null && f.eventcounts == null && f.levels == null) {
            indexedMarks(tl, t0, t1, bins, bw, f, g);
            return;
        }
        int from = tl.lowerBound(t0 - tl.maxEventDuration()), to = tl.lowerBound(t1);
        int n = 0;
        for (int k = from; k < to; k++) {
            int id = tl.ordered(k);
            if (drawn(tl, id, t0) && f.keepsEvent(tl, id)) {
                n++;
            }
        }
        g.writeObjectFieldStart("marks");
        g.writeNumberField("count", n);
        g.writeStringField("mode", n <= MAX_MARKS ? "exact" : "bins");
        g.writeArrayFieldStart("list");
        if (n <= MAX_MARKS) {
            for (int k = from; k < to; k++) {
                int id = tl.ordered(k);
                if (drawn(tl, id, t0) && f.keepsEvent(tl, id)) {
                    writeMark(tl, id, g);
                }
            }
        } else {
            Map<Long, int[]> cells = new HashMap<>();
            for (int k = from; k < to; k++) {
                int id = tl.ordered(k);
                if (drawn(tl, id, t0) && f.keepsEvent(tl, id)) {
                    int bin = (int) Math.min(bins - 1, Math.max(0, (tl.time(id) - t0) / bw));
                    cells.computeIfAbsent(((long) tl.laneOf(id) << 32) | bin, x -> new int[1])[0]++;
                }
            }
            for (Map.Entry<Long, int[]> e : new java.util.TreeMap<>(cells).entrySet()) {
                g.writeNumber(e.getKey() >>> 32);
                g.writeNumber(e.getKey() & 0xFFFFFFFFL);
                g.writeNumber(e.getValue()[0]);
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** Marks without a content filter: counted and binned per lane by binary search in the time index. */
    private static void indexedMarks(Timeline tl, long t0, long t1, int bins, double bw, Filter f, JsonGenerator g)
            throws IOException {
        Index ix = tl.index();
        int lanes = ix.lanes;
        int[] lo = new int[lanes], hi = new int[lanes];
        int n = 0;
        for (int l = 0; l < lanes; l++) {
            if (f.lanes != null && !f.lanes.contains(l)) {
                continue;
            }
            SortedRun r = ix.marks(l);
            lo[l] = r.lower(t0 - tl.maxEventDuration());
            hi[l] = r.lower(lo[l], r.size(), t1);
            n += hi[l] - lo[l];
        }
        boolean exact = n <= MAX_MARKS;
        if (exact) {
            n = 0;
            for (int l = 0; l < lanes; l++) {
                for (int i = lo[l]; i < hi[l]; i++) {
                    n += drawn(tl, ix.marks(l).id(i), t0) ? 1 : 0;
                }
            }
        }
        g.writeObjectFieldStart("marks");
        g.writeNumberField("count", n);
        g.writeStringField("mode", exact ? "exact" : "bins");
        g.writeArrayFieldStart("list");
        for (int l = 0; l < lanes; l++) {
            SortedRun r = ix.marks(l);
            if (exact) {
                for (int i = lo[l]; i < hi[l]; i++) {
                    int id = r.id(i);
                    if (drawn(tl, id, t0)) {
                        writeMark(tl, id, g);
                    }
                }
            } else if (hi[l] > lo[l]) {
                int prev = r.lower(lo[l], hi[l], t0);
                for (int b = 0; b < bins; b++) {
                    int next = b == bins - 1 ? hi[l] : r.lower(prev, hi[l], t0 + (long) Math.ceil((b + 1) * bw));
                    if (next > prev) {
                        g.writeNumber(l);
                        g.writeNumber(b);
                        g.writeNumber(next - prev);
                    }
                    prev = next;
                }
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void writeMark(Timeline tl, int id, JsonGenerator g) throws IOException {
        g.writeNumber(id);
        g.writeNumber(tl.time(id));
        g.writeNumber(tl.laneOf(id));
        g.writeNumber(tl.kindOf(id));
        g.writeNumber(Math.max(0, tl.duration(id)));
    }

    private static void writeArrow(Timeline tl, int id, JsonGenerator g) throws IOException {
        g.writeNumber(id);
        g.writeNumber(tl.arrowKind(id));
        g.writeNumber(tl.arrowFromLane(id));
        g.writeNumber(tl.arrowFrom(id));
        g.writeNumber(tl.arrowToLane(id));
        g.writeNumber(tl.arrowTo(id));
    }

    private static boolean drawn(Timeline tl, int id, long t0) {
        return tl.kinds[tl.kindOf(id)].draw != Timeline.Draw.NONE && tl.time(id) + Math.max(0, tl.duration(id)) >= t0;
    }

    private static void arrows(Timeline tl, long t0, long t1, int bins, double bw, Filter f, JsonGenerator g)
            throws IOException {
        if (f.segments == null && f.eventcounts == null && f.levels == null && f.messageTypes == 7) {
            indexedArrows(tl, t0, t1, bins, f, g);
            return;
        }
        int from = tl.arrowLowerBound(t0 - tl.maxArrowSpan()), to = tl.arrowLowerBound(t1 + 1);
        int n = 0;
        int[] byKind = new int[Timeline.ARROW_KINDS.length];
        for (int k = from; k < to; k++) {
            int id = tl.arrowOrdered(k);
            if (visible(tl, id, t0, t1) && f.keepsArrow(tl, id)) {
                n++;
                byKind[tl.arrowKind(id)]++;
            }
        }
        g.writeObjectFieldStart("arrows");
        g.writeNumberField("count", n);
        g.writeObjectFieldStart("byKind");
        for (int k = 0; k < byKind.length; k++) {
            g.writeNumberField(Timeline.ARROW_KINDS[k], byKind[k]);
        }
        g.writeEndObject();
        g.writeStringField("mode", n <= MAX_ARROWS ? "exact" : "bundles");
        g.writeArrayFieldStart("list");
        if (n <= MAX_ARROWS) {
            for (int k = from; k < to; k++) {
                int id = tl.arrowOrdered(k);
                if (visible(tl, id, t0, t1) && f.keepsArrow(tl, id)) {
                    writeArrow(tl, id, g);
                }
            }
        } else {
            // bundles: per kind and lane pair, as many groups of start times as keep the total under MAX_ARROWS;
            // each with its mean start and end times and its count
            int lanes = tl.lanes.size();
            int[] combo = new int[Timeline.ARROW_KINDS.length * lanes * lanes];
            java.util.Arrays.fill(combo, -1);
            int distinct = 0;
            for (int k = from; k < to; k++) {
                int id = tl.arrowOrdered(k);
                if (visible(tl, id, t0, t1) && f.keepsArrow(tl, id)) {
                    int c = (tl.arrowKind(id) * lanes + tl.arrowFromLane(id)) * lanes + tl.arrowToLane(id);
                    if (combo[c] < 0) {
                        combo[c] = distinct++;
                    }
                }
            }
            int groups = Math.max(1, Math.min(bins, MAX_ARROWS / Math.max(1, distinct)));
            long[] sumFrom = new long[distinct * groups], sumTo = new long[distinct * groups];
            int[] cnt = new int[distinct * groups];
            for (int k = from; k < to; k++) {
                int id = tl.arrowOrdered(k);
                if (visible(tl, id, t0, t1) && f.keepsArrow(tl, id)) {
                    int c = (tl.arrowKind(id) * lanes + tl.arrowFromLane(id)) * lanes + tl.arrowToLane(id);
                    long rel = Math.max(0, Math.min(t1 - t0 - 1, tl.arrowFrom(id) - t0));
                    int i = combo[c] * groups + (int) (rel * (double) groups / (t1 - t0));
                    sumFrom[i] += tl.arrowFrom(id) - t0;
                    sumTo[i] += tl.arrowTo(id) - t0;
                    cnt[i]++;
                }
            }
            for (int c = 0; c < combo.length; c++) {
                for (int gi = 0; combo[c] >= 0 && gi < groups; gi++) {
                    int i = combo[c] * groups + gi;
                    if (cnt[i] > 0) {
                        g.writeNumber(-1);
                        g.writeNumber(c / (lanes * lanes));
                        g.writeNumber((c / lanes) % lanes);
                        g.writeNumber(t0 + sumFrom[i] / cnt[i]);
                        g.writeNumber(c % lanes);
                        g.writeNumber(t0 + sumTo[i] / cnt[i]);
                        g.writeNumber(cnt[i]);
                    }
                }
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** Arrows without a content filter: counted and bundled per kind and lane pair by binary search. */
    private static void indexedArrows(Timeline tl, long t0, long t1, int bins, Filter f, JsonGenerator g)
            throws IOException {
        Index ix = tl.index();
        int lanes = ix.lanes;
        int combos = Timeline.ARROW_KINDS.length * lanes * lanes;
        SortedRun[] runs = new SortedRun[combos];
        int[] lo = new int[combos], hi = new int[combos];
        int n = 0, distinct = 0;
        int[] byKind = new int[Timeline.ARROW_KINDS.length];
        for (int c = 0; c < combos; c++) {
            int kind = c / (lanes * lanes), from = (c / lanes) % lanes, to = c % lanes;
            runs[c] = ix.arrows(kind, from, to);
            if ((f.arrowKinds & (1 << kind)) == 0
                    || f.lanes != null && !f.lanes.contains(from) && !f.lanes.contains(to)) {
                continue;
            }
            SortedRun r = runs[c];
            lo[c] = r.lower(t0 - tl.maxArrowSpan());
            hi[c] = r.lower(lo[c], r.size(), t1 + 1);
            n += hi[c] - lo[c];
            distinct += hi[c] > lo[c] ? 1 : 0;
        }
        boolean exact = n <= MAX_ARROWS;
        if (exact) {
            n = 0;
            for (int c = 0; c < combos; c++) {
                for (int i = lo[c]; i < hi[c]; i++) {
                    if (visible(tl, runs[c].id(i), t0, t1)) {
                        n++;
                        byKind[tl.arrowKind(runs[c].id(i))]++;
                    }
                }
            }
        } else {
            for (int c = 0; c < combos; c++) {
                byKind[c / (lanes * lanes)] += hi[c] - lo[c];
            }
        }
        g.writeObjectFieldStart("arrows");
        g.writeNumberField("count", n);
        g.writeObjectFieldStart("byKind");
        for (int k = 0; k < byKind.length; k++) {
            g.writeNumberField(Timeline.ARROW_KINDS[k], byKind[k]);
        }
        g.writeEndObject();
        g.writeStringField("mode", exact ? "exact" : "bundles");
        g.writeArrayFieldStart("list");
        int groups = Math.max(1, Math.min(bins, MAX_ARROWS / Math.max(1, distinct)));
        for (int c = 0; c < combos; c++) {
            SortedRun r = runs[c];
            if (exact) {
                for (int i = lo[c]; i < hi[c]; i++) {
                    int id = r.id(i);
                    if (visible(tl, id, t0, t1)) {
                        writeArrow(tl, id, g);
                    }
                }
                continue;
            }
            int prev = lo[c];
            for (int gi = 0; gi < groups && hi[c] > lo[c]; gi++) {
                int next = gi == groups - 1 ? hi[c]
                        : r.lower(prev, hi[c], t0 + (long) Math.ceil((gi + 1) * (double) (t1 - t0) / groups));
                int cnt = next - prev;
                if (cnt > 0) {
                    g.writeNumber(-1);
                    g.writeNumber(c / (lanes * lanes));
                    g.writeNumber((c / lanes) % lanes);
                    g.writeNumber(r.sumA(prev, next) / cnt);
                    g.writeNumber(c % lanes);
                    g.writeNumber(r.sumB(prev, next) / cnt);
                    g.writeNumber(cnt);
                }
                prev = next;
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static boolean visible(Timeline tl, int id, long t0, long t1) {
        return Math.max(tl.arrowFrom(id), tl.arrowTo(id)) >= t0 && Math.min(tl.arrowFrom(id), tl.arrowTo(id)) <= t1;
    }
}
