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
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.record.RecordingReader;
import org.dsmscope.replay.LongIntMap;

/**
 * A monitor recording (seed 002 §4.2's trace file, "DSMSCOPE-REC") as a timeline: one lane per process on the
 * aligned clock ({@link Summary}'s {@code ClockAligner} offsets), its programming-model calls as rectangles and as
 * overhead / blocked intervals (computation between them, §4.3's green / yellow / white), logical messages as
 * arrows from {@code Msg_Send_Begin} to each matching {@code Msg_Receive_End}, {@link SyncArrows}' advance → await
 * pairs as synchronization arrows (§4.6), retransmissions, NACKs, duplicates and discards as ticks. The per-process
 * totals and the transport tables are {@link Summary}'s: the numbers {@code dsmscope monitor summary} prints.
 * Each lane carries its process's host (version-2 recordings; "unknown" for older ones) and the lines it wrote on
 * standard output and error ({@link Outputs}, on the aligned clock). A damaged recording opens up to its damage,
 * which {@link Timeline#damage} names.
 */
public final class MonitorSource implements Source {
    /** State names: computation (the lane's default), overhead, blocked. */
    public static final String[] STATES = {"computation", "overhead", "blocked"};
    private static final int OVERHEAD = 1, BLOCKED = 2;

    private final Path file;
    private final Timeline tl;
    private final Summary summary;
    private final Builder build;
    private final Outputs outputs = new Outputs();
    /** The whole run's transport table, {@code monitor summary --json}'s pairs (the summary's JSON made once). */
    private final Object runPairs;

    private MonitorSource(Path file, Timeline tl, Summary summary) {
        this.file = file;
        this.tl = tl;
        this.summary = summary;
        this.build = new Builder(tl);
        this.runPairs = summary.toJson().get("pairs");
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
            m.build.lane(e.getKey(), e.getValue());
        }
        try (RecordingReader r = RecordingReader.openLenient(file)) {
            while (r.nextChunk()) {
                EventBuffer b = r.chunk();
                for (int i = 0; i < b.size(); i++) {
                    m.build.add(b, i, b.time[i] - s.offsets.getOrDefault(b.proc[i], 0L), s.processes.get(b.proc[i]));
                }
            }
            for (Map.Entry<Integer, HostInfo> e : r.hosts().entrySet()) {
                m.build.host(e.getKey(), e.getValue());
            }
            for (RecordingReader.Line ln : r.lines()) {
                m.outputs.add(m.build.lane(ln.proc, s.processes.get(ln.proc)),
                        ln.time - s.offsets.getOrDefault(ln.proc, 0L), ln.stream, ln.text);
            }
        }
        tl.seal();
        m.build.syncArrows(s.arrows);
        for (ProcessTimes pt : s.times.values()) {
            Timeline.Lane ln = tl.lane(m.build.lane(pt.proc, pt.name));
            ln.totals = new long[] {pt.computation(), pt.overhead(), pt.blocked};
            ln.start = pt.start - tl.origin;
            ln.end = pt.end - tl.origin;
        }
        tl.seal();
        tl.damage = s.damage == null ? null : "recording damaged: read up to " + s.damage;
        tl.notes.addAll(s.notes);
        synchronized (tl) {
            m.build.transport(s.processes.keySet());
        }
        return m;
    }

    /**
     * Turns monitor events into a timeline's lanes, events, states and arrows, for a recording and for a live
     * stream alike (events in any order: a receive that comes before its send waits for it).
     */
    static final class Builder {
        private final Timeline tl;
        private final TreeMap<Integer, Integer> laneOf = new TreeMap<>();
        private final TreeMap<Integer, Integer> procOf = new TreeMap<>();
        /** Msg_Send_Begin events by (sender, message seq); receives seen before their send, by the same key. */
        private final LongIntMap sends = new LongIntMap(1024);
        private final Map<Long, List<Integer>> early = new HashMap<>();
        /** Advance and Await events by lane and time (start of an advance, end of an await): arrows' ends. */
        private final LongIntMap advances = new LongIntMap(256), awaits = new LongIntMap(256);
        private final java.util.Set<String> syncDrawn = new java.util.HashSet<>();
        private final TransportIndex transport = new TransportIndex();

        Builder(Timeline tl) {
            this.tl = tl;
        }

        int lane(int proc, String name) {
            Integer l = laneOf.get(proc);
            if (l == null) {
                l = tl.addLane(name == null ? "p" + proc : name);
                laneOf.put(proc, l);
                procOf.put(l, proc);
            }
            return l;
        }

        /** Labels process {@code proc}'s lane with its host. */
        void host(int proc, HostInfo h) {
            Timeline.Lane ln = tl.lane(lane(proc, null));
            ln.hostInfo = h;
            ln.host = h.host + " · " + h.arch;
        }

        /** Adds event {@code i} of {@code b} at aligned absolute time {@code aligned}. */
        void add(EventBuffer b, int i, long aligned, String name) {
            EventType t = b.typeAt(i);
            if (t == null) {
                return;
            }
            int l = lane(b.proc[i], name);
            long rel = aligned - tl.origin;
            boolean call = t.level == Level.PROGRAM && "dur".equals(t.fields[3]);
            long d = call ? Math.max(0, b.d[i]) : 0;
            int id = tl.event(rel, d, l, t.code, b.peer[i], b.a[i], b.b[i], b.c[i], b.d[i], b.e[i]);
            if (call) {
                long blocked = "blocked".equals(t.fields[4]) ? Math.min(d, Math.max(0, b.e[i])) : 0;
                // the call's own work first, then the wait it ends with (the seed gives only the sums)
                tl.state(l, rel, rel + d - blocked, OVERHEAD);
                tl.state(l, rel + d - blocked, rel + d, BLOCKED);
            }
            if (t == EventType.ADVANCE) {
                advances.put(at(l, rel), id);
            } else if (t == EventType.AWAIT || t == EventType.AWAIT_WITH_TIMEOUT) {
                awaits.put(at(l, rel + b.d[i]), id);
            } else if (t == EventType.MSG_SEND_BEGIN) {
                long key = ((long) b.proc[i] << 40) ^ b.b[i];
                sends.put(key, id);
                List<Integer> waiting = early.isEmpty() ? null : early.remove(key);
                if (waiting != null) {
                    for (int r : waiting) {
                        message(id, r);
                    }
                }
            } else if (t == EventType.MSG_RECEIVE_END && b.peer[i] >= 0) {
                long key = ((long) b.peer[i] << 40) ^ b.b[i];
                int s = sends.get(key);
                if (s >= 0) {
                    message(s, id);
                } else {
                    early.computeIfAbsent(key, x -> new java.util.ArrayList<>()).add(id);
                }
            }
        }

        private static long at(int lane, long rel) {
            return ((long) lane << 48) ^ rel;
        }

        /** One arrow per logical message received, from its {@code Msg_Send_Begin}. */
        private void message(int s, int r) {
            tl.arrow(Timeline.MESSAGE, tl.laneOf(s), tl.time(s), tl.laneOf(r), tl.time(r), tl.field(s, 0),
                    (int) tl.field(s, 2), s, r);
        }

        /** The synchronization view's arrows: {@link SyncArrows}, tied to their Advance and Await events. */
        void syncArrows(List<SyncArrows.Arrow> arrows) {
            for (SyncArrows.Arrow a : arrows) {
                syncArrow(a.event, a.fromProc, a.fromTime, a.toProc, a.toTime);
            }
        }

        /** One synchronization arrow (aligned absolute times), unless drawn already. */
        void syncArrow(long event, int fromProc, long fromTime, int toProc, long toTime) {
            int from = lane(fromProc, null), to = lane(toProc, null);
            long ft = fromTime - tl.origin, tt = toTime - tl.origin;
            if (!syncDrawn.add(event + ":" + from + ":" + ft + ":" + to + ":" + tt)) {
                return;
            }
            tl.arrow(Timeline.SYNC, from, ft, to, tt, event, -1, advances.get(at(from, ft)), awaits.get(at(to, tt)));
        }

        /** Process id of each lane, by lane. */
        int[] procOfLanes() {
            int[] out = new int[tl.lanes.size()];
            for (int l = 0; l < out.length; l++) {
                out[l] = procOf.getOrDefault(l, l);
            }
            return out;
        }

        /** The transport index of the timeline's current content (call under its monitor). */
        TransportIndex transport(java.util.Set<Integer> processes) {
            tl.seal();
            transport.update(tl, procOfLanes(), processes);
            return transport;
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
    public Outputs outputs() {
        return outputs;
    }

    @Override
    public Map<String, Object> tables(long t0, long t1) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("processes", processTimes(summary));
        out.put("transportRun", runPairs);
        boolean whole = t0 <= 0 && t1 >= tl.end();
        out.put("transportWindow", whole ? out.get("transportRun") : transportWindow(t0, t1));
        return out;
    }

    /** The transport table of the events in [t0, t1) from the run's {@link TransportIndex}. */
    List<Object> transportWindow(long t0, long t1) {
        synchronized (tl) {
            return build.transport(summary.processes.keySet()).windowJson(t0, t1);
        }
    }

    static List<Object> processTimes(Summary s) {
        return processTimes(s.times.values());
    }

    /** The per-process table: percentages of each process's span, as {@code monitor summary --json}. */
    static List<Object> processTimes(java.util.Collection<ProcessTimes> times) {
        List<Object> out = new ArrayList<>();
        for (ProcessTimes t : times) {
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

}
