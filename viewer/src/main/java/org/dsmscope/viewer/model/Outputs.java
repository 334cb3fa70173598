package org.dsmscope.viewer.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each process's standard output and error over time (seed 002 §4.6: XPVM shows "the output of each process"), in
 * parallel arrays ordered by time on the aligned clock: lane, time, stream and text of each line. The page asks
 * for the latest lines of each process at a time (the cursor), found by a binary search per lane.
 *
 * <p>Threading: every method synchronizes on this object (a live run adds lines while the page reads).
 */
public final class Outputs {
    private int n;
    private int[] lane = new int[64];
    private long[] time = new long[64];
    private byte[] stream = new byte[64];
    private String[] text = new String[64];
    /** Per lane: positions of its lines in time order (rebuilt when lines arrive out of order). */
    private final List<int[]> byLane = new ArrayList<>();
    private boolean sorted = true;

    /** Adds a line of lane {@code l} at absolute aligned time {@code t}. */
    public synchronized void add(int l, long t, int s, String line) {
        if (n == lane.length) {
            int m = n * 2;
            lane = Arrays.copyOf(lane, m);
            time = Arrays.copyOf(time, m);
            stream = Arrays.copyOf(stream, m);
            text = Arrays.copyOf(text, m);
        }
        if (n > 0 && t < time[n - 1]) {
            sorted = false;
        }
        lane[n] = l;
        time[n] = t;
        stream[n] = (byte) s;
        text[n] = line;
        n++;
        byLane.clear();
    }

    /** Number of lines. */
    public synchronized int size() {
        return n;
    }

    private void index() {
        if (!byLane.isEmpty() || n == 0) {
            return;
        }
        if (!sorted) {
            int[] order = Sorts.byKey(time, n); // stable: equal times keep their order
            int[] l2 = new int[lane.length];
            long[] t2 = new long[time.length];
            byte[] s2 = new byte[stream.length];
            String[] x2 = new String[text.length];
            for (int i = 0; i < n; i++) {
                l2[i] = lane[order[i]];
                t2[i] = time[order[i]];
                s2[i] = stream[order[i]];
                x2[i] = text[order[i]];
            }
            lane = l2;
            time = t2;
            stream = s2;
            text = x2;
            sorted = true;
        }
        int lanes = 0;
        for (int i = 0; i < n; i++) {
            lanes = Math.max(lanes, lane[i] + 1);
        }
        int[] count = new int[lanes];
        for (int i = 0; i < n; i++) {
            count[lane[i]]++;
        }
        for (int l = 0; l < lanes; l++) {
            byLane.add(new int[count[l]]);
        }
        int[] fill = new int[lanes];
        for (int i = 0; i < n; i++) {
            byLane.get(lane[i])[fill[lane[i]]++] = i;
        }
    }

    /**
     * Per lane of {@code tl}: the last {@code limit} lines at or before relative time {@code at} (all lines when
     * {@code at} is past the end), each {@code [time, stream, text]} with times relative to the timeline's
     * origin, and the lane's number of lines in all and up to {@code at}.
     */
    public synchronized List<Object> latest(Timeline tl, long at, int limit) {
        index();
        List<Object> out = new ArrayList<>();
        for (int l = 0; l < tl.lanes.size(); l++) {
            int[] mine = l < byLane.size() ? byLane.get(l) : new int[0];
            long abs = at == Long.MAX_VALUE ? Long.MAX_VALUE : at + tl.origin;
            int lo = 0, hi = mine.length; // first line after abs
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (time[mine[mid]] <= abs) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            List<Object> lines = new ArrayList<>();
            for (int k = Math.max(0, lo - Math.max(0, limit)); k < lo; k++) {
                int i = mine[k];
                lines.add(List.of(time[i] - tl.origin, stream[i] == 2 ? "err" : "out", text[i]));
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lane", l);
            m.put("name", tl.lane(l).name);
            m.put("total", mine.length);
            m.put("upToTime", lo);
            m.put("lines", lines);
            out.add(m);
        }
        return out;
    }
}
