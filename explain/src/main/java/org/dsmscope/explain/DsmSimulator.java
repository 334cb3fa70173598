package org.dsmscope.explain;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.CallType;

/**
 * The replay plug-in that makes seed 003's input from a trace set (SPEC §8): a page-based software DSM with lazy
 * release consistency and multiple writers (TreadMarks-style twins and diffs), or, at cache-line granularity, an
 * invalidation-based hardware protocol (MSI, unbounded caches: only cold and coherence misses). It writes every
 * fault and every synchronization operation that invalidates something into a {@link FaultSink}.
 *
 * <p>Pages: a processor faults on its first touch of a page, on an access to a page that write notices invalidated,
 * and on its first write to a page in an interval (a write to a read-only copy: it makes a twin; the diff is made
 * at the release that ends the interval, and the page is read-only again). A release (unlock, barrier arrival,
 * wake-up, latch count-down, spawn, a thread's end) closes the processor's interval; an acquire (lock, barrier
 * departure, wake-up received, join, a spawned thread's start) applies the write notices of every interval the
 * releaser had seen and the acquirer had not (vector timestamps), invalidating the acquirer's copies. Lines: a
 * write by one processor invalidates every other copy at once (one {@code invalidate} record per copy); a read of
 * a line another processor holds modified downgrades that copy, so the writer's next write faults again
 * (upgrade). Accesses to synchronization variables are left out, as CIAT leaves them out of communication.
 *
 * <p>With a split map (false sharing, {@link FalseSharing}) the lines named there are divided into the parts
 * given, each part its own line, and the coherence misses per original line are counted: the replay of the same
 * trace with the falsely shared data on separate lines.
 */
public final class DsmSimulator implements Analysis {
    private static final int VALID = 1;
    private static final int WRITABLE = 2;
    private static final int HAD = 4;

    private final boolean lines;
    private final int shift;
    private final int unitSize;
    private final FaultSink sink;
    private final LongIntTable splitIndex;
    private final byte[][] splitParts;
    private final LongIntTable misses = new LongIntTable(1024);
    private final LongIntTable states = new LongIntTable(1 << 14);

    private ReplayContext ctx;
    /** This simulation's partition and the number of partitions (replay/README.md "Partitioned replay"). */
    private int part;
    private int parts = 1;
    /** Access and call callbacks so far: the same count at the same callback in every partition. */
    private long event;
    private int n;
    private long now;
    private int nextFault;
    private long[] fetchClock;
    private long[] fetchAddr;
    // lazy release consistency: vector timestamps and each processor's write notices by interval
    private int[][] vc;
    private long[][] nUnit;
    private int[][] nFault;
    private int[] nCount;
    private int[][] intervalEnd;
    private int[][] spawnVc;
    private int[][] endVc;
    private boolean[] began;
    private boolean[] ended;
    private final Map<Long, int[]> objVc = new HashMap<>();
    private final Map<Long, int[]> barrier = new HashMap<>();
    private long[] pairUnit = new long[64];
    private int[] pairFault = new int[64];
    // false sharing: bytes touched and written per (line, processor), in 64 chunks of the line
    private final LongIntTable maskIndex;
    private long[] touched;
    private long[] written;
    private int masks;

    /**
     * A simulation at the granularity of {@code unitSize}-byte pages ({@code lines} false) or cache lines, writing
     * into {@code sink} (null: count only). {@code split}: lines to divide, line &rarr; part number of each of the
     * line's 64 chunks (null: none).
     */
    public DsmSimulator(boolean lines, int unitSize, FaultSink sink, Map<Long, byte[]> split) {
        if (Integer.bitCount(unitSize) != 1) {
            throw new IllegalArgumentException("unit size must be a power of two, was " + unitSize);
        }
        this.lines = lines;
        this.unitSize = unitSize;
        this.shift = Integer.numberOfTrailingZeros(unitSize);
        this.sink = sink;
        if (split != null && !split.isEmpty()) {
            splitIndex = new LongIntTable(split.size());
            splitParts = new byte[split.size()][];
            int i = 0;
            for (Map.Entry<Long, byte[]> e : new java.util.TreeMap<>(split).entrySet()) {
                splitIndex.put(e.getKey(), i);
                splitParts[i++] = e.getValue();
            }
        } else {
            splitIndex = null;
            splitParts = null;
        }
        maskIndex = lines && split == null ? new LongIntTable(1 << 12) : null;
        touched = new long[1024];
        written = new long[1024];
    }

    @Override
    public void begin(ReplayContext c) {
        ctx = c;
        part = c.partition();
        parts = c.partitions();
        n = c.threads();
        fetchClock = new long[n];
        Arrays.fill(fetchClock, -1);
        fetchAddr = new long[n];
        vc = new int[n][n];
        nUnit = new long[n][16];
        nFault = new int[n][16];
        nCount = new int[n];
        intervalEnd = new int[n][8];
        spawnVc = new int[n][];
        endVc = new int[n][];
        began = new boolean[n];
        ended = new boolean[n];
        began[0] = true;
    }

    /** Access and call callbacks received so far (the records written at one callback share this number). */
    public long event() {
        return event;
    }

    /**
     * True if this simulation keeps the state of {@code unit}: always in a plain run; in a partitioned one, the
     * replay deals the unit's first 4 KiB page ({@link ReplayContext#partitionOf}; a unit larger than 4 KiB as if it
     * were one page). The synchronization skeleton (vector timestamps, intervals, barriers) is kept in every
     * partition, the per-unit state (copies, twins, write notices, byte masks, misses) only in the unit's.
     */
    public boolean owns(long unit) {
        return parts == 1 || ctx.partitionOf(unitSize >= 4096 ? unit << 12 : unit << shift) == part;
    }

    /** Faults written so far. */
    public int faults() {
        return nextFault;
    }

    /** Processors of the replay (after {@link #begin}). */
    public int processors() {
        return n;
    }

    /** Coherence misses (faults on a copy another processor's write invalidated) on original line {@code line}. */
    public int coherenceMisses(long line) {
        return misses.get(line, 0);
    }

    /**
     * Per processor p, the bytes of {@code line} it touched ({@code [p][0]}) and wrote ({@code [p][1]}), one bit
     * per 64th of the line (one byte for lines up to 64 bytes).
     */
    public long[][] masks(long line) {
        long[][] m = new long[n][2];
        for (int p = 0; p < n; p++) {
            int i = maskIndex == null ? -1 : maskIndex.get(line * n + p, -1);
            if (i >= 0) {
                m[p][0] = touched[i];
                m[p][1] = written[i];
            }
        }
        return m;
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        fetchClock[thread] = clock;
        fetchAddr[thread] = address;
    }

    @Override
    public void fetchRun(int thread, int cpu, long clock, long address, int count) {
        fetchClock[thread] = clock + count - 1;
        fetchAddr[thread] = address + 4L * (count - 1);
    }

    @Override
    public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
        event++;
        if (ctx.isSyncVariable(address)) {
            return;
        }
        if (!began[thread]) {
            start(thread);
        }
        if (clock > now) {
            now = clock;
        }
        long site = fetchClock[thread] == clock ? fetchAddr[thread] : -1;
        int len = Math.max(size, 1);
        long u = address >>> shift;
        long last = (address + len - 1) >>> shift;
        for (long x = u; x <= last; x++) {
            if (parts > 1 && !owns(x)) {
                continue;
            }
            long from = Math.max(address, x << shift);
            long to = Math.min(address + len, (x + 1) << shift);
            touch(cpu, x, store, address, site, from, to);
        }
    }

    private int chunk() {
        return Math.max(1, unitSize / 64);
    }

    private void touch(int p, long line, boolean store, long address, long site, long from, long to) {
        long u = line;
        if (splitIndex != null) {
            int s = splitIndex.get(line, -1);
            u = (line << 6) | (s < 0 ? 0 : splitParts[s][(int) ((from & (unitSize - 1)) / chunk())]);
        }
        if (maskIndex != null) {
            mark(p, line, store, from, to);
        }
        long key = u * n + p;
        int st = states.get(key, 0);
        if (store ? (st & WRITABLE) != 0 : (st & VALID) != 0) {
            return;
        }
        int id = nextFault++;
        if ((st & HAD) != 0 && (st & VALID) == 0) {
            misses.put(line, misses.get(line, 0) + 1);
        }
        if (sink != null) {
            sink.fault(id, now, p, u, store, address, site, (int) (from & (unitSize - 1)), (int) (to - from));
        }
        if (!lines) {
            states.put(key, store ? VALID | WRITABLE | HAD : VALID | HAD | (st & WRITABLE));
            if (store) {
                notice(p, u, id);
            }
            return;
        }
        for (int j = 0; j < n; j++) {
            if (j == p) {
                continue;
            }
            long kj = u * n + j;
            int sj = states.get(kj, 0);
            if (store && (sj & VALID) != 0) {
                states.put(kj, HAD);
                if (sink != null) {
                    pairUnit[0] = u;
                    pairFault[0] = id;
                    sink.sync(now, j, FaultSink.INVALIDATE, pairUnit, pairFault, 1);
                }
            } else if (!store && (sj & WRITABLE) != 0) {
                states.put(kj, VALID | HAD);
            }
        }
        states.put(key, store ? VALID | WRITABLE | HAD : VALID | HAD);
    }

    private void mark(int p, long line, boolean store, long from, long to) {
        long key = line * n + p;
        int i = maskIndex.get(key, -1);
        if (i < 0) {
            i = masks++;
            if (i == touched.length) {
                touched = Arrays.copyOf(touched, i * 2);
                written = Arrays.copyOf(written, i * 2);
            }
            maskIndex.put(key, i);
        }
        int c = chunk();
        int a = (int) ((from & (unitSize - 1)) / c);
        int b = (int) (((to - 1) & (unitSize - 1)) / c);
        long bits = (b == 63 ? -1L : (1L << (b + 1)) - 1) & -(1L << a);
        touched[i] |= bits;
        if (store) {
            written[i] |= bits;
        }
    }

    private void notice(int p, long unit, int fault) {
        int c = nCount[p];
        if (c == nUnit[p].length) {
            nUnit[p] = Arrays.copyOf(nUnit[p], c * 2);
            nFault[p] = Arrays.copyOf(nFault[p], c * 2);
        }
        nUnit[p][c] = unit;
        nFault[p][c] = fault;
        nCount[p] = c + 1;
    }

    @Override
    public void call(int thread, int cpu, long clock, CallEvent call) {
        event++;
        if (clock > now) {
            now = clock;
        }
        if (!began[thread]) {
            start(thread);
        }
        if (lines) {
            if (call.type == CallType.SPAWN) {
                began[(int) Math.min(call.arg3, n - 1)] = true;
            }
            return;
        }
        int t = cpu;
        switch (call.type) {
            case CallType.SPAWN:
                release(t);
                if (call.arg3 > 0 && call.arg3 < n && !began[(int) call.arg3]) {
                    spawnVc[(int) call.arg3] = vc[t].clone();
                }
                return;
            case CallType.JOIN:
                if (call.arg3 >= 0 && call.arg3 < n && endVc[(int) call.arg3] != null) {
                    acquire(t, endVc[(int) call.arg3], FaultSink.JOIN);
                }
                return;
            case CallType.THREAD_END:
            case CallType.END_TRACE:
                release(t);
                endVc[thread] = vc[t].clone();
                ended[thread] = true;
                return;
            case CallType.BARRIER:
                barrier(t, call);
                return;
            case CallType.BEGIN_CRITICAL:
                acquire(t, objVc.get(call.arg1), FaultSink.ACQUIRE);
                return;
            case CallType.LDCW:
                acquire(t, objVc.get(call.arg1), FaultSink.ACQUIRE);
                releaseTo(t, call.arg1);
                return;
            case CallType.BEGIN_ORDER:
                acquire(t, objVc.get(Long.MIN_VALUE), FaultSink.ACQUIRE);
                return;
            case CallType.END_ORDER:
                releaseTo(t, Long.MIN_VALUE);
                return;
            case CallType.END_CRITICAL:
            case CallType.COND_WAKE:
            case CallType.SYNC_RELEASE:
                releaseTo(t, call.arg1);
                return;
            case CallType.COND_WAIT:
            case CallType.SYNC_ACQUIRE:
                acquire(t, objVc.get(call.arg1), FaultSink.WAKEUP);
                return;
            default:
        }
    }

    /** A spawned thread's first event: it acquires what its parent released at the spawn. */
    private void start(int t) {
        began[t] = true;
        if (spawnVc[t] != null && !lines) {
            acquire(t, spawnVc[t], FaultSink.START);
            spawnVc[t] = null;
        }
    }

    /**
     * A barrier: the first departure of an episode (the engine delivers the call when the barrier opens, so every
     * participant has arrived) closes the interval of every active thread and merges their timestamps; each
     * departure then acquires the merge. Barriers for fewer parties than the active threads close the others'
     * intervals early (module README "Decisions").
     */
    private void barrier(int t, CallEvent call) {
        int[] ep = barrier.get(call.arg1);
        if (ep == null || ep[n] <= 0) {
            ep = new int[n + 1];
            int active = 0;
            for (int u = 0; u < n; u++) {
                if (began[u] && !ended[u]) {
                    release(u);
                    active++;
                    for (int j = 0; j < n; j++) {
                        ep[j] = Math.max(ep[j], vc[u][j]);
                    }
                }
            }
            ep[n] = call.arg2 > 0 ? (int) Math.min(call.arg2, n) : active;
            barrier.put(call.arg1, ep);
        }
        acquire(t, ep, FaultSink.BARRIER);
        ep[n]--;
    }

    private void releaseTo(int t, long obj) {
        release(t);
        int[] s = objVc.get(obj);
        if (s == null) {
            objVc.put(obj, vc[t].clone());
        } else {
            for (int j = 0; j < n; j++) {
                s[j] = Math.max(s[j], vc[t][j]);
            }
        }
    }

    /** Ends processor t's interval if it wrote anything: its write notices become visible, its pages read-only. */
    private void release(int t) {
        int k = vc[t][t];
        int from = k == 0 ? 0 : intervalEnd[t][k - 1];
        int to = nCount[t];
        if (to == from) {
            return;
        }
        if (k == intervalEnd[t].length) {
            intervalEnd[t] = Arrays.copyOf(intervalEnd[t], k * 2);
        }
        intervalEnd[t][k] = to;
        vc[t][t] = k + 1;
        for (int i = from; i < to; i++) {
            long key = nUnit[t][i] * n + t;
            states.put(key, states.get(key, 0) & ~WRITABLE);
        }
    }

    /** Applies the write notices of the intervals timestamp {@code s} covers and processor t has not seen. */
    private void acquire(int t, int[] s, int kind) {
        if (s == null) {
            return;
        }
        int m = 0;
        for (int j = 0; j < n; j++) {
            if (j == t || s[j] <= vc[t][j]) {
                continue;
            }
            int from = vc[t][j] == 0 ? 0 : intervalEnd[j][vc[t][j] - 1];
            int to = intervalEnd[j][s[j] - 1];
            for (int i = from; i < to; i++) {
                long key = nUnit[j][i] * n + t;
                int st = states.get(key, 0);
                if ((st & HAD) == 0) {
                    continue;
                }
                states.put(key, HAD);
                if (m == pairUnit.length) {
                    pairUnit = Arrays.copyOf(pairUnit, m * 2);
                    pairFault = Arrays.copyOf(pairFault, m * 2);
                }
                pairUnit[m] = nUnit[j][i];
                pairFault[m++] = nFault[j][i];
            }
            vc[t][j] = s[j];
        }
        if (m > 0 && sink != null) {
            sortPairs(m);
            sink.sync(now, t, kind, pairUnit, pairFault, m);
        }
    }

    /** Sorts the first m (unit, fault) pairs by unit, then fault (insertion sort on runs, merge via index). */
    private void sortPairs(int m) {
        Integer[] idx = new Integer[m];
        for (int i = 0; i < m; i++) {
            idx[i] = i;
        }
        long[] u = Arrays.copyOf(pairUnit, m);
        int[] f = Arrays.copyOf(pairFault, m);
        Arrays.sort(idx, (a, b) -> u[a] != u[b] ? Long.compare(u[a], u[b]) : Integer.compare(f[a], f[b]));
        for (int i = 0; i < m; i++) {
            pairUnit[i] = u[idx[i]];
            pairFault[i] = f[idx[i]];
        }
    }
}
