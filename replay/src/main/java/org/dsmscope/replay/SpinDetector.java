package org.dsmscope.replay;

/**
 * Spin-wait detection (SPEC §5 "Concurrency": repeated loads of unchanged locations, ended by another processor's
 * store, are reported as their own class, spin time; seed 001 §5.3 counts them as busy, since a spinning processor
 * executes instructions). An analysis that wants spin time owns one and forwards it the replay's callbacks it
 * receives ({@link #access}, {@link #call}, {@link #waited}, {@link #phaseEnd}, {@link #end}), in replay order.
 *
 * <p>The rule (ciat/README.md "Spin time"): per thread, a <em>loop</em> is a run of the thread's loads in which,
 * after a first pass over k &le; {@value #MAX_LOCATIONS} distinct locations (same address and size), every load
 * re-reads one of them; it starts at the first load of the location re-read first, and ends before the thread's
 * next load of another location, its next store, call record or wait, or the phase end. A loop of n loads with n
 * &ge; ({@value #MIN_REREADS} + 1)&middot;k is a <em>spin</em> when another thread stores to one of its locations
 * in the same phase, before, while or after it runs. (A spin is no synchronization to the replay, so the pseudo
 * clocks do not order a spinner's loads against the store that ended them: at a spin barrier the spinners' clocks
 * run ahead of the last arriver's, by the length of their spins, and apart by any amount over the rounds.) Stores
 * are looked for while some thread watches the location: while a thread's loop re-reads it or after it was in a
 * thread's last loop long enough to be a spin; such a store counts for a loop that starts later in the
 * phase only if a loop watching it then was long enough to be a spin (or it was in a last spin set), so a loop that
 * stays short affects nothing but itself. A loop over other locations ends the wait of the thread's loops
 * before it: those no store confirmed are busy. Its time is from its first load to its last load, inclusive. A spin
 * ended by the thread's own store to a location it spun on (it took the word: a spin lock) is a lock spin; the
 * others wait for other threads' progress.
 *
 * <p>Cost: a load compares its address with at most {@value #MAX_LOCATIONS} of its thread's (kept in a ring until a
 * loop starts, so a load of a new location overwrites the oldest and moves nothing); a store of a thread
 * looks into a table of 4096 counters only while some thread watches locations (a loop that re-read one, or its
 * last spin), and compares addresses only on a hit. Nothing is allocated per record.
 */
public final class SpinDetector {
    /** The most distinct locations a spin loop reads. */
    public static final int MAX_LOCATIONS = 4;
    /** Re-reads per location (on average) a loop needs to be a spin. */
    public static final int MIN_REREADS = 4;

    /** {@link Sink#loop} state: a loop long enough to be a spin, not decided yet (it comes again, decided). */
    public static final int PENDING = 0;
    /** {@link Sink#loop} state: a spin waiting for other threads' progress. */
    public static final int SPIN = 1;
    /** {@link Sink#loop} state: a spin that ended by taking the word it spun on (a spin lock). */
    public static final int LOCK_SPIN = 2;
    /** {@link Sink#loop} state: an undecided loop that no other thread's store confirmed: busy after all. */
    public static final int BUSY = 3;

    /** Receives the loops long enough to be spins, as they end and as they are decided. */
    public interface Sink {
        /**
         * Thread {@code thread}'s loop from clock {@code from} (its first load) to {@code to} (exclusive: one after
         * its last load) is in {@code state}: {@link #SPIN} or {@link #LOCK_SPIN} when decided as it ends;
         * {@link #PENDING} when not, and then once more later with {@link #SPIN}, {@link #LOCK_SPIN} or {@link
         * #BUSY}, at the latest at the phase end. A thread's loops end in clock order.
         */
        void loop(int thread, long from, long to, int state);
    }

    private static final int HASH_BITS = 12;
    private static final int LOG = 64;

    private final int threads;
    private final Sink sink;
    // The open loop of each thread: entries t*MAX_LOCATIONS + i, i < size[t] (without a loop, a ring from head[t]).
    private final long[] addr;
    private final int[] bytes;
    private final long[] first;
    private final int[] size;
    /**
     * Per thread without a loop and with {@value #MAX_LOCATIONS} kept loads: the entry of the oldest (they form a
     * ring, see {@link #load}); 0 otherwise.
     */
    private final int[] head;
    private final long[] tmpAddr = new long[MAX_LOCATIONS];
    private final int[] tmpBytes = new int[MAX_LOCATIONS];
    private final long[] tmpFirst = new long[MAX_LOCATIONS];
    private final boolean[] looping;
    private final long[] loads;
    private final long[] last;
    private final boolean[] released;
    // The locations of each thread's last loop that was long enough to be a spin ("its last spin set") and its
    // loops there still waiting for another thread's store (undecided: from, to, lock), in clock order.
    private final long[] cAddr;
    private final int[] cBytes;
    private final int[] cSize;
    private final long[][] pending;
    private final int[] pendingCount;
    // Watched locations: counters per hash of 8-byte block; watchers = threads with a looping loop or a last spin.
    private final int[] watched = new int[1 << HASH_BITS];
    private int watching;
    // Stores this phase to locations some thread watched: address, bytes, writer (-1: several), last LOG entries.
    private final long[] logAddr = new long[LOG];
    private final int[] logBytes = new int[LOG];
    private final int[] logWriter = new int[LOG];
    private int logCount;
    // Spin time booked per thread in the current phase and in all, lock spins apart.
    private final long[] phaseWait;
    private final long[] phaseLock;
    private final long[] totalWait;
    private final long[] totalLock;

    /** A detector for {@code threads} threads; {@code sink} (may be null) receives each spin. */
    public SpinDetector(int threads, Sink sink) {
        this.threads = threads;
        this.sink = sink;
        int n = threads * MAX_LOCATIONS;
        addr = new long[n];
        bytes = new int[n];
        first = new long[n];
        cAddr = new long[n];
        cBytes = new int[n];
        size = new int[threads];
        head = new int[threads];
        looping = new boolean[threads];
        loads = new long[threads];
        last = new long[threads];
        released = new boolean[threads];
        cSize = new int[threads];
        pending = new long[threads][];
        pendingCount = new int[threads];
        phaseWait = new long[threads];
        phaseLock = new long[threads];
        totalWait = new long[threads];
        totalLock = new long[threads];
    }

    /** A data access of {@code thread} at {@code clock} (the replay's {@link Analysis#access}). */
    public void access(int thread, long clock, int size, boolean store, long address) {
        if (store) {
            if (watching != 0) {
                storeSeen(thread, address, Math.max(size, 1));
            }
            if (this.size[thread] != 0) {
                close(thread, looping[thread] && overlapsOpen(thread, address, Math.max(size, 1)));
            }
        } else if (size > 0) {
            load(thread, clock, size, address);
        }
    }

    private void load(int t, long clock, int sz, long a) {
        int base = t * MAX_LOCATIONS;
        int k = size[t];
        for (int i = 0; i < k; i++) {
            if (addr[base + i] == a && bytes[base + i] == sz) {
                if (!looping[t]) {
                    startLoop(t, (i - head[t]) & (MAX_LOCATIONS - 1));
                }
                loads[t]++;
                last[t] = clock;
                return;
            }
        }
        if (looping[t]) {
            close(t, false);
            k = 0;
        } else if (k == MAX_LOCATIONS) {
            // no loop yet: the most recent distinct loads are kept in a ring (a thread streaming through its data
            // comes here on every load: the oldest entry is overwritten, nothing moves)
            int h = head[t];
            addr[base + h] = a;
            bytes[base + h] = sz;
            first[base + h] = clock;
            head[t] = (h + 1) & (MAX_LOCATIONS - 1);
            loads[t] = MAX_LOCATIONS;
            last[t] = clock;
            return;
        }
        addr[base + k] = a;
        bytes[base + k] = sz;
        first[base + k] = clock;
        size[t] = k + 1;
        loads[t] = k + 1;
        last[t] = clock;
    }

    /**
     * The first re-read, of the kept load {@code i} in age order (0 the oldest): the loop starts at that location's
     * first load; its entries move to the front in order (a loop's entries are kept in order, not in a ring).
     */
    private void startLoop(int t, int i) {
        int base = t * MAX_LOCATIONS;
        int k = size[t] - i;
        int h = head[t];
        if (h != 0) {
            // a full ring (size MAX_LOCATIONS) whose oldest entry is at h: copy out in order, then back
            for (int j = 0; j < k; j++) {
                int from = base + ((h + i + j) & (MAX_LOCATIONS - 1));
                tmpAddr[j] = addr[from];
                tmpBytes[j] = bytes[from];
                tmpFirst[j] = first[from];
            }
            System.arraycopy(tmpAddr, 0, addr, base, k);
            System.arraycopy(tmpBytes, 0, bytes, base, k);
            System.arraycopy(tmpFirst, 0, first, base, k);
            head[t] = 0;
            size[t] = k;
        } else if (i > 0) {
            System.arraycopy(addr, base + i, addr, base, k);
            System.arraycopy(bytes, base + i, bytes, base, k);
            System.arraycopy(first, base + i, first, base, k);
            size[t] = k;
        }
        loads[t] = k;
        looping[t] = true;
        released[t] = false;
        // another thread stored there earlier in the phase (the pseudo clocks put the store before the loop)
        released[t] = storedByOther(t);
        mark(addr, bytes, base, k, 1);
    }

    private boolean overlapsLast(int t) {
        int base = t * MAX_LOCATIONS;
        for (int i = 0; i < size[t]; i++) {
            if (overlaps(cAddr, cBytes, base, cSize[t], addr[base + i], bytes[base + i])) {
                return true;
            }
        }
        return false;
    }

    private boolean overlapsOpen(int t, long a, int sz) {
        return overlaps(addr, bytes, t * MAX_LOCATIONS, size[t], a, sz);
    }

    private static boolean overlaps(long[] as, int[] bs, int base, int k, long a, int sz) {
        for (int i = 0; i < k; i++) {
            long b = as[base + i];
            if (a < b + bs[base + i] && b < a + sz) {
                return true;
            }
        }
        return false;
    }

    /** A store by {@code thread} while some thread watches: ends or confirms the spins it concerns. */
    private void storeSeen(int thread, long a, int sz) {
        if (watched[hash(a)] == 0 && watched[hash(a + sz - 1)] == 0) {
            return;
        }
        boolean hit = false;
        for (int t = 0; t < threads; t++) {
            boolean last = cSize[t] != 0 && overlaps(cAddr, cBytes, t * MAX_LOCATIONS, cSize[t], a, sz);
            boolean open = looping[t] && overlapsOpen(t, a, sz);
            // remembered for loops that start later only while a loop long enough to be a spin watches it: a
            // shorter loop's watch is its own (routing depends on it: replay/README.md "Partitioned replay")
            hit |= last || open && loads[t] >= (long) (MIN_REREADS + 1) * size[t];
            if (t == thread) {
                continue;
            }
            if (last && pendingCount[t] > 0) {
                decide(t, true);
            }
            if (open) {
                released[t] = true;
            }
        }
        if (hit) {
            log(thread, a, sz);
        }
    }

    private void log(int thread, long a, int sz) {
        int n = Math.min(logCount, LOG);
        for (int i = 0; i < n; i++) {
            if (logAddr[i] == a && logBytes[i] == sz) {
                if (logWriter[i] != thread) {
                    logWriter[i] = -1;
                }
                return;
            }
        }
        int i = logCount++ % LOG;
        logAddr[i] = a;
        logBytes[i] = sz;
        logWriter[i] = thread;
    }

    /** True if a thread other than {@code t} stored this phase to a location of its open loop (as logged). */
    private boolean storedByOther(int t) {
        int n = Math.min(logCount, LOG);
        for (int i = 0; i < n; i++) {
            if (logWriter[i] != t && overlapsOpen(t, logAddr[i], logBytes[i])) {
                return true;
            }
        }
        return false;
    }

    /** Decides thread {@code t}'s undecided loops: spins ({@code spin}) or busy. */
    private void decide(int t, boolean spin) {
        long[] p = pending[t];
        for (int i = 0; i < pendingCount[t]; i++) {
            long from = p[3 * i];
            long to = p[3 * i + 1];
            boolean lock = p[3 * i + 2] != 0;
            if (spin) {
                spin(t, from, to, lock);
            } else if (sink != null) {
                sink.loop(t, from, to, BUSY);
            }
        }
        pendingCount[t] = 0;
    }

    /** Ends thread {@code t}'s open loop; {@code lock}: by its own store to a location it spun on. */
    private void close(int t, boolean lock) {
        if (looping[t]) {
            int base = t * MAX_LOCATIONS;
            int k = size[t];
            mark(addr, bytes, base, k, -1);
            if (loads[t] >= (long) (MIN_REREADS + 1) * k) {
                if (!overlapsLast(t)) {
                    // another set of locations: the loops still waiting on the last set were no spins
                    dropLast(t);
                }
                if (cSize[t] != 0) {
                    mark(cAddr, cBytes, base, cSize[t], -1);
                }
                System.arraycopy(addr, base, cAddr, base, k);
                System.arraycopy(bytes, base, cBytes, base, k);
                cSize[t] = k;
                mark(cAddr, cBytes, base, k, 1);
                long from = first[base];
                long to = last[t] + 1;
                if (released[t]) {
                    spin(t, from, to, lock);
                } else {
                    addPending(t, from, to, lock);
                }
            }
        }
        size[t] = 0;
        head[t] = 0;
        looping[t] = false;
        released[t] = false;
    }

    private void addPending(int t, long from, long to, boolean lock) {
        long[] p = pending[t];
        int n = pendingCount[t];
        if (p == null || 3 * n + 3 > p.length) {
            p = java.util.Arrays.copyOf(p == null ? new long[0] : p, Math.max(12, 2 * 3 * (n + 1)));
            pending[t] = p;
        }
        p[3 * n] = from;
        p[3 * n + 1] = to;
        p[3 * n + 2] = lock ? 1 : 0;
        pendingCount[t] = n + 1;
        if (sink != null) {
            sink.loop(t, from, to, PENDING);
        }
    }

    /** Forgets thread {@code t}'s last spin set: its undecided loops are busy. */
    private void dropLast(int t) {
        decide(t, false);
        if (cSize[t] != 0) {
            mark(cAddr, cBytes, t * MAX_LOCATIONS, cSize[t], -1);
            cSize[t] = 0;
        }
    }

    private void spin(int t, long from, long to, boolean lock) {
        if (lock) {
            phaseLock[t] += to - from;
        } else {
            phaseWait[t] += to - from;
        }
        if (sink != null) {
            sink.loop(t, from, to, lock ? LOCK_SPIN : SPIN);
        }
    }

    private void mark(long[] as, int[] bs, int base, int k, int delta) {
        for (int i = 0; i < k; i++) {
            long a = as[base + i];
            int h0 = hash(a);
            int h1 = hash(a + bs[base + i] - 1);
            watched[h0] += delta;
            if (h1 != h0) {
                watched[h1] += delta;
            }
            watching += delta;
        }
    }

    private static int hash(long a) {
        long b = a >>> 3;
        return (int) ((b ^ (b >>> HASH_BITS) ^ (b >>> 2 * HASH_BITS)) & ((1 << HASH_BITS) - 1));
    }

    /** A call record of {@code thread} (the replay's {@link Analysis#call}): ends its loop. */
    public void call(int thread) {
        close(thread, false);
    }

    /** A wait of {@code thread} (the replay's {@link Analysis#waited}): ends its loop. */
    public void waited(int thread) {
        close(thread, false);
    }

    /** A phase ends: every loop ends and every loop is decided; the next phase starts afresh. */
    public void phaseEnd() {
        for (int t = 0; t < threads; t++) {
            close(t, false);
            dropLast(t);
        }
        logCount = 0;
    }

    /** The replay ends (same as a phase end). */
    public void end() {
        phaseEnd();
    }

    /**
     * Books the spin time decided since the last call into {@code times} (a phase's times, or with {@code phase}
     * false the run's total, which gets all spin time decided so far): out of busy, into spin, or with {@code
     * asWait} into imbalance (lock spins: contention). Call it for each phase after {@link #phaseEnd}.
     */
    public void book(PhaseTimes times, boolean phase, boolean asWait) {
        long[] w = phase ? phaseWait : totalWait;
        long[] l = phase ? phaseLock : totalLock;
        for (int t = 0; t < threads; t++) {
            if (phase) {
                totalWait[t] += phaseWait[t];
                totalLock[t] += phaseLock[t];
            }
            long s = w[t] + l[t];
            times.busy[t] -= s;
            if (asWait) {
                times.imbalance[t] += w[t];
                times.contention[t] += l[t];
            } else {
                times.spin[t] += s;
            }
        }
        if (phase) {
            java.util.Arrays.fill(phaseWait, 0);
            java.util.Arrays.fill(phaseLock, 0);
        }
    }
}
