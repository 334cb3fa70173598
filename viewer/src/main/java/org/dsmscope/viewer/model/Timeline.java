package org.dsmscope.viewer.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the space-time view of seed 002 §4.3 shows, in primitive arrays: lanes (one per process or thread) with their
 * state intervals, events (the "series of small rectangles" of each bar), arrows (messages, §4.3; synchronization,
 * §4.6; lock hand-offs and barrier releases of a replayed trace set) and phases. Times are relative to
 * {@link #origin} (ns of the aligned clock for recordings, pseudo clocks for replays), so that they stay exact as
 * JavaScript numbers. Events and arrows keep their insertion index as id; time indexes ({@link SortedRun}) sort them
 * and grow with the additions ({@link #seal}), so a live run's update costs the new items, not the whole content.
 * Written and read under the timeline's monitor ({@code synchronized}).
 */
public final class Timeline {
    /** Drawing of an event kind: a rectangle over its duration, a tick, or not drawn (arrows show it). */
    public enum Draw { RECT, TICK, NONE }

    /** One kind of event: its name, level, the names of fields a..e ("-" unused) and how it is drawn. */
    public static final class Kind {
        /** Name (the seed's event name). */
        public final String name;
        /** Level (class) of the event: program, message, transport, replay. */
        public final String level;
        /** Names of fields a..e. */
        public final String[] fields;
        /** How the page draws it. */
        public final Draw draw;

        /** A kind. */
        public Kind(String name, String level, String[] fields, Draw draw) {
            this.name = name;
            this.level = level;
            this.fields = fields;
            this.draw = draw;
        }

        /** Index of field {@code f} (0..4), or -1. */
        public int field(String f) {
            for (int i = 0; i < fields.length; i++) {
                if (fields[i].equals(f)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Arrow kinds. */
    public static final int MESSAGE = 0, SYNC = 1, LOCK = 2, BARRIER = 3;
    /** Names of the arrow kinds, by kind. */
    public static final String[] ARROW_KINDS = {"message", "sync", "lock", "barrier"};

    /** Title shown on the page. */
    public final String title;
    /** "recording", "replay" or "live". */
    public final String source;
    /** Unit of times: "ns" or "clock". */
    public final String unit;
    /** State names; state 0 is the lane's default (computation, busy) between explicit intervals. */
    public final String[] states;
    /** Event kinds by code (null where unused). */
    public final Kind[] kinds;
    /** Absolute time of relative time 0. */
    public long origin;
    /** Lanes. */
    public final List<Lane> lanes = new ArrayList<>();
    /** Damage or replay error to show in a banner, or null. */
    public volatile String damage;
    /** Notes to show under the title. */
    public final List<String> notes = new ArrayList<>();

    // events, by id
    private long[] time = new long[1024];
    private long[] dur = new long[1024];
    private int[] lane = new int[1024];
    private byte[] kind = new byte[1024];
    private int[] peer = new int[1024];
    private long[][] field = new long[5][1024];
    private int events;
    /** Event ids sorted by time. */
    private final SortedRun order = new SortedRun(1024, false);

    // arrows, by id
    private long[] aFrom = new long[256], aTo = new long[256], aKey = new long[256];
    private int[] aFromLane = new int[256], aToLane = new int[256], aSrc = new int[256], aDst = new int[256];
    private byte[] aKind = new byte[256], aType = new byte[256];
    private int arrows;
    /** Arrow ids sorted by start time. */
    private final SortedRun aOrder = new SortedRun(256, false);
    private long maxArrowSpan;
    private long maxEventDuration;

    // phases
    private final List<long[]> phases = new ArrayList<>();
    private final List<String> phaseNames = new ArrayList<>();
    private long end;
    private long version;
    private final Index index = new Index();

    /** An empty timeline. */
    public Timeline(String title, String source, String unit, String[] states, Kind[] kinds) {
        this.title = title;
        this.source = source;
        this.unit = unit;
        this.states = states;
        this.kinds = kinds;
    }

    /** One bar of the space-time view: a process or thread, its extent and its state intervals. */
    public static final class Lane {
        /** Lane name, e.g. m0 or thread 3. */
        public final String name;
        /** Host (or architecture) label, may be empty. */
        public String host = "";
        /** Where the process ran (host name, os.arch, OS, cores, JVM), null where the input does not say. */
        public org.dsmscope.monitor.event.HostInfo hostInfo;
        /** First and last time (relative). */
        public long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
        /** State intervals as added, sorted by start once settled: start, end, state (non-default). */
        private long[] os = new long[64], oe = new long[64];
        /** The intervals with overlaps clipped (a later interval starts where the earlier ends), and their states. */
        long[] is = new long[64], ie = new long[64];
        byte[] st = new byte[64];
        int n;
        /** Intervals already sorted, clipped and summed. */
        private int settled;
        /** Totals per state over the whole lane (ns or clocks), set by the loader from the one computation. */
        public long[] totals;

        Lane(String name) {
            this.name = name;
        }

        /** Number of state intervals. */
        public int intervals() {
            return n;
        }

        /** Per state s ≥ 1, {@code cum[s][i]}: time in state s of intervals 0..i-1 (after {@link #sort}). */
        long[][] cum = new long[0][];

        void add(long from, long to, int state) {
            if (n == os.length) {
                os = Arrays.copyOf(os, n * 2);
                oe = Arrays.copyOf(oe, n * 2);
                is = Arrays.copyOf(is, n * 2);
                ie = Arrays.copyOf(ie, n * 2);
                st = Arrays.copyOf(st, n * 2);
            }
            os[n] = from;
            oe[n] = to;
            st[n] = (byte) state;
            n++;
        }

        /**
         * Sorts the intervals added since the last call into place (stable, by start), clips overlaps and extends
         * the sums from the first position that changed on: amortised O(new intervals) while they come in order.
         */
        void sort(int states) {
            if (cum.length != states) {
                cum = new long[states][];
                for (int s = 1; s < states; s++) {
                    cum[s] = new long[os.length + 1];
                }
                settled = 0;
            }
            if (settled == n) {
                return;
            }
            int m = n - settled;
            long[] tail = Arrays.copyOfRange(os, settled, n);
            int[] idx = Sorts.byKey(tail, m);
            int p = SortedRun.upper(os, 0, settled, tail[idx[0]]);
            int old = settled - p;
            long[] s2 = new long[old + m], e2 = new long[old + m];
            byte[] t2 = new byte[old + m];
            int i = p, j = 0, o = 0;
            while (i < settled || j < m) {
                int from = j == m || i < settled && os[i] <= tail[idx[j]] ? i++ : settled + idx[j++];
                s2[o] = os[from];
                e2[o] = oe[from];
                t2[o++] = st[from];
            }
            System.arraycopy(s2, 0, os, p, o);
            System.arraycopy(e2, 0, oe, p, o);
            System.arraycopy(t2, 0, st, p, o);
            for (int s = 1; s < states; s++) {
                if (cum[s].length < n + 1) {
                    cum[s] = Arrays.copyOf(cum[s], os.length + 1);
                }
            }
            // clipped ends are the running maximum of the ends: the clipping of the prefix before p stands
            long maxEnd = p > 0 ? ie[p - 1] : Long.MIN_VALUE;
            for (int k = p; k < n; k++) {
                if (oe[k] <= maxEnd) {
                    is[k] = maxEnd; // inside an earlier interval: nothing left
                    ie[k] = maxEnd;
                } else {
                    is[k] = Math.max(os[k], maxEnd);
                    ie[k] = oe[k];
                }
                maxEnd = Math.max(maxEnd, ie[k]);
                for (int s = 1; s < states; s++) {
                    cum[s][k + 1] = cum[s][k] + (st[k] == s ? ie[k] - is[k] : 0);
                }
            }
            settled = n;
        }

        /** Number of intervals starting before {@code t}. */
        int before(long t) {
            return Index.lower(is, 0, n, t);
        }

        /** Time in state {@code s} (≥ 1) before {@code t}, given {@code k = before(t)}: O(1) from the sums. */
        long upTo(int s, long t, int k) {
            long v = cum[s][k > 0 ? k - 1 : 0];
            if (k > 0 && st[k - 1] == s) {
                v += Math.max(0, Math.min(ie[k - 1], t) - is[k - 1]);
            }
            return v;
        }

        /** First interval index whose end is after {@code t} (intervals sorted, overlaps clipped). */
        int first(long t) {
            int lo = before(t);
            return lo > 0 && ie[lo - 1] > t ? lo - 1 : lo;
        }
    }

    /** Adds a lane and returns its index. */
    public synchronized int addLane(String name) {
        lanes.add(new Lane(name));
        version++;
        return lanes.size() - 1;
    }

    /** Lane {@code i}. */
    public Lane lane(int i) {
        return lanes.get(i);
    }

    /** Extends lane {@code l}'s extent to cover {@code t}. */
    public synchronized void touch(int l, long t) {
        Lane ln = lanes.get(l);
        ln.start = Math.min(ln.start, t);
        ln.end = Math.max(ln.end, t);
        end = Math.max(end, t);
    }

    /** Adds a state interval [from, to) of {@code state} (not 0) to lane {@code l}. */
    public synchronized void state(int l, long from, long to, int state) {
        if (to <= from) {
            return;
        }
        Lane ln = lanes.get(l);
        ln.add(from, to, state);
        ln.start = Math.min(ln.start, from);
        ln.end = Math.max(ln.end, to);
        end = Math.max(end, to);
        version++;
    }

    /** Adds an event and returns its id. */
    public synchronized int event(long t, long duration, int l, int k, int pr, long a, long b, long c, long d, long e) {
        if (events == time.length) {
            int cap = events * 2;
            time = Arrays.copyOf(time, cap);
            dur = Arrays.copyOf(dur, cap);
            lane = Arrays.copyOf(lane, cap);
            kind = Arrays.copyOf(kind, cap);
            peer = Arrays.copyOf(peer, cap);
            for (int f = 0; f < 5; f++) {
                field[f] = Arrays.copyOf(field[f], cap);
            }
        }
        int id = events++;
        time[id] = t;
        dur[id] = duration;
        lane[id] = l;
        kind[id] = (byte) k;
        peer[id] = pr;
        field[0][id] = a;
        field[1][id] = b;
        field[2][id] = c;
        field[3][id] = d;
        field[4][id] = e;
        order.add(t, id, 0, 0);
        maxEventDuration = Math.max(maxEventDuration, duration);
        Lane ln = lanes.get(l);
        ln.start = Math.min(ln.start, t);
        ln.end = Math.max(ln.end, t + Math.max(0, duration));
        end = Math.max(end, t + Math.max(0, duration));
        version++;
        return id;
    }

    /** Adds an arrow and returns its id; {@code src} / {@code dst} are event ids or -1. */
    public synchronized int arrow(int k, int fromLane, long from, int toLane, long to, long key, int type, int src,
            int dst) {
        if (arrows == aFrom.length) {
            int cap = arrows * 2;
            aFrom = Arrays.copyOf(aFrom, cap);
            aTo = Arrays.copyOf(aTo, cap);
            aKey = Arrays.copyOf(aKey, cap);
            aFromLane = Arrays.copyOf(aFromLane, cap);
            aToLane = Arrays.copyOf(aToLane, cap);
            aSrc = Arrays.copyOf(aSrc, cap);
            aDst = Arrays.copyOf(aDst, cap);
            aKind = Arrays.copyOf(aKind, cap);
            aType = Arrays.copyOf(aType, cap);
        }
        int id = arrows++;
        aKind[id] = (byte) k;
        aFromLane[id] = fromLane;
        aFrom[id] = from;
        aToLane[id] = toLane;
        aTo[id] = to;
        aKey[id] = key;
        aType[id] = (byte) type;
        aSrc[id] = src;
        aDst[id] = dst;
        aOrder.add(from, id, 0, 0);
        maxArrowSpan = Math.max(maxArrowSpan, Math.abs(to - from));
        end = Math.max(end, Math.max(from, to));
        version++;
        return id;
    }

    /** Adds a phase [from, to) named {@code name}. */
    public synchronized void phase(long from, long to, String name) {
        phases.add(new long[] {from, to});
        phaseNames.add(name);
        end = Math.max(end, to);
        version++;
    }

    /**
     * Sorts what was added since the last call into the time indexes (call after loading, and before reading while
     * live): the new items are sorted and merged into the tail, so the cost follows the additions, not the content.
     */
    public synchronized void seal() {
        order.settle();
        aOrder.settle();
        for (Lane l : lanes) {
            l.sort(states.length);
        }
    }

    /** The time indexes of the current content, brought up to date with the additions (under the monitor). */
    Index index() {
        seal();
        index.update(this);
        return index;
    }

    /** Number of events. */
    public synchronized int events() {
        return events;
    }

    /** Number of arrows. */
    public synchronized int arrows() {
        return arrows;
    }

    /** Changes so far (grows with every addition: the page polls it while live). */
    public synchronized long version() {
        return version;
    }

    /** Last relative time seen. */
    public synchronized long end() {
        return end;
    }

    /** Phases as {from, to}. */
    public synchronized List<long[]> phases() {
        return new ArrayList<>(phases);
    }

    /** Phase names. */
    public synchronized List<String> phaseNames() {
        return new ArrayList<>(phaseNames);
    }

    // ---------------------------------------------------------------- accessors for the window queries

    /** Time of event {@code id}. */
    public long time(int id) {
        return time[id];
    }

    /** Duration of event {@code id}. */
    public long duration(int id) {
        return dur[id];
    }

    /** Lane of event {@code id}. */
    public int laneOf(int id) {
        return lane[id];
    }

    /** Kind code of event {@code id}. */
    public int kindOf(int id) {
        return kind[id];
    }

    /** Peer of event {@code id}. */
    public int peerOf(int id) {
        return peer[id];
    }

    /** Field {@code f} (0..4 for a..e) of event {@code id}. */
    public long field(int id, int f) {
        return field[f][id];
    }

    /** The event id at position {@code k} of the time order. */
    public int ordered(int k) {
        return order.id(k);
    }

    /** First position in the time order whose event time is at least {@code t}. */
    public int lowerBound(long t) {
        return order.lower(t);
    }

    /** Arrow id at position {@code k} of the order by start time. */
    public int arrowOrdered(int k) {
        return aOrder.id(k);
    }

    /** First arrow position whose start is at least {@code t}. */
    public int arrowLowerBound(long t) {
        return aOrder.lower(t);
    }

    /** Longest arrow (|to − from|), to find the arrows that cross a window's start. */
    public long maxArrowSpan() {
        return maxArrowSpan;
    }

    /** Longest event duration, to find the events that cross a window's start. */
    public long maxEventDuration() {
        return maxEventDuration;
    }

    /** Arrow kind. */
    public int arrowKind(int id) {
        return aKind[id];
    }

    /** Arrow start lane. */
    public int arrowFromLane(int id) {
        return aFromLane[id];
    }

    /** Arrow end lane. */
    public int arrowToLane(int id) {
        return aToLane[id];
    }

    /** Arrow start time. */
    public long arrowFrom(int id) {
        return aFrom[id];
    }

    /** Arrow end time. */
    public long arrowTo(int id) {
        return aTo[id];
    }

    /** Arrow key: message context (segment), eventcount, lock or barrier address. */
    public long arrowKey(int id) {
        return aKey[id];
    }

    /** Message type of a message arrow (0 data, 1 request, 2 reply), else -1. */
    public int arrowType(int id) {
        return aType[id];
    }

    /** Source event id or -1. */
    public int arrowSrc(int id) {
        return aSrc[id];
    }

    /** Destination event id or -1. */
    public int arrowDst(int id) {
        return aDst[id];
    }
}
