package org.dsmscope.replay;

import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * What the prescan learns of one trace (a thread, or a process with {@code -i}) for a routed run ({@link
 * Replay#runRouted}, replay/README.md "Partitioned replay"): whether it holds branch, procedure or fetch records
 * ({@link #stream}), whose instruction stream (clocks, program counter, fetches) every partition needs: the router
 * then gives every partition every record of the trace; and whether it has a run of loads that a {@link
 * SpinDetector} could take for a spin ({@link #spins}), with the locations of such runs (the "watch set" of {@link
 * SpinRoutes}). The second is a superset of the detector's rule on the thread's own
 * records: a spin is a run of n &ge; ({@value SpinDetector#MIN_REREADS} + 1)&middot;k loads of k &le; {@value
 * SpinDetector#MAX_LOCATIONS} locations (address and size) with no store or call between, and the replay's waits
 * and phase ends only cut runs shorter, so a thread none of whose windows of loads between stores and calls with
 * d &le; 4 distinct locations is 5&middot;d loads long can spin in no interleaving, and a loop that can is inside
 * such a window, whose d locations are then its own. Per load: the five most recent distinct locations and where
 * each was last loaded, so the longest window with at most d distinct locations ending at this load starts after
 * the (d + 1)-th most recent one's last load; the largest d whose window is long enough gives the locations to
 * watch (a superset of every smaller d's). Branch, procedure and fetch records are not part of a run (the detector
 * sees none of them).
 *
 * <p>The five most recent distinct locations are kept only while they can matter: a window of d &le; 4 locations
 * 5&middot;d loads long ending at a load has a repeated location among its last five loads, so a load whose
 * location differs from each of the four loads before it in its run (a table of the last position per address hash
 * tells that with no false "differs") can end no such window, and the loads since the last one that could (or since
 * the run began) are pairwise distinct within any five. So the check keeps, per load, only its position in a table
 * of 1,024 hashes and its location in a ring of eight, and takes up the exact state at a load the table does not
 * clear: the state is then the last five loads of the ring (or all of the run, if shorter), all distinct, in order.
 * It keeps it load by load until the last five loads are distinct again ({@link #active}). On a trace of random
 * and sequential accesses that is a few loads in a hundred. Nothing is allocated per record.
 */
final class RouteCheck {
    private static final int KEEP = SpinDetector.MAX_LOCATIONS + 1;
    private static final long LOOP = SpinDetector.MIN_REREADS + 1;
    /** Hash bits of {@link #seen}. */
    private static final int HASH_BITS = 10;
    /** Ring of the last loads' locations (at least {@link #KEEP}, a power of two). */
    private static final int RING = 8;
    private final long[] addr = new long[KEEP];
    private final int[] bytes = new int[KEEP];
    private final long[] at = new long[KEEP];
    /** Distinct locations in {@link #addr} (while {@link #active}). */
    private int m;
    /** Position of the next memory record (loads and stores; a run's loads have consecutive positions). */
    private long pos;
    /** Position of the current run's first load (after the last store or call). */
    private long runStart;
    /** Per address hash: the position of the last memory record with an address of that hash. */
    private final long[] seen = new long[1 << HASH_BITS];
    /** The last {@link #RING} loads' addresses and sizes, by position. */
    private final long[] ringAddr = new long[RING];
    private final int[] ringBytes = new int[RING];
    /** True while {@link #addr}, {@link #bytes}, {@link #at} and {@link #m} are the run's exact state. */
    private boolean active;
    /** The locations last added to {@link #watch} (a spin adds the same ones on every load). */
    private final long[] lastAddr = new long[SpinDetector.MAX_LOCATIONS];
    private final int[] lastBytes = new int[SpinDetector.MAX_LOCATIONS];
    private int lastN;
    /** Where the locations of possible spins go (8-byte blocks, {@link SpinRoutes#addLocation}). */
    private final SpinRoutes.Builder watch;
    /** False once the thread was found not routable. */
    boolean routable = true;
    /** True once a branch, procedure or fetch record was found (the detector sees none of them: not part of a run). */
    boolean stream;
    /** True once a run of loads that could be a spin was found. */
    boolean spins;

    /** False: the check only looks for branch, procedure and fetch records ({@link #stream}), not for spins. */
    private final boolean spinsToo;

    /** A check whose possible spins' locations go to {@code watch}. */
    RouteCheck(SpinRoutes.Builder watch) {
        this(watch, true);
    }

    /** A check whose possible spins' locations go to {@code watch}, or, without {@code spinsToo}, one for none. */
    RouteCheck(SpinRoutes.Builder watch, boolean spinsToo) {
        this.watch = watch;
        this.spinsToo = spinsToo;
        java.util.Arrays.fill(seen, -1);
    }

    /** The {@link #seen} slot of an address. */
    private static int hash(long a) {
        return (int) ((a * 0x9E3779B97F4A7C15L) >>> (64 - HASH_BITS));
    }

    /**
     * A run of {@link TraceReader#nextRun} words whose addresses have the high word {@code high}; returns true if it
     * holds a word that is not a memory record (a branch, procedure or fetch record: {@link #stream}).
     */
    boolean run(long[] w, int from, int n, long high) {
        if (!spinsToo) {
            return streamOnly(w, from, n);
        }
        boolean other = false;
        for (int i = from, end = from + n; i < end && routable; ) {
            int to = Math.min(end, i + BLOCK);
            if (active || !plain(w, i, to, high)) {
                other |= exact(w, i, to, high);
            } else {
                pass(w, i, to, high);
            }
            i = to;
        }
        stream |= other;
        return other;
    }

    /** {@link #run} without the spin check: whether a word is no memory record (whose top byte is 0). */
    private boolean streamOnly(long[] w, int from, int n) {
        long or = 0;
        for (int i = from, end = from + n; i < end; i++) {
            or |= w[i];
        }
        boolean other = (or >>> 56) != 0;
        stream |= other;
        return other;
    }

    /** Words a run is looked at in by {@link #plain} before they are checked. */
    private static final int BLOCK = 64;

    /**
     * True if words {@code from .. to} are data accesses (loads of at least one byte, or stores) none of which is a
     * load of an address that one of the four memory records before it has: with no exact state kept ({@link
     * #active} false) the check then notes their places and nothing else ({@link #pass}), since no load among them
     * repeats a location of the four loads before it in its run. No branch on the kind of access (loads and stores
     * come in no order a branch predictor learns).
     */
    private boolean plain(long[] w, int from, int to, long high) {
        long p = pos;
        long a1 = ringAddr[(int) (p - 1) & (RING - 1)];
        long a2 = ringAddr[(int) (p - 2) & (RING - 1)];
        long a3 = ringAddr[(int) (p - 3) & (RING - 1)];
        long a4 = ringAddr[(int) (p - 4) & (RING - 1)];
        boolean bad = false;
        for (int i = from; i < to; i++) {
            long word = w[i];
            int f1 = (int) (word >>> 32);
            boolean load = (f1 & 0xF) != MemType.STORE;
            long a = high | (word & 0xFFFFFFFFL);
            // a memory record's top byte is 0 (TraceReader.wordKind)
            bad |= (word >>> 56) != 0 | load & MemType.bytes(f1) <= 0
                    | load & (a == a1 | a == a2 | a == a3 | a == a4);
            a4 = a3;
            a3 = a2;
            a2 = a1;
            a1 = a;
        }
        return !bad;
    }

    /**
     * Words {@code from .. to}, which {@link #plain} passed, each a memory record: the run starts after the last
     * store among them, and the ring takes the last {@link #RING} of them (the only ones it is read for).
     */
    private void pass(long[] w, int from, int to, long high) {
        long p0 = pos;
        for (int i = to - 1; i >= from; i--) {
            if (((int) (w[i] >>> 32) & 0xF) == MemType.STORE) {
                runStart = p0 + (i - from) + 1;
                break;
            }
        }
        for (int i = Math.max(from, to - RING); i < to; i++) {
            long word = w[i];
            int r = (int) (p0 + (i - from)) & (RING - 1);
            ringAddr[r] = high | (word & 0xFFFFFFFFL);
            ringBytes[r] = MemType.bytes((int) (word >>> 32));
        }
        pos = p0 + (to - from);
    }

    /** Words {@code from .. to} checked one by one; returns true if one is not a memory record. */
    private boolean exact(long[] w, int from, int to, long high) {
        boolean other = false;
        long p = pos;
        long rs = runStart;
        long[] ra = ringAddr;
        int[] rb = ringBytes;
        for (int i = from; i < to; i++) {
            long word = w[i];
            if (TraceReader.wordKind(word) != RecordKind.MEMORY) {
                other = true;
                continue;
            }
            int f1 = (int) (word >>> 32);
            int size = MemType.bytes(f1);
            boolean store = (f1 & 0xF) == MemType.STORE;
            if (size <= 0 && !store) {
                continue; // no load (a record a reader refuses anyway)
            }
            long k = p++;
            long a = high | (word & 0xFFFFFFFFL);
            int r = (int) k & (RING - 1);
            if (store) {
                rs = p;
                active = false;
            } else if (active || repeats(ra, k, k - rs, a)) {
                runStart = rs;
                load(k, size, a);
            }
            ra[r] = a;
            rb[r] = size;
        }
        pos = p;
        runStart = rs;
        return other;
    }

    /**
     * True if address {@code a} is that of one of the (at most four) loads before position {@code k} in its run, of
     * which there are {@code before}: the ring holds them. A load whose address is none of theirs has a location
     * that differs from each (no false "differs"), so it can end no window.
     */
    private static boolean repeats(long[] ra, long k, long before, long a) {
        int r = (int) k;
        return before > 0 && ra[(r - 1) & (RING - 1)] == a
                || before > 1 && ra[(r - 2) & (RING - 1)] == a
                || before > 2 && ra[(r - 3) & (RING - 1)] == a
                || before > 3 && ra[(r - 4) & (RING - 1)] == a;
    }

    /** A record read one by one, of kind {@code k}, current in {@code r}. */
    void record(int k, TraceReader r) {
        if (k == RecordKind.MEMORY) {
            if (spinsToo) {
                access(r.isStore(), r.size(), r.address());
            }
        } else if (k == RecordKind.CALL) {
            runStart = pos;
            active = false;
        } else {
            stream = true;
        }
    }

    /** One data access: {@link #exact}'s work for one word. */
    private void access(boolean store, int size, long a) {
        if (size <= 0 && !store) {
            return;
        }
        long k = pos++;
        if (store) {
            runStart = pos;
            active = false;
        } else if (active || repeats(ringAddr, k, k - runStart, a)) {
            load(k, size, a);
        }
        int r = (int) k & (RING - 1);
        ringAddr[r] = a;
        ringBytes[r] = size;
    }

    /**
     * The load at position {@code k} of the current run, which may end a window: the exact state first (from the
     * ring if it was not kept), then the window check.
     */
    private void load(long k, int size, long a) {
        if (!active) {
            // the loads before k in the run are distinct within any five: the state is the last five, in order
            m = 0;
            for (long q = k - 1; q >= runStart && m < KEEP; q--) {
                int r = (int) q & (RING - 1);
                addr[m] = ringAddr[r];
                bytes[m] = ringBytes[r];
                at[m] = q;
                m++;
            }
            active = true;
        }
        int j = 0;
        while (j < m && (addr[j] != a || bytes[j] != size)) {
            j++;
        }
        if (j == m) {
            if (m < KEEP) {
                m++;
            }
            j = m - 1;
        }
        for (int i = j; i > 0; i--) {
            addr[i] = addr[i - 1];
            bytes[i] = bytes[i - 1];
            at[i] = at[i - 1];
        }
        addr[0] = a;
        bytes[0] = size;
        at[0] = k;
        if (m == KEEP && at[KEEP - 1] == k - (KEEP - 1)) {
            active = false; // the last five loads are distinct: no window ends here, nor at a load like them
            return;
        }
        if (k - runStart + 1 < LOOP) {
            return; // no window of this run is long enough yet
        }
        int found = 0;
        for (int d = 1, top = Math.min(m, KEEP - 1); d <= top; d++) {
            long start = d < m ? at[d] + 1 : runStart;
            if (k - start + 1 >= LOOP * d) {
                found = d;
            }
        }
        if (found > 0) {
            spins = true;
            watch(found);
        }
    }

    /** The {@code d} most recent distinct locations are those of a possible spin: into {@link #watch}. */
    private void watch(int d) {
        if (d <= lastN) {
            int same = 0;
            for (int i = 0; i < d; i++) {
                for (int k = 0; k < lastN; k++) {
                    if (lastAddr[k] == addr[i] && lastBytes[k] == bytes[i]) {
                        same++;
                        break;
                    }
                }
            }
            if (same == d) {
                return;
            }
        }
        for (int i = 0; i < d; i++) {
            lastAddr[i] = addr[i];
            lastBytes[i] = bytes[i];
            watch.addLocation(addr[i], bytes[i]);
        }
        lastN = d;
    }
}
