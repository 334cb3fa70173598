package org.dsmscope.viewer.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.TreeMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dsmscope.monitor.analysis.PairStats;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.probe.TransportProbe;
import org.dsmscope.replay.LongIntMap;

/**
 * The transport summary of seed 002 §4.1.3 per process pair for any window of a {@link Timeline}, by prefix sums:
 * each (directed pair, counter) keeps the times of the events that add to it, in time order, with prefix sums of the
 * amounts (bytes, round-trip times), so that a window's table is two binary searches per pair and counter,
 * O(pairs × counters × log n), whatever the number of events inside. Events are attributed to pairs and counters as
 * {@code monitor summary} ({@code Summary}) counts them over the whole run: a multicast fragment counts for each
 * process that was recording when it was sent and had joined (its first NAKACK2 seqno from the sender), packets sent
 * after the receiver's last event count apart. Those two conditions depend on events still to come in a live run,
 * so they are applied when a window is asked, not when an event is indexed: each sender's multicast fragments are
 * kept by time with their seqnos, the packets that could be after their receiver's end by time, and a window's
 * count is clipped to the receiver's recorded span (and first seqno) at the time of asking. The index grows
 * ({@link #update}: the events added since the last call, sorted into the tail), so a live run's update costs the new
 * events only. A window's table is the run's counting restricted to the events in [t0, t1); the whole run's window
 * equals {@code monitor summary}'s pairs except {@code retransmissionLevels} (the highest attempt per fragment is not
 * additive), which a window's table leaves out.
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

    /** Pair index by key (from << 32 | to). */
    private final LongIntMap pairOf = new LongIntMap(64);
    private long[] pairKeys = new long[16];
    /** Per pair, per counter: the contributing events by time (amount a: the amount added), or null. */
    private SortedRun[][] runs = new SortedRun[16][];
    private int pairs;
    /** Per sender: its multicast data fragments by time (amount a: bytes, b: seqno), and whether seqnos ascend. */
    private final TreeMap<Integer, SortedRun> multicast = new TreeMap<>();
    private final Map<Integer, boolean[]> ascending = new HashMap<>();
    /** Per process: first and last event time (its recorded span so far). */
    private final Map<Integer, long[]> active = new HashMap<>();
    /** First NAKACK2 seqno received from p by q, by key (p, q). */
    private final LongIntMap firstSlot = new LongIntMap(16);
    private long[] first = new long[16];
    private int firsts;
    /** The run's processes (those a multicast can reach), sorted. */
    private int[] others = new int[0];
    private int seen;
    private final List<SortedRun> dirty = new ArrayList<>();

    /** An empty index; {@link #update} adds a timeline's events. */
    public TransportIndex() {
    }

    /**
     * Indexes the transport events of {@code tl} (call under its monitor, sealed). {@code procOfLane} maps lanes to
     * process ids; {@code processes} are the run's processes, those a multicast can reach.
     */
    public static TransportIndex of(Timeline tl, int[] procOfLane, Set<Integer> processes) {
        TransportIndex ix = new TransportIndex();
        ix.update(tl, procOfLane, processes);
        return ix;
    }

    /** Adds the events of {@code tl} added since the last call (under its monitor). */
    public void update(Timeline tl, int[] procOfLane, Set<Integer> processes) {
        if (others.length != processes.size()) {
            others = processes.stream().mapToInt(Integer::intValue).sorted().toArray();
        }
        int n = tl.events();
        for (int id = seen; id < n; id++) {
            int p = proc(procOfLane, tl.laneOf(id));
            long t = tl.time(id);
            long[] a = active.get(p);
            if (a == null) {
                active.put(p, a = new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            }
            a[0] = Math.min(a[0], t);
            a[1] = Math.max(a[1], t);
            if (tl.kindOf(id) == EventType.FRAG_RECV.code && tl.field(id, 2) == TransportProbe.P_NAKACK2
                    && tl.peerOf(id) >= 0) {
                firstMulticast(key(tl.peerOf(id), p), tl.field(id, 0));
            }
            if (TRANSPORT[tl.kindOf(id)]) {
                count(tl, id, p, t);
            }
        }
        seen = n;
        for (SortedRun r : dirty) {
            r.settle();
        }
        dirty.clear();
        for (Map.Entry<Integer, SortedRun> e : multicast.entrySet()) {
            SortedRun r = e.getValue();
            boolean[] up = ascending.get(e.getKey());
            for (int i = Math.max(1, r.settle()); up[0] && i < r.size(); i++) {
                up[0] = r.amountB(i - 1) <= r.amountB(i);
            }
        }
    }

    private void firstMulticast(long key, long seqno) {
        int slot = firstSlot.get(key);
        if (slot < 0) {
            if (firsts == first.length) {
                first = java.util.Arrays.copyOf(first, firsts * 2);
            }
            firstSlot.put(key, firsts);
            first[firsts++] = seqno;
        } else {
            first[slot] = Math.min(first[slot], seqno);
        }
    }

    private static boolean amounts(int c) {
        return c == BYTES_SENT || c == BYTES_RECV || c == RTT_SUM;
    }

    private static boolean afterEnd(int c) {
        return c == DATA_AFTER_END || c == ACKS_AFTER_END || c == NACKS_AFTER_END;
    }

    private static long key(int p, int q) {
        return ((long) p << 32) | (q & 0xFFFFFFFFL);
    }

    private static int proc(int[] procOfLane, int lane) {
        return lane < procOfLane.length ? procOfLane[lane] : lane;
    }

    /** Adds {@code amount} to {@code counter} of pair (p, q) at time {@code t}. */
    private void add(int p, int q, int counter, long t, int id, long amount) {
        long k = key(p, q);
        int i = pairOf.get(k);
        if (i < 0) {
            if (pairs == pairKeys.length) {
                pairKeys = java.util.Arrays.copyOf(pairKeys, pairs * 2);
                runs = java.util.Arrays.copyOf(runs, pairs * 2);
            }
            i = pairs++;
            pairOf.put(k, i);
            pairKeys[i] = k;
            runs[i] = new SortedRun[COUNTERS];
        }
        SortedRun r = runs[i][counter];
        if (r == null) {
            r = runs[i][counter] = new SortedRun(16, amounts(counter));
        }
        if (r.size() == r.added()) {
            dirty.add(r);
        }
        r.add(t, id, amount, 0);
    }

    /** Every contribution of one transport event: {@code Summary}'s counting, the conditions left to the query. */
    private void count(Timeline tl, int id, int p, long t) {
        int code = tl.kindOf(id);
        int q = tl.peerOf(id);
        long d = tl.field(id, 3), e = tl.field(id, 4);
        if (code == EventType.FRAG_SEND.code) {
            if (q < 0) {
                SortedRun r = multicast.get(p);
                if (r == null) {
                    multicast.put(p, r = new SortedRun(64, true));
                    ascending.put(p, new boolean[] {true});
                }
                r.add(t, id, d, tl.field(id, 0));
            } else {
                add(p, q, DATA_SENT, t, id, 1);
                add(p, q, BYTES_SENT, t, id, d);
                add(p, q, DATA_AFTER_END, t, id, 1);
            }
        } else if (code == EventType.RETRANS_SEND.code) {
            add(p, q, RETRANS, t, id, 1);
            add(p, q, BYTES_SENT, t, id, d);
            add(p, q, DATA_AFTER_END, t, id, 1);
            add(p, q, (e & 3) == EventType.CAUSE_NACK ? RETRANS_NACK : RETRANS_TIMEOUT, t, id, 1);
        } else if (code == EventType.FRAG_RECV.code) {
            add(q, p, DATA_RECV, t, id, 1);
            add(q, p, BYTES_RECV, t, id, d);
        } else if (code == EventType.ACK_SEND.code) {
            add(p, q, ACK_SENT, t, id, 1);
            add(p, q, ACKS_AFTER_END, t, id, 1);
        } else if (code == EventType.ACK_RECV.code) {
            add(q, p, ACK_RECV, t, id, 1);
            if (d > 0) {
                add(p, q, RTT_SAMPLES, t, id, 1);
                add(p, q, RTT_SUM, t, id, d);
            }
        } else if (code == EventType.NACK_SEND.code) {
            add(p, q, NACK_SENT, t, id, 1);
            add(p, q, NACKS_AFTER_END, t, id, 1);
        } else if (code == EventType.NACK_RECV.code) {
            add(q, p, NACK_RECV, t, id, 1);
        } else if (code == EventType.DUPLICATE_FRAG.code) {
            add(q, p, e == 1 ? DUP_MSG : DUP_FRAG, t, id, 1);
        } else if (code == EventType.PACKET_DISCARD.code) {
            add(q, p, DISCARDS, t, id, 1);
        }
    }

    /** The counters of every pair with an event in [t0, t1), in {@code monitor summary}'s order. */
    public List<PairStats> window(long t0, long t1) {
        long[] keys = new long[pairs + multicast.size() * others.length];
        int nk = 0;
        for (int i = 0; i < pairs; i++) {
            keys[nk++] = pairKeys[i];
        }
        for (int p : multicast.keySet()) {
            for (int q : others) {
                if (q != p) {
                    keys[nk++] = key(p, q);
                }
            }
        }
        java.util.Arrays.sort(keys, 0, nk);
        List<PairStats> out = new ArrayList<>();
        long[] v = new long[COUNTERS];
        long[] mc = new long[3];
        for (int k = 0; k < nk; k++) {
            if (k > 0 && keys[k] == keys[k - 1]) {
                continue;
            }
            int p = (int) (keys[k] >> 32), q = (int) keys[k];
            int i = pairOf.get(keys[k]);
            boolean any = false;
            long firstSent = Long.MAX_VALUE;
            java.util.Arrays.fill(v, 0);
            SortedRun[] r = i < 0 ? new SortedRun[COUNTERS] : runs[i];
            for (int c = 0; c < COUNTERS; c++) {
                if (r[c] == null) {
                    continue;
                }
                int lo = r[c].lower(t0), hi = r[c].lower(lo, r[c].size(), t1);
                if (afterEnd(c)) {
                    long[] a = active.get(q);
                    lo = a == null ? hi : Math.max(lo, r[c].upper(a[1]));
                }
                hi = Math.max(lo, hi);
                v[c] = amounts(c) ? r[c].sumA(lo, hi) : hi - lo;
                any |= hi > lo;
                if (c == DATA_SENT && hi > lo) {
                    firstSent = r[c].key(lo);
                }
            }
            if (multicast(p, q, t0, t1, mc)) {
                v[DATA_SENT] += mc[0];
                v[BYTES_SENT] += mc[1];
                firstSent = Math.min(firstSent, mc[2]);
                any = true;
            }
            if (!any) {
                continue;
            }
            PairStats ps = new PairStats(p, q);
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
            if (firstSent != Long.MAX_VALUE) {
                ps.first = firstSent;
            }
            SortedRun recv = r[DATA_RECV];
            if (recv != null) {
                int r0 = recv.lower(t0), r1 = recv.lower(r0, recv.size(), t1);
                if (r1 > r0) {
                    ps.first = Math.min(ps.first, recv.key(r0));
                    ps.last = recv.key(r1 - 1);
                }
            }
            out.add(ps);
        }
        return out;
    }

    /**
     * Sender p's multicast fragments in [t0, t1) meant for q (q recording then, the seqno not below the first q
     * received from p): {@code out} = {count, bytes, first time}; false when none.
     */
    private boolean multicast(int p, int q, long t0, long t1, long[] out) {
        SortedRun r = multicast.get(p);
        long[] a = active.get(q);
        if (r == null || a == null || p == q || java.util.Arrays.binarySearch(others, q) < 0) {
            return false;
        }
        long from = Math.max(t0, a[0]), to = Math.min(t1, a[1] == Long.MAX_VALUE ? a[1] : a[1] + 1);
        if (from >= to) {
            return false;
        }
        int lo = r.lower(from), hi = r.lower(lo, r.size(), to);
        int slot = firstSlot.get(key(p, q));
        long min = slot < 0 ? Long.MIN_VALUE : first[slot];
        long count = 0, bytes = 0, at = Long.MAX_VALUE;
        if (ascending.get(p)[0]) {
            int l = lo, h = hi;
            while (l < h) {
                int mid = (l + h) >>> 1;
                if (r.amountB(mid) < min) {
                    l = mid + 1;
                } else {
                    h = mid;
                }
            }
            count = hi - l;
            bytes = r.sumA(l, hi);
            at = count > 0 ? r.key(l) : at;
        } else {
            for (int i = lo; i < hi; i++) {
                if (r.amountB(i) >= min) {
                    count++;
                    bytes += r.sumA(i, i + 1);
                    at = Math.min(at, r.key(i));
                }
            }
        }
        out[0] = count;
        out[1] = bytes;
        out[2] = at;
        return count > 0;
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
