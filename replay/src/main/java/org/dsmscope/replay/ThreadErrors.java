package org.dsmscope.replay;

import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * The errors of a thread replay (SPEC §4, "Bad input" of issue 4): deadlock detection with a report of which
 * threads wait where, the forced way out when the user asks to continue, and threads left over at the end.
 */
final class ThreadErrors {
    private ThreadErrors() {
    }


    /** What a deadlock report suggests (issue 22): how to analyse the trace set anyway. */
    static final String HOW_ANYWAY = "The records named are where each thread stopped (dsmscope dump shows them);"
            + " to analyse anyway: --skip-bad-records (opens the first wait and goes on, counted as a problem) or"
            + " -i P -a (the slice scheduler on P processors, which orders the threads by their recorded times)";

    static void deadlock(ThreadEngine e) {
        List<String> waits = new ArrayList<>();
        int first = -1;
        for (int u = 0; u < e.n; u++) {
            if (e.state[u] == ThreadEngine.BLOCKED) {
                waits.add(describeWait(e, u));
                if (first < 0) {
                    first = u;
                }
            }
        }
        e.rp.bad("deadlock: no thread can proceed; " + String.join("; ", waits) + ". " + HOW_ANYWAY);
        forceOpen(e, first);
    }

    private static String describeWait(ThreadEngine e, int u) {
        TraceReader r = e.rd[u];
        String where = "thread " + u + " (" + r.name() + ", byte offset " + r.offset() + ", clock " + e.clock[u]
                + ")";
        int obj = e.waitObj[u];
        SyncObjects sync = e.calls.sync;
        switch (e.waitKind[u]) {
            case ThreadEngine.W_LOCK:
            case ThreadEngine.W_SHARED:
                return where + " waits for lock 0x" + Long.toHexString(sync.address[obj])
                        + (e.waitKind[u] == ThreadEngine.W_SHARED ? " (shared)" : "")
                        + (sync.owner[obj] >= 0 ? " held by thread " + sync.owner[obj]
                        : sync.readers[obj] > 0 ? " held in shared mode by " + sync.readers[obj] + " thread(s)"
                        : " (free)") + turn(e.waitSeq[u], sync.granted[obj]);
            case ThreadEngine.W_BARRIER:
                return where + " waits at barrier 0x" + Long.toHexString(sync.address[obj]) + " ("
                        + sync.arrivals[obj] + " of " + sync.parties[obj] + " threads arrived)";
            case ThreadEngine.W_JOIN:
                return where + " waits to join thread " + obj;
            case ThreadEngine.W_JOIN_ALL:
                return where + " waits to join all threads";
            case ThreadEngine.W_SEQ:
                return where + " waits on 0x" + Long.toHexString(sync.address[obj]) + " for wake-up/release #"
                        + e.waitSeq[u] + ", which no thread has executed";
            case ThreadEngine.W_ORDER:
                return where + " waits for its ordered section (turn of thread " + e.calls.orderTurn + ")";
            case ThreadEngine.W_TURN:
                return where + " waits for turn " + Long.toUnsignedString(e.waitSeq[u]) + " of the recorded"
                        + " interleaving, which no thread has released";
            default:
                return where + " waits at marker num " + e.waitSeq[u] + " for the other active threads";
        }
    }

    /** Where a lock wait with sequence number {@code seq} stands in the recorded order ("" without one). */
    private static String turn(long seq, long granted) {
        if (seq == 0) {
            return "";
        }
        long next = SyncObjects.nextTurn(granted);
        return seq == next ? ", its turn (acquisition #" + seq + " in the recorded order)" : " as acquisition #" + seq
                + " in the recorded order, after #" + next + ", not yet granted";
    }

    /** With skipping on: lets the first waiting thread through, as if its wait had ended now. */
    private static void forceOpen(ThreadEngine e, int u) {
        int obj = e.waitObj[u];
        long now = e.maxClock();
        ThreadCalls calls = e.calls;
        switch (e.waitKind[u]) {
            case ThreadEngine.W_BARRIER:
                calls.sync.arrivalMax[obj] = Math.max(calls.sync.arrivalMax[obj], now);
                calls.releaseBarrier(obj);
                return;
            case ThreadEngine.W_LOCK:
            case ThreadEngine.W_SHARED:
                calls.forceLock(u, obj);
                break;
            case ThreadEngine.W_SEQ:
                calls.sync.remove(obj, u);
                break;
            case ThreadEngine.W_ORDER:
                calls.orderTurn = u;
                calls.orderCount[u] = calls.orderRound;
                break;
            case ThreadEngine.W_MARKER:
                for (int v = 0; v < e.n; v++) {
                    if (e.state[v] == ThreadEngine.BLOCKED && e.waitKind[v] == ThreadEngine.W_MARKER) {
                        e.wake(v, now);
                    }
                }
                return;
            default:
                break;
        }
        e.wake(u, now);
    }

    static void checkLeftovers(ThreadEngine e) {
        for (int u = 0; u < e.n; u++) {
            if (e.state[u] == ThreadEngine.NOT_STARTED) {
                e.rp.bad(e.rd[u].name() + ": thread " + u + " was never started: no spawn record activated it"
                        + " (use -p for traces without spawn and join records)");
            } else if (e.state[u] == ThreadEngine.PARKED && e.rd[u].next() != RecordKind.EOF) {
                e.rp.bad(e.rd[u].name() + ": byte offset " + e.rd[u].offset() + ": records after thread " + u
                        + "'s last join, but no spawn activated it again");
            }
        }
    }
}
