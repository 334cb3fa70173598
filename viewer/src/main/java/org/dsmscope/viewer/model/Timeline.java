package org.dsmscope.viewer.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the space-time view of seed 002 §4.3 shows, in primitive arrays: lanes (one per process or thread) with their
 * state intervals, events (the "series of small rectangles" of each bar), arrows (messages, §4.3; synchronization,
 * §4.6; lock hand-offs and barrier releases of a replayed trace set) and phases. Times are relative to
 * {@link #origin} (ns of the aligned clock for recordings, pseudo clocks for replays), so that they stay exact as
 * JavaScript numbers. Events and arrows keep their insertion index as id; a time index ({@link #order}) sorts them.
 * Written by one thread and read under the timeline's monitor by the server's threads ({@code synchronized}).
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
    private int[] order = new int[1024];
    private boolean ordered = true;

    // arrows, by id
    private long[] aFrom = new long[256], aTo = new long[256], aKey = new long[256];
    private int[] aFromLane = new int[256], aToLane = new int[256], aSrc = new int[256], aDst = new int[256];
    private byte[] aKind = new byte[256], aType = new byte[256];
    private int arrows;
    private int[] aOrder = new int[256];
    private boolean aOrdered = true;
    private long maxArrowSpan;
    private long maxEventDuration;

    // phases
    private final List<long[]> phases = new ArrayList<>();
    private final List<String> phaseNames = new ArrayList<>();
    private long end;
    private long version;
    private boolean bulk = true;
    private Index index;
    private long indexVersion = -1;

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
        /** State intervals: start, end, state (non-default). */
        long[] is = new long[64], ie = new long[64];
        byte[] st = new byte[64];
        int n;
        boolean sorted = true;
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
        boolean dirty;

        void add(long from, long to, int state) {
            if (n == is.length) {
                is = Arrays.copyOf(is, n * 2);
                ie = Arrays.copyOf(ie, n * 2);
                st = Arrays.copyOf(st, n * 2);
            }
            if (n > 0 && from < is[n - 1]) {
                sorted = false;
            }
            is[n] = from;
            ie[n] = to;
            st[n] = (byte) state;
            n++;
            dirty = true;
        }

        /** Sorts the intervals, clips overlaps (a later interval starts where the earlier ends) and sums them. */
        void sort(int states) {
            if (!dirty && cum.length == states) {
                return;
            }
            if (!sorted) {
                int[] idx = Sorts.byKey(is, n);
                long[] s2 = new long[is.length], e2 = new long[is.length];
                byte[] t2 = new byte[is.length];
                for (int k = 0; k < n; k++) {
                    s2[k] = is[idx[k]];
                    e2[k] = ie[idx[k]];
                    t2[k] = st[idx[k]];
                }
                is = s2;
                ie = e2;
                st = t2;
                sorted = true;
            }
            long maxEnd = Long.MIN_VALUE;
            for (int k = 0; k < n; k++) {
                if (ie[k] <= maxEnd) {
                    is[k] = maxEnd; // inside an earlier interval: nothing left
                    ie[k] = maxEnd;
                } else if (is[k] < maxEnd) {
                    is[k] = maxEnd;
                }
                maxEnd = Math.max(maxEnd, ie[k]);
            }
            cum = new long[states][];
            for (int s = 1; s < states; s++) {
                long[] c = new long[n + 1];
                for (int k = 0; k < n; k++) {
                    c[k + 1] = c[k] + (st[k] == s ? ie[k] - is[k] : 0);
                }
                cum[s] = c;
            }
            dirty = false;
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
            order = Arrays.copyOf(order, cap);
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
        if (bulk) {
            order[id] = id;
            ordered &= id == 0 || time[id - 1] <= t;
        } else {
            insert(order, id, time);
        }
        maxEventDuration = Math.max(maxEventDuration, duration);
        Lane ln = lanes.get(l);
        ln.start = Math.min(ln.start, t);
        ln.end = Math.max(ln.end, t + Math.max(0, duration));
        end = Math.max(end, t + Math.max(0, duration));
        version++;
        return id;
    }

    /** Puts {@code id} into the sorted {@code ord[0..id)} after every id of an equal or smaller key. */
    private static void insert(int[] ord, int id, long[] keys) {
        long t = keys[id];
        int lo = 0, hi = id;
        if (id == 0 || keys[ord[id - 1]] <= t) {
            lo = id;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (keys[ord[mid]] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        System.arraycopy(ord, lo, ord, lo + 1, id - lo);
        ord[lo] = id;
    }

    /**
     * Bulk loading ({@code true}): additions only append and {@link #seal} sorts once; otherwise (live) every
     * addition keeps the time indexes sorted at once.
     */
    public synchronized void bulk(boolean on) {
        if (!on) {
            seal();
        }
        bulk = on;
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
            aOrder = Arrays.copyOf(aOrder, cap);
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
        if (bulk) {
            aOrder[id] = id;
            aOrdered &= id == 0 || aFrom[id - 1] <= from;
        } else {
            insert(aOrder, id, aFrom);
        }
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

    /** Sorts the time indexes (call after loading, and before reading while live). */
    public synchronized void seal() {
        if (!ordered) {
            order = grow(Sorts.byKey(time, events), time.length);
            ordered = true;
        }
        if (!aOrdered) {
            aOrder = grow(Sorts.byKey(aFrom, arrows), aFrom.length);
            aOrdered = true;
        }
        for (Lane l : lanes) {
            l.sort(states.length);
        }
    }

    private static int[] grow(int[] a, int cap) {
        return a.length >= cap ? a : Arrays.copyOf(a, cap);
    }

    /** The time indexes of the current content (rebuilt after additions; call under the monitor). */
    Index index() {
        seal();
        if (index == null || indexVersion != version) {
            index = new Index(this);
            indexVersion = version;
        }
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
        return order[k];
    }

    /** First position in the time order whose event time is at least {@code t}. */
    public int lowerBound(long t) {
        return lowerBound(order, time, events, t);
    }

    /** First position {@code k} of {@code ord[0..n)} (sorted by {@code keys}) with {@code keys[ord[k]] >= t}. */
    private static int lowerBound(int[] ord, long[] keys, int n, long t) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (keys[ord[mid]] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Arrow id at position {@code k} of the order by start time. */
    public int arrowOrdered(int k) {
        return aOrder[k];
    }

    /** First arrow position whose start is at least {@code t}. */
    public int arrowLowerBound(long t) {
        return lowerBound(aOrder, aFrom, arrows, t);
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
