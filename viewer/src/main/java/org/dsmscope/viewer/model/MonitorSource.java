package org.dsmscope.viewer.model;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.ProcessTimes;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.analysis.SyncArrows;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.record.RecordingReader;

/**
 * A monitor recording (seed 002 §4.2's trace file, "DSMSCOPE-REC") as a timeline: one lane per process on the
 * aligned clock ({@link Summary}'s {@code ClockAligner} offsets), its programming-model calls as rectangles and as
 * overhead / blocked intervals (computation between them, §4.3's green / yellow / white), logical messages as
 * arrows from {@code Msg_Send_Begin} to each matching {@code Msg_Receive_End}, {@link SyncArrows}' advance → await
 * pairs as synchronization arrows (§4.6), retransmissions, NACKs, duplicates and discards as ticks. The per-process
 * totals and the transport tables are {@link Summary}'s: the numbers {@code dsmscope monitor summary} prints.
 * A damaged recording opens up to its damage, which {@link Timeline#damage} names.
 */
public final class MonitorSource implements Source {
    /** State names: computation (the lane's default), overhead, blocked. */
    public static final String[] STATES = {"computation", "overhead", "blocked"};
    private static final int OVERHEAD = 1, BLOCKED = 2;

    private final Path file;
    private final Timeline tl;
    private final Summary summary;
    private final TreeMap<Integer, Integer> laneOf = new TreeMap<>();
    private final TreeMap<Integer, Integer> procOf = new TreeMap<>();

    private MonitorSource(Path file, Timeline tl, Summary summary) {
        this.file = file;
        this.tl = tl;
        this.summary = summary;
    }

    /** The kinds of a monitor timeline: every {@link EventType} by its code. */
    public static Timeline.Kind[] kinds() {
        Timeline.Kind[] k = new Timeline.Kind[128];
        for (EventType t : EventType.values()) {
            Timeline.Draw d;
            if (t.level == Level.PROGRAM) {
                d = "dur".equals(t.fields[3]) ? Timeline.Draw.RECT : Timeline.Draw.TICK;
            } else if (t == EventType.RETRANS_SEND || t == EventType.NACK_SEND || t == EventType.NACK_RECV
                    || t == EventType.PACKET_DISCARD || t == EventType.DUPLICATE_FRAG) {
                d = Timeline.Draw.TICK;
            } else {
                d = Timeline.Draw.NONE;
            }
            k[t.code] = new Timeline.Kind(t.seedName(), t.level.name().toLowerCase(java.util.Locale.ROOT),
                    t.fields, d);
        }
        return k;
    }

    /** Opens a recording leniently (damage ends reading and shows as the banner); throws if it is no recording. */
    public static MonitorSource open(Path file) throws IOException {
        Summary s = Summary.of(file, true, EventcountChecker.DEFAULT_THRESHOLD);
        Timeline tl = new Timeline(file.getFileName().toString(), "recording", "ns", STATES, kinds());
        MonitorSource m = new MonitorSource(file, tl, s);
        long origin = Long.MAX_VALUE;
        for (ProcessTimes pt : s.times.values()) {
            origin = Math.min(origin, pt.start);
        }
        tl.origin = origin == Long.MAX_VALUE ? 0 : origin;
        for (Map.Entry<Integer, String> e : s.processes.entrySet()) {
            m.lane(e.getKey(), e.getValue());
        }
        try (RecordingReader r = RecordingReader.openLenient(file)) {
            while (r.nextChunk()) {
                EventBuffer b = r.chunk();
                for (int i = 0; i < b.size(); i++) {
                    m.add(b, i, b.time[i] - s.offsets.getOrDefault(b.proc[i], 0L));
                }
            }
        }
        tl.seal();
        m.messageArrows();
        m.syncArrows(s.arrows);
        for (ProcessTimes pt : s.times.values()) {
            Timeline.Lane ln = tl.lane(m.lane(pt.proc, pt.name));
            ln.totals = new long[] {pt.computation(), pt.overhead(), pt.blocked};
            ln.start = pt.start - tl.origin;
            ln.end = pt.end - tl.origin;
        }
        tl.seal();
        tl.damage = s.damage == null ? null : "recording damaged: read up to " + s.damage;
        tl.notes.addAll(s.notes);
        return m;
    }

    private int lane(int proc, String name) {
        Integer l = laneOf.get(proc);
        if (l == null) {
            l = tl.addLane(name == null ? "p" + proc : name);
            laneOf.put(proc, l);
            procOf.put(l, proc);
        }
        return l;
    }

    /** Adds event {@code i} of {@code b} at aligned absolute time {@code aligned}. */
    private void add(EventBuffer b, int i, long aligned) {
        EventType t = b.typeAt(i);
        if (t == null) {
            return;
        }
        int l = lane(b.proc[i], summary.processes.get(b.proc[i]));
        long rel = aligned - tl.origin;
        boolean call = t.level == Level.PROGRAM && "dur".equals(t.fields[3]);
        long d = call ? Math.max(0, b.d[i]) : 0;
        tl.event(rel, d, l, t.code, b.peer[i], b.a[i], b.b[i], b.c[i], b.d[i], b.e[i]);
        if (call) {
            long blocked = "blocked".equals(t.fields[4]) ? Math.min(d, Math.max(0, b.e[i])) : 0;
            // the call's own work first, then the wait it ends with (the seed gives only the sums)
            tl.state(l, rel, rel + d - blocked, OVERHEAD);
            tl.state(l, rel + d - blocked, rel + d, BLOCKED);
        }
    }

    /** One arrow per logical message received, from its send ({@code Msg_Send_Begin}, matched by sender and seq). */
    private void messageArrows() {
        Map<Long, Integer> sends = new HashMap<>();
        int n = tl.events();
        for (int id = 0; id < n; id++) {
            if (tl.kindOf(id) == EventType.MSG_SEND_BEGIN.code) {
                sends.put(((long) procOf.get(tl.laneOf(id)) << 40) ^ tl.field(id, 1), id);
            }
        }
        for (int k = 0; k < n; k++) {
            int id = tl.ordered(k);
            if (tl.kindOf(id) == EventType.MSG_RECEIVE_END.code && tl.peerOf(id) >= 0) {
                Integer s = sends.get(((long) tl.peerOf(id) << 40) ^ tl.field(id, 1));
                if (s != null) {
                    tl.arrow(Timeline.MESSAGE, tl.laneOf(s), tl.time(s), tl.laneOf(id), tl.time(id), tl.field(s, 0),
                            (int) tl.field(s, 2), s, id);
                }
            }
        }
    }

    /** The synchronization view's arrows: {@link SyncArrows}, tied to their Advance and Await events. */
    private void syncArrows(List<SyncArrows.Arrow> arrows) {
        Map<String, Integer> ends = new HashMap<>();
        int n = tl.events();
        for (int id = 0; id < n; id++) {
            int k = tl.kindOf(id);
            if (k == EventType.ADVANCE.code) {
                ends.put("a" + tl.laneOf(id) + ":" + tl.time(id), id);
            } else if (k == EventType.AWAIT.code || k == EventType.AWAIT_WITH_TIMEOUT.code) {
                ends.put("w" + tl.laneOf(id) + ":" + (tl.time(id) + tl.field(id, 3)), id);
            }
        }
        for (SyncArrows.Arrow a : arrows) {
            int from = lane(a.fromProc, null), to = lane(a.toProc, null);
            long ft = a.fromTime - tl.origin, tt = a.toTime - tl.origin;
            Integer src = ends.get("a" + from + ":" + ft), dst = ends.get("w" + to + ":" + tt);
            tl.arrow(Timeline.SYNC, from, ft, to, tt, a.event, -1, src == null ? -1 : src, dst == null ? -1 : dst);
        }
    }

    @Override
    public Timeline timeline() {
        return tl;
    }

    /** The whole run's summary ({@code monitor summary}'s numbers). */
    public Summary summary() {
        return summary;
    }

    @Override
    public Map<String, Object> tables(long t0, long t1) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("processes", processTimes(summary));
        out.put("transportRun", summary.toJson().get("pairs"));
        out.put("transportWindow", window(t0, t1).toJson().get("pairs"));
        return out;
    }

    static List<Object> processTimes(Summary s) {
        List<Object> out = new ArrayList<>();
        for (ProcessTimes t : s.times.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("process", t.proc);
            m.put("name", t.name);
            m.put("spanNanos", t.span());
            m.put("computationPercent", t.pct(t.computation()));
            m.put("overheadPercent", t.pct(t.overhead()));
            m.put("blockedPercent", t.pct(t.blocked));
            out.add(m);
        }
        return out;
    }

    /** The summary of the events in [t0, t1) (the transport table of the visible window). */
    Summary window(long t0, long t1) {
        EventBuffer b;
        synchronized (tl) {
            int from = tl.lowerBound(t0), to = tl.lowerBound(t1);
            b = new EventBuffer(Math.max(1, to - from));
            for (int k = from; k < to; k++) {
                int id = tl.ordered(k);
                b.add(tl.origin + tl.time(id), procOf.get(tl.laneOf(id)), tl.kindOf(id), tl.peerOf(id),
                        tl.field(id, 0), tl.field(id, 1), tl.field(id, 2), tl.field(id, 3), tl.field(id, 4));
            }
        }
        return Summary.ofEvents(file, summary.processes, b, EventcountChecker.DEFAULT_THRESHOLD);
    }
}
