package org.dsmscope.viewer.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dsmscope.monitor.analysis.PairStats;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.probe.TransportProbe;

/**
 * The transport summary of seed 002 §4.1.3 per process pair for any window of a sealed {@link Timeline}, by prefix
 * sums: each (directed pair, counter) keeps the times of the events that add to it, in time order, with prefix sums
 * of the amounts (bytes, round-trip times), so that a window's table is two binary searches per pair and counter,
 * O(pairs × counters × log n), whatever the number of events inside. Events are attributed to pairs and counters as
 * {@code monitor summary} ({@code Summary}) counts them over the whole run: a multicast fragment counts for each
 * process that was recording when it was sent and had joined (its first NAKACK2 seqno from the sender), packets sent
 * after the receiver's last event count apart. A window's table is the run's counting restricted to the events in
 * [t0, t1); the whole run's window equals {@code monitor summary}'s pairs except {@code retransmissionLevels} (the
 * highest attempt per fragment is not additive), which a window's table leaves out.
 */
public final class TransportIndex {
    private static final int DATA_SENT = 0, RETRANS = 1, RETRANS_TIMEOUT = 2, RETRANS_NACK = 3, DATA_RECV = 4,
            BYTES_SENT = 5, BYTES_RECV = 6, ACK_SENT = 7, ACK_RECV = 8, NACK_SENT = 9, NACK_RECV = 10, DUP_MSG = 11,
            DUP_FRAG = 12, DISCARDS = 13, DATA_AFTER_END = 14, ACKS_AFTER_END = 15, NACKS_AFTER_END = 16,
            RTT_SAMPLES = 17, RTT_SUM = 18, COUNTERS = 19;
    /** Event codes of the transport level, the only events that add to a pair's counters. */
    private static final boolean[] TRANSPORT = new boolean[256];

    static {
        for (EventType t : EventType.values()) {
            TRANSPORT[t.code] = t.level == Level.TRANSPORT;
        }
    }

    /** Directed pairs (from, to) in {@code monitor summary}'s order. */
    private final int[] from, to;
    /** Per pair × counter: times of the contributing events (relative, sorted); prefix sums of their amounts. */
    private final long[][] times, cum;

    private TransportIndex(int[] from, int[] to, long[][] times, long[][] cum) {
        this.from = from;
        this.to = to;
        this.times = times;
        this.cum = cum;
    }

    /** Receives one contribution: {@code amount} added to {@code counter} of pair (p, q) at time {@code t}. */
    private interface Sink {
        void add(int p, int q, int counter, long t, long amount);
    }

    /**
     * Indexes the transport events of {@code tl} (call under its monitor, sealed). {@code procOfLane} maps lanes to
     * process ids; {@code processes} are the run's processes, those a multicast can reach.
     */
    public static TransportIndex of(Timeline tl, int[] procOfLane, Set<Integer> processes) {
        Map<Integer, long[]> active = new HashMap<>();
        Map<Long, Long> firstMulticast = new HashMap<>();
        int n = tl.events();
        for (int k = 0; k < n; k++) {
            int id = tl.ordered(k);
            int p = proc(procOfLane, tl.laneOf(id));
            long t = tl.time(id);
            long[] a = active.computeIfAbsent(p, x -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            a[0] = Math.min(a[0], t);
            a[1] = Math.max(a[1], t);
            if (tl.kindOf(id) == EventType.FRAG_RECV.code && tl.field(id, 2) == TransportProbe.P_NAKACK2
                    && tl.peerOf(id) >= 0) {
                firstMulticast.merge(((long) tl.peerOf(id) << 32) | p, tl.field(id, 0), Math::min);
            }
        }
        int[] others = processes.stream().mapToInt(Integer::intValue).sorted().toArray();
        // pass 1: pairs and sizes; pass 2: times and prefix sums
        Map<Long, int[]> sizes = new HashMap<>();
        visit(tl, procOfLane, others, active, firstMulticast, (p, q, c, t, amount) ->
                sizes.computeIfAbsent(key(p, q), x -> new int[COUNTERS])[c]++);
        long[] keys = sizes.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        Map<Long, Integer> pairOf = new HashMap<>();
        int[] from = new int[keys.length], to = new int[keys.length];
        long[][] times = new long[keys.length * COUNTERS][], cum = new long[keys.length * COUNTERS][];
        for (int i = 0; i < keys.length; i++) {
            pairOf.put(keys[i], i);
            from[i] = (int) (keys[i] >> 32);
            to[i] = (int) keys[i];
            int[] sz = sizes.get(keys[i]);
            for (int c = 0; c < COUNTERS; c++) {
                times[i * COUNTERS + c] = new long[sz[c]];
                cum[i * COUNTERS + c] = amounts(c) ? new long[sz[c] + 1] : null;
            }
        }
        int[] fill = new int[keys.length * COUNTERS];
        visit(tl, procOfLane, others, active, firstMulticast, (p, q, c, t, amount) -> {
            int j = pairOf.get(key(p, q)) * COUNTERS + c;
            int i = fill[j]++;
            times[j][i] = t;
            if (cum[j] != null) {
                cum[j][i + 1] = cum[j][i] + amount;
            }
        });
        return new TransportIndex(from, to, times, cum);
    }

    private static boolean amounts(int c) {
        return c == BYTES_SENT || c == BYTES_RECV || c == RTT_SUM;
    }

    private static long key(int p, int q) {
        return ((long) p << 32) | (q & 0xFFFFFFFFL);
    }

    private static int proc(int[] procOfLane, int lane) {
        return lane < procOfLane.length ? procOfLane[lane] : lane;
    }

    /** Every contribution of every event, in time order: {@code Summary}'s counting, one event at a time. */
    private static void visit(Timeline tl, int[] procOfLane, int[] others, Map<Integer, long[]> active,
            Map<Long, Long> firstMulticast, Sink s) {
        int n = tl.events();
        for (int k = 0; k < n; k++) {
            int id = tl.ordered(k);
            int code = tl.kindOf(id);
            if (!TRANSPORT[code]) {
                continue; // program and message events carry no transport counter
            }
            int p = proc(procOfLane, tl.laneOf(id));
            int q = tl.peerOf(id);
            long t = tl.time(id);
            long d = tl.field(id, 3), e = tl.field(id, 4);
            if (code == EventType.FRAG_SEND.code) {
                if (q < 0) {
                    for (int other : others) {
                        Long first = firstMulticast.get(((long) p << 32) | other);
                        if (other != p && activeAt(active, other, t) && (first == null || tl.field(id, 0) >= first)) {
                            s.add(p, other, DATA_SENT, t, 1);
                            s.add(p, other, BYTES_SENT, t, d);
                        }
                    }
                } else {
                    s.add(p, q, DATA_SENT, t, 1);
                    s.add(p, q, BYTES_SENT, t, d);
                    if (afterEnd(active, q, t)) {
                        s.add(p, q, DATA_AFTER_END, t, 1);
                    }
                }
            } else if (code == EventType.RETRANS_SEND.code) {
                s.add(p, q, RETRANS, t, 1);
                s.add(p, q, BYTES_SENT, t, d);
                if (afterEnd(active, q, t)) {
                    s.add(p, q, DATA_AFTER_END, t, 1);
                }
                s.add(p, q, (e & 3) == EventType.CAUSE_NACK ? RETRANS_NACK : RETRANS_TIMEOUT, t, 1);
            } else if (code == EventType.FRAG_RECV.code) {
                s.add(q, p, DATA_RECV, t, 1);
                s.add(q, p, BYTES_RECV, t, d);
            } else if (code == EventType.ACK_SEND.code) {
                s.add(p, q, ACK_SENT, t, 1);
                if (afterEnd(active, q, t)) {
                    s.add(p, q, ACKS_AFTER_END, t, 1);
                }
            } else if (code == EventType.ACK_RECV.code) {
                s.add(q, p, ACK_RECV, t, 1);
                if (d > 0) {
                    s.add(p, q, RTT_SAMPLES, t, 1);
                    s.add(p, q, RTT_SUM, t, d);
                }
            } else if (code == EventType.NACK_SEND.code) {
                s.add(p, q, NACK_SENT, t, 1);
                if (afterEnd(active, q, t)) {
                    s.add(p, q, NACKS_AFTER_END, t, 1);
                }
            } else if (code == EventType.NACK_RECV.code) {
                s.add(q, p, NACK_RECV, t, 1);
            } else if (code == EventType.DUPLICATE_FRAG.code) {
                s.add(q, p, e == 1 ? DUP_MSG : DUP_FRAG, t, 1);
            } else if (code == EventType.PACKET_DISCARD.code) {
                s.add(q, p, DISCARDS, t, 1);
            }
        }
    }

    private static boolean activeAt(Map<Integer, long[]> active, int q, long t) {
        long[] a = active.get(q);
        return a != null && a[0] <= t && t <= a[1];
    }

    private static boolean afterEnd(Map<Integer, long[]> active, int q, long t) {
        long[] a = active.get(q);
        return a != null && t > a[1];
    }

    /** The counters of every pair with an event in [t0, t1), in {@code monitor summary}'s order. */
    public List<PairStats> window(long t0, long t1) {
        List<PairStats> out = new ArrayList<>();
        for (int i = 0; i < from.length; i++) {
            long[] v = new long[COUNTERS];
            boolean any = false;
            for (int c = 0; c < COUNTERS; c++) {
                long[] t = times[i * COUNTERS + c];
                int lo = Index.lower(t, 0, t.length, t0), hi = Index.lower(t, lo, t.length, t1);
                long[] s = cum[i * COUNTERS + c];
                v[c] = s == null ? hi - lo : s[hi] - s[lo];
                any |= hi > lo;
            }
            if (!any) {
                continue;
            }
            PairStats ps = new PairStats(from[i], to[i]);
            ps.dataSent = v[DATA_SENT];
            ps.retrans = v[RETRANS];
            ps.retransTimeout = v[RETRANS_TIMEOUT];
            ps.retransNack = v[RETRANS_NACK];
            ps.dataRecv = v[DATA_RECV];
            ps.bytesSent = v[BYTES_SENT];
            ps.bytesRecv = v[BYTES_RECV];
            ps.ackSent = v[ACK_SENT];
            ps.ackRecv = v[ACK_RECV];
            ps.nackSent = v[NACK_SENT];
            ps.nackRecv = v[NACK_RECV];
            ps.dupMessages = v[DUP_MSG];
            ps.dupFragments = v[DUP_FRAG];
            ps.discards = v[DISCARDS];
            ps.dataAfterEnd = v[DATA_AFTER_END];
            ps.acksAfterEnd = v[ACKS_AFTER_END];
            ps.nacksAfterEnd = v[NACKS_AFTER_END];
            ps.rttSamples = v[RTT_SAMPLES];
            ps.rttSum = v[RTT_SUM];
            // first data packet (sent or received) and last received in the window: the throughput's interval
            long[] sent = times[i * COUNTERS + DATA_SENT], recv = times[i * COUNTERS + DATA_RECV];
            int s0 = Index.lower(sent, 0, sent.length, t0), r0 = Index.lower(recv, 0, recv.length, t0);
            int r1 = Index.lower(recv, r0, recv.length, t1);
            if (s0 < sent.length && sent[s0] < t1) {
                ps.first = sent[s0];
            }
            if (r1 > r0) {
                ps.first = Math.min(ps.first, recv[r0]);
                ps.last = recv[r1 - 1];
            }
            out.add(ps);
        }
        return out;
    }

    /** The window's table as JSON-ready rows: {@code monitor summary --json}'s pairs without retransmission levels. */
    public List<Object> windowJson(long t0, long t1) {
        List<Object> out = new ArrayList<>();
        for (PairStats ps : window(t0, t1)) {
            Map<String, Object> m = ps.toJson();
            m.remove("retransmissionLevels");
            out.add(m);
        }
        return out;
    }
}
