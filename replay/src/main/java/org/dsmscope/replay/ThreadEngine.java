package org.dsmscope.replay;

import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.SmaitFormat;
import org.dsmscope.trace.TraceReader;

/**
 * Replay of thread traces (seed 000 §3, seed 001 §3 and §5.3, SPEC §4): phases, one pseudo clock per thread
 * (smallest first, ties round-robin), and the synchronization of spawn, join, barrier, critical and ordered
 * sections, condition waits, latches and markers, with busy / idle / imbalance / contention per thread and phase.
 * The rules and the choices the seeds leave open are listed in the module README.
 *
 * <p>Accounting invariant: every change of a thread's clock is added to exactly one of its four times in the
 * current phase, so at a phase end busy + idle + imbalance + contention = the phase's length for every thread.
 */
final class ThreadEngine {
    static final int NOT_STARTED = 0;
    static final int RUNNABLE = 1;
    static final int BLOCKED = 2;
    static final int PARKED = 3;
    static final int ENDED = 4;

    static final int W_LOCK = 1;
    static final int W_BARRIER = 2;
    static final int W_JOIN = 3;
    static final int W_JOIN_ALL = 4;
    static final int W_SEQ = 5;
    static final int W_ORDER = 6;
    static final int W_MARKER = 7;

    final Replay rp;
    private final Analysis[] an;
    private final ReplayOptions o;
    final int n;
    final TraceReader[] rd;
    private final CallTimes times;
    final SyncObjects sync;
    private final LongLongMap seqDone = new LongLongMap(64);
    private final IoModel io;
    private final CallEvent ev = new CallEvent();

    final long[] clock;
    private final long[] lastInstr;
    final int[] state;
    final int[] waitKind;
    final int[] waitObj;
    final long[] waitSeq;
    private final long[] waitStart;
    private final boolean[] resume;
    private final boolean[] stopped;
    private final boolean[] fetchMode;
    private final boolean[] pcValid;
    private final long[] pc;
    private final boolean[] participated;
    private final int[] held;
    final int[] orderCount;
    private final long[] endClock;
    private boolean spawnedEver;

    private int active;
    private int last = -1;
    private long bound;
    int orderRound;
    int orderTurn;
    private int phaseId;
    private boolean announced;
    private Phase.Kind pendingKind;
    private int pendingNum;
    private long pendingStart;
    private Phase phase;
    private PhaseTimes cur;
    final PhaseTimes total;
    long replayed;

    ThreadEngine(Replay rp, Analysis[] an, TraceReader[] rd, CallTimes times, boolean[] fetchMode) {
        this.rp = rp;
        this.an = an;
        this.o = rp.options();
        this.rd = rd;
        this.n = rd.length;
        this.times = times;
        this.fetchMode = fetchMode;
        sync = new SyncObjects(n);
        io = new IoModel(o, n);
        clock = new long[n];
        lastInstr = new long[n];
        state = new int[n];
        waitKind = new int[n];
        waitObj = new int[n];
        waitSeq = new long[n];
        waitStart = new long[n];
        resume = new boolean[n];
        stopped = new boolean[n];
        pcValid = new boolean[n];
        pc = new long[n];
        participated = new boolean[n];
        held = new int[n];
        orderCount = new int[n];
        endClock = new long[n];
        total = new PhaseTimes(n);
    }

    void run() {
        if (o.parallelStart) {
            for (int t = 0; t < n; t++) {
                state[t] = RUNNABLE;
            }
            active = n;
        } else {
            state[0] = RUNNABLE;
            active = 1;
        }
        beginPhase(active > 1 ? Phase.Kind.PARALLEL : Phase.Kind.SERIAL, -1);
        for (;;) {
            int t = pick();
            if (t >= 0) {
                long c = clock[t];
                step(t);
                // Fast path while threads run in lockstep: the next thread after t (cyclically) that still has
                // the minimum clock c is exactly what pick() would choose; run it for one record.
                for (int u = next(t, c); u >= 0; u = next(u, c)) {
                    bound = c;
                    step(u);
                }
                continue;
            }
            if (!anyBlocked()) {
                break;
            }
            ThreadErrors.deadlock(this);
        }
        ThreadErrors.checkLeftovers(this);
        endPhase();
    }

    // ---------------------------------------------------------------- scheduling

    /** The runnable thread with the smallest clock, ties round-robin after the last one run; sets the bound. */
    private int pick() {
        long min1 = Long.MAX_VALUE;
        long min2 = Long.MAX_VALUE;
        int best = -1;
        int u = last;
        for (int i = 0; i < n; i++) {
            if (++u == n) {
                u = 0;
            }
            if (state[u] == RUNNABLE) {
                long c = clock[u];
                if (c < min1) {
                    min2 = min1;
                    min1 = c;
                    best = u;
                } else if (c < min2) {
                    min2 = c;
                }
            }
        }
        bound = min2;
        return best;
    }

    /** The first runnable thread after t in cyclic order whose clock is c (no clock is below c), or -1. */
    private int next(int t, long c) {
        int u = t;
        for (int i = 1; i < n; i++) {
            if (++u == n) {
                u = 0;
            }
            if (state[u] == RUNNABLE && clock[u] == c) {
                return u;
            }
        }
        return -1;
    }

    /** Runs thread t for at least one record, then while its clock stays below every other runnable clock. */
    private void step(int t) {
        last = t;
        if (resume[t]) {
            resume[t] = false;
            emitCall(t, clock[t] - waitStart[t]);
        }
        final TraceReader r = rd[t];
        do {
            // A run only when the thread may go on for a while: in lockstep (room 1) next() is cheaper.
            long room = bound - clock[t];
            int n = room >= MIN_RUN ? r.nextRun((int) Math.min(RUN, room)) : 0;
            if (n > 0) {
                if (!run(t, r, n)) {
                    return;
                }
                continue;
            }
            int k = r.next();
            replayed++;
            if (k == RecordKind.MEMORY) {
                if (stopped[t]) {
                    continue;
                }
                if (!announced) {
                    announce();
                }
                long c = clock[t];
                if (fetchMode[t]) {
                    access(t, lastInstr[t], r.memType(), r.size(), r.address());
                    continue;
                }
                if (pcValid[t]) {
                    for (Analysis a : an) {
                        a.fetch(t, t, c, pc[t], InstructionStream.WORD);
                    }
                    pc[t] += InstructionStream.WORD;
                }
                access(t, c, r.memType(), r.size(), r.address());
                lastInstr[t] = c;
                clock[t] = c + 1;
                cur.busy[t]++;
            } else if (k == RecordKind.CALL) {
                call(t, r);
                return;
            } else if (k == RecordKind.EOF) {
                replayed--;
                endThread(t, ENDED);
                return;
            } else {
                other(t, k, r.source(), r.target(), r.size());
            }
        } while (clock[t] < bound && state[t] == RUNNABLE);
    }

    /**
     * Records per run taken from the reader: at most {@link #RUN}, and at most the room left below the bound (a memory
     * record advances the clock by one, a branch by its gap, others not at all, so a run is rarely given back); none below
     * {@link #MIN_RUN}.
     */
    private static final int RUN = 256;
    private static final int MIN_RUN = 8;

    /**
     * A run of {@code n} memory, branch and fetch records straight from the reader's array, each handled exactly
     * as {@link #step} handles it from {@code next()}; stops after the record at which the thread must give way
     * (its clock reaches the bound), giving the rest back to the reader. Returns false if it stopped so.
     */
    private boolean run(int t, TraceReader r, int n) {
        long[] w = r.runWords();
        long hi = r.addressHigh();
        for (int i = r.runStart(), end = i + n; i < end; i++) {
            long word = w[i];
            replayed++;
            int k = TraceReader.wordKind(word);
            int f1 = (int) (word >>> 32);
            long address = hi | (word & 0xFFFFFFFFL);
            if (k == RecordKind.MEMORY) {
                memory(t, f1, MemType.bytes(f1), address);
            } else if (k == RecordKind.FETCH) {
                other(t, k, address, address, f1 & 0xFFFFFF);
            } else {
                other(t, k, k == RecordKind.PROC_START ? address : hi | (f1 & SmaitFormat.BRANCH_FIELD_MASK), address, 0);
            }
            if (clock[t] >= bound || state[t] != RUNNABLE) {
                r.unread(end - i - 1);
                return false;
            }
        }
        return true;
    }

    /** A memory record of type field {@code type} (as {@link TraceReader#memType()} gives it). */
    private void memory(int t, int type, int size, long addr) {
        if (stopped[t]) {
            return;
        }
        if (!announced) {
            announce();
        }
        long c = clock[t];
        if (fetchMode[t]) {
            access(t, lastInstr[t], type, size, addr);
            return;
        }
        if (pcValid[t]) {
            for (Analysis a : an) {
                a.fetch(t, t, c, pc[t], InstructionStream.WORD);
            }
            pc[t] += InstructionStream.WORD;
        }
        access(t, c, type, size, addr);
        lastInstr[t] = c;
        clock[t] = c + 1;
        cur.busy[t]++;
    }

    private void access(int t, long c, int type, int size, long addr) {
        boolean store = (type & 0xF) == MemType.STORE;
        for (Analysis a : an) {
            a.access(t, t, c, type, size, store, addr);
        }
    }

    /** Fetch and branch records: a fetch's address is {@code target}, its length {@code size}. */
    private void other(int t, int k, long source, long target, int size) {
        if (stopped[t]) {
            return;
        }
        if (!announced) {
            announce();
        }
        if (k == RecordKind.FETCH) {
            long c = clock[t];
            for (Analysis a : an) {
                a.fetch(t, t, c, target, size);
            }
            lastInstr[t] = c;
            clock[t] = c + 1;
            cur.busy[t]++;
            return;
        }
        if (k != RecordKind.PROC_START && !fetchMode[t]) {
            long gap = InstructionStream.gap(pcValid[t], pc[t], source);
            long c = clock[t];
            long p = pc[t];
            for (long i = 0; i < gap; i++) {
                for (Analysis a : an) {
                    a.fetch(t, t, c + i, p + i * InstructionStream.WORD, InstructionStream.WORD);
                }
            }
            if (gap > 0) {
                lastInstr[t] = c + gap - 1;
                clock[t] = c + gap;
                cur.busy[t] += gap;
            }
        }
        if (!fetchMode[t]) {
            pc[t] = target;
            pcValid[t] = true;
        }
        for (Analysis a : an) {
            a.branch(t, t, clock[t], k, source, target);
        }
    }

    // ---------------------------------------------------------------- calls

    private void call(int t, TraceReader r) {
        times.read(t, r);
        int type = r.callType();
        switch (type) {
            case CallType.SPAWN:
                spawn(t, r);
                return;
            case CallType.JOIN:
                join(t, r);
                return;
            case CallType.BARRIER:
                barrier(t, r);
                return;
            case CallType.BEGIN_CRITICAL:
                lock(t, r);
                return;
            case CallType.END_CRITICAL:
                unlock(t, r);
                return;
            case CallType.BEGIN_ORDER:
                beginOrder(t);
                return;
            case CallType.END_ORDER:
                emitCall(t, 0);
                endOrder(t);
                return;
            case CallType.COND_WAIT:
            case CallType.SYNC_ACQUIRE:
                awaitSeq(t, r);
                return;
            case CallType.COND_WAKE:
            case CallType.SYNC_RELEASE:
                signalSeq(t, r);
                return;
            case CallType.MARKER:
                marker(t, r);
                return;
            case CallType.THREAD_END:
                emitCall(t, 0);
                // The agent closes a thread's file with an end_trace record after thread_end; nothing else may follow.
                int after = r.next();
                if (after == RecordKind.CALL && r.callType() == CallType.END_TRACE) {
                    emitCall(t, 0);
                    after = r.next();
                }
                if (after != RecordKind.EOF) {
                    rp.bad(r.name() + ": byte offset " + r.offset() + ": records after the thread_end record");
                }
                endThread(t, ENDED);
                return;
            case CallType.FILE_READ:
            case CallType.FILE_WRITE:
                fileIo(t, r, type == CallType.FILE_READ);
                return;
            default:
                emitCall(t, 0);
        }
    }

    void emitCall(int t, long wait) {
        if (!announced) {
            announce();
        }
        TraceReader r = rd[t];
        ev.type = r.callType();
        ev.startTime = times.start(t);
        ev.endTime = times.end(t);
        ev.arg1 = r.arg(1);
        ev.arg2 = r.arg(2);
        ev.arg3 = r.arg(3);
        ev.arg4 = r.arg(4);
        ev.waitClocks = wait;
        long c = clock[t];
        for (Analysis a : an) {
            a.call(t, t, c, ev);
        }
    }

    private void fileIo(int t, TraceReader r, boolean read) {
        if (!o.handleIo) {
            emitCall(t, 0);
            return;
        }
        long done = io.complete(clock[t], r.arg(2), t);
        int q = o.distributedIo ? t : 0;
        for (Analysis a : an) {
            a.io(t, t, q, done, read, r.arg(1), r.arg(2));
        }
        if (!io.blocks(read)) {
            emitCall(t, 0);
            return;
        }
        long wait = done - clock[t];
        cur.idle[t] += wait;
        clock[t] = done;
        emitCall(t, wait);
    }

    private void spawn(int t, TraceReader r) {
        if (o.parallelStart) {
            emitCall(t, 0);
            return;
        }
        long count = r.arg(2);
        long child = r.arg(3);
        int started = 0;
        int before = active;
        if (count == 1 && child != 0) {
            if (child >= n || child == t) {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": spawn of thread " + child + ", but the trace set"
                        + " has threads 0.." + (n - 1));
            } else if (state[(int) child] == NOT_STARTED || state[(int) child] == PARKED) {
                activate((int) child, t);
                started = 1;
            } else {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": spawn of thread " + child
                        + ", which is already running");
            }
        } else {
            for (int u = 0; u < n && started < count; u++) {
                if (u != t && (state[u] == NOT_STARTED || state[u] == PARKED)) {
                    activate(u, t);
                    started++;
                }
            }
            if (started == 0) {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": spawn of " + count + " thread(s), but every"
                        + " other trace of the set is already running or ended");
            }
        }
        spawnedEver |= started > 0;
        if (before <= 1 && active > 1) {
            endPhase();
            beginPhase(Phase.Kind.PARALLEL, -1);
        }
        emitCall(t, 0);
    }

    private void activate(int u, int parent) {
        state[u] = RUNNABLE;
        active++;
        long d = clock[parent] - clock[u];
        if (d > 0) {
            cur.idle[u] += d;
            clock[u] = clock[parent];
        }
        participated[u] = true;
    }

    private void join(int t, TraceReader r) {
        if (o.parallelStart) {
            emitCall(t, 0);
            return;
        }
        long target = r.arg(3);
        if (target == 0 && t != 0) {
            emitCall(t, 0);
            endThread(t, PARKED);
            return;
        }
        if (target == 0) {
            if (!spawnedEver) {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": join with no spawn: thread 0 joins, but no"
                        + " spawn record started another thread");
                emitCall(t, 0);
                return;
            }
            if (active > 1) {
                block(t, W_JOIN_ALL, -1, 0);
            } else {
                emitCall(t, 0);
            }
            return;
        }
        if (target >= n || target == t || state[(int) target] == NOT_STARTED) {
            rp.bad(r.name() + ": byte offset " + r.offset() + ": join with no spawn: thread " + t + " joins thread "
                    + target + ", which " + (target >= n ? "is not in the trace set" : target == t
                    ? "is itself" : "no spawn record started"));
            emitCall(t, 0);
            return;
        }
        int u = (int) target;
        if (state[u] == ENDED || state[u] == PARKED) {
            wakeClock(t, endClock[u], false);
            emitCall(t, 0);
            return;
        }
        block(t, W_JOIN, u, 0);
    }

    private void barrier(int t, TraceReader r) {
        int obj = sync.of(r.arg(1));
        int parties = r.arg(2) > 0 ? (int) Math.min(r.arg(2), Integer.MAX_VALUE) : active;
        sync.parties[obj] = parties;
        long max = sync.arrivals[obj] == 0 ? clock[t] : Math.max(sync.arrivalMax[obj], clock[t]);
        sync.arrivals[obj]++;
        sync.arrivalMax[obj] = max;
        if (sync.arrivals[obj] < parties) {
            block(t, W_BARRIER, obj, 0);
            sync.enqueue(obj, t);
            return;
        }
        long before = clock[t];
        releaseBarrier(obj);
        wakeClock(t, max, false);
        emitCall(t, clock[t] - before);
    }

    /** Opens a barrier: every waiter leaves at the largest arrival clock (seed 000 §3). */
    void releaseBarrier(int obj) {
        long x = sync.arrivalMax[obj];
        sync.arrivals[obj] = 0;
        for (int u = sync.dequeue(obj); u >= 0; u = sync.dequeue(obj)) {
            wake(u, x);
        }
    }

    private void lock(int t, TraceReader r) {
        int obj = sync.of(r.arg(1));
        int owner = sync.owner[obj];
        if (owner < 0 || owner == t) {
            if (owner < 0) {
                sync.owner[obj] = t;
                sync.depth[obj] = 0;
                sync.ownerOffset[obj] = r.offset();
                held[t]++;
            }
            sync.depth[obj]++;
            emitCall(t, 0);
            return;
        }
        block(t, W_LOCK, obj, 0);
        sync.enqueue(obj, t);
    }

    private void unlock(int t, TraceReader r) {
        int obj = sync.of(r.arg(1));
        if (sync.owner[obj] != t) {
            rp.bad(r.name() + ": byte offset " + r.offset() + ": thread " + t + " ends critical section 0x"
                    + Long.toHexString(r.arg(1)) + ", which it does not hold");
            emitCall(t, 0);
            return;
        }
        emitCall(t, 0);
        if (--sync.depth[obj] == 0) {
            release(obj, t);
        }
    }

    /** Releases a lock held by {@code t}, handing it to the first waiter (FIFO). */
    private void release(int obj, int t) {
        held[t]--;
        sync.owner[obj] = -1;
        int u = sync.dequeue(obj);
        if (u >= 0) {
            sync.owner[obj] = u;
            sync.depth[obj] = 1;
            sync.ownerOffset[obj] = rd[u].offset();
            held[u]++;
            wake(u, clock[t]);
        }
    }

    private void awaitSeq(int t, TraceReader r) {
        long s = r.arg(2);
        if (s == 0) {
            emitCall(t, 0);
            return;
        }
        int obj = sync.of(r.arg(1));
        long key = ((long) obj << 32) | s;
        long w = seqDone.get(key, -1);
        if (w >= 0) {
            long before = clock[t];
            wakeClock(t, w, false);
            emitCall(t, clock[t] - before);
            return;
        }
        block(t, W_SEQ, obj, s);
        sync.enqueue(obj, t);
    }

    private void signalSeq(int t, TraceReader r) {
        long s = r.arg(2);
        emitCall(t, 0);
        if (s == 0) {
            return;
        }
        int obj = sync.of(r.arg(1));
        seqDone.put(((long) obj << 32) | s, clock[t]);
        int u = sync.head[obj];
        while (u >= 0) {
            int nx = sync.next[u];
            if (waitKind[u] == W_SEQ && waitSeq[u] == s) {
                sync.remove(obj, u);
                wake(u, clock[t]);
            }
            u = nx;
        }
    }

    private void beginOrder(int t) {
        if (orderCount[t] < orderRound) {
            orderCount[t] = orderRound;
        }
        if (orderCount[t] == orderRound && orderTurn == t) {
            emitCall(t, 0);
        } else {
            block(t, W_ORDER, -1, orderCount[t]);
        }
    }

    private void endOrder(int t) {
        orderCount[t]++;
        if (orderTurn == t) {
            advanceOrder(t, clock[t]);
        }
    }

    /** Passes the ordered-section turn from {@code t} to the next active thread in thread order. */
    private void advanceOrder(int t, long c) {
        int nx = -1;
        for (int u = t + 1; u < n; u++) {
            if (isActive(u)) {
                nx = u;
                break;
            }
        }
        if (nx < 0) {
            orderRound++;
            nx = firstActive();
        }
        orderTurn = nx;
        if (nx >= 0 && state[nx] == BLOCKED && waitKind[nx] == W_ORDER) {
            if (orderCount[nx] < orderRound) {
                orderCount[nx] = orderRound;
            }
            if (orderCount[nx] == orderRound) {
                wake(nx, c);
            }
        }
    }

    private void marker(int t, TraceReader r) {
        long cmd = r.arg(1);
        long num = r.arg(2);
        if (cmd == 1) {
            stopped[t] = true;
        } else if (cmd == 2) {
            stopped[t] = false;
        } else if (cmd == 3 || cmd == 4) {
            java.util.Arrays.fill(stopped, cmd == 3);
        }
        if (active <= 1) {
            endPhase();
            beginPhase(Phase.Kind.USER, (int) num);
            emitCall(t, 0);
            return;
        }
        block(t, W_MARKER, -1, num);
        checkMarkers();
    }

    /** Completes a parallel marker once every active thread waits at a marker with the same num. */
    private boolean checkMarkers() {
        long num = -1;
        long x = 0;
        for (int u = 0; u < n; u++) {
            if (state[u] == RUNNABLE || (state[u] == BLOCKED && waitKind[u] != W_MARKER)) {
                return false;
            }
            if (state[u] == BLOCKED) {
                if (num >= 0 && waitSeq[u] != num) {
                    return false;
                }
                num = waitSeq[u];
                x = Math.max(x, clock[u]);
            }
        }
        if (num < 0) {
            return false;
        }
        for (int u = 0; u < n; u++) {
            if (state[u] == BLOCKED) {
                wake(u, x);
            }
        }
        endPhase();
        beginPhase(Phase.Kind.USER, (int) num);
        return true;
    }

    // ---------------------------------------------------------------- waiting

    private void block(int t, int kind, int obj, long seq) {
        state[t] = BLOCKED;
        waitKind[t] = kind;
        waitObj[t] = obj;
        waitSeq[t] = seq;
        waitStart[t] = clock[t];
    }

    /** Ends a wait of {@code u} at clock {@code w}; the call it waited in is delivered when it next runs. */
    void wake(int u, long w) {
        int kind = waitKind[u];
        wakeClock(u, w, kind == W_LOCK || kind == W_ORDER);
        state[u] = RUNNABLE;
        resume[u] = true;
    }

    private void wakeClock(int u, long w, boolean contention) {
        long d = w - clock[u];
        if (d > 0) {
            if (contention) {
                cur.contention[u] += d;
            } else {
                cur.imbalance[u] += d;
            }
            clock[u] = w;
        }
    }

    private boolean anyBlocked() {
        for (int u = 0; u < n; u++) {
            if (state[u] == BLOCKED) {
                return true;
            }
        }
        return false;
    }

    private boolean isActive(int u) {
        return state[u] == RUNNABLE || state[u] == BLOCKED;
    }

    private int firstActive() {
        for (int u = 0; u < n; u++) {
            if (isActive(u)) {
                return u;
            }
        }
        return -1;
    }

    private void endThread(int t, int how) {
        if (held[t] > 0) {
            for (int obj = 0; obj < sync.count; obj++) {
                if (sync.owner[obj] == t) {
                    rp.bad(rd[t].name() + ": thread " + t + " ended inside critical section 0x"
                            + Long.toHexString(sync.address[obj]) + " (entered at byte offset "
                            + sync.ownerOffset[obj] + ")");
                    sync.depth[obj] = 0;
                    release(obj, t);
                }
            }
        }
        state[t] = how;
        endClock[t] = clock[t];
        active--;
        for (int u = 0; u < n; u++) {
            if (state[u] == BLOCKED && waitKind[u] == W_JOIN && waitObj[u] == t) {
                wake(u, clock[t]);
            }
        }
        if (orderTurn == t && active > 0) {
            advanceOrder(t, clock[t]);
        }
        if (active == 1) {
            int u = firstActive();
            if (state[u] == BLOCKED && waitKind[u] == W_JOIN_ALL) {
                wake(u, maxClock());
            }
        }
        boolean markerPhase = active >= 1 && checkMarkers();
        if (active == 1 && !markerPhase) {
            endPhase();
            beginPhase(Phase.Kind.SERIAL, -1);
        }
    }

    long maxClock() {
        long e = 0;
        for (int u = 0; u < n; u++) {
            e = Math.max(e, clock[u]);
        }
        return e;
    }

    // ---------------------------------------------------------------- phases

    /**
     * Starts a phase. Analyses hear of it ({@link Analysis#phaseBegin}) only when its first callback is due, so a
     * phase in which nothing is delivered (two threads ending at the same clock) is never reported.
     */
    private void beginPhase(Phase.Kind kind, int markerNum) {
        pendingKind = kind;
        pendingNum = markerNum;
        pendingStart = maxClock();
        announced = false;
        cur = new PhaseTimes(n);
        for (int u = 0; u < n; u++) {
            participated[u] = isActive(u);
        }
        orderRound = 0;
        java.util.Arrays.fill(orderCount, 0);
        orderTurn = Math.max(0, firstActive());
    }

    private void announce() {
        announced = true;
        phase = new Phase(++phaseId, pendingKind, pendingStart, pendingNum);
        for (Analysis a : an) {
            a.phaseBegin(phase);
        }
    }

    private void endPhase() {
        long e = maxClock();
        if (!announced) {
            if (e == pendingStart) {
                return;
            }
            announce();
        }
        for (int u = 0; u < n; u++) {
            long rem = e - clock[u];
            if (state[u] == BLOCKED && (waitKind[u] == W_LOCK || waitKind[u] == W_ORDER)) {
                cur.contention[u] += rem;
            } else if (participated[u]) {
                cur.imbalance[u] += rem;
            } else {
                cur.idle[u] += rem;
            }
            clock[u] = e;
        }
        phase.end(e);
        total.add(cur);
        for (Analysis a : an) {
            a.phaseEnd(phase, cur);
        }
    }
}
