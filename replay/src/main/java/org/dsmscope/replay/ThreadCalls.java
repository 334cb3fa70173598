package org.dsmscope.replay;

import static org.dsmscope.replay.ThreadEngine.BLOCKED;
import static org.dsmscope.replay.ThreadEngine.ENDED;
import static org.dsmscope.replay.ThreadEngine.NOT_STARTED;
import static org.dsmscope.replay.ThreadEngine.PARKED;
import static org.dsmscope.replay.ThreadEngine.RUNNABLE;
import static org.dsmscope.replay.ThreadEngine.W_BARRIER;
import static org.dsmscope.replay.ThreadEngine.W_JOIN;
import static org.dsmscope.replay.ThreadEngine.W_JOIN_ALL;
import static org.dsmscope.replay.ThreadEngine.W_LOCK;
import static org.dsmscope.replay.ThreadEngine.W_MARKER;
import static org.dsmscope.replay.ThreadEngine.W_ORDER;
import static org.dsmscope.replay.ThreadEngine.W_SEQ;
import static org.dsmscope.replay.ThreadEngine.W_SHARED;

import org.dsmscope.trace.CallType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * The call records of a thread replay and the synchronization state they act on (seed 000 §3, seed 001 §3, SPEC §4).
 *
 * <p>What each call does to the threads of a {@link ThreadEngine}: spawn, join, barrier, critical and ordered
 * sections, condition waits and latches, markers, the turn hand-offs of a recorded interleaving ({@link Turns}),
 * file I/O with {@code -handle_io}, and a thread's end (its held locks, its joiners, the ordered-section turn, a
 * phase change). It holds the synchronization objects, the
 * wake-up numbers seen, the I/O model, the locks each thread holds and the ordered-section round and turn; the
 * engine holds the clocks, thread states and waits, and the phases. Runs on the replay thread, as the engine does.
 * The rules are listed in the module README.
 */
final class ThreadCalls {
    private final ThreadEngine e;
    private final Replay rp;
    private final Analysis[] an;
    private final ReplayOptions o;
    private final int n;
    private final TraceReader[] rd;
    final SyncObjects sync;
    private final LongLongMap seqDone = new LongLongMap(64);
    /** The hand-offs of a recorded interleaving (Lackey imports). */
    private final Turns turns;
    private final IoModel io;
    private final int[] held;
    /**
     * Per thread: its trace says that the program ended while it still ran (end_trace argument 2 = 1), so a lock
     * it holds at its end was held at the exit, not left by a thread that ended inside it.
     */
    private final boolean[] cutOff;
    /**
     * Per thread: its trace began with a start_trace record, and it ended (end_trace or thread_end). SMAIT and the
     * agent close every trace they began with an end record; one that began but has none lost its end.
     */
    private final boolean[] began;
    private final boolean[] closed;
    /** Per thread, the locks it holds in shared mode ({@link #sharedCount} of them). */
    private final int[][] shared;
    private final int[] sharedCount;
    final int[] orderCount;
    private final long[] endClock;
    private boolean spawnedEver;
    int orderRound;
    int orderTurn;

    ThreadCalls(ThreadEngine e, Analysis[] an) {
        this.e = e;
        this.rp = e.rp;
        this.an = an;
        this.o = e.o;
        this.n = e.n;
        this.rd = e.rd;
        sync = new SyncObjects(n);
        io = new IoModel(o, n);
        held = new int[n];
        cutOff = new boolean[n];
        began = new boolean[n];
        closed = new boolean[n];
        shared = new int[n][];
        sharedCount = new int[n];
        orderCount = new int[n];
        endClock = new long[n];
        turns = new Turns(e);
    }

    /** Starts the ordered sections of a new phase: round 0, the first active thread's turn. */
    void resetOrder() {
        orderRound = 0;
        java.util.Arrays.fill(orderCount, 0);
        orderTurn = Math.max(0, e.firstActive());
    }

    /** Replays the call record {@code r} has just read for thread {@code t}. */
    void call(int t, TraceReader r) {
        int type = r.callType();
        if (type == CallType.LIVE_JOIN) {
            liveJoin(t, r);
            return;
        }
        e.times.read(t, r);
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
                e.emitCall(t, 0);
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
            case CallType.TURN_ACQUIRE:
                turns.acquire(t, r);
                return;
            case CallType.TURN_RELEASE:
                turns.release(t, r);
                return;
            case CallType.START_TRACE:
                began[t] = true;
                e.emitCall(t, 0);
                return;
            case CallType.END_TRACE:
                cutOff[t] = r.arg(2) == 1;
                closed[t] = true;
                e.emitCall(t, 0);
                return;
            case CallType.THREAD_END:
                closed[t] = true;
                e.emitCall(t, 0);
                // The agent closes a thread's file with an end_trace record after thread_end; nothing else may follow.
                int after = r.next();
                if (after == RecordKind.CALL && r.callType() == CallType.END_TRACE) {
                    e.emitCall(t, 0);
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
                e.emitCall(t, 0);
        }
    }

    /**
     * Whether the call record {@code r} has just read for thread {@code t} changes nothing but t's own hold on a
     * lock: an exclusive critical section begun on a lock free of holders (or held by t), without a recorded turn,
     * or one ended that leaves the lock held or hands it to no thread. Such a call blocks and wakes no thread and
     * takes no clock, so lockstep rounds go on across it ({@link LockstepRounds}), replaying it with {@link #call}.
     */
    boolean inRounds(int t, TraceReader r) {
        int type = r.callType();
        if (type != CallType.BEGIN_CRITICAL && type != CallType.END_CRITICAL || r.arg(2) == SHARED_MODE) {
            return false;
        }
        int obj = sync.of(r.arg(1));
        int owner = sync.owner[obj];
        if (type == CallType.BEGIN_CRITICAL) {
            if (r.arg(3) != 0 || owner != t && (owner >= 0 || sync.readers[obj] != 0)) {
                return false;
            }
        } else if (owner != t || sync.depth[obj] == 1 && (sync.readers[obj] != 0 || firstEligible(obj) >= 0)) {
            return false;
        }
        return true;
    }

    private void fileIo(int t, TraceReader r, boolean read) {
        if (!o.handleIo) {
            e.emitCall(t, 0);
            return;
        }
        long done = io.complete(e.clock[t], r.arg(2), t);
        int q = o.distributedIo ? t : 0;
        for (Analysis a : an) {
            a.io(t, t, q, done, read, r.arg(1), r.arg(2));
        }
        if (!io.blocks(read)) {
            e.emitCall(t, 0);
            return;
        }
        long from = e.clock[t];
        long wait = done - from;
        e.cur.idle[t] += wait;
        e.clock[t] = done;
        if (wait > 0) {
            e.waited(t, from, done, Analysis.WAIT_IO);
        }
        e.emitCall(t, wait);
    }

    private void spawn(int t, TraceReader r) {
        if (o.parallelStart) {
            e.emitCall(t, 0);
            return;
        }
        long count = r.arg(2);
        long child = r.arg(3);
        int started = 0;
        int before = e.active;
        if (count == 1 && child != 0) {
            if (child >= n || child == t) {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": spawn of thread " + child + ", but the trace set"
                        + " has threads 0.." + (n - 1));
            } else if (e.state[(int) child] == NOT_STARTED || e.state[(int) child] == PARKED) {
                activate((int) child, t);
                started = 1;
            } else {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": spawn of thread " + child
                        + ", which is already running");
            }
        } else {
            for (int u = 0; u < n && started < count; u++) {
                if (u != t && (e.state[u] == NOT_STARTED || e.state[u] == PARKED)) {
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
        if (before <= 1 && e.active > 1) {
            e.endPhase();
            e.beginPhase(Phase.Kind.PARALLEL, -1);
        }
        e.emitCall(t, 0);
    }

    private void activate(int u, int parent) {
        e.state[u] = RUNNABLE;
        e.active++;
        long from = e.clock[u];
        long d = e.clock[parent] - from;
        if (d > 0) {
            e.cur.idle[u] += d;
            e.clock[u] = e.clock[parent];
            e.waited(u, from, e.clock[u], Analysis.WAIT_IDLE);
        }
        e.participated[u] = true;
    }

    /**
     * An on-the-fly hint ({@link CallType#LIVE_JOIN}, not a record: not counted, not delivered): thread t has begun
     * an untimed join of thread arg3, whose join record follows once the join returns. If that record would make t
     * wait ({@link #join}), t waits now, as it would at the record, and the others go on; the record is read when
     * t resumes ({@link #hintedJoin}). Otherwise the hint is passed over and the record decides when it comes.
     */
    private void liveJoin(int t, TraceReader r) {
        e.replayed--;
        if (!rp.isLive()) {
            rp.bad(r.name() + ": byte offset " + r.offset() + ": call type 30 is an on-the-fly hint, not a trace"
                    + " record");
            return;
        }
        long target = r.arg(3);
        if (o.parallelStart || target <= 0 || target >= n || target == t) {
            return;
        }
        int u = (int) target;
        int s = e.state[u];
        if (s == NOT_STARTED || s == ENDED || s == PARKED) {
            return;
        }
        e.block(t, W_JOIN, u, 0);
        e.hinted[t] = true;
    }

    /**
     * Thread t resumes from a wait begun at a {@link CallType#LIVE_JOIN} hint: reads its join record (true: it is
     * the join promised, delivered next with the {@code wait} as if read at the hint). A run that broke the
     * promise (the join was interrupted, or the program ended during it) gets a problem: the thread waited for the
     * joined thread's end here, where the replay of its trace files would not; a record other than the join is
     * then replayed if it is a call (the end of the trace) and passed over otherwise.
     */
    boolean hintedJoin(int t, TraceReader r, long wait) {
        int u = e.waitObj[t];
        int k = r.next();
        e.replayed++;
        if (k == RecordKind.CALL && r.callType() == CallType.JOIN && r.arg(3) == u) {
            e.times.read(t, r);
            return true;
        }
        String what = k == RecordKind.CALL ? "a " + CallType.name(r.callType()) + " record" : k == RecordKind.EOF
                ? "the end of its records" : "a record of kind " + k;
        String msg = r.name() + ": byte offset " + r.offset() + ": on the fly, thread " + t + " began a join of"
                + " thread " + u + " that did not return (interrupted, or the program ended); the analysis had it"
                + " wait for thread " + u + "'s end, which the replay of trace files would not; found " + what;
        if (k == RecordKind.CALL) {
            rp.notice(msg);
            call(t, r);
        } else if (k == RecordKind.EOF) {
            e.replayed--;
            rp.notice(msg);
            checkComplete(t, r);
            endThread(t, ENDED);
        } else {
            rp.bad(msg + " (passed over)");
        }
        return false;
    }

    private void join(int t, TraceReader r) {
        if (o.parallelStart) {
            e.emitCall(t, 0);
            return;
        }
        long target = r.arg(3);
        if (target == 0 && t != 0) {
            e.emitCall(t, 0);
            endThread(t, PARKED);
            return;
        }
        if (target == 0) {
            if (!spawnedEver) {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": join with no spawn: thread 0 joins, but no"
                        + " spawn record started another thread");
                e.emitCall(t, 0);
                return;
            }
            if (e.active > 1) {
                e.block(t, W_JOIN_ALL, -1, 0);
            } else {
                e.emitCall(t, 0);
            }
            return;
        }
        if (target >= n || target == t || e.state[(int) target] == NOT_STARTED) {
            rp.bad(r.name() + ": byte offset " + r.offset() + ": join with no spawn: thread " + t + " joins thread "
                    + target + ", which " + (target >= n ? "is not in the trace set" : target == t
                    ? "is itself" : "no spawn record started"));
            e.emitCall(t, 0);
            return;
        }
        int u = (int) target;
        if (e.state[u] == ENDED || e.state[u] == PARKED) {
            e.wakeClock(t, endClock[u], false);
            e.emitCall(t, 0);
            return;
        }
        e.block(t, W_JOIN, u, 0);
    }

    private void barrier(int t, TraceReader r) {
        int obj = sync.of(r.arg(1));
        int parties = r.arg(2) > 0 ? (int) Math.min(r.arg(2), Integer.MAX_VALUE) : e.active;
        if (parties > e.n) {
            // it could never complete: say so here rather than as a deadlock at the end
            rp.bad(r.name() + ": byte offset " + r.offset() + ": barrier 0x" + Long.toHexString(r.arg(1)) + " for "
                    + Long.toUnsignedString(r.arg(2)) + " threads, but the trace set has " + e.n
                    + " (with --skip-bad-records: taken as a barrier of all active threads)");
            parties = e.active;
        }
        sync.parties[obj] = parties;
        long max = sync.arrivals[obj] == 0 ? e.clock[t] : Math.max(sync.arrivalMax[obj], e.clock[t]);
        sync.arrivals[obj]++;
        sync.arrivalMax[obj] = max;
        if (sync.arrivals[obj] < parties) {
            e.block(t, W_BARRIER, obj, 0);
            sync.enqueue(obj, t);
            return;
        }
        long before = e.clock[t];
        releaseBarrier(obj);
        e.wakeClock(t, max, false);
        e.emitCall(t, e.clock[t] - before);
    }

    /** Opens a barrier: every waiter leaves at the largest arrival clock (seed 000 §3). */
    void releaseBarrier(int obj) {
        long x = sync.arrivalMax[obj];
        sync.arrivals[obj] = 0;
        for (int u = sync.dequeue(obj, e.waitKind, W_BARRIER); u >= 0;
                u = sync.dequeue(obj, e.waitKind, W_BARRIER)) {
            e.wake(u, x);
        }
    }

    /** Argument 2 of a critical-section record for the shared (read) mode of a read-write lock. */
    static final long SHARED_MODE = 1;

    /**
     * Begin critical section. Argument 3 &gt; 0 is the acquisition's sequence number on the lock (the agent's, SPEC
     * §3): the lock is granted in that order, so a thread whose turn has not come waits (contention) even when the
     * lock is free; 0 (older traces, imports, generators) keeps the first-come rule.
     */
    private void lock(int t, TraceReader r) {
        int obj = sync.of(r.arg(1));
        long seq = r.arg(3);
        int owner = sync.owner[obj];
        boolean shared = r.arg(2) == SHARED_MODE;
        if (seq != 0 && seq != SyncObjects.nextTurn(sync.granted[obj])) {
            e.block(t, shared ? W_SHARED : W_LOCK, obj, seq); // an acquisition recorded before it comes first
            sync.enqueue(obj, t);
            return;
        }
        if (shared) {
            // shared: with the other readers, not while another thread holds it exclusively
            if (owner < 0 || owner == t) {
                addShared(t, obj);
                if (seq != 0) {
                    sync.granted[obj] = seq;
                    turnReaders(obj, e.clock[t]);
                }
                e.emitCall(t, 0);
                return;
            }
            e.block(t, W_SHARED, obj, seq);
            sync.enqueue(obj, t);
            return;
        }
        if (owner < 0 && sync.readers[obj] == 0 || owner == t) {
            if (owner < 0) {
                own(t, obj, r.offset());
            }
            sync.depth[obj]++;
            if (seq != 0) {
                sync.granted[obj] = seq;
            }
            e.emitCall(t, 0);
            return;
        }
        e.block(t, W_LOCK, obj, seq);
        sync.enqueue(obj, t);
    }

    /** Makes {@code t} the exclusive owner of the free lock {@code obj} (depth 0: the caller counts the entry). */
    private void own(int t, int obj, long offset) {
        sync.owner[obj] = t;
        sync.depth[obj] = 0;
        sync.ownerOffset[obj] = offset;
        held[t]++;
    }

    private void unlock(int t, TraceReader r) {
        int obj = sync.of(r.arg(1));
        if (r.arg(2) == SHARED_MODE) {
            if (!removeShared(t, obj)) {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": thread " + t + " ends shared critical section 0x"
                        + Long.toHexString(r.arg(1)) + ", which it does not hold");
            }
            e.emitCall(t, 0);
            if (sync.readers[obj] == 0 && sync.owner[obj] < 0) {
                handOver(obj, e.clock[t]);
            }
            return;
        }
        if (sync.owner[obj] != t) {
            rp.bad(r.name() + ": byte offset " + r.offset() + ": thread " + t + " ends critical section 0x"
                    + Long.toHexString(r.arg(1)) + ", which it does not hold");
            e.emitCall(t, 0);
            return;
        }
        e.emitCall(t, 0);
        if (--sync.depth[obj] == 0) {
            release(obj, t);
        }
    }

    /**
     * Releases a lock held by {@code t}, handing it to the first thread waiting for the lock (FIFO, or the thread
     * whose turn it is); threads waiting on the same object for a wake-up (a monitor's wait) stay queued.
     */
    private void release(int obj, int t) {
        held[t]--;
        sync.owner[obj] = -1;
        if (sync.readers[obj] == 0) {
            handOver(obj, e.clock[t]);
        } else {
            wakeReaders(obj, e.clock[t]); // t downgraded: it still reads, and so may the waiting readers
        }
    }

    /**
     * A lock nobody holds goes to its first eligible waiter in FIFO order (one without a sequence number, or the
     * one whose turn it is): exclusively to a thread waiting for it so, or in shared mode to the threads waiting
     * for it so ({@link #wakeReaders}). Threads waiting on the object for a wake-up stay queued.
     */
    private void handOver(int obj, long clock) {
        int u = firstEligible(obj);
        if (u < 0) {
            return;
        }
        if (e.waitKind[u] == W_SHARED) {
            wakeReaders(obj, clock);
            return;
        }
        sync.remove(obj, u);
        own(u, obj, rd[u].offset());
        sync.depth[obj] = 1;
        if (e.waitSeq[u] != 0) {
            sync.granted[obj] = e.waitSeq[u];
        }
        e.wake(u, clock);
    }

    /** The first thread waiting for {@code obj} as a lock with no sequence number or at its turn; -1 if none. */
    private int firstEligible(int obj) {
        long turn = SyncObjects.nextTurn(sync.granted[obj]);
        for (int u = sync.head[obj]; u >= 0; u = sync.next[u]) {
            int k = e.waitKind[u];
            if ((k == W_LOCK || k == W_SHARED) && (e.waitSeq[u] == 0 || e.waitSeq[u] == turn)) {
                return u;
            }
        }
        return -1;
    }

    /**
     * {@code obj} may be read: every thread waiting for it in shared mode without a sequence number gets it, and
     * then, in the recorded order, each reader whose turn has come (up to the first writer's turn).
     */
    private void wakeReaders(int obj, long clock) {
        for (int u = sync.head[obj]; u >= 0; ) {
            int nx = sync.next[u];
            if (e.waitKind[u] == W_SHARED && e.waitSeq[u] == 0) {
                sync.remove(obj, u);
                addShared(u, obj);
                e.wake(u, clock);
            }
            u = nx;
        }
        turnReaders(obj, clock);
    }

    /** While the thread whose turn it is on {@code obj} waits to read it and no writer holds it: it gets it. */
    private void turnReaders(int obj, long clock) {
        for (;;) {
            long turn = SyncObjects.nextTurn(sync.granted[obj]);
            int u = sync.head[obj];
            while (u >= 0 && !(e.waitKind[u] == W_SHARED && e.waitSeq[u] == turn)) {
                u = sync.next[u];
            }
            if (u < 0 || sync.owner[obj] >= 0 && sync.owner[obj] != u) {
                return;
            }
            sync.remove(obj, u);
            addShared(u, obj);
            sync.granted[obj] = turn;
            e.wake(u, clock);
        }
    }

    /**
     * With skipping on, a deadlock opens thread u's lock wait ({@link ThreadErrors}): its turn is taken as come, and
     * it gets the lock if no other thread holds it so (else it goes on without it, as a thread that does not hold
     * the lock, and its end of the section is reported).
     */
    void forceLock(int u, int obj) {
        sync.remove(obj, u);
        if (e.waitSeq[u] != 0) {
            sync.granted[obj] = e.waitSeq[u];
        }
        if (e.waitKind[u] == W_SHARED) {
            if (sync.owner[obj] < 0) {
                addShared(u, obj);
            }
        } else if (sync.owner[obj] < 0 && sync.readers[obj] == 0) {
            own(u, obj, rd[u].offset());
            sync.depth[obj] = 1;
        }
    }

    private void addShared(int t, int obj) {
        int[] s = shared[t];
        if (s == null || sharedCount[t] == s.length) {
            s = s == null ? new int[4] : java.util.Arrays.copyOf(s, s.length * 2);
            shared[t] = s;
        }
        s[sharedCount[t]++] = obj;
        sync.readers[obj]++;
        held[t]++;
    }

    /** Removes one shared hold of {@code obj} by {@code t}; false if it holds none. */
    private boolean removeShared(int t, int obj) {
        int[] s = shared[t];
        for (int i = sharedCount[t] - 1; i >= 0; i--) {
            if (s[i] == obj) {
                s[i] = s[--sharedCount[t]];
                sync.readers[obj]--;
                held[t]--;
                return true;
            }
        }
        return false;
    }

    private void awaitSeq(int t, TraceReader r) {
        long s = r.arg(2);
        if (s == 0) {
            e.emitCall(t, 0);
            return;
        }
        int obj = sync.of(r.arg(1));
        long key = ((long) obj << 32) | s;
        long w = seqDone.get(key, -1);
        if (w >= 0) {
            long before = e.clock[t];
            e.wakeClock(t, w, false);
            e.emitCall(t, e.clock[t] - before);
            return;
        }
        e.block(t, W_SEQ, obj, s);
        sync.enqueue(obj, t);
    }

    private void signalSeq(int t, TraceReader r) {
        long s = r.arg(2);
        e.emitCall(t, 0);
        if (s == 0) {
            return;
        }
        int obj = sync.of(r.arg(1));
        seqDone.put(((long) obj << 32) | s, e.clock[t]);
        int u = sync.head[obj];
        while (u >= 0) {
            int nx = sync.next[u];
            if (e.waitKind[u] == W_SEQ && e.waitSeq[u] == s) {
                sync.remove(obj, u);
                e.wake(u, e.clock[t]);
            }
            u = nx;
        }
    }

    private void beginOrder(int t) {
        if (orderCount[t] < orderRound) {
            orderCount[t] = orderRound;
        }
        if (orderCount[t] == orderRound && orderTurn == t) {
            e.emitCall(t, 0);
        } else {
            e.block(t, W_ORDER, -1, orderCount[t]);
        }
    }

    private void endOrder(int t) {
        orderCount[t]++;
        if (orderTurn == t) {
            advanceOrder(t, e.clock[t]);
        }
    }

    /** Passes the ordered-section turn from {@code t} to the next active thread in thread order. */
    private void advanceOrder(int t, long c) {
        int nx = -1;
        for (int u = t + 1; u < n; u++) {
            if (e.isActive(u)) {
                nx = u;
                break;
            }
        }
        if (nx < 0) {
            orderRound++;
            nx = e.firstActive();
        }
        orderTurn = nx;
        if (nx >= 0 && e.state[nx] == BLOCKED && e.waitKind[nx] == W_ORDER) {
            if (orderCount[nx] < orderRound) {
                orderCount[nx] = orderRound;
            }
            if (orderCount[nx] == orderRound) {
                e.wake(nx, c);
            }
        }
    }

    private void marker(int t, TraceReader r) {
        long cmd = r.arg(1);
        long num = r.arg(2);
        if (cmd < 0 || cmd > 4) {
            rp.bad(r.name() + ": byte offset " + r.offset() + ": marker command " + Long.toUnsignedString(cmd)
                    + " (seed 000 Appendix A defines 0 to 4; with --skip-bad-records: taken as a phase marker,"
                    + " command 0)");
            cmd = 0;
        }
        if (cmd == 1) {
            e.stopped[t] = true;
        } else if (cmd == 2) {
            e.stopped[t] = false;
        } else if (cmd == 3 || cmd == 4) {
            java.util.Arrays.fill(e.stopped, cmd == 3);
        }
        if (e.active <= 1) {
            e.endPhase();
            e.beginPhase(Phase.Kind.USER, (int) num);
            e.emitCall(t, 0);
            return;
        }
        e.block(t, W_MARKER, -1, num);
        checkMarkers();
    }

    /** Completes a parallel marker once every active thread waits at a marker with the same num. */
    private boolean checkMarkers() {
        long num = -1;
        long x = 0;
        for (int u = 0; u < n; u++) {
            if (e.state[u] == RUNNABLE || (e.state[u] == BLOCKED && e.waitKind[u] != W_MARKER)) {
                return false;
            }
            if (e.state[u] == BLOCKED) {
                if (num >= 0 && e.waitSeq[u] != num) {
                    return false;
                }
                num = e.waitSeq[u];
                x = Math.max(x, e.clock[u]);
            }
        }
        if (num < 0) {
            return false;
        }
        for (int u = 0; u < n; u++) {
            if (e.state[u] == BLOCKED) {
                e.wake(u, x);
            }
        }
        e.endPhase();
        e.beginPhase(Phase.Kind.USER, (int) num);
        return true;
    }

    /**
     * At the end of thread t's file: a trace that began with start_trace but has no end record lost its end (its
     * writer stopped early: a full disk, a killed process), so the results would miss what the thread did after.
     */
    void checkComplete(int t, TraceReader r) {
        if (began[t] && !closed[t]) {
            rp.bad(r.name() + ": the trace ends at byte offset " + r.offset() + " without an end_trace record"
                    + " although it began with start_trace: it is incomplete (its writer stopped early, e.g. on a"
                    + " full disk)");
        }
    }

    /** Ends thread {@code t} (state {@code how}: ENDED or PARKED): its locks, its joiners, the ordered turn, phases. */
    void endThread(int t, int how) {
        // A thread cut off by the program's exit may hold locks: they are released at its end (no thread acquired
        // them later: one that tried was still waiting at the exit, and a wait is recorded when it ends).
        while (sharedCount[t] > 0) {
            int obj = shared[t][sharedCount[t] - 1];
            if (!cutOff[t]) {
                rp.bad(rd[t].name() + ": thread " + t + " ended inside shared critical section 0x"
                        + Long.toHexString(sync.address[obj]));
            }
            removeShared(t, obj);
            if (sync.readers[obj] == 0 && sync.owner[obj] < 0) {
                handOver(obj, e.clock[t]);
            }
        }
        if (held[t] > 0) {
            for (int obj = 0; obj < sync.count; obj++) {
                if (sync.owner[obj] == t) {
                    if (!cutOff[t]) {
                        rp.bad(rd[t].name() + ": thread " + t + " ended inside critical section 0x"
                                + Long.toHexString(sync.address[obj]) + " (entered at byte offset "
                                + sync.ownerOffset[obj] + ")");
                    }
                    sync.depth[obj] = 0;
                    release(obj, t);
                }
            }
        }
        e.state[t] = how;
        endClock[t] = e.clock[t];
        e.active--;
        for (int u = 0; u < n; u++) {
            if (e.state[u] == BLOCKED && e.waitKind[u] == W_JOIN && e.waitObj[u] == t) {
                e.wake(u, e.clock[t]);
            }
        }
        if (orderTurn == t && e.active > 0) {
            advanceOrder(t, e.clock[t]);
        }
        if (e.active == 1) {
            int u = e.firstActive();
            if (e.state[u] == BLOCKED && e.waitKind[u] == W_JOIN_ALL) {
                e.wake(u, e.maxClock());
            }
        }
        boolean markerPhase = e.active >= 1 && checkMarkers();
        if (e.active == 1 && !markerPhase) {
            e.endPhase();
            e.beginPhase(Phase.Kind.SERIAL, -1);
        }
    }
}
