package org.dsmscope.agent.rt;

import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;
import org.dsmscope.trace.CallType;

/**
 * Level 1 entry points for critical sections and condition waits (seed 000 A.1 types 06/07, SPEC §3 and the
 * extension types 21/22): {@code synchronized} blocks and methods, {@code java.util.concurrent.locks.Lock}
 * (outermost acquire and release only, argument 1 the lock's synthetic address), {@code Object.wait/notify} and
 * {@code Condition.await/signal} with per-object sequence numbers pairing each wait with the wake-up that ended it.
 *
 * <p>Each hook performs the program's own operation unchanged (its exceptions propagate as they are) and records
 * around it; recording never throws.
 */
public final class SyncHooks {
    private SyncHooks() {
    }

    /** Current time in µs (used by generated call wrappers). */
    public static long now() {
        return TraceRuntime.now();
    }

    // ---- synchronized ----

    /** Before monitorenter: notes the start time. */
    public static void monitorEnter(Object o) {
        ThreadTrace t = TraceRuntime.current();
        if (t.traced) {
            t.pendingStart = TraceRuntime.now();
        }
    }

    /** After monitorenter: records the start of an outermost critical section. */
    public static void monitorEntered(Object o) {
        ThreadTrace t = TraceRuntime.current();
        if (t.traced) {
            try {
                if (t.monitors.inc(o) == 1) {
                    t.call(CallType.BEGIN_CRITICAL, t.pendingStart, TraceRuntime.now(), Addresses.of(o, t), 0, 0, 0);
                }
            } catch (Throwable e) {
                // recording only
            }
        }
    }

    /** Entry of a synchronized method (the monitor is held). */
    public static void methodEntered(Object o) {
        ThreadTrace t = TraceRuntime.current();
        if (t.traced) {
            t.pendingStart = TraceRuntime.now();
            monitorEntered(o);
        }
    }

    /** After monitorexit, or at the exit of a synchronized method: records the end of an outermost section. */
    public static void monitorExit(Object o) {
        ThreadTrace t = TraceRuntime.current();
        if (t.traced) {
            try {
                if (t.monitors.dec(o) == 0) {
                    long n = TraceRuntime.now();
                    t.call(CallType.END_CRITICAL, n, n, Addresses.of(o, t), 0, 0, 0);
                }
            } catch (Throwable e) {
                // recording only
            }
        }
    }

    // ---- Object.wait / notify ----

    /** {@code o.wait()}. */
    public static void objWait(Object o) throws InterruptedException {
        objWait(o, 0L);
    }

    /** {@code o.wait(ms, ns)}. */
    public static void objWait(Object o, long ms, int ns) throws InterruptedException {
        if (ns < 0 || ns > 999999) {
            o.wait(ms, ns);
            return;
        }
        objWait(o, ms + (ns > 0 && ms < Long.MAX_VALUE ? 1 : 0));
    }

    /** {@code o.wait(ms)}. */
    public static void objWait(Object o, long ms) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || ms < 0 || !Thread.holdsLock(o)) {
            o.wait(ms);
            return;
        }
        Wait w = beginWait(t, o, o, t.monitors);
        try {
            o.wait(ms);
        } finally {
            endWait(t, w, ms > 0);
        }
    }

    /** {@code o.notify()}. */
    public static void objNotify(Object o) {
        o.notify();
        wake(o, false);
    }

    /** {@code o.notifyAll()}. */
    public static void objNotifyAll(Object o) {
        o.notifyAll();
        wake(o, true);
    }

    /** A wait in progress: what the end of the wait records. */
    private static final class Wait {
        SyncState state;
        long[] ticket;
        long addr;
        long lockAddr;
        boolean inSection;
        long t0;
    }

    private static Wait beginWait(ThreadTrace t, Object waitObj, Object lock, org.dsmscope.agent.core.DepthMap held) {
        try {
            Wait w = new Wait();
            w.t0 = TraceRuntime.now();
            w.state = SyncState.of(waitObj);
            synchronized (w.state) {
                w.ticket = w.state.enqueue();
            }
            w.addr = Addresses.of(waitObj, t);
            if (lock != null && held.get(lock) > 0) {
                w.inSection = true;
                w.lockAddr = Addresses.of(lockObject(lock), t);
                t.call(CallType.END_CRITICAL, w.t0, w.t0, w.lockAddr, 0, 0, 0);
            }
            TraceRuntime.blocking(t);
            return w;
        } catch (Throwable e) {
            return null;
        }
    }

    private static void endWait(ThreadTrace t, Wait w, boolean timed) {
        if (w == null) {
            return;
        }
        try {
            long t1 = TraceRuntime.now();
            long seq = w.state.leave(w.ticket);
            t.call(CallType.COND_WAIT, w.t0, t1, w.addr, seq, seq == 0 && timed ? 1 : 0, 0);
            if (w.inSection) {
                t.call(CallType.BEGIN_CRITICAL, t1, t1, w.lockAddr, 0, 0, 0);
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    private static void wake(Object o, boolean all) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return;
        }
        try {
            long n = TraceRuntime.now();
            SyncState s = SyncState.of(o);
            long seq = all ? s.wakeAll() : s.wakeOne();
            t.call(CallType.COND_WAKE, n, n, Addresses.of(o, t), seq, all ? 1 : 0, 0);
        } catch (Throwable e) {
            // recording only
        }
    }

    // ---- java.util.concurrent.locks ----

    /** {@code l.lock()}. */
    public static void lock(Lock l) {
        ThreadTrace t = TraceRuntime.current();
        long t0 = t.traced ? TraceRuntime.now() : 0;
        l.lock();
        acquired(t, l, t0);
    }

    /** {@code l.lockInterruptibly()}. */
    public static void lockInterruptibly(Lock l) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = t.traced ? TraceRuntime.now() : 0;
        l.lockInterruptibly();
        acquired(t, l, t0);
    }

    /** {@code l.tryLock()}. */
    public static boolean tryLock(Lock l) {
        ThreadTrace t = TraceRuntime.current();
        long t0 = t.traced ? TraceRuntime.now() : 0;
        boolean ok = l.tryLock();
        if (ok) {
            acquired(t, l, t0);
        }
        return ok;
    }

    /** {@code l.tryLock(time, unit)}. */
    public static boolean tryLock(Lock l, long time, TimeUnit unit) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = t.traced ? TraceRuntime.now() : 0;
        boolean ok = l.tryLock(time, unit);
        if (ok) {
            acquired(t, l, t0);
        }
        return ok;
    }

    private static void acquired(ThreadTrace t, Lock l, long t0) {
        if (t.traced) {
            try {
                if (t.locks.inc(l) == 1) {
                    t.call(CallType.BEGIN_CRITICAL, t0, TraceRuntime.now(), Addresses.of(lockObject(l), t), mode(l),
                            0, 0);
                }
            } catch (Throwable e) {
                // recording only
            }
        }
    }

    /**
     * Argument 2 of a critical section on {@code l}: 1 for the read lock of a {@code ReentrantReadWriteLock}
     * (shared: readers hold it together; the replay must not serialize them), else 0.
     */
    private static int mode(Lock l) {
        return l instanceof java.util.concurrent.locks.ReentrantReadWriteLock.ReadLock ? 1 : 0;
    }

    /**
     * The object a lock's critical sections name: for the read and the write lock of a {@code
     * ReentrantReadWriteLock}, the synchronizer both share, so that the replay makes a writer wait for the readers
     * of the same lock and the other way round; any other lock itself. (The agent opens {@code
     * java.util.concurrent.locks} to itself at start-up to read that field; if it could not, each lock names
     * itself.)
     */
    static Object lockObject(Object l) {
        try {
            if (l instanceof java.util.concurrent.locks.ReentrantReadWriteLock.ReadLock && READ_SYNC != null) {
                return READ_SYNC.get(l);
            }
            if (l instanceof java.util.concurrent.locks.ReentrantReadWriteLock.WriteLock && WRITE_SYNC != null) {
                return WRITE_SYNC.get(l);
            }
        } catch (IllegalAccessException | RuntimeException e) {
            // the lock itself
        }
        return l;
    }

    private static final java.lang.reflect.Field READ_SYNC =
            syncField(java.util.concurrent.locks.ReentrantReadWriteLock.ReadLock.class);
    private static final java.lang.reflect.Field WRITE_SYNC =
            syncField(java.util.concurrent.locks.ReentrantReadWriteLock.WriteLock.class);

    private static java.lang.reflect.Field syncField(Class<?> c) {
        try {
            java.lang.reflect.Field f = c.getDeclaredField("sync");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** {@code l.unlock()}. */
    public static void unlock(Lock l) {
        l.unlock();
        ThreadTrace t = TraceRuntime.current();
        if (t.traced) {
            try {
                if (t.locks.dec(l) == 0) {
                    long n = TraceRuntime.now();
                    t.call(CallType.END_CRITICAL, n, n, Addresses.of(lockObject(l), t), mode(l), 0, 0);
                }
            } catch (Throwable e) {
                // recording only
            }
        }
    }

    /** {@code l.newCondition()}: remembers the condition's lock. */
    public static Condition newCondition(Lock l) {
        Condition c = l.newCondition();
        if (TraceRuntime.active() && c != null) {
            try {
                SyncState.of(c).lock = l;
            } catch (Throwable e) {
                // recording only
            }
        }
        return c;
    }

    private static Wait beginAwait(ThreadTrace t, Condition c) {
        Object lock;
        try {
            lock = SyncState.of(c).lock;
        } catch (Throwable e) {
            lock = null;
        }
        return beginWait(t, c, lock, t.locks);
    }

    /** {@code c.await()}. */
    public static void await(Condition c) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            c.await();
            return;
        }
        Wait w = beginAwait(t, c);
        try {
            c.await();
        } finally {
            endWait(t, w, false);
        }
    }

    /** {@code c.awaitUninterruptibly()}. */
    public static void awaitUninterruptibly(Condition c) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            c.awaitUninterruptibly();
            return;
        }
        Wait w = beginAwait(t, c);
        try {
            c.awaitUninterruptibly();
        } finally {
            endWait(t, w, false);
        }
    }

    /** {@code c.await(time, unit)}. */
    public static boolean await(Condition c, long time, TimeUnit unit) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return c.await(time, unit);
        }
        Wait w = beginAwait(t, c);
        try {
            return c.await(time, unit);
        } finally {
            endWait(t, w, true);
        }
    }

    /** {@code c.awaitNanos(nanos)}. */
    public static long awaitNanos(Condition c, long nanos) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return c.awaitNanos(nanos);
        }
        Wait w = beginAwait(t, c);
        try {
            return c.awaitNanos(nanos);
        } finally {
            endWait(t, w, true);
        }
    }

    /** {@code c.awaitUntil(deadline)}. */
    public static boolean awaitUntil(Condition c, Date deadline) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return c.awaitUntil(deadline);
        }
        Wait w = beginAwait(t, c);
        try {
            return c.awaitUntil(deadline);
        } finally {
            endWait(t, w, true);
        }
    }

    /** {@code c.signal()}. */
    public static void signal(Condition c) {
        c.signal();
        wake(c, false);
    }

    /** {@code c.signalAll()}. */
    public static void signalAll(Condition c) {
        c.signalAll();
        wake(c, true);
    }
}
