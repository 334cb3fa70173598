package org.dsmscope.replay;

import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.SmaitFormat;
import org.dsmscope.trace.TraceReader;

/**
 * Replay of thread traces (seed 000 §3, seed 001 §3 and §5.3, SPEC §4): the scheduling (one pseudo clock per
 * thread, smallest first, ties round-robin), the records' delivery, the threads' states and waits, and the phases,
 * with busy / idle / imbalance / contention per thread and phase. What call records do (spawn, join, barrier,
 * critical and ordered sections, condition waits, latches, markers, file I/O) is {@link ThreadCalls}. The rules and
 * the choices the seeds leave open are listed in the module README.
 *
 * <p>Accounting invariant: every change of a thread's clock is added to exactly one of its four times in the
 * current phase, so at a phase end busy + idle + imbalance + contention = the phase's length for every thread; every
 * change that is not busy is also told to the analyses as an interval ({@link #waited}).
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
    /** Waiting for a lock in shared (read) mode: critical-section records with argument 2 = 1. */
    static final int W_SHARED = 8;
    /** Waiting for turn n of a recorded interleaving ({@link Turns}): booked as idle, Valgrind's serialisation. */
    static final int W_TURN = 9;

    final Replay rp;
    final Analysis[] an;
    /**
     * Where data accesses go: the one analysis itself, or a fan-out to several. The hot loops call this one object
     * instead of looping over {@link #an} per record: a loop of one iteration inside the lockstep rounds' loops cost
     * the replay alone about a third of its time (the JIT inlines the call either way, but not the loop nest).
     */
    final Analysis accessSink;
    final ReplayOptions o;
    final int n;
    final TraceReader[] rd;
    final CallTimes times;
    private final CallEvent ev = new CallEvent();
    /** What call records do; holds the synchronization state. */
    final ThreadCalls calls;

    final long[] clock;
    final long[] lastInstr;
    final int[] state;
    final int[] waitKind;
    final int[] waitObj;
    final long[] waitSeq;
    private final long[] waitStart;
    final boolean[] resume;
    /**
     * Per thread: it waits because of an on-the-fly {@link CallType#LIVE_JOIN} hint, and its join record is still to
     * be read when it resumes ({@link ThreadCalls#hintedJoin}).
     */
    final boolean[] hinted;
    final boolean[] stopped;
    final boolean[] fetchMode;
    /**
     * Per thread in fetch mode: its clock reached the bound at an instruction fetch, and the memory records that
     * follow belong to that instruction (SPEC §2: the records of one instruction stay together), so it goes on
     * until the next record that is not a memory record. That record, already read, is {@link #heldKind}.
     */
    final boolean[] tail;
    /** Per thread: the kind of a record read at the end of a {@link #tail} and handled when it runs next; 0: none. */
    final int[] heldKind;
    final boolean[] pcValid;
    final long[] pc;
    /** Exact reconstruction from the symbol sidecar's memory-access offsets, or null (seed 000 §3's). */
    final CodeMap code;
    final boolean[] participated;
    /**
     * Routed replay ({@link Replay#runRouted}): per thread, the data accesses of a {@link CallType#ROUTED_GAP}
     * record not consumed yet, and their bytes ({@link #gapPiece}).
     */
    final long[] gapLeft;
    final long[] gapBytes;

    int active;
    int last = -1;
    private long bound;
    private int phaseId;
    boolean announced;
    private Phase.Kind pendingKind;
    private int pendingNum;
    private long pendingStart;
    private Phase phase;
    PhaseTimes cur;
    final PhaseTimes total;
    long replayed;

    ThreadEngine(Replay rp, Analysis[] an, TraceReader[] rd, CallTimes times, boolean[] fetchMode, CodeMap code) {
        this.rp = rp;
        this.code = code;
        this.an = an;
        this.accessSink = an.length == 1 ? an[0] : new AccessFanout(an);
        this.o = rp.options();
        this.rd = rd;
        this.n = rd.length;
        this.times = times;
        this.fetchMode = fetchMode;
        clock = new long[n];
        lastInstr = new long[n];
        state = new int[n];
        waitKind = new int[n];
        waitObj = new int[n];
        waitSeq = new long[n];
        waitStart = new long[n];
        resume = new boolean[n];
        hinted = new boolean[n];
        stopped = new boolean[n];
        tail = new boolean[n];
        heldKind = new int[n];
        pcValid = new boolean[n];
        pc = new long[n];
        participated = new boolean[n];
        gapLeft = new long[n];
        gapBytes = new long[n];
        total = new PhaseTimes(n);
        calls = new ThreadCalls(this, an);
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
                if (bound - c <= 1 && heldKind[t] == 0 && !resume[t]) {
                    // lockstep rounds; after attempts that ran less than a round (short runs between branches: a
                    // level-3 trace) the next ones wait 1, 2, 4 ... 64 scheduling decisions, since a failed
                    // look-ahead costs more than the rounds save there; a longer run resets the wait
                    if (roundsBackoff > 0) {
                        roundsBackoff--;
                    } else {
                        long ran = rounds(t, c);
                        if (ran > 0 && ran >= lockstep.threads()) {
                            roundsFailed = 0;
                        } else {
                            roundsBackoff = 1 << Math.min(roundsFailed++, 6);
                        }
                        if (ran > 0) {
                            continue;
                        }
                    }
                }
                step(t);
                if (clock[t] == c) {
                    // a call (or a wait, or the end): the next decision may start rounds, the others' holes
                    continue;
                }
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

    /** Scheduling decisions left before lockstep rounds are tried again, and their failures since the last success. */
    private int roundsBackoff;
    private int roundsFailed;
    /** The lockstep rounds ({@link LockstepRounds}), made on first use. */
    private LockstepRounds lockstep;

    /** Runs lockstep rounds from thread t at clock c if they apply ({@link LockstepRounds#run}); the accesses run. */
    private long rounds(int t, long c) {
        if (lockstep == null) {
            lockstep = new LockstepRounds(this);
        }
        return lockstep.run(t, c);
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

    /**
     * Runs thread t for at least one record, then while its clock stays below every other runnable clock (in fetch
     * mode, and then up to the end of the instruction it fetched last: {@link #tail}).
     */
    private void step(int t) {
        last = t;
        final TraceReader r = rd[t];
        if (resume[t]) {
            resume[t] = false;
            if (hinted[t]) {
                hinted[t] = false;
                if (!calls.hintedJoin(t, r, clock[t] - waitStart[t])) {
                    return;
                }
            }
            emitCall(t, clock[t] - waitStart[t]);
        }
        if (heldKind[t] != 0) {
            int k = heldKind[t];
            heldKind[t] = 0;
            if (!record(t, r, k) || clock[t] >= bound && !tail[t] || state[t] != RUNNABLE) {
                return;
            }
        }
        if (gapLeft[t] > 0 && (!gap(t) || clock[t] >= bound)) {
            // the rest of a routed gap, as its records would run: the first one even at the bound, then up to it
            return;
        }
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
            if (tail[t] && k != RecordKind.MEMORY) {
                // the instruction's accesses are done: this record waits until t runs next
                tail[t] = false;
                heldKind[t] = k;
                return;
            }
            if (!record(t, r, k)) {
                return;
            }
        } while ((clock[t] < bound || tail[t]) && state[t] == RUNNABLE);
    }

    /** Handles the record of kind k that thread t's reader has just read; false if t must stop here. */
    private boolean record(int t, TraceReader r, int k) {
        if (k == RecordKind.MEMORY) {
            if (stopped[t]) {
                return true;
            }
            if (!announced) {
                announce();
            }
            long c = clock[t];
            if (fetchMode[t]) {
                access(t, lastInstr[t], r.memType(), r.size(), r.address());
                return true;
            }
            if (pcValid[t]) {
                c = fetchAccess(t, c);
            }
            access(t, c, r.memType(), r.size(), r.address());
            lastInstr[t] = c;
            clock[t] = c + 1;
            cur.busy[t]++;
            return true;
        } else if (k == RecordKind.CALL) {
            if (r.callType() == CallType.ROUTED_GAP) {
                replayed--;
                newGap(t, r);
                return gapLeft[t] == 0 || gap(t);
            }
            calls.call(t, r);
            return false;
        } else if (k == RecordKind.EOF) {
            replayed--;
            calls.checkComplete(t, r);
            calls.endThread(t, ENDED);
            return false;
        }
        other(t, k, r.source(), r.target(), r.size());
        return true;
    }

    /**
     * Records per run taken from the reader: at most {@link #RUN}, and at most the room left below the bound (a
     * memory record advances the clock by one, a branch by its gap, others not at all, so a run is rarely given
     * back); none below {@link #MIN_RUN}.
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
        // tail[t] is false on entry (a thread in its tail has no room for a run); it becomes true only at a fetch
        boolean inTail = false;
        for (int i = r.runStart(), end = i + n; i < end; i++) {
            long word = w[i];
            int k = TraceReader.wordKind(word);
            if (inTail && k != RecordKind.MEMORY) {
                // the accesses of the instruction that reached the bound are done (a fetch came before: i > start)
                tail[t] = false;
                r.unread(end - i);
                return false;
            }
            replayed++;
            int f1 = (int) (word >>> 32);
            long address = hi | (word & 0xFFFFFFFFL);
            if (k == RecordKind.MEMORY) {
                memory(t, f1, MemType.bytes(f1), address);
            } else if (k == RecordKind.FETCH) {
                other(t, k, address, address, f1 & 0xFFFFFF);
                inTail = tail[t];
            } else {
                long source = k == RecordKind.PROC_START ? address : hi | (f1 & SmaitFormat.BRANCH_FIELD_MASK);
                other(t, k, source, address, 0);
            }
            if (clock[t] >= bound && !inTail || state[t] != RUNNABLE) {
                r.unread(end - i - 1);
                return false;
            }
        }
        return true;
    }

    /**
     * Consumes thread t's routed gap as its data accesses would run here: at least one, then up to the bound
     * (each advances the clock by one and is busy; a stopped thread's are dropped, unseen, as the serial run drops
     * its records); tells the analyses the piece that runs, with its bytes ({@link Analysis#skipped}). Returns false
     * if part of the gap is left (t must give way).
     */
    private boolean gap(int t) {
        long left = gapLeft[t];
        if (stopped[t]) {
            // a stopped thread's records take no clock: below the bound it runs through them all, at the bound
            // (a tie) one per turn, as the serial run's step does
            long take = clock[t] < bound ? left : 1;
            gapPiece(t, left, take);
            replayed += take;
            gapLeft[t] = left - take;
            return gapLeft[t] == 0;
        }
        if (!announced) {
            announce();
        }
        if (pcValid[t]) {
            return StreamGaps.gap(this, t, bound);
        }
        long c = clock[t];
        int take = (int) Math.min(left, Math.max(1, Math.min(bound - c, Integer.MAX_VALUE)));
        long bytes = gapPiece(t, left, take);
        for (Analysis a : an) {
            a.skipped(t, c, take, bytes);
        }
        gapLeft[t] = left - take;
        replayed += take;
        lastInstr[t] = c + take - 1;
        clock[t] = c + take;
        cur.busy[t] += take;
        return gapLeft[t] == 0;
    }

    /** Thread t's reader {@code r} has just read a gap record: its count and bytes. */
    void newGap(int t, TraceReader r) {
        gapLeft[t] = r.arg(1);
        gapBytes[t] = r.arg(2) | r.arg(3) << 32;
    }

    /**
     * The bytes of the next {@code take} accesses of thread t's gap, of which {@code left} are left, taken off the
     * bytes it has left. Where a marker may stop or resume all threads (so that a piece may be dropped), every gap
     * is of one access size ({@code Prescan.gapsBySize}; trace/README.md "Routed streams"): the piece's bytes are
     * {@code take} times that size, exactly the serial run's. Another gap runs whole, its pieces in one phase or
     * another: each takes an even share, the last the rest, and all of them together the gap's bytes.
     */
    long gapPiece(int t, long left, long take) {
        long b = take >= left ? gapBytes[t] : gapBytes[t] / left * take;
        gapBytes[t] -= b;
        return b;
    }

    /** A memory record of type field {@code type} (as {@link TraceReader#memType()} gives it). */
    void memory(int t, int type, int size, long addr) {
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
            c = fetchAccess(t, c);
        }
        access(t, c, type, size, addr);
        lastInstr[t] = c;
        clock[t] = c + 1;
        cur.busy[t]++;
    }

    /**
     * The fetches of a memory record of thread t, whose program counter is valid, at clock c: with {@link #code},
     * first the instructions from the counter up to the method's next memory-access instruction (one clock each,
     * busy), then that instruction; without, the instruction at the counter (seed 000 §3). Returns the memory
     * instruction's clock; the counter moves past it.
     */
    long fetchAccess(int t, long c) {
        long p = pc[t];
        if (code != null) {
            long at = code.nextAccess(t, p);
            long gap = at > p ? (at - p) / InstructionStream.WORD : 0;
            if (gap > 0 && gap <= InstructionStream.MAX_GAP) {
                for (Analysis a : an) {
                    a.fetchRun(t, t, c, p, (int) gap);
                }
                cur.busy[t] += gap;
                c += gap;
                p += gap * InstructionStream.WORD;
            }
        }
        for (Analysis a : an) {
            a.fetch(t, t, c, p, InstructionStream.WORD);
        }
        pc[t] = p + InstructionStream.WORD;
        return c;
    }

    private void access(int t, long c, int type, int size, long addr) {
        boolean store = (type & 0xF) == MemType.STORE;
        accessSink.access(t, t, c, type, size, store, addr);
    }

    /** Hands each data access to every analysis in order (for {@link #accessSink} with several analyses). */
    private static final class AccessFanout implements Analysis {
        private final Analysis[] an;

        AccessFanout(Analysis[] an) {
            this.an = an;
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            for (Analysis a : an) {
                a.access(thread, cpu, clock, memType, size, store, address);
            }
        }

        @Override
        public void skipped(int thread, long clock, int count, long bytes) {
            for (Analysis a : an) {
                a.skipped(thread, clock, count, bytes);
            }
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
            // its accesses follow: they are delivered before the thread gives way
            tail[t] = c + 1 >= bound;
            return;
        }
        if (k != RecordKind.PROC_START && !fetchMode[t]) {
            long gap = InstructionStream.gap(pcValid[t], pc[t], source);
            long c = clock[t];
            long p = pc[t];
            for (long i = 0; i < gap; ) {
                int n = (int) Math.min(gap - i, 1 << 30);
                for (Analysis a : an) {
                    a.fetchRun(t, t, c + i, p + i * InstructionStream.WORD, n);
                }
                i += n;
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

    /** Delivers the call record thread {@code t} last read, with the wait it caused. */
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

    // ---------------------------------------------------------------- waiting

    void block(int t, int kind, int obj, long seq) {
        state[t] = BLOCKED;
        waitKind[t] = kind;
        waitObj[t] = obj;
        waitSeq[t] = seq;
        waitStart[t] = clock[t];
    }

    /** Ends a wait of {@code u} at clock {@code w}; the call it waited in is delivered when it next runs. */
    void wake(int u, long w) {
        int kind = waitKind[u];
        if (kind == W_TURN) {
            idleUntil(u, w);
        } else {
            wakeClock(u, w, kind == W_LOCK || kind == W_SHARED || kind == W_ORDER);
        }
        state[u] = RUNNABLE;
        resume[u] = true;
    }

    /** Moves u's clock forward to {@code w}, booking the interval as idle (a turn of a recorded interleaving). */
    void idleUntil(int u, long w) {
        long c = clock[u];
        if (w > c) {
            cur.idle[u] += w - c;
            clock[u] = w;
            waited(u, c, w, Analysis.WAIT_IDLE);
        }
    }

    void wakeClock(int u, long w, boolean contention) {
        long c = clock[u];
        long d = w - c;
        if (d > 0) {
            if (contention) {
                cur.contention[u] += d;
            } else {
                cur.imbalance[u] += d;
            }
            clock[u] = w;
            waited(u, c, w, contention ? Analysis.WAIT_CONTENTION : Analysis.WAIT_IMBALANCE);
        }
    }

    /**
     * Tells every analysis that thread u did no work from {@code from} to {@code to} ({@link Analysis#waited}),
     * after its caller booked the interval in {@link #cur}. Not on the per-record path: waits are rare.
     */
    void waited(int u, long from, long to, int reason) {
        if (!announced) {
            announce(); // a wait in a phase makes it longer than nothing, so it is reported anyway
        }
        for (Analysis a : an) {
            a.waited(u, u, from, to, reason);
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

    boolean isActive(int u) {
        return state[u] == RUNNABLE || state[u] == BLOCKED;
    }

    int firstActive() {
        for (int u = 0; u < n; u++) {
            if (isActive(u)) {
                return u;
            }
        }
        return -1;
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
    void beginPhase(Phase.Kind kind, int markerNum) {
        pendingKind = kind;
        pendingNum = markerNum;
        pendingStart = maxClock();
        announced = false;
        cur = new PhaseTimes(n);
        for (int u = 0; u < n; u++) {
            participated[u] = isActive(u);
        }
        calls.resetOrder();
    }

    void announce() {
        announced = true;
        phase = new Phase(++phaseId, pendingKind, pendingStart, pendingNum);
        for (Analysis a : an) {
            a.phaseBegin(phase);
        }
    }

    void endPhase() {
        long e = maxClock();
        if (!announced) {
            if (e == pendingStart) {
                return;
            }
            announce();
        }
        for (int u = 0; u < n; u++) {
            long c = clock[u];
            long rem = e - c;
            int reason;
            if (state[u] == BLOCKED && (waitKind[u] == W_LOCK || waitKind[u] == W_SHARED || waitKind[u] == W_ORDER)) {
                cur.contention[u] += rem;
                reason = Analysis.WAIT_CONTENTION;
            } else if (participated[u] && !(state[u] == BLOCKED && waitKind[u] == W_TURN)) {
                cur.imbalance[u] += rem;
                reason = Analysis.WAIT_IMBALANCE;
            } else {
                cur.idle[u] += rem;
                reason = Analysis.WAIT_IDLE;
            }
            clock[u] = e;
            if (rem > 0) {
                waited(u, c, e, reason);
            }
        }
        phase.end(e);
        total.add(cur);
        for (Analysis a : an) {
            a.phaseEnd(phase, cur);
        }
    }
}
