package org.dsmscope.agent.rt;

import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.WeakIdentityTable;
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
                    begin(t, t.pendingStart, o, 0);
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

    /**
     * Records the start of an outermost critical section on {@code lock} (the object its records name) in mode
     * {@code mode} (1 shared): argument 3 is the acquisition's sequence number on that lock (SPEC §3), taken now,
     * while the thread holds the lock, so that the replay can grant the lock in the order the run took it.
     */
    private static void begin(ThreadTrace t, long t0, Object lock, int mode) {
        WeakIdentityTable.Entry e = Addresses.entry(lock, t);
        t.call(CallType.BEGIN_CRITICAL, t0, TraceRuntime.now(), e.value, mode, e.nextAcquisition(), 0);
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
        Object lock;
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
                w.lock = lockObject(lock);
                w.lockAddr = Addresses.of(w.lock, t);
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
                begin(t, t1, w.lock, 0); // the wait returns holding the lock again: a new acquisition
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
                    begin(t, t0, lockObject(l), mode(l));
                }
            } catch (Throwable e) {
                // recording only
            }
        }
    }

    /**
     * Argument 2 of a critical section on {@code l}: 1 for the read lock of a {@code ReentrantReadWriteLock} or the
     * read-lock view of a {@code StampedLock} (shared: readers hold it together; the replay must not serialize
     * them), else 0.
     */
    private static int mode(Lock l) {
        return l instanceof java.util.concurrent.locks.ReentrantReadWriteLock.ReadLock
                || l.getClass() == READ_VIEW ? 1 : 0;
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
            if (l.getClass() == READ_VIEW && READ_VIEW_LOCK != null) {
                return READ_VIEW_LOCK.get(l);
            }
            if (l.getClass() == WRITE_VIEW && WRITE_VIEW_LOCK != null) {
                return WRITE_VIEW_LOCK.get(l);
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

    /** The read- and write-lock views of a {@code StampedLock} ({@code asReadLock()}, {@code asWriteLock()}). */
    private static final Class<?> READ_VIEW = viewClass("ReadLockView");
    private static final Class<?> WRITE_VIEW = viewClass("WriteLockView");
    private static final java.lang.reflect.Field READ_VIEW_LOCK = field(READ_VIEW, "this$0");
    private static final java.lang.reflect.Field WRITE_VIEW_LOCK = field(WRITE_VIEW, "this$0");

    private static java.lang.reflect.Field syncField(Class<?> c) {
        return field(c, "sync");
    }

    private static java.lang.reflect.Field field(Class<?> c, String name) {
        try {
            java.lang.reflect.Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Class<?> viewClass(String name) {
        try {
            return Class.forName("java.util.concurrent.locks.StampedLock$" + name, false, null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Void.class; // never a lock's class
        }
    }

    // ---- java.util.concurrent.locks.StampedLock ----
    // A write stamp is an exclusive section, a read stamp a shared one (argument 2 = 1), both naming the lock;
    // optimistic reads hold nothing and are not recorded. Per thread, the write hold is counted under the lock and
    // the read holds (a thread may hold several read stamps) under the lock's SyncState, so that only the first
    // acquire and the last release of each are recorded; a release by a thread that holds nothing (a stamp handed
    // to another thread) is not recorded.

    /** {@code l.writeLock()}. */
    public static long stampedWriteLock(StampedLock l) {
        long t0 = start();
        return stampAcquired(l, l.writeLock(), false, t0);
    }

    /** {@code l.writeLockInterruptibly()}. */
    public static long stampedWriteLockInterruptibly(StampedLock l) throws InterruptedException {
        long t0 = start();
        return stampAcquired(l, l.writeLockInterruptibly(), false, t0);
    }

    /** {@code l.tryWriteLock()}. */
    public static long stampedTryWriteLock(StampedLock l) {
        long t0 = start();
        return stampAcquired(l, l.tryWriteLock(), false, t0);
    }

    /** {@code l.tryWriteLock(time, unit)}. */
    public static long stampedTryWriteLock(StampedLock l, long time, TimeUnit unit) throws InterruptedException {
        long t0 = start();
        return stampAcquired(l, l.tryWriteLock(time, unit), false, t0);
    }

    /** {@code l.readLock()}. */
    public static long stampedReadLock(StampedLock l) {
        long t0 = start();
        return stampAcquired(l, l.readLock(), true, t0);
    }

    /** {@code l.readLockInterruptibly()}. */
    public static long stampedReadLockInterruptibly(StampedLock l) throws InterruptedException {
        long t0 = start();
        return stampAcquired(l, l.readLockInterruptibly(), true, t0);
    }

    /** {@code l.tryReadLock()}. */
    public static long stampedTryReadLock(StampedLock l) {
        long t0 = start();
        return stampAcquired(l, l.tryReadLock(), true, t0);
    }

    /** {@code l.tryReadLock(time, unit)}. */
    public static long stampedTryReadLock(StampedLock l, long time, TimeUnit unit) throws InterruptedException {
        long t0 = start();
        return stampAcquired(l, l.tryReadLock(time, unit), true, t0);
    }

    /** {@code l.unlockWrite(stamp)}. */
    public static void stampedUnlockWrite(StampedLock l, long stamp) {
        l.unlockWrite(stamp);
        stampReleased(l, false);
    }

    /** {@code l.unlockRead(stamp)}. */
    public static void stampedUnlockRead(StampedLock l, long stamp) {
        l.unlockRead(stamp);
        stampReleased(l, true);
    }

    /** {@code l.unlock(stamp)}: a write or a read stamp. */
    public static void stampedUnlock(StampedLock l, long stamp) {
        boolean read = !StampedLock.isWriteLockStamp(stamp);
        l.unlock(stamp);
        stampReleased(l, read);
    }

    /** {@code l.tryUnlockWrite()}. */
    public static boolean stampedTryUnlockWrite(StampedLock l) {
        boolean ok = l.tryUnlockWrite();
        if (ok) {
            stampReleased(l, false);
        }
        return ok;
    }

    /** {@code l.tryUnlockRead()}. */
    public static boolean stampedTryUnlockRead(StampedLock l) {
        boolean ok = l.tryUnlockRead();
        if (ok) {
            stampReleased(l, true);
        }
        return ok;
    }

    /** {@code l.tryConvertToWriteLock(stamp)}: from a read stamp, the read section ends and a write one begins. */
    public static long stampedTryConvertToWriteLock(StampedLock l, long stamp) {
        long t0 = start();
        long s = l.tryConvertToWriteLock(stamp);
        if (s != 0 && !StampedLock.isWriteLockStamp(stamp)) {
            if (StampedLock.isReadLockStamp(stamp)) {
                stampReleased(l, true);
            }
            stampAcquired(l, s, false, t0);
        }
        return s;
    }

    /** {@code l.tryConvertToReadLock(stamp)}: from a write stamp, the write section ends and a read one begins. */
    public static long stampedTryConvertToReadLock(StampedLock l, long stamp) {
        long t0 = start();
        long s = l.tryConvertToReadLock(stamp);
        if (s != 0 && !StampedLock.isReadLockStamp(stamp)) {
            if (StampedLock.isWriteLockStamp(stamp)) {
                stampReleased(l, false);
            }
            stampAcquired(l, s, true, t0);
        }
        return s;
    }

    /** {@code l.tryConvertToOptimisticRead(stamp)}: a write or read stamp's section ends. */
    public static long stampedTryConvertToOptimisticRead(StampedLock l, long stamp) {
        long s = l.tryConvertToOptimisticRead(stamp);
        if (s != 0 && StampedLock.isLockStamp(stamp)) {
            stampReleased(l, StampedLock.isReadLockStamp(stamp));
        }
        return s;
    }

    private static long start() {
        return TraceRuntime.current().traced ? TraceRuntime.now() : 0;
    }

    /** Records the start of a section for a non-zero {@code stamp}; returns the stamp. */
    private static long stampAcquired(StampedLock l, long stamp, boolean read, long t0) {
        ThreadTrace t = TraceRuntime.current();
        if (stamp != 0 && t.traced) {
            try {
                Object key = l;
                if (read) {
                    SyncState st = SyncState.of(l);
                    st.readsOf = l;
                    key = st;
                }
                if (t.locks.inc(key) == 1) {
                    begin(t, t0, l, read ? 1 : 0);
                }
            } catch (Throwable e) {
                // recording only
            }
        }
        return stamp;
    }

    /**
     * At the end of thread {@code t} (in it): ends the sections of the locks it still holds. In Java a {@code Lock}
     * or a stamp may outlive its thread (the lock stays held); in a run that finishes no thread acquires it
     * afterwards (one that tries waits forever), and the replay's model has no section that outlives its thread,
     * so the trace records the release at the thread's end. Monitors cannot be held past their block.
     */
    public static void endHeldLocks(ThreadTrace t) {
        if (!t.traced) {
            return;
        }
        try {
            Object[] held = t.locks.held();
            if (held.length == 0) {
                return;
            }
            long n = TraceRuntime.now();
            for (Object k : held) {
                Object lock;
                int mode;
                if (k instanceof Lock) {
                    lock = lockObject(k);
                    mode = mode((Lock) k);
                } else if (k instanceof SyncState && ((SyncState) k).readsOf != null) {
                    lock = ((SyncState) k).readsOf;
                    mode = 1;
                } else {
                    lock = k; // a StampedLock's write hold
                    mode = 0;
                }
                t.call(CallType.END_CRITICAL, n, n, Addresses.of(lock, t), mode, 0, 0);
                t.locks.set(k, 0);
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    private static void stampReleased(StampedLock l, boolean read) {
        ThreadTrace t = TraceRuntime.current();
        if (t.traced) {
            try {
                if (t.locks.dec(read ? SyncState.of(l) : l) == 0) {
                    long n = TraceRuntime.now();
                    t.call(CallType.END_CRITICAL, n, n, Addresses.of(l, t), read ? 1 : 0, 0, 0);
                }
            } catch (Throwable e) {
                // recording only
            }
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
