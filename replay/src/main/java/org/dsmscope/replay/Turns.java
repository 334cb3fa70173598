package org.dsmscope.replay;

import static org.dsmscope.replay.ThreadEngine.BLOCKED;
import static org.dsmscope.replay.ThreadEngine.W_TURN;

import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceReader;

/**
 * The hand-offs of a recorded interleaving ({@link CallType#TURN_RELEASE} / {@link CallType#TURN_ACQUIRE}, SPEC §2:
 * a Lackey import keeps the order Valgrind ran its threads in, one at a time). A thread reaching its acquire of
 * turn n waits until turn n was released and goes on at the releaser's clock, like a lock handed over; since every
 * switch of the log is such a pair, one thread runs at a time and the replay delivers the records in the log's
 * order. The wait is Valgrind's serialisation, not the program's synchronization (no lock or barrier of the
 * program is recorded), so it is booked as idle ({@link Analysis#WAIT_IDLE}), as a processor with nothing to run
 * is in a serial phase (seed 001 §5.3). Runs on the replay thread, as the engine does.
 */
final class Turns {
    private final ThreadEngine e;
    private final Replay rp;
    /**
     * Turns released that no thread has acquired yet, with the releaser's clock: at most a few at a time (a thread
     * not yet at its acquire when its turn comes), so a short list searched linearly.
     */
    private long[] turn = new long[4];
    private long[] at = new long[4];
    private int pending;

    Turns(ThreadEngine e) {
        this.e = e;
        this.rp = e.rp;
    }

    /** Thread t acquires the turn its record names: now if it was released, else it waits for it. */
    void acquire(int t, TraceReader r) {
        long n = CallType.wide(r.arg(1), r.arg(2));
        for (int i = 0; i < pending; i++) {
            if (turn[i] == n) {
                long c = at[i];
                pending--;
                turn[i] = turn[pending];
                at[i] = at[pending];
                long before = e.clock[t];
                e.idleUntil(t, c);
                e.emitCall(t, e.clock[t] - before);
                return;
            }
        }
        e.block(t, W_TURN, -1, n);
    }

    /** Thread t releases the turn its record names: the thread waiting for it goes on at t's clock. */
    void release(int t, TraceReader r) {
        long n = CallType.wide(r.arg(1), r.arg(2));
        e.emitCall(t, 0);
        long c = e.clock[t];
        for (int u = 0; u < e.n; u++) {
            if (e.state[u] == BLOCKED && e.waitKind[u] == W_TURN && e.waitSeq[u] == n) {
                e.wake(u, c);
                return;
            }
        }
        for (int i = 0; i < pending; i++) {
            if (turn[i] == n) {
                rp.bad(r.name() + ": byte offset " + r.offset() + ": turn " + Long.toUnsignedString(n)
                        + " released twice (a hand-off pair per turn)");
                return;
            }
        }
        if (pending == turn.length) {
            turn = java.util.Arrays.copyOf(turn, pending * 2);
            at = java.util.Arrays.copyOf(at, pending * 2);
        }
        turn[pending] = n;
        at[pending++] = c;
    }
}
