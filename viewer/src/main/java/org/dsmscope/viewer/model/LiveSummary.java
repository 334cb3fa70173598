package org.dsmscope.viewer.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dsmscope.monitor.analysis.ProcessTimes;
import org.dsmscope.monitor.analysis.SyncArrows;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;

/**
 * What a live run's page needs of {@code monitor summary} (seed 002 §4.5's per-process utilization, §4.6's
 * synchronization arrows), grown one event at a time instead of recounting every event so far: each process's
 * {@link ProcessTimes} counted as {@code Summary} counts them, and {@link SyncArrows}' pairing (the await of value v
 * released by the v-th advance of its eventcount in aligned time) decided as soon as both ends are there. An
 * advance that arrives after a later advance of the same eventcount takes its place in time order for the awaits
 * still to come; arrows drawn before stay as they are.
 */
final class LiveSummary {
    /** Per process, its times (ordered by process id, as {@code Summary.times}). */
    final TreeMap<Integer, ProcessTimes> times = new TreeMap<>();
    /** Per eventcount: its advances' aligned times and processes, in time order (ties in arrival order). */
    private final Map<Long, long[][]> advances = new HashMap<>();
    private final Map<Long, int[]> advanceCount = new HashMap<>();
    /** Per eventcount and awaited value: awaits not yet released by an advance seen, as {proc, end}. */
    private final Map<Long, Map<Long, List<long[]>>> waiting = new HashMap<>();

    /** Receives a synchronization arrow: eventcount, advancing process and time, awaiting process and end. */
    interface Arrows {
        void arrow(long event, int fromProc, long fromTime, int toProc, long toTime);
    }

    /**
     * Counts event {@code i} of {@code b} at aligned time {@code time}, giving {@code out} the synchronization
     * arrows it completes (none for most events).
     */
    void add(EventBuffer b, int i, long time, String name, Arrows out) {
        EventType t = b.typeAt(i);
        if (t == null) {
            return;
        }
        int p = b.proc[i];
        ProcessTimes pt = times.computeIfAbsent(p, ProcessTimes::new);
        pt.name = name == null ? "p" + p : name;
        pt.events++;
        pt.start = Math.min(pt.start, time);
        pt.end = Math.max(pt.end, time);
        if (t.level == Level.PROGRAM && "dur".equals(t.fields[3])) {
            pt.inLibrary += Math.max(0, b.d[i]);
            if ("blocked".equals(t.fields[4])) {
                pt.blocked += Math.max(0, b.e[i]);
            }
            pt.end = Math.max(pt.end, time + Math.max(0, b.d[i]));
        }
        if (t == EventType.PROC_END) {
            pt.ended = true;
        } else if (t == EventType.ADVANCE) {
            advance(b.a[i], p, time, out);
        } else if ((t == EventType.AWAIT || t == EventType.AWAIT_WITH_TIMEOUT) && b.e[i] > 0 && b.c[i] >= b.b[i]) {
            await(b.a[i], p, b.b[i], time + b.d[i], out);
        }
    }

    private void advance(long event, int proc, long time, Arrows out) {
        long[][] a = advances.computeIfAbsent(event, k -> new long[][] {new long[8], new long[8]});
        int[] n = advanceCount.computeIfAbsent(event, k -> new int[1]);
        if (n[0] == a[0].length) {
            a[0] = Arrays.copyOf(a[0], n[0] * 2);
            a[1] = Arrays.copyOf(a[1], n[0] * 2);
        }
        // after every advance at the same or an earlier time: SyncArrows' stable sort by time
        int pos = SortedRun.upper(a[0], 0, n[0], time);
        System.arraycopy(a[0], pos, a[0], pos + 1, n[0] - pos);
        System.arraycopy(a[1], pos, a[1], pos + 1, n[0] - pos);
        a[0][pos] = time;
        a[1][pos] = proc;
        n[0]++;
        Map<Long, List<long[]>> w = waiting.get(event);
        List<long[]> released = w == null ? null : w.remove((long) n[0]);
        for (int k = 0; released != null && k < released.size(); k++) {
            arrow(event, n[0], (int) released.get(k)[0], released.get(k)[1], out);
        }
    }

    private void await(long event, int proc, long value, long end, Arrows out) {
        int[] n = advanceCount.get(event);
        if (value >= 1 && n != null && value <= n[0]) {
            arrow(event, (int) value, proc, end, out);
        } else if (value >= 1) {
            waiting.computeIfAbsent(event, k -> new HashMap<>()).computeIfAbsent(value, k -> new ArrayList<>())
                    .add(new long[] {proc, end});
        }
    }

    /** The arrow from the {@code value}-th advance of {@code event} to an await by {@code proc}, unless the same. */
    private void arrow(long event, int value, int proc, long end, Arrows out) {
        long[][] a = advances.get(event);
        int from = (int) a[1][value - 1];
        if (from != proc) {
            out.arrow(event, from, a[0][value - 1], proc, end);
        }
    }
}
