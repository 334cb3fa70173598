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

    /** Adds [s, e) to the columns of {@code cov} for {@code state}. */
    private static void spread(double[] cov, int states, int state, long s, long e, long t0, double bw, int bins) {
        double a = (s - t0) / bw, b = (e - t0) / bw;
        int i = Math.max(0, (int) a), j = Math.min(bins - 1, (int) b);
        for (int k = i; k <= j; k++) {
            double lo = Math.max(a, k), hi = Math.min(b, k + 1);
            if (hi > lo) {
                cov[k * states + state] += hi - lo;
            }
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
        double[] cov = new double[bins * states];
        spread(cov, states, 0, as, ae, t0, bw, bins);
        int first = ln.first(t0);
        int count = 0;
        long prevEnd = Long.MIN_VALUE;
        long[] inState = new long[states];
        inState[0] = ae - as;
        for (int i = first; i < ln.n && ln.is[i] < t1; i++) {
            long s = Math.max(Math.max(ln.is[i], prevEnd), as), e = Math.min(ln.ie[i], ae);
            prevEnd = Math.max(prevEnd, ln.ie[i]);
            if (e > s) {
                spread(cov, states, ln.st[i], s, e, t0, bw, bins);
                inState[ln.st[i]] += e - s;
                inState[0] -= e - s;
                count++;
            }
        }
        // state 0 (computation, busy) is the active time not in another state
        for (int k = 0; k < bins; k++) {
            double other = 0;
            for (int s = 1; s < states; s++) {
                other += cov[k * states + s];
            }
            cov[k * states] -= other;
            if (cov[k * states] < 1e-9) {
                cov[k * states] = 0;
            }
        }
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
            prevEnd = Long.MIN_VALUE;
            for (int i = first; i < ln.n && ln.is[i] < t1; i++) {
                long s = Math.max(Math.max(ln.is[i], prevEnd), as), e = Math.min(ln.ie[i], ae);
                prevEnd = Math.max(prevEnd, ln.ie[i]);
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
                    g.writeNumber(id);
                    g.writeNumber(tl.time(id));
                    g.writeNumber(tl.laneOf(id));
                    g.writeNumber(tl.kindOf(id));
                    g.writeNumber(Math.max(0, tl.duration(id)));
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

    private static boolean drawn(Timeline tl, int id, long t0) {
        return tl.kinds[tl.kindOf(id)].draw != Timeline.Draw.NONE && tl.time(id) + Math.max(0, tl.duration(id)) >= t0;
    }

    private static void arrows(Timeline tl, long t0, long t1, int bins, double bw, Filter f, JsonGenerator g)
            throws IOException {
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
                    g.writeNumber(id);
                    g.writeNumber(tl.arrowKind(id));
                    g.writeNumber(tl.arrowFromLane(id));
                    g.writeNumber(tl.arrowFrom(id));
                    g.writeNumber(tl.arrowToLane(id));
                    g.writeNumber(tl.arrowTo(id));
                }
            }
        } else {
            // bundles: kind, lanes and column of the start; mean start and end times; count
            Map<Long, long[]> cells = new HashMap<>();
            for (int k = from; k < to; k++) {
                int id = tl.arrowOrdered(k);
                if (visible(tl, id, t0, t1) && f.keepsArrow(tl, id)) {
                    int bin = (int) Math.min(bins - 1, Math.max(0, (tl.arrowFrom(id) - t0) / bw)) / 4;
                    long key = ((long) tl.arrowKind(id) << 56) | ((long) (tl.arrowFromLane(id) & 0xFFFF) << 40)
                            | ((long) (tl.arrowToLane(id) & 0xFFFF) << 24) | bin;
                    long[] c = cells.computeIfAbsent(key, x -> new long[3]);
                    c[0] += tl.arrowFrom(id) - t0;
                    c[1] += tl.arrowTo(id) - t0;
                    c[2]++;
                }
            }
            for (Map.Entry<Long, long[]> e : new java.util.TreeMap<>(cells).entrySet()) {
                long key = e.getKey();
                long[] c = e.getValue();
                g.writeNumber(-1);
                g.writeNumber(key >>> 56);
                g.writeNumber((key >>> 40) & 0xFFFF);
                g.writeNumber(t0 + c[0] / c[2]);
                g.writeNumber((key >>> 24) & 0xFFFF);
                g.writeNumber(t0 + c[1] / c[2]);
                g.writeNumber(c[2]);
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static boolean visible(Timeline tl, int id, long t0, long t1) {
        return Math.max(tl.arrowFrom(id), tl.arrowTo(id)) >= t0 && Math.min(tl.arrowFrom(id), tl.arrowTo(id)) <= t1;
    }
}
