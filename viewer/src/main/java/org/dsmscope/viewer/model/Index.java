package org.dsmscope.viewer.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Per-lane and per-lane-pair time indexes of a {@link Timeline} (the "time index" of Jumpshot-style
 * level-of-detail, seed 002 §4.3): each lane's drawn events by time, each (arrow kind, from lane, to lane)'s arrows
 * by start time with prefix sums of their start and end times, and each lane's message queue (§4.6), so that a
 * window with no content filter counts, bins and bundles them by binary search instead of visiting every item
 * inside it. The indexes grow: {@link #update} adds the timeline's events and arrows added since the last call
 * ({@link SortedRun}: the new items are sorted and merged into the tail), so a live run's update costs amortised
 * O(new items), and a file's index is the same computation done once.
 */
final class Index {
    private static final SortedRun NONE = new SortedRun(0, true);
    /** Per lane: drawn events by time (id = event id). */
    private SortedRun[] marks = new SortedRun[0];
    /** Per kind, from lane, to lane: arrows by start time (id = arrow id; sums of start and end times). */
    private SortedRun[][][] arrows = new SortedRun[Timeline.ARROW_KINDS.length][0][0];
    /** Per receiving lane: send and receive times of its message arrows (message queues, §4.6). */
    private SortedRun[] queueIn = new SortedRun[0], queueOut = new SortedRun[0];
    /** Number of lanes indexed. */
    int lanes;
    private int events, arrowCount;
    private final List<SortedRun> dirty = new ArrayList<>();

    /** Adds the events and arrows of {@code tl} added since the last call (under the timeline's monitor). */
    void update(Timeline tl) {
        grow(tl.lanes.size());
        int n = tl.events();
        for (int id = events; id < n; id++) {
            if (tl.kinds[tl.kindOf(id)].draw != Timeline.Draw.NONE) {
                add(marks[tl.laneOf(id)], tl.time(id), id, 0, 0);
            }
        }
        events = n;
        int m = tl.arrows();
        for (int id = arrowCount; id < m; id++) {
            int from = tl.arrowFromLane(id), to = tl.arrowToLane(id);
            add(arrows[tl.arrowKind(id)][from][to], tl.arrowFrom(id), id, tl.arrowFrom(id), tl.arrowTo(id));
            if (tl.arrowKind(id) == Timeline.MESSAGE) {
                add(queueIn[to], tl.arrowFrom(id), id, 0, 0);
                add(queueOut[to], tl.arrowTo(id), id, 0, 0);
            }
        }
        arrowCount = m;
        for (SortedRun r : dirty) {
            r.settle();
        }
        dirty.clear();
    }

    private void add(SortedRun r, long key, int id, long a, long b) {
        if (r.size() == r.added()) {
            dirty.add(r);
        }
        r.add(key, id, a, b);
    }

    private void grow(int l) {
        if (l == lanes) {
            return;
        }
        marks = Arrays.copyOf(marks, l);
        queueIn = Arrays.copyOf(queueIn, l);
        queueOut = Arrays.copyOf(queueOut, l);
        for (int i = lanes; i < l; i++) {
            marks[i] = new SortedRun(64, false);
            queueIn[i] = new SortedRun(16, false);
            queueOut[i] = new SortedRun(16, false);
        }
        for (int k = 0; k < arrows.length; k++) {
            SortedRun[][] byFrom = Arrays.copyOf(arrows[k], l);
            for (int f = 0; f < l; f++) {
                byFrom[f] = byFrom[f] == null ? new SortedRun[l] : Arrays.copyOf(byFrom[f], l);
                for (int t = 0; t < l; t++) {
                    if (byFrom[f][t] == null) {
                        byFrom[f][t] = new SortedRun(4, true);
                    }
                }
            }
            arrows[k] = byFrom;
        }
        lanes = l;
    }

    /** Lane {@code l}'s drawn events by time. */
    SortedRun marks(int l) {
        return marks[l];
    }

    /** The arrows of {@code kind} from lane {@code from} to lane {@code to}, by start time. */
    SortedRun arrows(int kind, int from, int to) {
        return from < lanes && to < lanes ? arrows[kind][from][to] : NONE;
    }

    /** Messages sent to lane {@code l} by time {@code x} and not received by then (its message queue). */
    int queue(int l, long x) {
        return queueIn[l].lower(x + 1) - queueOut[l].lower(x + 1);
    }

    /** First index in {@code a[lo..hi)} whose value is at least {@code t}. */
    static int lower(long[] a, int lo, int hi, long t) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
