package org.dsmscope.agent.rt;

import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;
import org.dsmscope.trace.CallType;

/**
 * Entry points patched into {@code java.lang.Thread} (SPEC §3): {@code start} numbers a child of a traced thread
 * and records the spawn (01), {@code join(long)} records a join (02) when the joined thread has ended, and
 * {@code exit} (the JVM's per-thread cleanup) records the thread's end (extension 20) and finishes its file.
 */
public final class ThreadHooks {
    private ThreadHooks() {
    }

    /** Start of Thread.start() on {@code child}, in the starting thread. */
    public static void starting(Thread child) {
        try {
            if (TraceRuntime.active()) {
                TraceRuntime.threadStarting(child);
            }
        } catch (Throwable e) {
            // never disturb Thread.start
        }
    }

    /**
     * Start of Thread.join(long) on {@code target}, in the joining thread: its records go to an on-the-fly analysis,
     * with the hint that an untimed join ({@code millis} 0) of a running thread has begun
     * ({@link TraceRuntime#joining}).
     */
    public static void joining(Thread target, long millis) {
        try {
            ThreadTrace t = TraceRuntime.current();
            if (t.traced) {
                t.pendingStart = TraceRuntime.now();
                if (millis == 0 && target.isAlive()) {
                    TraceRuntime.joining(t, target, t.pendingStart);
                } else {
                    TraceRuntime.blocking(t);
                }
            }
        } catch (Throwable e) {
            // never disturb Thread.join
        }
    }

    /** Normal return of Thread.join(long) on {@code joined}. */
    public static void joined(Thread joined) {
        try {
            ThreadTrace t = TraceRuntime.current();
            if (t.traced && !joined.isAlive()) {
                int idx = TraceRuntime.indexOf(joined);
                if (idx >= 0) {
                    t.call(CallType.JOIN, t.pendingStart, TraceRuntime.now(), 0, 0, idx, 0);
                }
            }
        } catch (Throwable e) {
            // never disturb Thread.join
        }
    }

    /** Start of Thread.exit(), in the ending thread. */
    public static void exiting() {
        try {
            if (TraceRuntime.active()) {
                SyncHooks.endHeldLocks(TraceRuntime.current());
                TraceRuntime.threadExiting();
            }
        } catch (Throwable e) {
            // never disturb thread termination
        }
    }
}
