package org.dsmscope.agent.rt;

import java.util.concurrent.locks.LockSupport;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;
import org.dsmscope.trace.CallType;

/**
 * Level 1 entry points for {@code LockSupport} (issue 28's fallback for hand-written synchronizers, SPEC §3's
 * acquire / release scheme): {@code unpark(thread)} is a release on the unparked thread's object (extension type
 * 23, argument 2 its per-object sequence number, taken before the unpark), and a return from {@code park*} an
 * acquire on the parking thread's object (type 24, argument 2 the sequence number of the last unpark of that thread
 * when it returned, 0 if none), so that the replay resumes a parked thread only after the unpark that let it go.
 *
 * <p>Each hook performs the program's own call unchanged and records around it; recording never throws.
 */
public final class ParkHooks {
    private ParkHooks() {
    }

    /** {@code LockSupport.unpark(thread)}. */
    public static void unpark(Thread thread) {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        long seq = 0;
        if (thread != null && t.traced) {
            try {
                seq = SyncState.of(thread).nextRelease();
            } catch (Throwable e) {
                seq = 0;
            }
        }
        LockSupport.unpark(thread);
        if (seq != 0) {
            record(t, CallType.SYNC_RELEASE, thread, t0, seq);
        }
    }

    /** {@code LockSupport.park()}. */
    public static void park() {
        long t0 = before();
        LockSupport.park();
        parked(t0);
    }

    /** {@code LockSupport.park(blocker)}. */
    public static void park(Object blocker) {
        long t0 = before();
        LockSupport.park(blocker);
        parked(t0);
    }

    /** {@code LockSupport.parkNanos(nanos)}. */
    public static void parkNanos(long nanos) {
        long t0 = before();
        LockSupport.parkNanos(nanos);
        parked(t0);
    }

    /** {@code LockSupport.parkNanos(blocker, nanos)}. */
    public static void parkNanos(Object blocker, long nanos) {
        long t0 = before();
        LockSupport.parkNanos(blocker, nanos);
        parked(t0);
    }

    /** {@code LockSupport.parkUntil(deadline)}. */
    public static void parkUntil(long deadline) {
        long t0 = before();
        LockSupport.parkUntil(deadline);
        parked(t0);
    }

    /** {@code LockSupport.parkUntil(blocker, deadline)}. */
    public static void parkUntil(Object blocker, long deadline) {
        long t0 = before();
        LockSupport.parkUntil(blocker, deadline);
        parked(t0);
    }

    /** Before a park: its start time; on the fly, the thread's records go to the analysis before it blocks. */
    private static long before() {
        TraceRuntime.blocking(TraceRuntime.current());
        return TraceRuntime.now();
    }

    /** After a park returned: an acquire ordered after the last unpark of this thread (0: none yet). */
    private static void parked(long t0) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return;
        }
        Thread self = Thread.currentThread();
        long seq;
        try {
            seq = SyncState.of(self).lastRelease();
        } catch (Throwable e) {
            return;
        }
        record(t, CallType.SYNC_ACQUIRE, self, t0, seq);
    }

    private static void record(ThreadTrace t, int type, Thread on, long t0, long seq) {
        try {
            t.call(type, t0, TraceRuntime.now(), Addresses.of(on, t), seq, 1, 0);
        } catch (Throwable e) {
            // recording only
        }
    }
}
