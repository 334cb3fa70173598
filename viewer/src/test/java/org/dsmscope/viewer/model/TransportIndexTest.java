package org.dsmscope.viewer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.probe.TransportProbe;
import org.dsmscope.monitor.record.Recorder;
import org.junit.jupiter.api.Test;

/**
 * The window's transport table from prefix sums (seed 002 §4.1.3) against {@code Summary}, the counting of
 * {@code monitor summary}: any window of unicast traffic equals {@code Summary.ofEvents} over the window's events,
 * and the whole run of a recording with multicasts and packets sent after a receiver ended equals the recording's
 * summary.
 */
class TransportIndexTest {
    private static final int PROCS = 4;
    private static final EventType[] TYPES = {EventType.FRAG_SEND, EventType.RETRANS_SEND, EventType.FRAG_RECV,
        EventType.ACK_SEND, EventType.ACK_RECV, EventType.NACK_SEND, EventType.NACK_RECV, EventType.DUPLICATE_FRAG,
        EventType.PACKET_DISCARD};

    /** Random transport events between 4 processes, in time order; every process runs from time 0 to 10 ms. */
    private static EventBuffer unicast(long seed, int n) {
        Random rnd = new Random(seed);
        EventBuffer b = new EventBuffer(n + 2 * PROCS);
        for (int p = 0; p < PROCS; p++) {
            b.add(0, p, EventType.PROC_START.code, -1, 0, 0, 0, 0, 0);
        }
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += rnd.nextInt(3) * 1_000L; // ties on purpose: windows cut between events of the same time
            int p = rnd.nextInt(PROCS), q = (p + 1 + rnd.nextInt(PROCS - 1)) % PROCS;
            EventType type = TYPES[rnd.nextInt(TYPES.length)];
            b.add(t, p, type.code, q, i, rnd.nextInt(3), rnd.nextInt(2) + 1, rnd.nextInt(4) == 0 ? 0 : 100 + rnd.nextInt(900),
                    type == EventType.RETRANS_SEND ? 4 * (1 + rnd.nextInt(3)) + rnd.nextInt(2) : rnd.nextInt(2));
        }
        for (int p = 0; p < PROCS; p++) {
            b.add(10_000_000, p, EventType.PROC_END.code, -1, 0, 0, 0, 0, 0);
        }
        return b;
    }

    private static TreeMap<Integer, String> names() {
        TreeMap<Integer, String> m = new TreeMap<>();
        for (int p = 0; p < PROCS; p++) {
            m.put(p, "m" + p);
        }
        return m;
    }

    /** The pairs of a summary as the window's table shows them (without retransmission levels). */
    @SuppressWarnings("unchecked")
    private static List<Object> pairsOf(Summary s) {
        List<Object> out = new ArrayList<>();
        for (Object o : (List<Object>) s.toJson().get("pairs")) {
            ((Map<String, Object>) o).remove("retransmissionLevels");
            out.add(o);
        }
        return out;
    }

    @Property(tries = 40)
    void anyWindow_equalsTheSummaryOfTheEventsInIt(@ForAll long seed) {
        EventBuffer events = unicast(seed, 400);
        Timeline tl = new Timeline("t", "recording", "ns", MonitorSource.STATES, MonitorSource.kinds());
        MonitorSource.Builder build = new MonitorSource.Builder(tl);
        for (int i = 0; i < events.size(); i++) {
            build.add(events, i, events.time[i], "m" + events.proc[i]);
        }
        TransportIndex ix;
        synchronized (tl) {
            ix = build.transport(names().keySet());
        }
        Random rnd = new Random(seed ^ 0x5DEECE66DL);
        long end = events.time[events.size() - 1];
        for (int k = 0; k < 25; k++) {
            long a = rnd.nextLong(-2_000, end / 2), w = rnd.nextLong(0, end);
            long t0 = k == 0 ? Long.MIN_VALUE : a, t1 = k == 0 ? Long.MAX_VALUE : a + w;
            EventBuffer in = new EventBuffer(events.size());
            for (int i = 0; i < events.size(); i++) {
                if (events.time[i] >= t0 && events.time[i] < t1) {
                    in.addFrom(events, i);
                }
            }
            Summary ref = Summary.ofEvents(Path.of("t"), names(), in, EventcountChecker.DEFAULT_THRESHOLD);
            assertEquals(pairsOf(ref), ix.windowJson(t0, t1), "window [" + t0 + ", " + t1 + ")");
        }
    }

    @Test
    void wholeRunOfARecordingWithMulticasts_equalsItsSummary() throws Exception {
        Path dir = Files.createTempDirectory("transport-index");
        Path file = dir.resolve("r.dsmrec");
        Random rnd = new Random(7);
        try (Recorder r = new Recorder(file)) {
            for (int p = 0; p < PROCS; p++) {
                r.process(p, "m" + p);
            }
            EventBuffer b = new EventBuffer(8192);
            // m3 joins late (its first multicast seqno from m0 is 40) and ends early: multicasts before its join and
            // packets after its end are counted apart, as monitor summary counts them
            b.add(1_000, 3, EventType.PROC_START.code, -1, 0, 0, 0, 0, 0);
            for (int i = 0; i < 2_000; i++) {
                long t = 2_000 + i * 1_000L;
                int p = rnd.nextInt(3), q = (p + 1 + rnd.nextInt(PROCS - 1)) % PROCS;
                if (q == 3 && t > 1_500_000) {
                    q = (p + 1) % 3;
                }
                if (i % 5 == 0) {
                    b.add(t, 0, EventType.FRAG_SEND.code, -1, i, -1, TransportProbe.P_NAKACK2, 600, 0);
                    for (int other = 1; other < PROCS; other++) {
                        if (other != 3 || i >= 40 && t < 1_500_000) {
                            b.add(t + 300, other, EventType.FRAG_RECV.code, 0, i, -1, TransportProbe.P_NAKACK2, 600, 0);
                        }
                    }
                } else {
                    EventType type = TYPES[rnd.nextInt(TYPES.length)];
                    b.add(t, p, type.code, t > 1_600_000 && rnd.nextBoolean() ? 3 : q, i, rnd.nextInt(3), 2,
                            100 + rnd.nextInt(900), type == EventType.RETRANS_SEND ? 4 + rnd.nextInt(2) : 0);
                }
            }
            b.add(1_500_100, 3, EventType.PROC_END.code, -1, 0, 0, 0, 0, 0);
            r.accept(b);
        }
        MonitorSource m = MonitorSource.open(file);
        Summary s = Summary.of(file, false, EventcountChecker.DEFAULT_THRESHOLD);
        List<Object> whole = m.transportWindow(Long.MIN_VALUE, Long.MAX_VALUE);
        assertFalse(whole.isEmpty());
        assertEquals(pairsOf(s), whole);
        Files.delete(file);
        Files.delete(dir);
    }
}
