package org.dsmscope.monitor.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The synchronization view's arrows (seed 002 §4.6, SPEC §9): an {@code Advance} releases the {@code Await}s, on
 * any member, whose awaited value the eventcount's count reaches first with that advance. The count after the
 * k-th advance (in aligned time) is k; an await of value v that waited is released by the v-th advance.
 */
public final class SyncArrows {
    /** One arrow from an advance to an await it released. */
    public static final class Arrow {
        /** Eventcount. */
        public final long event;
        /** Advancing process and aligned time of the advance. */
        public final int fromProc;
        /** Aligned time of the advance (ns). */
        public final long fromTime;
        /** Awaiting process. */
        public final int toProc;
        /** Aligned time the await returned (ns). */
        public final long toTime;

        Arrow(long event, int fromProc, long fromTime, int toProc, long toTime) {
            this.event = event;
            this.fromProc = fromProc;
            this.fromTime = fromTime;
            this.toProc = toProc;
            this.toTime = toTime;
        }
    }

    private final Map<Long, List<long[]>> advances = new HashMap<>();
    private final List<long[]> awaits = new ArrayList<>();

    /** An advance of {@code event} by {@code proc} at aligned {@code time}. */
    public void advance(long event, int proc, long time) {
        advances.computeIfAbsent(event, k -> new ArrayList<>()).add(new long[] {time, proc});
    }

    /** An await of {@code value} that blocked and returned at aligned {@code end} having reached it. */
    public void await(long event, int proc, long value, long end) {
        awaits.add(new long[] {event, proc, value, end});
    }

    /** The arrows, ordered by event then release time. */
    public List<Arrow> arrows() {
        for (List<long[]> l : advances.values()) {
            l.sort((x, y) -> Long.compare(x[0], y[0]));
        }
        List<Arrow> out = new ArrayList<>();
        for (long[] w : awaits) {
            List<long[]> l = advances.get(w[0]);
            if (l == null || w[2] < 1 || w[2] > l.size()) {
                continue;
            }
            long[] adv = l.get((int) w[2] - 1);
            if (adv[1] != w[1]) {
                out.add(new Arrow(w[0], (int) adv[1], adv[0], (int) w[1], w[3]));
            }
        }
        out.sort((x, y) -> x.event != y.event ? Long.compare(x.event, y.event) : Long.compare(x.fromTime, y.fromTime));
        return out;
    }
}
