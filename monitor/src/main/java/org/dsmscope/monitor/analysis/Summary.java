package org.dsmscope.monitor.analysis;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.probe.TransportProbe;
import org.dsmscope.monitor.record.RecordingReader;

/**
 * The post-mortem summary of a recording: transport summaries per process pair (seed 002 §4.1.3), per-process
 * time in computation, overhead and blocked (§4.5), eventcount inconsistencies (§3.3), clock offsets (§4.2).
 * Streams the recording twice (alignment, then counting); memory grows with processes, pairs and retransmitted
 * fragments, not with the number of events.
 */
public final class Summary {
    /** Recording path. */
    public final Path file;
    /** Process names by id. */
    public final TreeMap<Integer, String> processes = new TreeMap<>();
    /** Clock offsets subtracted from each process's times. */
    public TreeMap<Integer, Long> offsets = new TreeMap<>();
    /** Directed pairs, keyed "from,to" in order. */
    public final TreeMap<Long, PairStats> pairs = new TreeMap<>();
    /** Per-process times. */
    public final TreeMap<Integer, ProcessTimes> times = new TreeMap<>();
    /** Events per type. */
    public final TreeMap<String, Long> counts = new TreeMap<>();
    /** Eventcount inconsistencies found. */
    public List<EventcountChecker.Inconsistency> inconsistencies = new ArrayList<>();
    /** Advance → Await arrows of the synchronization view. */
    public List<SyncArrows.Arrow> arrows = new ArrayList<>();
    /** Damage that ended reading early (lenient mode), or null. */
    public String damage;
    /** Notes stored in the recording. */
    public List<String> notes = new ArrayList<>();
    /** Total events read. */
    public long events;

    /** Each process's first and last event time (aligned ns): when it could send and receive. */
    private final Map<Integer, long[]> active = new HashMap<>();
    /** Lowest NAKACK2 seqno each receiver got from each sender (key sender << 32 | receiver): where it joined. */
    private final Map<Long, Long> firstMulticast = new HashMap<>();
    private final Map<Long, Integer> maxAttempt = new HashMap<>();
    private final SyncArrows sync = new SyncArrows();

    private Summary(Path file) {
        this.file = file;
    }

    /** Summarizes a recording; strict: damage throws a RecordingException, lenient: summary up to the damage. */
    public static Summary of(Path file, boolean lenient, long thresholdNanos) throws IOException {
        Summary s = new Summary(file);
        ClockAligner al = new ClockAligner();
        try (RecordingReader r = lenient ? RecordingReader.openLenient(file) : RecordingReader.open(file)) {
            while (r.nextChunk()) {
                al.add(r.chunk());
                s.span(r.chunk());
            }
            s.processes.putAll(r.processes());
        }
        s.offsets = al.offsets();
        for (Map.Entry<Integer, long[]> e : s.active.entrySet()) {
            long off = s.offsets.getOrDefault(e.getKey(), 0L);
            e.getValue()[0] -= off;
            e.getValue()[1] -= off;
        }
        EventcountChecker ec = new EventcountChecker();
        try (RecordingReader r = lenient ? RecordingReader.openLenient(file) : RecordingReader.open(file)) {
            while (r.nextChunk()) {
                s.count(r.chunk(), ec);
            }
            s.damage = r.damage();
            s.notes.addAll(r.notes());
        }
        s.finish(ec, thresholdNanos);
        return s;
    }

    /**
     * Summarizes events already in memory, on one clock (no offsets): the viewer's visible window and its live
     * run use the same counting as a recording's summary. {@code label} names them.
     */
    public static Summary ofEvents(Path label, Map<Integer, String> processes, EventBuffer events,
            long thresholdNanos) {
        Summary s = new Summary(label);
        s.processes.putAll(processes);
        EventcountChecker ec = new EventcountChecker();
        s.count(events, ec);
        s.finish(ec, thresholdNanos);
        return s;
    }

    private void finish(EventcountChecker ec, long thresholdNanos) {
        for (Map.Entry<Long, Integer> e : maxAttempt.entrySet()) {
            long k = e.getKey();
            PairStats ps = pair((int) (k >>> 48), (int) ((k >>> 32) & 0xFFFF));
            ps.levels.merge(e.getValue(), 1L, Long::sum);
        }
        inconsistencies = ec.check(thresholdNanos);
        arrows = sync.arrows();
    }

    /** Pass 1: each process's first and last event on its own clock. */
    private void span(EventBuffer b) {
        for (int i = 0; i < b.size(); i++) {
            long[] a = active.computeIfAbsent(b.proc[i], k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            a[0] = Math.min(a[0], b.time[i]);
            a[1] = Math.max(a[1], b.time[i]);
            if (b.type[i] == EventType.FRAG_RECV.code && b.c[i] == TransportProbe.P_NAKACK2 && b.peer[i] >= 0) {
                firstMulticast.merge(((long) b.peer[i] << 32) | b.proc[i], b.a[i], Math::min);
            }
        }
    }

    /**
     * Whether multicast {@code seqno} of {@code p} was meant for {@code q}: q was recording then, and the seqno is
     * not below the first q received from p (a process that joins the group gets only the multicasts after its
     * join; JGroups' NAKACK2 hands it the sender's seqno in the join digest).
     */
    private boolean multicastFor(int p, int q, long seqno, long t) {
        Long first = firstMulticast.get(((long) p << 32) | q);
        return activeAt(q, t) && (first == null || seqno >= first);
    }

    /** Whether process {@code q} was recording at aligned time {@code t} (a multicast then reached its probe). */
    private boolean activeAt(int q, long t) {
        long[] a = active.get(q);
        return a != null && a[0] <= t && t <= a[1];
    }

    /** Whether a packet sent to {@code q} at {@code t} came after q's last recorded event (no receive could show). */
    private boolean afterEnd(int q, long t) {
        long[] a = active.get(q);
        return a != null && t > a[1];
    }

    private PairStats pair(int from, int to) {
        long k = ((long) from << 32) | (to & 0xFFFFFFFFL);
        return pairs.computeIfAbsent(k, x -> new PairStats(from, to));
    }

    private void count(EventBuffer b, EventcountChecker ec) {
        for (int i = 0; i < b.size(); i++) {
            EventType t = b.typeAt(i);
            if (t == null) {
                continue;
            }
            events++;
            int p = b.proc[i];
            int q = b.peer[i];
            long time = b.time[i] - offsets.getOrDefault(p, 0L);
            counts.merge(t.seedName(), 1L, Long::sum);
            ProcessTimes pt = times.computeIfAbsent(p, ProcessTimes::new);
            pt.name = processes.getOrDefault(p, "p" + p);
            pt.events++;
            pt.start = Math.min(pt.start, time);
            pt.end = Math.max(pt.end, time);
            ec.seen(time);
            if (t.level == org.dsmscope.monitor.event.Level.PROGRAM && "dur".equals(t.fields[3])) {
                pt.inLibrary += Math.max(0, b.d[i]);
                pt.start = Math.min(pt.start, time);
                if ("blocked".equals(t.fields[4])) {
                    pt.blocked += Math.max(0, b.e[i]);
                }
                pt.end = Math.max(pt.end, time + Math.max(0, b.d[i]));
            }
            switch (t) {
                case PROC_END:
                    pt.ended = true;
                    ec.ended(p, time);
                    break;
                case CREATE_EVENT:
                    ec.add(time, p, 3, b.a[i], 0);
                    break;
                case ADVANCE:
                    ec.add(time, p, 0, b.a[i], b.b[i]);
                    sync.advance(b.a[i], p, time);
                    break;
                case COUNT_UPDATE:
                    ec.add(time, p, 1, b.a[i], b.b[i]);
                    break;
                case EVENT_SYNC:
                    ec.add(time + Math.max(0, b.d[i]), p, 2, b.a[i], b.b[i]);
                    break;
                case AWAIT:
                case AWAIT_WITH_TIMEOUT:
                    ec.add(time + Math.max(0, b.d[i]), p, 1, b.a[i], b.c[i]);
                    if (b.e[i] > 0 && b.c[i] >= b.b[i]) {
                        sync.await(b.a[i], p, b.b[i], time + b.d[i]);
                    }
                    break;
                case FRAG_SEND:
                    if (q < 0) {
                        // a multicast is for the processes in the group then: not one that joined later or had ended
                        for (int other : processes.keySet()) {
                            if (other != p && multicastFor(p, other, b.a[i], time)) {
                                sentData(pair(p, other), b, i, time);
                            }
                        }
                    } else {
                        sentData(pair(p, q), b, i, time);
                        if (afterEnd(q, time)) {
                            pair(p, q).dataAfterEnd++;
                        }
                    }
                    break;
                case RETRANS_SEND: {
                    PairStats ps = pair(p, q);
                    ps.retrans++;
                    ps.bytesSent += b.d[i];
                    if (afterEnd(q, time)) {
                        ps.dataAfterEnd++;
                    }
                    int attempt = (int) (b.e[i] >> 2);
                    if ((b.e[i] & 3) == EventType.CAUSE_NACK) {
                        ps.retransNack++;
                    } else {
                        ps.retransTimeout++;
                    }
                    long key = ((long) p << 48) | ((long) (q & 0xFFFF) << 32) | ((b.c[i] & 0xF) << 28)
                            | (b.a[i] & 0xFFFFFFFL);
                    maxAttempt.merge(key, attempt, Math::max);
                    break;
                }
                case FRAG_RECV: {
                    PairStats ps = pair(q, p);
                    ps.dataRecv++;
                    ps.bytesRecv += b.d[i];
                    ps.first = Math.min(ps.first, time);
                    ps.last = Math.max(ps.last, time);
                    break;
                }
                case ACK_SEND:
                    pair(p, q).ackSent++;
                    if (afterEnd(q, time)) {
                        pair(p, q).acksAfterEnd++;
                    }
                    break;
                case ACK_RECV: {
                    pair(q, p).ackRecv++;
                    if (b.d[i] > 0) {
                        PairStats ps = pair(p, q);
                        ps.rttSamples++;
                        ps.rttSum += b.d[i];
                    }
                    break;
                }
                case NACK_SEND:
                    pair(p, q).nackSent++;
                    if (afterEnd(q, time)) {
                        pair(p, q).nacksAfterEnd++;
                    }
                    break;
                case NACK_RECV:
                    pair(q, p).nackRecv++;
                    break;
                case DUPLICATE_FRAG:
                    if (b.e[i] == 1) {
                        pair(q, p).dupMessages++;
                    } else {
                        pair(q, p).dupFragments++;
                    }
                    break;
                case PACKET_DISCARD:
                    pair(q, p).discards++;
                    break;
                default:
                    break;
            }
        }
    }

    private static void sentData(PairStats ps, EventBuffer b, int i, long time) {
        ps.dataSent++;
        ps.bytesSent += b.d[i];
        ps.first = Math.min(ps.first, time);
    }

    /** Total retransmissions over all pairs. */
    public long totalRetrans() {
        long n = 0;
        for (PairStats p : pairs.values()) {
            n += p.retrans;
        }
        return n;
    }

    private String name(int p) {
        return processes.getOrDefault(p, "p" + p);
    }

    /** What each column of the text tables means (printed by {@code monitor summary --explain}). */
    public static final String[] LEGEND = {
        "Transport summary: one row per directed pair sender->receiver; a multicast counts once for each process",
        "that was recording when it was sent. Counts are of packets (a fragment of a fragmented message is one).",
        "  KB/s      data bytes received per second over the pair's active interval (first to last data packet)",
        "  rtt_us    average round-trip time in microseconds: a UNICAST3 data packet's last transmission to its ACK",
        "  data      data packets sent: first transmissions plus retransmissions",
        "  loss%     data packets sent but never seen by the receiver, % of data (1 - received / sent); packets",
        "            sent after the receiver's last recorded event are left out (it had ended)",
        "  ackloss%  the same for ACKs (UNICAST3 acknowledgements)",
        "  nakloss%  the same for NACKs (retransmission requests, NAKACK2 and UNICAST3)",
        "  retrans   data packets sent again; retr% is retrans as % of data",
        "  timeout   retransmissions a timer caused (UNICAST3 resends what is not acknowledged within its",
        "            xmit_interval, 50 ms in dsm run: on a busy machine this happens without any loss)",
        "  nack      retransmissions a NACK caused (the receiver asked for a missing seqno)",
        "  dupmsg    duplicate whole messages received; dupfrg: duplicate fragments of fragmented messages",
        "  disc      packets the emulated network dropped on arrival (dsm run --loss: JGroups' DISCARD)",
        "  levels    Nx:K = K packets whose highest retransmission attempt was N",
        "Time per process: span_ms from its first to its last event; computation% is the span outside calls of the",
        "programming model, overhead% inside them but not blocked, blocked% waiting (await, get updates, replies).",
        "Clock offsets: subtracted from each process's times so that no message is received before it is sent",
        "(estimated from message send/receive pairs, seed 002 §4.2).",
    };

    /** Prints the tables as text, with a pointer to {@code --explain}. */
    public void print(PrintStream out) {
        print(out, false);
    }

    /** Prints the tables as text; {@code explain} adds the legend of every column. */
    public void print(PrintStream out, boolean explain) {
        out.println("recording " + file + ": " + events + " events, " + processes.size() + " processes");
        if (damage != null) {
            out.println("warning: read up to damage: " + damage);
        }
        out.println();
        out.println("Transport summary per process pair (seed 002 §4.1.3)");
        out.printf(Locale.ROOT, "%-12s %10s %9s %8s %8s %8s %8s %8s %8s %8s %7s %7s %6s %6s  %s%n", "pair", "KB/s",
                "rtt_us", "data", "loss%", "ackloss%", "nakloss%", "retrans", "retr%", "timeout", "nack", "dupmsg",
                "dupfrg", "disc", "levels");
        for (PairStats s : pairs.values()) {
            if (s.dataSent + s.retrans + s.dataRecv + s.ackSent + s.nackSent == 0) {
                continue;
            }
            StringBuilder lv = new StringBuilder();
            for (Map.Entry<Integer, Long> e : s.levels.entrySet()) {
                lv.append(lv.length() == 0 ? "" : " ").append(e.getKey()).append("x:").append(e.getValue());
            }
            out.printf(Locale.ROOT, "%-12s %10.1f %9.1f %8d %8.2f %8.2f %8.2f %8d %8.2f %8d %7d %7d %6d %6d  %s%n",
                    name(s.from) + "->" + name(s.to), s.throughput() / 1024, s.rttMicros(), s.dataSent + s.retrans,
                    100 * s.dataLoss(), 100 * s.ackLoss(), 100 * s.nackLoss(), s.retrans, s.retransPercent(),
                    s.retransTimeout, s.retransNack, s.dupMessages, s.dupFragments, s.discards, lv);
        }
        out.println();
        out.println("Time per process (seed 002 §4.5)");
        out.printf(Locale.ROOT, "%-8s %12s %14s %14s %14s%n", "process", "span_ms", "computation%", "overhead%",
                "blocked%");
        for (ProcessTimes t : times.values()) {
            out.printf(Locale.ROOT, "%-8s %12.1f %14.1f %14.1f %14.1f%s%n", t.name, t.span() / 1e6,
                    t.pct(t.computation()), t.pct(t.overhead()), t.pct(t.blocked), t.ended ? "" : "  (no end)");
        }
        out.println();
        out.println("Clock offsets (subtracted from each process's times)");
        out.printf(Locale.ROOT, "%-8s %12s%n", "process", "offset_ms");
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            out.printf(Locale.ROOT, "%-8s %12.3f%n", name(e.getKey()), e.getValue() / 1e6);
        }
        out.println();
        out.println("Synchronization arrows (advance -> released await): " + arrows.size());
        out.println("Eventcount inconsistencies: " + inconsistencies.size());
        for (EventcountChecker.Inconsistency x : inconsistencies) {
            out.println("  " + x);
        }
        for (String n : notes) {
            out.println("note: " + n);
        }
        String why = withoutDrops();
        if (why != null) {
            out.println("note: " + why);
        }
        if (explain) {
            out.println();
            for (String l : LEGEND) {
                out.println(l);
            }
        } else {
            out.println("(what each column means: dsmscope monitor summary --explain)");
        }
    }

    /**
     * Why a run whose network dropped nothing still shows retransmissions or loss, or null when it does not (or
     * when the emulated network did drop packets, which then explain them).
     */
    public String withoutDrops() {
        long retrans = 0;
        long discards = 0;
        boolean loss = false;
        for (PairStats p : pairs.values()) {
            retrans += p.retrans;
            discards += p.discards;
            loss |= p.dataLoss() > 0 || p.ackLoss() > 0 || p.nackLoss() > 0;
        }
        if (discards > 0 || (retrans == 0 && !loss)) {
            return null;
        }
        return "the network dropped no packet in this run (no Packet_Discard events): the retransmissions are"
                + " JGroups' own timers (UNICAST3 resends what is not acknowledged within 50 ms; NAKACK2 resends a"
                + " sender's last seqno while idle), and loss% counts packets still in flight when a member ended";
    }

    /** The summary as a JSON-ready tree (deterministic key order). */
    public Map<String, Object> toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", "dsmscope-monitor-summary/1");
        root.put("recording", file.toString());
        root.put("events", events);
        root.put("damage", damage);
        Map<String, Object> procs = new LinkedHashMap<>();
        processes.forEach((k, v) -> procs.put(Integer.toString(k), v));
        root.put("processes", procs);
        root.put("eventCounts", counts);
        List<Object> ps = new ArrayList<>();
        for (PairStats s : pairs.values()) {
            ps.add(s.toJson());
        }
        root.put("pairs", ps);
        List<Object> ts = new ArrayList<>();
        for (ProcessTimes t : times.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("process", t.proc);
            m.put("name", t.name);
            m.put("spanNanos", t.span());
            m.put("computationNanos", t.computation());
            m.put("overheadNanos", t.overhead());
            m.put("blockedNanos", t.blocked);
            m.put("ended", t.ended);
            ts.add(m);
        }
        root.put("processTimes", ts);
        Map<String, Long> off = new LinkedHashMap<>();
        offsets.forEach((k, v) -> off.put(Integer.toString(k), v));
        root.put("clockOffsetsNanos", off);
        List<Object> inc = new ArrayList<>();
        for (EventcountChecker.Inconsistency x : inconsistencies) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("event", x.event);
            m.put("process", x.proc);
            m.put("behindMillis", x.millis());
            m.put("count", x.had);
            m.put("latest", x.latest);
            m.put("atEnd", x.atEnd);
            inc.add(m);
        }
        root.put("eventcountInconsistencies", inc);
        List<Object> ar = new ArrayList<>();
        for (SyncArrows.Arrow a : arrows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("event", a.event);
            m.put("advanceProcess", a.fromProc);
            m.put("advanceTime", a.fromTime);
            m.put("awaitProcess", a.toProc);
            m.put("awaitEnd", a.toTime);
            ar.add(m);
        }
        root.put("syncArrows", ar);
        root.put("notes", notes);
        root.put("withoutDrops", withoutDrops());
        return root;
    }
}
