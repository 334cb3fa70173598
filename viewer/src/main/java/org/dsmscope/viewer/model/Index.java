package org.dsmscope.viewer.model;

/**
 * Per-lane and per-lane-pair time indexes of a sealed {@link Timeline} (the "time index" of Jumpshot-style
 * level-of-detail): each lane's drawn events by time, and each (arrow kind, from lane, to lane)'s arrows by start
 * time with prefix sums of their start and end times, so that a window with no content filter counts, bins and
 * bundles them by binary search instead of visiting every item inside it.
 */
final class Index {
    /** Per lane: ids of drawn events, and their times, in time order. */
    final int[][] markIds;
    final long[][] markTimes;
    /** Per combo (kind × lanes × lanes): arrow ids by start time, their start times, prefix sums of start and end. */
    final int[][] arrowIds;
    final long[][] arrowFrom;
    final long[][] cumFrom;
    final long[][] cumTo;
    final int lanes;
    /** Per receiving lane: send and receive times of its message arrows, each sorted (message queues, §4.6). */
    final long[][] queueIn;
    final long[][] queueOut;

    Index(Timeline tl) {
        lanes = tl.lanes.size();
        int[] perLane = new int[lanes];
        int n = tl.events();
        for (int k = 0; k < n; k++) {
            int id = tl.ordered(k);
            if (tl.kinds[tl.kindOf(id)].draw != Timeline.Draw.NONE) {
                perLane[tl.laneOf(id)]++;
            }
        }
        markIds = new int[lanes][];
        markTimes = new long[lanes][];
        for (int l = 0; l < lanes; l++) {
            markIds[l] = new int[perLane[l]];
            markTimes[l] = new long[perLane[l]];
            perLane[l] = 0;
        }
        for (int k = 0; k < n; k++) {
            int id = tl.ordered(k);
            if (tl.kinds[tl.kindOf(id)].draw != Timeline.Draw.NONE) {
                int l = tl.laneOf(id);
                markIds[l][perLane[l]] = id;
                markTimes[l][perLane[l]++] = tl.time(id);
            }
        }
        int combos = Timeline.ARROW_KINDS.length * lanes * lanes;
        int[] per = new int[combos];
        int m = tl.arrows();
        for (int k = 0; k < m; k++) {
            per[combo(tl, tl.arrowOrdered(k))]++;
        }
        arrowIds = new int[combos][];
        arrowFrom = new long[combos][];
        cumFrom = new long[combos][];
        cumTo = new long[combos][];
        for (int c = 0; c < combos; c++) {
            arrowIds[c] = new int[per[c]];
            arrowFrom[c] = new long[per[c]];
            cumFrom[c] = new long[per[c] + 1];
            cumTo[c] = new long[per[c] + 1];
            per[c] = 0;
        }
        for (int k = 0; k < m; k++) {
            int id = tl.arrowOrdered(k);
            int c = combo(tl, id);
            int i = per[c]++;
            arrowIds[c][i] = id;
            arrowFrom[c][i] = tl.arrowFrom(id);
            cumFrom[c][i + 1] = cumFrom[c][i] + tl.arrowFrom(id);
            cumTo[c][i + 1] = cumTo[c][i] + tl.arrowTo(id);
        }
        int[] q = new int[lanes];
        for (int k = 0; k < m; k++) {
            if (tl.arrowKind(k) == Timeline.MESSAGE) {
                q[tl.arrowToLane(k)]++;
            }
        }
        queueIn = new long[lanes][];
        queueOut = new long[lanes][];
        for (int l = 0; l < lanes; l++) {
            queueIn[l] = new long[q[l]];
            queueOut[l] = new long[q[l]];
            q[l] = 0;
        }
        for (int k = 0; k < m; k++) {
            if (tl.arrowKind(k) == Timeline.MESSAGE) {
                int l = tl.arrowToLane(k);
                queueIn[l][q[l]] = tl.arrowFrom(k);
                queueOut[l][q[l]++] = tl.arrowTo(k);
            }
        }
        for (int l = 0; l < lanes; l++) {
            java.util.Arrays.sort(queueIn[l]);
            java.util.Arrays.sort(queueOut[l]);
        }
    }

    /** Messages sent to lane {@code l} by time {@code x} and not received by then (its message queue). */
    int queue(int l, long x) {
        long[] in = queueIn[l], out = queueOut[l];
        return lower(in, 0, in.length, x + 1) - lower(out, 0, out.length, x + 1);
    }

    private int combo(Timeline tl, int id) {
        return (tl.arrowKind(id) * lanes + tl.arrowFromLane(id)) * lanes + tl.arrowToLane(id);
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
