package org.dsmscope.monitor.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Detects eventcount inconsistency (seed 002 §3.3): since updates travel by unreliable multicast a member's local
 * count can stay behind the latest advance. The true count of an eventcount at time t is the number of
 * {@code Advance} events up to t; a member's count is the highest value its own {@code Advance},
 * {@code Count_Update} and {@code Event_Sync} events show. A member behind for longer than the threshold
 * (default 500 ms) is reported, also when it is still behind at the end of the recording.
 */
public final class EventcountChecker {
    /** Default threshold (ns). */
    public static final long DEFAULT_THRESHOLD = 500_000_000L;

    /** One stretch of time a member's count lagged. */
    public static final class Inconsistency {
        /** The eventcount. */
        public final long event;
        /** The member that lagged. */
        public final int proc;
        /** When it fell behind and when it caught up (aligned ns; to = end of recording if it never did). */
        public final long from, to;
        /** Its count and the true count when it fell behind. */
        public final long had, latest;
        /** True when still behind at the end of the recording. */
        public final boolean atEnd;

        Inconsistency(long event, int proc, long from, long to, long had, long latest, boolean atEnd) {
            this.event = event;
            this.proc = proc;
            this.from = from;
            this.to = to;
            this.had = had;
            this.latest = latest;
            this.atEnd = atEnd;
        }

        /** Duration behind in ms. */
        public double millis() {
            return (to - from) / 1e6;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT,
                    "eventcount %d: process %d behind for %.1f ms (count %d, latest advance %d)%s",
                    event, proc, millis(), had, latest, atEnd ? ", still behind at end" : "");
        }
    }

    private final List<long[]> evs = new ArrayList<>();
    private final TreeSet<Integer> members = new TreeSet<>();
    // evs rows: time, proc, kind, event, value
    private final Map<Integer, Long> ended = new HashMap<>();
    private long end = Long.MIN_VALUE;

    /** Notes a process (members are checked from their first event). */
    public void member(int proc) {
        members.add(proc);
    }

    /** Feeds one event with an aligned timestamp. kind: 0 advance, 1 local update, 2 sync, 3 create. */
    public void add(long time, int proc, int kind, long event, long value) {
        evs.add(new long[] {time, proc, kind, event, value});
        members.add(proc);
        end = Math.max(end, time);
    }

    /** Notes the end of a process (no check after it). */
    public void ended(int proc, long time) {
        ended.put(proc, time);
    }

    /** Notes the last time seen in the recording. */
    public void seen(long time) {
        end = Math.max(end, time);
    }

    /** Runs the check. */
    public List<Inconsistency> check(long threshold) {
        evs.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[2], y[2]));
        Map<Long, long[]> truth = new HashMap<>();
        Map<Long, Map<Integer, long[]>> known = new HashMap<>();
        List<Inconsistency> out = new ArrayList<>();
        for (long[] e : evs) {
            long t = e[0];
            int p = (int) e[1];
            long ec = e[3];
            long[] tr = truth.computeIfAbsent(ec, k -> new long[1]);
            Map<Integer, long[]> km = known.computeIfAbsent(ec, k -> new HashMap<>());
            if (e[2] == 0) {
                tr[0]++;
            }
            long[] mine = km.computeIfAbsent(p, k -> new long[] {0, -1, 0});
            mine[0] = Math.max(mine[0], e[4]);
            // every member that created this eventcount: update its behind-interval
            for (int m : km.keySet()) {
                Long endM = ended.get(m);
                if (endM != null && endM < t) {
                    continue;
                }
                long[] k = km.computeIfAbsent(m, x -> new long[] {0, -1, 0});
                if (k[0] < tr[0]) {
                    if (k[1] < 0) {
                        k[1] = t;
                        k[2] = k[0];
                    }
                } else if (k[1] >= 0) {
                    if (t - k[1] > threshold) {
                        out.add(new Inconsistency(ec, m, k[1], t, k[2], tr[0], false));
                    }
                    k[1] = -1;
                }
            }
        }
        for (Map.Entry<Long, Map<Integer, long[]>> en : known.entrySet()) {
            for (Map.Entry<Integer, long[]> km : en.getValue().entrySet()) {
                long[] k = km.getValue();
                Long endM = ended.get(km.getKey());
                long stop = endM != null ? Math.min(endM, end) : end;
                if (k[1] >= 0 && stop - k[1] > threshold) {
                    out.add(new Inconsistency(en.getKey(), km.getKey(), k[1], stop, k[2],
                            truth.get(en.getKey())[0], true));
                }
            }
        }
        out.sort((x, y) -> x.event != y.event ? Long.compare(x.event, y.event)
                : x.proc != y.proc ? Integer.compare(x.proc, y.proc) : Long.compare(x.from, y.from));
        return out;
    }
}
